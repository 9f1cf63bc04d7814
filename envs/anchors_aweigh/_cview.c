/* Anchors Aweigh! player view, compiled: the C twin of AnchorsAweighState.python_view.
 *
 * ``ViewBuilder(...)`` holds the game's constants, passed in by engine.view_params (the
 * cell code table, the tiles' looks, the cards' backs, the view's named-tuple classes and
 * the constant tuples the Python view shares); ``view(state, player)`` returns exactly what
 * ``state.python_view(player)`` returns: the same named-tuple classes, the same types
 * (bool where Python gives a bool, the state's own int objects where Python passes them
 * through) and values, all the way down. The Python view is the reference, and the
 * fallback when this module is not built; tests/anchors_aweigh/test_compiled_view.py keeps
 * the two equal.
 *
 * It is still *the* view (the one place that reads private state fields): it reads exactly
 * the fields the Python view and what it calls read (``_public``, ``_below_deck``,
 * ``_public_cards``, ``current_players``), from the state's ``__dict__``, and of the
 * face-down pile only its length. Each block below names the Python lines it mirrors.
 *
 * Caches, as in Python: the public part is shared by every seat of one state, kept in the
 * state's ``_pub`` (None or absent: not built; ``touch``, ``_apply`` and ``clone`` clear
 * it). A ``_pub`` present is used as it is; otherwise this builds it and stores it there,
 * so ``_public()`` and every other caller get the identical object. Likewise the acting
 * players are read from ``_acting`` or computed as ``_current_players`` and stored there.
 * The game's memos of the Python view (ship_memo, pile_memo, cards_memo) are not used:
 * building from scratch in C is cheaper than checking them.
 *
 * ``mask_into(state, player, out)`` writes what ``state.python_legal_actions_mask(player)``
 * returns (one 0/1 byte per action) into ``out``, from the fields that mask reads
 * (MASK_FIELDS) with the same readers; tests/anchors_aweigh/test_compiled_mask.py keeps the
 * two equal. Of the caches it reads and fills ``_acting`` only, as current_players() does
 * (the game's kinds_up_memo of the Python mask is not used).
 *
 * Every read is checked: a field of the wrong type raises TypeError, of the wrong length
 * or range ValueError (a seat that does not exist IndexError), each naming the field and
 * item; every index taken from state data is checked against the table it indexes. No
 * state between calls except the constants; no global mutable state.
 */
#include "cencode.h"

#include <stddef.h>
#include <stdio.h>

/* Fixed sizes and codes of the game (engine.py, components.py, view.py); the constructor
 * checks them against the values view_params passes in ``dims``. */
#define EMPTY (-1)            /* an empty ship space / no tile in hand */
#define CARGO 200             /* ship cell CARGO + colour: a cargo token */
#define CHEST 204             /* ship cell: a treasure chest */
#define LUT_SIZE (CHEST + 2)  /* game.cell_lut: cell / hand value -> code; [-1]: EMPTY's */
#define NUM_SPACES 14         /* A1-A8, B1-B4, C1-C2 */
#define NUM_ABOVE 8           /* A1-A8: public; BELOW is NUM_ABOVE..NUM_SPACES-1 */
#define NUM_LOOKS 20          /* tile looks: kind * 2 + starfish */
#define NUM_COLOURS 4
#define GREY NUM_COLOURS      /* a cargo reward of any colour (cargo_queue units) */
#define NUM_BACKS 9
#define QUEUE_BACK0 5         /* back of the first contract: a queued contract's colour is
                                 its back - 5 (_public_cards) */
#define CELL_EMPTY 0
#define CELL_UNKNOWN 1
#define NUM_CELLS 27
#define NUM_ACTIONS 193
enum { SETUP, LOADING, DECIDE, ENCOUNTER, PIRATE, COLOUR, PLACE, OVER, NUM_PHASES };
#define MAX_SEATS 16
#define MAX_TILES CARGO       /* tile ids stay below CARGO */
#define MAX_CARDS 1024
#define NUM_KINDS (NUM_LOOKS / 2) /* a tile's look is kind * 2 + starfish (game.tile_look) */
#define STORAGE 8             /* the storage tiles' kind */
#define MONKEY 9              /* the monkeys' kind */
#define NUM_ASSET 12          /* ASSET_SPACES: A1-B4; C1-C2 (12, 13) take cargo only */
/* the actions (engine.py A_*): each a first index, some followed by one per space, kind or
 * colour */
enum { A_GRAB_DOWN = 0, A_GRAB_UP = 1, A_FLIP = 11, A_PLACE = 12, A_RETURN = 24, A_CARGO = 25,
       A_STAR_RETURN = 29, A_SKIP = 41, A_RESOLVE = 42, A_PARROT = 43, A_ENCOUNTER = 51,
       A_FLEE = 52, A_PAY_NONE = 53, A_PAY = 54, A_COLOUR = 58, A_STOW = 62,
       A_TOSS_ASSET = 76, A_TOSS_CARGO = 88, A_DISCARD = 92, A_SWAP = 93 };

static const long DIMS[] = {EMPTY, CARGO, CHEST, NUM_SPACES, NUM_ABOVE, NUM_LOOKS,
                            NUM_COLOURS, NUM_BACKS, QUEUE_BACK0, CELL_EMPTY, CELL_UNKNOWN,
                            NUM_CELLS, NUM_ACTIONS, SETUP, LOADING, DECIDE, ENCOUNTER, PIRATE,
                            COLOUR, PLACE, OVER, NUM_PHASES, STORAGE, MONKEY, NUM_ASSET,
                            A_GRAB_DOWN, A_GRAB_UP, A_FLIP, A_PLACE, A_RETURN, A_CARGO,
                            A_STAR_RETURN, A_SKIP, A_RESOLVE, A_PARROT, A_ENCOUNTER, A_FLEE,
                            A_PAY_NONE, A_PAY, A_COLOUR, A_STOW, A_TOSS_ASSET, A_TOSS_CARGO,
                            A_DISCARD, A_SWAP};
#define NUM_DIMS ((Py_ssize_t)(sizeof(DIMS) / sizeof(DIMS[0])))

/* ---- the view's fields, filled by position ------------------------------------------ */

enum { V_PLAYER, V_OWN_SHIP, V_OWN_STORAGE, V_OWN_HAND, V_OWN_SECRET, V_OWN_PENDING, V_PUB,
       V_COUNT };
static const char *const VIEW_NAMES[V_COUNT] = {
    "player", "own_ship", "own_storage", "own_hand", "own_secret", "own_pending", "pub"};

enum { P_NUM_PLAYERS, P_ROUND, P_PHASE, P_TURNS, P_ACTING, P_CAPTAIN, P_ABOVE,
       P_ABOVE_STORAGE, P_BELOW, P_HANDS, P_COINS, P_CHESTS, P_PARROTS, P_MEDDLESOME,
       P_PILE_UP, P_PILE_DOWN, P_SUPPLY, P_CHEST_SUPPLY, P_PARROT_SUPPLY, P_FRONTS,
       P_FRONTS_HIDDEN, P_BACKS_LEFT, P_QUEUE, P_CURRENT, P_CURRENT_BACK, P_USED,
       P_ENCOUNTER, P_OUTCOME, P_DECIDED, P_CARGO_QUEUE, P_UNIT_COLOUR, P_CLEANSED, P_FULL,
       P_RETURNS, P_COUNT };
static const char *const PUBLIC_NAMES[P_COUNT] = {
    "num_players", "round", "phase", "turns", "acting", "captain", "above",
    "above_storage", "below", "hands", "coins", "chests", "parrots", "meddlesome",
    "pile_up", "pile_down", "supply", "chest_supply", "parrot_supply", "fronts",
    "fronts_hidden", "backs_left", "queue", "current", "current_back", "used",
    "encounter", "outcome", "decided", "cargo_queue", "unit_colour", "cleansed", "full",
    "returns"};

enum { B_LOOKS, B_UNKNOWN, B_CARGO, B_COUNT };
static const char *const BELOW_NAMES[B_COUNT] = {"looks", "unknown", "cargo"};

/* The state attributes read (all of them, and nothing else: the hidden-information rule);
 * the last two are the caches read with ``__dict__.get`` as in Python. */
enum { S_ROUND, S_PHASE, S_TURNS, S_CAPTAIN, S_SHIPS, S_STOR, S_HAND, S_SECRET, S_PILE_UP,
       S_PILE_DOWN, S_SUPPLY, S_CHEST_SUPPLY, S_PARROT_SUPPLY, S_COINS, S_CHESTS, S_PARROTS,
       S_DECK, S_QUEUE, S_CURRENT, S_REVEALED, S_USED, S_FRONTS_HIDDEN, S_ENCOUNTER,
       S_OUTCOME, S_PENDING, S_RETURNS, S_CARGO_QUEUE, S_UNIT_COLOUR, S_CLEANSED, S_PUB,
       S_ACTING, S_COUNT };
static const char *const STATE_NAMES[S_COUNT] = {
    "round", "phase", "turns", "captain", "ships", "stor", "hand", "secret", "pile_up",
    "pile_down", "supply", "chest_supply", "parrot_supply", "coins", "chests", "parrots",
    "deck", "queue", "current", "revealed", "used", "fronts_hidden", "encounter", "outcome",
    "pending", "returns", "cargo_queue", "unit_colour", "cleansed", "_pub", "_acting"};

/* Those the mask reads (MASK_FIELDS): legal_actions_mask's and current_players()'s. */
static const int MASK_READS[] = {S_PHASE, S_SHIPS, S_STOR, S_HAND, S_PILE_UP, S_PILE_DOWN,
                                 S_SUPPLY, S_PARROTS, S_CURRENT, S_ENCOUNTER, S_PENDING,
                                 S_CARGO_QUEUE, S_ACTING};
#define MASK_COUNT ((int)(sizeof(MASK_READS) / sizeof(MASK_READS[0])))

/* ---- the builder object -------------------------------------------------------------- */

/* Not garbage-collected: it holds classes and tuples of ints, none of which refers back. */
typedef struct {
    PyObject_HEAD
    long n;                          /* players */
    long num_tiles, num_cards;
    long lut[LUT_SIZE];              /* game.cell_lut */
    unsigned char look[MAX_TILES];   /* game.tile_look: tile id -> look */
    unsigned char back[MAX_CARDS];   /* game.card_back: card index -> back */
    int perfect_recall;
    int starfish_rule, rough_seas;   /* game.starfish_rule, game.rough_seas */
    long storage_capacity;           /* game.comp.storage_capacity */
    char med[MAX_SEATS];             /* game.meddlesome_flags */
    unsigned char need_assets[MAX_CARDS];       /* card.needs_assets */
    unsigned char need[MAX_CARDS][NUM_KINDS];   /* card.needs counted per kind or colour */
    PyTypeObject *view_cls, *public_cls, *below_cls;
    PyObject *meddlesome;            /* game.meddlesome_flags */
    PyObject *no_seats;              /* game.no_seats: (False,) * n */
    PyObject *no_secrets;            /* engine._NO_SECRETS: (False,) * 15 */
    PyObject *empty_storage;         /* engine._EMPTY_STORAGE: ((),) * 14 */
    PyObject *no_storage;            /* engine._NO_STORAGE: ((),) * 8 */
    PyObject *names[S_COUNT];        /* interned state attribute names */
} ViewBuilder;

/* ---- checked reads --------------------------------------------------------------------- */

/* Where a value sits, for messages: field, field[i] or field[i][j] (i, j < 0: none). */
typedef struct { const char *field; Py_ssize_t i, j; } At;
#define AT(f, i, j) ((At){(f), (i), (j)})

static void cv_where(At at, char *buf, size_t size)
{
    if (at.i < 0)
        snprintf(buf, size, "%s", at.field);
    else if (at.j < 0)
        snprintf(buf, size, "%s[%zd]", at.field, at.i);
    else
        snprintf(buf, size, "%s[%zd][%zd]", at.field, at.i, at.j);
}

/* TypeError: ``at`` is not a ``what``. */
static int cv_type_error(At at, const char *what, PyObject *obj)
{
    char where[96];
    cv_where(at, where, sizeof where);
    PyErr_Format(PyExc_TypeError, "%s: expected %s, got %.100s", where, what,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

/* ``obj`` must be an int (a bool is one, as in Python's list indexing; no floats, no
 * __index__ objects: reading one runs no Python code). */
static int cv_int(PyObject *obj, At at)
{
    return PyLong_Check(obj) ? 0 : cv_type_error(at, "an int", obj);
}

/* cv_long's checks and messages. */
static int cv_long_checked(PyObject *obj, At at, long lo, long hi, long *v)
{
    if (cv_int(obj, at) < 0)
        return -1;
    int overflow;
    long x = PyLong_AsLongAndOverflow(obj, &overflow);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (overflow || x < lo || x > hi) {
        char where[96];
        cv_where(at, where, sizeof where);
        if (overflow)
            PyErr_Format(PyExc_ValueError, "%s: a huge int is outside %ld..%ld", where, lo,
                         hi);
        else
            PyErr_Format(PyExc_ValueError, "%s: %ld is outside %ld..%ld", where, x, lo, hi);
        return -1;
    }
    *v = x;
    return 0;
}

/* ``obj`` as a C long within [lo, hi] (inline: the common case of an int in range). */
static inline int cv_long(PyObject *obj, At at, long lo, long hi, long *v)
{
    if (PyLong_CheckExact(obj)) {
        int overflow;
        long x = PyLong_AsLongAndOverflow(obj, &overflow);
        if (!overflow && lo <= x && x <= hi) {
            *v = x;
            return 0;
        }
    }
    return cv_long_checked(obj, at, lo, hi, v);
}

/* ``obj`` as a bool (True or False only). */
static int cv_bool(PyObject *obj, At at, int *v)
{
    if (!PyBool_Check(obj))
        return cv_type_error(at, "a bool", obj);
    *v = obj == Py_True;
    return 0;
}

/* ``obj`` as a list of ``len`` items (any length when ``len`` < 0); borrowed. */
static PyObject *cv_list(PyObject *obj, At at, Py_ssize_t len)
{
    if (!PyList_Check(obj)) {
        cv_type_error(at, "a list", obj);
        return NULL;
    }
    if (len >= 0 && PyList_GET_SIZE(obj) != len) {
        char where[96];
        cv_where(at, where, sizeof where);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", where, len,
                     PyList_GET_SIZE(obj));
        return NULL;
    }
    return obj;
}

/* A ship cell value: EMPTY, a tile id, CARGO + colour or CHEST. */
static int cv_cell(const ViewBuilder *vb, PyObject *obj, At at, long *c)
{
    if (cv_long(obj, at, EMPTY, CHEST, c) < 0)
        return -1;
    if (*c >= vb->num_tiles && *c < CARGO) {
        char where[96];
        cv_where(at, where, sizeof where);
        PyErr_Format(PyExc_ValueError,
                     "%s: %ld is neither empty (-1), a tile (0-%ld), cargo nor a chest",
                     where, *c, vb->num_tiles - 1);
        return -1;
    }
    return 0;
}

/* The view code of a cell or hand value: ``game.cell_lut[c]`` (c = -1: its last entry). */
static inline long cv_code(const ViewBuilder *vb, long c)
{
    return vb->lut[c < 0 ? LUT_SIZE + c : c];
}

/* A new tuple of ``n`` ints. */
static PyObject *cv_long_tuple(const long *v, Py_ssize_t n)
{
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *x = PyLong_FromLong(v[k]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}

/* ``tuple(lst)`` of a list of ``len`` ints (any length when ``len`` < 0): the list's own
 * int objects, as Python's ``tuple(self.coins)``. ``obj`` NULL: an error is set. */
static PyObject *cv_int_tuple(PyObject *obj, At at, Py_ssize_t len)
{
    if (obj == NULL)
        return NULL;
    PyObject *lst = cv_list(obj, at, len);
    if (lst == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++)
        if (cv_int(PyList_GET_ITEM(lst, k), AT(at.field, k, -1)) < 0)
            return NULL;
    return PyList_AsTuple(lst);
}

/* A new instance of the named tuple ``cls`` holding the ``n`` new references ``items``
 * (``tuple.__new__(cls, items)``); the references are consumed, even on failure. */
static PyObject *cv_named(PyTypeObject *cls, PyObject **items, Py_ssize_t n)
{
    PyObject *t = cls->tp_alloc(cls, n);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (t == NULL)
            Py_XDECREF(items[k]);
        else
            PyTuple_SET_ITEM(t, k, items[k]);
        items[k] = NULL;
    }
    return t;
}

/* ---- reading the state ----------------------------------------------------------------- */

typedef struct {
    const ViewBuilder *vb;
    PyObject *state;
    PyObject *dict;                  /* the state's __dict__ */
    PyObject *field[S_COUNT];        /* fields read so far (new references) */
    char secret[MAX_TILES];          /* the state's ``secret`` flags */
    int secrets;                     /* ``True in secret`` */
    char have_cells[MAX_SEATS];      /* ships[p] read into cells[p] */
    long cells[MAX_SEATS][NUM_SPACES];
} Reader;

/* Start reading ``state`` for ``vb``: its ``__dict__`` (TypeError for what has none). */
static int rd_open(Reader *r, const ViewBuilder *vb, PyObject *state)
{
    memset(r, 0, offsetof(Reader, secret));
    memset(r->have_cells, 0, sizeof r->have_cells);
    r->vb = vb;
    r->state = state;
    r->dict = PyObject_GenericGetDict(state, NULL);
    if (r->dict == NULL || !PyDict_Check(r->dict)) {
        PyErr_Clear();
        Py_XDECREF(r->dict);
        PyErr_Format(PyExc_TypeError, "state: expected an Anchors Aweigh! state, got %.100s",
                     Py_TYPE(state)->tp_name);
        return -1;
    }
    return 0;
}

/* Drop the fields read and the ``__dict__``. */
static void rd_close(Reader *r)
{
    for (int k = 0; k < S_COUNT; k++)
        Py_XDECREF(r->field[k]);
    Py_DECREF(r->dict);
}

/* State attribute ``k`` (borrowed, kept by the reader): ``self.<name>``. */
static PyObject *rd(Reader *r, int k)
{
    if (r->field[k] == NULL) {
        PyObject *v = PyDict_GetItemWithError(r->dict, r->vb->names[k]);
        if (v != NULL)
            Py_INCREF(v);
        else if (PyErr_Occurred())
            return NULL;
        else if ((v = PyObject_GetAttr(r->state, r->vb->names[k])) == NULL)
            return NULL;
        r->field[k] = v;
    }
    return r->field[k];
}

/* State attribute ``k``: a list of ``len`` items (any when ``len`` < 0). */
static PyObject *rd_list(Reader *r, int k, Py_ssize_t len)
{
    PyObject *v = rd(r, k);
    return v == NULL ? NULL : cv_list(v, AT(STATE_NAMES[k], -1, -1), len);
}

/* State attribute ``k``: an int within [lo, hi]. */
static int rd_long(Reader *r, int k, long lo, long hi, long *x)
{
    PyObject *v = rd(r, k);
    return v == NULL ? -1 : cv_long(v, AT(STATE_NAMES[k], -1, -1), lo, hi, x);
}

/* State attribute ``k``: an int within [lo, hi], as the state's own object (new). */
static PyObject *rd_int_obj(Reader *r, int k, long lo, long hi)
{
    long x;
    if (rd_long(r, k, lo, hi, &x) < 0)
        return NULL;
    Py_INCREF(r->field[k]);
    return r->field[k];
}

/* State attribute ``k``: a bool. */
static int rd_bool(Reader *r, int k, int *x)
{
    PyObject *v = rd(r, k);
    return v == NULL ? -1 : cv_bool(v, AT(STATE_NAMES[k], -1, -1), x);
}

/* ``self.__dict__.get(name)`` (new reference; NULL with no error when absent). */
static PyObject *rd_cache(Reader *r, int k)
{
    PyObject *v = PyDict_GetItemWithError(r->dict, r->vb->names[k]);
    Py_XINCREF(v);
    return v;
}

/* secret: one bool per tile; ``True in secret``. */
static int rd_secret(Reader *r)
{
    PyObject *secret = rd_list(r, S_SECRET, r->vb->num_tiles);
    if (secret == NULL)
        return -1;
    r->secrets = 0;
    for (Py_ssize_t t = 0; t < r->vb->num_tiles; t++) {
        int hidden;
        if (cv_bool(PyList_GET_ITEM(secret, t), AT("secret", t, -1), &hidden) < 0)
            return -1;
        r->secret[t] = (char)hidden;
        r->secrets |= hidden;
    }
    return 0;
}

/* ships[p]: its 14 cells, checked (read once per view; NULL on error). */
static const long *rd_ship(Reader *r, Py_ssize_t p)
{
    if (r->have_cells[p])
        return r->cells[p];
    PyObject *ships = rd_list(r, S_SHIPS, r->vb->n);
    if (ships == NULL)
        return NULL;
    PyObject *ship = cv_list(PyList_GET_ITEM(ships, p), AT("ships", p, -1), NUM_SPACES);
    if (ship == NULL)
        return NULL;
    for (Py_ssize_t sp = 0; sp < NUM_SPACES; sp++)
        if (cv_cell(r->vb, PyList_GET_ITEM(ship, sp), AT("ships", p, sp), &r->cells[p][sp])
                < 0)
            return NULL;
    r->have_cells[p] = 1;
    return r->cells[p];
}

/* stor[p]: 14 lists of cargo colours (borrowed), every colour checked. */
static PyObject *rd_stor(Reader *r, Py_ssize_t p)
{
    PyObject *stor = rd_list(r, S_STOR, r->vb->n);
    if (stor == NULL)
        return NULL;
    PyObject *spaces = cv_list(PyList_GET_ITEM(stor, p), AT("stor", p, -1), NUM_SPACES);
    if (spaces == NULL)
        return NULL;
    for (Py_ssize_t sp = 0; sp < NUM_SPACES; sp++) {
        PyObject *lst = cv_list(PyList_GET_ITEM(spaces, sp), AT("stor", p, sp), -1);
        if (lst == NULL)
            return NULL;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++) {
            long colour;
            if (cv_long(PyList_GET_ITEM(lst, k), AT("stor", p, sp), 0, NUM_COLOURS - 1,
                        &colour) < 0)
                return NULL;
        }
    }
    return spaces;
}

/* hand[p]: EMPTY or a tile id. */
static int rd_hand(Reader *r, Py_ssize_t p, long *t)
{
    PyObject *hand = rd_list(r, S_HAND, r->vb->n);
    if (hand == NULL)
        return -1;
    return cv_long(PyList_GET_ITEM(hand, p), AT("hand", p, -1), EMPTY, r->vb->num_tiles - 1,
                   t);
}

/* Storage list ``sp`` of ``spaces`` (borrowed), checked again where an allocation came
 * between (it may run a finalizer, which may edit lists). */
static PyObject *cv_space(PyObject *spaces, Py_ssize_t sp)
{
    PyObject *lst = NULL;
    if (sp < PyList_GET_SIZE(spaces))
        lst = PyList_GET_ITEM(spaces, sp);
    if (lst == NULL || !PyList_Check(lst)) {
        PyErr_SetString(PyExc_ValueError, "stor: changed while the view was built");
        return NULL;
    }
    return lst;
}

/* ``tuple(map(tuple, spaces[:count]))``: storage lists as tuples (their own int objects). */
static PyObject *cv_storage(PyObject *spaces, Py_ssize_t count)
{
    PyObject *t = PyTuple_New(count);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t sp = 0; sp < count; sp++) {
        PyObject *lst = cv_space(spaces, sp);
        PyObject *x = lst == NULL ? NULL : PyList_AsTuple(lst);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, sp, x);
    }
    return t;
}

/* Whether any of the first ``count`` storage lists holds cargo (``any(stor[:count])``);
 * ``spaces`` just checked by rd_stor. */
static int cv_any_storage(PyObject *spaces, Py_ssize_t count)
{
    for (Py_ssize_t sp = 0; sp < count; sp++)
        if (PyList_GET_SIZE(PyList_GET_ITEM(spaces, sp)) > 0)
            return 1;
    return 0;
}

/* ---- the public part: ships ------------------------------------------------------------ */

/* Seat p's ship, as in _public:
 *     above = tuple(map(code, ship[:NUM_ABOVE]))
 *     above_storage = tuple(tuple(x) if x else () for x in above_stor)
 *                     if any(above_stor) else _NO_STORAGE
 *     below = self._below_deck(p)
 * and _below_deck:
 *     for sp in BELOW:
 *         c = ship[sp]
 *         if CARGO <= c < CHEST: cargo[c - CARGO] += 1
 *         elif 0 <= c < CARGO:
 *             if secret[c]: unknown += 1
 *             else: looks[look[c]] += 1
 *             for colour in stor[sp]: cargo[colour] += 1
 *     return BelowDeck(tuple(looks), unknown, tuple(cargo))
 * (the game's ship_memo only saves rebuilding these). New references in out[3]. */
static int cv_ship(Reader *r, Py_ssize_t p, PyObject *out[3])
{
    const ViewBuilder *vb = r->vb;
    long codes[NUM_ABOVE];
    const long *cells;
    PyObject *spaces;
    if ((cells = rd_ship(r, p)) == NULL || (spaces = rd_stor(r, p)) == NULL)
        return -1;
    for (int sp = 0; sp < NUM_ABOVE; sp++)
        codes[sp] = cv_code(vb, cells[sp]);
    if ((out[0] = cv_long_tuple(codes, NUM_ABOVE)) == NULL)
        return -1;
    if (cv_any_storage(spaces, NUM_ABOVE)) {
        out[1] = cv_storage(spaces, NUM_ABOVE);
    } else {
        Py_INCREF(vb->no_storage);
        out[1] = vb->no_storage;
    }
    if (out[1] == NULL)
        return -1;
    long looks[NUM_LOOKS] = {0}, cargo[NUM_COLOURS] = {0}, unknown = 0;
    for (int sp = NUM_ABOVE; sp < NUM_SPACES; sp++) {
        long c = cells[sp];
        if (CARGO <= c && c < CHEST) {
            cargo[c - CARGO]++;
        } else if (0 <= c && c < CARGO) {         /* a tile: cv_cell checked c < num_tiles */
            if (r->secret[c])
                unknown++;
            else
                looks[vb->look[c]]++;
            PyObject *lst = cv_space(spaces, sp);
            if (lst == NULL)
                return -1;
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++) {
                long colour;
                if (cv_long(PyList_GET_ITEM(lst, k), AT("stor", p, sp), 0, NUM_COLOURS - 1,
                            &colour) < 0)
                    return -1;
                cargo[colour]++;
            }
        }
    }
    PyObject *items[B_COUNT] = {cv_long_tuple(looks, NUM_LOOKS), PyLong_FromLong(unknown),
                                cv_long_tuple(cargo, NUM_COLOURS)};
    if (items[0] == NULL || items[1] == NULL || items[2] == NULL) {
        for (int k = 0; k < B_COUNT; k++)
            Py_XDECREF(items[k]);
        return -1;
    }
    out[2] = cv_named(vb->below_cls, items, B_COUNT);
    return out[2] == NULL ? -1 : 0;
}

/* above, above_storage, below: one entry per seat. */
static int cv_ships(Reader *r, PyObject **above, PyObject **above_storage,
                    PyObject **below)
{
    long n = r->vb->n;
    *above = PyTuple_New(n);
    *above_storage = PyTuple_New(n);
    *below = PyTuple_New(n);
    if (*above == NULL || *above_storage == NULL || *below == NULL)
        return -1;
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *out[3] = {NULL, NULL, NULL};
        int rc = cv_ship(r, p, out);
        /* the tuples take what was built (a NULL item is fine in a tuple to be freed) */
        PyTuple_SET_ITEM(*above, p, out[0]);
        PyTuple_SET_ITEM(*above_storage, p, out[1]);
        PyTuple_SET_ITEM(*below, p, out[2]);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ---- the public part: hands and the pile ---------------------------------------------- */

/* hands, as in _public:
 *     if secrets: hands = tuple([CELL_UNKNOWN if t >= 0 and secret[t] else code(t)
 *                                for t in self.hand])
 *     else: hands = tuple(map(code, self.hand)) */
static PyObject *cv_hands(Reader *r)
{
    long codes[MAX_SEATS];
    for (Py_ssize_t p = 0; p < r->vb->n; p++) {
        long t;
        if (rd_hand(r, p, &t) < 0)
            return NULL;
        codes[p] = r->secrets && t >= 0 && r->secret[t] ? CELL_UNKNOWN : cv_code(r->vb, t);
    }
    return cv_long_tuple(codes, r->vb->n);
}

/* pile_up: the face-up tiles (each id checked) counted per look into ``looks``. */
static int rd_pile_up(Reader *r, long looks[NUM_LOOKS])
{
    PyObject *pile = rd_list(r, S_PILE_UP, -1);
    if (pile == NULL)
        return -1;
    memset(looks, 0, NUM_LOOKS * sizeof looks[0]);
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(pile); k++) {
        long t;
        if (cv_long(PyList_GET_ITEM(pile, k), AT("pile_up", k, -1), 0,
                    r->vb->num_tiles - 1, &t) < 0)
            return -1;
        looks[r->vb->look[t]]++;
    }
    return 0;
}

/* pile_up, as in _public: the face-up tiles' count per look
 *     np.bincount(bytes(self.pile_up).translate(g.look_table), minlength=2 * NUM_KINDS)
 * (the game's pile_memo only saves recounting). */
static PyObject *cv_pile_up(Reader *r)
{
    long looks[NUM_LOOKS];
    return rd_pile_up(r, looks) < 0 ? NULL : cv_long_tuple(looks, NUM_LOOKS);
}

/* pile_down, as in _public: ``len(self.pile_down)`` (the face-down tiles are not read). */
static PyObject *cv_pile_down(Reader *r)
{
    PyObject *pile = rd_list(r, S_PILE_DOWN, -1);
    return pile == NULL ? NULL : PyLong_FromSsize_t(PyList_GET_SIZE(pile));
}

/* ---- the public part: cards ----------------------------------------------------------- */

/* A list of card indexes, each checked, their backs into ``backs`` (at most MAX_CARDS;
 * NULL: not wanted); the list, borrowed. */
static PyObject *rd_cards(Reader *r, int k, long *backs)
{
    PyObject *lst = rd_list(r, k, -1);
    if (lst == NULL)
        return NULL;
    if (PyList_GET_SIZE(lst) > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "%s: more entries than cards", STATE_NAMES[k]);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lst); i++) {
        long c;
        if (cv_long(PyList_GET_ITEM(lst, i), AT(STATE_NAMES[k], i, -1), 0,
                    r->vb->num_cards - 1, &c) < 0)
            return NULL;
        if (backs != NULL)
            backs[i] = r->vb->back[c];
    }
    return lst;
}

/* ``tuple(sorted(lst))``: the list's own int objects, sorted as Python sorts them. */
static PyObject *cv_sorted_tuple(PyObject *lst)
{
    PyObject *copy = PyList_GetSlice(lst, 0, PyList_GET_SIZE(lst));
    if (copy == NULL)
        return NULL;
    PyObject *t = PyList_Sort(copy) < 0 ? NULL : PyList_AsTuple(copy);
    Py_DECREF(copy);
    return t;
}

/* backs_left, fronts, queue, current, current_back, used: _public_cards
 *     counts = Counter(map(g.card_back.__getitem__, self.deck))
 *     backs = tuple(map(counts.__getitem__, range(NUM_BACKS)))
 *     if not self.fronts_hidden or g.perfect_recall:
 *         unrevealed = self.deck + self.queue
 *         if self.current >= 0 and not self.revealed: unrevealed = unrevealed + [self.current]
 *         fronts = tuple(sorted(unrevealed))
 *     else: fronts = None
 *     queue = tuple([g.cards[c].back - 5 for c in self.queue])
 * and in _public
 *     self.current if self.revealed else -1,
 *     cards[self.current].back if self.current >= 0 else -1,
 *     tuple(sorted(self.used))
 * (the game's cards_memo only saves rebuilding them). Fills items[P_*]. */
static int cv_cards(Reader *r, PyObject **items)
{
    const ViewBuilder *vb = r->vb;
    PyObject *deck, *queue, *used;
    long current, deck_backs[MAX_CARDS], queue_backs[MAX_CARDS];
    int revealed, fronts_hidden;
    if ((deck = rd_cards(r, S_DECK, deck_backs)) == NULL
            || (queue = rd_cards(r, S_QUEUE, queue_backs)) == NULL
            || rd_long(r, S_CURRENT, -1, vb->num_cards - 1, &current) < 0
            || rd_bool(r, S_REVEALED, &revealed) < 0
            || rd_bool(r, S_FRONTS_HIDDEN, &fronts_hidden) < 0
            || (used = rd_cards(r, S_USED, NULL)) == NULL)
        return -1;
    Py_ssize_t nd = PyList_GET_SIZE(deck), nq = PyList_GET_SIZE(queue);
    long backs[NUM_BACKS] = {0};
    for (Py_ssize_t i = 0; i < nd; i++)
        backs[deck_backs[i]]++;
    for (Py_ssize_t i = 0; i < nq; i++)
        queue_backs[i] -= QUEUE_BACK0;             /* the queued contracts' colours */
    if ((items[P_BACKS_LEFT] = cv_long_tuple(backs, NUM_BACKS)) == NULL)
        return -1;
    if (!fronts_hidden || vb->perfect_recall) {
        PyObject *unrevealed = PySequence_Concat(deck, queue);
        if (unrevealed == NULL)
            return -1;
        if (current >= 0 && !revealed
                && PyList_Append(unrevealed, r->field[S_CURRENT]) < 0) {
            Py_DECREF(unrevealed);
            return -1;
        }
        items[P_FRONTS] = cv_sorted_tuple(unrevealed);
        Py_DECREF(unrevealed);
        if (items[P_FRONTS] == NULL)
            return -1;
    } else {
        Py_INCREF(Py_None);
        items[P_FRONTS] = Py_None;
    }
    if ((items[P_QUEUE] = cv_long_tuple(queue_backs, nq)) == NULL)
        return -1;
    if (revealed) {
        Py_INCREF(r->field[S_CURRENT]);
        items[P_CURRENT] = r->field[S_CURRENT];
    } else {
        items[P_CURRENT] = PyLong_FromLong(-1);
    }
    items[P_CURRENT_BACK] = PyLong_FromLong(current >= 0 ? (long)vb->back[current] : -1);
    items[P_USED] = cv_sorted_tuple(used);
    if (items[P_CURRENT] == NULL || items[P_CURRENT_BACK] == NULL || items[P_USED] == NULL)
        return -1;
    return 0;
}

/* ---- the public part: who acts, decisions, cargo --------------------------------------- */

/* current_players():
 *     acting = self.__dict__.get("_acting")
 *     if acting is None: acting = self._acting = self._current_players()
 * with _current_players:
 *     LOADING: tuple(p for p in range(n) if EMPTY in self.ships[p])
 *     DECIDE, ENCOUNTER: tuple(p for p in range(n) if self.pending[p] < 0)
 *     PIRATE: tuple(p for p in range(n) if self.encounter[p] == 1 and self.pending[p] < 0)
 *     COLOUR, PLACE: (self.cargo_queue[0][0],)
 *     SETUP: tuple(p for p in range(n) if self.hand[p] >= 0)
 *     else: () */
static PyObject *cv_acting(Reader *r, long phase)
{
    const ViewBuilder *vb = r->vb;
    PyObject *acting = rd_cache(r, S_ACTING);
    if (acting != NULL && acting != Py_None)
        return acting;
    Py_XDECREF(acting);
    if (PyErr_Occurred())
        return NULL;
    long who[MAX_SEATS];
    Py_ssize_t count = 0;
    if (phase == COLOUR || phase == PLACE) {
        PyObject *cq = rd_list(r, S_CARGO_QUEUE, -1);
        if (cq == NULL)
            return NULL;
        if (PyList_GET_SIZE(cq) == 0) {
            PyErr_SetString(PyExc_IndexError, "cargo_queue: empty while handing out cargo");
            return NULL;
        }
        PyObject *pair = PyList_GET_ITEM(cq, 0), *seat;
        long x;
        if (!PyList_Check(pair) && !PyTuple_Check(pair)) {
            cv_type_error(AT("cargo_queue", 0, -1), "a [seat, unit] pair", pair);
            return NULL;
        }
        if (PySequence_Fast_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "cargo_queue[0]: expected 2 items");
            return NULL;
        }
        seat = PySequence_Fast_GET_ITEM(pair, 0);
        if (cv_long(seat, AT("cargo_queue", 0, 0), 0, vb->n - 1, &x) < 0)
            return NULL;
        acting = PyTuple_Pack(1, seat);
    } else {
        for (Py_ssize_t p = 0; p < vb->n; p++) {
            long x, e = 1;
            int in = 0;
            if (phase == LOADING) {
                const long *cells = rd_ship(r, p);
                if (cells == NULL)
                    return NULL;
                for (int sp = 0; sp < NUM_SPACES; sp++)
                    in |= cells[sp] == EMPTY;
            } else if (phase == DECIDE || phase == ENCOUNTER || phase == PIRATE) {
                PyObject *pending = rd_list(r, S_PENDING, vb->n);
                if (pending == NULL || cv_long(PyList_GET_ITEM(pending, p),
                                               AT("pending", p, -1), -1, NUM_ACTIONS - 1,
                                               &x) < 0)
                    return NULL;
                if (phase == PIRATE) {
                    PyObject *enc = rd_list(r, S_ENCOUNTER, vb->n);
                    if (enc == NULL || cv_long(PyList_GET_ITEM(enc, p),
                                               AT("encounter", p, -1), -1, 1, &e) < 0)
                        return NULL;
                }
                in = e == 1 && x < 0;
            } else if (phase == SETUP) {
                if (rd_hand(r, p, &x) < 0)
                    return NULL;
                in = x >= 0;
            }
            if (in)
                who[count++] = p;
        }
        acting = cv_long_tuple(who, count);
    }
    if (acting != NULL && PyDict_SetItem(r->dict, vb->names[S_ACTING], acting) < 0)
        Py_CLEAR(acting);
    return acting;
}

/* cargo_queue, as in _public:
 *     tuple([(int(p), int(u)) for p, u in self.cargo_queue]) if self.cargo_queue else ()
 * each entry a [seat, unit] pair (unit: a colour or GREY). */
static PyObject *cv_cargo_queue(Reader *r)
{
    PyObject *cq = rd_list(r, S_CARGO_QUEUE, -1);
    if (cq == NULL)
        return NULL;
    Py_ssize_t len = PyList_GET_SIZE(cq);
    PyObject *t = PyTuple_New(len);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *pair = PyList_GET_ITEM(cq, i);
        if (!PyList_Check(pair) && !PyTuple_Check(pair)) {
            cv_type_error(AT("cargo_queue", i, -1), "a [seat, unit] pair", pair);
            goto fail;
        }
        if (PySequence_Fast_GET_SIZE(pair) != 2) {
            PyErr_Format(PyExc_ValueError, "cargo_queue[%zd]: expected 2 items, got %zd", i,
                         PySequence_Fast_GET_SIZE(pair));
            goto fail;
        }
        long pu[2];
        PyObject *x[2];
        for (int k = 0; k < 2; k++) {
            if (cv_long(PySequence_Fast_GET_ITEM(pair, k), AT("cargo_queue", i, k), 0,
                        k == 0 ? r->vb->n - 1 : GREY, &pu[k]) < 0)
                goto fail;
        }
        /* int(x) of an int is x itself; of a bool, a new int */
        for (int k = 0; k < 2; k++) {
            x[k] = PySequence_Fast_GET_ITEM(pair, k);
            if (PyLong_CheckExact(x[k]))
                Py_INCREF(x[k]);
            else
                x[k] = NULL;
        }
        for (int k = 0; k < 2; k++)
            if (x[k] == NULL)
                x[k] = PyLong_FromLong(pu[k]);
        PyObject *item = (x[0] == NULL || x[1] == NULL) ? NULL : PyTuple_New(2);
        if (item == NULL) {
            Py_XDECREF(x[0]);
            Py_XDECREF(x[1]);
            goto fail;
        }
        PyTuple_SET_ITEM(item, 0, x[0]);
        PyTuple_SET_ITEM(item, 1, x[1]);
        PyTuple_SET_ITEM(t, i, item);
    }
    return t;
fail:
    Py_DECREF(t);
    return NULL;
}

/* decided, as in _public: ``tuple([x >= 0 for x in self.pending])``. */
static PyObject *cv_decided(Reader *r)
{
    PyObject *pending = rd_list(r, S_PENDING, r->vb->n);
    if (pending == NULL)
        return NULL;
    PyObject *t = PyTuple_New(r->vb->n);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t p = 0; p < r->vb->n; p++) {
        long x;
        if (cv_long(PyList_GET_ITEM(pending, p), AT("pending", p, -1), -1, NUM_ACTIONS - 1,
                    &x) < 0) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, p, PyBool_FromLong(x >= 0));
    }
    return t;
}

/* full, as in _public:
 *     tuple([EMPTY not in ship for ship in self.ships]) if loading else g.no_seats */
static PyObject *cv_full(Reader *r, long phase)
{
    if (phase != SETUP && phase != LOADING) {
        Py_INCREF(r->vb->no_seats);
        return r->vb->no_seats;
    }
    PyObject *t = PyTuple_New(r->vb->n);
    if (t == NULL)
        return NULL;
    for (Py_ssize_t p = 0; p < r->vb->n; p++) {
        const long *cells = rd_ship(r, p);
        if (cells == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        int empty = 0;
        for (int sp = 0; sp < NUM_SPACES; sp++)
            empty |= cells[sp] == EMPTY;
        PyTuple_SET_ITEM(t, p, PyBool_FromLong(!empty));
    }
    return t;
}

/* ---- the public part ----------------------------------------------------------------- */

/* _public: the PublicView, built in the order of the Python tuple
 *     (n, self.round, self.phase, self.turns, self.current_players(), self.captain,
 *      above, above_storage, below, hands, tuple(self.coins), tuple(self.chests),
 *      tuple(self.parrots), g.meddlesome_flags, pile_up, len(self.pile_down),
 *      tuple(self.supply), self.chest_supply, self.parrot_supply, fronts,
 *      self.fronts_hidden, backs, queue, current, current_back, tuple(sorted(self.used)),
 *      tuple(self.encounter), tuple(self.outcome), decided, cargo_queue,
 *      self.unit_colour, self.cleansed, full, tuple(self.returns)) */
static PyObject *cv_build_public(Reader *r)
{
    const ViewBuilder *vb = r->vb;
    long n = vb->n, phase;
    int flag;
    PyObject *items[P_COUNT] = {NULL};
    if (rd_long(r, S_PHASE, 0, NUM_PHASES - 1, &phase) < 0)
        goto fail;
    if ((items[P_NUM_PLAYERS] = PyLong_FromLong(n)) == NULL
            || (items[P_ROUND] = rd_int_obj(r, S_ROUND, 1, 2)) == NULL
            || (items[P_PHASE] = rd_int_obj(r, S_PHASE, 0, NUM_PHASES - 1)) == NULL
            || (items[P_TURNS] = rd_int_obj(r, S_TURNS, 0, LONG_MAX)) == NULL
            || (items[P_CAPTAIN] = rd_int_obj(r, S_CAPTAIN, -1, n - 1)) == NULL)
        goto fail;
    if (cv_ships(r, &items[P_ABOVE], &items[P_ABOVE_STORAGE], &items[P_BELOW]) < 0)
        goto fail;
    if ((items[P_HANDS] = cv_hands(r)) == NULL
            || (items[P_COINS] = cv_int_tuple(rd(r, S_COINS), AT("coins", -1, -1), n))
               == NULL
            || (items[P_CHESTS] = cv_int_tuple(rd(r, S_CHESTS), AT("chests", -1, -1), n))
               == NULL
            || (items[P_PARROTS] = cv_int_tuple(rd(r, S_PARROTS), AT("parrots", -1, -1), n))
               == NULL)
        goto fail;
    Py_INCREF(vb->meddlesome);
    items[P_MEDDLESOME] = vb->meddlesome;
    if ((items[P_PILE_UP] = cv_pile_up(r)) == NULL
            || (items[P_PILE_DOWN] = cv_pile_down(r)) == NULL
            || (items[P_SUPPLY] = cv_int_tuple(rd(r, S_SUPPLY), AT("supply", -1, -1),
                                               NUM_COLOURS)) == NULL
            || (items[P_CHEST_SUPPLY] = rd_int_obj(r, S_CHEST_SUPPLY, 0, LONG_MAX)) == NULL
            || (items[P_PARROT_SUPPLY] = rd_int_obj(r, S_PARROT_SUPPLY, 0, LONG_MAX))
               == NULL)
        goto fail;
    if (cv_cards(r, items) < 0 || rd_bool(r, S_FRONTS_HIDDEN, &flag) < 0)
        goto fail;
    Py_INCREF(r->field[S_FRONTS_HIDDEN]);
    items[P_FRONTS_HIDDEN] = r->field[S_FRONTS_HIDDEN];
    if ((items[P_ENCOUNTER] = cv_int_tuple(rd(r, S_ENCOUNTER), AT("encounter", -1, -1), n))
               == NULL
            || (items[P_OUTCOME] = cv_int_tuple(rd(r, S_OUTCOME), AT("outcome", -1, -1), n))
               == NULL
            || (items[P_DECIDED] = cv_decided(r)) == NULL
            || (items[P_CARGO_QUEUE] = cv_cargo_queue(r)) == NULL
            || (items[P_UNIT_COLOUR] = rd_int_obj(r, S_UNIT_COLOUR, -1, NUM_COLOURS - 1))
               == NULL
            || rd_bool(r, S_CLEANSED, &flag) < 0)
        goto fail;
    Py_INCREF(r->field[S_CLEANSED]);
    items[P_CLEANSED] = r->field[S_CLEANSED];
    if ((items[P_FULL] = cv_full(r, phase)) == NULL
            || (items[P_RETURNS] = cv_int_tuple(rd(r, S_RETURNS), AT("returns", -1, -1), n))
               == NULL
            || (items[P_ACTING] = cv_acting(r, phase)) == NULL)   /* after cargo_queue */
        goto fail;
    return cv_named(vb->public_cls, items, P_COUNT);
fail:
    for (int k = 0; k < P_COUNT; k++)
        Py_XDECREF(items[k]);
    return NULL;
}

/* _public(): ``self._pub`` when set, else built and kept there (new reference). */
static PyObject *cv_public(Reader *r)
{
    PyObject *pub = rd_cache(r, S_PUB);
    if (pub != NULL && pub != Py_None)
        return pub;
    Py_XDECREF(pub);
    if (PyErr_Occurred())
        return NULL;
    pub = cv_build_public(r);
    if (pub != NULL && PyDict_SetItem(r->dict, r->vb->names[S_PUB], pub) < 0)
        Py_CLEAR(pub);
    return pub;
}

/* ---- the player's view --------------------------------------------------------------- */

/* python_view:
 *     pub = self._public()
 *     cells = tuple(map(self.game.cell_lut.__getitem__, own))
 *     if True in secret:
 *         flags = [0 <= c < CARGO and secret[c] for c in own]
 *         flags.append(hand >= 0 and secret[hand])
 *     else: flags = _NO_SECRETS
 *     (player, cells, tuple(map(tuple, stor)) if any(stor) else _EMPTY_STORAGE,
 *      cell_lut[hand], flags, self.pending[player], pub) */
static PyObject *cv_view(Reader *r, PyObject *player_obj, long player)
{
    const ViewBuilder *vb = r->vb;
    PyObject *items[V_COUNT] = {NULL};
    long codes[NUM_SPACES], hand, pending_value;
    const long *cells;
    PyObject *spaces, *pending;
    if ((items[V_PUB] = cv_public(r)) == NULL)
        goto fail;
    if ((cells = rd_ship(r, player)) == NULL || rd_hand(r, player, &hand) < 0
            || (spaces = rd_stor(r, player)) == NULL
            || (pending = rd_list(r, S_PENDING, vb->n)) == NULL
            || cv_long(PyList_GET_ITEM(pending, player), AT("pending", player, -1), -1,
                       NUM_ACTIONS - 1, &pending_value) < 0)
        goto fail;
    items[V_OWN_PENDING] = PyList_GET_ITEM(pending, player);
    Py_INCREF(items[V_OWN_PENDING]);
    Py_INCREF(player_obj);
    items[V_PLAYER] = player_obj;
    for (int sp = 0; sp < NUM_SPACES; sp++)
        codes[sp] = cv_code(vb, cells[sp]);
    if ((items[V_OWN_SHIP] = cv_long_tuple(codes, NUM_SPACES)) == NULL)
        goto fail;
    if (cv_any_storage(spaces, NUM_SPACES)) {
        items[V_OWN_STORAGE] = cv_storage(spaces, NUM_SPACES);
    } else {
        Py_INCREF(vb->empty_storage);
        items[V_OWN_STORAGE] = vb->empty_storage;
    }
    if (items[V_OWN_STORAGE] == NULL
            || (items[V_OWN_HAND] = PyLong_FromLong(cv_code(vb, hand))) == NULL)
        goto fail;
    if (r->secrets) {
        /* secret[c] is the state's bool (checked), so each flag is True or False */
        PyObject *flags = PyTuple_New(NUM_SPACES + 1);
        if ((items[V_OWN_SECRET] = flags) == NULL)
            goto fail;
        for (int sp = 0; sp < NUM_SPACES; sp++) {
            long c = cells[sp];
            PyTuple_SET_ITEM(flags, sp, PyBool_FromLong(0 <= c && c < CARGO && r->secret[c]));
        }
        PyTuple_SET_ITEM(flags, NUM_SPACES, PyBool_FromLong(hand >= 0 && r->secret[hand]));
    } else {
        Py_INCREF(vb->no_secrets);
        items[V_OWN_SECRET] = vb->no_secrets;
    }
    return cv_named(vb->view_cls, items, V_COUNT);
fail:
    for (int k = 0; k < V_COUNT; k++)
        Py_XDECREF(items[k]);
    return NULL;
}

static PyObject *ViewBuilder_view(ViewBuilder *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "view(state, player) takes 2 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    long player;
    if (cv_int(args[1], AT("player", -1, -1)) < 0)
        return NULL;
    if (cv_long(args[1], AT("player", -1, -1), 0, self->n - 1, &player) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_IndexError, "player: %R is not a seat of this %ld-player game",
                     args[1], self->n);
        return NULL;
    }
    Reader r;
    if (rd_open(&r, self, args[0]) < 0)
        return NULL;
    PyObject *view = rd_secret(&r) < 0 ? NULL : cv_view(&r, args[1], player);
    rd_close(&r);
    return view;
}

/* ---- the legal-action mask ----------------------------------------------------------- */

/* Whether ``player`` (-1: not a seat) is among current_players(): the tuple cv_acting reads
 * from ``_acting`` or computes and keeps there, every seat in it checked. */
static int mk_acting(Reader *r, long phase, long player, int *in)
{
    PyObject *acting = cv_acting(r, phase);
    if (acting == NULL)
        return -1;
    int rc = 0;
    *in = 0;
    if (!PyTuple_Check(acting)) {
        rc = cv_type_error(AT("_acting", -1, -1), "a tuple", acting);
    } else {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(acting); i++) {
            long seat;
            if ((rc = cv_long(PyTuple_GET_ITEM(acting, i), AT("_acting", i, -1), 0,
                              r->vb->n - 1, &seat)) < 0)
                break;
            *in |= seat == player;
        }
    }
    Py_DECREF(acting);
    return rc;
}

/* _asset_counts(p): the tiles of a ship (its checked cells) per kind. */
static void mk_asset_counts(const ViewBuilder *vb, const long *cells, long have[NUM_KINDS])
{
    memset(have, 0, NUM_KINDS * sizeof have[0]);
    for (int sp = 0; sp < NUM_SPACES; sp++)
        if (0 <= cells[sp] && cells[sp] < CARGO)
            have[vb->look[cells[sp]] / 2]++;
}

/* _cargo_counts(p): seat p's cargo tokens per colour, on its spaces and storage tiles. */
static int mk_cargo_counts(Reader *r, Py_ssize_t p, const long *cells,
                           long cargo[NUM_COLOURS])
{
    PyObject *spaces = rd_stor(r, p);             /* every colour checked */
    if (spaces == NULL)
        return -1;
    memset(cargo, 0, NUM_COLOURS * sizeof cargo[0]);
    for (int sp = 0; sp < NUM_SPACES; sp++) {
        if (CARGO <= cells[sp] && cells[sp] < CHEST)
            cargo[cells[sp] - CARGO]++;
        PyObject *lst = PyList_GET_ITEM(spaces, sp);
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lst); k++)
            cargo[PyLong_AsLong(PyList_GET_ITEM(lst, k))]++;
    }
    return 0;
}

/* _kinds_up(): the kinds among the face-up tiles of the pile, one bit each. */
static int mk_kinds_up(Reader *r, unsigned *kinds)
{
    long looks[NUM_LOOKS];
    if (rd_pile_up(r, looks) < 0)
        return -1;
    *kinds = 0;
    for (int k = 0; k < NUM_KINDS; k++)
        if (looks[2 * k] + looks[2 * k + 1] > 0)
            *kinds |= 1u << k;
    return 0;
}

/* ``mask[first + c] = 1`` for each colour c with ``self.supply[c] > 0``. */
static int mk_supply(Reader *r, char *mask, int first)
{
    PyObject *supply = rd_list(r, S_SUPPLY, NUM_COLOURS);
    if (supply == NULL)
        return -1;
    for (Py_ssize_t c = 0; c < NUM_COLOURS; c++) {
        long x;
        if (cv_long(PyList_GET_ITEM(supply, c), AT("supply", c, -1), 0, LONG_MAX, &x) < 0)
            return -1;
        mask[first + c] = x > 0;
    }
    return 0;
}

/* SETUP, and LOADING with a tile in hand: place it on any empty asset space. */
static void mk_place_tile(const long *cells, char *mask)
{
    for (int sp = 0; sp < NUM_ASSET; sp++)
        if (cells[sp] == EMPTY)
            mask[A_PLACE + sp] = 1;
}

/* _can_pay_assets(p, needs, parrot_kind, have) of a card's needs counted per kind
 * (parrot_kind -1: no parrot; else one of the needed kinds): the kinds short, less the
 * parrot's one, covered by the wild monkeys (Rough Seas). */
static int mk_can_pay(const ViewBuilder *vb, const unsigned char *need, int parrot_kind,
                      const long *have)
{
    long shortfall = 0;
    for (int k = 0; k < NUM_KINDS; k++) {
        long missing = need[k] - (k == parrot_kind) - have[k];
        if (need[k] && missing > 0)
            shortfall += missing;
    }
    return shortfall <= (vb->rough_seas ? have[MONKEY] : 0);
}

/* _resolve_mask(p, cards[self.current]): resolve when p can pay the card (assets, or the
 * parrot standing in for one needed kind; else its cargo colours). */
static int mk_resolve(Reader *r, long p, const long *cells, const long *have, char *mask)
{
    const ViewBuilder *vb = r->vb;
    long card, parrots, cargo[NUM_COLOURS];
    if (rd_long(r, S_CURRENT, 0, vb->num_cards - 1, &card) < 0)
        return -1;
    const unsigned char *need = vb->need[card];
    if (!vb->need_assets[card]) {
        if (mk_cargo_counts(r, p, cells, cargo) < 0)
            return -1;
        int enough = 1;
        for (int c = 0; c < NUM_COLOURS; c++)
            enough &= cargo[c] >= need[c];
        mask[A_RESOLVE] = (char)enough;
        return 0;
    }
    mask[A_RESOLVE] = (char)mk_can_pay(vb, need, -1, have);
    PyObject *lst = rd_list(r, S_PARROTS, vb->n);
    if (lst == NULL || cv_long(PyList_GET_ITEM(lst, p), AT("parrots", p, -1), 0, LONG_MAX,
                               &parrots) < 0)
        return -1;
    if (parrots > 0)
        for (int k = 0; k < NUM_KINDS; k++)
            if (need[k])
                mask[A_PARROT + k] = (char)mk_can_pay(vb, need, k, have);
    return 0;
}

/* _swap_mask (Rough Seas): two tiles of a kind held twice or more for a face-up kind. */
static int mk_swap(Reader *r, const long *have, char *mask)
{
    unsigned gives = 0, takes;
    if (!r->vb->rough_seas)
        return 0;
    for (int k = 0; k < NUM_KINDS; k++)
        if (have[k] >= 2)
            gives |= 1u << k;
    if (gives == 0)
        return 0;
    if (mk_kinds_up(r, &takes) < 0)
        return -1;
    for (int g = 0; g < NUM_KINDS; g++)
        for (int t = 0; t < NUM_KINDS; t++)
            if ((gives >> g & 1) && (takes >> t & 1))
                mask[A_SWAP + g * NUM_KINDS + t] = 1;
    return 0;
}

/* _loading_mask: with a tile in hand, place it or return it; else flip or grab a tile
 * (grabs need a free asset space), take cargo (C1 or C2 free), return a starfish tile
 * (the starfish rule). */
static int mk_loading(Reader *r, long p, const long *cells, char *mask)
{
    const ViewBuilder *vb = r->vb;
    long hand;
    int free_asset = 0;
    for (int sp = 0; sp < NUM_ASSET; sp++)
        free_asset |= cells[sp] == EMPTY;
    if (rd_hand(r, p, &hand) < 0)
        return -1;
    if (hand >= 0) {
        mk_place_tile(cells, mask);
        mask[A_RETURN] = 1;
        return 0;
    }
    PyObject *down = rd_list(r, S_PILE_DOWN, -1);
    if (down == NULL)
        return -1;
    if (PyList_GET_SIZE(down) > 0) {
        mask[A_FLIP] = 1;
        mask[A_GRAB_DOWN] = (char)free_asset;
    }
    if (free_asset) {
        unsigned kinds;
        if (mk_kinds_up(r, &kinds) < 0)
            return -1;
        for (int k = 0; k < NUM_KINDS; k++)
            mask[A_GRAB_UP + k] = (char)(kinds >> k & 1);
    }
    if ((cells[NUM_ASSET] == EMPTY || cells[NUM_ASSET + 1] == EMPTY)
            && mk_supply(r, mask, A_CARGO) < 0)
        return -1;
    if (vb->starfish_rule)
        for (int sp = 0; sp < NUM_ASSET; sp++)
            if (0 <= cells[sp] && cells[sp] < CARGO && vb->look[cells[sp]] % 2)
                mask[A_STAR_RETURN + sp] = 1;
    return 0;
}

/* _place_mask: stow the cargo unit on an empty space or a storage tile with room; with no
 * room (no empty space, no asset space's storage tile with room) toss an asset (not the
 * handicapped seat's monkey), a cargo token, or the unit itself. */
static int mk_place(Reader *r, long p, const long *cells, char *mask)
{
    const ViewBuilder *vb = r->vb;
    PyObject *spaces = rd_stor(r, p);
    long cargo[NUM_COLOURS];
    char room[NUM_SPACES];
    int has_room = 0;
    if (spaces == NULL)
        return -1;
    for (int sp = 0; sp < NUM_SPACES; sp++) {
        long c = cells[sp];
        room[sp] = c == EMPTY || (0 <= c && c < CARGO && vb->look[c] / 2 == STORAGE
                                  && PyList_GET_SIZE(PyList_GET_ITEM(spaces, sp))
                                     < vb->storage_capacity);
        has_room |= sp < NUM_ASSET ? room[sp] : c == EMPTY;
    }
    if (has_room) {
        for (int sp = 0; sp < NUM_SPACES; sp++)
            mask[A_STOW + sp] = room[sp];
        return 0;
    }
    for (int sp = 0; sp < NUM_ASSET; sp++) {
        long c = cells[sp];
        if (0 <= c && c < CARGO && !(vb->med[p] && vb->look[c] / 2 == MONKEY))
            mask[A_TOSS_ASSET + sp] = 1;
    }
    if (mk_cargo_counts(r, p, cells, cargo) < 0)
        return -1;
    for (int c = 0; c < NUM_COLOURS; c++)
        mask[A_TOSS_CARGO + c] = cargo[c] > 0;
    mask[A_DISCARD] = 1;
    return 0;
}

/* legal_actions_mask(player) into ``mask`` (zeroed): nothing for a player not acting, else
 * the choices of the phase. */
static int mk_mask(Reader *r, long player, char *mask)
{
    long phase, have[NUM_KINDS], cargo[NUM_COLOURS];
    const long *cells;
    int in;
    if (rd_long(r, S_PHASE, 0, NUM_PHASES - 1, &phase) < 0
            || mk_acting(r, phase, player, &in) < 0)
        return -1;
    if (!in)
        return 0;
    if ((cells = rd_ship(r, player)) == NULL)
        return -1;
    mk_asset_counts(r->vb, cells, have);
    switch (phase) {
    case SETUP:
        mk_place_tile(cells, mask);
        return 0;
    case LOADING:
        return mk_loading(r, player, cells, mask);
    case DECIDE:
        mask[A_SKIP] = 1;
        return mk_resolve(r, player, cells, have, mask) < 0 ? -1 : mk_swap(r, have, mask);
    case ENCOUNTER:
        mask[A_ENCOUNTER] = mask[A_FLEE] = 1;
        return mk_swap(r, have, mask);
    case PIRATE:
        if (mk_resolve(r, player, cells, have, mask) < 0
                || mk_cargo_counts(r, player, cells, cargo) < 0)
            return -1;
        mask[A_PAY_NONE] = 1;                     /* pay with no cargo to give */
        for (int c = 0; c < NUM_COLOURS; c++) {
            mask[A_PAY + c] = cargo[c] > 0;
            mask[A_PAY_NONE] &= cargo[c] == 0;
        }
        return mk_swap(r, have, mask);
    case COLOUR:
        return mk_supply(r, mask, A_COLOUR);
    case PLACE:
        return mk_place(r, player, cells, mask);
    }
    return 0;
}

static PyObject *ViewBuilder_mask_into(ViewBuilder *self, PyObject *const *args,
                                       Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError,
                     "mask_into(state, player, out) takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    /* any int player, as in Python: one that is no seat is never acting */
    if (cv_int(args[1], AT("player", -1, -1)) < 0)
        return NULL;
    int overflow;
    long player = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (overflow || player < 0 || player >= self->n)
        player = -1;
    Py_buffer buf;
    if (PyObject_GetBuffer(args[2], &buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (buf.itemsize != 1 || buf.len != NUM_ACTIONS) {
        PyErr_Format(PyExc_ValueError, "out must be a vector of %d bytes (int8), got %zd "
                     "items of %zd bytes", NUM_ACTIONS, buf.len / buf.itemsize, buf.itemsize);
        PyBuffer_Release(&buf);
        return NULL;
    }
    /* built aside, so that ``out`` is left as it was on an error */
    char mask[NUM_ACTIONS] = {0};
    Reader r;
    int rc = rd_open(&r, self, args[0]);
    if (rc == 0) {
        rc = mk_mask(&r, player, mask);
        rd_close(&r);
    }
    if (rc == 0)
        memcpy(buf.buf, mask, NUM_ACTIONS);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- construction ---------------------------------------------------------------------- */

/* ``obj`` must be a tuple of ``len`` items. */
static int check_tuple(PyObject *obj, Py_ssize_t len, const char *what)
{
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != len) {
        PyErr_Format(PyExc_ValueError, "ViewBuilder: %s must be a tuple of %zd items", what,
                     len);
        return -1;
    }
    return 0;
}

/* A table of ints within [0, hi) into ``dst`` (at most ``max`` values); its length. */
static Py_ssize_t read_table(PyObject *seq, long hi, unsigned char *dst, Py_ssize_t max,
                             const char *what)
{
    Py_ssize_t len;
    long *t = ce_longs_new(seq, what, &len);
    if (t == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < len; k++) {
        if (len > max || t[k] < 0 || t[k] >= hi) {
            PyErr_Format(PyExc_ValueError, "ViewBuilder: %s must hold at most %zd values in "
                         "0..%ld", what, max, hi - 1);
            PyMem_Free(t);
            return -1;
        }
        dst[k] = (unsigned char)t[k];
    }
    PyMem_Free(t);
    return len;
}

/* The mask's card table: card_needs_assets (one bool per card) and card_needs (one
 * tuple of kinds, or of colours, per card), counted per kind or colour. */
static int read_needs(ViewBuilder *self, PyObject *needs_assets, PyObject *needs)
{
    if (read_table(needs_assets, 2, self->need_assets, MAX_CARDS, "card_needs_assets")
            != self->num_cards
            || check_tuple(needs, self->num_cards, "card_needs") < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "ViewBuilder: card_needs_assets must hold "
                            "one flag per card");
        return -1;
    }
    for (Py_ssize_t c = 0; c < self->num_cards; c++) {
        Py_ssize_t len;
        long hi = self->need_assets[c] ? NUM_KINDS : NUM_COLOURS;
        long *t = ce_longs_new(PyTuple_GET_ITEM(needs, c), "card_needs", &len);
        if (t == NULL)
            return -1;
        for (Py_ssize_t k = 0; k < len; k++) {
            if (len > 255 || t[k] < 0 || t[k] >= hi) {
                PyErr_Format(PyExc_ValueError, "ViewBuilder: card_needs[%zd] must hold kinds "
                             "(asset cards) or colours", c);
                PyMem_Free(t);
                return -1;
            }
            self->need[c][t[k]]++;
        }
        PyMem_Free(t);
    }
    return 0;
}

static PyObject *ViewBuilder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *dims, *lut, *look, *back, *view_cls, *public_cls, *below_cls, *meddlesome;
    PyObject *no_seats, *no_secrets, *empty_storage, *no_storage, *needs_assets, *needs;
    long n, capacity;
    int perfect_recall, starfish_rule, rough_seas;
    static char *kwlist[] = {"dims", "num_players", "cell_lut", "tile_look", "card_back",
                             "perfect_recall", "meddlesome_flags", "no_seats", "view_cls",
                             "public_cls", "below_cls", "no_secrets", "empty_storage",
                             "no_storage", "card_needs_assets", "card_needs",
                             "storage_capacity", "starfish_rule", "rough_seas", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OlOOOpOOOOOOOOOOlpp:ViewBuilder", kwlist,
                                     &dims, &n, &lut, &look, &back, &perfect_recall,
                                     &meddlesome, &no_seats, &view_cls, &public_cls,
                                     &below_cls, &no_secrets, &empty_storage, &no_storage,
                                     &needs_assets, &needs, &capacity, &starfish_rule,
                                     &rough_seas))
        return NULL;
    long *d = ce_longs_exact(dims, NUM_DIMS, "dims");
    if (d == NULL)
        return NULL;
    int same = memcmp(d, DIMS, sizeof DIMS) == 0;
    PyMem_Free(d);
    if (!same) {
        PyErr_SetString(PyExc_ValueError, "ViewBuilder: the game's sizes and codes (dims) "
                        "are not those this module was compiled for");
        return NULL;
    }
    if (n < 1 || n > MAX_SEATS) {
        PyErr_Format(PyExc_ValueError, "ViewBuilder: num_players %ld outside 1..%d", n,
                     MAX_SEATS);
        return NULL;
    }
    if (capacity < 0) {
        PyErr_SetString(PyExc_ValueError, "ViewBuilder: storage_capacity must be >= 0");
        return NULL;
    }
    if (ce_check_record(view_cls, "ViewBuilder: view_cls", VIEW_NAMES, V_COUNT) < 0
            || ce_check_record(public_cls, "ViewBuilder: public_cls", PUBLIC_NAMES, P_COUNT) < 0
            || ce_check_record(below_cls, "ViewBuilder: below_cls", BELOW_NAMES, B_COUNT) < 0
            || check_tuple(meddlesome, n, "meddlesome_flags") < 0
            || check_tuple(no_seats, n, "no_seats") < 0
            || check_tuple(no_secrets, NUM_SPACES + 1, "no_secrets") < 0
            || check_tuple(empty_storage, NUM_SPACES, "empty_storage") < 0
            || check_tuple(no_storage, NUM_ABOVE, "no_storage") < 0)
        return NULL;
    ViewBuilder *self = (ViewBuilder *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->n = n;
    self->perfect_recall = perfect_recall;
    self->starfish_rule = starfish_rule;
    self->rough_seas = rough_seas;
    self->storage_capacity = capacity;
    for (Py_ssize_t p = 0; p < n; p++) {
        int flag = PyObject_IsTrue(PyTuple_GET_ITEM(meddlesome, p));
        if (flag < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->med[p] = (char)flag;
    }
    Py_INCREF(view_cls);
    self->view_cls = (PyTypeObject *)view_cls;
    Py_INCREF(public_cls);
    self->public_cls = (PyTypeObject *)public_cls;
    Py_INCREF(below_cls);
    self->below_cls = (PyTypeObject *)below_cls;
    Py_INCREF(meddlesome);
    self->meddlesome = meddlesome;
    Py_INCREF(no_seats);
    self->no_seats = no_seats;
    Py_INCREF(no_secrets);
    self->no_secrets = no_secrets;
    Py_INCREF(empty_storage);
    self->empty_storage = empty_storage;
    Py_INCREF(no_storage);
    self->no_storage = no_storage;
    long *l = ce_longs_exact(lut, LUT_SIZE, "cell_lut");
    if (l == NULL)
        goto fail;
    for (int k = 0; k < LUT_SIZE; k++) {
        if (l[k] < 0 || l[k] >= NUM_CELLS) {
            PyErr_SetString(PyExc_ValueError, "ViewBuilder: cell_lut holds a non-code");
            PyMem_Free(l);
            goto fail;
        }
        self->lut[k] = l[k];
    }
    PyMem_Free(l);
    if ((self->num_tiles = read_table(look, NUM_LOOKS, self->look, MAX_TILES, "tile_look"))
            < 0
            || (self->num_cards = read_table(back, NUM_BACKS, self->back, MAX_CARDS,
                                             "card_back")) < 0
            || read_needs(self, needs_assets, needs) < 0)
        goto fail;
    for (int k = 0; k < S_COUNT; k++)
        if ((self->names[k] = PyUnicode_InternFromString(STATE_NAMES[k])) == NULL)
            goto fail;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static void ViewBuilder_dealloc(ViewBuilder *self)
{
    Py_XDECREF(self->view_cls);
    Py_XDECREF(self->public_cls);
    Py_XDECREF(self->below_cls);
    Py_XDECREF(self->meddlesome);
    Py_XDECREF(self->no_seats);
    Py_XDECREF(self->no_secrets);
    Py_XDECREF(self->empty_storage);
    Py_XDECREF(self->no_storage);
    for (int k = 0; k < S_COUNT; k++)
        Py_XDECREF(self->names[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef ViewBuilder_methods[] = {
    {"view", (PyCFunction)(void (*)(void))ViewBuilder_view, METH_FASTCALL,
     "view(state, player): what ``player`` knows of ``state``, as state.python_view(player);"
     " builds the public part into state._pub when it is not there."},
    {"mask_into", (PyCFunction)(void (*)(void))ViewBuilder_mask_into, METH_FASTCALL,
     "mask_into(state, player, out): write state.python_legal_actions_mask(player) into "
     "out (a writable buffer of NUM_ACTIONS bytes, e.g. an int8 row); fills state._acting "
     "when it is not there."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject ViewBuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.anchors_aweigh._cview.ViewBuilder",
    .tp_basicsize = sizeof(ViewBuilder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The Anchors Aweigh! view builder of one game (see the module).",
    .tp_new = ViewBuilder_new,
    .tp_dealloc = (destructor)ViewBuilder_dealloc,
    .tp_methods = ViewBuilder_methods,
};

static struct PyModuleDef cview_module = {
    PyModuleDef_HEAD_INIT, "_cview",
    "The compiled Anchors Aweigh! view builder (the C twin of the state's python_view, "
    "and of its python_legal_actions_mask).",
    -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cview(void)
{
    const char *mask_names[MASK_COUNT];
    for (int k = 0; k < MASK_COUNT; k++)
        mask_names[k] = STATE_NAMES[MASK_READS[k]];
    PyObject *m = PyModule_Create(&cview_module);
    if (m == NULL)
        return NULL;
    if (ce_add_type(m, "ViewBuilder", &ViewBuilderType) < 0
            || ce_add_names(m, "MASK_FIELDS", mask_names, MASK_COUNT) < 0
            || ce_add_names(m, "VIEW_FIELDS", VIEW_NAMES, V_COUNT) < 0
            || ce_add_names(m, "PUBLIC_FIELDS", PUBLIC_NAMES, P_COUNT) < 0
            || ce_add_names(m, "BELOW_FIELDS", BELOW_NAMES, B_COUNT) < 0
            || ce_add_names(m, "STATE_FIELDS", STATE_NAMES, S_COUNT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
