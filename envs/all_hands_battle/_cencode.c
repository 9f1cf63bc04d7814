/* Compiled observation encoder of All Hands On Deck (battles): the C twin of
 * ``observation.encode`` (envs/all_hands_battle/observation.py).
 *
 * ``Encoder(...)`` takes the game's constants, all computed in Python by
 * ``observation.compiled_params`` (layout blocks as (start, stop) pairs in LAYOUT_FIELDS
 * order, per-card tables in CARD_COLUMNS order, the ship rules' crew sets per shipmaster);
 * ``encode_into(view, out)`` writes the whole observation of a view into a float32 vector.
 * It reads nothing but the view and those constants, and writes the same floats as the
 * Python encoder, bit for bit: every value is computed in double with the Python code's
 * operations, then cast to float (as numpy does when it stores a Python float).
 *
 * The view is read by position (VIEW_FIELDS, SHIP_FIELDS: tests check them against the
 * named tuples). Every read is checked (a wrong type or length raises TypeError naming the
 * field), every card id and slot taken from the view is checked against its range
 * (ValueError), and every write goes through ``put``, which checks the index against its
 * layout block. Seats are made relative with Python's modulo, as the Python code does.
 *
 * The claim outlook (what claiming the top discard does to the best ship of the hand)
 * mirrors ``claim_outlook`` and ``ShipRules.best_ship``: the first best crew in
 * ``legal_crews`` order, found here by enumerating every crew of the usable cards (the
 * Python code prunes dominated cards and memoises; both give that same first best crew).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "cencode.h"

#define MAX_CARDS 1024      /* stack scratch per card; the packaged decks have 74 / 78 */
#define MAX_CREW 16         /* crew_per_ship bound (the data allows 1..10) */

/* ---- layout blocks ------------------------------------------------------------------ */

enum {
    B_DECISION, B_MY_DECISION, B_PHASE, B_ACTING_SEAT, B_TURN_SEAT, B_STARTER, B_HAND,
    B_HAND_SIZES, B_RESERVED, B_KNOWN_WITH, B_DISCARD_PILE, B_DISCARD_TOP, B_CLAIM_OUTLOOK,
    B_DRAW_PILE_SIZE, B_PILE_CANDIDATES, B_UNSEEN, B_SHIP_LAUNCHED, B_SHIP_SUIT, B_SHIP_RANK,
    B_SHIP_IN_PLAY, B_SHIP_KEEPER, B_SHIP_CREW_COUNT, B_SHIP_CREW_KNOWN, B_SHIP_CREW,
    B_SHIP_REVEALED, B_SHIP_SPIED, B_SHIP_SPIED_BY_OTHER, B_PLUNDER_CARDS, B_PLUNDER_VALUE,
    B_LAUNCH_MASTER, B_LAUNCH_CREW, B_LAUNCH_COUNT, B_LAUNCHED, B_CLAIM_QUEUE, B_FIRST_FLEET,
    B_LAST_TURNS, B_PASSED, B_FORCED, B_SELECTED, B_SPIES_USED, B_TOTALS, B_LAST_ROUND,
    B_ROUND, NUM_BLOCKS
};

/* the layout field of each block, in enum order (exported as LAYOUT_FIELDS) */
static const char *const LAYOUT_NAMES[NUM_BLOCKS] = {
    "decision", "my_decision", "phase", "acting_seat", "turn_seat", "starter", "hand",
    "hand_sizes", "reserved", "known_with", "discard_pile", "discard_top", "claim_outlook",
    "draw_pile_size", "pile_candidates", "unseen", "ship_launched", "ship_suit", "ship_rank",
    "ship_in_play", "ship_keeper", "ship_crew_count", "ship_crew_known", "ship_crew",
    "ship_revealed", "ship_spied", "ship_spied_by_other", "plunder_cards", "plunder_value",
    "launch_master", "launch_crew", "launch_count", "launched", "claim_queue", "first_fleet",
    "last_turns", "passed", "forced", "selected", "spies_used", "totals", "last_round",
    "round",
};

/* ---- the view ----------------------------------------------------------------------- */

enum {
    V_PLAYER, V_NUM_PLAYERS, V_ROUND, V_STARTER, V_TOTALS, V_LAST_ROUND, V_PHASE, V_DECISION,
    V_ACTOR, V_TURN_PLAYER, V_HAND, V_HAND_SIZES, V_RESERVED, V_KNOWN_WITH, V_DISCARD,
    V_DECK_SIZE, V_RESHUFFLED, V_SHIPS, V_PLUNDER, V_LAUNCH_MASTER, V_LAUNCH_CREW,
    V_LAUNCH_COUNT, V_LAUNCHED, V_CLAIM_QUEUE, V_FIRST_FLEET, V_LAST_TURNS, V_PASSED,
    V_FORCED, V_SELECTED, V_SPIES_USED, V_SPIED, V_EVENTS, V_TURNS, NUM_VIEW_FIELDS
};

static const char *const VIEW_NAMES[NUM_VIEW_FIELDS] = {
    "player", "num_players", "round", "starter", "totals", "last_round", "phase",
    "decision", "actor", "turn_player", "hand", "hand_sizes", "reserved", "known_with",
    "discard", "deck_size", "reshuffled", "ships", "plunder", "launch_master", "launch_crew",
    "launch_count", "launched", "claim_queue", "first_fleet", "last_turns", "passed",
    "forced", "selected", "spies_used", "spied", "events", "turns",
};

enum { SV_MASTER, SV_IN_PLAY, SV_KEEPER, SV_CREW_COUNT, SV_CREW, SV_REVEALED, SV_SPIED,
       NUM_SHIP_FIELDS };

static const char *const SHIP_NAMES[NUM_SHIP_FIELDS] = {
    "master", "in_play", "keeper", "crew_count", "crew", "revealed", "spied",
};

/* ---- per-card tables ---------------------------------------------------------------- */

enum {
    K_SUIT,          /* observation suit index 0-4 (4 = none) */
    K_RANK,          /* observation shipmaster index: admiral 0, captain 1, other 2 */
    K_VALUE,         /* treasure points */
    K_IS_MASTER,     /* can lead a ship */
    K_SAILS,         /* ShipRules.rank: 3 admiral, 2 captain, 1 privateer, else 0 */
    K_DEFEND_LEVEL,  /* ShipRules._defend_level */
    K_RUTH_BONUS,    /* ShipRules._ruth_bonus */
    K_DUELLING,      /* ShipRules._duelling */
    K_LADY,          /* ShipRules._lady */
    K_BLACK_SPOT,    /* kind == BLACK_SPOT */
    K_DAUGHTER,      /* kind == DAUGHTER */
    NUM_COLUMNS
};

static const char *const CARD_NAMES[NUM_COLUMNS] = {
    "suit", "rank", "value", "is_master", "sails", "defend_level", "ruth_bonus", "duelling",
    "lady", "black_spot", "daughter",
};

/* per shipmaster card sets (rows of C cards; empty rows for other cards) */
enum { M_ELIG, M_POOL, M_CAPS, M_COOKS, NUM_MASTER_SETS };

static const char *const MASTER_SET_NAMES[NUM_MASTER_SETS] = {
    "elig", "pool", "caps", "cooks",
};

typedef struct {
    PyObject_HEAD
    long n, C, S, size, target, round_scale, crew;   /* crew = crew_per_ship */
    double top;                                      /* 1.0 + 600.0 / target_score */
    Py_ssize_t start[NUM_BLOCKS], len[NUM_BLOCKS];
    PyObject *decisions, *phases;                    /* tuples of str */
    long claim;                                      /* index of "claim" in decisions */
    long *col[NUM_COLUMNS];                          /* C values each */
    unsigned char *sets[NUM_MASTER_SETS];            /* C x C: sets[k][m * C + c] */
    unsigned char *prize;                            /* C: the master has Prize Crew parts */
} Encoder;

/* ---- small helpers ------------------------------------------------------------------ */

/* out[block + i] = v, with i checked against the block. */
static int put(const Encoder *e, float *x, int block, long i, double v)
{
    if (i < 0 || i >= e->len[block]) {
        PyErr_Format(PyExc_ValueError, "%s: index %ld outside its %zd values",
                     LAYOUT_NAMES[block], i, e->len[block]);
        return -1;
    }
    x[e->start[block] + i] = (float)v;
    return 0;
}

/* Python's (q - p) % n for a seat q (any int) and the viewer p (0 <= p < n). */
static long rel(long q, long p, long n)
{
    long r = q % n - p;          /* in (-2n, n): no overflow */
    return ((r % n) + n) % n;
}

/* A card id from ``obj``, checked against 0..C-1. */
static int card_of(const Encoder *e, PyObject *obj, const char *name, long *c)
{
    if (ce_long(obj, name, c) < 0)
        return -1;
    if (*c < 0 || *c >= e->C) {
        PyErr_Format(PyExc_ValueError, "%s: card %ld outside 0..%ld", name, *c, e->C - 1);
        return -1;
    }
    return 0;
}

/* Item ``i`` of a tuple as a bool (an int, used for its truth). */
static int flag_at(PyObject *tuple, Py_ssize_t i, const char *name, int *v)
{
    long x;
    if (ce_long_at(tuple, i, name, &x) < 0)
        return -1;
    *v = x != 0;
    return 0;
}

/* Index of the str ``obj`` in the tuple of str ``choices``. */
static int choice_of(PyObject *obj, PyObject *choices, const char *name, long *index)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a str, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t k, m = PyTuple_GET_SIZE(choices);
    for (k = 0; k < m; k++)                          /* interned constants: same object */
        if (PyTuple_GET_ITEM(choices, k) == obj) {
            *index = (long)k;
            return 0;
        }
    for (k = 0; k < m; k++) {
        int eq = PyUnicode_Compare(obj, PyTuple_GET_ITEM(choices, k));
        if (eq == -1 && PyErr_Occurred())
            return -1;
        if (eq == 0) {
            *index = (long)k;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "%s: unknown value %R", name, obj);
    return -1;
}

/* Sets block[base + c] = 1 and located[c] for every card of the tuple ``cards``. */
static int put_cards(const Encoder *e, float *x, int block, long base, PyObject *cards,
                     const char *name, unsigned char *located)
{
    if (ce_tuple(cards, -1, name) == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(cards); k++) {
        long c;
        if (card_of(e, PyTuple_GET_ITEM(cards, k), name, &c) < 0
                || put(e, x, block, base + c, 1.0) < 0)
            return -1;
        if (located != NULL)
            located[c] = 1;
    }
    return 0;
}

/* ---- the table part: scores, plunder, ships, passes, Spy looks, round ---------------- */

/* totals, last_round and round (the Python code's ``min`` keeps the first of equals). */
static int put_scores(const Encoder *e, float *x, PyObject *view, long p)
{
    long n = e->n, t, round_;
    PyObject *totals = ce_tuple(PyTuple_GET_ITEM(view, V_TOTALS), n, "totals");
    PyObject *last = ce_tuple(PyTuple_GET_ITEM(view, V_LAST_ROUND), -1, "last_round");
    if (totals == NULL || last == NULL)
        return -1;
    Py_ssize_t nlast = PyTuple_GET_SIZE(last);
    if (nlast != 0 && nlast != n) {
        PyErr_Format(PyExc_TypeError, "last_round: expected 0 or %ld items, got %zd", n,
                     nlast);
        return -1;
    }
    for (long q = 0; q < n; q++) {
        long r = rel(q, p, n);
        if (ce_long_at(totals, q, "totals", &t) < 0)
            return -1;
        double v = (double)t / (double)e->target;
        if (put(e, x, B_TOTALS, r, e->top < v ? e->top : v) < 0)
            return -1;
        if (nlast) {
            if (ce_long_at(last, q, "last_round", &t) < 0)
                return -1;
            v = (double)t / 100.0;
            if (put(e, x, B_LAST_ROUND, r, 6.0 < v ? 6.0 : v) < 0)
                return -1;
        }
    }
    if (ce_long(PyTuple_GET_ITEM(view, V_ROUND), "round", &round_) < 0)
        return -1;
    double v = (double)round_ / (double)e->round_scale;
    return put(e, x, B_ROUND, 0, 1.0 < v ? 1.0 : v);
}

/* plunder_cards and plunder_value (per relative seat, treasure points / 100, capped). */
static int put_plunder(const Encoder *e, float *x, PyObject *view, long p,
                       unsigned char *located)
{
    long n = e->n;
    PyObject *plunder = ce_tuple(PyTuple_GET_ITEM(view, V_PLUNDER), n, "plunder");
    if (plunder == NULL)
        return -1;
    for (long q = 0; q < n; q++) {
        PyObject *pl = ce_tuple_at(plunder, q, -1, "plunder");
        if (pl == NULL || put_cards(e, x, B_PLUNDER_CARDS, 0, pl, "plunder", located) < 0)
            return -1;
        if (PyTuple_GET_SIZE(pl) == 0)
            continue;
        long pv = 0;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(pl); k++)
            pv += e->col[K_VALUE][PyLong_AsLong(PyTuple_GET_ITEM(pl, k))];  /* checked above */
        double v = (double)pv / 100.0;
        if (put(e, x, B_PLUNDER_VALUE, rel(q, p, n), 2.0 < v ? 2.0 : v) < 0)
            return -1;
    }
    return 0;
}

/* One ship (slot k = relative seat * S + launch order): the ship_* blocks. */
static int put_ship(const Encoder *e, float *x, PyObject *ship, long p, long k,
                    unsigned char *located)
{
    long n = e->n, C = e->C, master, keeper, crew_count;
    int in_play, revealed, spied;
    if (ce_tuple(ship, NUM_SHIP_FIELDS, "ships: a ShipView") == NULL
            || card_of(e, PyTuple_GET_ITEM(ship, SV_MASTER), "ships: master", &master) < 0
            || flag_at(ship, SV_IN_PLAY, "ships: in_play", &in_play) < 0
            || ce_long_at(ship, SV_KEEPER, "ships: keeper", &keeper) < 0
            || ce_long_at(ship, SV_CREW_COUNT, "ships: crew_count", &crew_count) < 0
            || flag_at(ship, SV_REVEALED, "ships: revealed", &revealed) < 0
            || flag_at(ship, SV_SPIED, "ships: spied", &spied) < 0)
        return -1;
    located[master] = 1;
    if (put(e, x, B_SHIP_LAUNCHED, k, 1.0) < 0
            || put(e, x, B_SHIP_SUIT, k * 5 + e->col[K_SUIT][master], 1.0) < 0
            || put(e, x, B_SHIP_RANK, k * 3 + e->col[K_RANK][master], 1.0) < 0
            || (in_play && put(e, x, B_SHIP_IN_PLAY, k, 1.0) < 0)
            || put(e, x, B_SHIP_KEEPER, k * (n + 1) + (keeper < 0 ? n : rel(keeper, p, n)),
                   1.0) < 0
            || put(e, x, B_SHIP_CREW_COUNT, k, (double)crew_count / 3.0) < 0)
        return -1;
    PyObject *crew = PyTuple_GET_ITEM(ship, SV_CREW);
    if (crew != Py_None) {                           /* a crew the viewer knows */
        if (put(e, x, B_SHIP_CREW_KNOWN, k, 1.0) < 0
                || put_cards(e, x, B_SHIP_CREW, k * C, crew, "ships: crew", located) < 0)
            return -1;
    }
    if ((revealed && put(e, x, B_SHIP_REVEALED, k, 1.0) < 0)
            || (spied && put(e, x, B_SHIP_SPIED, k, 1.0) < 0))
        return -1;
    return 0;
}

/* Every seat's fleet, then the seats that passed. */
static int put_ships(const Encoder *e, float *x, PyObject *view, long p,
                     unsigned char *located)
{
    long n = e->n, S = e->S;
    PyObject *ships = ce_tuple(PyTuple_GET_ITEM(view, V_SHIPS), n, "ships");
    PyObject *passed = ce_tuple(PyTuple_GET_ITEM(view, V_PASSED), n, "passed");
    if (ships == NULL || passed == NULL)
        return -1;
    for (long q = 0; q < n; q++) {
        long r = rel(q, p, n);
        PyObject *fleet = ce_tuple_at(ships, q, -1, "ships: a fleet");
        if (fleet == NULL)
            return -1;
        if (PyTuple_GET_SIZE(fleet) > S) {
            PyErr_Format(PyExc_ValueError, "ships: a fleet of %zd ships (at most %ld)",
                         PyTuple_GET_SIZE(fleet), S);
            return -1;
        }
        for (long j = 0; j < PyTuple_GET_SIZE(fleet); j++)
            if (put_ship(e, x, PyTuple_GET_ITEM(fleet, j), p, r * S + j, located) < 0)
                return -1;
        int pass;
        if (flag_at(passed, q, "passed", &pass) < 0 || (pass && put(e, x, B_PASSED, r, 1.0) < 0))
            return -1;
    }
    return 0;
}

/* ship_spied_by_other: the ships another player's Spy has looked at. */
static int put_spied(const Encoder *e, float *x, PyObject *view, long p)
{
    PyObject *spied = ce_tuple(PyTuple_GET_ITEM(view, V_SPIED), -1, "spied");
    if (spied == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(spied); i++) {
        long look[3];
        if (ce_longs(PyTuple_GET_ITEM(spied, i), 3, "spied", look) < 0)
            return -1;
        if (look[0] == p)
            continue;
        if (look[2] < 0 || look[2] >= e->S) {
            PyErr_Format(PyExc_ValueError, "spied: ship slot %ld outside 0..%ld", look[2],
                         e->S - 1);
            return -1;
        }
        if (put(e, x, B_SHIP_SPIED_BY_OTHER, rel(look[1], p, e->n) * e->S + look[2], 1.0) < 0)
            return -1;
    }
    return 0;
}

/* ---- the turn part ------------------------------------------------------------------ */

/* decision, my_decision, phase, acting_seat, turn_seat, starter, first_fleet. */
static int put_turn(const Encoder *e, float *x, PyObject *view, long p, long *decision,
                    long *actor)
{
    long n = e->n, phase, turn_player, starter, first_fleet;
    if (choice_of(PyTuple_GET_ITEM(view, V_DECISION), e->decisions, "decision", decision) < 0
            || choice_of(PyTuple_GET_ITEM(view, V_PHASE), e->phases, "phase", &phase) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_ACTOR), "actor", actor) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_TURN_PLAYER), "turn_player", &turn_player) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_STARTER), "starter", &starter) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_FIRST_FLEET), "first_fleet", &first_fleet) < 0)
        return -1;
    if (put(e, x, B_DECISION, *decision, 1.0) < 0 || put(e, x, B_PHASE, phase, 1.0) < 0)
        return -1;
    if (*actor >= 0) {
        if (put(e, x, B_ACTING_SEAT, rel(*actor, p, n), 1.0) < 0
                || (*actor == p && put(e, x, B_MY_DECISION, 0, 1.0) < 0))
            return -1;
    }
    if (turn_player >= 0 && put(e, x, B_TURN_SEAT, rel(turn_player, p, n), 1.0) < 0)
        return -1;
    if (put(e, x, B_STARTER, rel(starter, p, n), 1.0) < 0)
        return -1;
    return put(e, x, B_FIRST_FLEET, first_fleet < 0 ? n : rel(first_fleet, p, n), 1.0);
}

/* hand, hand_sizes, reserved and known_with (``tied``: claimed cards taken into hand). */
static int put_hands(const Encoder *e, float *x, PyObject *view, long p,
                     unsigned char *located, unsigned char *tied)
{
    long n = e->n, C = e->C, v;
    PyObject *hand_sizes = ce_tuple(PyTuple_GET_ITEM(view, V_HAND_SIZES), n, "hand_sizes");
    PyObject *reserved = ce_tuple(PyTuple_GET_ITEM(view, V_RESERVED), n, "reserved");
    PyObject *known = ce_tuple(PyTuple_GET_ITEM(view, V_KNOWN_WITH), n, "known_with");
    if (hand_sizes == NULL || reserved == NULL || known == NULL
            || put_cards(e, x, B_HAND, 0, PyTuple_GET_ITEM(view, V_HAND), "hand", located) < 0)
        return -1;
    for (long r = 0; r < n; r++) {                   /* seats in order from the viewer */
        long q = (p + r) % n;
        if (ce_long_at(hand_sizes, q, "hand_sizes", &v) < 0
                || put(e, x, B_HAND_SIZES, r, (double)v / 13.0) < 0)
            return -1;
        if (ce_long_at(reserved, q, "reserved", &v) < 0)
            return -1;
        if (v >= 0) {
            if (v >= C) {
                PyErr_Format(PyExc_ValueError, "reserved: card %ld outside 0..%ld", v, C - 1);
                return -1;
            }
            if (put(e, x, B_RESERVED, r * C + v, 1.0) < 0)
                return -1;
            located[v] = 1;
        }
        if (put_cards(e, x, B_KNOWN_WITH, r * C, PyTuple_GET_ITEM(known, q), "known_with",
                      tied) < 0)
            return -1;
    }
    return 0;
}

/* claim_queue and last_turns: relative seats still to be asked / to play. */
static int put_seats(const Encoder *e, float *x, PyObject *view, int field, int block,
                     long p)
{
    PyObject *seats = ce_tuple(PyTuple_GET_ITEM(view, field), -1, VIEW_NAMES[field]);
    if (seats == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seats); i++) {
        long q;
        if (ce_long(PyTuple_GET_ITEM(seats, i), VIEW_NAMES[field], &q) < 0
                || put(e, x, block, rel(q, p, e->n), 1.0) < 0)
            return -1;
    }
    return 0;
}

/* discard_pile, discard_top, launch_master, launch_crew, launch_count, launched, forced,
 * selected, spies_used, draw_pile_size. The top discard in ``*top`` (-1 none). */
static int put_table(const Encoder *e, float *x, PyObject *view, unsigned char *located,
                     long *top, long *deck_size)
{
    long master, count, selected, spies;
    int launched, forced;
    PyObject *discard = ce_tuple(PyTuple_GET_ITEM(view, V_DISCARD), -1, "discard");
    if (discard == NULL
            || put_cards(e, x, B_DISCARD_PILE, 0, discard, "discard", located) < 0)
        return -1;
    *top = -1;
    if (PyTuple_GET_SIZE(discard)) {
        *top = PyLong_AsLong(PyTuple_GET_ITEM(discard, PyTuple_GET_SIZE(discard) - 1));
        if (put(e, x, B_DISCARD_TOP, *top, 1.0) < 0)
            return -1;
    }
    if (ce_long(PyTuple_GET_ITEM(view, V_LAUNCH_MASTER), "launch_master", &master) < 0)
        return -1;
    if (master >= 0) {
        if (master >= e->C) {
            PyErr_Format(PyExc_ValueError, "launch_master: card %ld outside 0..%ld", master,
                         e->C - 1);
            return -1;
        }
        if (put(e, x, B_LAUNCH_MASTER, master, 1.0) < 0)
            return -1;
        located[master] = 1;
    }
    if (put_cards(e, x, B_LAUNCH_CREW, 0, PyTuple_GET_ITEM(view, V_LAUNCH_CREW),
                  "launch_crew", located) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_LAUNCH_COUNT), "launch_count", &count) < 0
            || flag_at(view, V_LAUNCHED, "launched", &launched) < 0
            || flag_at(view, V_FORCED, "forced", &forced) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_SELECTED), "selected", &selected) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_SPIES_USED), "spies_used", &spies) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_DECK_SIZE), "deck_size", deck_size) < 0)
        return -1;
    if ((launched && put(e, x, B_LAUNCHED, 0, 1.0) < 0)
            || (forced && put(e, x, B_FORCED, 0, 1.0) < 0)
            || (selected >= 0 && put(e, x, B_SELECTED, selected, 1.0) < 0))
        return -1;
    if (put(e, x, B_DRAW_PILE_SIZE, 0, (double)*deck_size / (double)e->C) < 0
            || put(e, x, B_LAUNCH_COUNT, 0, (double)count / 3.0) < 0
            || put(e, x, B_SPIES_USED, 0, (double)spies / 2.0) < 0)
        return -1;
    return 0;
}

/* unseen (cards not located) and, while the draw pile is not empty, pile_candidates:
 * unseen cards not known to be with a player, within the last reshuffle's cards. */
static int put_unseen(const Encoder *e, float *x, PyObject *view, const unsigned char *located,
                      const unsigned char *tied, long deck_size)
{
    long C = e->C;
    unsigned char resh[MAX_CARDS];
    for (long c = 0; c < C; c++)
        if (!located[c] && put(e, x, B_UNSEEN, c, 1.0) < 0)
            return -1;
    if (!deck_size)
        return 0;
    PyObject *reshuffled = ce_tuple(PyTuple_GET_ITEM(view, V_RESHUFFLED), -1, "reshuffled");
    if (reshuffled == NULL)
        return -1;
    int any = PyTuple_GET_SIZE(reshuffled) > 0;      /* else: no reshuffle this round */
    memset(resh, 0, (size_t)C);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(reshuffled); i++) {
        long c;
        if (card_of(e, PyTuple_GET_ITEM(reshuffled, i), "reshuffled", &c) < 0)
            return -1;
        resh[c] = 1;
    }
    for (long c = 0; c < C; c++)
        if (!located[c] && !tied[c] && (!any || resh[c])
                && put(e, x, B_PILE_CANDIDATES, c, 1.0) < 0)
            return -1;
    return 0;
}

/* ---- claim_outlook: the best ship of the hand with and without the top discard ------- */

/* ShipRules._crew_worth: defending levels (Ruth's bonus, Ladies as the strongest), 25 for
 * a Black Spot, 6 for the Governor's Daughter, plus a quarter of the treasure points. */
static double crew_worth(const Encoder *e, const long *crew)
{
    long bonus = 0, total = 0, strongest = 0, ladies = 0, value = 0;
    int spot = 0, daughter = 0;
    for (long i = 0; i < e->crew; i++)
        bonus += e->col[K_RUTH_BONUS][crew[i]];
    for (long i = 0; i < e->crew; i++) {
        long c = crew[i];
        value += e->col[K_VALUE][c];
        spot |= e->col[K_BLACK_SPOT][c] != 0;
        daughter |= e->col[K_DAUGHTER][c] != 0;
        if (e->col[K_LADY][c]) {
            ladies++;
            continue;
        }
        long lv = e->col[K_DEFEND_LEVEL][c];
        if (e->col[K_DUELLING][c])
            lv += bonus - e->col[K_RUTH_BONUS][c];
        total += lv;
        if (lv > strongest)
            strongest = lv;
    }
    long levels = total + ladies * strongest + 25 * spot + 6 * daughter;
    return (double)levels + (double)value / 4.0;
}

/* ShipRules.is_prize_crew: one Captain and one Cook of the Admiral's suit, the rest
 * eligible. */
static int is_prize_crew(const Encoder *e, long m, const long *crew)
{
    const unsigned char *caps = e->sets[M_CAPS] + m * e->C, *cooks = e->sets[M_COOKS] + m * e->C;
    const unsigned char *elig = e->sets[M_ELIG] + m * e->C;
    long ncap = 0, ncook = 0;
    if (!e->prize[m])
        return 0;
    for (long i = 0; i < e->crew; i++) {
        long c = crew[i];
        if (caps[c])
            ncap++;
        else if (cooks[c])
            ncook++;
        else if (!elig[c])
            return 0;
    }
    return ncap == 1 && ncook == 1;
}

/* ShipRules.best_ship: the launch value of master ``m``'s first best crew (in
 * combinations order of the usable cards) from the cards in ``cards``; with ``*holds``
 * set if that crew holds ``card``. Returns 0 when there is no legal crew. */
static int best_ship(const Encoder *e, long m, const unsigned char *cards, long card,
                     double *value, int *holds)
{
    long C = e->C, k = e->crew, np = 0;
    long pool[MAX_CARDS], idx[MAX_CREW], crew[MAX_CREW];
    const unsigned char *usable = e->sets[M_POOL] + m * C, *elig = e->sets[M_ELIG] + m * C;
    for (long c = 0; c < C; c++)
        if (cards[c] && usable[c])
            pool[np++] = c;
    if (np < k)
        return 0;
    int found = 0;
    for (long i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        int legal = 1, prize = 0;
        for (long i = 0; i < k; i++) {
            crew[i] = pool[idx[i]];
            legal &= elig[crew[i]] != 0;
        }
        if (e->prize[m]) {                          /* crew_ok: all eligible or a Prize Crew */
            prize = is_prize_crew(e, m, crew);
            legal |= prize;
        }
        if (legal) {
            double v = crew_worth(e, crew) + (prize ? 25.0 : 0.0);
            if (!found || v > *value) {
                found = 1;
                *value = v;
                *holds = 0;
                for (long i = 0; i < k; i++)
                    *holds |= crew[i] == card;
            }
        }
        long i = k - 1;                              /* next combination */
        while (i >= 0 && idx[i] == np - k + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (long j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
    if (found)
        *value = *value + 2.0 * (double)e->col[K_SAILS][m];   /* = launch_value */
    return found;
}

/* claim_outlook (only while the viewer is asked Aargh! about ``card``, the top discard). */
static int put_claim_outlook(const Encoder *e, float *x, PyObject *hand, long card)
{
    long C = e->C;
    unsigned char held[MAX_CARDS], full[MAX_CARDS];
    memset(held, 0, (size_t)C);
    Py_ssize_t nh = PyTuple_GET_SIZE(hand);          /* hand: checked by put_hands */
    for (Py_ssize_t i = 0; i < nh; i++)
        held[PyLong_AsLong(PyTuple_GET_ITEM(hand, i))] = 1;
    memcpy(full, held, (size_t)C);
    full[card] = 1;
    int before = 0, after = 0, after_holds = 0, holds;
    double before_v = 0.0, after_v = 0.0, v;
    long after_m = -1;
    for (Py_ssize_t i = 0; i <= nh; i++) {           /* the hand's cards, then the card */
        long m = i < nh ? PyLong_AsLong(PyTuple_GET_ITEM(hand, i)) : card;
        if (!e->col[K_IS_MASTER][m] || !best_ship(e, m, full, card, &v, &holds))
            continue;
        if (!after || v > after_v) {
            after = 1;
            after_v = v;
            after_m = m;
            after_holds = holds;
        }
        if (m != card) {
            /* the same ship without the card, unless that ship holds it */
            int ok = !holds || best_ship(e, m, held, card, &v, &holds);
            if (ok && (!before || v > before_v)) {
                before = 1;
                before_v = v;
            }
        }
    }
    double b = before_v / 50.0, a = after_v / 50.0;
    return (put(e, x, B_CLAIM_OUTLOOK, 0, before ? 1.0 : 0.0) < 0
            || put(e, x, B_CLAIM_OUTLOOK, 1, after ? 1.0 : 0.0) < 0
            || put(e, x, B_CLAIM_OUTLOOK, 2, before ? (2.0 < b ? 2.0 : b) : 0.0) < 0
            || put(e, x, B_CLAIM_OUTLOOK, 3, after ? (2.0 < a ? 2.0 : a) : 0.0) < 0
            || put(e, x, B_CLAIM_OUTLOOK, 4,
                   after && (card == after_m || after_holds) ? 1.0 : 0.0) < 0) ? -1 : 0;
}

/* ---- encode_into -------------------------------------------------------------------- */

static int encode(const Encoder *e, PyObject *view, float *x)
{
    long p, n, decision, actor, top, deck_size;
    unsigned char located[MAX_CARDS], tied[MAX_CARDS];
    if (ce_tuple(view, NUM_VIEW_FIELDS, "view") == NULL
            || ce_long(PyTuple_GET_ITEM(view, V_PLAYER), "player", &p) < 0
            || ce_long(PyTuple_GET_ITEM(view, V_NUM_PLAYERS), "num_players", &n) < 0)
        return -1;
    if (n != e->n) {
        PyErr_Format(PyExc_ValueError, "num_players: %ld, but this encoder's game has %ld",
                     n, e->n);
        return -1;
    }
    if (p < 0 || p >= n) {
        PyErr_Format(PyExc_ValueError, "player: seat %ld outside 0..%ld", p, n - 1);
        return -1;
    }
    memset(located, 0, (size_t)e->C);
    memset(tied, 0, (size_t)e->C);
    if (put_scores(e, x, view, p) < 0 || put_plunder(e, x, view, p, located) < 0
            || put_ships(e, x, view, p, located) < 0 || put_spied(e, x, view, p) < 0
            || put_turn(e, x, view, p, &decision, &actor) < 0
            || put_hands(e, x, view, p, located, tied) < 0
            || put_seats(e, x, view, V_CLAIM_QUEUE, B_CLAIM_QUEUE, p) < 0
            || put_seats(e, x, view, V_LAST_TURNS, B_LAST_TURNS, p) < 0
            || put_table(e, x, view, located, &top, &deck_size) < 0
            || put_unseen(e, x, view, located, tied, deck_size) < 0)
        return -1;
    if (decision == e->claim && actor == p && top >= 0)
        return put_claim_outlook(e, x, PyTuple_GET_ITEM(view, V_HAND), top);
    return 0;
}

static PyObject *Encoder_encode_into(Encoder *self, PyObject *args)
{
    PyObject *view, *out;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "OO:encode_into", &view, &out))
        return NULL;
    if (ce_out(out, self->size, &buf) < 0)
        return NULL;
    int rc = encode(self, view, (float *)buf.buf);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- construction ------------------------------------------------------------------- */

static void Encoder_clear(Encoder *self)
{
    Py_CLEAR(self->decisions);
    Py_CLEAR(self->phases);
    for (int k = 0; k < NUM_COLUMNS; k++) {
        PyMem_Free(self->col[k]);
        self->col[k] = NULL;
    }
    for (int k = 0; k < NUM_MASTER_SETS; k++) {
        PyMem_Free(self->sets[k]);
        self->sets[k] = NULL;
    }
    PyMem_Free(self->prize);
    self->prize = NULL;
}

static void Encoder_dealloc(Encoder *self)
{
    Encoder_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A tuple of str (the decision or phase names). */
static PyObject *str_tuple(PyObject *obj, const char *name)
{
    if (ce_tuple(obj, -1, name) == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(obj); k++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(obj, k))) {
            PyErr_Format(PyExc_TypeError, "%s: expected a tuple of str", name);
            return NULL;
        }
    Py_INCREF(obj);
    return obj;
}

/* The per-card columns (CARD_COLUMNS order); sets e->C. */
static int init_cards(Encoder *e, PyObject *cards)
{
    if (ce_tuple(cards, NUM_COLUMNS, "cards") == NULL)
        return -1;
    for (int k = 0; k < NUM_COLUMNS; k++) {
        Py_ssize_t len;
        e->col[k] = ce_longs_new(PyTuple_GET_ITEM(cards, k), CARD_NAMES[k], &len);
        if (e->col[k] == NULL)
            return -1;
        if (k == 0)
            e->C = (long)len;
        if (len != e->C || len < 1 || len > MAX_CARDS) {
            PyErr_Format(PyExc_ValueError, "cards: %s has %zd values (expected %ld, at most %d)",
                         CARD_NAMES[k], len, e->C, MAX_CARDS);
            return -1;
        }
    }
    for (long c = 0; c < e->C; c++)
        if (e->col[K_SUIT][c] < 0 || e->col[K_SUIT][c] >= 5 || e->col[K_RANK][c] < 0
                || e->col[K_RANK][c] >= 3) {
            PyErr_Format(PyExc_ValueError, "cards: card %ld has suit %ld / rank %ld outside "
                         "0..4 / 0..2", c, e->col[K_SUIT][c], e->col[K_RANK][c]);
            return -1;
        }
    return 0;
}

/* The layout blocks (LAYOUT_FIELDS order), each checked against the size encode needs. */
static int init_blocks(Encoder *e, PyObject *blocks)
{
    long n = e->n, C = e->C, S = e->S, nS = n * S;
    long want[NUM_BLOCKS] = {
        [B_DECISION] = (long)PyTuple_GET_SIZE(e->decisions), [B_MY_DECISION] = 1,
        [B_PHASE] = (long)PyTuple_GET_SIZE(e->phases), [B_ACTING_SEAT] = n, [B_TURN_SEAT] = n,
        [B_STARTER] = n, [B_HAND] = C, [B_HAND_SIZES] = n, [B_RESERVED] = n * C,
        [B_KNOWN_WITH] = n * C, [B_DISCARD_PILE] = C, [B_DISCARD_TOP] = C,
        [B_CLAIM_OUTLOOK] = 5, [B_DRAW_PILE_SIZE] = 1, [B_PILE_CANDIDATES] = C,
        [B_UNSEEN] = C, [B_SHIP_LAUNCHED] = nS, [B_SHIP_SUIT] = nS * 5,
        [B_SHIP_RANK] = nS * 3, [B_SHIP_IN_PLAY] = nS, [B_SHIP_KEEPER] = nS * (n + 1),
        [B_SHIP_CREW_COUNT] = nS, [B_SHIP_CREW_KNOWN] = nS, [B_SHIP_CREW] = nS * C,
        [B_SHIP_REVEALED] = nS, [B_SHIP_SPIED] = nS, [B_SHIP_SPIED_BY_OTHER] = nS,
        [B_PLUNDER_CARDS] = C, [B_PLUNDER_VALUE] = n, [B_LAUNCH_MASTER] = C,
        [B_LAUNCH_CREW] = C, [B_LAUNCH_COUNT] = 1, [B_LAUNCHED] = 1, [B_CLAIM_QUEUE] = n,
        [B_FIRST_FLEET] = n + 1, [B_LAST_TURNS] = n, [B_PASSED] = n, [B_FORCED] = 1,
        [B_SELECTED] = S, [B_SPIES_USED] = 1, [B_TOTALS] = n, [B_LAST_ROUND] = n,
        [B_ROUND] = 1,
    };
    if (ce_tuple(blocks, NUM_BLOCKS, "blocks") == NULL)
        return -1;
    for (int b = 0; b < NUM_BLOCKS; b++) {
        long se[2];
        if (ce_longs(PyTuple_GET_ITEM(blocks, b), 2, LAYOUT_NAMES[b], se) < 0)
            return -1;
        if (se[0] < 0 || se[1] > e->size || se[1] - se[0] != want[b]) {
            PyErr_Format(PyExc_ValueError, "blocks: %s is %ld..%ld; expected %ld values "
                         "within 0..%ld", LAYOUT_NAMES[b], se[0], se[1], want[b], e->size);
            return -1;
        }
        e->start[b] = se[0];
        e->len[b] = se[1] - se[0];
    }
    return 0;
}

/* The per-shipmaster card sets (MASTER_SETS order) and Prize Crew flags. */
static int init_masters(Encoder *e, PyObject *master_sets, PyObject *prize)
{
    long C = e->C;
    Py_ssize_t len;
    if (ce_tuple(master_sets, NUM_MASTER_SETS, "master_sets") == NULL)
        return -1;
    for (int k = 0; k < NUM_MASTER_SETS; k++) {
        PyObject *rows = ce_tuple(PyTuple_GET_ITEM(master_sets, k), C, MASTER_SET_NAMES[k]);
        if (rows == NULL)
            return -1;
        e->sets[k] = PyMem_Calloc((size_t)(C * C), 1);
        if (e->sets[k] == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (long m = 0; m < C; m++) {
            PyObject *row = ce_tuple(PyTuple_GET_ITEM(rows, m), -1, MASTER_SET_NAMES[k]);
            if (row == NULL)
                return -1;
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(row); i++) {
                long c;
                if (card_of(e, PyTuple_GET_ITEM(row, i), MASTER_SET_NAMES[k], &c) < 0)
                    return -1;
                e->sets[k][m * C + c] = 1;
            }
        }
    }
    long *flags = ce_longs_new(prize, "prize", &len);
    if (flags == NULL)
        return -1;
    e->prize = PyMem_Malloc((size_t)C);
    if (e->prize == NULL || len != C) {
        PyMem_Free(flags);
        if (e->prize == NULL)
            PyErr_NoMemory();
        else
            PyErr_Format(PyExc_ValueError, "prize: %zd values, expected %ld", len, C);
        return -1;
    }
    for (long c = 0; c < C; c++)
        e->prize[c] = flags[c] != 0;
    PyMem_Free(flags);
    return 0;
}

/* Encoder(n, ships_per_fleet, crew_per_ship, size, target_score, top, round_scale, blocks,
 *         decisions, phases, claim, cards, master_sets, prize)
 * blocks: (start, stop) per LAYOUT_FIELDS; cards: a column of C ints per CARD_COLUMNS;
 * master_sets: per MASTER_SETS, C tuples of card ids (one per card; empty unless it is a
 * shipmaster); prize: per card, whether it is an Admiral with Prize Crew parts. */
static int Encoder_init(Encoder *self, PyObject *args, PyObject *kwds)
{
    PyObject *blocks, *decisions, *phases, *claim, *cards, *master_sets, *prize;
    static char *kwlist[] = {"n", "ships_per_fleet", "crew_per_ship", "size", "target_score",
                             "top", "round_scale", "blocks", "decisions", "phases", "claim",
                             "cards", "master_sets", "prize", NULL};
    Encoder_clear(self);
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "llllldlOOOOOOO:Encoder", kwlist, &self->n, &self->S, &self->crew,
            &self->size, &self->target, &self->top, &self->round_scale, &blocks, &decisions,
            &phases, &claim, &cards, &master_sets, &prize))
        return -1;
    if (self->n < 1 || self->S < 1 || self->crew < 1 || self->crew > MAX_CREW
            || self->size < 0 || self->target < 1 || self->round_scale < 1) {
        PyErr_SetString(PyExc_ValueError, "Encoder: n, ships_per_fleet, crew_per_ship (at "
                        "most 16), target_score and round_scale must be positive");
        return -1;
    }
    if ((self->decisions = str_tuple(decisions, "decisions")) == NULL
            || (self->phases = str_tuple(phases, "phases")) == NULL
            || choice_of(claim, self->decisions, "claim", &self->claim) < 0
            || init_cards(self, cards) < 0 || init_blocks(self, blocks) < 0
            || init_masters(self, master_sets, prize) < 0)
        return -1;
    return 0;
}

static PyMethodDef Encoder_methods[] = {
    {"encode_into", (PyCFunction)Encoder_encode_into, METH_VARARGS,
     "encode_into(view, out): write the observation of ``view`` into ``out`` (a writable "
     "C-contiguous float32 vector of the layout's size)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.all_hands_battle._cencode.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled All Hands On Deck (battles) observation encoder of one game.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Encoder_init,
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_methods = Encoder_methods,
};

/* ---- the module ---------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cencode",
    "Compiled observation encoder of All Hands On Deck (battles): the C twin of "
    "observation.encode.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cencode(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_NAMES, NUM_VIEW_FIELDS},
        {"SHIP_FIELDS", SHIP_NAMES, NUM_SHIP_FIELDS},
        {"LAYOUT_FIELDS", LAYOUT_NAMES, NUM_BLOCKS},
        {"CARD_COLUMNS", CARD_NAMES, NUM_COLUMNS},
        {"MASTER_SETS", MASTER_SET_NAMES, NUM_MASTER_SETS},
    };
    return ce_module(&module, &EncoderType, names, 5);
}
