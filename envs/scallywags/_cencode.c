/* Scallywags observation encoder in C: the compiled twin of envs/scallywags/observation.py.
 *
 * ``Encoder(...)`` holds the game's constants, computed in Python from the game's layout and
 * components (observation.compiled_params: the (start, stop) of every layout field named in
 * LAYOUT_FIELDS, the coin values, card copies, take limit, ...); ``encode_into(view, out)``
 * writes the whole observation of a ScallywagsView into ``out`` (a float32 vector of the
 * layout's size), the same floats as the Python encoder, bit for bit: every value is
 * computed in double in the Python code's order of operations, then rounded to float32
 * once, as numpy, array('f') and memoryview writes do. The Python encoder keeps memos to
 * rewrite only what changed; this one writes every block from the view (it is fast enough)
 * and keeps no state besides its constants.
 *
 * The view is read by position (VIEW_FIELDS, checked against ScallywagsView._fields by
 * the tests). Every item is checked: a wrong type raises TypeError, a value outside its
 * range (a seat, coin id, card, slot or value the game does not have) raises ValueError
 * naming the field, so no index computed from the view can fall outside its block. The
 * view is read into an ``sw_view`` of plain numbers, then written by ``sw_write``
 * (encode.h, shared with the compiled engine, _engine.c); after an error ``out`` holds
 * zeros. encode_into checks that the view is a tuple of
 * V_COUNT items first, so the readers take its items with PyTuple_GET_ITEM; ints and bools
 * of one digit (all a real view holds) are read without a call on CPython 3.11 (int_of),
 * anything else through the checked ce_long.
 */
#include "encode.h"

/* -- the view ---------------------------------------------------------------------------- */

/* ScallywagsView's fields, in order (view.py) */
enum {
    V_PLAYER, V_NUM_PLAYERS, V_TAKE_LIMIT, V_COIN_VALUES, V_FACE_UP, V_COIN_OWNER,
    V_COIN_SLOT, V_KNOWERS, V_HAND, V_HAND_SIZES, V_DISCARD, V_RESHUFFLED, V_DRAW_SIZE,
    V_ACTOR, V_PHASE, V_CARD, V_CHOSEN, V_BLOCK_QUEUE, V_ACTING, V_TURNS, V_COUNT
};
static const char *const VIEW_FIELDS[V_COUNT] = {
    "player", "num_players", "take_limit", "coin_values", "face_up", "coin_owner",
    "coin_slot", "knowers", "hand", "hand_sizes", "discard", "reshuffled", "draw_size",
    "actor", "phase", "card", "chosen", "block_queue", "acting", "turns",
};

typedef struct {
    PyObject_HEAD
    sw_enc e;                      /* the constants (encode.h) */
    long *coins;                   /* scratch: the five per-coin rows of a view */
    PyObject *phases;              /* tuple of str: the "phase" one-hot's order */
    int ready;                     /* the constructor succeeded */
} Encoder;

/* ``obj`` as a C long, as ce_long: an int or bool of one digit (every value of a view) is
 * read directly on CPython 3.11; anything else goes through ce_long (big ints, __index__,
 * and its errors). */
static inline int int_of(PyObject *obj, const char *name, long *v)
{
    return ce_small_int(obj, v) ? 0 : ce_long(obj, name, v);
}

/* The ValueError of long_in: item ``index`` of ``name`` (the field itself when < 0). */
static int outside(const char *name, Py_ssize_t index, long v, long lo, long hi)
{
    if (index >= 0)
        PyErr_Format(PyExc_ValueError, "%s[%zd]: %ld is outside %ld..%ld", name, index, v,
                     lo, hi);
    else
        PyErr_Format(PyExc_ValueError, "%s: %ld is outside %ld..%ld", name, v, lo, hi);
    return -1;
}

/* A view item as a long within lo..hi (ValueError naming the field otherwise). */
static inline int long_in(PyObject *obj, const char *name, Py_ssize_t index, long lo,
                          long hi, long *v)
{
    if (int_of(obj, name, v) < 0)
        return -1;
    return *v < lo || *v > hi ? outside(name, index, *v, lo, hi) : 0;
}

/* A seat of the view (0..n-1). */
static int seat_in(PyObject *obj, const char *name, Py_ssize_t index, const sw_view *s,
                   long *v)
{
    return long_in(obj, name, index, 0, s->n - 1, v);
}

/* -- reading the view into an sw_view (every entry checked) ---------------------------- */

/* The five per-coin fields into ``rows`` (values, face_up, owner, slot, knowers). */
static int read_coins(const Encoder *enc, PyObject *view, sw_view *s, long *rows)
{
    const sw_enc *e = &enc->e;
    const long nc = e->num_coins;
    PyObject *values = ce_tuple_at(view, V_COIN_VALUES, nc, "coin_values");
    PyObject *face_up = ce_tuple_at(view, V_FACE_UP, nc, "face_up");
    PyObject *owner = ce_tuple_at(view, V_COIN_OWNER, nc, "coin_owner");
    PyObject *slot = ce_tuple_at(view, V_COIN_SLOT, nc, "coin_slot");
    PyObject *knowers = ce_tuple_at(view, V_KNOWERS, nc, "knowers");
    if (!values || !face_up || !owner || !slot || !knowers)
        return -1;
    long *v = rows, *up = rows + nc, *seat = rows + 2 * nc, *pos = rows + 3 * nc,
         *mask = rows + 4 * nc;
    const long all_seats = (1L << s->n) - 1;
    for (long c = 0; c < nc; c++) {
        if (long_in(PyTuple_GET_ITEM(values, c), "coin_values", c, -1, e->max_value,
                    &v[c]) < 0
                || long_in(PyTuple_GET_ITEM(face_up, c), "face_up", c, 0, 1, &up[c]) < 0
                || long_in(PyTuple_GET_ITEM(owner, c), "coin_owner", c, -1, s->n - 1,
                           &seat[c]) < 0
                || long_in(PyTuple_GET_ITEM(slot, c), "coin_slot", c, 0, e->take_limit,
                           &pos[c]) < 0
                || long_in(PyTuple_GET_ITEM(knowers, c), "knowers", c, 0, all_seats,
                           &mask[c]) < 0)
            return -1;
        if (v[c] >= 0 && e->value_index[v[c]] < 0) {
            PyErr_Format(PyExc_ValueError, "coin_values[%ld]: no coin has the value %ld", c,
                         v[c]);
            return -1;
        }
    }
    s->values = v;
    s->face_up = up;
    s->owner = seat;
    s->slot = pos;
    s->knowers = mask;
    return 0;
}

/* A tuple of one int per card kind into ``dst``. */
static int read_card_counts(const sw_enc *e, PyObject *view, int field, long *dst)
{
    const char *name = VIEW_FIELDS[field];
    PyObject *counts = ce_tuple_at(view, field, e->num_cards, name);
    if (counts == NULL)
        return -1;
    for (long k = 0; k < e->num_cards; k++)
        if (int_of(PyTuple_GET_ITEM(counts, k), name, &dst[k]) < 0)
            return -1;
    return 0;
}

/* hand, discard, reshuffled (into ``cards``: 3 rows of num_cards), hand_sizes (into
 * ``sizes``), draw_size. */
static int read_cards(const sw_enc *e, PyObject *view, sw_view *s, long *cards, long *sizes)
{
    const long K = e->num_cards;
    if (read_card_counts(e, view, V_HAND, cards) < 0
            || read_card_counts(e, view, V_DISCARD, cards + K) < 0
            || read_card_counts(e, view, V_RESHUFFLED, cards + 2 * K) < 0)
        return -1;
    s->hand = cards;
    s->discard = cards + K;
    s->reshuffled = cards + 2 * K;
    PyObject *tuple = ce_tuple_at(view, V_HAND_SIZES, s->n, "hand_sizes");
    if (tuple == NULL)
        return -1;
    for (long p = 0; p < s->n; p++)
        if (int_of(PyTuple_GET_ITEM(tuple, p), "hand_sizes", &sizes[p]) < 0)
            return -1;
    s->hand_sizes = sizes;
    return int_of(PyTuple_GET_ITEM(view, V_DRAW_SIZE), "draw_size", &s->draw_size);
}

/* actor, and acting as the distinct seats it names (into ``acting``: n entries). */
static int read_actor(PyObject *view, sw_view *s, long *acting)
{
    PyObject *item = ce_item(view, V_ACTOR, "actor");
    if (item == NULL || seat_in(item, "actor", -1, s, &s->actor) < 0)
        return -1;
    PyObject *tuple = ce_tuple_at(view, V_ACTING, -1, "acting");
    if (tuple == NULL)
        return -1;
    char named[SW_MAX_SEATS] = {0};
    s->num_acting = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        long seat;
        if (seat_in(PyTuple_GET_ITEM(tuple, i), "acting", i, s, &seat) < 0)
            return -1;
        if (!named[seat]) {          /* a seat named twice is one to_act entry */
            named[seat] = 1;
            acting[s->num_acting++] = seat;
        }
    }
    s->acting = acting;
    return 0;
}

/* phase: its index among the game's phases. */
static int read_phase(const Encoder *enc, PyObject *view, sw_view *s)
{
    PyObject *phase = ce_item(view, V_PHASE, "phase");
    if (phase == NULL)
        return -1;
    if (!PyUnicode_Check(phase)) {
        PyErr_Format(PyExc_TypeError, "phase: expected a str, got %.100s",
                     Py_TYPE(phase)->tp_name);
        return -1;
    }
    PyObject *phases = enc->phases;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(phases); i++) {
        if (phase == PyTuple_GET_ITEM(phases, i)) {      /* the same (interned) str */
            s->phase = (long)i;
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(phases); i++) {
        int eq = PyUnicode_Compare(phase, PyTuple_GET_ITEM(phases, i));
        if (eq == -1 && PyErr_Occurred())
            return -1;
        if (eq == 0) {
            s->phase = (long)i;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "phase: %R is not one of %R", phase, phases);
    return -1;
}

/* card and chosen (into ``*chosen``: ``room`` entries there, else a new array the caller
 * frees), turns. The chosen targets are checked only with a card pending: coins, then
 * seats for Blow Me Down! and Yo Ho Ho!. */
static int read_pending(const sw_enc *e, PyObject *view, sw_view *s, long **chosen,
                        Py_ssize_t room)
{
    PyObject *item = ce_item(view, V_CARD, "card");
    if (item == NULL || long_in(item, "card", -1, -1, e->num_cards - 1, &s->card) < 0)
        return -1;
    PyObject *tuple = ce_tuple_at(view, V_CHOSEN, -1, "chosen");
    if (tuple == NULL)
        return -1;
    Py_ssize_t steps = PyTuple_GET_SIZE(tuple);
    s->num_chosen = (long)steps;
    s->chosen = *chosen;
    if (s->card >= 0) {
        if (steps > room) {
            *chosen = PyMem_Malloc(sizeof(long) * (size_t)steps);
            if (*chosen == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            s->chosen = *chosen;
        }
        Py_ssize_t coin_steps = s->card == e->blow ? 2 : s->card == e->yo_ho ? 1 : steps;
        for (Py_ssize_t i = 0; i < steps; i++) {
            PyObject *target = PyTuple_GET_ITEM(tuple, i);
            if (i < coin_steps ? long_in(target, "chosen", i, 0, e->num_coins - 1,
                                         &(*chosen)[i]) < 0
                               : seat_in(target, "chosen", i, s, &(*chosen)[i]) < 0)
                return -1;
        }
    }
    return int_of(PyTuple_GET_ITEM(view, V_TURNS), "turns", &s->turns);
}

/* -- the type ---------------------------------------------------------------------------- */

static PyObject *Encoder_encode_into(Encoder *enc, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode_into() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *view = args[0], *out = args[1];
    if (!enc->ready) {
        PyErr_SetString(PyExc_ValueError, "Encoder: not initialised");
        return NULL;
    }
    const sw_enc *e = &enc->e;
    if (ce_tuple(view, V_COUNT, "view") == NULL)
        return NULL;
    sw_view s;
    if (int_of(PyTuple_GET_ITEM(view, V_NUM_PLAYERS), "num_players", &s.n) < 0)
        return NULL;
    if (s.n < 1 || s.n > e->seats) {
        PyErr_Format(PyExc_ValueError, "num_players: %ld is outside 1..%ld", s.n, e->seats);
        return NULL;
    }
    if (seat_in(PyTuple_GET_ITEM(view, V_PLAYER), "player", -1, &s, &s.me) < 0
            || long_in(PyTuple_GET_ITEM(view, V_TAKE_LIMIT), "take_limit", -1, 1, LONG_MAX / 8,
                       &s.limit) < 0)
        return NULL;
    sw_offsets(&s);
    Py_buffer buf;
    if (ce_out(out, e->size, &buf) < 0)
        return NULL;
    long sizes[SW_MAX_SEATS], acting[SW_MAX_SEATS], few[8], *chosen = few;
    long *cards = PyMem_Malloc(sizeof(long) * (size_t)(3 * e->num_cards));
    int rc = cards == NULL ? (PyErr_NoMemory(), -1) : 0;
    if (rc == 0)
        rc = read_coins(enc, view, &s, enc->coins);
    if (rc == 0)
        rc = read_cards(e, view, &s, cards, sizes);
    if (rc == 0)
        rc = read_actor(view, &s, acting);
    if (rc == 0)
        rc = read_phase(enc, view, &s);
    if (rc == 0)
        rc = read_pending(e, view, &s, &chosen, 8);
    if (rc == 0)
        sw_write(e, &s, buf.buf);
    if (chosen != few)
        PyMem_Free(chosen);
    PyMem_Free(cards);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static int Encoder_init(Encoder *enc, PyObject *args, PyObject *kwds)
{
    PyObject *phases;
    enc->ready = 0;
    if (sw_enc_init(&enc->e, args, kwds, &phases) < 0)
        return -1;
    Py_INCREF(phases);
    Py_XSETREF(enc->phases, phases);
    PyMem_Free(enc->coins);
    enc->coins = PyMem_Malloc(sizeof(long) * (size_t)(5 * enc->e.num_coins));
    if (enc->coins == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    enc->ready = 1;
    return 0;
}

static void Encoder_dealloc(Encoder *e)
{
    sw_enc_free(&e->e);
    PyMem_Free(e->coins);
    Py_XDECREF(e->phases);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyMethodDef Encoder_methods[] = {
    {"encode_into", (PyCFunction)(void (*)(void))Encoder_encode_into, METH_FASTCALL,
     "encode_into(view, out): write the observation of ``view`` into ``out`` (a writable "
     "C-contiguous float32 vector of the layout's size)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.scallywags._cencode.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Encoder(size, slices, num_coins, seats, num_cards, distinct_values, "
              "take_limit, hand_size, total_value, total_cards, inv_copies, phases, blow, yo_ho): "
              "the "
              "Scallywags observation encoder of one game (see observation.compiled_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Encoder_init,
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_methods = Encoder_methods,
};

/* -- the module -------------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cencode",
    "Scallywags observation encoder in C (the twin of plunder.envs.scallywags.observation).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cencode(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_FIELDS, V_COUNT},
        {"LAYOUT_FIELDS", LAYOUT_FIELDS, L_COUNT},
    };
    return ce_module(&module, &EncoderType, names, 2);
}
