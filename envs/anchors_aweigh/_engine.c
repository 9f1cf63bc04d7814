/* Anchors Aweigh!'s compiled engine: the state, the rules, the view, the encoder and the
 * JSON round trip in one module, and a batch of games stepped without Python per step.
 *
 * The Python engine (engine.py, loading.py, travel.py) is the specification: every
 * function here mirrors the one of the same name there, and tests/test_compiled_engine.py
 * checks that both give the same trajectories, masks, views, observations, scores and
 * rank keys. Randomness is numpy's, reproduced exactly (envs/core/engine.h), so a state's
 * generator gives the same numbers as the Python state's ``rng`` and its saved form is
 * numpy's PCG64 state dict.
 *
 * ``Engine(...)`` holds one game's constants (AnchorsAweighGame.compiled_engine_params);
 * ``Engine.new_initial_state(rng_state)``, ``Engine.new_game(seed)`` and
 * ``Engine.from_dict(data)`` make ``State`` objects (to_dict, current_players, mask,
 * apply_joint, apply, view, encode_into, scores, rank_keys, clone). ``Batch`` (written
 * once for every engine, envs/core/engine_batch.h) holds N games in C memory.
 *
 * Loading the travel phase asks every player at once: a joint action is applied in seat
 * order, as GameState.apply_joint hands the Python rules their dict.
 *
 * Anything read from Python (a saved state, an action, a buffer) is checked before use:
 * a bad one raises the project's InvalidStateError or InvalidArgumentError (or
 * IllegalActionError for an action the mask forbids), never reads outside the state.
 */
#define ENGINE_ENV_ID "anchors_aweigh_v0"
#include "engine.h"

/* -- sizes and codes (codes.py, components.py; checked against the game's in Engine) ------ */

#define MAX_PLAYERS 4
#define NUM_SPACES 14           /* A1-A8, B1-B4, C1-C2 */
#define NUM_ABOVE 8             /* A1-A8; below deck: 8..13 */
#define NUM_ASSET 12            /* asset spaces A1-B4; C1-C2 take cargo only */
#define NUM_KINDS 10
#define NUM_LOOKS 20            /* kind * 2 + starfish */
#define STORAGE 8
#define MONKEY 9
#define NUM_COLOURS 4
#define GREY NUM_COLOURS        /* a cargo unit of any colour */
#define NUM_BACKS 9
#define QUEUE_BACK0 5           /* a queued contract's colour is its back - 5 */
#define EMPTY (-1)
#define CARGO 200
#define CHEST 204
#define LUT_SIZE (CHEST + 2)    /* game.cell_lut: value -> view code; [-1]: EMPTY's */
#define CELL_EMPTY 0
#define CELL_UNKNOWN 1
#define CELL_TILE 3
#define NUM_CELLS 27
#define MAX_TILES CARGO         /* tile ids stay below CARGO */
#define MAX_CARDS 256
#define MAX_NEEDS 6
#define MAX_REWARD 8
#define MAX_CAP 4               /* storage capacity */
#define ROUND_CARDS 13
#define MAX_USED (2 * ROUND_CARDS)
#define MAX_CARGO_QUEUE 128     /* units still to hand out (a real game: at most 64) */
#define MAX_INT_SAVED 2147483647LL   /* checks.MAX_INT: ints a saved state holds */
enum { DISCOVERY, TRADE, PIRATES, CONTRACT, NUM_TYPES };
enum { SETUP, LOADING, DECIDE, ENCOUNTER, PIRATE, COLOUR, PLACE, OVER, NUM_PHASES };
enum { O_NONE, O_RESOLVED, O_SKIPPED, O_ENCOUNTER, O_FLED, O_PAID, NUM_OUTCOMES };
enum { A_GRAB_DOWN = 0, A_GRAB_UP = 1, A_FLIP = 11, A_PLACE = 12, A_RETURN = 24, A_CARGO = 25,
       A_STAR_RETURN = 29, A_SKIP = 41, A_RESOLVE = 42, A_PARROT = 43, A_ENCOUNTER = 51,
       A_FLEE = 52, A_PAY_NONE = 53, A_PAY = 54, A_COLOUR = 58, A_STOW = 62,
       A_TOSS_ASSET = 76, A_TOSS_CARGO = 88, A_DISCARD = 92, A_SWAP = 93, NUM_ACTIONS = 193 };

static const long DIMS[] = {EMPTY, CARGO, CHEST, NUM_SPACES, NUM_ABOVE, NUM_ASSET, NUM_KINDS,
                            STORAGE, MONKEY, NUM_COLOURS, NUM_BACKS, CELL_EMPTY, CELL_UNKNOWN,
                            CELL_TILE, NUM_CELLS, NUM_PHASES, NUM_OUTCOMES, ROUND_CARDS,
                            A_GRAB_DOWN, A_GRAB_UP, A_FLIP, A_PLACE, A_RETURN, A_CARGO,
                            A_STAR_RETURN, A_SKIP, A_RESOLVE, A_PARROT, A_ENCOUNTER, A_FLEE,
                            A_PAY_NONE, A_PAY, A_COLOUR, A_STOW, A_TOSS_ASSET, A_TOSS_CARGO,
                            A_DISCARD, A_SWAP, NUM_ACTIONS};
#define NUM_DIMS ((Py_ssize_t)(sizeof(DIMS) / sizeof(DIMS[0])))

/* -- the game's constants ----------------------------------------------------------------- */

typedef struct {
    uint8_t type, back, nneeds, ncargo, grey;
    uint8_t needs[MAX_NEEDS];       /* asset kinds (discovery, pirates) or colours */
    uint8_t cargo[MAX_REWARD];      /* named-colour cargo reward */
    long coins;
    uint8_t need_count[NUM_KINDS];  /* needs counted per kind or colour */
} card_info;

typedef struct {
    long n, num_tiles, ncards;
    uint8_t kind[MAX_TILES], star[MAX_TILES], look[MAX_TILES];
    card_info card[MAX_CARDS];
    long mix[NUM_TYPES];            /* cards of each type per round */
    int open_random;                /* open_ocean == "random" */
    long capacity, cargo_per_colour, chests, parrots, penalty;
    int starfish_rule, rough_seas, perfect_recall;
    int monkey_seat[MAX_PLAYERS];   /* plays the Meddlesome Monkey handicap */
    long num_monkey_seats, monkey_seats[MAX_PLAYERS];   /* ascending */
    long lut[LUT_SIZE];             /* game.cell_lut */
} rules;

static inline long code_of(const rules *g, long c)
{
    return g->lut[c < 0 ? LUT_SIZE + c : c];
}

/* -- the state ---------------------------------------------------------------------------- */

typedef struct {
    pcg64 rng;
    int64_t turns;
    int64_t coins[MAX_PLAYERS], returns[MAX_PLAYERS];
    int16_t ships[MAX_PLAYERS][NUM_SPACES];      /* EMPTY, a tile, CARGO + colour, CHEST */
    uint8_t stor[MAX_PLAYERS][NUM_SPACES][MAX_CAP];   /* cargo on a storage tile, sorted */
    uint8_t stor_len[MAX_PLAYERS][NUM_SPACES];
    int16_t hand[MAX_PLAYERS];
    int16_t pending[MAX_PLAYERS];
    int8_t encounter[MAX_PLAYERS], outcome[MAX_PLAYERS];
    int32_t chests[MAX_PLAYERS], parrots[MAX_PLAYERS];
    uint8_t secret[MAX_TILES];
    uint8_t pile_up[MAX_TILES], pile_down[MAX_TILES];
    int16_t pile_up_len, pile_down_len;
    int32_t supply[NUM_COLOURS], chest_supply, parrot_supply;
    uint8_t deck[ROUND_CARDS], queue[ROUND_CARDS], used[MAX_USED];
    int8_t deck_len, queue_len, used_len;
    int16_t current;
    int8_t phase, round, captain, revealed, fronts_hidden, cleansed, unit_colour;
    int16_t cq_len;
    uint8_t cq_seat[MAX_CARGO_QUEUE], cq_unit[MAX_CARGO_QUEUE];   /* the cargo_queue */
} aa_state;

/* -- helpers (engine.py) ------------------------------------------------------------------ */

static inline int is_tile(long c)
{
    return 0 <= c && c < CARGO;
}

static inline int is_cargo(long c)
{
    return CARGO <= c && c < CHEST;
}

static void asset_counts(const rules *g, const aa_state *s, long p, long *have)
{
    memset(have, 0, sizeof(long) * NUM_KINDS);
    for (int sp = 0; sp < NUM_SPACES; sp++)
        if (is_tile(s->ships[p][sp]))
            have[g->kind[s->ships[p][sp]]]++;
}

static void cargo_counts(const aa_state *s, long p, long *have)
{
    memset(have, 0, sizeof(long) * NUM_COLOURS);
    for (int sp = 0; sp < NUM_SPACES; sp++) {
        if (is_cargo(s->ships[p][sp]))
            have[s->ships[p][sp] - CARGO]++;
        for (int k = 0; k < s->stor_len[p][sp]; k++)
            have[s->stor[p][sp][k]]++;
    }
}

static int ship_has_empty(const aa_state *s, long p)
{
    for (int sp = 0; sp < NUM_SPACES; sp++)
        if (s->ships[p][sp] == EMPTY)
            return 1;
    return 0;
}

static int has_room(const rules *g, const aa_state *s, long p)
{
    if (ship_has_empty(s, p))
        return 1;
    for (int sp = 0; sp < NUM_ASSET; sp++) {
        long c = s->ships[p][sp];
        if (is_tile(c) && g->kind[c] == STORAGE && s->stor_len[p][sp] < g->capacity)
            return 1;
    }
    return 0;
}

/* _kinds_up: the kinds among the face-up tiles of the pile, one bit each */
static unsigned kinds_up(const rules *g, const aa_state *s)
{
    unsigned bits = 0;
    for (int i = 0; i < s->pile_up_len; i++)
        bits |= 1u << g->kind[s->pile_up[i]];
    return bits;
}

static void to_pile(aa_state *s, long tile)
{
    s->secret[tile] = 0;
    s->pile_up[s->pile_up_len++] = (uint8_t)tile;
}

/* _remove_tile: the tile on space sp back to the pile face up, its storage cargo to the
 * supply */
static void remove_tile(aa_state *s, long p, long sp)
{
    long tile = s->ships[p][sp];
    for (int k = 0; k < s->stor_len[p][sp]; k++)
        s->supply[s->stor[p][sp][k]]++;
    s->stor_len[p][sp] = 0;
    s->ships[p][sp] = EMPTY;
    to_pile(s, tile);
}

/* list.remove(x) on a byte list of *len items (x is there) */
static void remove_u8(uint8_t *a, int16_t *len, long x)
{
    int i = 0;
    while (i < *len && a[i] != x)
        i++;
    if (i == *len)
        return;
    memmove(a + i, a + i + 1, (size_t)(*len - i - 1));
    (*len)--;
}

static void sort_u8(uint8_t *a, long n)
{
    for (long i = 1; i < n; i++)            /* insertion sort: short lists */
        for (long j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint8_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* stor[p][sp].append(c); stor[p][sp].sort() */
static void stor_add(aa_state *s, long p, long sp, long c)
{
    s->stor[p][sp][s->stor_len[p][sp]++] = (uint8_t)c;
    sort_u8(s->stor[p][sp], s->stor_len[p][sp]);
}

static void order_from_captain(const rules *g, const aa_state *s, long *order)
{
    long start = s->captain > 0 ? s->captain : 0;
    for (long i = 0; i < g->n; i++)
        order[i] = (start + i) % g->n;
}

/* -- whose decision ----------------------------------------------------------------------- */

/* _current_players: the seats asked now, in seat order, into ``seats``; their count */
static long current_players(const rules *g, const aa_state *s, long *seats)
{
    long k = 0;
    switch (s->phase) {
    case LOADING:
        for (long p = 0; p < g->n; p++)
            if (ship_has_empty(s, p))
                seats[k++] = p;
        break;
    case DECIDE: case ENCOUNTER:
        for (long p = 0; p < g->n; p++)
            if (s->pending[p] < 0)
                seats[k++] = p;
        break;
    case PIRATE:
        for (long p = 0; p < g->n; p++)
            if (s->encounter[p] == 1 && s->pending[p] < 0)
                seats[k++] = p;
        break;
    case COLOUR: case PLACE:
        seats[k++] = s->cq_seat[0];
        break;
    case SETUP:
        for (long p = 0; p < g->n; p++)
            if (s->hand[p] >= 0)
                seats[k++] = p;
        break;
    }
    return k;
}

static int is_current(const rules *g, const aa_state *s, long player)
{
    long seats[MAX_PLAYERS], k = current_players(g, s, seats);
    for (long i = 0; i < k; i++)
        if (seats[i] == player)
            return 1;
    return 0;
}

/* -- the legal-action mask ---------------------------------------------------------------- */

static void loading_mask(const rules *g, const aa_state *s, long p, int8_t *mask)
{
    const int16_t *ship = s->ships[p];
    int free_asset = 0;
    for (int sp = 0; sp < NUM_ASSET; sp++)
        free_asset |= ship[sp] == EMPTY;
    if (s->hand[p] >= 0) {
        for (int sp = 0; sp < NUM_ASSET; sp++)
            if (ship[sp] == EMPTY)
                mask[A_PLACE + sp] = 1;
        mask[A_RETURN] = 1;
        return;
    }
    if (s->pile_down_len) {
        mask[A_FLIP] = 1;
        if (free_asset)
            mask[A_GRAB_DOWN] = 1;
    }
    if (free_asset && s->pile_up_len) {
        unsigned kinds = kinds_up(g, s);
        for (int k = 0; k < NUM_KINDS; k++)
            if (kinds >> k & 1)
                mask[A_GRAB_UP + k] = 1;
    }
    if (ship[12] == EMPTY || ship[13] == EMPTY)
        for (int c = 0; c < NUM_COLOURS; c++)
            if (s->supply[c] > 0)
                mask[A_CARGO + c] = 1;
    if (g->starfish_rule)
        for (int sp = 0; sp < NUM_ASSET; sp++)
            if (is_tile(ship[sp]) && g->star[ship[sp]])
                mask[A_STAR_RETURN + sp] = 1;
}

/* _can_pay_assets: whether a ship with ``have`` pays ``card``'s needs, the parrot standing
 * in for a tile of parrot_kind (-1: no parrot) */
static int can_pay_assets(const rules *g, const card_info *card, long parrot_kind,
                          const long *have)
{
    if (parrot_kind >= 0 && !card->need_count[parrot_kind])
        return 0;
    long short_ = 0;
    for (int k = 0; k < NUM_KINDS; k++)
        if (card->need_count[k]) {
            long lack = card->need_count[k] - (k == parrot_kind) - have[k];
            short_ += lack > 0 ? lack : 0;
        }
    long wild = g->rough_seas ? have[MONKEY] : 0;
    return short_ <= wild;
}

static int can_pay_cargo(const aa_state *s, long p, const card_info *card)
{
    long have[NUM_COLOURS];
    cargo_counts(s, p, have);
    for (int c = 0; c < NUM_COLOURS; c++)
        if (have[c] < card->need_count[c])
            return 0;
    return 1;
}

static int needs_assets(const card_info *card)
{
    return card->type == DISCOVERY || card->type == PIRATES;
}

static void resolve_mask(const rules *g, const aa_state *s, long p, const card_info *card,
                         int8_t *mask)
{
    if (needs_assets(card)) {
        long have[NUM_KINDS];
        asset_counts(g, s, p, have);
        if (can_pay_assets(g, card, -1, have))
            mask[A_RESOLVE] = 1;
        if (s->parrots[p] > 0)
            for (int k = 0; k < NUM_KINDS; k++)
                if (card->need_count[k] && can_pay_assets(g, card, k, have))
                    mask[A_PARROT + k] = 1;
    } else if (can_pay_cargo(s, p, card)) {
        mask[A_RESOLVE] = 1;
    }
}

static void swap_mask(const rules *g, const aa_state *s, long p, int8_t *mask)
{
    if (!g->rough_seas)
        return;
    long have[NUM_KINDS];
    asset_counts(g, s, p, have);
    unsigned takes = kinds_up(g, s);
    for (int gk = 0; gk < NUM_KINDS; gk++)
        if (have[gk] >= 2)
            for (int tk = 0; tk < NUM_KINDS; tk++)
                if (takes >> tk & 1)
                    mask[A_SWAP + gk * 10 + tk] = 1;
}

static void place_mask(const rules *g, const aa_state *s, long p, int8_t *mask)
{
    const int16_t *ship = s->ships[p];
    if (has_room(g, s, p)) {
        for (int sp = 0; sp < NUM_SPACES; sp++) {
            long c = ship[sp];
            if (c == EMPTY || (is_tile(c) && g->kind[c] == STORAGE
                               && s->stor_len[p][sp] < g->capacity))
                mask[A_STOW + sp] = 1;
        }
        return;
    }
    int med = g->monkey_seat[p];
    for (int sp = 0; sp < NUM_ASSET; sp++) {
        long c = ship[sp];
        if (is_tile(c) && !(med && g->kind[c] == MONKEY))
            mask[A_TOSS_ASSET + sp] = 1;
    }
    long cargo[NUM_COLOURS];
    cargo_counts(s, p, cargo);
    for (int c = 0; c < NUM_COLOURS; c++)
        if (cargo[c])
            mask[A_TOSS_CARGO + c] = 1;
    mask[A_DISCARD] = 1;
}

/* python_legal_actions_mask of an acting player into ``mask`` (zeroed, NUM_ACTIONS bytes) */
static void fill_mask(const rules *g, const aa_state *s, long p, int8_t *mask)
{
    const int16_t *ship = s->ships[p];
    switch (s->phase) {
    case SETUP:
        for (int sp = 0; sp < NUM_ASSET; sp++)
            if (ship[sp] == EMPTY)
                mask[A_PLACE + sp] = 1;
        break;
    case LOADING:
        loading_mask(g, s, p, mask);
        break;
    case DECIDE:
        mask[A_SKIP] = 1;
        resolve_mask(g, s, p, &g->card[s->current], mask);
        swap_mask(g, s, p, mask);
        break;
    case ENCOUNTER:
        mask[A_ENCOUNTER] = 1;
        mask[A_FLEE] = 1;
        swap_mask(g, s, p, mask);
        break;
    case PIRATE: {
        resolve_mask(g, s, p, &g->card[s->current], mask);
        long cargo[NUM_COLOURS];
        cargo_counts(s, p, cargo);
        int any = 0;
        for (int c = 0; c < NUM_COLOURS; c++)
            if (cargo[c]) {
                mask[A_PAY + c] = 1;
                any = 1;
            }
        if (!any)
            mask[A_PAY_NONE] = 1;
        swap_mask(g, s, p, mask);
        break;
    }
    case COLOUR:
        for (int c = 0; c < NUM_COLOURS; c++)
            if (s->supply[c] > 0)
                mask[A_COLOUR + c] = 1;
        break;
    case PLACE:
        place_mask(g, s, p, mask);
        break;
    }
}

/* legal_actions_mask(player): zeros for a player not acting */
static void player_mask(const rules *g, const aa_state *s, long p, int8_t *mask)
{
    memset(mask, 0, NUM_ACTIONS);
    if (is_current(g, s, p))
        fill_mask(g, s, p, mask);
}

/* -- the set-up (loading.py) -------------------------------------------------------------- */

static void draw_round_cards(const rules *g, aa_state *s);

static void setup(const rules *g, aa_state *s)
{
    pcg64 rng = s->rng;
    memset(s, 0, sizeof(*s));
    s->rng = rng;
    long n = g->n;
    s->round = 1;
    s->captain = -1;
    for (long p = 0; p < n; p++) {
        for (int sp = 0; sp < NUM_SPACES; sp++)
            s->ships[p][sp] = EMPTY;
        s->hand[p] = -1;
        s->encounter[p] = -1;
        s->pending[p] = -1;
        s->outcome[p] = O_NONE;
    }
    for (int c = 0; c < NUM_COLOURS; c++)
        s->supply[c] = (int32_t)g->cargo_per_colour;
    s->chest_supply = (int32_t)g->chests;
    s->parrot_supply = (int32_t)g->parrots;
    s->unit_colour = -1;
    s->current = -1;
    /* Meddlesome Monkey: the monkeys come out of the box before the tiles are poured */
    long m = 0;
    uint8_t in_hand[MAX_TILES] = {0};
    for (long t = 0; t < g->num_tiles && m < g->num_monkey_seats; t++)
        if (g->kind[t] == MONKEY) {
            s->hand[g->monkey_seats[m++]] = (int16_t)t;
            in_hand[t] = 1;
        }
    for (long t = 0; t < g->num_tiles; t++)
        if (!in_hand[t]) {
            if (pcg_double(&s->rng) < 0.5)
                s->pile_up[s->pile_up_len++] = (uint8_t)t;
            else
                s->pile_down[s->pile_down_len++] = (uint8_t)t;
        }
    draw_round_cards(g, s);
    s->phase = g->num_monkey_seats ? SETUP : LOADING;
}

/* -- the loading race (loading.py) -------------------------------------------------------- */

static void start_travel(const rules *g, aa_state *s);

/* _priority, computed once per tick when needed: prio.index(p) of each seat */
static void priority(const rules *g, aa_state *s, int *ready, long *pos)
{
    if (*ready)
        return;
    int64_t perm[MAX_PLAYERS];
    for (long p = 0; p < g->n; p++)
        perm[p] = p;
    shuffle_i64(&s->rng, perm, g->n);
    for (long i = 0; i < g->n; i++)
        pos[perm[i]] = i;
    *ready = 1;
}

/* seats (k of them) sorted by their place in the priority */
static void sort_by_priority(long *seats, long k, const long *pos)
{
    for (long i = 1; i < k; i++)
        for (long j = i; j > 0 && pos[seats[j - 1]] > pos[seats[j]]; j--) {
            long t = seats[j];
            seats[j] = seats[j - 1];
            seats[j - 1] = t;
        }
}

/* _apply_loading; act[p]: seat p's action, -1 for a seat not acting */
static void apply_loading(const rules *g, aa_state *s, const long *act)
{
    long n = g->n, pos[MAX_PLAYERS];
    int ready = 0;
    /* 1. face-up grabs by kind; a random priority decides when a kind runs short */
    for (int k = 0; k < NUM_KINDS; k++) {
        long players[MAX_PLAYERS], np_ = 0;
        for (long p = 0; p < n; p++)
            if (act[p] == A_GRAB_UP + k)
                players[np_++] = p;
        if (!np_)
            continue;
        uint8_t avail[MAX_TILES];
        int16_t na = 0;
        for (int i = 0; i < s->pile_up_len; i++)
            if (g->kind[s->pile_up[i]] == k)
                avail[na++] = s->pile_up[i];
        if (np_ > na) {
            priority(g, s, &ready, pos);
            sort_by_priority(players, np_, pos);
            np_ = na;
        }
        for (long i = 0; i < np_; i++) {
            long j = (long)integers32_from1(&s->rng, (uint32_t)na);
            long t = avail[j];
            memmove(avail + j, avail + j + 1, (size_t)(na - j - 1));
            na--;
            remove_u8(s->pile_up, &s->pile_up_len, t);
            s->hand[players[i]] = (int16_t)t;
        }
    }
    /* 2. face-down grabs and flips share the face-down tiles (random priority) */
    long down[MAX_PLAYERS], nd = 0;
    for (long p = 0; p < n; p++)
        if (act[p] == A_GRAB_DOWN || act[p] == A_FLIP)
            down[nd++] = p;
    if (nd > 1) {
        priority(g, s, &ready, pos);
        sort_by_priority(down, nd, pos);
    }
    for (long i = 0; i < nd; i++) {
        if (!s->pile_down_len)
            break;
        long p = down[i], j = (long)integers32_from1(&s->rng, (uint32_t)s->pile_down_len);
        long t = s->pile_down[j];
        memmove(s->pile_down + j, s->pile_down + j + 1, (size_t)(s->pile_down_len - j - 1));
        s->pile_down_len--;
        if (act[p] == A_GRAB_DOWN) {
            s->hand[p] = (int16_t)t;
            s->secret[t] = 1;
        } else {
            s->pile_up[s->pile_up_len++] = (uint8_t)t;
        }
    }
    /* 3. places, returns, cargo and starfish returns (no conflicts possible) */
    for (long p = 0; p < n; p++) {
        long a = act[p];
        if (A_PLACE <= a && a < A_RETURN) {
            long sp = a - A_PLACE, t = s->hand[p];
            s->ships[p][sp] = (int16_t)t;
            s->hand[p] = -1;
            s->returns[p] = 0;
            if (sp < NUM_ABOVE)
                s->secret[t] = 0;
        } else if (a == A_RETURN) {
            to_pile(s, s->hand[p]);
            s->hand[p] = -1;
            s->returns[p]++;
        } else if (A_CARGO <= a && a < A_STAR_RETURN) {
            long c = a - A_CARGO;
            s->supply[c]--;
            long sp = s->ships[p][12] == EMPTY ? 12 : 13;
            s->ships[p][sp] = (int16_t)(CARGO + c);
        } else if (A_STAR_RETURN <= a && a < A_SKIP) {
            long sp = a - A_STAR_RETURN, t = s->ships[p][sp];
            s->ships[p][sp] = EMPTY;
            to_pile(s, t);
        }
    }
    /* the captain's call: the first full ship (ties: random among them) */
    if (s->captain < 0) {
        long full[MAX_PLAYERS], nf = 0;
        for (long p = 0; p < n; p++)
            if (act[p] >= 0 && !ship_has_empty(s, p))
                full[nf++] = p;
        if (nf) {
            s->captain = (int8_t)full[(long)integers32_from1(&s->rng, (uint32_t)nf)];
            s->fronts_hidden = 1;
        }
    }
    for (long p = 0; p < n; p++)
        if (ship_has_empty(s, p))
            return;
    start_travel(g, s);
}

/* -- the travel phase (travel.py) --------------------------------------------------------- */

/* _draw_round_cards: a round's adventure cards, sorted, into the deck */
static void draw_round_cards(const rules *g, aa_state *s)
{
    uint8_t used[MAX_CARDS] = {0};
    for (int i = 0; i < s->used_len; i++)
        used[s->used[i]] = 1;
    long free_[MAX_CARDS], nfree = 0, out[MAX_CARDS], nout = 0, idx[MAX_CARDS];
    for (long c = 0; c < g->ncards; c++)
        if (!used[c])
            free_[nfree++] = c;
    if (g->open_random) {
        unsigned types_left = 0;
        for (long i = 0; i < nfree; i++)
            types_left |= 1u << g->card[free_[i]].type;
        for (int attempt = 0; attempt < 1000; attempt++) {
            choice_no_replace(&s->rng, nfree, ROUND_CARDS, idx);
            unsigned types = 0;
            for (long i = 0; i < ROUND_CARDS; i++) {
                out[i] = free_[idx[i]];
                types |= 1u << g->card[out[i]].type;
            }
            nout = ROUND_CARDS;
            if ((types & types_left) == types_left)
                break;
        }
    } else {
        for (int t = 0; t < NUM_TYPES; t++) {
            long pool[MAX_CARDS], np_ = 0;
            for (long i = 0; i < nfree; i++)
                if (g->card[free_[i]].type == t)
                    pool[np_++] = free_[i];
            choice_no_replace(&s->rng, np_, g->mix[t], idx);
            for (long i = 0; i < g->mix[t]; i++)
                out[nout++] = pool[idx[i]];
        }
    }
    for (long i = 0; i < nout; i++)
        s->deck[i] = (uint8_t)out[i];
    s->deck_len = (int8_t)nout;
    sort_u8(s->deck, nout);
}

/* _spend_order: asset spaces in the order their tiles are spent or swapped: A1..A8, then
 * below deck the tiles everyone has seen, then the secret ones; their count */
static long spend_order(const aa_state *s, long p, long *order)
{
    long k = 0;
    const int16_t *ship = s->ships[p];
    for (long sp = 0; sp < NUM_ABOVE; sp++)
        order[k++] = sp;
    for (long sp = NUM_ABOVE; sp < NUM_ASSET; sp++)
        if (is_tile(ship[sp]) && !s->secret[ship[sp]])
            order[k++] = sp;
    for (long sp = NUM_ABOVE; sp < NUM_ASSET; sp++)
        if (is_tile(ship[sp]) && s->secret[ship[sp]])
            order[k++] = sp;
    return k;
}

static void pay_assets(const rules *g, aa_state *s, long p, const card_info *card,
                       long parrot_kind)
{
    long need[NUM_KINDS];
    for (int k = 0; k < NUM_KINDS; k++)
        need[k] = card->need_count[k];
    if (parrot_kind >= 0) {
        need[parrot_kind]--;
        s->parrots[p]--;
        s->parrot_supply++;
    }
    long order[NUM_ASSET], no = spend_order(s, p, order), short_ = 0;
    for (int k = 0; k < NUM_KINDS; k++) {
        if (!card->need_count[k])
            continue;                      /* sorted(need.items()): the kinds needed */
        long count = need[k];
        for (long i = 0; i < no && count > 0; i++) {
            long c = s->ships[p][order[i]];
            if (is_tile(c) && g->kind[c] == k) {
                remove_tile(s, p, order[i]);
                count--;
            }
        }
        short_ += count > 0 ? count : 0;
    }
    for (long i = 0; i < no && short_ > 0; i++) {
        long c = s->ships[p][order[i]];
        if (is_tile(c) && g->kind[c] == MONKEY) {
            remove_tile(s, p, order[i]);
            short_--;
        }
    }
}

/* _take_cargo: one token of ``colour`` to the supply (below deck first, a storage tile
 * before a space); *space and *on_storage say where it was */
static void take_cargo(aa_state *s, long p, long colour, long *space, int *on_storage)
{
    static const long ranges[2][2] = {{NUM_ABOVE, NUM_SPACES}, {0, NUM_ABOVE}};
    for (int r = 0; r < 2; r++) {
        for (long sp = ranges[r][0]; sp < ranges[r][1]; sp++)
            for (int k = 0; k < s->stor_len[p][sp]; k++)
                if (s->stor[p][sp][k] == colour) {
                    memmove(s->stor[p][sp] + k, s->stor[p][sp] + k + 1,
                            (size_t)(s->stor_len[p][sp] - k - 1));
                    s->stor_len[p][sp]--;
                    s->supply[colour]++;
                    *space = sp;
                    *on_storage = 1;
                    return;
                }
        for (long sp = ranges[r][0]; sp < ranges[r][1]; sp++)
            if (s->ships[p][sp] == CARGO + colour) {
                s->ships[p][sp] = EMPTY;
                s->supply[colour]++;
                *space = sp;
                *on_storage = 0;
                return;
            }
    }
    *space = -1;                   /* the masks never ask for cargo a ship lacks */
    *on_storage = 0;
}

static void end_round(const rules *g, aa_state *s);

static void next_card(const rules *g, aa_state *s)
{
    for (long p = 0; p < g->n; p++) {
        s->pending[p] = -1;
        s->encounter[p] = -1;
    }
    for (;;) {
        if (s->deck_len) {
            long top = s->deck[0];
            int other = 0;
            for (int i = 0; i < s->deck_len; i++)
                other |= g->card[s->deck[i]].type != CONTRACT;
            s->deck_len--;
            memmove(s->deck, s->deck + 1, (size_t)(uint8_t)s->deck_len);
            if (g->card[top].type == CONTRACT && other) {
                s->queue[s->queue_len++] = (uint8_t)top;
                continue;
            }
            s->current = (int16_t)top;
        } else if (s->queue_len) {
            s->current = s->queue[0];
            s->queue_len--;
            memmove(s->queue, s->queue + 1, (size_t)(uint8_t)s->queue_len);
        } else {
            s->current = -1;
            end_round(g, s);
            return;
        }
        break;
    }
    if (g->card[s->current].type == PIRATES) {
        s->revealed = 0;
        s->phase = ENCOUNTER;
    } else {
        s->revealed = 1;
        s->phase = DECIDE;
    }
}

static void start_travel(const rules *g, aa_state *s)
{
    if (g->starfish_rule) {
        for (long p = 0; p < g->n; p++)
            for (long sp = 0; sp < NUM_ASSET; sp++)
                if (is_tile(s->ships[p][sp]) && g->star[s->ships[p][sp]])
                    remove_tile(s, p, sp);
        s->cleansed = 1;
    }
    sort_u8(s->pile_up, s->pile_up_len);
    shuffle_u8(&s->rng, s->deck, s->deck_len);
    s->queue_len = 0;
    next_card(g, s);
}

static void finish_card(const rules *g, aa_state *s)
{
    s->used[s->used_len++] = (uint8_t)s->current;
    s->current = -1;
    s->revealed = 0;
    next_card(g, s);
}

static void cq_pop(aa_state *s)
{
    memmove(s->cq_seat, s->cq_seat + 1, (size_t)(s->cq_len - 1));
    memmove(s->cq_unit, s->cq_unit + 1, (size_t)(s->cq_len - 1));
    s->cq_len--;
}

static void cq_push(aa_state *s, long p, long unit)
{
    if (s->cq_len >= MAX_CARGO_QUEUE)
        return;                    /* more than a loaded state may hold: not reached */
    s->cq_seat[s->cq_len] = (uint8_t)p;
    s->cq_unit[s->cq_len++] = (uint8_t)unit;
}

static void next_unit(const rules *g, aa_state *s)
{
    while (s->cq_len) {
        long unit = s->cq_unit[0];
        if (unit < NUM_COLOURS && s->supply[unit] > 0) {
            s->unit_colour = (int8_t)unit;
            s->phase = PLACE;
            return;
        }
        int any = 0;
        for (int c = 0; c < NUM_COLOURS; c++)
            any |= s->supply[c] != 0;
        if (any) {
            s->phase = COLOUR;
            return;
        }
        cq_pop(s);                 /* no cargo left anywhere: the unit is lost */
    }
    finish_card(g, s);
}

static void resolve_card(const rules *g, aa_state *s)
{
    const card_info *card = &g->card[s->current];
    long order[MAX_PLAYERS];
    order_from_captain(g, s, order);
    for (long i = 0; i < g->n; i++) {
        long p = order[i], a = s->pending[p];
        if (a < 0)
            continue;              /* fled pirates: not asked */
        if (a == A_RESOLVE || (A_PARROT <= a && a < A_ENCOUNTER)) {
            if (needs_assets(card)) {
                pay_assets(g, s, p, card, a != A_RESOLVE ? a - A_PARROT : -1);
            } else {
                for (int j = 0; j < card->nneeds; j++) {
                    long sp;
                    int on;
                    take_cargo(s, p, card->needs[j], &sp, &on);
                }
            }
            s->coins[p] += card->coins;
            for (int j = 0; j < card->ncargo; j++)
                cq_push(s, p, card->cargo[j]);
            for (int j = 0; j < card->grey; j++)
                cq_push(s, p, GREY);
            s->outcome[p] = O_RESOLVED;
        } else if (a == A_SKIP) {
            s->outcome[p] = O_SKIPPED;
        } else {                   /* pay the pirates' penalty */
            s->coins[p] -= g->penalty < s->coins[p] ? g->penalty : s->coins[p];
            if (a != A_PAY_NONE) {
                long sp;
                int on;
                take_cargo(s, p, a - A_PAY, &sp, &on);
            }
            s->outcome[p] = O_PAID;
        }
    }
    for (long p = 0; p < g->n; p++)
        s->pending[p] = -1;
    next_unit(g, s);
}

static void swap_tiles(const rules *g, aa_state *s, long p, long a)
{
    long give = (a - A_SWAP) / 10, take = (a - A_SWAP) % 10;
    uint8_t avail[MAX_TILES];
    long na = 0;
    for (int i = 0; i < s->pile_up_len; i++)
        if (g->kind[s->pile_up[i]] == take)
            avail[na++] = s->pile_up[i];
    if (!na)
        return;                    /* another swapper took the last one this tick */
    long order[NUM_ASSET], no = spend_order(s, p, order), spaces[2], ns = 0;
    for (long i = 0; i < no && ns < 2; i++) {
        long c = s->ships[p][order[i]];
        if (is_tile(c) && g->kind[c] == give)
            spaces[ns++] = order[i];
    }
    long t = avail[(long)integers32_from1(&s->rng, (uint32_t)na)];
    remove_u8(s->pile_up, &s->pile_up_len, t);
    for (long i = 0; i < ns; i++)
        remove_tile(s, p, spaces[i]);
    if (ns)
        s->ships[p][spaces[0]] = (int16_t)t;
}

/* _apply_decision; act[p]: seat p's action, -1 for a seat not acting */
static void apply_decision(const rules *g, aa_state *s, const long *act)
{
    long order[MAX_PLAYERS], seats[MAX_PLAYERS];
    order_from_captain(g, s, order);
    for (long i = 0; i < g->n; i++) {
        long p = order[i], a = act[p];
        if (a < 0)
            continue;
        if (a >= A_SWAP)
            swap_tiles(g, s, p, a);
        else
            s->pending[p] = (int16_t)a;
    }
    if (current_players(g, s, seats))
        return;
    if (s->phase == ENCOUNTER) {
        int any = 0;
        for (long p = 0; p < g->n; p++) {
            s->encounter[p] = s->pending[p] == A_ENCOUNTER;
            s->outcome[p] = s->encounter[p] ? O_ENCOUNTER : O_FLED;
            s->pending[p] = -1;
            any |= s->encounter[p];
        }
        s->revealed = 1;
        if (any)
            s->phase = PIRATE;
        else
            finish_card(g, s);
        return;
    }
    resolve_card(g, s);
}

static void apply_place(const rules *g, aa_state *s, long p, long a)
{
    long c = s->unit_colour;
    if (A_STOW <= a && a < A_TOSS_ASSET) {
        long sp = a - A_STOW;
        s->supply[c]--;
        if (s->ships[p][sp] == EMPTY)
            s->ships[p][sp] = (int16_t)(CARGO + c);
        else
            stor_add(s, p, sp, c);
    } else if (A_TOSS_ASSET <= a && a < A_TOSS_CARGO) {
        long sp = a - A_TOSS_ASSET;
        remove_tile(s, p, sp);
        s->supply[c]--;
        s->ships[p][sp] = (int16_t)(CARGO + c);
    } else if (A_TOSS_CARGO <= a && a < A_DISCARD) {
        long sp;
        int on_storage;
        take_cargo(s, p, a - A_TOSS_CARGO, &sp, &on_storage);
        s->supply[c]--;
        if (sp < 0)
            return;
        if (on_storage)
            stor_add(s, p, sp, c);
        else
            s->ships[p][sp] = (int16_t)(CARGO + c);
    }
    /* A_DISCARD: the new token stays in the supply */
}

static void end_round(const rules *g, aa_state *s)
{
    long n = g->n, order[MAX_PLAYERS];
    for (long p = 0; p < n; p++) {
        for (long sp = 0; sp < NUM_SPACES; sp++) {
            long c = s->ships[p][sp];
            if (is_cargo(c)) {
                s->supply[c - CARGO]++;
                s->coins[p]++;
                s->ships[p][sp] = EMPTY;
            }
            for (int k = 0; k < s->stor_len[p][sp]; k++) {
                s->supply[s->stor[p][sp][k]]++;
                s->coins[p]++;
            }
            s->stor_len[p][sp] = 0;
        }
        for (long sp = 0; sp < NUM_ASSET; sp++) {
            long c = s->ships[p][sp];
            if (is_tile(c) && !(g->monkey_seat[p] && g->kind[c] == MONKEY))
                remove_tile(s, p, sp);
        }
    }
    order_from_captain(g, s, order);
    for (long i = 0; i < n; i++) {
        long p = order[i];
        for (long sp = 0; sp < NUM_ABOVE; sp++) {
            if (s->coins[p] < 10 || s->chest_supply <= 0)
                break;
            if (s->ships[p][sp] == EMPTY) {
                s->ships[p][sp] = CHEST;
                s->chests[p]++;
                s->chest_supply--;
                s->coins[p] -= 10;
            }
        }
    }
    sort_u8(s->pile_up, s->pile_up_len);
    s->cleansed = 0;
    for (long p = 0; p < n; p++)
        s->outcome[p] = O_NONE;
    if (s->round == 2) {
        s->phase = OVER;
        return;
    }
    int64_t totals[MAX_PLAYERS], low = 0;
    int differ = 0;
    for (long p = 0; p < n; p++) {
        totals[p] = s->coins[p] + 10 * (int64_t)s->chests[p];
        if (p == 0 || totals[p] < low)
            low = totals[p];
    }
    for (long p = 0; p < n; p++)
        differ |= totals[p] != low;
    if (differ)
        for (long i = 0; i < n; i++) {
            long p = order[i];
            if (totals[p] == low && s->parrot_supply > 0) {
                s->parrots[p]++;
                s->parrot_supply--;
            }
        }
    s->round = 2;
    s->captain = -1;
    s->fronts_hidden = 0;
    draw_round_cards(g, s);
    s->queue_len = 0;
    s->phase = LOADING;
}

/* _apply: the current players' actions (act[p], -1 for the others), already checked */
static void apply_actions(const rules *g, aa_state *s, const long *act)
{
    s->turns++;
    switch (s->phase) {
    case LOADING:
        apply_loading(g, s, act);
        break;
    case SETUP:
        for (long p = 0; p < g->n; p++)
            if (act[p] >= 0) {
                s->ships[p][act[p] - A_PLACE] = s->hand[p];
                s->hand[p] = -1;
            }
        s->phase = LOADING;
        break;
    case DECIDE: case ENCOUNTER: case PIRATE:
        apply_decision(g, s, act);
        break;
    case COLOUR:
        for (long p = 0; p < g->n; p++)
            if (act[p] >= 0)
                s->unit_colour = (int8_t)(act[p] - A_COLOUR);
        s->phase = PLACE;
        break;
    case PLACE:
        for (long p = 0; p < g->n; p++)
            if (act[p] >= 0)
                apply_place(g, s, p, act[p]);
        cq_pop(s);
        s->unit_colour = -1;
        next_unit(g, s);
        break;
    }
}

static void scores(const rules *g, const aa_state *s, double *out)
{
    for (long p = 0; p < g->n; p++)
        out[p] = (double)(s->coins[p] + 10 * (int64_t)s->chests[p]);
}

/* -- the encoder (observation.py; the same floats as _cencode.c's) -------------------------
 *
 * It reads only what ``python_view(me)`` shows: the public part (what every player knows:
 * above-deck cells, a summary of each below deck, hands held face down as unknown, the
 * cards as _public_cards gives them) and me's own ship, hand and secrets. Values are
 * computed as the Python encoder does: doubles from int / int rounded once to float32,
 * float32 where it works in float32 (backs_left, unknown_tiles, the queue's sums,
 * round_*_needs), float32 sums where it adds float32 parts (cargo_held, assets_seen). */

#define SF 22                 /* features of a ship space */
#define HF 13                 /* features of a hand */
#define CF 31                 /* features of a card */
#define BF 16                 /* features of a below deck */
#define STORAGE_FEATURE 18    /* a space's first "<colour> on storage" feature */
#define NUM_STRENGTHS 3
#define MAX_PIRATES 64
#define CARD_TRADE (2 + NUM_COLOURS) /* a card_trade row: type, coins, cargo per colour */
#define NUM_OBS_PHASES 8

static const long ENC_DIMS[] = {NUM_OBS_PHASES, NUM_SPACES, NUM_ABOVE, NUM_KINDS,
                                NUM_COLOURS, NUM_BACKS, NUM_CELLS, SF, HF, CF, BF,
                                NUM_OUTCOMES, STORAGE_FEATURE, ROUND_CARDS};
#define NUM_ENC_DIMS ((Py_ssize_t)(sizeof(ENC_DIMS) / sizeof(ENC_DIMS[0])))

enum { F_PHASE, F_ROUND, F_ME_ACTING, F_FRONTS_VISIBLE, F_CAPTAIN_CALLED, F_PILE_UP,
       F_PILE_UP_STARFISH, F_PILE_DOWN, F_SUPPLY, F_CHEST_SUPPLY, F_PARROT_SUPPLY,
       F_CURRENT_CARD, F_CURRENT_BACK, F_ROUND_CARDS, F_ROUND_ASSET_NEEDS,
       F_ROUND_CARGO_NEEDS, F_BACKS_LEFT, F_QUEUE, F_QUEUE_NEXT, F_USED, F_UNIT,
       F_UNIT_COLOUR, F_UNIT_MINE, F_MY_UNITS_LEFT, F_OWN_SECRET, F_SHIPS, F_HANDS, F_FULL,
       F_CARGO_HELD, F_ASSETS_SEEN, F_UNKNOWN_TILES, F_BELOW_DECK, F_COINS, F_CHESTS,
       F_PARROTS, F_CAPTAIN, F_MEDDLESOME, F_ACTING, F_DECIDED, F_ENCOUNTER, F_OUTCOME,
       F_RETURNS, F_HELD_KIND, F_PIRATE_ODDS, F_ENCOUNTER_OUTLOOK, F_TRADE_OUTLOOK,
       F_COUNT };
static const char *const LAYOUT_NAMES[F_COUNT] = {
    "phase", "round", "me_acting", "fronts_visible", "captain_called", "pile_up",
    "pile_up_starfish", "pile_down", "supply", "chest_supply", "parrot_supply",
    "current_card", "current_back", "round_cards", "round_asset_needs",
    "round_cargo_needs", "backs_left", "queue", "queue_next", "used", "unit",
    "unit_colour", "unit_mine", "my_units_left", "own_secret", "ships", "hands", "full",
    "cargo_held", "assets_seen", "unknown_tiles", "below_deck", "coins", "chests",
    "parrots", "captain", "meddlesome", "acting", "decided", "encounter", "outcome",
    "returns", "held_kind", "pirate_odds", "encounter_outlook", "trade_outlook"};

/* The encoder's constants (observation.compiled_params). */
typedef struct {
    long n, size, ncards;
    long start[F_COUNT], width[F_COUNT];
    float *cards;                    /* ncards x CF: card rows */
    long *card_asset_needs;          /* ncards x NUM_KINDS */
    long *card_cargo_needs;          /* ncards x NUM_COLOURS */
    long *card_trade;                /* ncards x CARD_TRADE */
    float *cell;                     /* NUM_CELLS x SF */
    float *hand;                     /* NUM_CELLS x HF */
    long *cell_kind, *cell_cargo;    /* NUM_CELLS: kind / colour of a code, -1 none */
    long cell_unknown, cell_tile;
    long npirates;
    long *pirate_id, *pirate_strength, *pirate_reward, *pirate_needs;
    int rough_seas;
    long penalty, encounter_phase, pirates1_back, decide_phase, trade_type, contract_type;
    long returns_scale, returns_cap;
} aa_enc;

static void enc_free(aa_enc *e)
{
    PyMem_Free(e->cards);
    PyMem_Free(e->card_asset_needs);
    PyMem_Free(e->card_cargo_needs);
    PyMem_Free(e->card_trade);
    PyMem_Free(e->cell);
    PyMem_Free(e->hand);
    PyMem_Free(e->cell_kind);
    PyMem_Free(e->cell_cargo);
    PyMem_Free(e->pirate_id);
    PyMem_Free(e->pirate_strength);
    PyMem_Free(e->pirate_reward);
    PyMem_Free(e->pirate_needs);
    memset(e, 0, sizeof(*e));
}

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

static long expected_width(int f, long n, long ncards)
{
    switch (f) {
    case F_PHASE: return NUM_OBS_PHASES;
    case F_ROUND: return 2;
    case F_PILE_UP: case F_PILE_UP_STARFISH: case F_HELD_KIND: case F_ROUND_ASSET_NEEDS:
        return NUM_KINDS;
    case F_SUPPLY: case F_UNIT_COLOUR: case F_QUEUE: case F_QUEUE_NEXT:
    case F_ROUND_CARGO_NEEDS: return NUM_COLOURS;
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

static int enc_longs(PyObject *seq, Py_ssize_t len, const char *name, long **dst)
{
    return (*dst = ce_longs_exact(seq, len, name)) == NULL ? -1 : 0;
}

/* enc_init(params): observation.compiled_params(game, module), checked; -1 on error */
static int enc_init(aa_enc *e, PyObject *params)
{
    PyObject *dims, *fields, *cards, *asset_needs, *cargo_needs, *card_trade, *cell, *hand,
        *cell_kind, *cell_cargo, *codes, *pid, *pstrength, *pneeds, *preward, *rules_;
    long dim[NUM_ENC_DIMS], code[2], rule[9];
    Py_ssize_t size;
    if (!PyTuple_Check(params)) {
        PyErr_SetString(PyExc_TypeError, "encoder_params: expected a tuple");
        return -1;
    }
    if (!PyArg_ParseTuple(params, "OlnOOOOOOOOOOOOOOO:encoder_params", &dims, &e->n, &size,
                          &fields, &cards, &asset_needs, &cargo_needs, &card_trade, &cell,
                          &hand, &cell_kind, &cell_cargo, &codes, &pid, &pstrength, &pneeds,
                          &preward, &rules_))
        return -1;
    e->size = (long)size;
    if (ce_longs(dims, NUM_ENC_DIMS, "dims", dim) < 0 || ce_longs(codes, 2, "codes", code) < 0
            || ce_longs(rules_, 9, "rules", rule) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < NUM_ENC_DIMS; k++)
        if (dim[k] != ENC_DIMS[k]) {
            PyErr_Format(PyExc_ValueError, "encoder dims[%zd] is %ld, this module was built "
                         "for %ld", k, dim[k], ENC_DIMS[k]);
            return -1;
        }
    Py_ssize_t nvalues;
    double *rows = ce_doubles_new(cards, "cards", &nvalues);
    if (rows == NULL || (e->cards = floats_of(rows, nvalues)) == NULL)
        return -1;
    if (nvalues % CF != 0 || nvalues / CF > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "cards: not rows of CF values for the game's cards");
        return -1;
    }
    e->ncards = (long)(nvalues / CF);
    PyObject *fl = ce_tuple(fields, F_COUNT, "fields");
    if (fl == NULL)
        return -1;
    for (int f = 0; f < F_COUNT; f++) {
        long sw[2];
        PyObject *item = ce_tuple_at(fl, f, 2, LAYOUT_NAMES[f]);
        if (item == NULL || ce_longs(item, 2, LAYOUT_NAMES[f], sw) < 0)
            return -1;
        if (sw[1] != expected_width(f, e->n, e->ncards) || sw[0] < 0
                || sw[0] + sw[1] > e->size) {
            PyErr_Format(PyExc_ValueError, "fields: %s at %ld, %ld wide: not this layout's",
                         LAYOUT_NAMES[f], sw[0], sw[1]);
            return -1;
        }
        e->start[f] = sw[0];
        e->width[f] = sw[1];
    }
    for (int f = 0; f < F_COUNT; f++)
        for (int h = f + 1; h < F_COUNT; h++)
            if (e->start[f] < e->start[h] + e->width[h]
                    && e->start[h] < e->start[f] + e->width[f]) {
                PyErr_Format(PyExc_ValueError, "fields: %s and %s overlap", LAYOUT_NAMES[f],
                             LAYOUT_NAMES[h]);
                return -1;
            }
    double *t;
    if (enc_longs(asset_needs, e->ncards * NUM_KINDS, "card_asset_needs",
                  &e->card_asset_needs) < 0
            || enc_longs(cargo_needs, e->ncards * NUM_COLOURS, "card_cargo_needs",
                         &e->card_cargo_needs) < 0
            || enc_longs(card_trade, e->ncards * CARD_TRADE, "card_trade", &e->card_trade) < 0
            || (t = ce_doubles_exact(cell, NUM_CELLS * SF, "cell")) == NULL
            || (e->cell = floats_of(t, NUM_CELLS * SF)) == NULL
            || (t = ce_doubles_exact(hand, NUM_CELLS * HF, "hand")) == NULL
            || (e->hand = floats_of(t, NUM_CELLS * HF)) == NULL
            || enc_longs(cell_kind, NUM_CELLS, "cell_kind", &e->cell_kind) < 0
            || enc_longs(cell_cargo, NUM_CELLS, "cell_cargo", &e->cell_cargo) < 0)
        return -1;
    for (int c = 0; c < NUM_CELLS; c++)
        if (e->cell_kind[c] < -1 || e->cell_kind[c] >= NUM_KINDS || e->cell_cargo[c] < -1
                || e->cell_cargo[c] >= NUM_COLOURS) {
            PyErr_SetString(PyExc_ValueError, "cell_kind, cell_cargo: out of range");
            return -1;
        }
    e->cell_unknown = code[0];
    e->cell_tile = code[1];
    Py_ssize_t np_;
    if ((e->pirate_id = ce_longs_new(pid, "pirate_id", &np_)) == NULL)
        return -1;
    if (np_ > MAX_PIRATES) {
        PyErr_Format(PyExc_ValueError, "pirate_id: %zd cards, at most %d", np_, MAX_PIRATES);
        return -1;
    }
    e->npirates = (long)np_;
    for (long i = 0; i < e->npirates; i++)
        if (e->pirate_id[i] < 0 || e->pirate_id[i] >= e->ncards) {
            PyErr_SetString(PyExc_ValueError, "pirate_id: not a card");
            return -1;
        }
    if (enc_longs(pstrength, np_, "pirate_strength", &e->pirate_strength) < 0
            || enc_longs(pneeds, np_ * NUM_KINDS, "pirate_needs", &e->pirate_needs) < 0
            || enc_longs(preward, np_, "pirate_reward", &e->pirate_reward) < 0)
        return -1;
    e->rough_seas = rule[0] != 0;
    e->penalty = rule[1];
    e->encounter_phase = rule[2];
    e->pirates1_back = rule[3];
    e->returns_scale = rule[4];
    e->returns_cap = rule[5];
    e->decide_phase = rule[6];
    e->trade_type = rule[7];
    e->contract_type = rule[8];
    if (e->returns_scale <= 0 || e->cell_tile < 0 || e->cell_tile + NUM_LOOKS > NUM_CELLS) {
        PyErr_SetString(PyExc_ValueError, "encoder rules: not this game's");
        return -1;
    }
    return 0;
}

static inline long rel(long n, long q, long me)
{
    return (q - me + n) % n;
}

/* The public cards as _public_cards and _public give them: the fronts shown (sorted ids,
 * *shown 0 while hidden), the current card if revealed (-1 otherwise) */
static long public_fronts(const rules *g, const aa_state *s, int *shown, long *fronts)
{
    *shown = !s->fronts_hidden || g->perfect_recall;
    if (!*shown)
        return 0;
    long k = 0;
    for (int i = 0; i < s->deck_len; i++)
        fronts[k++] = s->deck[i];
    for (int i = 0; i < s->queue_len; i++)
        fronts[k++] = s->queue[i];
    if (s->current >= 0 && !s->revealed)
        fronts[k++] = s->current;
    for (long i = 1; i < k; i++)
        for (long j = i; j > 0 && fronts[j - 1] > fronts[j]; j--) {
            long t = fronts[j];
            fronts[j] = fronts[j - 1];
            fronts[j - 1] = t;
        }
    return k;
}

/* The value of ``cargo`` given ``n`` contract cards (observation.cargo_value): its units
 * plus the best net gain of a set of them it pays for together; -1 if a count is < 0 */
static long cargo_value(const aa_enc *e, const long *cargo, const long *contracts, int n)
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

/* observation.encode(python_view(me)) into ``o`` (e->size floats) */
static void encode_view(const aa_enc *e, const rules *g, const aa_state *s, long me, float *o)
{
    const long n = g->n;
    const long *st = e->start;
    memset(o, 0, sizeof(float) * (size_t)e->size);
    /* phase, round, acting, captain */
    o[st[F_PHASE] + s->phase] = 1.0f;
    o[st[F_ROUND] + s->round - 1] = 1.0f;
    long acting[MAX_PLAYERS], na = current_players(g, s, acting);
    int me_acts = 0;
    for (long i = 0; i < na; i++) {
        o[st[F_ACTING] + rel(n, acting[i], me)] = 1.0f;
        me_acts |= acting[i] == me;
    }
    if (s->captain >= 0) {
        o[st[F_CAPTAIN_CALLED]] = 1.0f;
        o[st[F_CAPTAIN] + rel(n, s->captain, me)] = 1.0f;
    }
    /* the pile and the supplies */
    long looks[NUM_LOOKS] = {0};
    for (int i = 0; i < s->pile_up_len; i++)
        looks[g->look[s->pile_up[i]]]++;
    for (int k = 0; k < NUM_KINDS; k++) {
        long plain = looks[2 * k], star = looks[2 * k + 1];
        o[st[F_PILE_UP] + k] = (float)((double)(plain + star) / 9.0);
        o[st[F_PILE_UP_STARFISH] + k] = (float)((double)star / 2.0);
    }
    o[st[F_PILE_DOWN]] = (float)((double)s->pile_down_len / 84.0);
    for (int c = 0; c < NUM_COLOURS; c++)
        o[st[F_SUPPLY] + c] = (float)((double)s->supply[c] / 16.0);
    o[st[F_CHEST_SUPPLY]] = (float)((double)s->chest_supply / 18.0);
    o[st[F_PARROT_SUPPLY]] = (float)((double)s->parrot_supply / 3.0);
    /* the cards */
    long current = s->revealed ? s->current : -1;
    if (current >= 0)
        memcpy(o + st[F_CURRENT_CARD], e->cards + current * CF, sizeof(float) * CF);
    if (s->current >= 0)
        o[st[F_CURRENT_BACK] + g->card[s->current].back] = 1.0f;
    int shown;
    long fronts[MAX_CARDS], nfronts = public_fronts(g, s, &shown, fronts);
    long contracts[ROUND_CARDS];
    int ncontracts = 0;
    if (shown) {
        o[st[F_FRONTS_VISIBLE]] = 1.0f;
        long assets[NUM_KINDS] = {0}, cargo[NUM_COLOURS] = {0};
        for (long j = 0; j < nfronts && j < ROUND_CARDS; j++) {
            long id = fronts[j];
            memcpy(o + st[F_ROUND_CARDS] + j * CF, e->cards + id * CF, sizeof(float) * CF);
            if (e->card_trade[id * CARD_TRADE] == e->contract_type)
                contracts[ncontracts++] = id;
            for (int k = 0; k < NUM_KINDS; k++)
                assets[k] += e->card_asset_needs[id * NUM_KINDS + k];
            for (int c = 0; c < NUM_COLOURS; c++)
                cargo[c] += e->card_cargo_needs[id * NUM_COLOURS + c];
        }
        if (nfronts > 0) {
            for (int k = 0; k < NUM_KINDS; k++)
                o[st[F_ROUND_ASSET_NEEDS] + k] = (float)assets[k] / 8.0f;
            for (int c = 0; c < NUM_COLOURS; c++)
                o[st[F_ROUND_CARGO_NEEDS] + c] = (float)cargo[c] / 8.0f;
        }
    }
    long backs[NUM_BACKS] = {0};
    for (int i = 0; i < s->deck_len; i++)
        backs[g->card[s->deck[i]].back]++;
    for (int b = 0; b < NUM_BACKS; b++)
        o[st[F_BACKS_LEFT] + b] = (float)backs[b] / 13.0f;
    const float step = (float)(1.0 / 13.0);
    for (int i = 0; i < s->queue_len; i++) {
        long c = g->card[s->queue[i]].back - QUEUE_BACK0;
        o[st[F_QUEUE] + c] = o[st[F_QUEUE] + c] + step;
        if (i == 0)
            o[st[F_QUEUE_NEXT] + c] = 1.0f;
    }
    for (int i = 0; i < s->used_len; i++)
        o[st[F_USED] + s->used[i]] = 1.0f;
    /* the cargo being handed out */
    long units_mine = 0;
    if (s->cq_len) {
        o[st[F_UNIT] + s->cq_unit[0]] = 1.0f;
        for (int i = 0; i < s->cq_len; i++)
            units_mine += s->cq_seat[i] == me;
        if (s->cq_seat[0] == me)
            o[st[F_UNIT_MINE]] = 1.0f;
        o[st[F_MY_UNITS_LEFT]] = (float)((double)units_mine / 8.0);
    }
    if (s->unit_colour >= 0)
        o[st[F_UNIT_COLOUR] + s->unit_colour] = 1.0f;
    /* the ships as the table sees them: above deck space by space, below deck summed */
    for (long q = 0; q < n; q++) {
        long r = rel(n, q, me);
        long cargo[NUM_COLOURS] = {0}, kinds[NUM_KINDS] = {0}, unknown = 0;
        const int16_t *ship = s->ships[q];
        float *rows = o + st[F_SHIPS] + r * NUM_SPACES * SF;
        for (int sp = 0; sp < NUM_ABOVE; sp++) {
            long code = code_of(g, ship[sp]);
            memcpy(rows + sp * SF, e->cell + code * SF, sizeof(float) * SF);
            if (e->cell_cargo[code] >= 0)
                cargo[e->cell_cargo[code]]++;
            if (e->cell_kind[code] >= 0)
                kinds[e->cell_kind[code]]++;
            unknown += code == e->cell_unknown;
            for (int u = 0; u < s->stor_len[q][sp]; u++) {
                long c = s->stor[q][sp][u];
                rows[sp * SF + STORAGE_FEATURE + c] += 0.5f;
                cargo[c]++;
            }
        }
        long blooks[NUM_LOOKS] = {0}, bcargo[NUM_COLOURS] = {0}, bunknown = 0;
        for (int sp = NUM_ABOVE; sp < NUM_SPACES; sp++) {
            long c = ship[sp];
            if (is_cargo(c)) {
                bcargo[c - CARGO]++;
            } else if (is_tile(c)) {
                if (s->secret[c])
                    bunknown++;
                else
                    blooks[g->look[c]]++;
                for (int u = 0; u < s->stor_len[q][sp]; u++)
                    bcargo[s->stor[q][sp][u]]++;
            }
        }
        float *held = o + st[F_CARGO_HELD] + r * NUM_COLOURS;
        float *seen = o + st[F_ASSETS_SEEN] + r * NUM_KINDS;
        float *bdeck = o + st[F_BELOW_DECK] + r * BF;
        long stars = 0;
        for (int k = 0; k < NUM_KINDS; k++) {
            float tiles = (float)((double)(blooks[2 * k] + blooks[2 * k + 1]) / 4.0);
            bdeck[k] = tiles;
            seen[k] = (float)((double)kinds[k] / 4.0) + tiles;
            stars += blooks[2 * k + 1];
        }
        bdeck[NUM_KINDS] = (float)((double)stars / 4.0);
        bdeck[NUM_KINDS + 1] = (float)((double)bunknown / 4.0);
        for (int c = 0; c < NUM_COLOURS; c++) {
            float below_c = (float)((double)bcargo[c] / 8.0);
            bdeck[NUM_KINDS + 2 + c] = below_c;
            held[c] = (float)((double)cargo[c] / 8.0) + below_c;
        }
        o[st[F_UNKNOWN_TILES] + r] = (float)(unknown + bunknown) / 12.0f;
    }
    /* per-seat counts and flags */
    int loading = s->phase == SETUP || s->phase == LOADING;
    for (long q = 0; q < n; q++) {
        long r = rel(n, q, me);
        o[st[F_FULL] + r] = loading && !ship_has_empty(s, q) ? 1.0f : 0.0f;
        o[st[F_COINS] + r] = (float)((double)s->coins[q] / 10.0);
        o[st[F_CHESTS] + r] = (float)((double)s->chests[q] / 8.0);
        o[st[F_PARROTS] + r] = (float)((double)s->parrots[q] / 1.0);
        long ret = s->returns[q] > e->returns_cap && e->returns_cap > 0 ? e->returns_cap
                                                                          : (long)s->returns[q];
        o[st[F_RETURNS] + r] = (float)((double)ret / (double)e->returns_scale);
        o[st[F_MEDDLESOME] + r] = g->monkey_seat[q] ? 1.0f : 0.0f;
        o[st[F_DECIDED] + r] = s->pending[q] >= 0 ? 1.0f : 0.0f;
        if (s->encounter[q] >= 0)
            o[st[F_ENCOUNTER] + 2 * r + (s->encounter[q] == 1 ? 0 : 1)] = 1.0f;
        o[st[F_OUTCOME] + NUM_OUTCOMES * r + s->outcome[q]] = 1.0f;
    }
    /* ---- the observer's own blocks ---- */
    if (me_acts)
        o[st[F_ME_ACTING]] = 1.0f;
    long kinds[NUM_KINDS] = {0};
    float *rows = o + st[F_SHIPS];
    for (int sp = 0; sp < NUM_SPACES; sp++) {
        long code = code_of(g, s->ships[me][sp]);
        if (e->cell_kind[code] >= 0)
            kinds[e->cell_kind[code]]++;
        if (sp < NUM_ABOVE)
            continue;
        memcpy(rows + sp * SF, e->cell + code * SF, sizeof(float) * SF);
        for (int u = 0; u < s->stor_len[me][sp]; u++)
            rows[sp * SF + STORAGE_FEATURE + s->stor[me][sp][u]] += 0.5f;
    }
    for (int k = 0; k < NUM_KINDS; k++)
        o[st[F_ASSETS_SEEN] + k] = (float)kinds[k] / 4.0f;
    o[st[F_UNKNOWN_TILES]] = 0.0f;
    /* hands as the others see them; one's own tile where it is a secret */
    long own_hand = code_of(g, s->hand[me]);
    int hand_secret = s->hand[me] >= 0 && s->secret[s->hand[me]];
    for (long q = 0; q < n; q++) {
        long t = s->hand[q], code;
        if (q == me && hand_secret)
            code = own_hand;
        else
            code = t >= 0 && s->secret[t] ? CELL_UNKNOWN : code_of(g, t);
        memcpy(o + st[F_HANDS] + rel(n, q, me) * HF, e->hand + code * HF, sizeof(float) * HF);
    }
    int any_secret = hand_secret;
    for (int sp = 0; sp < NUM_SPACES; sp++)
        any_secret |= is_tile(s->ships[me][sp]) && s->secret[s->ships[me][sp]];
    if (any_secret) {
        for (int sp = 0; sp < NUM_SPACES; sp++)
            o[st[F_OWN_SECRET] + sp] = is_tile(s->ships[me][sp]) && s->secret[s->ships[me][sp]]
                                           ? 1.0f : 0.0f;
        o[st[F_OWN_SECRET] + NUM_SPACES] = hand_secret ? 1.0f : 0.0f;
    }
    long look = own_hand - e->cell_tile;
    if (look >= 0 && look < NUM_LOOKS)
        o[st[F_HELD_KIND] + look / 2] = 1.0f;
    /* pirate_odds and encounter_outlook: the pirate cards one may still meet */
    char possible[MAX_PIRATES];
    {
        char listed[MAX_CARDS] = {0};
        if (shown) {
            for (long j = 0; j < nfronts; j++)
                listed[fronts[j]] = 1;
        } else {
            for (int i = 0; i < s->used_len; i++)
                listed[s->used[i]] = 1;
            if (current >= 0)
                listed[current] = 1;
        }
        for (long i = 0; i < e->npirates; i++)
            possible[i] = listed[e->pirate_id[i]] == shown;
    }
    long extra = s->parrots[me] > 0;
    if (e->rough_seas)
        extra += kinds[NUM_KINDS - 1];
    long short_[MAX_PIRATES];
    for (long i = 0; i < e->npirates; i++) {
        long lack_sum = 0;
        for (int k = 0; k < NUM_KINDS; k++) {
            long lack = e->pirate_needs[i * NUM_KINDS + k] - kinds[k];
            lack_sum += lack > 0 ? lack : 0;
        }
        short_[i] = lack_sum;
    }
    for (long strength = 1; strength <= NUM_STRENGTHS; strength++) {
        long count = 0, won = 0;
        for (long i = 0; i < e->npirates; i++)
            if (possible[i] && e->pirate_strength[i] == strength) {
                count++;
                won += short_[i] <= extra;
            }
        o[st[F_PIRATE_ODDS] + strength - 1] =
            count ? (float)((double)won / (double)count) : 0.0f;
    }
    long back = s->current >= 0 ? g->card[s->current].back : -1;
    if (s->phase == e->encounter_phase && me_acts) {
        long strength = back - e->pirates1_back + 1, count = 0, won = 0, reward = 0;
        for (long i = 0; i < e->npirates; i++)
            if (possible[i] && e->pirate_strength[i] == strength) {
                count++;
                if (short_[i] <= extra) {
                    won++;
                    reward += e->pirate_reward[i];
                }
            }
        int has_cargo = 0;
        for (int c = 0; c < NUM_COLOURS; c++)
            has_cargo |= o[st[F_CARGO_HELD] + c] != 0.0f;
        long pay = e->penalty < s->coins[me] ? e->penalty : (long)s->coins[me];
        float *out = o + st[F_ENCOUNTER_OUTLOOK];
        out[0] = count ? (float)((double)won / (double)count) : 0.0f;
        out[1] = count ? (float)((double)reward / (double)count / 10.0) : 0.0f;
        out[2] = (float)((double)(pay + has_cargo) / 3.0);
    }
    /* trade_outlook */
    if (s->phase == e->decide_phase && me_acts && current >= 0) {
        const long *card = e->card_trade + current * CARD_TRADE;
        if (card[0] == e->trade_type || card[0] == e->contract_type) {
            long cargo[NUM_COLOURS], after[NUM_COLOURS];
            for (int c = 0; c < NUM_COLOURS; c++) {
                cargo[c] = (long)(o[st[F_CARGO_HELD] + c] * 8.0f + 0.5f);
                after[c] = cargo[c] - e->card_cargo_needs[current * NUM_COLOURS + c]
                           + card[2 + c];
            }
            long value_after = cargo_value(e, after, contracts, ncontracts);
            if (value_after >= 0) {
                long gain = card[1] + value_after - cargo_value(e, cargo, contracts, ncontracts);
                float *out = o + st[F_TRADE_OUTLOOK];
                out[0] = gain > 0 ? (float)((double)gain / 10.0) : 0.0f;
                out[1] = gain < 0 ? (float)((double)-gain / 10.0) : 0.0f;
                out[2] = gain >= 0 ? 1.0f : 0.0f;
            }
        }
    }
}

/* -- validate: the invariants of engine.py's AnchorsAweighState.validate ------------------ */

/* NULL when ``s`` is a legal position, else the rule it breaks (worded as Python's) */
static const char *check_state(const rules *g, const aa_state *s)
{
    long n = g->n, seats[MAX_PLAYERS];
    int ph = s->phase;
    /* components: nothing created or lost */
    long seen[MAX_TILES] = {0};
    for (int i = 0; i < s->pile_up_len; i++)
        seen[s->pile_up[i]]++;
    for (int i = 0; i < s->pile_down_len; i++)
        seen[s->pile_down[i]]++;
    for (long p = 0; p < n; p++) {
        if (s->hand[p] >= 0)
            seen[s->hand[p]]++;
        for (int sp = 0; sp < NUM_SPACES; sp++)
            if (is_tile(s->ships[p][sp]))
                seen[s->ships[p][sp]]++;
    }
    for (long t = 0; t < g->num_tiles; t++)
        if (seen[t] != 1)
            return "a tile was created or lost";
    long cargo[NUM_COLOURS];
    for (int c = 0; c < NUM_COLOURS; c++)
        cargo[c] = s->supply[c];
    long chests = s->chest_supply, parrots = s->parrot_supply;
    for (long p = 0; p < n; p++) {
        long have[NUM_COLOURS];
        cargo_counts(s, p, have);
        for (int c = 0; c < NUM_COLOURS; c++)
            cargo[c] += have[c];
        chests += s->chests[p];
        parrots += s->parrots[p];
    }
    for (int c = 0; c < NUM_COLOURS; c++)
        if (cargo[c] != g->cargo_per_colour)
            return "cargo was created or lost";
    if (chests != g->chests)
        return "a chest was created or lost";
    if (parrots != g->parrots)
        return "a parrot was created or lost";
    uint8_t card_seen[MAX_CARDS] = {0};
    long cards = 0;
    const uint8_t *lists[3] = {s->used, s->deck, s->queue};
    const long lens[3] = {s->used_len, s->deck_len, s->queue_len};
    for (int l = 0; l < 3; l++)
        for (long i = 0; i < lens[l]; i++) {
            if (card_seen[lists[l][i]]++)
                return "cards: a card in two places";
            cards++;
        }
    if (s->current >= 0) {
        if (card_seen[s->current]++)
            return "cards: a card in two places";
        cards++;
    }
    if (cards != ROUND_CARDS * s->round)
        return "cards: not 13 adventure cards per round";
    if (cards - s->used_len > ROUND_CARDS)
        return "cards: more than one round's cards still to come";
    for (int i = 0; i < s->queue_len; i++)
        if (g->card[s->queue[i]].type != CONTRACT)
            return "queue: a card that is not a contract waits at the bottom";
    /* what may lie where */
    for (long p = 0; p < n; p++) {
        long on_board = 0;
        int monkey = 0;
        for (int sp = 0; sp < NUM_SPACES; sp++) {
            long c = s->ships[p][sp];
            on_board += c == CHEST;
            if (c == CHEST && sp >= NUM_ABOVE)
                return "ships: a chest below deck";
            if (is_tile(c) && sp >= NUM_ASSET)
                return "ships: an asset on a cargo-only space";
            if (s->stor_len[p][sp]) {
                if (!(is_tile(c) && g->kind[c] == STORAGE))
                    return "stor: cargo on something that is not a storage tile";
                for (int k = 1; k < s->stor_len[p][sp]; k++)
                    if (s->stor[p][sp][k - 1] > s->stor[p][sp][k])
                        return "stor: kept sorted";
            }
            monkey |= is_tile(c) && g->kind[c] == MONKEY;
        }
        if (on_board != s->chests[p])
            return "chests: a seat's chests on board";
        if (g->monkey_seat[p] && ph != SETUP && !monkey)
            return "ships: the Meddlesome Monkey left the ship";
    }
    uint8_t allowed[MAX_TILES] = {0};    /* in a hand or below deck */
    for (long p = 0; p < n; p++) {
        if (s->hand[p] >= 0)
            allowed[s->hand[p]] = 1;
        for (int sp = NUM_ABOVE; sp < NUM_SPACES; sp++)
            if (is_tile(s->ships[p][sp]))
                allowed[s->ships[p][sp]] = 1;
    }
    for (long t = 0; t < g->num_tiles; t++)
        if (s->secret[t] && !allowed[t])
            return "secret: a secret tile outside a hand and below deck";
    int travelling = ph == DECIDE || ph == ENCOUNTER || ph == PIRATE || ph == COLOUR
                     || ph == PLACE;
    if (s->cleansed != (g->starfish_rule && travelling))
        return "cleansed: the starfish tiles leave the ships exactly when travel starts "
               "(2 players or Rough Seas)";
    if (s->cleansed)
        for (long p = 0; p < n; p++)
            for (int sp = 0; sp < NUM_SPACES; sp++) {
                long c = s->ships[p][sp];
                if (is_tile(c) && g->star[c] && s->secret[c])
                    return "cleansed: a starfish tile is still on a ship";
            }
    for (long p = 0; p < n; p++)
        if (s->parrots[p] && s->round != 2)
            return "parrots: given before round 2";
    /* the phase's bookkeeping (_validate_phase) */
    int travel = ph == DECIDE || ph == ENCOUNTER || ph == PIRATE || ph == COLOUR || ph == PLACE;
    if (ph == SETUP) {
        if (s->round != 1)
            return "hand: not the monkeys";
        for (long p = 0; p < n; p++)
            if ((s->hand[p] >= 0) != g->monkey_seat[p])
                return "hand: not the monkeys";
        for (long p = 0; p < n; p++)
            if (s->hand[p] >= 0 && g->kind[s->hand[p]] != MONKEY)
                return "hand: a tile other than the Meddlesome Monkey before loading";
        if (s->turns != 0)
            return "ships/turns: moves made before the monkeys are placed";
        for (long p = 0; p < n; p++)
            for (int sp = 0; sp < NUM_SPACES; sp++)
                if (s->ships[p][sp] != EMPTY)
                    return "ships/turns: moves made before the monkeys are placed";
    }
    if (ph == SETUP || ph == LOADING) {
        for (long p = 0; p < n; p++)
            for (int sp = 0; sp < NUM_SPACES; sp++)
                if (s->stor_len[p][sp])
                    return "stor: cargo on storage while loading";
        if (s->current >= 0 || s->queue_len || s->cq_len)
            return "current/queue/cargo_queue: a card or cargo pending while loading";
        if (s->fronts_hidden != (s->captain >= 0))
            return "fronts_hidden: the fronts are hidden exactly from the captain's call";
        if (s->captain >= 0 && ship_has_empty(s, s->captain))
            return "captain: the ship is not full";
        if (!current_players(g, s, seats))
            return "phase: loading with every ship full";
        for (long p = 0; p < n; p++) {
            int free_asset = 0;
            for (int sp = 0; sp < NUM_ASSET; sp++)
                free_asset |= s->ships[p][sp] == EMPTY;
            if (s->hand[p] >= 0 && !free_asset)
                return "hand: a tile held without a free asset space to place it";
        }
    } else {
        for (long p = 0; p < n; p++)
            if (s->hand[p] >= 0)
                return "hand: a tile held after loading";
    }
    if (travel) {
        if (s->captain < 0)
            return "captain: travelling without a captain";
        if (s->current < 0)
            return "current: no card in the travel phase";
        int pirates = g->card[s->current].type == PIRATES;
        if (!(pirates == (ph == ENCOUNTER) || (ph != DECIDE && ph != ENCOUNTER)))
            return "phase: the current card does not fit the decision";
        if (s->revealed != (ph != ENCOUNTER))
            return "revealed: the card's face";
        if (ph == PIRATE) {
            int one = 0, undecided = 0;
            for (long p = 0; p < n; p++) {
                one |= s->encounter[p] == 1;
                undecided |= s->encounter[p] == -1;
            }
            if (!(pirates && one && !undecided))
                return "encounter: resolving pirates nobody encountered";
        } else if (!(pirates && (ph == COLOUR || ph == PLACE))) {
            for (long p = 0; p < n; p++)
                if (s->encounter[p] != -1)
                    return "encounter: set outside a pirate card";
        }
    } else if (ph == OVER) {
        if (s->round != 2 || s->current >= 0)
            return "phase: over before round 2 ended";
        for (long p = 0; p < n; p++)
            for (int sp = 0; sp < NUM_SPACES; sp++) {
                long c = s->ships[p][sp];
                if (is_cargo(c) || (is_tile(c) && g->kind[c] != MONKEY))
                    return "ships: cargo or assets left after the game";
            }
    }
    if (ph == DECIDE || ph == ENCOUNTER || ph == PIRATE) {
        for (long p = 0; p < n; p++) {
            long a = s->pending[p];
            int legal;
            if (ph == DECIDE)
                legal = a == A_SKIP || a == A_RESOLVE || (A_PARROT <= a && a < A_ENCOUNTER);
            else if (ph == ENCOUNTER)
                legal = a == A_ENCOUNTER || a == A_FLEE;
            else
                legal = a == A_RESOLVE || a == A_PAY_NONE || (A_PARROT <= a && a < A_ENCOUNTER)
                        || (A_PAY <= a && a < A_COLOUR);
            if (a >= 0 && !legal)
                return "pending: not a choice of this decision";
            if (a >= 0) {
                /* choices wait to be applied together, so each was open to its seat here */
                int8_t open_to[NUM_ACTIONS];
                memset(open_to, 0, NUM_ACTIONS);
                fill_mask(g, s, p, open_to);
                if (!open_to[a])
                    return "pending: not open to the seat";
            }
            if (ph == PIRATE && s->encounter[p] != 1 && a >= 0)
                return "pending: a seat that fled has a choice pending";
        }
        if (!current_players(g, s, seats))
            return "pending: everyone has chosen, nothing applied";
    } else {
        for (long p = 0; p < n; p++)
            if (s->pending[p] != -1)
                return "pending: a choice outside a card decision";
    }
    if ((s->cq_len != 0) != (ph == COLOUR || ph == PLACE))
        return "cargo_queue: cargo to hand out exactly while choosing colours and stowing";
    if (ph == PLACE) {
        if (!(s->unit_colour >= 0 && s->supply[s->unit_colour] > 0))
            return "unit_colour: no token of that colour to stow";
    } else if (s->unit_colour >= 0) {
        return "unit_colour: set outside stowing";
    }
    return NULL;
}

/* -- the JSON loader ---------------------------------------------------------------------- */

static const char *const FIELDS[] = {
    "turns", "phase", "round", "captain", "ships", "stor", "hand", "secret", "pile_up",
    "pile_down", "supply", "chest_supply", "parrot_supply", "coins", "chests", "parrots",
    "deck", "queue", "current", "revealed", "used", "fronts_hidden", "encounter", "outcome",
    "pending", "returns", "cargo_queue", "unit_colour", "cleansed", "rng",
};
enum { K_TURNS, K_PHASE, K_ROUND, K_CAPTAIN, K_SHIPS, K_STOR, K_HAND, K_SECRET, K_PILE_UP,
       K_PILE_DOWN, K_SUPPLY, K_CHEST_SUPPLY, K_PARROT_SUPPLY, K_COINS, K_CHESTS, K_PARROTS,
       K_DECK, K_QUEUE, K_CURRENT, K_REVEALED, K_USED, K_FRONTS_HIDDEN, K_ENCOUNTER,
       K_OUTCOME, K_PENDING, K_RETURNS, K_CARGO_QUEUE, K_UNIT_COLOUR, K_CLEANSED, K_RNG,
       NUM_FIELDS };

static int read_bool(PyObject *obj, const char *name, int *v)
{
    if (!PyBool_Check(obj))
        return bad_state("expected true or false", name);
    *v = obj == Py_True;
    return 0;
}

/* a list of exactly ``len`` items (borrowed) */
static PyObject *read_rows(PyObject *obj, const char *name, long len)
{
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) != len) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: expected a list of %ld "
                     "entries", name, len);
        return NULL;
    }
    return obj;
}

/* ints of a per-seat field into int64s */
static int read_seat_ints(PyObject *obj, const char *name, long n, long long lo, long long hi,
                          long long *out)
{
    PyObject *rows = read_rows(obj, name, n);
    if (rows == NULL)
        return -1;
    for (long p = 0; p < n; p++)
        if (read_int(PyList_GET_ITEM(rows, p), name, lo, hi, &out[p]) < 0)
            return -1;
    return 0;
}

/* _load_state and validate: ``data`` (a to_dict()) into ``s`` */
static int load_state(const rules *g, PyObject *data, aa_state *s)
{
    if (!PyDict_Check(data)) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: expected an object, got %.80s",
                     Py_TYPE(data)->tp_name);
        return -1;
    }
    PyObject *f[NUM_FIELDS];
    for (int i = 0; i < NUM_FIELDS; i++)
        if ((f[i] = get_key(data, FIELDS[i])) == NULL)
            return -1;
    if (PyDict_GET_SIZE(data) != NUM_FIELDS) {
        PyErr_SetString(InvalidStateError, ENGINE_ENV_ID " state: unknown field(s) besides "
                        "the state's own");
        return -1;
    }
    memset(s, 0, sizeof(*s));
    long n = g->n, nt = g->num_tiles, nc = g->ncards, buf[MAX_TILES + 1];
    long long v, seat[MAX_PLAYERS];
    if (read_int(f[K_TURNS], "turns", 0, MAX_INT_SAVED, &v) < 0)
        return -1;
    s->turns = v;
    if (read_int(f[K_PHASE], "phase", 0, NUM_PHASES - 1, &v) < 0)
        return -1;
    s->phase = (int8_t)v;
    if (read_int(f[K_ROUND], "round", 1, 2, &v) < 0)
        return -1;
    s->round = (int8_t)v;
    if (read_int(f[K_CAPTAIN], "captain", -1, n - 1, &v) < 0)
        return -1;
    s->captain = (int8_t)v;
    PyObject *ships = read_rows(f[K_SHIPS], "ships", n);
    if (ships == NULL)
        return -1;
    for (long p = 0; p < n; p++) {
        if (read_list(PyList_GET_ITEM(ships, p), "ships", NUM_SPACES, 0, EMPTY, CHEST, buf) < 0)
            return -1;
        for (int sp = 0; sp < NUM_SPACES; sp++) {
            if (nt <= buf[sp] && buf[sp] < CARGO)
                return bad_state("neither empty (-1), a tile, cargo nor a chest", "ships");
            s->ships[p][sp] = (int16_t)buf[sp];
        }
    }
    PyObject *stor = read_rows(f[K_STOR], "stor", n);
    if (stor == NULL)
        return -1;
    for (long p = 0; p < n; p++) {
        PyObject *spaces = read_rows(PyList_GET_ITEM(stor, p), "stor", NUM_SPACES);
        if (spaces == NULL)
            return -1;
        for (int sp = 0; sp < NUM_SPACES; sp++) {
            long k = read_list(PyList_GET_ITEM(spaces, sp), "stor", -1, g->capacity, 0,
                               NUM_COLOURS - 1, buf);
            if (k < 0)
                return -1;
            for (long i = 0; i < k; i++)
                s->stor[p][sp][i] = (uint8_t)buf[i];
            s->stor_len[p][sp] = (uint8_t)k;
        }
    }
    if (read_seat_ints(f[K_HAND], "hand", n, -1, nt - 1, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->hand[p] = (int16_t)seat[p];
    PyObject *secret = read_rows(f[K_SECRET], "secret", nt);
    if (secret == NULL)
        return -1;
    for (long t = 0; t < nt; t++) {
        int b = 0;
        if (read_bool(PyList_GET_ITEM(secret, t), "secret", &b) < 0)
            return -1;
        s->secret[t] = (uint8_t)b;
    }
    long k = read_list(f[K_PILE_UP], "pile_up", -1, nt, 0, nt - 1, buf);
    if (k < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->pile_up[i] = (uint8_t)buf[i];
    s->pile_up_len = (int16_t)k;
    if ((k = read_list(f[K_PILE_DOWN], "pile_down", -1, nt, 0, nt - 1, buf)) < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->pile_down[i] = (uint8_t)buf[i];
    s->pile_down_len = (int16_t)k;
    if (read_list(f[K_SUPPLY], "supply", NUM_COLOURS, 0, 0, g->cargo_per_colour, buf) < 0)
        return -1;
    for (int c = 0; c < NUM_COLOURS; c++)
        s->supply[c] = (int32_t)buf[c];
    if (read_int(f[K_CHEST_SUPPLY], "chest_supply", 0, g->chests, &v) < 0)
        return -1;
    s->chest_supply = (int32_t)v;
    if (read_int(f[K_PARROT_SUPPLY], "parrot_supply", 0, g->parrots, &v) < 0)
        return -1;
    s->parrot_supply = (int32_t)v;
    /* more coins than a seat can gain: every card's coins once, every cargo token sold
     * at the end of both rounds (engine.py's _most_coins) */
    long long most_coins = 2LL * NUM_COLOURS * g->cargo_per_colour;
    for (long c = 0; c < g->ncards; c++)
        most_coins += g->card[c].coins;
    if (read_seat_ints(f[K_COINS], "coins", n, 0, most_coins, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->coins[p] = seat[p];
    if (read_seat_ints(f[K_CHESTS], "chests", n, 0, g->chests, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->chests[p] = (int32_t)seat[p];
    if (read_seat_ints(f[K_PARROTS], "parrots", n, 0, g->parrots, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->parrots[p] = (int32_t)seat[p];
    if ((k = read_list(f[K_DECK], "deck", -1, ROUND_CARDS, 0, nc - 1, buf)) < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->deck[i] = (uint8_t)buf[i];
    s->deck_len = (int8_t)k;
    if ((k = read_list(f[K_QUEUE], "queue", -1, ROUND_CARDS, 0, nc - 1, buf)) < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->queue[i] = (uint8_t)buf[i];
    s->queue_len = (int8_t)k;
    if (read_int(f[K_CURRENT], "current", -1, nc - 1, &v) < 0)
        return -1;
    s->current = (int16_t)v;
    int b = 0;
    if (read_bool(f[K_REVEALED], "revealed", &b) < 0)
        return -1;
    s->revealed = (int8_t)b;
    if ((k = read_list(f[K_USED], "used", -1, MAX_USED, 0, nc - 1, buf)) < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->used[i] = (uint8_t)buf[i];
    s->used_len = (int8_t)k;
    if (read_bool(f[K_FRONTS_HIDDEN], "fronts_hidden", &b) < 0)
        return -1;
    s->fronts_hidden = (int8_t)b;
    if (read_seat_ints(f[K_ENCOUNTER], "encounter", n, -1, 1, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->encounter[p] = (int8_t)seat[p];
    if (read_seat_ints(f[K_OUTCOME], "outcome", n, 0, NUM_OUTCOMES - 1, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->outcome[p] = (int8_t)seat[p];
    if (read_seat_ints(f[K_PENDING], "pending", n, -1, NUM_ACTIONS - 1, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->pending[p] = (int16_t)seat[p];
    if (read_seat_ints(f[K_RETURNS], "returns", n, 0, MAX_INT_SAVED, seat) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        s->returns[p] = seat[p];
    PyObject *cq = f[K_CARGO_QUEUE];
    if (!PyList_Check(cq))
        return bad_state("expected a list", "cargo_queue");
    if (PyList_GET_SIZE(cq) > MAX_CARGO_QUEUE)
        return bad_state("more units than the compiled engine holds", "cargo_queue");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cq); i++) {
        long pu[2];
        if (read_list(PyList_GET_ITEM(cq, i), "cargo_queue", 2, 0, 0, GREY, pu) < 0)
            return -1;
        if (pu[0] > n - 1)
            return bad_state("not a seat", "cargo_queue");
        s->cq_seat[i] = (uint8_t)pu[0];
        s->cq_unit[i] = (uint8_t)pu[1];
    }
    s->cq_len = (int16_t)PyList_GET_SIZE(cq);
    if (read_int(f[K_UNIT_COLOUR], "unit_colour", -1, NUM_COLOURS - 1, &v) < 0)
        return -1;
    s->unit_colour = (int8_t)v;
    if (read_bool(f[K_CLEANSED], "cleansed", &b) < 0)
        return -1;
    s->cleansed = (int8_t)b;
    if (read_rng(f[K_RNG], &s->rng) < 0)
        return -1;
    const char *why = check_state(g, s);
    if (why) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state breaks the rules: %s", why);
        return -1;
    }
    return 0;
}

/* -- writing Python values ---------------------------------------------------------------- */

static PyObject *bool_obj(int b)
{
    PyObject *x = b ? Py_True : Py_False;
    Py_INCREF(x);
    return x;
}

static PyObject *state_to_dict(const rules *g, const aa_state *s)
{
    long n = g->n;
    PyObject *d = PyDict_New(), *v;
    if (d == NULL)
        return NULL;
#define PUT(key, value) do { if (set_item(d, key, value) < 0) goto fail; } while (0)
#define ROWS(out, count, inner)                                                       \
    do {                                                                              \
        out = PyList_New(count);                                                      \
        for (long p_ = 0; out && p_ < (count); p_++) {                                \
            long p = p_;                                                              \
            PyObject *row_;                                                           \
            inner;                                                                    \
            if (row_ == NULL) {                                                       \
                Py_CLEAR(out);                                                        \
                break;                                                                \
            }                                                                         \
            PyList_SET_ITEM(out, p_, row_);                                           \
        }                                                                             \
    } while (0)
    PUT("turns", PyLong_FromLongLong(s->turns));
    PUT("phase", PyLong_FromLong(s->phase));
    PUT("round", PyLong_FromLong(s->round));
    PUT("captain", PyLong_FromLong(s->captain));
    ROWS(v, n, INT_LIST(row_, NUM_SPACES, s->ships[p][i]));
    PUT("ships", v);
    v = PyList_New(n);
    for (long p = 0; v && p < n; p++) {
        PyObject *spaces = PyList_New(NUM_SPACES);
        for (long sp = 0; spaces && sp < NUM_SPACES; sp++) {
            PyObject *lst;
            INT_LIST(lst, s->stor_len[p][sp], s->stor[p][sp][i]);
            if (lst == NULL) {
                Py_CLEAR(spaces);
                break;
            }
            PyList_SET_ITEM(spaces, sp, lst);
        }
        if (spaces == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, p, spaces);
    }
    PUT("stor", v);
    INT_LIST(v, n, s->hand[i]);
    PUT("hand", v);
    v = PyList_New(g->num_tiles);
    for (long t = 0; v && t < g->num_tiles; t++)
        PyList_SET_ITEM(v, t, bool_obj(s->secret[t]));
    PUT("secret", v);
    INT_LIST(v, s->pile_up_len, s->pile_up[i]);
    PUT("pile_up", v);
    INT_LIST(v, s->pile_down_len, s->pile_down[i]);
    PUT("pile_down", v);
    INT_LIST(v, NUM_COLOURS, s->supply[i]);
    PUT("supply", v);
    PUT("chest_supply", PyLong_FromLong(s->chest_supply));
    PUT("parrot_supply", PyLong_FromLong(s->parrot_supply));
    v = PyList_New(n);
    for (long p = 0; v && p < n; p++) {
        PyObject *x = PyLong_FromLongLong(s->coins[p]);
        if (x == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, p, x);
    }
    PUT("coins", v);
    INT_LIST(v, n, s->chests[i]);
    PUT("chests", v);
    INT_LIST(v, n, s->parrots[i]);
    PUT("parrots", v);
    INT_LIST(v, s->deck_len, s->deck[i]);
    PUT("deck", v);
    INT_LIST(v, s->queue_len, s->queue[i]);
    PUT("queue", v);
    PUT("current", PyLong_FromLong(s->current));
    PUT("revealed", bool_obj(s->revealed));
    INT_LIST(v, s->used_len, s->used[i]);
    PUT("used", v);
    PUT("fronts_hidden", bool_obj(s->fronts_hidden));
    INT_LIST(v, n, s->encounter[i]);
    PUT("encounter", v);
    INT_LIST(v, n, s->outcome[i]);
    PUT("outcome", v);
    INT_LIST(v, n, s->pending[i]);
    PUT("pending", v);
    v = PyList_New(n);
    for (long p = 0; v && p < n; p++) {
        PyObject *x = PyLong_FromLongLong(s->returns[p]);
        if (x == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, p, x);
    }
    PUT("returns", v);
    v = PyList_New(s->cq_len);
    for (long i = 0; v && i < s->cq_len; i++) {
        PyObject *pair = Py_BuildValue("[ii]", s->cq_seat[i], s->cq_unit[i]);
        if (pair == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, i, pair);
    }
    PUT("cargo_queue", v);
    PUT("unit_colour", PyLong_FromLong(s->unit_colour));
    PUT("cleansed", bool_obj(s->cleansed));
    PUT("rng", rng_to_py(&s->rng));
#undef PUT
#undef ROWS
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

/* -- the Engine type ---------------------------------------------------------------------- */

static const char *const VIEW_FIELDS[] = {
    "player", "own_ship", "own_storage", "own_hand", "own_secret", "own_pending", "pub"};
#define V_COUNT 7
static const char *const PUBLIC_FIELDS[] = {
    "num_players", "round", "phase", "turns", "acting", "captain", "above",
    "above_storage", "below", "hands", "coins", "chests", "parrots", "meddlesome",
    "pile_up", "pile_down", "supply", "chest_supply", "parrot_supply", "fronts",
    "fronts_hidden", "backs_left", "queue", "current", "current_back", "used",
    "encounter", "outcome", "decided", "cargo_queue", "unit_colour", "cleansed", "full",
    "returns"};
#define P_COUNT 34
static const char *const BELOW_FIELDS[] = {"looks", "unknown", "cargo"};
#define B_COUNT 3

typedef struct {
    PyObject_HEAD
    rules g;
    aa_enc enc;
    PyObject *view_cls, *public_cls, *below_cls;  /* the view's named-tuple classes */
    PyObject *phases;              /* the Phase members, by number */
    PyObject *meddlesome;          /* game.meddlesome_flags */
    PyObject *no_seats;            /* (False,) * n */
    PyObject *no_secrets;          /* (False,) * 15 */
    PyObject *empty_storage;       /* ((),) * 14 */
    PyObject *no_storage;          /* ((),) * 8 */
    int ready;
} Engine;

static PyTypeObject EngineType;

/* a tuple of ``n`` copies of ``item`` (a new reference to it each) */
static PyObject *repeat_tuple(PyObject *item, long n)
{
    PyObject *t = PyTuple_New(n);
    for (long i = 0; t && i < n; i++) {
        Py_INCREF(item);
        PyTuple_SET_ITEM(t, i, item);
    }
    return t;
}

static int read_card(PyObject *obj, long ncards, card_info *c)
{
    long type, back, coins, grey;
    PyObject *needs, *cargo;
    if (!PyTuple_Check(obj) || !PyArg_ParseTuple(obj, "llOlOl", &type, &back, &needs, &coins,
                                                  &cargo, &grey)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "cards: expected (type, back, needs, coins, cargo, "
                        "grey) tuples");
        return -1;
    }
    long nb[MAX_NEEDS + 1], cb[MAX_REWARD + 1];
    Py_ssize_t nn, nk;
    long *nv = ce_longs_new(needs, "cards.needs", &nn);
    if (nv == NULL)
        return -1;
    long *cv = ce_longs_new(cargo, "cards.cargo", &nk);
    if (cv == NULL) {
        PyMem_Free(nv);
        return -1;
    }
    int ok = type >= 0 && type < NUM_TYPES && back >= 0 && back < NUM_BACKS && nn >= 1
        && nn <= MAX_NEEDS && nk <= MAX_REWARD && coins >= 0 && coins <= 1000 && grey >= 0
        && grey <= MAX_REWARD;
    int asset = type == DISCOVERY || type == PIRATES;
    for (Py_ssize_t i = 0; ok && i < nn; i++) {
        nb[i] = nv[i];
        ok = nv[i] >= 0 && nv[i] < (asset ? STORAGE : NUM_COLOURS);
    }
    for (Py_ssize_t i = 0; ok && i < nk; i++) {
        cb[i] = cv[i];
        ok = cv[i] >= 0 && cv[i] < NUM_COLOURS;
    }
    ok = ok && (type != PIRATES || (back >= 2 && back <= 4))
        && (type != CONTRACT || back >= QUEUE_BACK0) && (type > TRADE || back == type);
    PyMem_Free(nv);
    PyMem_Free(cv);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "cards: a card outside what the engine holds");
        return -1;
    }
    memset(c, 0, sizeof(*c));
    c->type = (uint8_t)type;
    c->back = (uint8_t)back;
    c->coins = coins;
    c->grey = (uint8_t)grey;
    c->nneeds = (uint8_t)nn;
    c->ncargo = (uint8_t)nk;
    for (Py_ssize_t i = 0; i < nn; i++) {
        c->needs[i] = (uint8_t)nb[i];
        c->need_count[nb[i]]++;
    }
    for (Py_ssize_t i = 0; i < nk; i++)
        c->cargo[i] = (uint8_t)cb[i];
    (void)ncards;
    return 0;
}

static int Engine_init(Engine *e, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "dims", "tile_kind", "tile_star", "cards", "mix",
                             "open_random", "storage_capacity", "cargo_per_colour", "chests",
                             "parrots", "penalty", "starfish_rule", "rough_seas",
                             "perfect_recall", "monkey_seats", "cell_lut", "encoder_params",
                             "view_cls", "public_cls", "below_cls", "phases", NULL};
    PyObject *dims, *kinds, *stars, *cards, *mix, *monkeys, *lut, *enc_params, *view_cls,
        *public_cls, *below_cls, *phases;
    long n, capacity, per_colour, chests, parrots, penalty;
    int open_random, starfish, rough, recall;
    e->ready = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "lOOOOOplllllpppOOOOOOO:Engine", kwlist, &n,
                                     &dims, &kinds, &stars, &cards, &mix, &open_random,
                                     &capacity, &per_colour, &chests, &parrots, &penalty,
                                     &starfish, &rough, &recall, &monkeys, &lut, &enc_params,
                                     &view_cls, &public_cls, &below_cls, &phases))
        return -1;
    long dim[NUM_DIMS];
    if (ce_longs(dims, NUM_DIMS, "dims", dim) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < NUM_DIMS; k++)
        if (dim[k] != DIMS[k]) {
            PyErr_Format(PyExc_ValueError, "dims[%zd] is %ld, this module was built for %ld",
                         k, dim[k], DIMS[k]);
            return -1;
        }
    rules *g = &e->g;
    memset(g, 0, sizeof(*g));
    Py_ssize_t nt, ns, nm, nl;
    long *kv = ce_longs_new(kinds, "tile_kind", &nt);
    long *sv = kv ? ce_longs_new(stars, "tile_star", &ns) : NULL;
    long *mv = sv ? ce_longs_new(monkeys, "monkey_seats", &nm) : NULL;
    long *lv = mv ? ce_longs_new(lut, "cell_lut", &nl) : NULL;
    long mixes[NUM_TYPES];
    int ok = lv != NULL && ce_longs(mix, NUM_TYPES, "mix", mixes) == 0;
    if (ok) {
        ok = n >= 2 && n <= MAX_PLAYERS && nt >= 1 && nt < MAX_TILES && ns == nt
            && nm <= n && nl == LUT_SIZE && capacity >= 1 && capacity <= MAX_CAP
            && per_colour >= 1 && per_colour <= 10000 && chests >= 0 && chests <= 10000
            && parrots >= 0 && parrots <= 10000 && penalty >= 0 && penalty <= 10000;
        for (Py_ssize_t t = 0; ok && t < nt; t++) {
            ok = kv[t] >= 0 && kv[t] < NUM_KINDS && (sv[t] == 0 || sv[t] == 1);
            if (ok) {
                g->kind[t] = (uint8_t)kv[t];
                g->star[t] = (uint8_t)sv[t];
                g->look[t] = (uint8_t)(kv[t] * 2 + sv[t]);
            }
        }
        for (Py_ssize_t i = 0; ok && i < nl; i++) {
            ok = lv[i] >= 0 && lv[i] < NUM_CELLS;
            if (ok)
                g->lut[i] = lv[i];
        }
        long monkey_tiles = 0;
        for (Py_ssize_t t = 0; ok && t < nt; t++)
            monkey_tiles += kv[t] == MONKEY;
        ok = ok && nm <= monkey_tiles;
        for (Py_ssize_t i = 0; ok && i < nm; i++) {
            ok = mv[i] >= 0 && mv[i] < n && (i == 0 || mv[i] > mv[i - 1]);
            if (ok) {
                g->monkey_seats[i] = mv[i];
                g->monkey_seat[mv[i]] = 1;
            }
        }
    }
    PyMem_Free(kv);
    PyMem_Free(sv);
    PyMem_Free(mv);
    PyMem_Free(lv);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(InvalidArgumentError, "Engine: the game's components are outside "
                            "what the compiled engine holds (2-4 players, fewer than 200 "
                            "tiles, storage for 1-4 cargo)");
        return -1;
    }
    g->n = n;
    g->num_tiles = (long)nt;
    g->num_monkey_seats = (long)nm;
    g->capacity = capacity;
    g->cargo_per_colour = per_colour;
    g->chests = chests;
    g->parrots = parrots;
    g->penalty = penalty;
    g->open_random = open_random;
    g->starfish_rule = starfish;
    g->rough_seas = rough;
    g->perfect_recall = recall;
    if (!PyTuple_Check(cards) || PyTuple_GET_SIZE(cards) < 2 * ROUND_CARDS
            || PyTuple_GET_SIZE(cards) > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "cards: expected a tuple of %d..%d cards",
                     2 * ROUND_CARDS, MAX_CARDS);
        return -1;
    }
    g->ncards = (long)PyTuple_GET_SIZE(cards);
    long per_type[NUM_TYPES] = {0}, total = 0;
    for (long c = 0; c < g->ncards; c++) {
        if (read_card(PyTuple_GET_ITEM(cards, c), g->ncards, &g->card[c]) < 0)
            return -1;
        per_type[g->card[c].type]++;
    }
    for (int t = 0; t < NUM_TYPES; t++) {
        g->mix[t] = mixes[t];
        total += mixes[t];
        if (mixes[t] < 0 || 2 * mixes[t] > per_type[t]) {
            PyErr_SetString(PyExc_ValueError, "mix: more cards of a type than two rounds have");
            return -1;
        }
    }
    if (total != ROUND_CARDS) {
        PyErr_SetString(PyExc_ValueError, "mix: a round uses 13 cards");
        return -1;
    }
    enc_free(&e->enc);
    if (enc_init(&e->enc, enc_params) < 0)
        return -1;
    if (e->enc.n != n || e->enc.ncards != g->ncards) {
        PyErr_SetString(PyExc_ValueError, "encoder_params: not this game's");
        return -1;
    }
    if (ce_check_record(view_cls, "view_cls", VIEW_FIELDS, V_COUNT) < 0
            || ce_check_record(public_cls, "public_cls", PUBLIC_FIELDS, P_COUNT) < 0
            || ce_check_record(below_cls, "below_cls", BELOW_FIELDS, B_COUNT) < 0)
        return -1;
    if (!PyTuple_Check(phases) || PyTuple_GET_SIZE(phases) != NUM_PHASES) {
        PyErr_SetString(PyExc_TypeError, "phases: expected a tuple of the 8 phases");
        return -1;
    }
    for (long i = 0; i < NUM_PHASES; i++) {
        long v;
        if (ce_long(PyTuple_GET_ITEM(phases, i), "phases", &v) < 0)
            return -1;
        if (v != i) {
            PyErr_SetString(PyExc_ValueError, "phases: expected the phases in order");
            return -1;
        }
    }
    PyObject *empty = PyTuple_New(0);
    PyObject *med = PyTuple_New(n);
    for (long p = 0; med && p < n; p++)
        PyTuple_SET_ITEM(med, p, bool_obj(g->monkey_seat[p]));
    PyObject *no_seats = repeat_tuple(Py_False, n), *no_secrets = repeat_tuple(Py_False, 15);
    PyObject *empty_storage = empty ? repeat_tuple(empty, NUM_SPACES) : NULL;
    PyObject *no_storage = empty ? repeat_tuple(empty, NUM_ABOVE) : NULL;
    Py_XDECREF(empty);
    if (!med || !no_seats || !no_secrets || !empty_storage || !no_storage) {
        Py_XDECREF(med);
        Py_XDECREF(no_seats);
        Py_XDECREF(no_secrets);
        Py_XDECREF(empty_storage);
        Py_XDECREF(no_storage);
        return -1;
    }
    Py_XSETREF(e->meddlesome, med);
    Py_XSETREF(e->no_seats, no_seats);
    Py_XSETREF(e->no_secrets, no_secrets);
    Py_XSETREF(e->empty_storage, empty_storage);
    Py_XSETREF(e->no_storage, no_storage);
    Py_INCREF(view_cls);
    Py_XSETREF(e->view_cls, view_cls);
    Py_INCREF(public_cls);
    Py_XSETREF(e->public_cls, public_cls);
    Py_INCREF(below_cls);
    Py_XSETREF(e->below_cls, below_cls);
    Py_INCREF(phases);
    Py_XSETREF(e->phases, phases);
    e->ready = 1;
    return 0;
}

static void Engine_dealloc(Engine *e)
{
    enc_free(&e->enc);
    Py_XDECREF(e->view_cls);
    Py_XDECREF(e->public_cls);
    Py_XDECREF(e->below_cls);
    Py_XDECREF(e->phases);
    Py_XDECREF(e->meddlesome);
    Py_XDECREF(e->no_seats);
    Py_XDECREF(e->no_secrets);
    Py_XDECREF(e->empty_storage);
    Py_XDECREF(e->no_storage);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static int engine_ready(Engine *e)
{
    if (!e->ready) {
        PyErr_SetString(PyExc_ValueError, "Engine: not initialised");
        return 0;
    }
    return 1;
}

/* -- the batch's hooks (envs/core/engine_batch.h) ----------------------------------------- */

#define BATCH_STATE aa_state
#define BATCH_ENGINE Engine
#define BATCH_ENGINE_TYPE EngineType
#define BATCH_MAX_SEATS MAX_PLAYERS
#define BATCH_KEY_LEN 1
#define BATCH_TYPE_NAME "plunder.envs.anchors_aweigh._engine.Batch"

static int batch_engine_ready(Engine *e)
{
    return engine_ready(e);
}

static long batch_num_players(const Engine *e)
{
    return e->g.n;
}

static long batch_num_actions(const Engine *e)
{
    return NUM_ACTIONS;
}

static long batch_obs_size(const Engine *e)
{
    return e->enc.size;
}

static pcg64 *batch_rng(aa_state *s)
{
    return &s->rng;
}

static void batch_setup(const Engine *e, aa_state *s)
{
    setup(&e->g, s);
}

static int batch_finished(const aa_state *s)
{
    return s->phase == OVER;
}

static int64_t batch_turns(const aa_state *s)
{
    return s->turns;
}

static long batch_deciders(const Engine *e, const aa_state *s, long *seats)
{
    return current_players(&e->g, s, seats);
}

static void batch_observe(const Engine *e, const aa_state *s, long seat, int8_t *mask,
                          float *row)
{
    fill_mask(&e->g, s, seat, mask);
    encode_view(&e->enc, &e->g, s, seat, row);
}

static void batch_apply(const Engine *e, aa_state *s, const long *seats,
                        const int64_t *actions, long k)
{
    long act[MAX_PLAYERS];
    for (long p = 0; p < MAX_PLAYERS; p++)
        act[p] = -1;
    for (long i = 0; i < k; i++)
        act[seats[i]] = (long)actions[i];
    apply_actions(&e->g, s, act);
}

static void batch_scores(const Engine *e, const aa_state *s, double *out)
{
    scores(&e->g, s, out);
}

static long batch_rank_keys(const Engine *e, const aa_state *s, double *keys)
{
    scores(&e->g, s, keys);
    return e->g.n;
}

#include "engine_batch.h"

/* -- the State type and the Engine's game-making methods (envs/core/engine_state.h) ------- */

#define ENGINE_STATE_TYPE_NAME "plunder.envs.anchors_aweigh._engine.State"
#include "engine_state.h"

static int engine_load(const Engine *e, PyObject *data, aa_state *s)
{
    return load_state(&e->g, data, s);
}

static PyObject *engine_to_dict(const Engine *e, const aa_state *s)
{
    return state_to_dict(&e->g, s);
}

static void engine_mask(const Engine *e, const aa_state *s, long player, int8_t *mask)
{
    player_mask(&e->g, s, player, mask);
}

static void engine_encode(const Engine *e, const aa_state *s, long player, float *out)
{
    encode_view(&e->enc, &e->g, s, player, out);
}

/* -- the view (python_view and _public) --------------------------------------------------- */

static PyObject *llong_tuple(const int64_t *x, long k)
{
    PyObject *t = PyTuple_New(k);
    for (long i = 0; t && i < k; i++) {
        PyObject *v = PyLong_FromLongLong(x[i]);
        if (v == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* an instance of the named tuple ``cls`` holding the ``k`` new references ``items``
 * (consumed, also on failure; NULL items: an error is set) */
static PyObject *named(PyObject *cls, PyObject **items, long k)
{
    PyObject *t = NULL;
    int ok = 1;
    for (long i = 0; i < k; i++)
        ok &= items[i] != NULL;
    if (ok)
        t = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, k);
    for (long i = 0; i < k; i++) {
        if (t != NULL)
            PyTuple_SET_ITEM(t, i, items[i]);
        else
            Py_XDECREF(items[i]);
    }
    return t;
}

/* the storage lists of spaces lo..hi-1 of seat p as tuples, or ``none`` when all empty */
static PyObject *storage_tuple(const Engine *e, const aa_state *s, long p, int lo, int hi,
                               PyObject *none)
{
    int any = 0;
    for (int sp = lo; sp < hi; sp++)
        any |= s->stor_len[p][sp] != 0;
    if (!any) {
        Py_INCREF(none);
        return none;
    }
    PyObject *t = PyTuple_New(hi - lo);
    for (int sp = lo; t && sp < hi; sp++) {
        long c[MAX_CAP];
        for (int k = 0; k < s->stor_len[p][sp]; k++)
            c[k] = s->stor[p][sp][k];
        PyObject *x = engine_long_tuple(c, s->stor_len[p][sp]);
        if (x == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, sp - lo, x);
    }
    return t;
}

static PyObject *public_view(const Engine *e, const aa_state *s)
{
    const rules *g = &e->g;
    long n = g->n, buf[MAX_CARDS];
    PyObject *items[P_COUNT];
    items[0] = PyLong_FromLong(n);
    items[1] = PyLong_FromLong(s->round);
    items[2] = PyTuple_GET_ITEM(e->phases, s->phase);
    Py_INCREF(items[2]);
    items[3] = PyLong_FromLongLong(s->turns);
    long k = current_players(g, s, buf);
    items[4] = engine_long_tuple(buf, k);
    items[5] = PyLong_FromLong(s->captain);
    items[6] = PyTuple_New(n);
    items[7] = PyTuple_New(n);
    items[8] = PyTuple_New(n);
    for (long p = 0; p < n && items[6] && items[7] && items[8]; p++) {
        long codes[NUM_ABOVE], looks[NUM_LOOKS] = {0}, cargo[NUM_COLOURS] = {0}, unknown = 0;
        for (int sp = 0; sp < NUM_ABOVE; sp++)
            codes[sp] = code_of(g, s->ships[p][sp]);
        for (int sp = NUM_ABOVE; sp < NUM_SPACES; sp++) {
            long c = s->ships[p][sp];
            if (is_cargo(c)) {
                cargo[c - CARGO]++;
            } else if (is_tile(c)) {
                if (s->secret[c])
                    unknown++;
                else
                    looks[g->look[c]]++;
                for (int u = 0; u < s->stor_len[p][sp]; u++)
                    cargo[s->stor[p][sp][u]]++;
            }
        }
        PyObject *below[B_COUNT] = {engine_long_tuple(looks, NUM_LOOKS), PyLong_FromLong(unknown),
                                    engine_long_tuple(cargo, NUM_COLOURS)};
        PyTuple_SET_ITEM(items[6], p, engine_long_tuple(codes, NUM_ABOVE));
        PyTuple_SET_ITEM(items[7], p, storage_tuple(e, s, p, 0, NUM_ABOVE, e->no_storage));
        PyTuple_SET_ITEM(items[8], p, named(e->below_cls, below, B_COUNT));
        if (!PyTuple_GET_ITEM(items[6], p) || !PyTuple_GET_ITEM(items[7], p)
                || !PyTuple_GET_ITEM(items[8], p)) {
            Py_CLEAR(items[6]);           /* a NULL item in a tuple to be freed is fine */
            break;
        }
    }
    for (long p = 0; p < n; p++) {
        long t = s->hand[p];
        buf[p] = t >= 0 && s->secret[t] ? CELL_UNKNOWN : code_of(g, t);
    }
    items[9] = engine_long_tuple(buf, n);
    items[10] = llong_tuple(s->coins, n);
    for (long p = 0; p < n; p++)
        buf[p] = s->chests[p];
    items[11] = engine_long_tuple(buf, n);
    for (long p = 0; p < n; p++)
        buf[p] = s->parrots[p];
    items[12] = engine_long_tuple(buf, n);
    items[13] = e->meddlesome;
    Py_INCREF(items[13]);
    long looks[NUM_LOOKS] = {0};
    for (int i = 0; i < s->pile_up_len; i++)
        looks[g->look[s->pile_up[i]]]++;
    items[14] = engine_long_tuple(looks, NUM_LOOKS);
    items[15] = PyLong_FromLong(s->pile_down_len);
    for (int c = 0; c < NUM_COLOURS; c++)
        buf[c] = s->supply[c];
    items[16] = engine_long_tuple(buf, NUM_COLOURS);
    items[17] = PyLong_FromLong(s->chest_supply);
    items[18] = PyLong_FromLong(s->parrot_supply);
    int shown;
    long nf = public_fronts(g, s, &shown, buf);
    if (shown) {
        items[19] = engine_long_tuple(buf, nf);
    } else {
        items[19] = Py_None;
        Py_INCREF(Py_None);
    }
    items[20] = bool_obj(s->fronts_hidden);
    long backs[NUM_BACKS] = {0};
    for (int i = 0; i < s->deck_len; i++)
        backs[g->card[s->deck[i]].back]++;
    items[21] = engine_long_tuple(backs, NUM_BACKS);
    for (int i = 0; i < s->queue_len; i++)
        buf[i] = g->card[s->queue[i]].back - QUEUE_BACK0;
    items[22] = engine_long_tuple(buf, s->queue_len);
    items[23] = PyLong_FromLong(s->revealed ? s->current : -1);
    items[24] = PyLong_FromLong(s->current >= 0 ? g->card[s->current].back : -1);
    for (int i = 0; i < s->used_len; i++)
        buf[i] = s->used[i];
    for (long i = 1; i < s->used_len; i++)
        for (long j = i; j > 0 && buf[j - 1] > buf[j]; j--) {
            long t = buf[j];
            buf[j] = buf[j - 1];
            buf[j - 1] = t;
        }
    items[25] = engine_long_tuple(buf, s->used_len);
    for (long p = 0; p < n; p++)
        buf[p] = s->encounter[p];
    items[26] = engine_long_tuple(buf, n);
    for (long p = 0; p < n; p++)
        buf[p] = s->outcome[p];
    items[27] = engine_long_tuple(buf, n);
    items[28] = PyTuple_New(n);
    for (long p = 0; items[28] && p < n; p++)
        PyTuple_SET_ITEM(items[28], p, bool_obj(s->pending[p] >= 0));
    items[29] = PyTuple_New(s->cq_len);
    for (long i = 0; items[29] && i < s->cq_len; i++) {
        PyObject *pair = Py_BuildValue("(ii)", s->cq_seat[i], s->cq_unit[i]);
        if (pair == NULL) {
            Py_CLEAR(items[29]);
            break;
        }
        PyTuple_SET_ITEM(items[29], i, pair);
    }
    items[30] = PyLong_FromLong(s->unit_colour);
    items[31] = bool_obj(s->cleansed);
    if (s->phase == SETUP || s->phase == LOADING) {
        items[32] = PyTuple_New(n);
        for (long p = 0; items[32] && p < n; p++)
            PyTuple_SET_ITEM(items[32], p, bool_obj(!ship_has_empty(s, p)));
    } else {
        items[32] = e->no_seats;
        Py_INCREF(items[32]);
    }
    items[33] = llong_tuple(s->returns, n);
    return named(e->public_cls, items, P_COUNT);
}

/* python_view(player) */
static PyObject *player_view(const Engine *e, const aa_state *s, long player)
{
    const rules *g = &e->g;
    PyObject *items[V_COUNT];
    long codes[NUM_SPACES];
    items[6] = public_view(e, s);
    items[0] = PyLong_FromLong(player);
    for (int sp = 0; sp < NUM_SPACES; sp++)
        codes[sp] = code_of(g, s->ships[player][sp]);
    items[1] = engine_long_tuple(codes, NUM_SPACES);
    items[2] = storage_tuple(e, s, player, 0, NUM_SPACES, e->empty_storage);
    items[3] = PyLong_FromLong(code_of(g, s->hand[player]));
    int secrets = 0;
    for (long t = 0; t < g->num_tiles; t++)
        secrets |= s->secret[t];
    if (secrets) {
        items[4] = PyTuple_New(NUM_SPACES + 1);
        for (int sp = 0; items[4] && sp < NUM_SPACES; sp++) {
            long c = s->ships[player][sp];
            PyTuple_SET_ITEM(items[4], sp, bool_obj(is_tile(c) && s->secret[c]));
        }
        if (items[4])
            PyTuple_SET_ITEM(items[4], NUM_SPACES,
                             bool_obj(s->hand[player] >= 0 && s->secret[s->hand[player]]));
    } else {
        items[4] = e->no_secrets;
        Py_INCREF(items[4]);
    }
    items[5] = PyLong_FromLong(s->pending[player]);
    return named(e->view_cls, items, V_COUNT);
}


static PyObject *engine_view(Engine *e, const aa_state *s, long player)
{
    return player_view(e, s, player);
}

/* -- the Engine type's methods --------------------------------------------------------- */

/* choice(pop, size): Generator.choice(pop, size, replace=False) of a state's generator, as
 * the rules draw it (for the tests); returns (indices, rng state after) */
static PyObject *Engine_choice(Engine *e, PyObject *args)
{
    PyObject *rng;
    long pop, size;
    if (!PyArg_ParseTuple(args, "Oll:choice", &rng, &pop, &size))
        return NULL;
    if (pop < 1 || pop > MAX_CARDS || size < 0 || size > pop) {
        PyErr_SetString(InvalidArgumentError, "choice: 1 <= pop <= 256, 0 <= size <= pop");
        return NULL;
    }
    pcg64 r;
    if (read_rng(rng, &r) < 0)
        return NULL;
    long out[MAX_CARDS];
    choice_no_replace(&r, pop, size, out);
    PyObject *idx;
    INT_LIST(idx, size, out[i]);
    if (idx == NULL)
        return NULL;
    PyObject *after = rng_to_py(&r);
    if (after == NULL) {
        Py_DECREF(idx);
        return NULL;
    }
    return Py_BuildValue("(NN)", idx, after);
}

static PyMethodDef Engine_methods[] = {
    ENGINE_METHODS,
    {"choice", (PyCFunction)Engine_choice, METH_VARARGS,
     "choice(rng_state, pop, size): (Generator.choice(pop, size, replace=False) as the "
     "rules draw it, the generator's state after)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.anchors_aweigh._engine.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(num_players, dims, tile_kind, tile_star, cards, mix, open_random, "
              "storage_capacity, cargo_per_colour, chests, parrots, penalty, starfish_rule, "
              "rough_seas, perfect_recall, monkey_seats, cell_lut, encoder_params, view_cls, "
              "public_cls, below_cls, phases): one Anchors Aweigh! game's constants "
              "(AnchorsAweighGame.compiled_engine_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};


/* -- the module --------------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "Anchors Aweigh!'s compiled engine: state, rules, view, encoder, JSON round trip, "
    "batches (engine.py is the specification).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    if (engine_import_errors() < 0)
        return NULL;
    if (PyType_Ready(&StateType) < 0)
        return NULL;
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_FIELDS, V_COUNT},
        {"PUBLIC_FIELDS", PUBLIC_FIELDS, P_COUNT},
        {"BELOW_FIELDS", BELOW_FIELDS, B_COUNT},
        {"LAYOUT_FIELDS", LAYOUT_NAMES, F_COUNT},
    };
    PyObject *m = ce_module_named(&module, "Engine", &EngineType, names, 4);
    if (m == NULL)
        return NULL;
    if (ce_add_type(m, "State", &StateType) < 0 || ce_add_type(m, "Batch", &BatchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
