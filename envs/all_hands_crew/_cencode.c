/* All Hands on Deck (all_hands_crew): the compiled twin of observation.py's encoder.
 *
 * ``Encoder(*params).encode_into(view, out)`` writes the observation of a CrewView into
 * ``out`` (a float32 vector of the layout's size), the same floats, bit for bit, as the
 * Python encoder (observation.py), which stays the reference and the fallback. The
 * Python side (observation.compiled_params) computes every constant from the game: the
 * layout's field starts (in LAYOUT_FIELDS order; the constructor checks each field's
 * width, so every write below stays inside its block), the phase and pending-action
 * names, the ACC5 table, the card copies, the combinations and the partition solver's
 * tables. Each call writes the whole vector; the one thing kept between calls is the
 * partition solver's memo of my_crew_value (a cache owned by the Encoder, see solve).
 *
 * Exactness: the Python encoder divides ints (``x / 6``: one correctly rounded double
 * division, the same as ``(double)x / 6.0`` here), accumulates laid_cards in doubles in
 * combination order, takes pile_known and stock_* values from ACC5 (0.2 summed c times),
 * and stores each double as float32 ((float) here, as memoryview/array do).
 *
 * The view is read by position (VIEW_FIELDS equals CrewView._fields, checked by the
 * tests); every item is checked, a wrong type or length raises TypeError and a value out
 * of range (a seat, a kind, a combination, a card position) raises ValueError, both
 * naming the field.
 */
#include "cencode.h"
#include <stdint.h>

#define MAXK 12            /* most card kinds (the solver packs 5 bits per kind in 64) */
#define MAXN 16            /* most players */
#define MAX_PER_KIND 15    /* most cards of one kind in a crew (the solver's 5-bit digits) */

/* ---- the view's fields, in CrewView order ------------------------------------------ */
enum {
    V_PLAYER, V_NUM_PLAYERS, V_OPEN_STOCK, V_PHASE, V_ACTING, V_ACTOR, V_ROUND, V_START,
    V_HIRE_STEP, V_PENDING, V_PILE_MASKS, V_PILE_SEEN, V_STOCK, V_MY_HIRED, V_MY_HIRE_DONE,
    V_MY_CREW, V_CREW_SIZES, V_CREW_KNOWN, V_CREW_MAYBE_GONE, V_KNOWN_ABOUT_ME,
    V_MAYBE_GONE_ABOUT_ME, V_LAID, V_FINAL, V_FINAL_LEFT, V_CURSES, V_DRAW_TARGET,
    V_SPY_LEFT, V_KEEP, V_NEXT_DOUBLE, V_NEXT_SPY, V_NEXT_SHORT, V_EVENTS, NUM_VIEW_FIELDS
};
static const char *const VIEW_NAMES[NUM_VIEW_FIELDS] = {
    "player", "num_players", "open_stock", "phase", "acting", "actor", "round", "start",
    "hire_step", "pending", "pile_masks", "pile_seen", "stock", "my_hired", "my_hire_done",
    "my_crew", "crew_sizes", "crew_known", "crew_maybe_gone", "known_about_me",
    "maybe_gone_about_me", "laid", "final", "final_left", "curses", "draw_target",
    "spy_left", "keep", "next_double", "next_spy", "next_short", "events",
};

/* ---- the layout's fields, in layout order (observation.build_layout) ----------------- */
enum {
    F_PHASE, F_PENDING_ACTION, F_ACTING, F_START_PLAYER, F_ROUND, F_HIRE_STEP,
    F_CARDS_IN_PILES, F_PILE_SIZE, F_PILE_TOP, F_PILE_KNOWN, F_PILE_KNOWN_BY_OTHERS,
    F_MY_STOCK, F_STOCK_SIZE, F_STOCK_SOURCES, F_STOCK_SEEN, F_DRAW_TARGET,
    F_SPYGLASS_LEFT, F_HIRE_KEEP, F_NEXT_DOUBLE_HIRE, F_NEXT_SPYGLASS,
    F_NEXT_SHORT_RATIONS, F_MY_CREW, F_MY_CREW_VALUE, F_CREW_SIZE, F_CREW_KNOWN,
    F_CREW_MAYBE_GONE, F_KNOWN_ABOUT_ME, F_ABOUT_ME_MAYBE_GONE, F_LAID_CARDS,
    F_LAID_POINTS, F_CURSES, F_CAPTAINS, F_SCORE, F_UNSEEN, NUM_LAYOUT_FIELDS
};
static const char *const LAYOUT_NAMES[NUM_LAYOUT_FIELDS] = {
    "phase", "pending_action", "acting", "start_player", "round", "hire_step",
    "cards_in_piles", "pile_size", "pile_top", "pile_known", "pile_known_by_others",
    "my_stock", "stock_size", "stock_sources", "stock_seen", "draw_target",
    "spyglass_left", "hire_keep", "next_double_hire", "next_spyglass",
    "next_short_rations", "my_crew", "my_crew_value", "crew_size", "crew_known",
    "crew_maybe_gone", "known_about_me", "about_me_maybe_gone", "laid_cards",
    "laid_points", "curses", "captains", "score", "unseen",
};

/* The partition solver's memo: packed counts -> best score (0 marks a free slot). */
typedef struct {
    uint64_t *keys;
    long *vals;
    size_t cap, used;
} Memo;

/* ---- the encoder's constants --------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    int n;                        /* players */
    int K;                        /* card kinds */
    int num_crew;                 /* kinds 0..num_crew-1 are crew, the rest captains */
    int top_depth;                /* pile positions encoded one by one (pile_top) */
    int max_stock;                /* my_stock slots */
    Py_ssize_t size;              /* the layout's size */
    Py_ssize_t at[NUM_LAYOUT_FIELDS];   /* each field's start */
    PyObject *phases;             /* phase names, by one-hot index (tuple of str) */
    PyObject *pendings;           /* pending action names, by one-hot index */
    Py_ssize_t over;              /* index of "over" in phases (no crew value then) */
    double *acc5;                 /* ACC5[c]: 0.2 summed c times */
    Py_ssize_t n_acc5;
    long copies[MAXK];            /* cards of each kind in the game */
    Py_ssize_t num_combos;
    long *combo_counts;           /* num_combos x K cards per kind */
    long *combo_points;
    long *combo_captains;
    uint64_t *combo_packed;       /* combo counts packed 5 bits a kind (the solver's keys) */
    long single[MAXK];            /* score of one leftover card of each kind */
    long curse;                   /* score of one curse card */
    int order[MAXK];              /* the solver's kind order (captains first) */
    long *group_values;           /* K x group_len: best points of r same-kind cards */
    Py_ssize_t group_len;
    long *cand_combos;            /* the solver's candidates of kind k: */
    long cand_start[MAXK + 1];    /* cand_combos[cand_start[k] .. cand_start[k+1]) */
    uint64_t guard;               /* bit 4 of each kind's 5-bit digit */
    Memo memo;                    /* the solver's values (see solve) */
} Encoder;

/* Counts per kind the unseen block subtracts from the copies, gathered by the blocks. */
typedef struct {
    int me;
    long seen_piles[MAXK];        /* cards I know in the Drawing Piles */
    long seen_stock[MAXK];        /* stock cards I can see */
    long my_crew[MAXK];           /* my Crew Pile */
    long known_crews[MAXK];       /* cards surely in others' Crew Piles */
    long seen_laid[MAXK];         /* cards laid out (and left over at the end) */
} Tally;

static int value_error(const char *name, const char *what, long value)
{
    PyErr_Format(PyExc_ValueError, "%s: %s (got %ld)", name, what, value);
    return -1;
}

/* An int item of a tuple within [lo, hi). */
static int long_in(PyObject *tuple, Py_ssize_t i, long lo, long hi, const char *name,
                   long *v)
{
    if (ce_long_at(tuple, i, name, v) < 0)
        return -1;
    if (*v < lo || *v >= hi) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is out of range [%ld, %ld)", name, *v, lo,
                     hi);
        return -1;
    }
    return 0;
}

/* A per-seat field of the view: a tuple of exactly n items. */
static PyObject *seats(const Encoder *e, PyObject *v, int field)
{
    return ce_tuple_at(v, field, e->n, VIEW_NAMES[field]);
}

/* Index of ``obj`` in the tuple of str ``names``, or -1 with ValueError. */
static Py_ssize_t name_index(PyObject *names, PyObject *obj, const char *field)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a str, got %.100s", field,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (name == obj)
            return i;
        int eq = PyUnicode_Compare(name, obj);
        if (eq == -1 && PyErr_Occurred())
            return -1;
        if (eq == 0)
            return i;
    }
    PyErr_Format(PyExc_ValueError, "%s: unknown value %R", field, obj);
    return -1;
}

/* ---- phase .. hire_step -------------------------------------------------------------- */
static int enc_header(const Encoder *e, PyObject *v, int me, float *o, Py_ssize_t *phase)
{
    const int n = e->n;
    PyObject *item = ce_item(v, V_PHASE, "phase");
    if (item == NULL || (*phase = name_index(e->phases, item, "phase")) < 0)
        return -1;
    o[e->at[F_PHASE] + *phase] = 1.0f;

    /* the pending action only when there is one ("" otherwise) */
    item = ce_item(v, V_PENDING, "pending");
    if (item == NULL)
        return -1;
    int truth = PyObject_IsTrue(item);
    if (truth < 0)
        return -1;
    if (truth) {
        Py_ssize_t p = name_index(e->pendings, item, "pending");
        if (p < 0)
            return -1;
        o[e->at[F_PENDING_ACTION] + p] = 1.0f;
    }

    PyObject *acting = ce_tuple_at(v, V_ACTING, -1, "acting");
    if (acting == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(acting); i++) {
        long p;
        if (long_in(acting, i, 0, n, "acting", &p) < 0)
            return -1;
        o[e->at[F_ACTING] + (p - me + n) % n] = 1.0f;
    }
    long start, round, step;
    if (long_in(v, V_START, 0, n, "start", &start) < 0
            || ce_long_at(v, V_ROUND, "round", &round) < 0
            || ce_long_at(v, V_HIRE_STEP, "hire_step", &step) < 0)
        return -1;
    o[e->at[F_START_PLAYER] + (start - me + n) % n] = 1.0f;
    o[e->at[F_ROUND]] = (float)((double)round / 30.0);
    o[e->at[F_HIRE_STEP]] = (float)((double)step / 8.0);
    return 0;
}

/* ---- cards_in_piles .. pile_known_by_others ------------------------------------------ */
static int enc_piles(const Encoder *e, PyObject *v, Tally *t, float *o)
{
    const int n = e->n, K = e->K, me = t->me, TD = e->top_depth;
    const Py_ssize_t w_top = (Py_ssize_t)TD * (K + 1);
    const long bit = 1L << me;
    PyObject *masks = seats(e, v, V_PILE_MASKS);
    PyObject *seen = seats(e, v, V_PILE_SEEN);
    if (masks == NULL || seen == NULL)
        return -1;
    long total = 0;
    for (int j = 0; j < n; j++) {
        int seat = (me + j) % n;
        PyObject *m = ce_tuple(PyTuple_GET_ITEM(masks, seat), -1, "pile_masks");
        if (m == NULL)
            return -1;
        Py_ssize_t size = PyTuple_GET_SIZE(m);
        total += (long)size;
        /* cards known to someone other than me: not unknown to all, not mine alone */
        long unknown = 0, mine = 0;
        for (Py_ssize_t i = 0; i < size; i++) {
            long x;
            if (ce_long(PyTuple_GET_ITEM(m, i), "pile_masks", &x) < 0)
                return -1;
            unknown += x == 0;
            mine += x == bit;
        }
        o[e->at[F_PILE_SIZE] + j] = (float)((double)size / 40.0);
        o[e->at[F_PILE_KNOWN_BY_OTHERS] + j] =
            (float)((double)((long)size - unknown - mine) / 10.0);

        /* pile_top: every position holding a card is "unknown" until I know its kind */
        float *top = o + e->at[F_PILE_TOP] + j * w_top;
        Py_ssize_t n_top = size < TD ? size : TD;
        for (Py_ssize_t d = 0; d < n_top; d++)
            top[d * (K + 1) + K] = 1.0f;
        PyObject *s = ce_tuple(PyTuple_GET_ITEM(seen, seat), -1, "pile_seen");
        if (s == NULL)
            return -1;
        if (PyTuple_GET_SIZE(s) >= e->n_acc5)
            return value_error("pile_seen", "too many known cards",
                               (long)PyTuple_GET_SIZE(s));
        long count[MAXK] = {0};
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(s); i++) {
            PyObject *pair = ce_tuple(PyTuple_GET_ITEM(s, i), 2, "pile_seen");
            long pos, k;
            if (pair == NULL || long_in(pair, 0, 0, (long)size, "pile_seen", &pos) < 0
                    || long_in(pair, 1, 0, K, "pile_seen", &k) < 0)
                return -1;
            count[k]++;
            long depth = (long)size - 1 - pos;      /* from the top */
            if (depth < TD) {
                top[depth * (K + 1) + K] = 0.0f;
                top[depth * (K + 1) + k] = 1.0f;
            }
        }
        float *known = o + e->at[F_PILE_KNOWN] + j * K;
        for (int k = 0; k < K; k++) {
            known[k] = (float)e->acc5[count[k]];
            t->seen_piles[k] += count[k];
        }
    }
    o[e->at[F_CARDS_IN_PILES]] = (float)((double)total / 90.0);
    return 0;
}

/* ---- my_stock .. stock_seen ---------------------------------------------------------- */

/* One stock entry (kind or -1 if unseen, source pile). */
static int stock_card(const Encoder *e, PyObject *entry, long *k, long *src)
{
    PyObject *pair = ce_tuple(entry, 2, "stock");
    if (pair == NULL || long_in(pair, 0, -1, e->K, "stock", k) < 0
            || long_in(pair, 1, 0, e->n, "stock", src) < 0)
        return -1;
    return 0;
}

static int enc_stock(const Encoder *e, PyObject *v, Tally *t, float *o)
{
    const int n = e->n, K = e->K, me = t->me;
    PyObject *stock = seats(e, v, V_STOCK);
    PyObject *hired = ce_tuple_at(v, V_MY_HIRED, -1, "my_hired");
    if (stock == NULL || hired == NULL)
        return -1;

    /* my_stock: per slot present, picked by me, one-hot kind, one-hot source offset */
    PyObject *mine = ce_tuple(PyTuple_GET_ITEM(stock, me), -1, "stock");
    if (mine == NULL)
        return -1;
    if (PyTuple_GET_SIZE(mine) > e->max_stock)
        return value_error("stock", "more cards than my_stock slots",
                           (long)PyTuple_GET_SIZE(mine));
    const Py_ssize_t w_slot = 2 + K + n;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mine); i++) {
        long k, src;
        if (stock_card(e, PyTuple_GET_ITEM(mine, i), &k, &src) < 0)
            return -1;
        int picked = 0;
        for (Py_ssize_t h = 0; h < PyTuple_GET_SIZE(hired); h++) {
            long x;
            if (ce_long(PyTuple_GET_ITEM(hired, h), "my_hired", &x) < 0)
                return -1;
            picked |= x == (long)i;
        }
        float *slot = o + e->at[F_MY_STOCK] + i * w_slot;
        slot[0] = 1.0f;
        slot[1] = (float)picked;
        if (k >= 0)
            slot[2 + k] = 1.0f;
        slot[2 + K + (src - me + n) % n] = 1.0f;
    }

    /* per seat: stock_size, its cards per source pile, the kinds I can see */
    for (int j = 0; j < n; j++) {
        PyObject *st = ce_tuple(PyTuple_GET_ITEM(stock, (me + j) % n), -1, "stock");
        if (st == NULL)
            return -1;
        Py_ssize_t size = PyTuple_GET_SIZE(st);
        if (size >= e->n_acc5)
            return value_error("stock", "too many stock cards", (long)size);
        long sources[MAXN] = {0}, kinds[MAXK] = {0};
        for (Py_ssize_t i = 0; i < size; i++) {
            long k, src;
            if (stock_card(e, PyTuple_GET_ITEM(st, i), &k, &src) < 0)
                return -1;
            sources[(src - me + n) % n]++;
            if (k >= 0)
                kinds[k]++;
        }
        o[e->at[F_STOCK_SIZE] + j] = (float)((double)size / 15.0);
        for (int q = 0; q < n; q++)
            o[e->at[F_STOCK_SOURCES] + j * n + q] = (float)e->acc5[sources[q]];
        for (int k = 0; k < K; k++) {
            o[e->at[F_STOCK_SEEN] + j * K + k] = (float)e->acc5[kinds[k]];
            t->seen_stock[k] += kinds[k];
        }
    }
    return 0;
}

/* ---- draw_target .. next_short_rations: per seat counters / scale -------------------- */
static int enc_round_counts(const Encoder *e, PyObject *v, int me, float *o)
{
    static const int fields[6] = {V_DRAW_TARGET, V_SPY_LEFT, V_KEEP, V_NEXT_DOUBLE,
                                  V_NEXT_SPY, V_NEXT_SHORT};
    static const int blocks[6] = {F_DRAW_TARGET, F_SPYGLASS_LEFT, F_HIRE_KEEP,
                                  F_NEXT_DOUBLE_HIRE, F_NEXT_SPYGLASS, F_NEXT_SHORT_RATIONS};
    static const double scales[6] = {3.0, 3.0, 3.0, 3.0, 3.0, 1.0};
    const int n = e->n;
    for (int f = 0; f < 6; f++) {
        PyObject *vals = seats(e, v, fields[f]);
        if (vals == NULL)
            return -1;
        for (int j = 0; j < n; j++) {
            long x;
            if (ce_long_at(vals, (me + j) % n, VIEW_NAMES[fields[f]], &x) < 0)
                return -1;
            o[e->at[blocks[f]] + j] = (float)((double)x / scales[f]);
        }
    }
    return 0;
}

/* ---- my_crew_value: the partition solver (components.Partitioner._solve) ------------- */

/* The solver's values are a pure function of the packed counts. A crew of many cards has
 * tens of thousands of sub-crews, so, like the Python solver (whose memo is the
 * process's), the encoder keeps them in its own memo (an open-addressing table owned by
 * the Encoder, never read by anything else): it only saves time, never changes a value.
 * It grows from MEMO_MIN to MEMO_MAX slots and is emptied when full (bounded memory). */
#define MEMO_MIN 256
#define MEMO_MAX (1 << 18)
#define GUARD_BIT 16u

static size_t memo_slot(const Memo *m, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (m->cap - 1);
}

/* The stored value of ``key`` (never 0), or NULL. */
static const long *memo_find(const Memo *m, uint64_t key)
{
    if (m->cap == 0)
        return NULL;
    for (size_t i = memo_slot(m, key); m->keys[i] != 0; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == key)
            return &m->vals[i];
    return NULL;
}

static void memo_put_raw(Memo *m, uint64_t key, long value)
{
    size_t i = memo_slot(m, key);
    while (m->keys[i] != 0)
        i = (i + 1) & (m->cap - 1);
    m->keys[i] = key;
    m->vals[i] = value;
    m->used++;
}

/* Store a value; a half-full table doubles (up to MEMO_MAX slots) or, at MEMO_MAX, is
 * emptied first. */
static int memo_put(Memo *m, uint64_t key, long value)
{
    if (2 * (m->used + 1) > m->cap) {
        if (m->cap >= MEMO_MAX) {
            memset(m->keys, 0, m->cap * sizeof(uint64_t));
            m->used = 0;
        }
        else {
            size_t cap = m->cap ? 2 * m->cap : MEMO_MIN;
            Memo big = {PyMem_Calloc(cap, sizeof(uint64_t)),
                        PyMem_Malloc(cap * sizeof(long)), cap, 0};
            if (big.keys == NULL || big.vals == NULL) {
                PyMem_Free(big.keys);
                PyMem_Free(big.vals);
                PyErr_NoMemory();
                return -1;
            }
            for (size_t i = 0; i < m->cap; i++)
                if (m->keys[i] != 0)
                    memo_put_raw(&big, m->keys[i], m->vals[i]);
            PyMem_Free(m->keys);
            PyMem_Free(m->vals);
            *m = big;
        }
    }
    memo_put_raw(m, key, value);
    return 0;
}

/* Best total score of the packed counts ``key``: the first kind present (in the solver's
 * order, captains first) is either settled with same-kind groups, or joins one of its
 * candidate combinations (tables, streets) that the counts can still afford. */
static int solve(Encoder *e, uint64_t key, long *value)
{
    if (key == 0) {
        *value = 0;
        return 0;
    }
    const long *hit = memo_find(&e->memo, key);
    if (hit != NULL) {
        *value = *hit;
        return 0;
    }
    int k = 0;
    long c = 0;
    for (int i = 0; i < e->K; i++) {
        k = e->order[i];
        c = (long)((key >> (5 * k)) & 31);
        if (c)
            break;
    }
    long rest;
    if (solve(e, key & ~((uint64_t)31 << (5 * k)), &rest) < 0)
        return -1;
    long best = e->group_values[k * e->group_len + c] + rest;
    /* bit 4 of every 5-bit digit: it survives key - need iff no digit goes below 0 */
    const uint64_t guarded = key + e->guard;
    for (long i = e->cand_start[k]; i < e->cand_start[k + 1]; i++) {
        long ci = e->cand_combos[i];
        uint64_t need = e->combo_packed[ci];
        if (((guarded - need) & e->guard) == e->guard) {
            long sub;
            if (solve(e, key - need, &sub) < 0)
                return -1;
            if (e->combo_points[ci] + sub > best)
                best = e->combo_points[ci] + sub;
        }
    }
    if (memo_put(&e->memo, key, best) < 0)
        return -1;
    *value = best;
    return 0;
}

/* Best partition score of the crew ``counts`` (each 0..MAX_PER_KIND). */
static int crew_value(Encoder *e, const long *counts, long *value)
{
    uint64_t key = 0;
    for (int k = 0; k < e->K; k++)
        key |= (uint64_t)counts[k] << (5 * k);
    return solve(e, key, value);
}

/* ---- my_crew, my_crew_value, crew_size ----------------------------------------------- */
static int enc_my_crew(Encoder *e, PyObject *v, Tally *t, int over, float *o)
{
    const int n = e->n, K = e->K, me = t->me;
    PyObject *crew = ce_tuple_at(v, V_MY_CREW, K, "my_crew");
    if (crew == NULL)
        return -1;
    for (int k = 0; k < K; k++) {
        if (long_in(crew, k, 0, MAX_PER_KIND + 1, "my_crew", &t->my_crew[k]) < 0)
            return -1;
        o[e->at[F_MY_CREW] + k] = (float)((double)t->my_crew[k] / 6.0);
    }
    /* the score of my best partition if the game ended now (0 once it is over) */
    if (!over) {
        long value;
        if (crew_value(e, t->my_crew, &value) < 0)
            return -1;
        o[e->at[F_MY_CREW_VALUE]] = (float)((double)value / 40.0);
    }
    PyObject *sizes = seats(e, v, V_CREW_SIZES);
    if (sizes == NULL)
        return -1;
    for (int j = 0; j < n; j++) {
        long x;
        if (ce_long_at(sizes, (me + j) % n, "crew_sizes", &x) < 0)
            return -1;
        o[e->at[F_CREW_SIZE] + j] = (float)((double)x / 20.0);
    }
    return 0;
}

/* A per-seat row of K card counts. */
static int count_row(const Encoder *e, PyObject *rows, int seat, const char *name,
                     long *dst)
{
    PyObject *row = ce_tuple_at(rows, seat, e->K, name);
    return row == NULL ? -1 : ce_longs(row, e->K, name, dst);
}

/* ---- crew_known, crew_maybe_gone (my own rows stay 0) -------------------------------- */
static int enc_crew_known(const Encoder *e, PyObject *v, Tally *t, float *o)
{
    const int n = e->n, K = e->K, me = t->me;
    PyObject *known = seats(e, v, V_CREW_KNOWN);
    PyObject *gone = seats(e, v, V_CREW_MAYBE_GONE);
    if (known == NULL || gone == NULL)
        return -1;
    for (int j = 0; j < n; j++) {
        int seat = (me + j) % n;
        long row[MAXK], maybe;
        int any = 0;
        if (count_row(e, known, seat, "crew_known", row) < 0
                || ce_long_at(gone, seat, "crew_maybe_gone", &maybe) < 0)
            return -1;
        for (int k = 0; k < K; k++)
            any |= row[k] != 0;
        if (seat == me || !any)
            continue;
        o[e->at[F_CREW_MAYBE_GONE] + j] = (float)((double)maybe / 6.0);
        for (int k = 0; k < K; k++) {
            if (row[k]) {
                o[e->at[F_CREW_KNOWN] + j * K + k] = (float)((double)row[k] / 6.0);
                /* of row[k] known cards, all but ``maybe`` are surely there */
                if (row[k] > maybe)
                    t->known_crews[k] += row[k] - maybe;
            }
        }
    }
    return 0;
}

/* ---- known_about_me, about_me_maybe_gone (my own rows stay 0) ------------------------ */
static int enc_about_me(const Encoder *e, PyObject *v, int me, float *o)
{
    const int n = e->n, K = e->K;
    PyObject *known = seats(e, v, V_KNOWN_ABOUT_ME);
    PyObject *gone = seats(e, v, V_MAYBE_GONE_ABOUT_ME);
    if (known == NULL || gone == NULL)
        return -1;
    for (int j = 0; j < n; j++) {
        int seat = (me + j) % n;
        long row[MAXK], maybe;
        if (count_row(e, known, seat, "known_about_me", row) < 0
                || ce_long_at(gone, seat, "maybe_gone_about_me", &maybe) < 0)
            return -1;
        if (seat == me)
            continue;
        for (int k = 0; k < K; k++)
            o[e->at[F_KNOWN_ABOUT_ME] + j * K + k] = (float)((double)row[k] / 6.0);
        o[e->at[F_ABOUT_ME_MAYBE_GONE] + j] = (float)((double)maybe / 6.0);
    }
    return 0;
}

/* ---- laid_cards .. score: per seat, its laid and final combinations, leftovers ------- */

/* Add the combinations of a tuple of combination indices to one seat's tallies. */
static int add_combos(const Encoder *e, PyObject *group, const char *name, double *lc,
                      long *cards, long *points, long *caps)
{
    const int K = e->K;
    if (ce_tuple(group, -1, name) == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(group); i++) {
        long ci;
        if (long_in(group, i, 0, (long)e->num_combos, name, &ci) < 0)
            return -1;
        *points += e->combo_points[ci];
        *caps += e->combo_captains[ci];
        const long *counts = e->combo_counts + ci * K;
        for (int k = 0; k < K; k++) {
            if (counts[k]) {
                lc[k] += (double)counts[k] / 12.0;   /* summed in order, as Python does */
                cards[k] += counts[k];
            }
        }
    }
    return 0;
}

static int enc_layouts(const Encoder *e, PyObject *v, Tally *t, float *o)
{
    const int n = e->n, K = e->K, me = t->me;
    PyObject *laid = seats(e, v, V_LAID);
    PyObject *final = seats(e, v, V_FINAL);
    PyObject *left = seats(e, v, V_FINAL_LEFT);
    PyObject *curses = seats(e, v, V_CURSES);
    if (laid == NULL || final == NULL || left == NULL || curses == NULL)
        return -1;
    for (int j = 0; j < n; j++) {
        int seat = (me + j) % n;
        double lc[MAXK] = {0.0};
        long cards[MAXK] = {0}, rest[MAXK], points = 0, caps = 0, x;
        if (add_combos(e, PyTuple_GET_ITEM(laid, seat), "laid", lc, cards, &points, &caps) < 0
                || add_combos(e, PyTuple_GET_ITEM(final, seat), "final", lc, cards, &points,
                              &caps) < 0
                || count_row(e, left, seat, "final_left", rest) < 0
                || ce_long_at(curses, seat, "curses", &x) < 0)
            return -1;
        /* cards left over at the end: captains count for the tie-break and score */
        for (int k = 0; k < K; k++) {
            if (rest[k]) {
                cards[k] += rest[k];
                lc[k] += (double)rest[k] / 12.0;
                if (k >= e->num_crew) {
                    caps += rest[k];
                    points += e->single[k] * rest[k];
                }
            }
        }
        for (int k = 0; k < K; k++) {
            o[e->at[F_LAID_CARDS] + j * K + k] = (float)lc[k];
            t->seen_laid[k] += cards[k];
        }
        o[e->at[F_LAID_POINTS] + j] = (float)((double)points / 60.0);
        o[e->at[F_CAPTAINS] + j] = (float)((double)caps / 10.0);
        o[e->at[F_CURSES] + j] = (float)((double)x / 6.0);
        o[e->at[F_SCORE] + j] = (float)((double)(points + e->curse * x) / 60.0);
    }
    return 0;
}

/* ---- unseen: cards of each kind whose place I do not know for sure ------------------- */
static void enc_unseen(const Encoder *e, const Tally *t, float *o)
{
    for (int k = 0; k < e->K; k++) {
        long x = e->copies[k] - t->seen_piles[k] - t->seen_stock[k] - t->my_crew[k]
                 - t->known_crews[k] - t->seen_laid[k];
        o[e->at[F_UNSEEN] + k] = (float)((double)x / 12.0);
    }
}

/* ---- Encoder.encode_into ------------------------------------------------------------- */
static PyObject *Encoder_encode_into(Encoder *e, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode_into(view, out) takes 2 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    PyObject *v = ce_tuple(args[0], NUM_VIEW_FIELDS, "view");
    if (v == NULL)
        return NULL;
    Py_buffer buf;
    if (ce_out(args[1], e->size, &buf) < 0)
        return NULL;
    float *o = (float *)buf.buf;
    Tally t;
    memset(&t, 0, sizeof t);
    long me;
    Py_ssize_t phase = 0;
    int rc = long_in(v, V_PLAYER, 0, e->n, "player", &me);
    if (rc == 0) {
        t.me = (int)me;
        rc = enc_header(e, v, t.me, o, &phase);
    }
    if (rc == 0)
        rc = enc_piles(e, v, &t, o);
    if (rc == 0)
        rc = enc_stock(e, v, &t, o);
    if (rc == 0)
        rc = enc_round_counts(e, v, t.me, o);
    if (rc == 0)
        rc = enc_my_crew(e, v, &t, phase == e->over, o);
    if (rc == 0)
        rc = enc_crew_known(e, v, &t, o);
    if (rc == 0)
        rc = enc_about_me(e, v, t.me, o);
    if (rc == 0)
        rc = enc_layouts(e, v, &t, o);
    if (rc == 0)
        enc_unseen(e, &t, o);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- Encoder(...): the constants ----------------------------------------------------- */

/* A constructor table of exactly ``len`` ints copied into ``dst`` (cencode.h). */
static int fixed_longs(PyObject *seq, Py_ssize_t len, const char *name, long *dst)
{
    long *tmp = ce_longs_exact(seq, len, name);
    if (tmp == NULL)
        return -1;
    memcpy(dst, tmp, sizeof(long) * (size_t)len);
    PyMem_Free(tmp);
    return 0;
}

static int names_tuple(PyObject *obj, const char *name)
{
    if (ce_tuple(obj, -1, name) == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(obj); i++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(obj, i))) {
            PyErr_Format(PyExc_TypeError, "%s: expected a tuple of str", name);
            return -1;
        }
    return 0;
}

/* Check the layout's starts against the widths this encoder writes. */
static int check_layout(Encoder *e, PyObject *starts)
{
    const Py_ssize_t n = e->n, K = e->K, TD = e->top_depth, s = e->max_stock;
    const Py_ssize_t width[NUM_LAYOUT_FIELDS] = {
        PyTuple_GET_SIZE(e->phases), PyTuple_GET_SIZE(e->pendings), n, n, 1, 1,
        1, n, n * TD * (K + 1), n * K, n,
        s * (2 + K + n), n, n * n, n * K, n,
        n, n, n, n,
        n, K, 1, n, n * K,
        n, n * K, n, n * K,
        n, n, n, n, K,
    };
    long at[NUM_LAYOUT_FIELDS];
    if (fixed_longs(starts, NUM_LAYOUT_FIELDS, "starts", at) < 0)
        return -1;
    Py_ssize_t pos = 0;
    for (int f = 0; f < NUM_LAYOUT_FIELDS; f++) {
        if (at[f] != pos) {
            PyErr_Format(PyExc_ValueError, "layout field %s starts at %ld, expected %zd",
                         LAYOUT_NAMES[f], at[f], pos);
            return -1;
        }
        e->at[f] = pos;
        pos += width[f];
    }
    if (pos != e->size) {
        PyErr_Format(PyExc_ValueError, "layout size %zd, expected %zd", e->size, pos);
        return -1;
    }
    return 0;
}

static void Encoder_dealloc(Encoder *e)
{
    Py_XDECREF(e->phases);
    Py_XDECREF(e->pendings);
    PyMem_Free(e->acc5);
    PyMem_Free(e->combo_counts);
    PyMem_Free(e->combo_points);
    PyMem_Free(e->combo_captains);
    PyMem_Free(e->combo_packed);
    PyMem_Free(e->group_values);
    PyMem_Free(e->cand_combos);
    PyMem_Free(e->memo.keys);
    PyMem_Free(e->memo.vals);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static const char ENCODER_DOC[] =
    "Encoder(num_players, num_kinds, num_crew, top_depth, max_stock, size, starts, phases,\n"
    "        pendings, acc5, copies, combo_counts, combo_points, combo_captains,\n"
    "        single_values, curse, order, group_values, cand_combos, cand_start)\n\n"
    "The compiled observation encoder of one All Hands on Deck player count (the\n"
    "constants from observation.compiled_params; starts in LAYOUT_FIELDS order).";

static PyObject *Encoder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "num_kinds", "num_crew", "top_depth",
                             "max_stock", "size", "starts", "phases", "pendings", "acc5",
                             "copies", "combo_counts", "combo_points", "combo_captains",
                             "single_values", "curse", "order", "group_values",
                             "cand_combos", "cand_start", NULL};
    int n, K, num_crew, top_depth, max_stock;
    Py_ssize_t size;
    long curse;
    PyObject *starts, *phases, *pendings, *acc5, *copies, *combo_counts, *combo_points;
    PyObject *combo_captains, *single, *order, *group_values, *cand_combos, *cand_start;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiiinOOOOOOOOOlOOOO:Encoder", kwlist,
                                     &n, &K, &num_crew, &top_depth, &max_stock, &size,
                                     &starts, &phases, &pendings, &acc5, &copies,
                                     &combo_counts, &combo_points, &combo_captains, &single,
                                     &curse, &order, &group_values, &cand_combos,
                                     &cand_start))
        return NULL;
    if (n < 1 || n > MAXN || K < 1 || K > MAXK || num_crew < 0 || num_crew > K
            || top_depth < 0 || top_depth > 64 || max_stock < 0 || max_stock > 1000) {
        PyErr_SetString(PyExc_ValueError, "Encoder: a size parameter is out of range");
        return NULL;
    }
    if (names_tuple(phases, "phases") < 0 || names_tuple(pendings, "pendings") < 0)
        return NULL;
    Encoder *e = (Encoder *)type->tp_alloc(type, 0);
    if (e == NULL)
        return NULL;
    e->n = n;
    e->K = K;
    e->num_crew = num_crew;
    e->top_depth = top_depth;
    e->max_stock = max_stock;
    e->size = size;
    e->curse = curse;
    Py_INCREF(phases);
    e->phases = phases;
    Py_INCREF(pendings);
    e->pendings = pendings;
    if (check_layout(e, starts) < 0)
        goto fail;
    PyObject *over = PyUnicode_FromString("over");
    if (over == NULL)
        goto fail;
    e->over = name_index(phases, over, "phases");
    Py_DECREF(over);
    if (e->over < 0)
        goto fail;

    e->acc5 = ce_doubles_new(acc5, "acc5", &e->n_acc5);
    if (e->acc5 == NULL)
        goto fail;
    if (e->n_acc5 <= max_stock) {
        PyErr_SetString(PyExc_ValueError, "acc5: too short");
        goto fail;
    }
    if (fixed_longs(copies, K, "copies", e->copies) < 0
            || fixed_longs(single, K, "single_values", e->single) < 0)
        goto fail;

    /* the combinations */
    Py_ssize_t got;
    e->combo_points = ce_longs_new(combo_points, "combo_points", &e->num_combos);
    if (e->combo_points == NULL
            || (e->combo_captains = ce_longs_exact(combo_captains, e->num_combos,
                                              "combo_captains")) == NULL
            || (e->combo_counts = ce_longs_exact(combo_counts, e->num_combos * K,
                                            "combo_counts")) == NULL)
        goto fail;
    e->combo_packed = PyMem_Malloc(sizeof(uint64_t) * (size_t)(e->num_combos + 1));
    if (e->combo_packed == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t ci = 0; ci < e->num_combos; ci++) {
        e->combo_packed[ci] = 0;
        for (int k = 0; k < K; k++) {
            long c = e->combo_counts[ci * K + k];
            if (c < 0 || c > MAX_PER_KIND) {
                PyErr_SetString(PyExc_ValueError, "combo_counts: a count is out of range");
                goto fail;
            }
            e->combo_packed[ci] |= (uint64_t)c << (5 * k);
        }
    }

    /* the partition solver's tables */
    for (int k = 0; k < K; k++)
        e->guard |= (uint64_t)GUARD_BIT << (5 * k);
    long ord[MAXK];
    if (fixed_longs(order, K, "order", ord) < 0)
        goto fail;
    int listed[MAXK] = {0};
    for (int i = 0; i < K; i++) {
        /* every kind exactly once, or the solver would loop on an unlisted kind */
        if (ord[i] < 0 || ord[i] >= K || listed[ord[i]]++) {
            PyErr_SetString(PyExc_ValueError, "order: not a permutation of the kinds");
            goto fail;
        }
        e->order[i] = (int)ord[i];
    }
    e->group_values = ce_longs_new(group_values, "group_values", &got);
    if (e->group_values == NULL)
        goto fail;
    e->group_len = got / K;
    if (got % K != 0 || e->group_len <= MAX_PER_KIND) {
        PyErr_SetString(PyExc_ValueError, "group_values: expected K rows of > 15 values");
        goto fail;
    }
    if (fixed_longs(cand_start, K + 1, "cand_start", e->cand_start) < 0)
        goto fail;
    e->cand_combos = ce_longs_new(cand_combos, "cand_combos", &got);
    if (e->cand_combos == NULL)
        goto fail;
    for (int k = 0; k < K; k++)
        if (e->cand_start[k] < 0 || e->cand_start[k] > e->cand_start[k + 1]
                || e->cand_start[k + 1] > got) {
            PyErr_SetString(PyExc_ValueError, "cand_start: not ascending offsets");
            goto fail;
        }
    for (Py_ssize_t i = 0; i < got; i++)
        if (e->cand_combos[i] < 0 || e->cand_combos[i] >= e->num_combos) {
            PyErr_SetString(PyExc_ValueError, "cand_combos: a combination is out of range");
            goto fail;
        }
    return (PyObject *)e;

fail:
    Py_DECREF(e);
    return NULL;
}

static PyMethodDef Encoder_methods[] = {
    {"encode_into", (PyCFunction)(void (*)(void))Encoder_encode_into, METH_FASTCALL,
     "encode_into(view, out): write the observation of ``view`` into ``out`` (a writable\n"
     "C-contiguous float32 vector of the layout's size)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.all_hands_crew._cencode.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = ENCODER_DOC,
    .tp_methods = Encoder_methods,
    .tp_new = Encoder_new,
};

/* ---- the module ---------------------------------------------------------------------- */
static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cencode",
    "Compiled observation encoder of All Hands on Deck (see observation.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cencode(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_NAMES, NUM_VIEW_FIELDS},
        {"LAYOUT_FIELDS", LAYOUT_NAMES, NUM_LAYOUT_FIELDS},
    };
    return ce_module(&module, &EncoderType, names, 2);
}
