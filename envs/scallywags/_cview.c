/* Scallywags player view in C: the compiled twin of ScallywagsState.python_view
 * (envs/scallywags/engine.py), which stays the reference and the fallback.
 *
 * ``ViewBuilder(...)`` holds the game's constants (engine.view_params: the view and state
 * classes, the game's num_players and take_limit objects, the coin and card counts, the
 * value and count ranges, the phases); ``view(state, player)`` returns the same
 * ScallywagsView as ``state.python_view(player)``: the same named-tuple class, the same
 * field order (VIEW_FIELDS, compared with ScallywagsView._fields by the tests), tuples
 * where Python makes tuples, the state's own item objects where Python copies a list with
 * tuple(), new ints where Python counts or sums.
 *
 * It is still *the* view, the one function that reads a player's private information:
 * it reads the state attributes named in STATE_FIELDS and nothing else, as the Python
 * view does (the other seats' hands only through their sums, the draw pile only through
 * its length, the coin values only through ``seen[player]``). ``current_players()`` is
 * mirrored from the fields it reads (finished, phase, block_queue, actor).
 *
 * Every read is checked: a field of the wrong type raises TypeError, of the wrong length
 * or outside its range (a seat, slot, card, coin value or count the game does not have)
 * ValueError naming the field, a missing block-queue head IndexError; nothing is indexed
 * before its index is checked. A list's items are checked while they are copied into
 * the view's tuple, or counted, with nothing allocated or called in between, so no
 * Python code can change a list under a loop. No state besides the constants.
 */
#include "cencode.h"

/* -- the view -------------------------------------------------------------------------- */

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

/* -- the state ------------------------------------------------------------------------- */

/* The state attributes the view reads: all of them, and only them */
enum {
    S_SEEN, S_FACE_UP, S_WHERE, S_SLOT, S_KNOWERS, S_HANDS, S_DISCARD, S_RESHUFFLED,
    S_DRAW_PILE, S_ACTOR, S_PHASE, S_CARD, S_CHOSEN, S_BLOCK_QUEUE, S_FINISHED, S_TURNS,
    S_COUNT
};
static const char *const STATE_FIELDS[S_COUNT] = {
    "seen", "face_up", "where", "slot", "knowers", "hands", "discard", "reshuffled",
    "draw_pile", "actor", "phase", "card", "chosen", "block_queue", "finished", "turns",
};

/* seats are bits of a knowers mask (a long) and index a stack array of hand sizes */
#define MAX_SEATS 16
/* card kinds index a stack array of discard counts */
#define MAX_CARDS 64

typedef struct {
    PyObject_HEAD
    PyTypeObject *view_cls;        /* ScallywagsView */
    PyTypeObject *state_cls;       /* ScallywagsState: view() takes its instances only */
    PyObject *num_players;         /* the game's int objects, put in every view as Python */
    PyObject *take_limit;          /*   puts self.game.num_players / take_limit */
    PyObject *phases;              /* tuple of str: the phases a state may be in */
    PyObject *block;               /* the phase in which block_queue[0] decides */
    PyObject *names[S_COUNT];      /* STATE_FIELDS as interned str */
    long n, limit, num_coins, num_cards;
    long min_value, max_value;     /* seen[player][c]: -1 or a coin value in this range */
    long max_count;                /* cards of a kind in a hand or the reshuffled pile */
    int ready;                     /* the constructor succeeded */
} ViewBuilder;

/* -- checked reads (cv_: helpers of the compiled views) -------------------------------- */

/* The error for ``obj`` (item ``index`` of field ``name``, or the field itself when
 * index < 0) that is not an int within lo..hi: TypeError or ValueError; returns -1. */
static int cv_bad_long(PyObject *obj, const char *name, Py_ssize_t index, long lo, long hi)
{
    char where[120];
    if (index >= 0)
        PyOS_snprintf(where, sizeof where, "%.80s[%zd]", name, index);
    else
        PyOS_snprintf(where, sizeof where, "%.80s", name);
    if (!PyLong_Check(obj))
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", where,
                     Py_TYPE(obj)->tp_name);
    else {
        Py_INCREF(obj);                /* a borrowed item, kept alive while formatted */
        PyErr_Format(PyExc_ValueError, "%s: %R is outside %ld..%ld", where, obj, lo, hi);
        Py_DECREF(obj);
    }
    return -1;
}

/* ``obj`` as a C long within lo..hi (bools are ints, as in Python), else cv_bad_long's
 * error. Runs no Python code: ints only, never __index__. */
static inline int cv_long_in(PyObject *obj, const char *name, Py_ssize_t index, long lo,
                             long hi, long *v)
{
    /* exact int or bool first: a pointer compare, no load of the type's flags */
    if (Py_IS_TYPE(obj, &PyLong_Type) || Py_IS_TYPE(obj, &PyBool_Type) || PyLong_Check(obj)) {
        int overflow = 0;
        if (!ce_small_int(obj, v))      /* one-digit ints are read without a call */
            *v = PyLong_AsLongAndOverflow(obj, &overflow);     /* cannot fail for an int */
        if (!overflow && *v >= lo && *v <= hi)
            return 0;
    }
    return cv_bad_long(obj, name, index, lo, hi);
}

/* The items of a list or tuple field (exactly those types: Python's tuple() of a
 * subclass could iterate otherwise) into ``*items`` and their number into ``*size``,
 * checked to be ``len`` (any when len < 0); -1 with TypeError or ValueError. Borrowed:
 * valid only until Python code can run, i.e. until the next allocation or call into
 * Python. */
static int cv_items(PyObject *obj, Py_ssize_t len, const char *name, PyObject ***items,
                    Py_ssize_t *size)
{
    if (!PyList_CheckExact(obj) && !PyTuple_CheckExact(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a list, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *size = Py_SIZE(obj);
    if (len >= 0 && *size != len) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", name, len, *size);
        return -1;
    }
    *items = PySequence_Fast_ITEMS(obj);
    return 0;
}

/* Python's ``tuple(field)`` of a list or tuple field whose items are all ints within
 * lo..hi (bools only when ``bools``), checked as they are copied in one pass: a new
 * tuple holding the same item objects (a tuple field is returned itself, as tuple()
 * does). ``obj``: a reference the caller holds. New reference, or NULL with the error
 * naming the field and item. */
static PyObject *cv_checked_tuple(PyObject *obj, Py_ssize_t len, const char *name, long lo,
                                  long hi, int bools)
{
    PyObject **items;
    Py_ssize_t n;
    if (cv_items(obj, len, name, &items, &n) < 0)
        return NULL;
    PyObject *t;
    if (PyTuple_CheckExact(obj)) {
        t = obj;                               /* tuple(t) is t */
        Py_INCREF(t);
    } else {
        t = PyTuple_New(n);                    /* may collect garbage: any code may run */
        if (t == NULL)
            return NULL;
        if (Py_SIZE(obj) != n) {
            PyErr_Format(PyExc_ValueError, "%s: changed while it was read", name);
            Py_DECREF(t);
            return NULL;
        }
    }
    /* from here to the end nothing allocates or calls Python code: the items stay put */
    items = PySequence_Fast_ITEMS(obj);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = items[i];
        long v;
        if (bools ? !PyBool_Check(x) : cv_long_in(x, name, i, lo, hi, &v) < 0) {
            if (bools)
                PyErr_Format(PyExc_TypeError, "%s[%zd]: expected a bool, got %.100s", name,
                             i, Py_TYPE(x)->tp_name);
            Py_DECREF(t);                      /* a partly filled tuple frees its items */
            return NULL;
        }
        if (t != obj) {
            Py_INCREF(x);
            PyTuple_SET_ITEM(t, i, x);
        }
    }
    return t;
}

/* cv_checked_tuple of ints within lo..hi. */
static PyObject *cv_int_tuple(PyObject *obj, Py_ssize_t len, const char *name, long lo,
                              long hi)
{
    return cv_checked_tuple(obj, len, name, lo, hi, 0);
}

/* A new tuple of ``n`` Python ints from ``v``. */
static PyObject *cv_tuple_from_longs(const long *v, Py_ssize_t n)
{
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* -- the parts of the view ----------------------------------------------------------------
 * Each fills its fields of ``out`` (new references) from the fields read, or returns -1
 * with an exception set (what it filled is released by the caller). */

/* tuple(self.seen[player]), tuple(self.face_up), tuple(self.where), tuple(self.slot),
 * tuple(self.knowers): per coin, the value ``player`` has seen (or -1) and the public
 * facts. Only the player's own row of ``seen`` is read. */
static int coin_parts(const ViewBuilder *b, PyObject *const *f, long me, PyObject **out)
{
    const long nc = b->num_coins;
    PyObject **rows;
    Py_ssize_t n;
    if (cv_items(f[S_SEEN], b->n, "seen", &rows, &n) < 0)
        return -1;
    PyObject *row = rows[me];                  /* me: checked to lie in 0..n-1 */
    Py_INCREF(row);
    out[V_COIN_VALUES] = cv_int_tuple(row, nc, "seen[player]", b->min_value, b->max_value);
    Py_DECREF(row);
    if (out[V_COIN_VALUES] == NULL
            || (out[V_FACE_UP] = cv_checked_tuple(f[S_FACE_UP], nc, "face_up", 0, 1,
                                                  1)) == NULL
            || (out[V_COIN_OWNER] = cv_int_tuple(f[S_WHERE], nc, "where", -1,
                                                 b->n - 1)) == NULL
            || (out[V_COIN_SLOT] = cv_int_tuple(f[S_SLOT], nc, "slot", 0, b->limit)) == NULL
            || (out[V_KNOWERS] = cv_int_tuple(f[S_KNOWERS], nc, "knowers", 0,
                                              (1L << b->n) - 1)) == NULL)
        return -1;
    return 0;
}

/* tuple(self.hands[player]), tuple(map(sum, self.hands)): the player's own hand, and of
 * every seat only the size of its hand. */
static int hand_parts(const ViewBuilder *b, PyObject *const *f, long me, PyObject **out)
{
    long sizes[MAX_SEATS];
    PyObject **rows, **counts;
    Py_ssize_t n, k;
    if (cv_items(f[S_HANDS], b->n, "hands", &rows, &n) < 0)
        return -1;
    /* the sums: nothing allocated until they are done, so the rows stay put */
    for (Py_ssize_t p = 0; p < n; p++) {
        if (cv_items(rows[p], b->num_cards, "hands[seat]", &counts, &k) < 0)
            return -1;
        long sum = 0, v = 0;    /* at most num_cards * max_count: checked at construction */
        for (Py_ssize_t i = 0; i < k; i++) {
            if (cv_long_in(counts[i], "hands[seat]", i, 0, b->max_count, &v) < 0)
                return -1;
            sum += v;
        }
        sizes[p] = sum;
    }
    PyObject *row = rows[me];
    Py_INCREF(row);
    out[V_HAND] = cv_int_tuple(row, b->num_cards, "hands[player]", 0, b->max_count);
    Py_DECREF(row);
    if (out[V_HAND] == NULL)
        return -1;
    out[V_HAND_SIZES] = cv_tuple_from_longs(sizes, b->n);
    return out[V_HAND_SIZES] == NULL ? -1 : 0;
}

/* _kind_counts(self.discard), tuple(self.reshuffled), len(self.draw_pile): the public
 * piles (the draw pile by its size only). */
static int pile_parts(const ViewBuilder *b, PyObject *const *f, PyObject **out)
{
    long counts[MAX_CARDS] = {0};
    PyObject **cards;
    Py_ssize_t n;
    if (cv_items(f[S_DISCARD], -1, "discard", &cards, &n) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        long k = 0;
        if (cv_long_in(cards[i], "discard", i, 0, b->num_cards - 1, &k) < 0)
            return -1;
        counts[k]++;
    }
    if ((out[V_DISCARD] = cv_tuple_from_longs(counts, b->num_cards)) == NULL
            || (out[V_RESHUFFLED] = cv_int_tuple(f[S_RESHUFFLED], b->num_cards,
                                                 "reshuffled", 0, b->max_count)) == NULL
            || cv_items(f[S_DRAW_PILE], -1, "draw_pile", &cards, &n) < 0)
        return -1;
    out[V_DRAW_SIZE] = PyLong_FromSsize_t(n);         /* its cards are never read */
    return out[V_DRAW_SIZE] == NULL ? -1 : 0;
}

/* self.actor, self.phase, self.card, tuple(self.chosen), tuple(self.block_queue),
 * self.current_players(), self.turns: the turn and the pending card. current_players()
 * is () when finished, (block_queue[0],) in the block phase, else (actor,). */
static int turn_parts(const ViewBuilder *b, PyObject *const *f, PyObject **out)
{
    long v;
    if (cv_long_in(f[S_ACTOR], "actor", -1, 0, b->n - 1, &v) < 0
            || cv_long_in(f[S_CARD], "card", -1, -1, b->num_cards - 1, &v) < 0)
        return -1;
    /* phase: one of the game's phases, passed on as the state holds it */
    PyObject *phase = f[S_PHASE];
    if (!PyUnicode_Check(phase)) {
        PyErr_Format(PyExc_TypeError, "phase: expected a str, got %.100s",
                     Py_TYPE(phase)->tp_name);
        return -1;
    }
    int known = 0;
    for (Py_ssize_t i = 0; !known && i < PyTuple_GET_SIZE(b->phases); i++)
        known = PyUnicode_Compare(phase, PyTuple_GET_ITEM(b->phases, i)) == 0;
    if (!known) {
        PyErr_Format(PyExc_ValueError, "phase: %R is not one of %R", phase, b->phases);
        return -1;
    }
    long max_target = (b->num_coins > b->n ? b->num_coins : b->n) - 1;
    if ((out[V_CHOSEN] = cv_int_tuple(f[S_CHOSEN], -1, "chosen", 0, max_target)) == NULL
            || (out[V_BLOCK_QUEUE] = cv_int_tuple(f[S_BLOCK_QUEUE], -1, "block_queue", 0,
                                                  b->n - 1)) == NULL)
        return -1;
    /* turns: a count (any size: passed on, never computed with) */
    PyObject *turns = f[S_TURNS];
    if (!PyLong_Check(turns)) {
        PyErr_Format(PyExc_TypeError, "turns: expected an int, got %.100s",
                     Py_TYPE(turns)->tp_name);
        return -1;
    }
    int overflow;
    v = PyLong_AsLongAndOverflow(turns, &overflow);
    if (overflow < 0 || (overflow == 0 && v < 0)) {
        PyErr_Format(PyExc_ValueError, "turns: %R is negative", turns);
        return -1;
    }
    /* current_players(): if self.is_terminal() (self.finished): (); if phase == BLOCK:
     * (self.block_queue[0],); else (self.actor,) */
    PyObject *finished = f[S_FINISHED];
    if (!PyBool_Check(finished)) {
        PyErr_Format(PyExc_TypeError, "finished: expected a bool, got %.100s",
                     Py_TYPE(finished)->tp_name);
        return -1;
    }
    if (finished == Py_True) {
        out[V_ACTING] = PyTuple_New(0);
    } else if (PyUnicode_Compare(phase, b->block) == 0) {
        if (PyTuple_GET_SIZE(out[V_BLOCK_QUEUE]) == 0) {
            PyErr_SetString(PyExc_IndexError, "block_queue: empty in the block phase");
            return -1;
        }
        out[V_ACTING] = PyTuple_Pack(1, PyTuple_GET_ITEM(out[V_BLOCK_QUEUE], 0));
    } else {
        out[V_ACTING] = PyTuple_Pack(1, f[S_ACTOR]);
    }
    if (out[V_ACTING] == NULL)
        return -1;
    Py_INCREF(f[S_ACTOR]);
    out[V_ACTOR] = f[S_ACTOR];
    Py_INCREF(phase);
    out[V_PHASE] = phase;
    Py_INCREF(f[S_CARD]);
    out[V_CARD] = f[S_CARD];
    Py_INCREF(turns);
    out[V_TURNS] = turns;
    return 0;
}

/* -- ViewBuilder.view ------------------------------------------------------------------ */

/* The state's fields (new references into ``f``), or -1 (AttributeError or TypeError). */
static int read_fields(const ViewBuilder *b, PyObject *state, PyObject **f)
{
    for (int i = 0; i < S_COUNT; i++)
        if ((f[i] = PyObject_GetAttr(state, b->names[i])) == NULL)
            return -1;
    return 0;
}

/* view(state, player): ScallywagsState.python_view(player), built in C. */
static PyObject *ViewBuilder_view(ViewBuilder *b, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "view() takes 2 arguments (state, player), got %zd",
                     nargs);
        return NULL;
    }
    if (!b->ready) {
        PyErr_SetString(PyExc_ValueError, "ViewBuilder: not initialised");
        return NULL;
    }
    PyObject *state = args[0], *player = args[1];
    if (!PyObject_TypeCheck(state, b->state_cls)) {
        PyErr_Format(PyExc_TypeError, "view: expected a %.100s, got %.100s",
                     b->state_cls->tp_name, Py_TYPE(state)->tp_name);
        return NULL;
    }
    /* player: a seat (any int-like object, passed on as given, as Python does) */
    PyObject *index = PyNumber_Index(player);
    if (index == NULL)
        return NULL;
    long me = 0;
    int rc = cv_long_in(index, "player", -1, 0, b->n - 1, &me);
    Py_DECREF(index);
    if (rc < 0)
        return NULL;
    PyObject *f[S_COUNT] = {NULL};
    PyObject *out[V_COUNT] = {NULL};
    PyObject *view = NULL;
    if (read_fields(b, state, f) < 0 || coin_parts(b, f, me, out) < 0
            || hand_parts(b, f, me, out) < 0 || pile_parts(b, f, out) < 0
            || turn_parts(b, f, out) < 0)
        goto done;
    /* tuple.__new__(ScallywagsView, (...)): every item built first, then placed */
    Py_INCREF(player);
    out[V_PLAYER] = player;
    Py_INCREF(b->num_players);
    out[V_NUM_PLAYERS] = b->num_players;
    Py_INCREF(b->take_limit);
    out[V_TAKE_LIMIT] = b->take_limit;
    view = b->view_cls->tp_alloc(b->view_cls, V_COUNT);
    if (view == NULL)
        goto done;
    for (int i = 0; i < V_COUNT; i++) {
        PyTuple_SET_ITEM(view, i, out[i]);        /* the reference moves into the view */
        out[i] = NULL;
    }
done:
    for (int i = 0; i < S_COUNT; i++)
        Py_XDECREF(f[i]);
    for (int i = 0; i < V_COUNT; i++)
        Py_XDECREF(out[i]);
    return view;
}

/* -- construction ---------------------------------------------------------------------- */

static int ViewBuilder_init(ViewBuilder *b, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"view_cls", "state_cls", "num_players", "take_limit",
                             "num_coins", "num_cards", "min_value", "max_value",
                             "max_count", "phases", "block", NULL};
    PyObject *view_cls, *state_cls, *num_players, *take_limit, *phases, *block;
    b->ready = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOlllllOO:ViewBuilder", kwlist,
                                     &view_cls, &state_cls, &num_players, &take_limit,
                                     &b->num_coins, &b->num_cards, &b->min_value,
                                     &b->max_value, &b->max_count, &phases, &block))
        return -1;
    if (ce_check_record(view_cls, "view_cls", VIEW_FIELDS, V_COUNT) < 0)
        return -1;
    if (!PyType_Check(state_cls)) {
        PyErr_SetString(PyExc_TypeError, "state_cls: expected a class");
        return -1;
    }
    if (!PyLong_CheckExact(num_players) || !PyLong_CheckExact(take_limit)) {
        PyErr_SetString(PyExc_TypeError, "num_players, take_limit: expected ints");
        return -1;
    }
    b->n = PyLong_AsLong(num_players);
    b->limit = PyLong_AsLong(take_limit);
    if (PyErr_Occurred())
        return -1;
    if (b->n < 1 || b->n > MAX_SEATS || b->limit < 1 || b->num_coins < 1
            || b->num_cards < 1 || b->num_cards > MAX_CARDS || b->min_value > b->max_value
            || b->max_count < 0 || b->max_count > LONG_MAX / MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "ViewBuilder: counts out of range");
        return -1;
    }
    if (ce_tuple(phases, -1, "phases") == NULL)
        return -1;
    int has_block = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(phases); i++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(phases, i)) || !PyUnicode_Check(block)) {
            PyErr_SetString(PyExc_TypeError, "phases, block: expected str");
            return -1;
        }
        has_block |= PyUnicode_Compare(PyTuple_GET_ITEM(phases, i), block) == 0;
    }
    if (!has_block) {
        PyErr_SetString(PyExc_ValueError, "block: expected one of the phases");
        return -1;
    }
    for (int i = 0; i < S_COUNT; i++) {
        PyObject *name = PyUnicode_InternFromString(STATE_FIELDS[i]);
        if (name == NULL)
            return -1;
        Py_XSETREF(b->names[i], name);
    }
    b->min_value = b->min_value < -1 ? b->min_value : -1;     /* -1: not seen */
    Py_INCREF(view_cls);
    Py_XSETREF(b->view_cls, (PyTypeObject *)view_cls);
    Py_INCREF(state_cls);
    Py_XSETREF(b->state_cls, (PyTypeObject *)state_cls);
    Py_INCREF(num_players);
    Py_XSETREF(b->num_players, num_players);
    Py_INCREF(take_limit);
    Py_XSETREF(b->take_limit, take_limit);
    Py_INCREF(phases);
    Py_XSETREF(b->phases, phases);
    Py_INCREF(block);
    Py_XSETREF(b->block, block);
    b->ready = 1;
    return 0;
}

static void ViewBuilder_dealloc(ViewBuilder *b)
{
    Py_XDECREF(b->view_cls);
    Py_XDECREF(b->state_cls);
    Py_XDECREF(b->num_players);
    Py_XDECREF(b->take_limit);
    Py_XDECREF(b->phases);
    Py_XDECREF(b->block);
    for (int i = 0; i < S_COUNT; i++)
        Py_XDECREF(b->names[i]);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

static PyMethodDef ViewBuilder_methods[] = {
    {"view", (PyCFunction)(void (*)(void))ViewBuilder_view, METH_FASTCALL,
     "view(state, player): what ``player`` knows, the ScallywagsView that "
     "``state.python_view(player)`` returns."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ViewBuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.scallywags._cview.ViewBuilder",
    .tp_basicsize = sizeof(ViewBuilder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ViewBuilder(view_cls, state_cls, num_players, take_limit, num_coins, "
              "num_cards, min_value, max_value, max_count, phases, block): the Scallywags "
              "view builder of one game (see engine.view_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)ViewBuilder_init,
    .tp_dealloc = (destructor)ViewBuilder_dealloc,
    .tp_methods = ViewBuilder_methods,
};

/* -- the module ------------------------------------------------------------------------ */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cview",
    "Scallywags player view in C (the twin of ScallywagsState.python_view).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cview(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_FIELDS, V_COUNT},
        {"STATE_FIELDS", STATE_FIELDS, S_COUNT},
    };
    return ce_module_named(&module, "ViewBuilder", &ViewBuilderType, names,
                           (int)(sizeof names / sizeof names[0]));
}
