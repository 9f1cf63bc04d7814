/* The Scallywags observation writer of the compiled engine (_engine.c), shared by its two
 * readers: the engine's own states (plain_view) and its ``Encoder``, which reads any
 * ScallywagsView tuple. Both fill an ``sw_view`` of plain numbers, checked, and call
 * ``sw_write``.
 *
 * ``sw_write`` writes the same floats as the Python encoder (observation.py), bit for
 * bit: every value is computed in double in the Python code's order of operations, then
 * rounded to float32 once, as numpy, array('f') and memoryview writes do. It trusts its
 * input: every index it computes from an ``sw_view`` must already lie in its range (the
 * readers check them: seats 0..n-1, coins 0..num_coins-1, slots 0..take_limit, values
 * -1 or a coin value, knowers below 1 << n, card -1..num_cards-1).
 */
#ifndef PLUNDER_SCALLYWAGS_ENCODE_H
#define PLUNDER_SCALLYWAGS_ENCODE_H

#include "cencode.h"

/* seat offsets are bits of a long (the knowers masks) and index small stack arrays */
#define SW_MAX_SEATS 16
/* coin values index a lookup table of this many entries at most */
#define SW_MAX_VALUE 100000
/* coin slots index a table of this many entries at most, plus one */
#define SW_MAX_TAKE_LIMIT 100000

/* The layout fields the writer fills; the constructor gets each one's (start, stop) */
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

/* The encoder's constants (observation.compiled_params). */
typedef struct {
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
    long num_phases;
    long blow, yo_ho;              /* the cards whose targets mix coins and seats */
} sw_enc;

/* One player's view as plain numbers, every entry within its range (see the top). */
typedef struct {
    long me, n, limit;             /* limit: the view's take limit (the statistics use it) */
    long off[SW_MAX_SEATS];        /* the seat offset of each seat 0..n-1 */
    const long *values, *face_up, *owner, *slot, *knowers;   /* per coin */
    const long *hand, *discard, *reshuffled;                 /* per card kind */
    const long *hand_sizes;        /* per seat */
    long draw_size, actor;
    const long *acting;
    long num_acting;
    long phase;                    /* index among the phases */
    long card;                     /* -1 for none */
    const long *chosen;            /* coins, then seats for Blow Me Down! and Yo Ho Ho! */
    long num_chosen;
    long turns;
} sw_view;

/* The seat offsets of ``v`` from its player, seat count and player set. */
static inline void sw_offsets(sw_view *v)
{
    for (long seat = 0; seat < v->n; seat++)
        v->off[seat] = (seat - v->me + v->n) % v->n;
}

/* coin_in_middle, coin_in_take, coin_slot, coin_face_up, coin_value_known, coin_value,
 * coin_known_by (coin by coin), then the take statistics derived from the same coins:
 * take_size, take_known_value, take_unknown and unknown_mean. */
static inline void sw_write_coins(const sw_enc *e, const sw_view *s, float *o)
{
    const long nc = e->num_coins, S = e->seats, nv = e->num_values;
    long size[SW_MAX_SEATS] = {0}, known[SW_MAX_SEATS] = {0}, unknown[SW_MAX_SEATS] = {0};
    long seen_sum = 0, seen_count = 0;
    float *in_middle = o + e->at[L_COIN_IN_MIDDLE], *in_take = o + e->at[L_COIN_IN_TAKE],
          *slots = o + e->at[L_COIN_SLOT], *up_row = o + e->at[L_COIN_FACE_UP],
          *known_row = o + e->at[L_COIN_VALUE_KNOWN], *value_row = o + e->at[L_COIN_VALUE],
          *known_by = o + e->at[L_COIN_KNOWN_BY];
    for (long c = 0; c < nc; c++) {
        long v = s->values[c], up = s->face_up[c], seat = s->owner[c];
        long mask = s->knowers[c];
        /* where it lies: the middle, or the take of a seat offset */
        if (seat < 0) {
            in_middle[c] = 1.0f;
        } else {
            long d = s->off[seat];
            in_take[c * S + d] = 1.0f;
            size[d]++;
            if (v >= 0)
                known[d] += v;
            else
                unknown[d]++;
        }
        slots[c] = e->slot_value[s->slot[c]];
        up_row[c] = (float)up;
        /* a face-up coin's value is always in the view; "known" follows the value */
        known_row[c] = (v >= 0 || up) ? 1.0f : 0.0f;
        if (v >= 0) {
            value_row[c * nv + e->value_index[v]] = 1.0f;
            seen_sum += v;
            seen_count++;
        }
        /* who has seen it: absolute seat bits, written by seat offset */
        for (long q = 0; mask; q++, mask >>= 1)
            if (mask & 1)
                known_by[c * S + s->off[q]] = 1.0f;
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
}

/* hand (own counts / hand size), hand_size (by seat offset / hand size), discard and
 * reshuffled (count * (1 / copies), as Python's mul), draw_size (/ cards in the game). */
static inline void sw_write_cards(const sw_enc *e, const sw_view *s, float *o)
{
    for (long k = 0; k < e->num_cards; k++) {
        o[e->at[L_HAND] + k] = (float)(e->inv_hand * (double)s->hand[k]);
        o[e->at[L_DISCARD] + k] = (float)(e->inv_copies[k] * (double)s->discard[k]);
        o[e->at[L_RESHUFFLED] + k] = (float)(e->inv_copies[k] * (double)s->reshuffled[k]);
    }
    for (long d = 0; d < s->n; d++)
        o[e->at[L_HAND_SIZE] + d] = (float)(e->inv_hand * (double)s->hand_sizes[(s->me + d) % s->n]);
    o[e->at[L_DRAW_SIZE]] = (float)((double)s->draw_size / (double)e->total_cards);
}

/* seat_present, actor and to_act (by seat offset), the phase, the pending card,
 * pending_step (targets chosen / 4) and its targets: the coins chosen go to
 * coin_selected, the seats to pending_receiver (by seat offset). Blow Me Down! chooses
 * two coins then two seats, Yo Ho Ho! a coin then a seat, every other card coins only.
 * Then turn: turns / 400, clipped at 1 (Python's min(x, 1.0)). */
static inline void sw_write_turn(const sw_enc *e, const sw_view *s, float *o)
{
    for (long d = 0; d < s->n; d++)
        o[e->at[L_SEAT_PRESENT] + d] = 1.0f;
    o[e->at[L_ACTOR] + s->off[s->actor]] = 1.0f;
    for (long i = 0; i < s->num_acting; i++)
        o[e->at[L_TO_ACT] + s->off[s->acting[i]]] = 1.0f;
    o[e->at[L_PHASE] + s->phase] = 1.0f;
    o[e->at[L_PENDING_STEP]] = (float)((double)s->num_chosen / 4.0);
    if (s->card >= 0) {
        o[e->at[L_PENDING_CARD] + s->card] = 1.0f;
        long coin_steps = s->card == e->blow ? 2 : s->card == e->yo_ho ? 1 : s->num_chosen;
        for (long i = 0; i < s->num_chosen; i++) {
            if (i < coin_steps)
                o[e->at[L_COIN_SELECTED] + s->chosen[i]] = 1.0f;
            else
                o[e->at[L_PENDING_RECEIVER] + s->off[s->chosen[i]]] = 1.0f;
        }
    }
    double t = (double)s->turns / 400.0;
    o[e->at[L_TURN]] = (float)(1.0 < t ? 1.0 : t);
}

/* The whole observation of ``s`` into ``o`` (``e->size`` floats, zeroed here). */
static inline void sw_write(const sw_enc *e, const sw_view *s, float *o)
{
    memset(o, 0, sizeof(float) * (size_t)e->size);
    sw_write_coins(e, s, o);
    sw_write_cards(e, s, o);
    sw_write_turn(e, s, o);
}

/* Expected length of each layout field, from the counts. */
static inline long sw_field_length(int f, long nc, long S, long K, long nv, long nphases)
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

static inline void sw_enc_free(sw_enc *e)
{
    PyMem_Free(e->value_index);
    PyMem_Free(e->inv_copies);
    PyMem_Free(e->slot_value);
    e->value_index = NULL;
    e->inv_copies = NULL;
    e->slot_value = NULL;
}

/* Fill ``e`` from the constructor arguments of the compiled encoder (``args`` and
 * ``kwds`` as Encoder(...) gets them; see observation.compiled_params). The phases
 * tuple (checked: of str) goes to ``*phases`` (a borrowed reference). 0, or -1 with an
 * exception set. */
static inline int sw_enc_init(sw_enc *e, PyObject *args, PyObject *kwds, PyObject **phases_out)
{
    static char *kwlist[] = {"size", "slices", "num_coins", "seats", "num_cards",
                             "distinct_values", "take_limit", "hand_size", "total_value",
                             "total_cards", "inv_copies", "phases", "blow", "yo_ho", NULL};
    PyObject *slices, *distinct, *inv_copies, *phases;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOlllOllllOOll:Encoder", kwlist, &e->size,
                                     &slices, &e->num_coins, &e->seats, &e->num_cards,
                                     &distinct, &e->take_limit, &e->hand_size,
                                     &e->total_value, &e->total_cards, &inv_copies, &phases,
                                     &e->blow, &e->yo_ho))
        return -1;
    if (e->num_coins < 1 || e->seats < 1 || e->seats > SW_MAX_SEATS || e->num_cards < 1
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
    *phases_out = phases;
    e->num_phases = (long)PyTuple_GET_SIZE(phases);
    /* coin values: ascending, distinct, 0..SW_MAX_VALUE; their index table */
    Py_ssize_t nv;
    long *vals = ce_longs_new(distinct, "distinct_values", &nv);
    if (vals == NULL)
        return -1;
    int ok = nv >= 1;
    for (Py_ssize_t i = 0; ok && i < nv; i++)
        ok = vals[i] >= 0 && vals[i] <= SW_MAX_VALUE && (i == 0 || vals[i] > vals[i - 1]);
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
    if (e->take_limit > SW_MAX_TAKE_LIMIT) {
        PyErr_Format(PyExc_ValueError, "take_limit: expected at most %d", SW_MAX_TAKE_LIMIT);
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
        long want = sw_field_length(f, e->num_coins, e->seats, e->num_cards, e->num_values,
                                    e->num_phases);
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
    return 0;
}

#endif
