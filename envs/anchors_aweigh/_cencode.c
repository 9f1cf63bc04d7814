/* Anchors Aweigh! observation encoder, compiled: the C twin of observation.encode.
 *
 * ``Encoder(...)`` holds the game's constants, computed in Python by
 * observation.compiled_params (layout offsets, the card, cell and hand rows, the pirate
 * cards); ``encode_into(view, out)`` writes the whole observation of an
 * ``AnchorsAweighView`` into ``out`` (a float32 vector of the layout's size), the same
 * floats as the Python encoder, bit for bit. What it writes depends on nothing but the
 * view and those constants.
 *
 * It works in two passes, as the Python encoder. The public pass encodes the view's
 * public part ``pub`` alone, each per-seat value straight at its seat relative to the
 * observer (entry 0 the observer, entry r the seat r to the left); the observer's pass
 * then writes the observer's own blocks from the view's own fields. Values are computed
 * as the Python code does: doubles from int / int
 * rounded once to float32, float32 where it works in float32 (backs_left, unknown_tiles,
 * the queue's sums), float32 sums where it adds float32 parts (cargo_held, assets_seen).
 *
 * Views are read by position (VIEW_FIELDS, PUBLIC_FIELDS, BELOW_FIELDS name them; a test
 * checks them against the named tuples), every read is checked (TypeError naming the
 * field) and every index computed from view data is checked against its block's bounds
 * (ValueError), so a wrong view is an error, never a crash or a stray write.
 *
 * The cache: the seats deciding together (the loading phase) get views that share ONE
 * public part object, so the encoder keeps the last public pass with a strong reference
 * to its ``pub`` and, handed that same object again (pointer equality: held, it cannot be
 * freed and its address reused), copies it instead of running it again (copy_public
 * turns its per-seat blocks from the observer it was made for to the new one), then
 * runs the observer's pass. That is exact because the public pass reads nothing but
 * ``pub`` and the constants, the observer only choosing where per-seat values go, and
 * ``pub`` cannot change: every container it reads is checked to be a tuple, every number
 * to be an int (a pub read through another object's __index__ is not cached: pub_int),
 * and None is None. The copy writes every value of the output; the observer's blocks,
 * which the public pass leaves zero, are written over it as on a miss. A call made while
 * another runs (re-entered through an __index__) never writes the cache.
 * ``cache_hits`` and ``cache_misses`` count the calls.
 */
#include "cencode.h"
#include "structmember.h"

/* Fixed sizes of the game (components.py, view.py, observation.py); the constructor
 * checks them against the values the Python side passes in ``dims``. */
#define NUM_PHASES 8
#define NUM_SPACES 14         /* A1-A8, B1-B4, C1-C2 */
#define NUM_ABOVE 8           /* A1-A8: public */
#define NUM_KINDS 10          /* asset kinds, cannon..monkey */
#define NUM_LOOKS 20          /* kind * 2 + starfish */
#define NUM_COLOURS 4
#define NUM_BACKS 9
#define NUM_CELLS 27          /* ship cell / hand codes */
#define SF 22                 /* features of a ship space */
#define HF 13                 /* features of a hand */
#define CF 31                 /* features of a card */
#define BF 16                 /* features of a below deck */
#define NUM_OUTCOMES 6
#define STORAGE_FEATURE 18    /* a space's first "<colour> on storage" feature */
#define ROUND_CARDS 13        /* cards shown in round_cards */
#define NUM_STRENGTHS 3       /* pirate strengths 1..3 */
#define MAX_SEATS 16
#define MAX_PIRATES 256
#define MAX_CARDS 1024
#define CARD_TRADE (2 + NUM_COLOURS) /* a card_trade row: type, coins, cargo per colour */

static const long DIMS[] = {NUM_PHASES, NUM_SPACES, NUM_ABOVE, NUM_KINDS, NUM_COLOURS,
                            NUM_BACKS, NUM_CELLS, SF, HF, CF, BF, NUM_OUTCOMES,
                            STORAGE_FEATURE, ROUND_CARDS};
#define NUM_DIMS ((Py_ssize_t)(sizeof(DIMS) / sizeof(DIMS[0])))

/* ---- view fields, by position ------------------------------------------------------- */

enum { V_PLAYER, V_OWN_SHIP, V_OWN_STORAGE, V_OWN_HAND, V_OWN_SECRET, V_OWN_PENDING, V_PUB,
       V_COUNT };
static const char *VIEW_NAMES[V_COUNT] = {
    "player", "own_ship", "own_storage", "own_hand", "own_secret", "own_pending", "pub"};

enum { P_NUM_PLAYERS, P_ROUND, P_PHASE, P_TURNS, P_ACTING, P_CAPTAIN, P_ABOVE,
       P_ABOVE_STORAGE, P_BELOW, P_HANDS, P_COINS, P_CHESTS, P_PARROTS, P_MEDDLESOME,
       P_PILE_UP, P_PILE_DOWN, P_SUPPLY, P_CHEST_SUPPLY, P_PARROT_SUPPLY, P_FRONTS,
       P_FRONTS_HIDDEN, P_BACKS_LEFT, P_QUEUE, P_CURRENT, P_CURRENT_BACK, P_USED,
       P_ENCOUNTER, P_OUTCOME, P_DECIDED, P_CARGO_QUEUE, P_UNIT_COLOUR, P_CLEANSED, P_FULL,
       P_RETURNS, P_COUNT };
static const char *PUBLIC_NAMES[P_COUNT] = {
    "num_players", "round", "phase", "turns", "acting", "captain", "above",
    "above_storage", "below", "hands", "coins", "chests", "parrots", "meddlesome",
    "pile_up", "pile_down", "supply", "chest_supply", "parrot_supply", "fronts",
    "fronts_hidden", "backs_left", "queue", "current", "current_back", "used",
    "encounter", "outcome", "decided", "cargo_queue", "unit_colour", "cleansed", "full",
    "returns"};

enum { B_LOOKS, B_UNKNOWN, B_CARGO, B_COUNT };
static const char *BELOW_NAMES[B_COUNT] = {"looks", "unknown", "cargo"};

/* ---- layout fields: the constructor gets (start, width) of each, in this order ------- */

enum { F_PHASE, F_ROUND, F_ME_ACTING, F_FRONTS_VISIBLE, F_CAPTAIN_CALLED, F_PILE_UP,
       F_PILE_UP_STARFISH, F_PILE_DOWN, F_SUPPLY, F_CHEST_SUPPLY, F_PARROT_SUPPLY,
       F_CURRENT_CARD, F_CURRENT_BACK, F_ROUND_CARDS, F_ROUND_ASSET_NEEDS,
       F_ROUND_CARGO_NEEDS, F_BACKS_LEFT, F_QUEUE, F_QUEUE_NEXT, F_USED, F_UNIT,
       F_UNIT_COLOUR, F_UNIT_MINE, F_MY_UNITS_LEFT, F_OWN_SECRET, F_SHIPS, F_HANDS, F_FULL,
       F_CARGO_HELD, F_ASSETS_SEEN, F_UNKNOWN_TILES, F_BELOW_DECK, F_COINS, F_CHESTS,
       F_PARROTS, F_CAPTAIN, F_MEDDLESOME, F_ACTING, F_DECIDED, F_ENCOUNTER, F_OUTCOME,
       F_RETURNS, F_HELD_KIND, F_PIRATE_ODDS, F_ENCOUNTER_OUTLOOK, F_TRADE_OUTLOOK,
       F_COUNT };
static const char *LAYOUT_NAMES[F_COUNT] = {
    "phase", "round", "me_acting", "fronts_visible", "captain_called", "pile_up",
    "pile_up_starfish", "pile_down", "supply", "chest_supply", "parrot_supply",
    "current_card", "current_back", "round_cards", "round_asset_needs",
    "round_cargo_needs", "backs_left", "queue", "queue_next", "used", "unit",
    "unit_colour", "unit_mine", "my_units_left", "own_secret", "ships", "hands", "full",
    "cargo_held", "assets_seen", "unknown_tiles", "below_deck", "coins", "chests",
    "parrots", "captain", "meddlesome", "acting", "decided", "encounter", "outcome",
    "returns", "held_kind", "pirate_odds", "encounter_outlook", "trade_outlook"};

/* ---- the encoder object ------------------------------------------------------------ */

/* What the public pass keeps besides the vector: the public values the observer's own
 * blocks read, in absolute seat order. */
typedef struct {
    long hands[MAX_SEATS];            /* pub.hands: hand codes (range checked when used) */
    long units[MAX_SEATS];            /* cargo_queue entries per seat */
    long first_unit_seat;             /* seat of the first cargo_queue entry */
    Py_ssize_t nunits;                /* cargo_queue entries */
    long parrots[MAX_SEATS], coins[MAX_SEATS];
    long phase, back, current;        /* phase, current_back, current */
    char possible[MAX_PIRATES];       /* pirate cards one may still meet */
    long contracts[ROUND_CARDS];      /* the contract cards among the fronts shown */
    int ncontracts;
    int pure;                         /* every int read was an int (see pub_int) */
} Public;

typedef struct {
    PyObject_HEAD
    long n;                          /* players */
    Py_ssize_t size;                 /* layout size */
    long start[F_COUNT], width[F_COUNT];
    long ncards;
    float *cards;                    /* ncards x CF: card rows */
    long *card_asset_needs;          /* ncards x NUM_KINDS: tiles needed per kind */
    long *card_cargo_needs;          /* ncards x NUM_COLOURS: cargo needed per colour */
    float *cell;                     /* NUM_CELLS x SF: a ship cell code's features */
    float *hand;                     /* NUM_CELLS x HF: a hand code's features */
    long *cell_kind;                 /* NUM_CELLS: asset kind of a cell code, -1 none */
    long *cell_cargo;                /* NUM_CELLS: cargo colour of a cell code, -1 none */
    long cell_unknown, cell_tile;    /* codes: unseen tile; first tile look */
    long *card_trade;                /* ncards x CARD_TRADE: type, coins, cargo given per
                                      * colour (trade_outlook) */
    long npirates;
    long *pirate_id, *pirate_strength, *pirate_reward;
    long *pirate_needs;              /* npirates x NUM_KINDS */
    int rough_seas;
    long penalty;                    /* the rules' pirate penalty in coins */
    long encounter_phase;            /* engine phase id of "encounter or flee" */
    long pirates1_back;              /* back index of "pirates 1" */
    long decide_phase;               /* engine phase id of "resolve or skip" */
    long trade_type, contract_type;  /* card types */
    long returns_scale, returns_cap;
    int ready;                       /* constructed: encode_into may run */
    /* the cache (see the module comment) */
    PyObject *cached;                /* the public part last encoded, or NULL */
    long cached_me;                  /* the observer it was encoded for */
    float *pubvec;                   /* its public pass (size values, seat blocks relative
                                      * to cached_me) */
    Public pubaux;                   /* and its values for the observer's blocks */
    int busy;                        /* encode_into calls running (one may re-enter
                                      * through a view item's __index__) */
    Py_ssize_t hits, misses;         /* calls that reused the public pass, that ran it */
} Encoder;

/* out[field][i] = v, after checking that i lies in the field's block. */
static int put(const Encoder *e, float *o, int f, long i, float v, const char *what)
{
    if (i < 0 || i >= e->width[f]) {
        PyErr_Format(PyExc_ValueError, "%s: position %ld is outside %s (%ld values)",
                     what, i, LAYOUT_NAMES[f], e->width[f]);
        return -1;
    }
    o[e->start[f] + i] = v;
    return 0;
}

/* A value read from the view must lie in [lo, hi). */
static int in_range(long v, long lo, long hi, const char *name)
{
    if (v < lo || v >= hi) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is out of range [%ld, %ld)", name, v, lo, hi);
        return -1;
    }
    return 0;
}

/* Item i of a tuple as a long in [lo, hi). */
static int long_in(PyObject *tuple, Py_ssize_t i, long lo, long hi, const char *name,
                   long *v)
{
    if (ce_long_at(tuple, i, name, v) < 0)
        return -1;
    return in_range(*v, lo, hi, name);
}

/* A public field that is a tuple of ``len`` items (any when len < 0). */
static PyObject *pub_tuple(PyObject *pub, int field, Py_ssize_t len)
{
    return ce_tuple_at(pub, field, len, PUBLIC_NAMES[field]);
}

/* ---- reading the public part ----------------------------------------------------------
 * Every int of the public part is read through pub_int: ce_long, noting in a->pure
 * whether the object was an int. An int (or bool) cannot change; anything else is read
 * through its __index__, which may answer differently next time, so such a public part
 * is not cached. Containers are tuples (ce_tuple checks every one): they cannot change
 * either. */

static int pub_int(Public *a, PyObject *obj, const char *name, long *v)
{
    if (PyLong_Check(obj)) {                 /* the common case, without ce_long's float
                                              * check (PyType_IsSubtype for an int) */
        *v = PyLong_AsLong(obj);
        if (*v != -1 || !PyErr_Occurred())
            return 0;
        PyErr_Clear();                       /* too big: ce_long raises its error */
    }
    else
        a->pure = 0;
    return ce_long(obj, name, v);
}

/* Item i of a tuple as a long. */
static int pub_int_at(Public *a, PyObject *tuple, Py_ssize_t i, const char *name, long *v)
{
    PyObject *item = ce_item(tuple, i, name);
    return item == NULL ? -1 : pub_int(a, item, name, v);
}

/* Item i of a tuple as a long in [lo, hi). */
static int pub_int_in(Public *a, PyObject *tuple, Py_ssize_t i, long lo, long hi,
                      const char *name, long *v)
{
    if (pub_int_at(a, tuple, i, name, v) < 0)
        return -1;
    return in_range(*v, lo, hi, name);
}

/* The ``n`` items of a tuple of ints into ``dst`` (as ce_longs). */
static int pub_ints(Public *a, PyObject *obj, Py_ssize_t n, const char *name, long *dst)
{
    if (ce_tuple(obj, n, name) == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < n; k++)
        if (pub_int(a, PyTuple_GET_ITEM(obj, k), name, &dst[k]) < 0)
            return -1;
    return 0;
}

/* A public field that is an int. */
static int pub_long(Public *a, PyObject *pub, int field, long *v)
{
    return pub_int_at(a, pub, field, PUBLIC_NAMES[field], v);
}

/* The relative seat of absolute seat q for observer me. */
static inline long rel(const Encoder *e, long q, long me)
{
    return (q - me + e->n) % e->n;
}

/* ==== the public pass ====================================================================
 * Everything the public part shows, into a zeroed vector, each per-seat value at its seat
 * relative to ``me``. It reads nothing but ``pub`` and the encoder's constants (``me``
 * only places values) and writes no block of the observer's own (me_acting, unit_mine,
 * my_units_left, own_secret, hands, held_kind, pirate_odds, encounter_outlook, the
 * below-deck rows of ships); what those need of the public part goes to ``a``, in
 * absolute seat order. */

/* ---- phase, round, acting, captain ---------------------------------------------------- */

/* phase and round: one-hot. */
static int write_phase_round(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    long phase, round;
    if (pub_long(a, pub, P_PHASE, &phase) < 0 || pub_long(a, pub, P_ROUND, &round) < 0)
        return -1;
    if (put(e, o, F_PHASE, phase, 1.0f, "phase") < 0
            || put(e, o, F_ROUND, round - 1, 1.0f, "round") < 0)
        return -1;
    return 0;
}

/* acting (per relative seat; me_acting is the observer's). */
static int write_acting(const Encoder *e, PyObject *pub, long me, Public *a, float *o)
{
    PyObject *acting = pub_tuple(pub, P_ACTING, -1);
    if (acting == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(acting); k++) {
        long q;
        if (pub_int_in(a, acting, k, 0, e->n, "acting", &q) < 0)
            return -1;
        o[e->start[F_ACTING] + rel(e, q, me)] = 1.0f;
    }
    return 0;
}

/* captain_called and captain (per relative seat), once a captain has called. */
static int write_captain(const Encoder *e, PyObject *pub, long me, Public *a, float *o)
{
    long captain;
    if (pub_long(a, pub, P_CAPTAIN, &captain) < 0)
        return -1;
    if (captain < 0)
        return 0;
    if (in_range(captain, 0, e->n, "captain") < 0)
        return -1;
    o[e->start[F_CAPTAIN_CALLED]] = 1.0f;
    o[e->start[F_CAPTAIN] + rel(e, captain, me)] = 1.0f;
    return 0;
}

/* ---- the table: pile, supplies, cards ------------------------------------------------- */

/* pile_up (face-up tiles per kind / 9), pile_up_starfish (/ 2), pile_down (/ 84). */
static int write_pile(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    long looks[NUM_LOOKS], down;
    PyObject *pu = pub_tuple(pub, P_PILE_UP, NUM_LOOKS);
    if (pu == NULL || pub_ints(a, pu, NUM_LOOKS, "pile_up", looks) < 0
            || pub_long(a, pub, P_PILE_DOWN, &down) < 0)
        return -1;
    for (int k = 0; k < NUM_KINDS; k++) {
        long plain = looks[2 * k], star = looks[2 * k + 1];
        o[e->start[F_PILE_UP] + k] = (float)((double)(plain + star) / 9.0);
        o[e->start[F_PILE_UP_STARFISH] + k] = (float)((double)star / 2.0);
    }
    o[e->start[F_PILE_DOWN]] = (float)((double)down / 84.0);
    return 0;
}

/* supply (cargo per colour / 16), chest_supply (/ 18), parrot_supply (/ 3). */
static int write_supplies(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    long supply[NUM_COLOURS], chests, parrots;
    PyObject *sup = pub_tuple(pub, P_SUPPLY, NUM_COLOURS);
    if (sup == NULL || pub_ints(a, sup, NUM_COLOURS, "supply", supply) < 0
            || pub_long(a, pub, P_CHEST_SUPPLY, &chests) < 0
            || pub_long(a, pub, P_PARROT_SUPPLY, &parrots) < 0)
        return -1;
    for (int c = 0; c < NUM_COLOURS; c++)
        o[e->start[F_SUPPLY] + c] = (float)((double)supply[c] / 16.0);
    o[e->start[F_CHEST_SUPPLY]] = (float)((double)chests / 18.0);
    o[e->start[F_PARROT_SUPPLY]] = (float)((double)parrots / 3.0);
    return 0;
}

/* current_card (the revealed card's row) and current_back (one-hot, also unrevealed). */
static int write_current(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    long current, back;
    if (pub_long(a, pub, P_CURRENT, &current) < 0
            || pub_long(a, pub, P_CURRENT_BACK, &back) < 0)
        return -1;
    if (current >= 0) {
        if (in_range(current, 0, e->ncards, "current") < 0)
            return -1;
        memcpy(o + e->start[F_CURRENT_CARD], e->cards + current * CF, sizeof(float) * CF);
    }
    if (back >= 0 && put(e, o, F_CURRENT_BACK, back, 1.0f, "current_back") < 0)
        return -1;
    return 0;
}

/* fronts_visible and, while the fronts are shown, round_cards (the unrevealed cards'
 * rows in the view's order), round_asset_needs and round_cargo_needs (their needs summed,
 * / 8: whole counts, so exact in float32 as numpy sums them). Notes the contract cards
 * among them in ``a`` (none while hidden), for trade_outlook. */
static int write_fronts(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    a->ncontracts = 0;
    PyObject *fronts = ce_item(pub, P_FRONTS, "fronts");
    if (fronts == NULL)
        return -1;
    if (fronts == Py_None)
        return 0;
    if (ce_tuple(fronts, -1, "fronts") == NULL)
        return -1;
    o[e->start[F_FRONTS_VISIBLE]] = 1.0f;
    Py_ssize_t count = PyTuple_GET_SIZE(fronts);
    if (count > ROUND_CARDS) {
        PyErr_Format(PyExc_ValueError, "fronts: %zd cards, round_cards shows at most %d",
                     count, ROUND_CARDS);
        return -1;
    }
    long assets[NUM_KINDS] = {0}, cargo[NUM_COLOURS] = {0};
    for (Py_ssize_t j = 0; j < count; j++) {
        long id;
        if (pub_int_in(a, fronts, j, 0, e->ncards, "fronts", &id) < 0)
            return -1;
        memcpy(o + e->start[F_ROUND_CARDS] + j * CF, e->cards + id * CF, sizeof(float) * CF);
        if (e->card_trade[id * CARD_TRADE] == e->contract_type)
            a->contracts[a->ncontracts++] = id;
        for (int k = 0; k < NUM_KINDS; k++)
            assets[k] += e->card_asset_needs[id * NUM_KINDS + k];
        for (int c = 0; c < NUM_COLOURS; c++)
            cargo[c] += e->card_cargo_needs[id * NUM_COLOURS + c];
    }
    if (count > 0) {
        for (int k = 0; k < NUM_KINDS; k++)
            o[e->start[F_ROUND_ASSET_NEEDS] + k] = (float)assets[k] / 8.0f;
        for (int c = 0; c < NUM_COLOURS; c++)
            o[e->start[F_ROUND_CARGO_NEEDS] + c] = (float)cargo[c] / 8.0f;
    }
    return 0;
}

/* backs_left: cards per back / 13, divided in float32 (numpy float32 array / 13). */
static int write_backs_left(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    long backs[NUM_BACKS];
    PyObject *bl = pub_tuple(pub, P_BACKS_LEFT, NUM_BACKS);
    if (bl == NULL || pub_ints(a, bl, NUM_BACKS, "backs_left", backs) < 0)
        return -1;
    for (int b = 0; b < NUM_BACKS; b++)
        o[e->start[F_BACKS_LEFT] + b] = (float)backs[b] / 13.0f;
    return 0;
}

/* queue (contracts per featured colour / 13, as Python adds 1/13 in float32 once per
 * contract) and queue_next (one-hot colour of the first). */
static int write_queue(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    PyObject *queue = pub_tuple(pub, P_QUEUE, -1);
    if (queue == NULL)
        return -1;
    const float step = (float)(1.0 / 13.0);
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(queue); k++) {
        long c;
        if (pub_int_in(a, queue, k, 0, NUM_COLOURS, "queue", &c) < 0)
            return -1;
        float *slot = o + e->start[F_QUEUE] + c;
        *slot = *slot + step;
        if (k == 0)
            o[e->start[F_QUEUE_NEXT] + c] = 1.0f;
    }
    return 0;
}

/* used: 1 per card id revealed and gone. */
static int write_used(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    PyObject *used = pub_tuple(pub, P_USED, -1);
    if (used == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(used); k++) {
        long id;
        if (pub_int_at(a, used, k, "used", &id) < 0
                || put(e, o, F_USED, id, 1.0f, "used") < 0)
            return -1;
    }
    return 0;
}

/* unit (one-hot unit being handed out) and unit_colour; the cargo_queue entries per seat
 * and the first one's seat for unit_mine and my_units_left. */
static int write_units(const Encoder *e, PyObject *pub, Public *a, float *o)
{
    PyObject *cq = pub_tuple(pub, P_CARGO_QUEUE, -1);
    long colour;
    if (cq == NULL || pub_long(a, pub, P_UNIT_COLOUR, &colour) < 0)
        return -1;
    Py_ssize_t len = PyTuple_GET_SIZE(cq);
    a->nunits = len;
    a->first_unit_seat = -1;
    for (long q = 0; q < e->n; q++)
        a->units[q] = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        long seat_unit[2];
        PyObject *item = ce_tuple_at(cq, k, 2, "cargo_queue");
        if (item == NULL || pub_ints(a, item, 2, "cargo_queue", seat_unit) < 0)
            return -1;
        if (k == 0) {
            if (put(e, o, F_UNIT, seat_unit[1], 1.0f, "cargo_queue") < 0)
                return -1;
            a->first_unit_seat = seat_unit[0];
        }
        if (seat_unit[0] >= 0 && seat_unit[0] < e->n)     /* others are nobody's */
            a->units[seat_unit[0]]++;
    }
    if (colour >= 0 && put(e, o, F_UNIT_COLOUR, colour, 1.0f, "unit_colour") < 0)
        return -1;
    return 0;
}

/* ---- ships -------------------------------------------------------------------------- */

/* Per seat, everything its ship shows the table: ships (A1-A8 rows: the cell's
 * features, storage counts / 2), cargo_held (/ 8), assets_seen (/ 4), unknown_tiles
 * (/ 12 in float32) and below_deck (tiles per kind, starfish tiles, unseen tiles / 4,
 * cargo / 8). The Python code adds an above-deck part and a below-deck part in float32
 * (multiples of 1/8: exact), so do these. The observer's own below-deck rows, assets
 * and unknown tiles are replaced by write_own_ship. */
static int write_ships(const Encoder *e, PyObject *pub, long me, Public *a, float *o)
{
    PyObject *above = pub_tuple(pub, P_ABOVE, e->n);
    PyObject *storage = pub_tuple(pub, P_ABOVE_STORAGE, e->n);
    PyObject *below = pub_tuple(pub, P_BELOW, e->n);
    if (above == NULL || storage == NULL || below == NULL)
        return -1;
    for (long q = 0; q < e->n; q++) {
        long r = rel(e, q, me);
        long cargo[NUM_COLOURS] = {0}, kinds[NUM_KINDS] = {0}, unknown = 0;
        PyObject *cells = ce_tuple_at(above, q, NUM_ABOVE, "above");
        PyObject *stor = ce_tuple_at(storage, q, NUM_ABOVE, "above_storage");
        if (cells == NULL || stor == NULL)
            return -1;
        float *rows = o + e->start[F_SHIPS] + r * NUM_SPACES * SF;
        for (int s = 0; s < NUM_ABOVE; s++) {
            long code;
            if (pub_int_in(a, cells, s, 0, NUM_CELLS, "above", &code) < 0)
                return -1;
            memcpy(rows + s * SF, e->cell + code * SF, sizeof(float) * SF);
            if (e->cell_cargo[code] >= 0)
                cargo[e->cell_cargo[code]]++;
            if (e->cell_kind[code] >= 0)
                kinds[e->cell_kind[code]]++;
            unknown += code == e->cell_unknown;
            PyObject *colours = ce_tuple_at(stor, s, -1, "above_storage");
            if (colours == NULL)
                return -1;
            for (Py_ssize_t u = 0; u < PyTuple_GET_SIZE(colours); u++) {
                long c;
                if (pub_int_in(a, colours, u, 0, NUM_COLOURS, "above_storage", &c) < 0)
                    return -1;
                rows[s * SF + STORAGE_FEATURE + c] += 0.5f;
                cargo[c]++;
            }
        }
        /* below deck: what everyone knows of it */
        long looks[NUM_LOOKS], bcargo[NUM_COLOURS], bunknown;
        PyObject *bd = ce_tuple_at(below, q, B_COUNT, "below");
        if (bd == NULL)
            return -1;
        PyObject *lk = ce_tuple_at(bd, B_LOOKS, NUM_LOOKS, "below.looks");
        PyObject *bc = ce_tuple_at(bd, B_CARGO, NUM_COLOURS, "below.cargo");
        if (lk == NULL || bc == NULL || pub_ints(a, lk, NUM_LOOKS, "below.looks", looks) < 0
                || pub_ints(a, bc, NUM_COLOURS, "below.cargo", bcargo) < 0
                || pub_int_at(a, bd, B_UNKNOWN, "below.unknown", &bunknown) < 0)
            return -1;
        float *held = o + e->start[F_CARGO_HELD] + r * NUM_COLOURS;
        float *seen = o + e->start[F_ASSETS_SEEN] + r * NUM_KINDS;
        float *bdeck = o + e->start[F_BELOW_DECK] + r * BF;
        long stars = 0;
        for (int k = 0; k < NUM_KINDS; k++) {
            float tiles = (float)((double)(looks[2 * k] + looks[2 * k + 1]) / 4.0);
            bdeck[k] = tiles;
            seen[k] = (float)((double)kinds[k] / 4.0) + tiles;
            stars += looks[2 * k + 1];
        }
        bdeck[NUM_KINDS] = (float)((double)stars / 4.0);
        bdeck[NUM_KINDS + 1] = (float)((double)bunknown / 4.0);
        for (int c = 0; c < NUM_COLOURS; c++) {
            float below_c = (float)((double)bcargo[c] / 8.0);
            bdeck[NUM_KINDS + 2 + c] = below_c;
            held[c] = (float)((double)cargo[c] / 8.0) + below_c;
        }
        /* unseen tiles above and below / 12, looked up from float32 quotients */
        long unseen = unknown + bunknown;
        if (in_range(unseen, 0, 2 * NUM_SPACES, "below.unknown") < 0)
            return -1;
        o[e->start[F_UNKNOWN_TILES] + r] = (float)unseen / 12.0f;
    }
    return 0;
}

/* The hand codes everyone sees (hands is written with the observer's blocks, which may
 * show one's own tile instead). */
static int read_hands(const Encoder *e, PyObject *pub, Public *a)
{
    PyObject *hands = pub_tuple(pub, P_HANDS, e->n);
    if (hands == NULL)
        return -1;
    for (long q = 0; q < e->n; q++)
        if (pub_int_at(a, hands, q, "hands", &a->hands[q]) < 0)
            return -1;
    return 0;
}

/* ---- per-seat counts and flags ------------------------------------------------------ */

/* Per relative seat, ``field`` of the view as count / scale (capped at cap when cap > 0). */
static int write_seat_counts(const Encoder *e, PyObject *pub, long me, Public *a, float *o,
                             int field, int block, double scale, long cap)
{
    long v[MAX_SEATS];
    PyObject *t = pub_tuple(pub, field, e->n);
    if (t == NULL || pub_ints(a, t, e->n, PUBLIC_NAMES[field], v) < 0)
        return -1;
    for (long q = 0; q < e->n; q++) {
        long x = cap > 0 && v[q] > cap ? cap : v[q];
        o[e->start[block] + rel(e, q, me)] = (float)((double)x / scale);
    }
    return 0;
}

/* Per relative seat, ``field``'s flag: the value itself (full), or 1 if set (hot). */
static int write_seat_flags(const Encoder *e, PyObject *pub, long me, Public *a, float *o,
                            int field, int block, int hot)
{
    long v[MAX_SEATS];
    PyObject *t = pub_tuple(pub, field, e->n);
    if (t == NULL || pub_ints(a, t, e->n, PUBLIC_NAMES[field], v) < 0)
        return -1;
    for (long q = 0; q < e->n; q++)
        o[e->start[block] + rel(e, q, me)] = hot ? (v[q] != 0) : (float)v[q];
    return 0;
}

/* encounter ([encounters, fled] one-hot per relative seat that decided) and outcome
 * (one-hot last decision per relative seat). */
static int write_encounter_outcome(const Encoder *e, PyObject *pub, long me, Public *a,
                                   float *o)
{
    long enc[MAX_SEATS], out[MAX_SEATS];
    PyObject *te = pub_tuple(pub, P_ENCOUNTER, e->n);
    PyObject *to = pub_tuple(pub, P_OUTCOME, e->n);
    if (te == NULL || to == NULL || pub_ints(a, te, e->n, "encounter", enc) < 0
            || pub_ints(a, to, e->n, "outcome", out) < 0)
        return -1;
    for (long q = 0; q < e->n; q++) {
        long r = rel(e, q, me);
        if (enc[q] >= 0)
            o[e->start[F_ENCOUNTER] + 2 * r + (enc[q] == 1 ? 0 : 1)] = 1.0f;
        if (in_range(out[q], 0, NUM_OUTCOMES, "outcome") < 0)
            return -1;
        o[e->start[F_OUTCOME] + NUM_OUTCOMES * r + out[q]] = 1.0f;
    }
    return 0;
}

/* ---- pirates: what the table knows ------------------------------------------------- */

/* Which pirate cards one may still meet: this round's fronts while they are shown, else
 * every pirate card not used and not the current one. */
static int possible_pirates(const Encoder *e, PyObject *pub, Public *a, char *possible)
{
    PyObject *fronts = ce_item(pub, P_FRONTS, "fronts");
    if (fronts == NULL)
        return -1;
    int shown = fronts != Py_None;
    const char *name = shown ? "fronts" : "used";
    PyObject *known = shown ? ce_tuple(fronts, -1, name) : pub_tuple(pub, P_USED, -1);
    if (known == NULL)
        return -1;
    char listed[MAX_CARDS] = {0};                      /* card ids in ``known`` */
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(known); k++) {
        long id;
        if (pub_int_at(a, known, k, name, &id) < 0)
            return -1;
        if (id >= 0 && id < e->ncards)                 /* others are no pirate card */
            listed[id] = 1;
    }
    if (!shown) {
        long current;
        if (pub_long(a, pub, P_CURRENT, &current) < 0)
            return -1;
        if (current >= 0 && current < e->ncards)
            listed[current] = 1;
    }
    for (long i = 0; i < e->npirates; i++)
        possible[i] = listed[e->pirate_id[i]] == shown;
    return 0;
}

/* What write_pirates and write_trade need of the public part: parrots, coins, phase,
 * current_back, current and the possible pirate cards (write_fronts notes the contracts
 * shown). */
static int read_pirates(const Encoder *e, PyObject *pub, Public *a)
{
    PyObject *tp = pub_tuple(pub, P_PARROTS, e->n);
    PyObject *tc = pub_tuple(pub, P_COINS, e->n);
    if (tp == NULL || tc == NULL || pub_ints(a, tp, e->n, "parrots", a->parrots) < 0
            || pub_ints(a, tc, e->n, "coins", a->coins) < 0
            || pub_long(a, pub, P_PHASE, &a->phase) < 0
            || pub_long(a, pub, P_CURRENT_BACK, &a->back) < 0
            || pub_long(a, pub, P_CURRENT, &a->current) < 0)
        return -1;
    return possible_pirates(e, pub, a, a->possible);
}

/* The public pass for observer ``me``: ``o`` (size values) zeroed, then written as
 * above. */
static int public_pass(const Encoder *e, PyObject *pub, long me, Public *a, float *o)
{
    memset(o, 0, sizeof(float) * (size_t)e->size);
    a->pure = 1;
    if (write_phase_round(e, pub, a, o) < 0 || write_acting(e, pub, me, a, o) < 0
            || write_captain(e, pub, me, a, o) < 0 || write_pile(e, pub, a, o) < 0
            || write_supplies(e, pub, a, o) < 0 || write_current(e, pub, a, o) < 0
            || write_fronts(e, pub, a, o) < 0 || write_backs_left(e, pub, a, o) < 0
            || write_queue(e, pub, a, o) < 0 || write_used(e, pub, a, o) < 0
            || write_units(e, pub, a, o) < 0 || write_ships(e, pub, me, a, o) < 0
            || read_hands(e, pub, a) < 0
            || write_seat_flags(e, pub, me, a, o, P_FULL, F_FULL, 0) < 0
            || write_seat_counts(e, pub, me, a, o, P_COINS, F_COINS, 10.0, 0) < 0
            || write_seat_counts(e, pub, me, a, o, P_CHESTS, F_CHESTS, 8.0, 0) < 0
            || write_seat_counts(e, pub, me, a, o, P_PARROTS, F_PARROTS, 1.0, 0) < 0
            || write_seat_counts(e, pub, me, a, o, P_RETURNS, F_RETURNS,
                                 (double)e->returns_scale, e->returns_cap) < 0
            || write_seat_flags(e, pub, me, a, o, P_MEDDLESOME, F_MEDDLESOME, 1) < 0
            || write_seat_flags(e, pub, me, a, o, P_DECIDED, F_DECIDED, 1) < 0
            || write_encounter_outcome(e, pub, me, a, o) < 0 || read_pirates(e, pub, a) < 0)
        return -1;
    return 0;
}

/* ==== the observer's pass ================================================================
 * The observer's own blocks, written over a public pass for that observer, from the
 * view's own fields and the public pass's values in ``a``: nothing here reads ``pub``. */

/* The blocks of one entry per seat the public pass writes (n equal parts, one per
 * relative seat). */
static const int SEAT_BLOCKS[] = {
    F_SHIPS, F_FULL, F_CARGO_HELD, F_ASSETS_SEEN, F_UNKNOWN_TILES, F_BELOW_DECK, F_COINS,
    F_CHESTS, F_PARROTS, F_CAPTAIN, F_MEDDLESOME, F_ACTING, F_DECIDED, F_ENCOUNTER,
    F_OUTCOME, F_RETURNS};
#define NUM_SEAT_BLOCKS ((int)(sizeof(SEAT_BLOCKS) / sizeof(SEAT_BLOCKS[0])))

/* ``o`` = a public pass ``pv`` made for another observer, seat d to the left of that one
 * (d > 0) or the same one (d = 0): every seat block's entry r becomes ``pv``'s entry
 * (r + d) mod n, so entries d..n-1 come first, then entries 0..d-1. Writes all of
 * ``o``: the exact public pass of the new observer, as its values do not depend on the
 * observer but for their place. */
static void copy_public(const Encoder *e, const float *pv, long d, float *o)
{
    memcpy(o, pv, sizeof(float) * (size_t)e->size);
    if (d == 0)
        return;
    for (int b = 0; b < NUM_SEAT_BLOCKS; b++) {
        int f = SEAT_BLOCKS[b];
        size_t part = (size_t)(e->width[f] / e->n);        /* one seat's values */
        size_t head = (size_t)(e->n - d) * part, tail = (size_t)d * part;
        memcpy(o + e->start[f], pv + e->start[f] + tail, sizeof(float) * head);
        memcpy(o + e->start[f] + head, pv + e->start[f], sizeof(float) * tail);
    }
}

/* The observer's own ship (relative seat 0): its below-deck rows B1-C2 (cell features,
 * storage / 2), assets_seen as every own tile per kind / 4, and 0 unknown tiles. Counts
 * its tiles per kind into ``kinds`` (for the pirate fields). */
static int write_own_ship(const Encoder *e, PyObject *view, float *o, long *kinds)
{
    PyObject *cells = ce_tuple_at(view, V_OWN_SHIP, NUM_SPACES, "own_ship");
    PyObject *stor = ce_tuple_at(view, V_OWN_STORAGE, NUM_SPACES, "own_storage");
    if (cells == NULL || stor == NULL)
        return -1;
    for (int k = 0; k < NUM_KINDS; k++)
        kinds[k] = 0;
    float *rows = o + e->start[F_SHIPS];
    for (int s = 0; s < NUM_SPACES; s++) {
        long code;
        if (long_in(cells, s, 0, NUM_CELLS, "own_ship", &code) < 0)
            return -1;
        if (e->cell_kind[code] >= 0)
            kinds[e->cell_kind[code]]++;
        if (s < NUM_ABOVE)          /* above deck: the public rows */
            continue;
        memcpy(rows + s * SF, e->cell + code * SF, sizeof(float) * SF);
        PyObject *colours = ce_tuple_at(stor, s, -1, "own_storage");
        if (colours == NULL)
            return -1;
        for (Py_ssize_t u = 0; u < PyTuple_GET_SIZE(colours); u++) {
            long c;
            if (long_in(colours, u, 0, NUM_COLOURS, "own_storage", &c) < 0)
                return -1;
            rows[s * SF + STORAGE_FEATURE + c] += 0.5f;
        }
    }
    for (int k = 0; k < NUM_KINDS; k++)
        o[e->start[F_ASSETS_SEEN] + k] = (float)kinds[k] / 4.0f;
    o[e->start[F_UNKNOWN_TILES]] = 0.0f;
    return 0;
}

/* A hand code's features into a hands row. */
static int hand_row(const Encoder *e, float *row, long code, const char *name)
{
    if (in_range(code, 0, NUM_CELLS, name) < 0)
        return -1;
    memcpy(row, e->hand + code * HF, sizeof(float) * HF);
    return 0;
}

/* hands (per relative seat, as the others see them; one's own tile when it is a secret
 * the others have not seen), own_secret (the flags, when any is set) and held_kind
 * (one-hot kind of one's own tile). */
static int write_hands(const Encoder *e, PyObject *view, const Public *a, long me,
                       float *o)
{
    PyObject *secret = ce_tuple_at(view, V_OWN_SECRET, NUM_SPACES + 1, "own_secret");
    long own_hand, flags[NUM_SPACES + 1];
    if (secret == NULL || ce_longs(secret, NUM_SPACES + 1, "own_secret", flags) < 0
            || ce_long_at(view, V_OWN_HAND, "own_hand", &own_hand) < 0)
        return -1;
    for (long q = 0; q < e->n; q++) {
        long code = q == me && flags[NUM_SPACES] ? own_hand : a->hands[q];
        if (hand_row(e, o + e->start[F_HANDS] + rel(e, q, me) * HF, code, "hands") < 0)
            return -1;
    }
    int any = 0;
    for (int s = 0; s <= NUM_SPACES; s++)
        any |= flags[s] != 0;
    if (any)
        for (int s = 0; s <= NUM_SPACES; s++)
            o[e->start[F_OWN_SECRET] + s] = (float)flags[s];
    long look = own_hand - e->cell_tile;         /* kind * 2 + starfish, for a tile */
    if (look >= 0 && look < NUM_LOOKS)
        o[e->start[F_HELD_KIND] + look / 2] = 1.0f;
    return 0;
}

/* Per pirate card, the tiles a ship with ``kinds`` lacks for it. */
static void pirate_shortfalls(const Encoder *e, const long *kinds, long *short_)
{
    for (long i = 0; i < e->npirates; i++) {
        long s = 0;
        for (int k = 0; k < NUM_KINDS; k++) {
            long lack = e->pirate_needs[i * NUM_KINDS + k] - kinds[k];
            s += lack > 0 ? lack : 0;
        }
        short_[i] = s;
    }
}

/* pirate_odds (per strength, the share of possible pirate cards one's ship resolves
 * now, the parrot and wild monkeys standing in) and, while one must encounter or flee,
 * encounter_outlook (share, mean reward / 10, the failure's cost / 3). Reads one's own
 * cargo_held, which ``o`` already holds. */
static void write_pirates(const Encoder *e, const Public *a, long me, int me_acts,
                          const long *kinds, float *o)
{
    long extra = a->parrots[me] > 0;                  /* stand-ins: the parrot */
    if (e->rough_seas)
        extra += kinds[NUM_KINDS - 1];                /* and wild monkeys */
    const char *possible = a->possible;
    long short_[MAX_PIRATES];
    pirate_shortfalls(e, kinds, short_);
    for (long s = 1; s <= NUM_STRENGTHS; s++) {
        long count = 0, won = 0;
        for (long i = 0; i < e->npirates; i++)
            if (possible[i] && e->pirate_strength[i] == s) {
                count++;
                won += short_[i] <= extra;
            }
        o[e->start[F_PIRATE_ODDS] + s - 1] = count ? (float)((double)won / (double)count)
                                                   : 0.0f;
    }
    if (a->phase != e->encounter_phase || !me_acts)
        return;
    long strength = a->back - e->pirates1_back + 1, count = 0, won = 0, reward = 0;
    for (long i = 0; i < e->npirates; i++)
        if (possible[i] && e->pirate_strength[i] == strength) {
            count++;
            if (short_[i] <= extra) {
                won++;
                reward += e->pirate_reward[i];
            }
        }
    int has_cargo = 0;                                 /* own cargo_held, any nonzero */
    for (int c = 0; c < NUM_COLOURS; c++)
        has_cargo |= o[e->start[F_CARGO_HELD] + c] != 0.0f;
    long pay = e->penalty < a->coins[me] ? e->penalty : a->coins[me];
    float *out = o + e->start[F_ENCOUNTER_OUTLOOK];
    out[0] = count ? (float)((double)won / (double)count) : 0.0f;
    out[1] = count ? (float)((double)reward / (double)count / 10.0) : 0.0f;
    out[2] = (float)((double)(pay + has_cargo) / 3.0);
}

/* The value of ``cargo`` (units per colour) given ``n`` contract cards (cargo_value in
 * observation.py): its units plus the best net gain (coins less the cargo paid) of a set
 * of them that it pays for together; -1 if a count is negative. */
static long cargo_value(const Encoder *e, const long *cargo, const long *contracts, int n)
{
    long units = 0, best = 0;
    for (int c = 0; c < NUM_COLOURS; c++) {
        if (cargo[c] < 0)
            return -1;
        units += cargo[c];
    }
    for (long set = 1; set < (1L << n); set++) {
        long need[NUM_COLOURS] = {0}, gain = 0;
        int payable = 1;
        for (int j = 0; j < n; j++)
            if (set >> j & 1) {
                long id = contracts[j];
                gain += e->card_trade[id * CARD_TRADE + 1];
                for (int c = 0; c < NUM_COLOURS; c++) {
                    need[c] += e->card_cargo_needs[id * NUM_COLOURS + c];
                    gain -= e->card_cargo_needs[id * NUM_COLOURS + c];
                }
            }
        for (int c = 0; c < NUM_COLOURS; c++)
            payable &= need[c] <= cargo[c];
        if (payable && gain > best)
            best = gain;
    }
    return units + best;
}

/* trade_outlook, while one must resolve or skip a trade or contract that one's cargo
 * pays for: [gain / 10, loss / 10, 1 if no loss] of resolving it. Reads one's own
 * cargo_held, which ``o`` already holds. */
static void write_trade(const Encoder *e, const Public *a, int me_acts, float *o)
{
    if (a->phase != e->decide_phase || !me_acts || a->current < 0
            || a->current >= e->ncards)
        return;
    const long *card = e->card_trade + a->current * CARD_TRADE;
    if (card[0] != e->trade_type && card[0] != e->contract_type)
        return;
    long cargo[NUM_COLOURS], after[NUM_COLOURS];
    for (int c = 0; c < NUM_COLOURS; c++) {       /* multiples of 1/8: exact */
        cargo[c] = (long)(o[e->start[F_CARGO_HELD] + c] * 8.0f + 0.5f);
        after[c] = cargo[c] - e->card_cargo_needs[a->current * NUM_COLOURS + c]
                   + card[2 + c];
    }
    long value_after = cargo_value(e, after, a->contracts, a->ncontracts);
    if (value_after < 0)                          /* it cannot pay: nothing to weigh */
        return;
    long gain = card[1] + value_after - cargo_value(e, cargo, a->contracts, a->ncontracts);
    float *out = o + e->start[F_TRADE_OUTLOOK];
    out[0] = gain > 0 ? (float)((double)gain / 10.0) : 0.0f;
    out[1] = gain < 0 ? (float)((double)-gain / 10.0) : 0.0f;
    out[2] = gain >= 0 ? 1.0f : 0.0f;
}

/* The observation of seat ``me`` from ``o``, the public pass of its view's pub for
 * ``me``, and that pass's values ``a``. */
static int observer_pass(const Encoder *e, PyObject *view, long me, const Public *a,
                         float *o)
{
    long kinds[NUM_KINDS];
    int me_acts = o[e->start[F_ACTING]] != 0.0f;       /* relative seat 0 acts */
    if (me_acts)
        o[e->start[F_ME_ACTING]] = 1.0f;
    if (a->nunits > 0) {                               /* unit_mine, my_units_left */
        if (a->first_unit_seat == me)
            o[e->start[F_UNIT_MINE]] = 1.0f;
        o[e->start[F_MY_UNITS_LEFT]] = (float)((double)a->units[me] / 8.0);
    }
    if (write_own_ship(e, view, o, kinds) < 0 || write_hands(e, view, a, me, o) < 0)
        return -1;
    write_pirates(e, a, me, me_acts, kinds, o);
    write_trade(e, a, me_acts, o);
    return 0;
}

/* ---- encode_into -------------------------------------------------------------------- */

static int encode(Encoder *self, PyObject *view, float *o)
{
    const Encoder *e = self;
    if (ce_tuple(view, V_COUNT, "view") == NULL)
        return -1;
    PyObject *pub = ce_tuple_at(view, V_PUB, P_COUNT, "pub");
    long me, n;
    if (pub == NULL || long_in(view, V_PLAYER, 0, e->n, "player", &me) < 0
            || ce_long_at(pub, P_NUM_PLAYERS, "num_players", &n) < 0)
        return -1;
    if (n != e->n) {
        PyErr_Format(PyExc_ValueError, "num_players: %ld, the encoder's game has %ld", n,
                     e->n);
        return -1;
    }
    int rc;
    if (pub == self->cached) {                         /* the same public part again */
        self->hits++;
        self->busy++;
        copy_public(e, self->pubvec, (me - self->cached_me + e->n) % e->n, o);
        rc = observer_pass(e, view, me, &self->pubaux, o);
        self->busy--;
        return rc;
    }
    self->misses++;
    if (self->busy) {                    /* re-entered: the cache is in use, leave it */
        Public a;
        rc = public_pass(e, pub, me, &a, o);
        return rc < 0 ? rc : observer_pass(e, view, me, &a, o);
    }
    self->busy++;
    PyObject *old = self->cached;                      /* released once done: its */
    self->cached = NULL;                               /* finalizers may run code */
    rc = public_pass(e, pub, me, &self->pubaux, o);
    if (rc == 0 && self->pubaux.pure) {  /* no Python code ran: ``o`` holds the pass */
        memcpy(self->pubvec, o, sizeof(float) * (size_t)e->size);
        self->cached_me = me;
        Py_INCREF(pub);
        self->cached = pub;
    }
    if (rc == 0)
        rc = observer_pass(e, view, me, &self->pubaux, o);
    self->busy--;
    Py_XDECREF(old);
    return rc;
}

/* Acquire ``out`` as a writable C-contiguous float32 vector of exactly ``size`` values
 * (ce_out without its zeroing: the public pass zeroes it, copy_public writes all of it).
 * Release with PyBuffer_Release. */
static int out_vector(PyObject *out, Py_ssize_t size, Py_buffer *buf)
{
    if (PyObject_GetBuffer(out, buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (buf->itemsize != 4 || buf->format == NULL || strcmp(buf->format, "f") != 0
            || buf->len != size * 4) {
        PyErr_Format(PyExc_ValueError,
                     "out must be a float32 vector of %zd values (got format %s, %zd bytes)",
                     size, buf->format ? buf->format : "?", buf->len);
        PyBuffer_Release(buf);
        return -1;
    }
    return 0;
}

static PyObject *Encoder_encode_into(Encoder *self, PyObject *args)
{
    PyObject *view, *out;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "OO:encode_into", &view, &out))
        return NULL;
    if (!self->ready) {
        PyErr_SetString(PyExc_TypeError, "Encoder: not initialised");
        return NULL;
    }
    if (out_vector(out, self->size, &buf) < 0)
        return NULL;
    int rc = encode(self, view, (float *)buf.buf);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- construction ------------------------------------------------------------------- */

/* A constructor table of exactly ``len`` ints / numbers into *dst (cencode.h). */
static int table_longs(PyObject *seq, Py_ssize_t len, const char *name, long **dst)
{
    return (*dst = ce_longs_exact(seq, len, name)) == NULL ? -1 : 0;
}

/* A table of ``n`` doubles as float32, the values the encoder writes (converted once
 * here rather than at every write: the same floats). Frees ``t``; NULL on failure. */
static float *floats_of(double *t, Py_ssize_t n)
{
    if (t == NULL)
        return NULL;
    float *f = PyMem_Malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    if (f == NULL)
        PyErr_NoMemory();
    else
        for (Py_ssize_t k = 0; k < n; k++)
            f[k] = (float)t[k];
    PyMem_Free(t);
    return f;
}

static int table_floats(PyObject *seq, Py_ssize_t len, const char *name, float **dst)
{
    return (*dst = floats_of(ce_doubles_exact(seq, len, name), len)) == NULL ? -1 : 0;
}

/* Each layout field's expected width for n players and ncards cards. */
static long expected_width(int f, long n, long ncards)
{
    switch (f) {
    case F_PHASE: return NUM_PHASES;
    case F_ROUND: return 2;
    case F_PILE_UP: case F_PILE_UP_STARFISH: case F_HELD_KIND: return NUM_KINDS;
    case F_SUPPLY: case F_UNIT_COLOUR: case F_QUEUE: case F_QUEUE_NEXT:
    case F_ROUND_CARGO_NEEDS: return NUM_COLOURS;
    case F_ROUND_ASSET_NEEDS: return NUM_KINDS;
    case F_CURRENT_CARD: return CF;
    case F_CURRENT_BACK: case F_BACKS_LEFT: return NUM_BACKS;
    case F_ROUND_CARDS: return ROUND_CARDS * CF;
    case F_USED: return ncards;
    case F_UNIT: return NUM_COLOURS + 1;
    case F_OWN_SECRET: return NUM_SPACES + 1;
    case F_SHIPS: return n * NUM_SPACES * SF;
    case F_HANDS: return n * HF;
    case F_CARGO_HELD: return n * NUM_COLOURS;
    case F_ASSETS_SEEN: return n * NUM_KINDS;
    case F_BELOW_DECK: return n * BF;
    case F_ENCOUNTER: return 2 * n;
    case F_OUTCOME: return NUM_OUTCOMES * n;
    case F_FULL: case F_UNKNOWN_TILES: case F_COINS: case F_CHESTS: case F_PARROTS:
    case F_CAPTAIN: case F_MEDDLESOME: case F_ACTING: case F_DECIDED: case F_RETURNS:
        return n;
    case F_PIRATE_ODDS: case F_ENCOUNTER_OUTLOOK: return NUM_STRENGTHS;
    case F_TRADE_OUTLOOK: return 3;
    default: return 1;
    }
}

static int Encoder_traverse(Encoder *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cached);
    return 0;
}

static int Encoder_clear(Encoder *self)
{
    Py_CLEAR(self->cached);
    return 0;
}

static void Encoder_dealloc(Encoder *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->cached);
    PyMem_Free(self->pubvec);
    PyMem_Free(self->cards);
    PyMem_Free(self->card_asset_needs);
    PyMem_Free(self->card_cargo_needs);
    PyMem_Free(self->card_trade);
    PyMem_Free(self->cell);
    PyMem_Free(self->hand);
    PyMem_Free(self->cell_kind);
    PyMem_Free(self->cell_cargo);
    PyMem_Free(self->pirate_id);
    PyMem_Free(self->pirate_strength);
    PyMem_Free(self->pirate_reward);
    PyMem_Free(self->pirate_needs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Encoder(dims, num_players, size, fields, cards, card_asset_needs, card_cargo_needs,
 *         card_trade, cell, hand, cell_kind, cell_cargo, codes, pirate_id,
 *         pirate_strength, pirate_needs, pirate_reward, rules): see
 *         observation.compiled_params. */
static int Encoder_init(Encoder *self, PyObject *args, PyObject *kwds)
{
    PyObject *dims, *fields, *cards, *asset_needs, *cargo_needs, *card_trade, *cell, *hand,
        *cell_kind, *cell_cargo, *codes, *pid, *pstrength, *pneeds, *preward, *rules;
    long dim[NUM_DIMS], code[2], rule[9];
    if (kwds != NULL && PyDict_Size(kwds) > 0) {
        PyErr_SetString(PyExc_TypeError, "Encoder takes no keyword arguments");
        return -1;
    }
    if (self->ready || self->cards != NULL) {
        PyErr_SetString(PyExc_TypeError, "Encoder: already initialised");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OlnOOOOOOOOOOOOOOO:Encoder", &dims, &self->n, &self->size,
                          &fields, &cards, &asset_needs, &cargo_needs, &card_trade, &cell,
                          &hand, &cell_kind, &cell_cargo, &codes, &pid, &pstrength, &pneeds,
                          &preward, &rules))
        return -1;
    if (ce_longs(dims, NUM_DIMS, "dims", dim) < 0 || ce_longs(codes, 2, "codes", code) < 0
            || ce_longs(rules, 9, "rules", rule) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < NUM_DIMS; k++)
        if (dim[k] != DIMS[k]) {
            PyErr_Format(PyExc_ValueError, "dims[%zd] is %ld, this module was built for %ld",
                         k, dim[k], DIMS[k]);
            return -1;
        }
    if (self->n < 1 || self->n > MAX_SEATS) {
        PyErr_Format(PyExc_ValueError, "num_players: %ld, at most %d", self->n, MAX_SEATS);
        return -1;
    }
    Py_ssize_t ncards;                        /* any number of rows of CF values */
    double *card_rows = ce_doubles_new(cards, "cards", &ncards);
    if (card_rows == NULL || (self->cards = floats_of(card_rows, ncards)) == NULL)
        return -1;
    if (ncards % CF != 0) {
        PyErr_Format(PyExc_ValueError, "cards: %zd values, not rows of %d", ncards, CF);
        return -1;
    }
    self->ncards = (long)(ncards / CF);
    if (self->ncards > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "cards: %ld cards, at most %d", self->ncards,
                     MAX_CARDS);
        return -1;
    }
    /* layout offsets: each field's start and width, checked against what is written */
    PyObject *fl = ce_tuple(fields, F_COUNT, "fields");
    if (fl == NULL)
        return -1;
    for (int f = 0; f < F_COUNT; f++) {
        long sw[2];
        PyObject *item = ce_tuple_at(fl, f, 2, LAYOUT_NAMES[f]);
        if (item == NULL || ce_longs(item, 2, LAYOUT_NAMES[f], sw) < 0)
            return -1;
        long want = expected_width(f, self->n, self->ncards);
        if (sw[1] != want || sw[0] < 0 || sw[0] + sw[1] > self->size) {
            PyErr_Format(PyExc_ValueError, "fields: %s at %ld, %ld wide (expected %ld wide "
                         "within %zd values)", LAYOUT_NAMES[f], sw[0], sw[1], want,
                         self->size);
            return -1;
        }
        self->start[f] = sw[0];
        self->width[f] = sw[1];
    }
    for (int f = 0; f < F_COUNT; f++)            /* disjoint: the passes' blocks are */
        for (int g = f + 1; g < F_COUNT; g++)
            if (self->start[f] < self->start[g] + self->width[g]
                    && self->start[g] < self->start[f] + self->width[f]) {
                PyErr_Format(PyExc_ValueError, "fields: %s and %s overlap", LAYOUT_NAMES[f],
                             LAYOUT_NAMES[g]);
                return -1;
            }
    if (table_longs(asset_needs, self->ncards * NUM_KINDS, "card_asset_needs",
                    &self->card_asset_needs) < 0
            || table_longs(cargo_needs, self->ncards * NUM_COLOURS, "card_cargo_needs",
                           &self->card_cargo_needs) < 0
            || table_longs(card_trade, self->ncards * CARD_TRADE, "card_trade",
                           &self->card_trade) < 0
            || table_floats(cell, NUM_CELLS * SF, "cell", &self->cell) < 0
            || table_floats(hand, NUM_CELLS * HF, "hand", &self->hand) < 0
            || table_longs(cell_kind, NUM_CELLS, "cell_kind", &self->cell_kind) < 0
            || table_longs(cell_cargo, NUM_CELLS, "cell_cargo", &self->cell_cargo) < 0)
        return -1;
    for (int c = 0; c < NUM_CELLS; c++)
        if (in_range(self->cell_kind[c], -1, NUM_KINDS, "cell_kind") < 0
                || in_range(self->cell_cargo[c], -1, NUM_COLOURS, "cell_cargo") < 0)
            return -1;
    self->cell_unknown = code[0];
    self->cell_tile = code[1];
    Py_ssize_t np_;
    self->pirate_id = ce_longs_new(pid, "pirate_id", &np_);
    if (self->pirate_id == NULL)
        return -1;
    if (np_ > MAX_PIRATES) {
        PyErr_Format(PyExc_ValueError, "pirate_id: %zd cards, at most %d", np_, MAX_PIRATES);
        return -1;
    }
    self->npirates = (long)np_;
    for (long i = 0; i < self->npirates; i++)
        if (in_range(self->pirate_id[i], 0, self->ncards, "pirate_id") < 0)
            return -1;
    if (table_longs(pstrength, np_, "pirate_strength", &self->pirate_strength) < 0
            || table_longs(pneeds, np_ * NUM_KINDS, "pirate_needs", &self->pirate_needs) < 0
            || table_longs(preward, np_, "pirate_reward", &self->pirate_reward) < 0)
        return -1;
    self->rough_seas = rule[0] != 0;
    self->penalty = rule[1];
    self->encounter_phase = rule[2];
    self->pirates1_back = rule[3];
    self->returns_scale = rule[4];
    self->returns_cap = rule[5];
    self->decide_phase = rule[6];
    self->trade_type = rule[7];
    self->contract_type = rule[8];
    if (self->returns_scale <= 0) {
        PyErr_SetString(PyExc_ValueError, "rules: the returns scale must be positive");
        return -1;
    }
    self->pubvec = PyMem_Malloc(sizeof(float) * (size_t)(self->size > 0 ? self->size : 1));
    if (self->pubvec == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static PyMethodDef Encoder_methods[] = {
    {"encode_into", (PyCFunction)Encoder_encode_into, METH_VARARGS,
     "encode_into(view, out): write the observation of ``view`` into ``out`` (a "
     "C-contiguous float32 vector of the layout's size); returns None."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Encoder_members[] = {
    {"cache_hits", T_PYSSIZET, offsetof(Encoder, hits), READONLY,
     "calls that reused the public pass of the same pub object"},
    {"cache_misses", T_PYSSIZET, offsetof(Encoder, misses), READONLY,
     "calls that ran the public pass"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.anchors_aweigh._cencode.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The Anchors Aweigh! observation encoder of one game (see the module).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Encoder_init,
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_traverse = (traverseproc)Encoder_traverse,
    .tp_clear = (inquiry)Encoder_clear,
    .tp_methods = Encoder_methods,
    .tp_members = Encoder_members,
};

/* ---- module ------------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cencode",
    "Anchors Aweigh! observation encoder, compiled (the twin of observation.encode).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cencode(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_NAMES, V_COUNT},
        {"PUBLIC_FIELDS", PUBLIC_NAMES, P_COUNT},
        {"BELOW_FIELDS", BELOW_NAMES, B_COUNT},
        {"LAYOUT_FIELDS", LAYOUT_NAMES, F_COUNT},
    };
    return ce_module(&module, &EncoderType, names, 4);
}
