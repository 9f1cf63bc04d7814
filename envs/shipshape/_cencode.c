/* ShipShape's compiled observation encoder: the C twin of envs/shipshape/observation.py.
 *
 * ``Encoder(...)`` holds the game's constants, computed in Python from the game's layout
 * and components (observation.compiled_params: layout spans, crate cells, the tables of
 * the cell features and totals, the scales); ``encode_into(view, out)`` writes the whole
 * observation of a ShipShapeView into a float32 vector, bit for bit what the Python
 * encoder writes (tests/shipshape/test_compiled_encoder.py compares them). It reads
 * nothing but the view and its own constants. One cache: the blocks every seat shares of
 * the last public table it read (simultaneous bidders' views share one table object; see
 * encode_into); the seat's own blocks, placement outcomes included, are computed anew.
 *
 * The view and its public table are frozen dataclasses, read by attribute name:
 * VIEW_FIELDS and TABLE_FIELDS list the names in the order of this file's indices (a test
 * checks that they are the dataclasses' fields). Every value read is checked: a wrong
 * type, length or index raises TypeError or ValueError naming the field, and every index
 * computed from view data is checked against its block before anything is written.
 *
 * Floats, as the Python encoder computes them: the seat numbers and the current voyage
 * score are a small int divided by a Python float (double), then stored in float32:
 * ``(float)(x / 27.0)``; the placement outcomes are numpy float32 quotients:
 * ``(float)x / 27.0f``. The cell features come from the Python table itself.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "cencode.h"

#define MAX_SEATS 8       /* ShipShape has 3-6 seats */
#define MAX_STACK 32      /* crates in a group's stack (3 turns x group size) */
#define MAX_CODES 16      /* cell codes (the game has 11) */
#define ORIENTATIONS 8
#define CELLS 9
#define CELL_FEATURES 5
#define TILE (CELLS * CELL_FEATURES)
#define CARDS 10
#define OUTCOME_FEATURES 6
#define VOYAGES 3

/* ---- field names ------------------------------------------------------------------------- */

enum { V_PLAYER, V_DECISION, V_TABLE, N_VIEW };
static const char *const VIEW_NAMES[N_VIEW] = {"player", "decision", "table"};

enum {
    T_ACTING, T_VOYAGE, T_TURN, T_TURNS, T_DONE, T_HANDS, T_DISCARDS, T_COINS,
    T_HOLD_HISTORY, T_PLACED, T_VISIBLE, T_STACKS, T_UNUSED, T_NEED, T_STAGE, T_PLACING,
    T_BIDS, T_VOYAGE_SCORES, N_TABLE
};
static const char *const TABLE_NAMES[N_TABLE] = {
    "acting", "voyage", "turn", "turns", "done", "hands", "discards", "coins",
    "hold_history", "placed", "visible", "stacks", "unused", "need", "stage", "placing",
    "bids", "voyage_scores",
};
/* the table fields the encoder reads */
static const int TABLE_READ[] = {
    T_VOYAGE, T_TURN, T_DONE, T_HANDS, T_COINS, T_HOLD_HISTORY, T_PLACED, T_VISIBLE,
    T_STACKS, T_NEED, T_STAGE, T_PLACING, T_BIDS,
};
#define N_TABLE_READ ((int)(sizeof(TABLE_READ) / sizeof(TABLE_READ[0])))

/* The layout fields whose (start, stop) the constructor takes, in this order (-1, -1 for
 * a field the layout lacks: other_stack and other_stack_present below six seats). */
enum {
    L_VOYAGE, L_TURN, L_DECISION, L_REBID, L_MY_HAND, L_PENDING_CRATE, L_STACK,
    L_STACK_PRESENT, L_OTHER_STACK, L_OTHER_STACK_PRESENT, L_SCORE_NOW, L_PLACE_OUTCOMES,
    L_STACK_OUTCOMES, L_BID_OUTLOOK, L_SEAT_IS_CAPN, L_SEAT_IN_MY_GROUP, L_SEAT_COINS, L_SEAT_HOLD,
    L_SEAT_HAND, L_SEAT_VISIBLE, L_SEAT_TOTALS, L_SEAT_CRATES, L_SEAT_STATUS, L_SEAT_BIDS,
    N_LAYOUT
};
static const char *const LAYOUT_NAMES[N_LAYOUT] = {
    "voyage", "turn", "decision", "rebid", "my_hand", "pending_crate", "stack",
    "stack_present", "other_stack", "other_stack_present", "score_now", "place_outcomes",
    "stack_outcomes", "bid_outlook", "seat_is_capn", "seat_in_my_group", "seat_coins", "seat_hold",
    "seat_hand", "seat_visible", "seat_totals", "seat_crates", "seat_status", "seat_bids",
};

/* ---- the encoder object ------------------------------------------------------------------ */

#define MAX_BIDDERS MAX_SEATS

/* One bidder as the outlook reads it: its crate gains, its cards (sorted), whether it is
 * the Cap'n, its hold number, and (for the others) the chance of each card. */
typedef struct {
    double values[MAX_BIDDERS];
    long cards[CARDS];
    int n;
    int capn;
    long hold;
    double probs[CARDS];
} Bidder;

/* A group's bidders in seat order, with their crate gains and the chances of their cards
 * (bidding.modelled_bid, each from its own side); ``ready`` once computed for a table. */
typedef struct {
    int ready, rebid;
    long count;
    long seat[MAX_BIDDERS];
    Bidder bidder[MAX_BIDDERS];
} GroupBids;

/* One public table as the writers read it: its fields (owned references) and the facts
 * read from them that several blocks use. */
typedef struct {
    PyObject *f[N_TABLE];               /* NULL for fields not read */
    long voyage, turn;                  /* as in the table */
    long v;                             /* min(voyage, 2): the index of the groups */
    int done;
    unsigned char visible[MAX_SEATS][CELLS];   /* every seat's hold, top-down codes */
    long tot[MAX_SEATS][5];             /* its gold, cannons, contraband, rats, goods */
    GroupBids bids[2];                  /* per group, once a bidder asks (zeroed on reading) */
} Table;

/* A crate placed on a hold, as the outcomes need it: the packed totals of its own cells
 * and the cells it leaves showing the hold (its holes). */
typedef struct {
    unsigned long own;
    unsigned char holes;                /* how many */
    unsigned char hole[CELLS];          /* the first ``holes``: the cells that are holes */
} Placement;

typedef struct {
    PyObject_HEAD
    long seats, stack_size, capn;       /* capn: -1 when there is none */
    int six_seat;                       /* two groups: other_stack, seat_in_my_group */
    long group_index[VOYAGES][MAX_SEATS];
    Py_ssize_t size;
    Py_ssize_t at[N_LAYOUT];            /* each layout field's start (-1: absent) */
    long num_crates, num_codes;
    /* lying[(crate * 8 + o) * 9 + i]: crate ``crate`` as it lies in orientation o (crate
     * 0: none, all holes); placements[(crate * 8 + o) * 8 + a]: that crate placed in the
     * action orientation a (geometry.orient twice) */
    unsigned char *lying;
    Placement *placements;
    float cell_features[MAX_CODES][CELL_FEATURES];   /* observation._CELL_TABLE */
    long cell_totals[MAX_CODES][5];     /* gold, cannons, contraband, rats, shows a good */
    /* the same packed in one int, 6 bits each (observation._PACKED): a sum over a tile's 9
     * cells (each total at most 27) never carries from one field into the next */
    unsigned long cell_packed[MAX_CODES];
    float out_scale[OUTCOME_FEATURES];  /* observation._OUT_SCALE */
    double coin_scale, score_scale;
    long no_low;                        /* lowest cannons when no other seat scores */
    /* bidding.py's constants: CARD_COST, WIDTH, REBID_CHARGE, HEURISTIC_TIE */
    double card_cost, width, rebid_charge, heuristic_tie;
    PyObject *view_names[N_VIEW];       /* interned attribute names */
    PyObject *table_names[N_TABLE];
    /* The last table read (a strong reference, so no other object can take its address;
     * NULL: none), its facts, and the public blocks of seat 0's observation of it, the
     * rest zero (see encode_into): every seat's are the same values, rotated. */
    PyObject *last_table;
    Table last;
    float *shared;                      /* ``size`` floats */
    int busy;                           /* an encode_into is using ``last`` */
} Encoder;

static void table_release(Table *T)
{
    for (int i = 0; i < N_TABLE; i++)
        Py_CLEAR(T->f[i]);
}

/* Forget the last table. */
static void forget_table(Encoder *self)
{
    Py_CLEAR(self->last_table);
    table_release(&self->last);
}

static void Encoder_dealloc(Encoder *self)
{
    forget_table(self);
    PyMem_Free(self->shared);
    PyMem_Free(self->lying);
    PyMem_Free(self->placements);
    for (int i = 0; i < N_VIEW; i++)
        Py_XDECREF(self->view_names[i]);
    for (int i = 0; i < N_TABLE; i++)
        Py_XDECREF(self->table_names[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The layout spans: every field's width must be what the code below writes there. */
static int init_layout(Encoder *self, PyObject *spans_seq)
{
    long *spans = ce_longs_exact(spans_seq, 2 * N_LAYOUT, "layout spans");
    if (spans == NULL)
        return -1;
    const long S = self->seats, L = self->stack_size;
    const long width[N_LAYOUT] = {
        3, 3, 2, 1, CARDS, TILE, L * TILE, L, L * TILE, L, 1, ORIENTATIONS * OUTCOME_FEATURES,
        L * OUTCOME_FEATURES, CARDS, S, S, S, S, S * CARDS, S * TILE, S * 5, S, S * 3, S * 2,
    };
    for (int f = 0; f < N_LAYOUT; f++) {
        long start = spans[2 * f], stop = spans[2 * f + 1];
        int optional = f == L_OTHER_STACK || f == L_OTHER_STACK_PRESENT;
        if (start == -1 && stop == -1 && optional && !self->six_seat) {
            self->at[f] = -1;
            continue;
        }
        if (start < 0 || stop - start != width[f] || stop > self->size) {
            PyErr_Format(PyExc_ValueError, "Encoder: layout field %s spans [%ld, %ld), "
                         "expected %ld values within %zd", LAYOUT_NAMES[f], start, stop,
                         width[f], self->size);
            PyMem_Free(spans);
            return -1;
        }
        self->at[f] = start;
    }
    PyMem_Free(spans);
    return 0;
}

/* The crates as they lie and as they are placed, from their cells and geometry.PERMS. */
static int init_crates(Encoder *self, PyObject *cells_seq, PyObject *perms_seq)
{
    Py_ssize_t n;
    long *cells = ce_longs_new(cells_seq, "crate cells", &n);
    if (cells == NULL)
        return -1;
    long *perms = ce_longs_exact(perms_seq, ORIENTATIONS * CELLS, "perms");
    int rc = -1;
    if (perms == NULL)
        goto done;
    if (n % CELLS != 0) {
        PyErr_SetString(PyExc_ValueError, "Encoder: crate cells must be 9 per crate");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (cells[i] < 0 || cells[i] >= self->num_codes) {
            PyErr_Format(PyExc_ValueError, "Encoder: crate cell code %ld out of range",
                         cells[i]);
            goto done;
        }
    for (int i = 0; i < ORIENTATIONS * CELLS; i++)
        if (perms[i] < 0 || perms[i] >= CELLS) {
            PyErr_SetString(PyExc_ValueError, "Encoder: perms must index 9 cells");
            goto done;
        }
    self->num_crates = (long)(n / CELLS);
    size_t tiles = (size_t)(self->num_crates + 1) * ORIENTATIONS;
    self->lying = PyMem_Calloc(tiles * CELLS, 1);
    self->placements = PyMem_Calloc(tiles * ORIENTATIONS, sizeof(Placement));
    if (self->lying == NULL || self->placements == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* orient(cells, k)[i] = cells[PERMS[k][i]] */
    for (long c = 1; c <= self->num_crates; c++)
        for (int o = 0; o < ORIENTATIONS; o++) {
            unsigned char *lying = self->lying + ((size_t)c * ORIENTATIONS + o) * CELLS;
            for (int i = 0; i < CELLS; i++)
                lying[i] = (unsigned char)cells[(c - 1) * CELLS + perms[o * CELLS + i]];
            for (int a = 0; a < ORIENTATIONS; a++) {
                Placement *pl = self->placements
                    + ((size_t)c * ORIENTATIONS + o) * ORIENTATIONS + a;
                for (int i = 0; i < CELLS; i++) {
                    unsigned char code = lying[perms[a * CELLS + i]];
                    pl->own += self->cell_packed[code];
                    if (code == 0)
                        pl->hole[pl->holes++] = (unsigned char)i;
                }
            }
        }
    rc = 0;
done:
    PyMem_Free(cells);
    PyMem_Free(perms);
    return rc;
}

/* The per-code tables: cell features (floats) and totals (ints). */
static int init_cells(Encoder *self, PyObject *features_seq, PyObject *totals_seq)
{
    Py_ssize_t n;
    double *features = ce_doubles_new(features_seq, "cell features", &n);
    if (features == NULL)
        return -1;
    long *totals = NULL;
    int rc = -1;
    if (n % CELL_FEATURES != 0 || n / CELL_FEATURES < 2 || n / CELL_FEATURES > MAX_CODES) {
        PyErr_SetString(PyExc_ValueError, "Encoder: cell features must be 5 per code");
        goto done;
    }
    self->num_codes = (long)(n / CELL_FEATURES);
    totals = ce_longs_exact(totals_seq, n, "cell totals");
    if (totals == NULL)
        goto done;
    for (long c = 0; c < self->num_codes; c++)
        for (int f = 0; f < 5; f++) {
            self->cell_features[c][f] = (float)features[c * CELL_FEATURES + f];
            self->cell_totals[c][f] = totals[c * 5 + f];
            if (totals[c * 5 + f] < 0 || totals[c * 5 + f] > 3) {
                PyErr_SetString(PyExc_ValueError, "Encoder: cell totals must be 0-3");
                goto done;
            }
            self->cell_packed[c] |= (unsigned long)totals[c * 5 + f] << (6 * f);
        }
    rc = 0;
done:
    PyMem_Free(features);
    PyMem_Free(totals);
    return rc;
}

static PyObject *Encoder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {
        "seats", "stack_size", "capn", "six_seat", "group_index", "size", "layout_spans",
        "crate_cells", "perms", "cell_features", "cell_totals", "out_scale", "coin_scale",
        "score_scale", "no_low", "bidding", NULL,
    };
    long seats, stack_size, capn, no_low;
    int six_seat;
    Py_ssize_t size;
    double coin_scale, score_scale;
    PyObject *group_index, *spans, *crate_cells, *perms, *features, *totals, *out_scale;
    PyObject *bidding;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "lllpOnOOOOOOddlO", kwlist, &seats,
                                     &stack_size, &capn, &six_seat, &group_index, &size,
                                     &spans, &crate_cells, &perms, &features, &totals,
                                     &out_scale, &coin_scale, &score_scale, &no_low,
                                     &bidding))
        return NULL;
    if (seats < 2 || seats > MAX_SEATS || stack_size < 1 || stack_size > MAX_STACK
            || capn < -1 || capn >= seats || size < 1) {
        PyErr_SetString(PyExc_ValueError, "Encoder: seats, stack_size, capn or size out of "
                        "range");
        return NULL;
    }
    Encoder *self = (Encoder *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->seats = seats;
    self->stack_size = stack_size;
    self->capn = capn;
    self->six_seat = six_seat;
    self->size = size;
    self->coin_scale = coin_scale;
    self->score_scale = score_scale;
    self->no_low = no_low;

    long *groups = ce_longs_exact(group_index, VOYAGES * seats, "group_index");
    if (groups == NULL)
        goto fail;
    for (int v = 0; v < VOYAGES; v++)
        for (long s = 0; s < seats; s++) {
            long g = groups[v * seats + s];
            if (g < 0 || g > (six_seat ? 1 : 0)) {
                PyErr_SetString(PyExc_ValueError, "Encoder: group_index must be 0 (or 1 "
                                "with six seats)");
                PyMem_Free(groups);
                goto fail;
            }
            self->group_index[v][s] = g;
        }
    PyMem_Free(groups);

    double *constants = ce_doubles_exact(bidding, 4, "bidding");
    if (constants == NULL)
        goto fail;
    self->card_cost = constants[0];
    self->width = constants[1];
    self->rebid_charge = constants[2];
    self->heuristic_tie = constants[3];
    PyMem_Free(constants);
    if (!(self->width > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "Encoder: the bidding width must be > 0");
        goto fail;
    }

    double *scale = ce_doubles_exact(out_scale, OUTCOME_FEATURES, "out_scale");
    if (scale == NULL)
        goto fail;
    for (int f = 0; f < OUTCOME_FEATURES; f++)
        self->out_scale[f] = (float)scale[f];
    PyMem_Free(scale);

    if (init_layout(self, spans) < 0 || init_cells(self, features, totals) < 0
            || init_crates(self, crate_cells, perms) < 0)
        goto fail;
    if ((self->shared = PyMem_Calloc((size_t)size, sizeof(float))) == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int i = 0; i < N_VIEW; i++)
        if ((self->view_names[i] = PyUnicode_InternFromString(VIEW_NAMES[i])) == NULL)
            goto fail;
    for (int i = 0; i < N_TABLE; i++)
        if ((self->table_names[i] = PyUnicode_InternFromString(TABLE_NAMES[i])) == NULL)
            goto fail;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* ---- reading the view -------------------------------------------------------------------- */

enum { DECIDE_NONE, DECIDE_BID, DECIDE_PLACE, DECIDE_OTHER };

/* What the writers share: the view's attributes (owned references), the seat's facts
 * and its table's. */
typedef struct {
    PyObject *view_attr[N_VIEW];
    long player;
    int decision;                       /* DECIDE_*: "" / "bid" / "place" / other text */
    long group;                         /* the player's group this voyage */
    const Table *t;
} View;

static void view_release(View *V)
{
    for (int i = 0; i < N_VIEW; i++)
        Py_XDECREF(V->view_attr[i]);
}

/* ``obj.name`` (new reference); a missing attribute is a TypeError naming it. */
static PyObject *get_attr(PyObject *obj, PyObject *name, const char *what)
{
    PyObject *value = PyObject_GetAttr(obj, name);
    if (value == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: no attribute %U in a %.100s (expected a "
                     "ShipShapeView and its PublicTable)", what, name, Py_TYPE(obj)->tp_name);
    }
    return value;
}

/* An int field within [lo, hi] (a plain int read directly: most of the view's values). */
static int long_in(PyObject *obj, const char *name, long lo, long hi, long *v)
{
    if (PyLong_CheckExact(obj)) {
        int overflow;
        *v = PyLong_AsLongAndOverflow(obj, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_ValueError, "%s: %R is out of range [%ld, %ld]", name, obj,
                         lo, hi);
            return -1;
        }
    }
    else if (ce_long(obj, name, v) < 0)
        return -1;
    if (*v < lo || *v > hi) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is out of range [%ld, %ld]", name, *v, lo, hi);
        return -1;
    }
    return 0;
}

static int long_at_in(PyObject *tuple, Py_ssize_t i, const char *name, long lo, long hi,
                      long *v)
{
    PyObject *item = ce_item(tuple, i, name);
    return item == NULL ? -1 : long_in(item, name, lo, hi, v);
}

/* A tuple of at most ``max`` items (``max`` < 0: any). */
static PyObject *tuple_upto(PyObject *obj, Py_ssize_t max, const char *name)
{
    if (ce_tuple(obj, -1, name) == NULL)
        return NULL;
    if (max >= 0 && PyTuple_GET_SIZE(obj) > max) {
        PyErr_Format(PyExc_ValueError, "%s: at most %zd items, got %zd", name, max,
                     PyTuple_GET_SIZE(obj));
        return NULL;
    }
    return obj;
}

/* The view's attributes, the player and the decision. */
static int read_view(const Encoder *e, PyObject *view, View *V)
{
    for (int i = 0; i < N_VIEW; i++)
        if ((V->view_attr[i] = get_attr(view, e->view_names[i], "view")) == NULL)
            return -1;
    if (long_in(V->view_attr[V_PLAYER], "view.player", 0, e->seats - 1, &V->player) < 0)
        return -1;
    PyObject *decision = V->view_attr[V_DECISION];
    if (!PyUnicode_Check(decision)) {
        PyErr_Format(PyExc_TypeError, "view.decision: expected a str, got %.100s",
                     Py_TYPE(decision)->tp_name);
        return -1;
    }
    if (PyUnicode_GET_LENGTH(decision) == 0)
        V->decision = DECIDE_NONE;
    else if (PyUnicode_CompareWithASCIIString(decision, "bid") == 0)
        V->decision = DECIDE_BID;
    else if (PyUnicode_CompareWithASCIIString(decision, "place") == 0)
        V->decision = DECIDE_PLACE;
    else
        V->decision = DECIDE_OTHER;    /* the Python encoder flags it as a bid */
    return 0;
}

/* A table's fields, the voyage and turn, and every seat's hold and its totals (on
 * failure the caller releases ``T``). */
static int read_table(const Encoder *e, PyObject *table, Table *T)
{
    T->bids[0].ready = T->bids[1].ready = 0;
    for (int i = 0; i < N_TABLE_READ; i++) {
        int t = TABLE_READ[i];
        if ((T->f[t] = get_attr(table, e->table_names[t], "view.table")) == NULL)
            return -1;
    }
    const long S = e->seats;
    if (long_in(T->f[T_VOYAGE], "table.voyage", 0, LONG_MAX, &T->voyage) < 0
            || long_in(T->f[T_TURN], "table.turn", 0, LONG_MAX, &T->turn) < 0)
        return -1;
    T->v = T->voyage < VOYAGES - 1 ? T->voyage : VOYAGES - 1;
    T->done = PyObject_IsTrue(T->f[T_DONE]);
    if (T->done < 0)
        return -1;

    PyObject *visible = ce_tuple(T->f[T_VISIBLE], S, "table.visible");
    if (visible == NULL)
        return -1;
    for (long s = 0; s < S; s++) {
        PyObject *cells = ce_tuple_at(visible, s, CELLS, "table.visible[seat]");
        if (cells == NULL)
            return -1;
        for (int f = 0; f < 5; f++)
            T->tot[s][f] = 0;
        for (int i = 0; i < CELLS; i++) {
            long code;
            if (long_at_in(cells, i, "table.visible[seat][cell]", 0, e->num_codes - 1,
                           &code) < 0)
                return -1;
            T->visible[s][i] = (unsigned char)code;
            for (int f = 0; f < 5; f++)
                T->tot[s][f] += e->cell_totals[code][f];
        }
    }
    return 0;
}

/* A stack entry (crate id, orientation as it lies). */
static int read_crate(const Encoder *e, PyObject *obj, const char *name, long *crate, long *o)
{
    if (ce_tuple(obj, 2, name) == NULL)
        return -1;
    return long_at_in(obj, 0, name, 1, e->num_crates, crate) < 0
        || long_at_in(obj, 1, name, 0, ORIENTATIONS - 1, o) < 0 ? -1 : 0;
}

/* A placing entry (seat, crate id, orientation as it lay in the stack). */
static int read_taken(const Encoder *e, PyObject *obj, const char *name, long *seat,
                      long *crate, long *o)
{
    if (ce_tuple(obj, 3, name) == NULL)
        return -1;
    return long_at_in(obj, 0, name, 0, e->seats - 1, seat) < 0
        || long_at_in(obj, 1, name, 1, e->num_crates, crate) < 0
        || long_at_in(obj, 2, name, 0, ORIENTATIONS - 1, o) < 0 ? -1 : 0;
}

/* Group ``k``'s entry of a per-group field (placing, stacks): a tuple of at most ``max``. */
static PyObject *group_entry(PyObject *field, long k, Py_ssize_t max, const char *name)
{
    PyObject *item = ce_item(field, k, name);
    return item == NULL ? NULL : tuple_upto(item, max, name);
}

/* ---- the blocks -------------------------------------------------------------------------- */

/* A crate's 45 features as it lies: the cell features of each of its 9 cells. */
static void write_tile(const Encoder *e, const unsigned char *codes, float *dst)
{
    for (int i = 0; i < CELLS; i++)
        memcpy(dst + i * CELL_FEATURES, e->cell_features[codes[i]],
               sizeof(float) * CELL_FEATURES);
}

static const unsigned char *lying_codes(const Encoder *e, long crate, long o)
{
    return e->lying + ((size_t)crate * ORIENTATIONS + (size_t)o) * CELLS;
}

/* voyage, turn, decision, rebid: one-hots of min(voyage, 2) and min(turn, 2); the
 * decision [bid, place] (any other non-empty text counts as a bid, as in Python); rebid
 * when bidding at stage 2. */
static int write_voyage_turn_decision_rebid(const Encoder *e, const View *V, float *out)
{
    out[e->at[L_VOYAGE] + V->t->v] = 1.0f;
    out[e->at[L_TURN] + (V->t->turn < 2 ? V->t->turn : 2)] = 1.0f;
    if (V->decision != DECIDE_NONE)
        out[e->at[L_DECISION] + (V->decision == DECIDE_PLACE)] = 1.0f;
    if (V->decision == DECIDE_BID) {
        long stage;
        if (ce_long_at(V->t->f[T_STAGE], V->group, "table.stage", &stage) < 0)
            return -1;
        if (stage == 2)
            out[e->at[L_REBID]] = 1.0f;
    }
    return 0;
}

/* The 10 crew-card flags of a hand (cards 1-10). */
static int write_hand(PyObject *hand, const char *name, float *dst)
{
    if (ce_tuple(hand, -1, name) == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(hand); i++) {
        long card;
        if (long_at_in(hand, i, name, 1, CARDS, &card) < 0)
            return -1;
        dst[card - 1] = 1.0f;
    }
    return 0;
}

/* pending_crate: when placing, the crate the player took, as it lay in the stack. */
static int write_pending_crate(const Encoder *e, const View *V, float *out)
{
    if (V->decision != DECIDE_PLACE)
        return 0;
    PyObject *placing = group_entry(V->t->f[T_PLACING], V->group, -1, "table.placing[group]");
    if (placing == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(placing); i++) {
        long seat, crate, o;
        if (read_taken(e, PyTuple_GET_ITEM(placing, i), "table.placing[group][i]", &seat,
                       &crate, &o) < 0)
            return -1;
        if (seat == V->player)
            write_tile(e, lying_codes(e, crate, o), out + e->at[L_PENDING_CRATE]);
    }
    return 0;
}

/* One group's stack into a stack field and its present flags (top first). */
static int write_one_stack(const Encoder *e, PyObject *stacks, long k, float *crates,
                           float *present)
{
    PyObject *stack = group_entry(stacks, k, e->stack_size, "table.stacks[group]");
    if (stack == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(stack); i++) {
        long crate, o;
        if (read_crate(e, PyTuple_GET_ITEM(stack, i), "table.stacks[group][i]", &crate,
                       &o) < 0)
            return -1;
        write_tile(e, lying_codes(e, crate, o), crates + i * TILE);
        present[i] = 1.0f;
    }
    return 0;
}

/* stack, stack_present (the player's group); six seats: other_stack,
 * other_stack_present (the other group's). All zero when the table has no stacks. */
static int write_stacks(const Encoder *e, const View *V, float *out)
{
    PyObject *stacks = ce_tuple(V->t->f[T_STACKS], -1, "table.stacks");
    if (stacks == NULL)
        return -1;
    if (PyTuple_GET_SIZE(stacks) == 0)
        return 0;
    if (write_one_stack(e, stacks, V->group, out + e->at[L_STACK],
                        out + e->at[L_STACK_PRESENT]) < 0)
        return -1;
    if (e->six_seat)
        return write_one_stack(e, stacks, 1 - V->group, out + e->at[L_OTHER_STACK],
                               out + e->at[L_OTHER_STACK_PRESENT]);
    return 0;
}

/* observation._score: the voyage score of a hold with totals ``tot`` when the others'
 * lowest cannons and highest contraband are ``low`` and ``high``: gold - rats, cannons
 * above the lowest, contraband unless not below the highest, 8 for a full ship. */
static long voyage_score(const long tot[5], long low, long high)
{
    long gold = tot[0], cannons = tot[1], contraband = tot[2], rats = tot[3], goods = tot[4];
    return gold - rats + cannons - (cannons < low ? cannons : low)
        + (contraband < high ? contraband : 0) + (goods >= 9 ? 8 : 0);
}

/* One placement: the hold's totals once the crate ``pl`` lies on the hold whose cells'
 * packed totals are ``hold`` (its own cells, plus the hold's under its holes, as the
 * Python encoder's matrix product adds them), and the voyage score then. */
static long place_totals(const Placement *pl, const unsigned long hold[CELLS], long low,
                         long high, long tot[5])
{
    unsigned long packed = pl->own;
    for (int k = 0; k < pl->holes; k++)
        packed += hold[pl->hole[k]];
    for (int f = 0; f < 5; f++)
        tot[f] = (long)(packed >> (6 * f) & 63);
    return voyage_score(tot, low, high);
}

/* The placements of crate ``crate`` lying in orientation ``o``: 8, one per action
 * orientation. */
static const Placement *placements_of(const Encoder *e, long crate, long o)
{
    return e->placements + ((size_t)crate * ORIENTATIONS + (size_t)o) * ORIENTATIONS;
}

/* The 6 outcome numbers: totals and score over observation._OUT_SCALE (float32
 * quotients, as numpy's float32 division). */
static void write_outcome(const Encoder *e, const long tot[5], long score, float *dst)
{
    for (int f = 0; f < 5; f++)
        dst[f] = (float)tot[f] / e->out_scale[f];
    dst[5] = (float)score / e->out_scale[5];
}

/* score_now, place_outcomes, stack_outcomes: the player's voyage score now; when placing,
 * the outcome of each action orientation of the crate taken; per crate of the group's
 * stack, the outcome of its best orientation (highest score, then most cells showing
 * goods, then the first). The context (the others' lowest cannons and highest
 * contraband) is the current one for every placement, as in Python. */
static int write_score_now_place_stack_outcomes(const Encoder *e, const View *V, float *out)
{
    const long S = e->seats, p = V->player;
    long low = e->no_low, high = 0;
    int first = 1;
    for (long s = 0; s < S; s++) {
        if (s == p)
            continue;
        if (first || V->t->tot[s][1] < low)
            low = V->t->tot[s][1];
        if (first || V->t->tot[s][2] > high)
            high = V->t->tot[s][2];
        first = 0;
    }
    unsigned long hold[CELLS];
    for (int i = 0; i < CELLS; i++)
        hold[i] = e->cell_packed[V->t->visible[p][i]];
    /* double division, then float32 (as Python's score / SCORE_SCALE stored in float32) */
    out[e->at[L_SCORE_NOW]] = (float)((double)voyage_score(V->t->tot[p], low, high)
                                      / e->score_scale);

    long tot[5], score;
    PyObject *placing_all = ce_tuple(V->t->f[T_PLACING], -1, "table.placing");
    if (placing_all == NULL)
        return -1;
    if (PyTuple_GET_SIZE(placing_all) > 0) {
        PyObject *placing = group_entry(placing_all, V->group, -1, "table.placing[group]");
        if (placing == NULL)
            return -1;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(placing); i++) {
            long seat, crate, o;
            if (read_taken(e, PyTuple_GET_ITEM(placing, i), "table.placing[group][i]", &seat,
                           &crate, &o) < 0)
                return -1;
            if (seat != p || V->decision != DECIDE_PLACE)
                continue;
            float *dst = out + e->at[L_PLACE_OUTCOMES];
            const Placement *pl = placements_of(e, crate, o);
            for (int a = 0; a < ORIENTATIONS; a++) {
                score = place_totals(&pl[a], hold, low, high, tot);
                write_outcome(e, tot, score, dst + a * OUTCOME_FEATURES);
            }
        }
    }

    PyObject *stacks = ce_tuple(V->t->f[T_STACKS], -1, "table.stacks");
    if (stacks == NULL)
        return -1;
    if (PyTuple_GET_SIZE(stacks) == 0)
        return 0;
    PyObject *stack = group_entry(stacks, V->group, e->stack_size, "table.stacks[group]");
    if (stack == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(stack); i++) {
        long crate, o, best_tot[5] = {0}, best_score = 0, best_key = 0;
        if (read_crate(e, PyTuple_GET_ITEM(stack, i), "table.stacks[group][i]", &crate,
                       &o) < 0)
            return -1;
        const Placement *pl = placements_of(e, crate, o);
        for (int a = 0; a < ORIENTATIONS; a++) {
            score = place_totals(&pl[a], hold, low, high, tot);
            long key = score * 16 + tot[4];     /* goods <= 9 < 16: score first */
            if (a == 0 || key > best_key) {
                best_key = key;
                best_score = score;
                memcpy(best_tot, tot, sizeof(tot));
            }
        }
        write_outcome(e, best_tot, best_score,
                      out + e->at[L_STACK_OUTCOMES] + i * OUTCOME_FEATURES);
    }
    return 0;
}

/* The hold numbers of the current voyage (table.hold_history[-1], one per seat). */
static PyObject *current_holds(const Encoder *e, const View *V)
{
    PyObject *history = ce_tuple(V->t->f[T_HOLD_HISTORY], -1, "table.hold_history");
    if (history == NULL)
        return NULL;
    if (PyTuple_GET_SIZE(history) == 0) {
        PyErr_SetString(PyExc_ValueError, "table.hold_history: empty");
        return NULL;
    }
    return ce_tuple_at(history, PyTuple_GET_SIZE(history) - 1, e->seats,
                       "table.hold_history[-1]");
}

/* ---- the bid outlook (bidding.py, operation for operation: the same doubles) ------------ */

/* bidding.hold_value of a hold with totals ``tot``. */
static double hold_value(const long tot[5], long rivals, long crates_after)
{
    double contraband = (double)tot[2];
    if (tot[2] >= rivals)
        contraband *= 0.25;
    double fill = tot[4] >= 9 ? 8.0 : (crates_after < 3 ? 0.5 * (double)tot[4] : 0.0);
    return (double)(tot[0] + tot[1] - tot[3]) + contraband + fill;
}

/* bidding.card_cost */
static double card_cost(const Encoder *e, long hand_size)
{
    return e->card_cost * (hand_size <= 3 ? 0.3 : 1.0);
}

/* bidding._times: ``poly`` (``*n`` coefficients) times low + high x, in place. */
static void poly_times(double *poly, int *n, double low, double high)
{
    double out[MAX_BIDDERS + 2] = {0};
    for (int h = 0; h < *n; h++) {
        out[h] += poly[h] * low;
        out[h + 1] += poly[h] * high;
    }
    (*n)++;
    memcpy(poly, out, sizeof(double) * (size_t)*n);
}

static double slot_value(const double *values, long m, long h)
{
    return values[h < m - 1 ? h : m - 1];
}


/* bidding.heuristic_scores and bidding.modelled_bid: bidder ``j``'s chances, the others
 * (the bidders after ``j`` round the table) picking uniformly. */
static void modelled_bid(const Encoder *e, Bidder *b, long count, long j)
{
    Bidder *me = &b[j];
    const long m = count;
    double mean = 0.0;
    for (long i = 0; i < m; i++)
        mean += me->values[i];
    const double tie = e->heuristic_tie * mean / (double)m;
    double scores[CARDS], top = 0.0;
    for (int c = 0; c < me->n; c++) {
        const long card = me->cards[c];
        double clear = 1.0, poly[MAX_BIDDERS + 2] = {1.0};
        int terms = 1;
        for (long k = 1; k < count; k++) {     /* the others from its own side */
            const long o = (j + k) % count;
            long below = 0, equal = 0;
            for (int i = 0; i < b[o].n; i++) {
                below += b[o].cards[i] < card;
                equal += b[o].cards[i] == card;
            }
            const double n = (double)b[o].n;
            const double lo = (double)below / n, hi = (double)(b[o].n - below - equal) / n;
            poly_times(poly, &terms, lo, hi);
            clear *= lo + hi;
        }
        double expected = (1.0 - clear) * tie;
        for (int h = 0; h < terms; h++)
            expected += poly[h] * slot_value(me->values, m, h);
        scores[c] = expected - card_cost(e, me->n) * (double)(card - 1);
        if (c == 0 || scores[c] > top)
            top = scores[c];
    }
    double total = 0.0;
    for (int c = 0; c < me->n; c++) {
        const double w = 1.0 - (top - scores[c]) / e->width;
        me->probs[c] = w > 0.0 ? w : 0.0;
        total += me->probs[c];
    }
    for (int c = 0; c < me->n; c++)
        me->probs[c] = me->probs[c] / total;
}

/* bidding.expected_crate for every card of bidder 0's hand at once (``out[c]`` for its
 * c-th card): every combination of the others' cards of nonzero chance, the last bidder's
 * card changing fastest (itertools.product). Each card's sum takes the same terms in the
 * same order as Python's loop over the combinations for that card; what does not depend
 * on the card (the chance, which other seats tie among themselves) is found once per
 * combination. The rank is bidding.crate_rank's. */
static void expected_crates(const Encoder *e, const Bidder *b, long count, int rebid,
                            double *out)
{
    const long m = count;
    long support[MAX_BIDDERS][CARDS], sizes[MAX_BIDDERS] = {0}, at[MAX_BIDDERS] = {0};
    double chances[MAX_BIDDERS][CARDS];
    for (long j = 1; j < count; j++)
        for (int c = 0; c < b[j].n; c++)
            if (b[j].probs[c] > 0.0) {
                support[j][sizes[j]] = b[j].cards[c];
                chances[j][sizes[j]++] = b[j].probs[c];
            }
    /* the mean of the crates from rank r on, less the re-bid charge (a tie at a first bid) */
    double rebid_value[MAX_BIDDERS];
    for (long start = 0; start < m; start++) {
        double left = 0.0;
        for (long i = start; i < m; i++)
            left += b[0].values[i];
        rebid_value[start] = left / (double)(m - start) - e->rebid_charge;
    }
    for (int c = 0; c < b[0].n; c++)
        out[c] = 0.0;
    long bids[MAX_BIDDERS];
    int paired[MAX_BIDDERS];         /* another other seat bid the same card */
    for (;;) {
        double chance = 1.0;
        for (long j = 1; j < count; j++) {
            bids[j] = support[j][at[j]];
            chance *= chances[j][at[j]];
        }
        for (long j = 1; j < count; j++) {
            paired[j] = 0;
            for (long i = 1; i < count; i++)
                if (i != j && bids[i] == bids[j])
                    paired[j] = 1;
        }
        for (int c = 0; c < b[0].n; c++) {
            const long card = b[0].cards[c];
            long untied_above = 0, untied = 0, tied_before = 0;
            int tied = 0;
            for (long j = 1; j < count; j++) {
                const int equal = bids[j] == card;
                tied |= equal;
                if (!paired[j] && !equal) {
                    untied++;
                    untied_above += bids[j] > card;
                } else if (b[j].hold > b[0].hold)
                    tied_before++;
            }
            double worth;
            if (!tied)
                worth = slot_value(b[0].values, m, untied_above);
            else if (rebid)
                worth = slot_value(b[0].values, m, untied + tied_before);
            else        /* a re-bid for the crates the untied seats leave */
                worth = rebid_value[untied < m - 1 ? untied : m - 1];
            out[c] += chance * worth;
        }
        long j = count - 1;         /* the next combination */
        while (j >= 1 && ++at[j] == sizes[j])
            at[j--] = 0;
        if (j < 1)
            break;
    }
}

/* The bidders of group ``k`` of table ``T``, their crate gains and models: computed at the
 * first bidder's observation of a table and kept on it (every bidder's are the same). */
static GroupBids *group_bids(const Encoder *e, const View *V)
{
    Table *T = (Table *)V->t;       /* only its cache is written */
    GroupBids *g = &T->bids[V->group];
    if (g->ready)
        return g;
    const long S = e->seats;
    PyObject *need = group_entry(T->f[T_NEED], V->group, S, "table.need[group]");
    PyObject *stacks = ce_tuple(T->f[T_STACKS], -1, "table.stacks");
    PyObject *hands = ce_tuple(T->f[T_HANDS], S, "table.hands");
    PyObject *placed = ce_tuple(T->f[T_PLACED], S, "table.placed");
    long stage;
    if (need == NULL || stacks == NULL || hands == NULL || placed == NULL
            || ce_long_at(T->f[T_STAGE], V->group, "table.stage", &stage) < 0)
        return NULL;
    PyObject *holds = current_holds(e, V);
    PyObject *stack = group_entry(stacks, V->group, e->stack_size, "table.stacks[group]");
    if (holds == NULL || stack == NULL)
        return NULL;
    int bidding[MAX_SEATS] = {0};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(need); i++) {
        long s;
        if (long_at_in(need, i, "table.need[group][i]", 0, S - 1, &s) < 0)
            return NULL;
        if (bidding[s]) {
            PyErr_SetString(PyExc_ValueError, "table.need[group]: a seat listed twice");
            return NULL;
        }
        bidding[s] = 1;
    }
    const long count = PyTuple_GET_SIZE(need);
    if (PyTuple_GET_SIZE(stack) < count) {
        PyErr_SetString(PyExc_ValueError, "table: fewer crates than bidders");
        return NULL;
    }
    /* the next ``count`` crates: their placements */
    const Placement *crates[MAX_BIDDERS];
    for (long i = 0; i < count; i++) {
        long crate, o;
        if (read_crate(e, PyTuple_GET_ITEM(stack, i), "table.stacks[group][i]", &crate,
                       &o) < 0)
            return NULL;
        crates[i] = placements_of(e, crate, o);
    }
    memset(g, 0, sizeof(*g));
    Bidder *b = g->bidder;
    long n = 0;
    for (long s = 0; s < S; s++) {
        if (!bidding[s])
            continue;
        g->seat[n] = s;
        Bidder *x = &b[n++];
        PyObject *hand = ce_tuple_at(hands, s, -1, "table.hands[seat]");
        PyObject *crates_placed = ce_tuple_at(placed, s, -1, "table.placed[seat]");
        if (hand == NULL || crates_placed == NULL
                || ce_long_at(holds, s, "table.hold_history[-1][seat]", &x->hold) < 0)
            return NULL;
        int has[CARDS + 1] = {0};
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(hand); i++) {
            long card;
            if (long_at_in(hand, i, "table.hands[seat]", 1, CARDS, &card) < 0)
                return NULL;
            has[card] = 1;
        }
        for (long card = 1; card <= CARDS; card++)     /* sorted; none: all ten */
            if (has[card] || PyTuple_GET_SIZE(hand) == 0)
                x->cards[x->n++] = card;
        x->capn = s == e->capn;
        /* its crate gains: the best of the 8 placements, less its hold's value now */
        long rivals = 0;
        int first = 1;
        for (long t = 0; t < S; t++)
            if (t != s && (first || T->tot[t][2] > rivals)) {
                rivals = T->tot[t][2];
                first = 0;
            }
        const long count_placed = PyTuple_GET_SIZE(crates_placed);
        const double now = hold_value(T->tot[s], rivals, count_placed);
        unsigned long hold[CELLS];
        for (int i = 0; i < CELLS; i++)
            hold[i] = e->cell_packed[T->visible[s][i]];
        for (long i = 0; i < count; i++) {
            double best = 0.0;
            for (int a = 0; a < ORIENTATIONS; a++) {
                long tot[5];
                place_totals(&crates[i][a], hold, 0, 0, tot);
                const double v = hold_value(tot, rivals, count_placed + 1);
                if (a == 0 || v > best)
                    best = v;
            }
            x->values[i] = best - now;
        }
    }
    for (long j = 0; j < count; j++) {
        if (b[j].capn)
            for (int c = 0; c < b[j].n; c++)
                b[j].probs[c] = 1.0 / (double)b[j].n;
        else
            modelled_bid(e, b, count, j);
    }
    g->count = count;
    g->rebid = stage == 2;
    g->ready = 1;
    return g;
}

/* bid_outlook: while bidding, per crew card in hand, the expected crate gain
 * (observation._bid_outlooks: the bidders from the player round the table). */
static int write_bid_outlook(const Encoder *e, const View *V, float *out)
{
    if (V->decision != DECIDE_BID)
        return 0;
    const GroupBids *g = group_bids(e, V);
    if (g == NULL)
        return -1;
    long me = -1;
    for (long i = 0; i < g->count; i++)
        if (g->seat[i] == V->player)
            me = i;
    if (me < 0) {
        PyErr_SetString(PyExc_ValueError, "table: a bidder outside table.need");
        return -1;
    }
    Bidder b[MAX_BIDDERS];
    for (long k = 0; k < g->count; k++)
        b[k] = g->bidder[(me + k) % g->count];
    double expected[CARDS];
    expected_crates(e, b, g->count, g->rebid, expected);
    float *dst = out + e->at[L_BID_OUTLOOK];
    for (int c = 0; c < b[0].n; c++)
        dst[b[0].cards[c] - 1] = (float)(expected[c] / e->score_scale);
    return 0;
}

/* Per absolute seat: the status flags (still to get a crate, placing now, tied) and this
 * turn's revealed bids (stage 1, stage 2) / 10, as observation._derive sets them. */
static int seat_status_and_bids(const Encoder *e, const View *V, float status[][3],
                                float bids[][2])
{
    const long S = e->seats;
    if (!V->t->done) {
        PyObject *need = ce_tuple(V->t->f[T_NEED], -1, "table.need");
        PyObject *placing = ce_tuple(V->t->f[T_PLACING], -1, "table.placing");
        if (need == NULL || placing == NULL)
            return -1;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(need); k++) {
            PyObject *grp = group_entry(need, (long)k, -1, "table.need[group]");
            if (grp == NULL)
                return -1;
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(grp); i++) {
                long s, stage;
                if (long_at_in(grp, i, "table.need[group][i]", 0, S - 1, &s) < 0
                        || ce_long_at(V->t->f[T_STAGE], k, "table.stage", &stage) < 0)
                    return -1;
                status[s][0] = 1.0f;
                if (stage == 2)
                    status[s][2] = 1.0f;
            }
        }
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(placing); k++) {
            PyObject *grp = group_entry(placing, (long)k, -1, "table.placing[group]");
            if (grp == NULL)
                return -1;
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(grp); i++) {
                PyObject *taken = ce_tuple_at(grp, i, -1, "table.placing[group][i]");
                long s;
                if (taken == NULL || long_at_in(taken, 0, "table.placing[group][i]", 0,
                                                S - 1, &s) < 0)
                    return -1;
                status[s][1] = 1.0f;
            }
        }
    }
    /* the bids of this voyage and turn, newest first (the older ones are written last) */
    PyObject *all = ce_tuple(V->t->f[T_BIDS], -1, "table.bids");
    if (all == NULL)
        return -1;
    for (Py_ssize_t i = PyTuple_GET_SIZE(all) - 1; i >= 0; i--) {
        long bid[5];        /* voyage, turn, stage, seat, card */
        if (ce_longs(PyTuple_GET_ITEM(all, i), 5, "table.bids[i]", bid) < 0)
            return -1;
        if (bid[0] != V->t->voyage || bid[1] != V->t->turn)
            break;
        const long stage = bid[2], seat = bid[3], card = bid[4];
        if (stage < 1 || stage > 2 || seat < 0 || seat >= S) {
            PyErr_Format(PyExc_ValueError, "table.bids[i]: stage %ld or seat %ld out of "
                         "range", stage, seat);
            return -1;
        }
        bids[seat][stage - 1] = (float)((double)card / 10.0);
    }
    return 0;
}

/* The seat_* fields: per seat slot (0 = the player, then round the table, seat
 * (player + j) % seats), field after field. */
static int write_seats(const Encoder *e, const View *V, float *out)
{
    const long S = e->seats, p = V->player;
    float status[MAX_SEATS][3] = {{0}}, bids[MAX_SEATS][2] = {{0}};
    if (seat_status_and_bids(e, V, status, bids) < 0)
        return -1;
    PyObject *hands = ce_tuple(V->t->f[T_HANDS], S, "table.hands");
    PyObject *coins = ce_tuple(V->t->f[T_COINS], S, "table.coins");
    PyObject *placed = ce_tuple(V->t->f[T_PLACED], S, "table.placed");
    PyObject *holds = current_holds(e, V);
    if (hands == NULL || coins == NULL || placed == NULL || holds == NULL)
        return -1;
    const long *my_groups = e->group_index[V->t->v];
    for (long j = 0; j < S; j++) {
        const long s = (p + j) % S;
        long coin, hold;
        PyObject *crates = ce_tuple_at(placed, s, -1, "table.placed[seat]");
        if (crates == NULL || ce_long_at(coins, s, "table.coins[seat]", &coin) < 0
                || ce_long_at(holds, s, "table.hold_history[-1][seat]", &hold) < 0
                || write_hand(PyTuple_GET_ITEM(hands, s), "table.hands[seat]",
                              out + e->at[L_SEAT_HAND] + j * CARDS) < 0)
            return -1;
        out[e->at[L_SEAT_IS_CAPN] + j] = s == e->capn ? 1.0f : 0.0f;
        /* one group: every seat bids with the player; six seats: those of its group */
        out[e->at[L_SEAT_IN_MY_GROUP] + j] =
            !e->six_seat || my_groups[s] == my_groups[p] ? 1.0f : 0.0f;
        out[e->at[L_SEAT_COINS] + j] = (float)((double)coin / e->coin_scale);
        out[e->at[L_SEAT_HOLD] + j] = (float)((double)hold / 18.0);
        write_tile(e, V->t->visible[s], out + e->at[L_SEAT_VISIBLE] + j * TILE);
        float *tot = out + e->at[L_SEAT_TOTALS] + j * 5;
        tot[0] = (float)((double)V->t->tot[s][0] / 27.0);
        tot[1] = (float)((double)V->t->tot[s][1] / 27.0);
        tot[2] = (float)((double)V->t->tot[s][2] / 27.0);
        tot[3] = (float)((double)V->t->tot[s][3] / 9.0);
        tot[4] = (float)((double)V->t->tot[s][4] / 9.0);
        out[e->at[L_SEAT_CRATES] + j] = (float)((double)PyTuple_GET_SIZE(crates) / 3.0);
        memcpy(out + e->at[L_SEAT_STATUS] + j * 3, status[s], sizeof(status[s]));
        memcpy(out + e->at[L_SEAT_BIDS] + j * 2, bids[s], sizeof(bids[s]));
    }
    return 0;
}

/* ---- the blocks every seat shares ------------------------------------------------------- */

/* The seat fields that read only the table: S slots of ``width`` values each. */
static const struct { int field; long width; } SHARED_SEAT_FIELDS[] = {
    {L_SEAT_IS_CAPN, 1}, {L_SEAT_COINS, 1}, {L_SEAT_HOLD, 1}, {L_SEAT_HAND, CARDS},
    {L_SEAT_VISIBLE, TILE}, {L_SEAT_TOTALS, 5}, {L_SEAT_CRATES, 1}, {L_SEAT_STATUS, 3},
    {L_SEAT_BIDS, 2},
};
#define N_SHARED_SEAT_FIELDS \
    ((int)(sizeof(SHARED_SEAT_FIELDS) / sizeof(SHARED_SEAT_FIELDS[0])))

/* Seat 0's observation of table ``T`` with only the blocks that read nothing but the table
 * (and the constants): stack, stack_present, other_stack, other_stack_present and the seat
 * fields, the rest zero. Every seat's values of these blocks are seat 0's rearranged (see
 * copy_shared), so they are written once per table. */
static int write_shared(const Encoder *e, const Table *T, float *shared)
{
    View ref;
    memset(&ref, 0, sizeof(ref));
    ref.player = 0;
    ref.decision = DECIDE_NONE;
    ref.group = e->group_index[T->v][0];
    ref.t = T;
    memset(shared, 0, sizeof(float) * (size_t)e->size);
    return write_stacks(e, &ref, shared) < 0 || write_seats(e, &ref, shared) < 0 ? -1 : 0;
}

/* The shared blocks of the player's observation, from seat 0's (``shared``): write_seats
 * puts seat (p + j) % S in slot j, so the player's slots are seat 0's rotated by p; its
 * my_hand is its own seat_hand slot of seat 0's (write_hand of the same hand); with six
 * seats its stack is seat 0's other_stack when their groups differ, and the reverse;
 * seat_in_my_group depends on the player and is written here as write_seats does. */
static void copy_shared(const Encoder *e, const View *V, const float *shared, float *out)
{
    const long S = e->seats, p = V->player, L = e->stack_size;
    memcpy(out + e->at[L_MY_HAND], shared + e->at[L_SEAT_HAND] + p * CARDS,
           sizeof(float) * CARDS);
    const long *my_groups = e->group_index[V->t->v];
    const int swap = e->six_seat && my_groups[p] != my_groups[0];
    memcpy(out + e->at[L_STACK], shared + e->at[swap ? L_OTHER_STACK : L_STACK],
           sizeof(float) * (size_t)(L * TILE));
    memcpy(out + e->at[L_STACK_PRESENT],
           shared + e->at[swap ? L_OTHER_STACK_PRESENT : L_STACK_PRESENT],
           sizeof(float) * (size_t)L);
    if (e->six_seat) {
        memcpy(out + e->at[L_OTHER_STACK], shared + e->at[swap ? L_STACK : L_OTHER_STACK],
               sizeof(float) * (size_t)(L * TILE));
        memcpy(out + e->at[L_OTHER_STACK_PRESENT],
               shared + e->at[swap ? L_STACK_PRESENT : L_OTHER_STACK_PRESENT],
               sizeof(float) * (size_t)L);
    }
    for (int k = 0; k < N_SHARED_SEAT_FIELDS; k++) {
        const long w = SHARED_SEAT_FIELDS[k].width;
        const float *src = shared + e->at[SHARED_SEAT_FIELDS[k].field];
        float *dst = out + e->at[SHARED_SEAT_FIELDS[k].field];
        memcpy(dst, src + p * w, sizeof(float) * (size_t)((S - p) * w));
        memcpy(dst + (S - p) * w, src, sizeof(float) * (size_t)(p * w));
    }
    for (long j = 0; j < S; j++)
        out[e->at[L_SEAT_IN_MY_GROUP] + j] =
            !e->six_seat || my_groups[(p + j) % S] == my_groups[p] ? 1.0f : 0.0f;
}

/* The whole observation of the player (``out`` zeroed): the shared blocks copied from
 * ``shared`` (write_shared of the view's table), then the player's own blocks. */
static int write_observation(const Encoder *e, View *V, const float *shared, float *out)
{
    V->group = e->group_index[V->t->v][V->player];
    copy_shared(e, V, shared, out);
    return write_voyage_turn_decision_rebid(e, V, out) < 0
        || write_pending_crate(e, V, out) < 0
        || write_score_now_place_stack_outcomes(e, V, out) < 0
        || write_bid_outlook(e, V, out) < 0 ? -1 : 0;
}

/* Read ``table`` as the last table: its facts and shared blocks (on failure, no table). */
static int load_table(Encoder *e, PyObject *table)
{
    forget_table(e);
    if (read_table(e, table, &e->last) < 0 || write_shared(e, &e->last, e->shared) < 0) {
        table_release(&e->last);
        return -1;
    }
    Py_INCREF(table);
    e->last_table = table;
    return 0;
}

/* The observation without the last table: for a call made while another is using it
 * (from Python code that one ran, e.g. an item's __index__). */
static int write_observation_alone(const Encoder *e, View *V, PyObject *table, float *out)
{
    Table T;
    memset(&T, 0, sizeof(T));
    float *shared = PyMem_Malloc(sizeof(float) * (size_t)e->size);
    if (shared == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    V->t = &T;
    int rc = read_table(e, table, &T) < 0 || write_shared(e, &T, shared) < 0
        || write_observation(e, V, shared, out) < 0 ? -1 : 0;
    table_release(&T);
    PyMem_Free(shared);
    return rc;
}

/* ---- encode_into ------------------------------------------------------------------------- */

/* Several seats decide from one position (bids are simultaneous) and their views share one
 * PublicTable object, so the table's facts and shared blocks are kept for the last table
 * (a strong reference): handed the same object again, they are reused as they are. The
 * table is a frozen dataclass whose fields the engine fills with ints and tuples (the
 * checks above accept tuples only, all the way down), so it cannot have changed; the
 * Python encoder keeps its derived arrays on the table object (``table.derived``) on the
 * same grounds. (A field rebound through object.__setattr__, or an int-like item whose
 * value changes, would fool both; the engine builds neither.) */
static PyObject *Encoder_encode_into(Encoder *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode_into(view, out) takes 2 arguments, got %zd",
                     nargs);
        return NULL;
    }
    Py_buffer buf;
    if (ce_out(args[1], self->size, &buf) < 0)
        return NULL;
    float *out = (float *)buf.buf;
    View V;
    memset(&V, 0, sizeof(V));
    int rc = read_view(self, args[0], &V);
    if (rc == 0) {
        PyObject *table = V.view_attr[V_TABLE];
        if (self->busy)
            rc = write_observation_alone(self, &V, table, out);
        else {
            self->busy = 1;
            rc = table == self->last_table ? 0 : load_table(self, table);
            if (rc == 0) {
                V.t = &self->last;
                rc = write_observation(self, &V, self->shared, out);
            }
            self->busy = 0;
        }
    }
    view_release(&V);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef Encoder_methods[] = {
    {"encode_into", (PyCFunction)(void (*)(void))Encoder_encode_into, METH_FASTCALL,
     "encode_into(view, out): write the observation of a ShipShapeView into out (a "
     "writable C-contiguous float32 vector of the layout's size); returns None."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.shipshape._cencode.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Encoder(seats, stack_size, capn, six_seat, group_index, size, layout_spans, "
              "crate_cells, perms, cell_features, cell_totals, out_scale, coin_scale, "
              "score_scale, no_low): ShipShape's compiled observation encoder "
              "(observation.compiled_params computes the arguments).",
    .tp_methods = Encoder_methods,
    .tp_new = Encoder_new,
};

/* ---- module ------------------------------------------------------------------------------ */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cencode",
    "ShipShape's compiled observation encoder (see envs/shipshape/_cencode.c).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cencode(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_NAMES, N_VIEW},
        {"TABLE_FIELDS", TABLE_NAMES, N_TABLE},
        {"LAYOUT_FIELDS", LAYOUT_NAMES, N_LAYOUT},
    };
    return ce_module(&module, &EncoderType, names, 3);
}
