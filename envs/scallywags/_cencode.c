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
 * naming the field, so no index computed from the view can fall outside its block. After
 * an error ``out`` holds a partial vector. encode_into checks that the view is a tuple of
 * V_COUNT items first, so the writers read its items with PyTuple_GET_ITEM; ints and bools
 * of one digit (all a real view holds) are read without a call on CPython 3.11 (int_of),
 * anything else through the checked ce_long.
 */
#include "cencode.h"

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

/* -- the layout -------------------------------------------------------------------------- */

/* The layout fields the encoder writes; the constructor gets each one's (start, stop) */
enum {
    L_COIN_IN_MIDDLE, L_COIN_IN_TAKE, L_COIN_SLOT, L_COIN_FACE_UP, L_COIN_VALUE_KNOWN,
    L_COIN_VALUE, L_COIN_KNOWN_BY, L_TAKE_SIZE, L_TAKE_KNOWN_VALUE, L_TAKE_UNKNOWN,
    L_UNKNOWN_MEAN, L_SEAT_PRESENT, L_COIN_SELECTED, L_HAND, L_HAND_SIZE, L_DISCARD,
    L_DRAW_SIZE, L_RESHUFFLED, L_ACTOR, L_TO_ACT, L_PHASE, L_PENDING_CARD, L_PENDING_STEP,
    L_PENDING_RECEIVER, L_TURN, L_COUNT
};
static const char *const LAYOUT_FIELDS[L_COUNT] = {
    "coin_in_middle", "coin_in_take", "coin_slot", "coin_face_up", "coin_value_known",
    "coin_value", "coin_known_by", "take_size", "take_known_value", "take_unknown",
    "unknown_mean", "seat_present", "coin_selected", "hand", "hand_size", "discard",
    "draw_size", "reshuffled", "actor", "to_act", "phase", "pending_card", "pending_step",
    "pending_receiver", "turn",
};

/* seat offsets are bits of a long (the knowers masks) and index small stack arrays */
#define MAX_SEATS 16
/* coin values index a lookup table of this many entries at most */
#define MAX_VALUE 100000
/* coin slots index a table of this many entries at most, plus one */
#define MAX_TAKE_LIMIT 100000

typedef struct {
    PyObject_HEAD
    Py_ssize_t size;               /* layout size */
    Py_ssize_t at[L_COUNT];        /* start of each layout field */
    long num_coins, seats, num_cards, num_values;
    long *value_index;             /* coin value -> its index among the distinct values, or -1 */
    long max_value;                /* value_index has max_value + 1 entries */
    long take_limit;               /* the game's (coin_slot is slot / take limit) */
    float *slot_value;             /* coin_slot's float for each slot 0..take_limit */
    long hand_size, total_value;   /* total_value: of all the coins */
    long total_cards;              /* max(cards in the game, 1) */
    double inv_hand;               /* 1.0 / hand size */
    double *inv_copies;            /* per card kind: 1.0 / max(copies, 1) */
    PyObject *phases;              /* tuple of str: the "phase" one-hot's order */
    long blow, yo_ho;              /* the cards whose targets mix coins and seats */
    int ready;                     /* the constructor succeeded */
} Encoder;

/* Everything encode_into reads from the view, besides the coin and card tuples. */
typedef struct {
    long me, n, limit;
    long off[MAX_SEATS];           /* the seat offset of each seat 0..n-1 */
} Seats;

/* (seat - me) mod n, in 0..n-1, for a seat already checked to lie in 0..n-1 */
static inline long offset_of(long seat, const Seats *s)
{
    return s->off[seat];
}

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
static int seat_in(PyObject *obj, const char *name, Py_ssize_t index, const Seats *s,
                   long *v)
{
    return long_in(obj, name, index, 0, s->n - 1, v);
}

/* -- the coin blocks ------------------------------------------------------------------- */

/* coin_in_middle, coin_in_take, coin_slot, coin_face_up, coin_value_known, coin_value,
 * coin_known_by (coin by coin), then the take statistics derived from the same coins:
 * take_size, take_known_value, take_unknown and unknown_mean. */
static int write_coins(const Encoder *e, PyObject *view, const Seats *s, float *o)
{
    const long nc = e->num_coins, S = e->seats, nv = e->num_values;
    PyObject *values = ce_tuple_at(view, V_COIN_VALUES, nc, "coin_values");
    PyObject *face_up = ce_tuple_at(view, V_FACE_UP, nc, "face_up");
    PyObject *owner = ce_tuple_at(view, V_COIN_OWNER, nc, "coin_owner");
    PyObject *slot = ce_tuple_at(view, V_COIN_SLOT, nc, "coin_slot");
    PyObject *knowers = ce_tuple_at(view, V_KNOWERS, nc, "knowers");
    if (!values || !face_up || !owner || !slot || !knowers)
        return -1;
    long size[MAX_SEATS] = {0}, known[MAX_SEATS] = {0}, unknown[MAX_SEATS] = {0};
    long seen_sum = 0, seen_count = 0;
    float *in_middle = o + e->at[L_COIN_IN_MIDDLE], *in_take = o + e->at[L_COIN_IN_TAKE],
          *slots = o + e->at[L_COIN_SLOT], *up_row = o + e->at[L_COIN_FACE_UP],
          *known_row = o + e->at[L_COIN_VALUE_KNOWN], *value_row = o + e->at[L_COIN_VALUE],
          *known_by = o + e->at[L_COIN_KNOWN_BY];
    const long all_seats = (1L << s->n) - 1;
    for (long c = 0; c < nc; c++) {
        long v, up, seat, pos, mask;
        if (long_in(PyTuple_GET_ITEM(values, c), "coin_values", c, -1, e->max_value, &v) < 0
                || long_in(PyTuple_GET_ITEM(face_up, c), "face_up", c, 0, 1, &up) < 0
                || long_in(PyTuple_GET_ITEM(owner, c), "coin_owner", c, -1, s->n - 1,
                           &seat) < 0
                || long_in(PyTuple_GET_ITEM(slot, c), "coin_slot", c, 0, e->take_limit,
                           &pos) < 0
                || long_in(PyTuple_GET_ITEM(knowers, c), "knowers", c, 0, all_seats,
                           &mask) < 0)
            return -1;
        long vi = v >= 0 ? e->value_index[v] : -1;
        if (v >= 0 && vi < 0) {
            PyErr_Format(PyExc_ValueError, "coin_values[%ld]: no coin has the value %ld", c, v);
            return -1;
        }
        /* where it lies: the middle, or the take of a seat offset */
        if (seat < 0) {
            in_middle[c] = 1.0f;
        } else {
            long d = offset_of(seat, s);
            in_take[c * S + d] = 1.0f;
            size[d]++;
            if (v >= 0)
                known[d] += v;
            else
                unknown[d]++;
        }
        slots[c] = e->slot_value[pos];
        up_row[c] = (float)up;
        /* a face-up coin's value is always in the view; "known" follows the value */
        known_row[c] = (v >= 0 || up) ? 1.0f : 0.0f;
        if (v >= 0) {
            value_row[c * nv + vi] = 1.0f;
            seen_sum += v;
            seen_count++;
        }
        /* who has seen it: absolute seat bits, written by seat offset */
        for (long q = 0; mask; q++, mask >>= 1)
            if (mask & 1)
                known_by[c * S + offset_of(q, s)] = 1.0f;
    }
    /* the statistics divide by the view's take limit (the slots by the game's) */
    const double lim = (double)s->limit, lim8 = (double)(s->limit * 8);
    for (long d = 0; d < s->n; d++) {
        o[e->at[L_TAKE_SIZE] + d] = (float)((double)size[d] / lim);
        o[e->at[L_TAKE_KNOWN_VALUE] + d] = (float)((double)known[d] / lim8);
        o[e->at[L_TAKE_UNKNOWN] + d] = (float)((double)unknown[d] / lim);
    }
    /* the mean value of the coins the observer has not seen, / 8 (in that order) */
    long unseen = nc - seen_count;
    o[e->at[L_UNKNOWN_MEAN]] = unseen
        ? (float)((double)(e->total_value - seen_sum) / (double)unseen / 8.0) : 0.0f;
    return 0;
}

/* seat_present: the first n seat offsets. */
static void write_seat_present(const Encoder *e, const Seats *s, float *o)
{
    for (long d = 0; d < s->n; d++)
        o[e->at[L_SEAT_PRESENT] + d] = 1.0f;
}

/* -- the cards --------------------------------------------------------------------------- */

/* ``counts`` (a tuple of one count per card kind) times ``scale[k]`` (or ``one`` when
 * ``scale`` is NULL) into the block at ``at``: count * (1 / copies), as Python's mul. */
static int write_card_counts(const Encoder *e, PyObject *view, int field, Py_ssize_t at,
                             const double *scale, double one, float *o)
{
    const char *name = VIEW_FIELDS[field];
    PyObject *counts = ce_tuple_at(view, field, e->num_cards, name);
    if (counts == NULL)
        return -1;
    for (long k = 0; k < e->num_cards; k++) {
        long x;
        if (int_of(PyTuple_GET_ITEM(counts, k), name, &x) < 0)
            return -1;
        o[at + k] = (float)((scale ? scale[k] : one) * (double)x);
    }
    return 0;
}

/* hand (own counts / hand size), hand_size (by seat offset / hand size), discard and
 * reshuffled (counts / copies), draw_size (/ cards in the game). */
static int write_cards(const Encoder *e, PyObject *view, const Seats *s, float *o)
{
    if (write_card_counts(e, view, V_HAND, e->at[L_HAND], NULL, e->inv_hand, o) < 0
            || write_card_counts(e, view, V_DISCARD, e->at[L_DISCARD], e->inv_copies, 0, o) < 0
            || write_card_counts(e, view, V_RESHUFFLED, e->at[L_RESHUFFLED], e->inv_copies, 0,
                                 o) < 0)
        return -1;
    PyObject *sizes = ce_tuple_at(view, V_HAND_SIZES, s->n, "hand_sizes");
    if (sizes == NULL)
        return -1;
    for (long d = 0; d < s->n; d++) {
        long x;
        if (int_of(PyTuple_GET_ITEM(sizes, (s->me + d) % s->n), "hand_sizes", &x) < 0)
            return -1;
        o[e->at[L_HAND_SIZE] + d] = (float)(e->inv_hand * (double)x);
    }
    long draw;
    if (int_of(PyTuple_GET_ITEM(view, V_DRAW_SIZE), "draw_size", &draw) < 0)
        return -1;
    o[e->at[L_DRAW_SIZE]] = (float)((double)draw / (double)e->total_cards);
    return 0;
}

/* -- whose turn, the phase, the pending card ---------------------------------------------- */

/* actor and to_act: one-hots by seat offset. */
static int write_actor(const Encoder *e, PyObject *view, const Seats *s, float *o)
{
    long actor;
    PyObject *item = ce_item(view, V_ACTOR, "actor");
    if (item == NULL || seat_in(item, "actor", -1, s, &actor) < 0)
        return -1;
    o[e->at[L_ACTOR] + offset_of(actor, s)] = 1.0f;
    PyObject *acting = ce_tuple_at(view, V_ACTING, -1, "acting");
    if (acting == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(acting); i++) {
        long seat;
        if (seat_in(PyTuple_GET_ITEM(acting, i), "acting", i, s, &seat) < 0)
            return -1;
        o[e->at[L_TO_ACT] + offset_of(seat, s)] = 1.0f;
    }
    return 0;
}

/* phase: one-hot of the phase's name among the game's phases. */
static int write_phase(const Encoder *e, PyObject *view, float *o)
{
    PyObject *phase = ce_item(view, V_PHASE, "phase");
    if (phase == NULL)
        return -1;
    if (!PyUnicode_Check(phase)) {
        PyErr_Format(PyExc_TypeError, "phase: expected a str, got %.100s",
                     Py_TYPE(phase)->tp_name);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(e->phases); i++) {
        if (phase == PyTuple_GET_ITEM(e->phases, i)) {      /* the same (interned) str */
            o[e->at[L_PHASE] + i] = 1.0f;
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(e->phases); i++) {
        int eq = PyUnicode_Compare(phase, PyTuple_GET_ITEM(e->phases, i));
        if (eq == -1 && PyErr_Occurred())
            return -1;
        if (eq == 0) {
            o[e->at[L_PHASE] + i] = 1.0f;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "phase: %R is not one of %R", phase, e->phases);
    return -1;
}

/* pending_card (one-hot), pending_step (targets chosen / 4), and the targets: the coins
 * chosen go to coin_selected, the seats to pending_receiver (by seat offset). Blow Me
 * Down! chooses two coins then two seats, Yo Ho Ho! a coin then a seat, every other card
 * coins only. */
static int write_pending(const Encoder *e, PyObject *view, const Seats *s, float *o)
{
    long card;
    PyObject *item = ce_item(view, V_CARD, "card");
    if (item == NULL || long_in(item, "card", -1, -1, e->num_cards - 1, &card) < 0)
        return -1;
    PyObject *chosen = ce_tuple_at(view, V_CHOSEN, -1, "chosen");
    if (chosen == NULL)
        return -1;
    Py_ssize_t steps = PyTuple_GET_SIZE(chosen);
    o[e->at[L_PENDING_STEP]] = (float)((double)steps / 4.0);
    if (card < 0)
        return 0;
    o[e->at[L_PENDING_CARD] + card] = 1.0f;
    Py_ssize_t coin_steps = card == e->blow ? 2 : card == e->yo_ho ? 1 : steps;
    for (Py_ssize_t i = 0; i < steps; i++) {
        long target;
        if (i < coin_steps) {
            if (long_in(PyTuple_GET_ITEM(chosen, i), "chosen", i, 0, e->num_coins - 1,
                        &target) < 0)
                return -1;
            o[e->at[L_COIN_SELECTED] + target] = 1.0f;
        } else {
            if (seat_in(PyTuple_GET_ITEM(chosen, i), "chosen", i, s, &target) < 0)
                return -1;
            o[e->at[L_PENDING_RECEIVER] + offset_of(target, s)] = 1.0f;
        }
    }
    return 0;
}

/* turn: turns / 400, clipped at 1 (Python's min(x, 1.0)). */
static int write_turn(const Encoder *e, PyObject *view, float *o)
{
    long turns;
    if (int_of(PyTuple_GET_ITEM(view, V_TURNS), "turns", &turns) < 0)
        return -1;
    double t = (double)turns / 400.0;
    o[e->at[L_TURN]] = (float)(1.0 < t ? 1.0 : t);
    return 0;
}

/* -- the type ---------------------------------------------------------------------------- */

static PyObject *Encoder_encode_into(Encoder *e, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode_into() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *view = args[0], *out = args[1];
    if (!e->ready) {
        PyErr_SetString(PyExc_ValueError, "Encoder: not initialised");
        return NULL;
    }
    if (ce_tuple(view, V_COUNT, "view") == NULL)
        return NULL;
    Seats s;
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
    for (long seat = 0; seat < s.n; seat++)
        s.off[seat] = (seat - s.me + s.n) % s.n;
    Py_buffer buf;
    if (ce_out(out, e->size, &buf) < 0)
        return NULL;
    float *o = buf.buf;
    int rc = write_coins(e, view, &s, o);
    if (rc == 0) {
        write_seat_present(e, &s, o);
        rc = write_cards(e, view, &s, o);
    }
    if (rc == 0)
        rc = write_actor(e, view, &s, o);
    if (rc == 0)
        rc = write_phase(e, view, o);
    if (rc == 0)
        rc = write_pending(e, view, &s, o);
    if (rc == 0)
        rc = write_turn(e, view, o);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* Expected length of each layout field, from the counts. */
static long field_length(int f, long nc, long S, long K, long nv, long nphases)
{
    switch (f) {
    case L_COIN_IN_TAKE: case L_COIN_KNOWN_BY: return nc * S;
    case L_COIN_VALUE: return nc * nv;
    case L_COIN_IN_MIDDLE: case L_COIN_SLOT: case L_COIN_FACE_UP: case L_COIN_VALUE_KNOWN:
    case L_COIN_SELECTED: return nc;
    case L_UNKNOWN_MEAN: case L_DRAW_SIZE: case L_PENDING_STEP: case L_TURN: return 1;
    case L_HAND: case L_DISCARD: case L_RESHUFFLED: case L_PENDING_CARD: return K;
    case L_PHASE: return nphases;
    default: return S;    /* the per-seat-offset fields */
    }
}

static int Encoder_init(Encoder *e, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "slices", "num_coins", "seats", "num_cards",
                             "distinct_values", "take_limit", "hand_size", "total_value",
                             "total_cards", "inv_copies", "phases", "blow", "yo_ho", NULL};
    PyObject *slices, *distinct, *inv_copies, *phases;
    e->ready = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOlllOllllOOll:Encoder", kwlist, &e->size,
                                     &slices, &e->num_coins, &e->seats, &e->num_cards,
                                     &distinct, &e->take_limit, &e->hand_size,
                                     &e->total_value, &e->total_cards, &inv_copies, &phases, &e->blow, &e->yo_ho))
        return -1;
    if (e->num_coins < 1 || e->seats < 1 || e->seats > MAX_SEATS || e->num_cards < 1
            || e->take_limit < 1 || e->hand_size < 1) {
        PyErr_SetString(PyExc_ValueError, "Encoder: counts out of range");
        return -1;
    }
    if (ce_tuple(phases, -1, "phases") == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(phases); i++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(phases, i))) {
            PyErr_SetString(PyExc_TypeError, "phases: expected a tuple of str");
            return -1;
        }
    Py_INCREF(phases);
    Py_XSETREF(e->phases, phases);
    /* coin values: ascending, distinct, 0..MAX_VALUE; their index table */
    Py_ssize_t nv;
    long *vals = ce_longs_new(distinct, "distinct_values", &nv);
    if (vals == NULL)
        return -1;
    int ok = nv >= 1;
    for (Py_ssize_t i = 0; ok && i < nv; i++)
        ok = vals[i] >= 0 && vals[i] <= MAX_VALUE && (i == 0 || vals[i] > vals[i - 1]);
    if (!ok) {
        PyMem_Free(vals);
        PyErr_SetString(PyExc_ValueError, "distinct_values: expected ascending values "
                        "within 0..100000");
        return -1;
    }
    e->num_values = nv;
    e->max_value = vals[nv - 1];
    PyMem_Free(e->value_index);
    e->value_index = PyMem_Malloc(sizeof(long) * (size_t)(e->max_value + 1));
    if (e->value_index == NULL) {
        PyMem_Free(vals);
        PyErr_NoMemory();
        return -1;
    }
    for (long v = 0; v <= e->max_value; v++)
        e->value_index[v] = -1;
    for (Py_ssize_t i = 0; i < nv; i++)
        e->value_index[vals[i]] = i;
    PyMem_Free(vals);
    /* per card kind: 1 / max(copies, 1), as the Python encoder's table */
    Py_ssize_t nk;
    PyMem_Free(e->inv_copies);
    e->inv_copies = ce_doubles_new(inv_copies, "inv_copies", &nk);
    if (e->inv_copies == NULL)
        return -1;
    if (nk != e->num_cards) {
        PyErr_SetString(PyExc_ValueError, "inv_copies: expected one value per card kind");
        return -1;
    }
    /* coin_slot's value of every slot, as the Python encoder's slot / take limit */
    if (e->take_limit > MAX_TAKE_LIMIT) {
        PyErr_Format(PyExc_ValueError, "take_limit: expected at most %d", MAX_TAKE_LIMIT);
        return -1;
    }
    PyMem_Free(e->slot_value);
    e->slot_value = PyMem_Malloc(sizeof(float) * (size_t)(e->take_limit + 1));
    if (e->slot_value == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (long pos = 0; pos <= e->take_limit; pos++)
        e->slot_value[pos] = (float)((double)pos / (double)e->take_limit);
    if (e->total_cards < 1) {
        PyErr_SetString(PyExc_ValueError, "total_cards: expected at least 1");
        return -1;
    }
    e->inv_hand = 1.0 / (double)e->hand_size;
    /* the layout: every field's (start, stop) has the length its counts give */
    if (ce_tuple(slices, L_COUNT, "slices") == NULL)
        return -1;
    for (int f = 0; f < L_COUNT; f++) {
        long ss[2];
        if (ce_longs(PyTuple_GET_ITEM(slices, f), 2, LAYOUT_FIELDS[f], ss) < 0)
            return -1;
        long want = field_length(f, e->num_coins, e->seats, e->num_cards, e->num_values,
                                 (long)PyTuple_GET_SIZE(phases));
        if (ss[0] < 0 || ss[1] > e->size || ss[1] - ss[0] != want) {
            PyErr_Format(PyExc_ValueError, "slices: %s is %ld..%ld, expected %ld values "
                         "within 0..%zd", LAYOUT_FIELDS[f], ss[0], ss[1], want, e->size);
            return -1;
        }
        e->at[f] = ss[0];
    }
    if (e->blow < 0 || e->blow >= e->num_cards || e->yo_ho < 0 || e->yo_ho >= e->num_cards) {
        PyErr_SetString(PyExc_ValueError, "blow, yo_ho: expected card kinds");
        return -1;
    }
    e->ready = 1;
    return 0;
}

static void Encoder_dealloc(Encoder *e)
{
    PyMem_Free(e->value_index);
    PyMem_Free(e->inv_copies);
    PyMem_Free(e->slot_value);
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
