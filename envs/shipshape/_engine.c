/* ShipShape's compiled engine: the state, the rules, the view, the encoder and the JSON
 * round trip in one module, and a batch of games stepped without Python per step.
 *
 * The Python engine (engine.py, with bidding.py and observation.py) is the specification:
 * every function here mirrors the one of the same name there, and
 * tests/test_compiled_engine.py checks that both give the same trajectories, masks, views,
 * observations, scores and rank keys. Randomness is numpy's, reproduced exactly (the
 * draws of engine.h: Generator.permutation for the Cap'n's deck, Generator.choice without
 * replacement for the holds and crates, Generator.integers for their orientations), so a
 * state's generator is the same numbers as the Python state's ``rng`` and its saved form
 * is numpy's PCG64 state dict.
 *
 * ``Engine(...)`` holds one game's constants (ShipShapeGame.compiled_engine_params);
 * ``Engine.new_initial_state(rng_state)``, ``Engine.new_game(seed)`` and
 * ``Engine.from_dict(data)`` make ``State`` objects (to_dict, current_players, mask,
 * apply_joint, view, encode_into, scores, rank_keys, clone: envs/core/engine_state.h).
 * ``Encoder(*observation.compiled_params(game, module))`` encodes a ShipShapeView built
 * anywhere (the Python engine's, say) with the same code, so the game's ``encode`` is this
 * module's too. ``Batch(engine, ...)`` (envs/core/engine_batch.h) holds N games and writes
 * every pending decision's observation, mask and seat into numpy arrays
 * (envs/core/batch.py, CompiledBatch).
 *
 * Anything read from Python (a saved state, a view, an action, a buffer) is checked before
 * use: a bad one raises the project's InvalidStateError or InvalidArgumentError (a view:
 * TypeError or ValueError; an action the mask forbids: IllegalActionError), never reads
 * outside the state.
 */
#define ENGINE_ENV_ID "shipshape_v0"
#include "engine.h"

/* -- sizes -------------------------------------------------------------------------------- */

#define NUM_CARDS 10
#define ORIENTATIONS 8
#define CELLS 9
#define VOYAGES 3
#define TURNS 3                    /* turns per voyage */
#define MAX_SEATS 6                /* agents plus the Cap'n */
#define MAX_GROUPS 2
#define MAX_GROUP 4                /* seats in one bidding group */
#define MAX_STACK (TURNS * MAX_GROUP)
#define MAX_CRATES 64
#define NUM_HOLDS 18
#define HOLDS_PER_VOYAGE 6
#define MAX_BIDS (VOYAGES * TURNS * 2 * MAX_SEATS + MAX_SEATS)
#define SCORE_PARTS 6              /* gold, cannons, contraband, full_ship, raw, coins */
#define FULL_SHIP_BONUS 8
#define MAX_CODES 16               /* cell codes (the game has 11) */
#define CELL_FEATURES 5
#define TILE (CELLS * CELL_FEATURES)
#define OUTCOME_FEATURES 6
#define MAX_ACTIONS 32
#define MAX_INT_SAVED 2147483647LL /* checks.MAX_INT: ints without a bound of their own */

enum { DECIDE_NONE, DECIDE_BID, DECIDE_PLACE, DECIDE_OTHER };

/* -- the game's constants ----------------------------------------------------------------- */

typedef struct {
    long n, S, capn;               /* agents, seats, the Cap'n's seat (-1: none) */
    long six;                      /* six seats: two groups a voyage */
    long ngroups, group_size, stack_size, num_crates, num_actions, bid0, place0;
    uint8_t groups[VOYAGES][MAX_GROUPS][MAX_GROUP];   /* each voyage's groups, seats */
    uint8_t group_len[VOYAGES][MAX_GROUPS];
    uint8_t group_index[VOYAGES][MAX_SEATS];
    uint8_t hold_cells[NUM_HOLDS + 1][CELLS];         /* printed cells of hold 1-18 */
    uint8_t voyage_holds[VOYAGES][HOLDS_PER_VOYAGE];  /* components.VOYAGE_HOLDS */
    uint8_t compose[ORIENTATIONS][ORIENTATIONS];      /* geometry.COMPOSE */
    /* oriented[crate][o]: crate 1-num_crates as it lies in orientation o */
    uint8_t oriented[MAX_CRATES + 1][ORIENTATIONS][CELLS];
} rules;

/* -- the state ---------------------------------------------------------------------------- */

typedef struct { uint8_t crate, orient; } crate_at;            /* (crate id, orientation) */
typedef struct { uint8_t seat, crate, orient; } taken_crate;   /* a placing entry */

/* Every field of engine.py's ShipShapeState, in its order (lists with their lengths). */
typedef struct {
    pcg64 rng;
    int64_t turns;
    int8_t voyage, turn, done;
    /* crew cards in hand (sorted; the Cap'n's deck, top first) and discarded, in order */
    uint8_t hand[MAX_SEATS][NUM_CARDS], hand_len[MAX_SEATS];
    uint8_t discard[MAX_SEATS][NUM_CARDS], discard_len[MAX_SEATS];
    int64_t coins[MAX_SEATS];
    uint8_t holds[VOYAGES][MAX_SEATS];         /* hold_history, num_voyages entries */
    int8_t num_voyages;
    crate_at placed[MAX_SEATS][TURNS];
    uint8_t placed_len[MAX_SEATS];
    crate_at stack[MAX_GROUPS][MAX_STACK];     /* top first */
    uint8_t stack_len[MAX_GROUPS];
    uint8_t unused[MAX_CRATES];
    uint8_t unused_len;
    uint8_t need[MAX_GROUPS][MAX_GROUP], need_len[MAX_GROUPS];
    uint8_t stage[MAX_GROUPS];
    taken_crate placing[MAX_GROUPS][MAX_GROUP];
    uint8_t placing_len[MAX_GROUPS];
    uint8_t bids[MAX_BIDS][5];                 /* voyage, turn, stage, seat, card */
    int16_t num_bids;
    int64_t scores[VOYAGES][MAX_SEATS][SCORE_PARTS];   /* voyage_scores */
    int8_t num_scores;
    uint8_t visible[MAX_SEATS][CELLS];         /* derived: every hold seen from above */
} ss_state;

/* -- whose decision ----------------------------------------------------------------------- */

/* current_players: the seats asked now, in seat order, into ``seats``; their count */
static long current_players(const rules *g, const ss_state *s, long *seats)
{
    long k = 0;
    if (s->done)
        return 0;
    int acting[MAX_SEATS] = {0};
    for (long grp = 0; grp < g->ngroups; grp++) {
        if (s->placing_len[grp]) {
            for (long i = 0; i < s->placing_len[grp]; i++)
                acting[s->placing[grp][i].seat] = 1;
        } else {
            for (long i = 0; i < s->need_len[grp]; i++)
                if (s->need[grp][i] != g->capn)
                    acting[s->need[grp][i]] = 1;
        }
    }
    for (long seat = 0; seat < g->S; seat++)
        if (acting[seat])
            seats[k++] = seat;
    return k;
}

static inline long voyage_index(const ss_state *s)
{
    return s->voyage < VOYAGES - 1 ? s->voyage : VOYAGES - 1;
}

/* decision: what ``seat`` must decide now (DECIDE_BID, DECIDE_PLACE or DECIDE_NONE) */
static int decision(const rules *g, const ss_state *s, long seat)
{
    long seats[MAX_SEATS], k = current_players(g, s, seats);
    for (long i = 0; i < k; i++)
        if (seats[i] == seat)
            return s->placing_len[g->group_index[voyage_index(s)][seat]] ? DECIDE_PLACE
                                                                          : DECIDE_BID;
    return DECIDE_NONE;
}

/* legal_actions_mask into ``mask`` (num_actions bytes, zeroed) */
static void fill_mask(const rules *g, const ss_state *s, long seat, int8_t *mask)
{
    int kind = decision(g, s, seat);
    if (kind == DECIDE_BID) {
        for (long i = 0; i < s->hand_len[seat]; i++)
            mask[g->bid0 + s->hand[seat][i] - 1] = 1;
    } else if (kind == DECIDE_PLACE) {
        for (long a = 0; a < ORIENTATIONS; a++)
            mask[g->place0 + a] = 1;
    }
}

/* -- moves -------------------------------------------------------------------------------- */

/* _place_all for one crate: on ``seat``'s hold, the hold showing through its holes */
static void place_crate(const rules *g, ss_state *s, long seat, long crate, long orient)
{
    if (s->placed_len[seat] >= TURNS)      /* never by the rules (validate) */
        return;
    crate_at *at = &s->placed[seat][s->placed_len[seat]++];
    at->crate = (uint8_t)crate;
    at->orient = (uint8_t)orient;
    const uint8_t *cells = g->oriented[crate][orient];
    for (int i = 0; i < CELLS; i++)
        if (cells[i])
            s->visible[seat][i] = cells[i];
}

static void start_turn(const rules *g, ss_state *s)
{
    long v = voyage_index(s);
    for (long k = 0; k < g->ngroups; k++) {
        memcpy(s->need[k], g->groups[v][k], MAX_GROUP);
        s->need_len[k] = g->group_len[v][k];
        s->stage[k] = 1;
        s->placing_len[k] = 0;
    }
}

/* _start_voyage: empty holds, the voyage's crate stacks drawn from the unused crates */
static void start_voyage(const rules *g, ss_state *s)
{
    const uint8_t *holds = s->holds[s->num_voyages - 1];
    for (long seat = 0; seat < g->S; seat++) {
        s->placed_len[seat] = 0;
        memcpy(s->visible[seat], g->hold_cells[holds[seat]], CELLS);
    }
    long take = g->stack_size * g->ngroups, picks[MAX_CRATES], orients[MAX_CRATES];
    if (take > s->unused_len)                  /* never by the rules (validate) */
        take = s->unused_len;
    choice_no_replace(&s->rng, s->unused_len, take, picks);
    for (long i = 0; i < take; i++)
        orients[i] = (long)integers32(&s->rng, ORIENTATIONS);
    int taken[MAX_CRATES + 1] = {0};
    for (long i = 0; i < take; i++) {
        crate_at *at = &s->stack[i / g->stack_size][i % g->stack_size];
        at->crate = s->unused[picks[i]];
        at->orient = (uint8_t)orients[i];
        taken[at->crate] = 1;
    }
    for (long k = 0; k < g->ngroups; k++) {
        long from = k * g->stack_size, left = take - from;
        s->stack_len[k] = (uint8_t)(left < 0 ? 0 : left < g->stack_size ? left : g->stack_size);
    }
    long kept = 0;
    for (long i = 0; i < s->unused_len; i++)
        if (!taken[s->unused[i]])
            s->unused[kept++] = s->unused[i];
    s->unused_len = (uint8_t)kept;
    s->turn = 0;
    start_turn(g, s);
}

/* geometry.totals of a top-down view: gold, cannons, contraband, rats, cells with goods */
static void view_totals(const uint8_t *cells, long tot[5])
{
    for (int f = 0; f < 5; f++)
        tot[f] = 0;
    for (int i = 0; i < CELLS; i++) {
        long c = cells[i];
        if (c == 1) {
            tot[3]++;
        } else if (c >= 2) {
            tot[(c - 2) / 3] += (c - 2) % 3 + 1;
            tot[4]++;
        }
    }
}

/* geometry.score_voyage: every seat's parts into s->scores[num_scores], coins added */
static void score_voyage(const rules *g, ss_state *s)
{
    long tot[MAX_SEATS][5], low = 0, high = 0;
    for (long seat = 0; seat < g->S; seat++) {
        view_totals(s->visible[seat], tot[seat]);
        if (seat == 0 || tot[seat][1] < low)
            low = tot[seat][1];
        if (seat == 0 || tot[seat][2] > high)
            high = tot[seat][2];
    }
    if (s->num_scores >= VOYAGES)              /* never by the rules (validate) */
        return;
    int64_t (*row)[SCORE_PARTS] = s->scores[s->num_scores++];
    for (long seat = 0; seat < g->S; seat++) {
        int64_t *p = row[seat];
        p[0] = tot[seat][0] - tot[seat][3];
        p[1] = tot[seat][1] - low;
        p[2] = tot[seat][2] == high ? 0 : tot[seat][2];
        p[3] = tot[seat][4] == CELLS ? FULL_SHIP_BONUS : 0;
        p[4] = p[0] + p[1] + p[2] + p[3];
        p[5] = p[4] > 0 ? p[4] : 0;
        s->coins[seat] += p[5];
    }
}

/* _assign_holds: the next set's holds drawn; most coins takes the highest-numbered one,
 * equal coins: the seat that had the lower-numbered hold takes the higher one */
static void assign_holds(const rules *g, ss_state *s)
{
    long S = g->S, picks[HOLDS_PER_VOYAGE], drawn[MAX_SEATS], order[MAX_SEATS];
    choice_no_replace(&s->rng, HOLDS_PER_VOYAGE, S, picks);
    for (long i = 0; i < S; i++)
        drawn[i] = g->voyage_holds[s->voyage][picks[i]];
    for (long i = 1; i < S; i++)               /* descending */
        for (long j = i; j > 0 && drawn[j - 1] < drawn[j]; j--) {
            long t = drawn[j];
            drawn[j] = drawn[j - 1];
            drawn[j - 1] = t;
        }
    const uint8_t *last = s->holds[s->num_voyages - 1];
    for (long i = 0; i < S; i++)
        order[i] = i;
    for (long i = 1; i < S; i++)               /* stable: by (-coins, last hold) */
        for (long j = i; j > 0; j--) {
            long a = order[j - 1], b = order[j];
            int later = s->coins[a] < s->coins[b]
                || (s->coins[a] == s->coins[b] && last[a] > last[b]);
            if (!later)
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    if (s->num_voyages >= VOYAGES)             /* never by the rules (validate) */
        return;
    uint8_t *next = s->holds[s->num_voyages++];
    for (long i = 0; i < S; i++)
        next[order[i]] = (uint8_t)drawn[i];
}

static void end_turn(const rules *g, ss_state *s)
{
    s->turns++;
    s->turn++;
    if (s->turn < TURNS) {
        start_turn(g, s);
        return;
    }
    score_voyage(g, s);
    if (s->voyage + 1 >= VOYAGES) {
        s->done = 1;
        for (long k = 0; k < g->ngroups; k++)
            s->need_len[k] = s->placing_len[k] = 0;
        return;
    }
    s->voyage++;
    assign_holds(g, s);
    start_voyage(g, s);
}

static void sort_cards(uint8_t *cards, long n)
{
    for (long i = 1; i < n; i++)
        for (long j = i; j > 0 && cards[j - 1] > cards[j]; j--) {
            uint8_t t = cards[j];
            cards[j] = cards[j - 1];
            cards[j - 1] = t;
        }
}

/* _resolve_bids: reveal group k's bids (``act[seat]`` for the agents), hand out crates,
 * set up the next step */
static void resolve_bids(const rules *g, ss_state *s, long k, const long *act)
{
    long capn = g->capn, m = s->need_len[k], stage = s->stage[k];
    uint8_t bidders[MAX_GROUP];
    long cards[MAX_GROUP];
    memcpy(bidders, s->need[k], MAX_GROUP);
    for (long i = 0; i < m; i++) {
        long seat = bidders[i], card;
        uint8_t *hand = s->hand[seat], *disc = s->discard[seat];
        if (seat == capn) {
            if (s->hand_len[seat] == 0) {   /* his deck ran out: shuffle his discards */
                memcpy(hand, disc, s->discard_len[seat]);
                s->hand_len[seat] = s->discard_len[seat];
                s->discard_len[seat] = 0;
                sort_cards(hand, s->hand_len[seat]);
                shuffle_u8(&s->rng, hand, s->hand_len[seat]);   /* rng.permutation, applied */
            }
            if (s->hand_len[seat] == 0)     /* never by the rules (validate) */
                return;
            card = hand[0];
            memmove(hand, hand + 1, (size_t)(s->hand_len[seat] - 1));
            s->hand_len[seat]--;
        } else {
            card = act[seat] - g->bid0 + 1;
            long kept = 0;
            for (long j = 0; j < s->hand_len[seat]; j++)
                if (hand[j] != card)
                    hand[kept++] = hand[j];
            s->hand_len[seat] = (uint8_t)kept;
        }
        if (s->discard_len[seat] < NUM_CARDS)
            disc[s->discard_len[seat]++] = (uint8_t)card;
        if (s->hand_len[seat] == 1 && seat != capn) {
            /* down to one card: take all the discarded cards back into the hand */
            for (long j = 0; j < s->discard_len[seat] && s->hand_len[seat] < NUM_CARDS; j++)
                hand[s->hand_len[seat]++] = disc[j];
            s->discard_len[seat] = 0;
            sort_cards(hand, s->hand_len[seat]);
        }
        cards[i] = card;
        if (s->num_bids < MAX_BIDS) {
            uint8_t *b = s->bids[s->num_bids++];
            b[0] = (uint8_t)s->voyage;
            b[1] = (uint8_t)s->turn;
            b[2] = (uint8_t)stage;
            b[3] = (uint8_t)seat;
            b[4] = (uint8_t)card;
        }
    }
    long order[MAX_GROUP], norder = 0, tied[MAX_GROUP], ntied = 0;
    for (long i = 0; i < m; i++) {
        long same = 0;
        for (long j = 0; j < m; j++)
            same += cards[j] == cards[i];
        if (same > 1)
            tied[ntied++] = i;
        else
            order[norder++] = i;
    }
    /* highest card first (the untied cards differ) */
    for (long i = 1; i < norder; i++)
        for (long j = i; j > 0 && cards[order[j - 1]] < cards[order[j]]; j--) {
            long t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (long i = 0; i < norder; i++)
        order[i] = bidders[order[i]];
    if (stage == 1) {
        for (long i = 0; i < ntied; i++)
            s->need[k][i] = bidders[tied[i]];
        s->need_len[k] = (uint8_t)ntied;
        s->stage[k] = 2;
    } else {
        /* tied twice: from the highest- to the lowest-numbered hold */
        const uint8_t *holds = s->holds[s->num_voyages - 1];
        long first = norder;
        for (long i = 0; i < ntied; i++)
            order[norder++] = bidders[tied[i]];
        for (long i = first + 1; i < norder; i++)
            for (long j = i; j > first && holds[order[j - 1]] < holds[order[j]]; j--) {
                long t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        s->need_len[k] = 0;
    }
    if (norder > s->stack_len[k])              /* never by the rules (validate) */
        norder = s->stack_len[k];
    long np = 0;
    taken_crate placing[MAX_GROUP];
    for (long i = 0; i < norder; i++) {
        long seat = order[i];
        crate_at c = s->stack[k][i];
        if (seat == capn) {   /* the Cap'n places it exactly as it lay in the stack */
            place_crate(g, s, seat, c.crate, c.orient);
        } else {
            placing[np].seat = (uint8_t)seat;
            placing[np].crate = c.crate;
            placing[np++].orient = c.orient;
        }
    }
    memmove(s->stack[k], s->stack[k] + norder, sizeof(crate_at) * (size_t)(s->stack_len[k] - norder));
    s->stack_len[k] = (uint8_t)(s->stack_len[k] - norder);
    for (long i = 1; i < np; i++)              /* by seat */
        for (long j = i; j > 0 && placing[j - 1].seat > placing[j].seat; j--) {
            taken_crate t = placing[j];
            placing[j] = placing[j - 1];
            placing[j - 1] = t;
        }
    memcpy(s->placing[k], placing, sizeof(taken_crate) * (size_t)np);
    s->placing_len[k] = (uint8_t)np;
}

/* _apply: every decider's action (``act[seat]``), already checked against the masks */
static void apply_joint(const rules *g, ss_state *s, const long *act)
{
    for (long k = 0; k < g->ngroups; k++) {
        if (s->placing_len[k]) {
            for (long i = 0; i < s->placing_len[k]; i++) {
                const taken_crate *t = &s->placing[k][i];
                place_crate(g, s, t->seat, t->crate,
                            g->compose[t->orient][act[t->seat] - g->place0]);
            }
            s->placing_len[k] = 0;
        } else if (s->need_len[k]) {
            resolve_bids(g, s, k, act);
        }
    }
    for (long k = 0; k < g->ngroups; k++)
        if (s->need_len[k] || s->placing_len[k])
            return;
    end_turn(g, s);
}

/* setup: crew cards, the Cap'n's shuffled deck, Voyage 1 holds and crate stacks (the
 * state's generator already seeded) */
static void setup(const rules *g, ss_state *s)
{
    pcg64 rng = s->rng;
    memset(s, 0, sizeof(*s));
    s->rng = rng;
    for (long seat = 0; seat < g->S; seat++) {
        for (long c = 0; c < NUM_CARDS; c++)
            s->hand[seat][c] = (uint8_t)(c + 1);
        s->hand_len[seat] = NUM_CARDS;
    }
    if (g->capn >= 0)
        shuffle_u8(&s->rng, s->hand[g->capn], NUM_CARDS);
    for (long c = 0; c < g->num_crates; c++)
        s->unused[c] = (uint8_t)(c + 1);
    s->unused_len = (uint8_t)g->num_crates;
    long picks[HOLDS_PER_VOYAGE];
    choice_no_replace(&s->rng, HOLDS_PER_VOYAGE, g->S, picks);
    for (long seat = 0; seat < g->S; seat++)
        s->holds[0][seat] = g->voyage_holds[0][picks[seat]];
    s->num_voyages = 1;
    start_voyage(g, s);
}

static void scores(const rules *g, const ss_state *s, double *out)
{
    for (long p = 0; p < g->n; p++)
        out[p] = (double)s->coins[p];
}

/* rank_keys: (coins, current hold number) of every seat, the Cap'n last */
static long rank_keys(const rules *g, const ss_state *s, double *keys)
{
    for (long seat = 0; seat < g->S; seat++) {
        keys[2 * seat] = (double)s->coins[seat];
        keys[2 * seat + 1] = (double)s->holds[s->num_voyages - 1][seat];
    }
    return g->S;
}

/* -- validate: the invariants of engine.py's ShipShapeState.validate ---------------------- */

/* NULL when ``s`` is a legal position, else what is wrong (the derived visible holds are
 * rebuilt first, as ShipShapeState.loaded does). Beyond Python's checks it refuses what no
 * game reaches and the rules here could not replay alike: a seat listed twice in a
 * group's bidders, re-bids revealed while the group still re-bids. */
static const char *check_state(const rules *g, ss_state *s)
{
    const long S = g->S;
    long v = s->voyage;
    if ((s->turn == TURNS) != s->done)
        return "turn: a voyage ended mid-game (or the game ended mid-voyage)";
    if (s->done && s->voyage != VOYAGES - 1)
        return "done: the game ended before voyage 3";
    if (s->turns != TURNS * s->voyage + s->turn)
        return "turns: not the turns played so far";
    for (long seat = 0; seat < S; seat++) {
        int count[NUM_CARDS + 1] = {0};
        for (long i = 0; i < s->hand_len[seat]; i++)
            count[s->hand[seat][i]]++;
        for (long i = 0; i < s->discard_len[seat]; i++)
            count[s->discard[seat][i]]++;
        for (long c = 1; c <= NUM_CARDS; c++)
            if (count[c] != 1)
                return "a seat's crew cards were created or lost";
        if (seat != g->capn) {
            if (s->hand_len[seat] < 2)
                return "hands: a seat holds fewer than 2 cards (it takes its discards back)";
            for (long i = 1; i < s->hand_len[seat]; i++)
                if (s->hand[seat][i - 1] > s->hand[seat][i])
                    return "hands: a seat's hand is kept sorted";
        }
    }
    /* crates: this voyage's draw is in the stacks, being placed or on holds, once */
    int where[MAX_CRATES + 1] = {0};
    long in_play = 0;
    for (long k = 0; k < g->ngroups; k++) {
        for (long i = 0; i < s->stack_len[k]; i++, in_play++)
            if (where[s->stack[k][i].crate]++)
                return "a crate is in two places";
        for (long i = 0; i < s->placing_len[k]; i++, in_play++)
            if (where[s->placing[k][i].crate]++)
                return "a crate is in two places";
    }
    for (long seat = 0; seat < S; seat++)
        for (long i = 0; i < s->placed_len[seat]; i++, in_play++)
            if (where[s->placed[seat][i].crate]++)
                return "a crate is in two places";
    if (in_play != TURNS * S)
        return "a crate of this voyage was created or lost";
    int unused_seen[MAX_CRATES + 1] = {0};
    for (long i = 0; i < s->unused_len; i++) {
        if (where[s->unused[i]])
            return "a crate both drawn and unused";
        if (unused_seen[s->unused[i]]++)
            return "unused: not the crates left after this many voyages";
    }
    if (s->unused_len != g->num_crates - TURNS * S * (s->voyage + 1))
        return "unused: not the crates left after this many voyages";
    /* each seat takes one crate per turn, from its own group's stack */
    int taking[MAX_SEATS] = {0}, needs[MAX_SEATS] = {0};
    for (long k = 0; k < g->ngroups; k++) {
        long len = g->group_len[v][k], placed = 0;
        int in_group[MAX_SEATS] = {0}, in_need[MAX_SEATS] = {0};
        for (long i = 0; i < len; i++) {
            in_group[g->groups[v][k][i]] = 1;
            placed += s->placed_len[g->groups[v][k][i]];
        }
        if (s->stack_len[k] + placed + s->placing_len[k] != TURNS * len)
            return "stacks: a group's crates do not add up to its stack";
        for (long i = 0; i < s->need_len[k]; i++) {
            long seat = s->need[k][i];
            if (!in_group[seat])
                return "need: a seat outside its group";
            if (in_need[seat]++)
                return "need: a seat listed twice";
            needs[seat] = 1;
        }
        for (long i = 0; i < s->placing_len[k]; i++) {
            long seat = s->placing[k][i].seat;
            if (!in_group[seat] || taking[seat])
                return "placing: a seat outside its group, or twice";
            if (seat == g->capn)
                return "placing: the Cap'n places at once";
            if (in_need[seat])
                return "a seat both bids and places";
            taking[seat] = 1;
        }
        if (s->stage[k] == 1 && !s->done) {
            if (s->placing_len[k] || s->need_len[k] != len
                    || memcmp(s->need[k], g->groups[v][k], (size_t)len) != 0)
                return "need: the whole group bids at stage 1";
        }
    }
    for (long seat = 0; seat < S; seat++) {
        long have = s->placed_len[seat] + taking[seat];
        if (s->done) {
            if (have != TURNS)
                return "placed: three crates each at the end";
        } else {
            if (have < s->turn || have > s->turn + 1)
                return "placed: a seat has a crate too many or too few";
            if ((have == s->turn + 1) == needs[seat])
                return "a seat without one crate a turn";
        }
    }
    if (s->done)
        for (long k = 0; k < g->ngroups; k++)
            if (s->need_len[k] || s->placing_len[k])
                return "need/placing: bids or placements pending after the game";
    /* holds: one per seat from each voyage's set, all different */
    if (s->num_voyages != s->voyage + 1)
        return "hold_history: not one entry per voyage so far";
    for (long vo = 0; vo < s->num_voyages; vo++) {
        int seen[NUM_HOLDS + 1] = {0};
        for (long seat = 0; seat < S; seat++) {
            long h = s->holds[vo][seat], ok = 0;
            if (seen[h]++)
                return "hold_history: a hold dealt twice";
            for (long i = 0; i < HOLDS_PER_VOYAGE; i++)
                ok |= g->voyage_holds[vo][i] == h;
            if (!ok)
                return "hold_history: a hold outside its voyage's set";
        }
    }
    /* the derived visible holds */
    for (long seat = 0; seat < S; seat++) {
        memcpy(s->visible[seat], g->hold_cells[s->holds[s->num_voyages - 1][seat]], CELLS);
        for (long i = 0; i < s->placed_len[seat]; i++) {
            const uint8_t *cells = g->oriented[s->placed[seat][i].crate][s->placed[seat][i].orient];
            for (int c = 0; c < CELLS; c++)
                if (cells[c])
                    s->visible[seat][c] = cells[c];
        }
    }
    /* coins are the voyages' scoring; one score row per finished voyage */
    if (s->num_scores != s->voyage + s->done)
        return "voyage_scores: not one entry per finished voyage";
    for (long seat = 0; seat < S; seat++) {
        int64_t sum = 0;
        for (long vo = 0; vo < s->num_scores; vo++)
            sum += s->scores[vo][seat][5];
        if (sum != s->coins[seat])
            return "coins: not the voyages' scores";
    }
    for (long vo = 0; vo < s->num_scores; vo++) {
        int64_t low = 0;
        for (long seat = 0; seat < S; seat++) {
            const int64_t *r = s->scores[vo][seat];
            int64_t raw = r[0] + r[1] + r[2] + r[3];
            if (r[4] != raw || r[5] != (raw > 0 ? raw : 0))
                return "voyage_scores: a row does not add up";
            if (r[1] < 0 || r[2] < 0 || (r[3] != 0 && r[3] != FULL_SHIP_BONUS))
                return "voyage_scores: an impossible cannons, contraband or full-ship score";
            if (seat == 0 || r[1] < low)
                low = r[1];
        }
        if (low != 0)
            return "voyage_scores: the lowest cannons must score 0";
    }
    /* _validate_bids: in order, one per seat and bidding stage; this turn's first bids
     * decide who re-bids */
    for (long i = 0; i < s->num_bids; i++) {
        const uint8_t *b = s->bids[i];
        if (i > 0) {
            const uint8_t *a = s->bids[i - 1];
            if (a[0] > b[0] || (a[0] == b[0] && (a[1] > b[1] || (a[1] == b[1] && a[2] > b[2]))))
                return "bids: not in the order they were revealed";
        }
        if (b[0] > s->voyage || (b[0] == s->voyage && b[1] > s->turn))
            return "bids: a bid from a turn still to come";
        for (long j = 0; j < i; j++)
            if (memcmp(s->bids[j], b, 4) == 0)
                return "bids: a seat bid twice in one stage";
    }
    if (s->done)
        return NULL;
    for (long k = 0; k < g->ngroups; k++) {
        long len = g->group_len[v][k];
        int in_group[MAX_SEATS] = {0}, has_first[MAX_SEATS] = {0}, rebid[MAX_SEATS] = {0};
        long first[MAX_SEATS] = {0}, now = 0;
        for (long i = 0; i < len; i++)
            in_group[g->groups[v][k][i]] = 1;
        for (long i = 0; i < s->num_bids; i++) {
            const uint8_t *b = s->bids[i];
            if (b[0] != s->voyage || b[1] != s->turn || !in_group[b[3]])
                continue;
            now++;
            if (b[2] == 1) {
                has_first[b[3]] = 1;
                first[b[3]] = b[4];
            } else {
                rebid[b[3]] = 1;
            }
        }
        if (s->stage[k] == 1) {
            if (now)
                return "bids: the group has bid although its turn has not begun";
            continue;
        }
        for (long seat = 0; seat < S; seat++)
            if (has_first[seat] != in_group[seat])
                return "bids: stage 2 without everyone's first bid";
        int tied[MAX_SEATS] = {0};
        for (long a = 0; a < S; a++)
            for (long b = 0; b < S; b++)
                if (a != b && has_first[a] && has_first[b] && first[a] == first[b])
                    tied[a] = 1;
        for (long seat = 0; seat < S; seat++)
            if (rebid[seat] && !tied[seat])
                return "bids: a re-bid by an untied seat";
        if (s->need_len[k]) {
            int in_need[MAX_SEATS] = {0};
            for (long i = 0; i < s->need_len[k]; i++)
                in_need[s->need[k][i]] = 1;
            for (long seat = 0; seat < S; seat++) {
                if (in_need[seat] != tied[seat])
                    return "need: not the seats tied in the first bids";
                if (rebid[seat])
                    return "bids: re-bids revealed while the group still re-bids";
            }
        }
    }
    return NULL;
}

/* -- reading a saved state (the JSON loader) ---------------------------------------------- */

/* ``obj`` as a list or a tuple (the Python loader reads a tuple as a list) of exactly
 * ``len`` items (len >= 0) or at most ``max_len``; its items in ``*items`` (borrowed), the
 * count returned (-1 on error) */
static Py_ssize_t read_seq(PyObject *obj, const char *name, Py_ssize_t len, Py_ssize_t max_len,
                           PyObject ***items)
{
    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: expected a list, got %.80s",
                     name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(obj);
    if ((len >= 0 && k != len) || (len < 0 && k > max_len)) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: %zd entries, expected %s%zd",
                     name, k, len >= 0 ? "" : "at most ", len >= 0 ? len : max_len);
        return -1;
    }
    *items = PySequence_Fast_ITEMS(obj);
    return k;
}

/* a list of ints within lo..hi (exactly ``len``, or at most ``max_len``) into ``out`` */
static Py_ssize_t read_ints(PyObject *obj, const char *name, Py_ssize_t len, Py_ssize_t max_len,
                            long long lo, long long hi, long long *out)
{
    PyObject **items;
    Py_ssize_t k = read_seq(obj, name, len, max_len, &items);
    for (Py_ssize_t i = 0; i < k; i++)
        if (read_int(items[i], name, lo, hi, &out[i]) < 0)
            return -1;
    return k;
}

/* a list of rows of ``cols`` ints, column c within lo[c]..hi[c]; row-major into ``out`` */
static Py_ssize_t read_rows(PyObject *obj, const char *name, Py_ssize_t len, Py_ssize_t max_len,
                            int cols, const long long *lo, const long long *hi, long long *out)
{
    PyObject **rows;
    Py_ssize_t k = read_seq(obj, name, len, max_len, &rows);
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject **items;
        if (read_seq(rows[i], name, cols, 0, &items) < 0)
            return -1;
        for (int c = 0; c < cols; c++)
            if (read_int(items[c], name, lo[c], hi[c], &out[i * cols + c]) < 0)
                return -1;
    }
    return k;
}

static const char *const FIELDS[] = {
    "num_players", "turns", "voyage", "turn", "done", "hands", "discards", "coins",
    "hold_history", "placed", "stacks", "unused", "need", "stage", "placing", "bids",
    "voyage_scores", "rng",
};
#define NUM_FIELDS 18
enum { F_NUM_PLAYERS, F_TURNS, F_VOYAGE, F_TURN, F_DONE, F_HANDS, F_DISCARDS, F_COINS,
       F_HOLD_HISTORY, F_PLACED, F_STACKS, F_UNUSED, F_NEED, F_STAGE, F_PLACING, F_BIDS,
       F_VOYAGE_SCORES, F_RNG };

/* per seat (or group) lists of cards or seats into ``out[i]`` with lengths ``lens[i]`` */
static int read_lists(PyObject *obj, const char *name, long len, long max_inner, long long lo,
                      long long hi, uint8_t (*out)[NUM_CARDS], uint8_t *lens)
{
    PyObject **items;
    if (read_seq(obj, name, len, 0, &items) < 0)
        return -1;
    for (long i = 0; i < len; i++) {
        long long buf[NUM_CARDS];
        Py_ssize_t k = read_ints(items[i], name, -1, max_inner, lo, hi, buf);
        if (k < 0)
            return -1;
        for (Py_ssize_t j = 0; j < k; j++)
            out[i][j] = (uint8_t)buf[j];
        lens[i] = (uint8_t)k;
    }
    return 0;
}

/* _load_state and validate: ``data`` (a to_dict()) into ``s`` */
static int load_state(const rules *g, PyObject *data, ss_state *s)
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
        PyErr_SetString(InvalidStateError, ENGINE_ENV_ID " state: unknown fields beside "
                        "num_players, turns, ..., voyage_scores and rng");
        return -1;
    }
    const long S = g->S, L = g->stack_size, G = g->ngroups, nc = g->num_crates;
    memset(s, 0, sizeof(*s));
    /* num_players: a choice (the game's count; Python compares with ==) */
    PyObject *n_obj = PyLong_FromLong(g->n);
    if (n_obj == NULL)
        return -1;
    PyObject *np = f[F_NUM_PLAYERS];
    Py_INCREF(np);
    int same = PyBool_Check(np) ? 0 : PyObject_RichCompareBool(np, n_obj, Py_EQ);
    Py_DECREF(np);
    Py_DECREF(n_obj);
    if (same < 0)
        PyErr_Clear();
    if (same != 1)
        return bad_state("not this game's player count", "num_players");
    long long v, buf[MAX_BIDS * 5];
    if (read_int(f[F_TURNS], "turns", 0, VOYAGES * TURNS, &v) < 0)
        return -1;
    s->turns = v;
    if (read_int(f[F_VOYAGE], "voyage", 0, VOYAGES - 1, &v) < 0)
        return -1;
    s->voyage = (int8_t)v;
    if (read_int(f[F_TURN], "turn", 0, TURNS, &v) < 0)
        return -1;
    s->turn = (int8_t)v;
    if (!PyBool_Check(f[F_DONE]))
        return bad_state("expected true or false", "done");
    s->done = f[F_DONE] == Py_True;
    if (read_lists(f[F_HANDS], "hands", S, NUM_CARDS, 1, NUM_CARDS, s->hand, s->hand_len) < 0
            || read_lists(f[F_DISCARDS], "discards", S, NUM_CARDS, 1, NUM_CARDS, s->discard,
                          s->discard_len) < 0)
        return -1;
    if (read_ints(f[F_COINS], "coins", S, 0, 0, MAX_INT_SAVED, buf) < 0)
        return -1;
    for (long seat = 0; seat < S; seat++)
        s->coins[seat] = buf[seat];
    PyObject **items;
    Py_ssize_t k = read_seq(f[F_HOLD_HISTORY], "hold_history", -1, VOYAGES, &items);
    if (k < 0)
        return -1;
    if (k < 1)
        return bad_state("expected 1 to 3 entries", "hold_history");
    for (Py_ssize_t vo = 0; vo < k; vo++) {
        if (read_ints(items[vo], "hold_history", S, 0, 1, NUM_HOLDS, buf) < 0)
            return -1;
        for (long seat = 0; seat < S; seat++)
            s->holds[vo][seat] = (uint8_t)buf[seat];
    }
    s->num_voyages = (int8_t)k;
    const long long crate_lo[3] = {1, 0, 0}, crate_hi[3] = {nc, ORIENTATIONS - 1, 0};
    if (read_seq(f[F_PLACED], "placed", S, 0, &items) < 0)
        return -1;
    for (long seat = 0; seat < S; seat++) {
        Py_ssize_t rows = read_rows(items[seat], "placed", -1, TURNS, 2, crate_lo, crate_hi, buf);
        if (rows < 0)
            return -1;
        for (Py_ssize_t i = 0; i < rows; i++) {
            s->placed[seat][i].crate = (uint8_t)buf[2 * i];
            s->placed[seat][i].orient = (uint8_t)buf[2 * i + 1];
        }
        s->placed_len[seat] = (uint8_t)rows;
    }
    if (read_seq(f[F_STACKS], "stacks", G, 0, &items) < 0)
        return -1;
    for (long grp = 0; grp < G; grp++) {
        Py_ssize_t rows = read_rows(items[grp], "stacks", -1, L, 2, crate_lo, crate_hi, buf);
        if (rows < 0)
            return -1;
        for (Py_ssize_t i = 0; i < rows; i++) {
            s->stack[grp][i].crate = (uint8_t)buf[2 * i];
            s->stack[grp][i].orient = (uint8_t)buf[2 * i + 1];
        }
        s->stack_len[grp] = (uint8_t)rows;
    }
    k = read_ints(f[F_UNUSED], "unused", -1, nc, 1, nc, buf);
    if (k < 0)
        return -1;
    for (Py_ssize_t i = 0; i < k; i++)
        s->unused[i] = (uint8_t)buf[i];
    s->unused_len = (uint8_t)k;
    if (read_seq(f[F_NEED], "need", G, 0, &items) < 0)
        return -1;
    for (long grp = 0; grp < G; grp++) {
        k = read_ints(items[grp], "need", -1, g->group_size, 0, S - 1, buf);
        if (k < 0)
            return -1;
        for (Py_ssize_t i = 0; i < k; i++)
            s->need[grp][i] = (uint8_t)buf[i];
        s->need_len[grp] = (uint8_t)k;
    }
    if (read_ints(f[F_STAGE], "stage", G, 0, 1, 2, buf) < 0)
        return -1;
    for (long grp = 0; grp < G; grp++)
        s->stage[grp] = (uint8_t)buf[grp];
    const long long taken_lo[3] = {0, 1, 0}, taken_hi[3] = {S - 1, nc, ORIENTATIONS - 1};
    if (read_seq(f[F_PLACING], "placing", G, 0, &items) < 0)
        return -1;
    for (long grp = 0; grp < G; grp++) {
        Py_ssize_t rows = read_rows(items[grp], "placing", -1, g->group_size, 3, taken_lo,
                                    taken_hi, buf);
        if (rows < 0)
            return -1;
        for (Py_ssize_t i = 0; i < rows; i++) {
            s->placing[grp][i].seat = (uint8_t)buf[3 * i];
            s->placing[grp][i].crate = (uint8_t)buf[3 * i + 1];
            s->placing[grp][i].orient = (uint8_t)buf[3 * i + 2];
        }
        s->placing_len[grp] = (uint8_t)rows;
    }
    const long long bid_lo[5] = {0, 0, 1, 0, 1};
    const long long bid_hi[5] = {VOYAGES - 1, TURNS - 1, 2, S - 1, NUM_CARDS};
    k = read_rows(f[F_BIDS], "bids", -1, VOYAGES * TURNS * 2 * S, 5, bid_lo, bid_hi, buf);
    if (k < 0)
        return -1;
    for (Py_ssize_t i = 0; i < k; i++)
        for (int c = 0; c < 5; c++)
            s->bids[i][c] = (uint8_t)buf[5 * i + c];
    s->num_bids = (int16_t)k;
    k = read_seq(f[F_VOYAGE_SCORES], "voyage_scores", -1, VOYAGES, &items);
    if (k < 0)
        return -1;
    const long long part_lo[SCORE_PARTS] = {-MAX_INT_SAVED - 1, -MAX_INT_SAVED - 1,
        -MAX_INT_SAVED - 1, -MAX_INT_SAVED - 1, -MAX_INT_SAVED - 1, -MAX_INT_SAVED - 1};
    const long long part_hi[SCORE_PARTS] = {MAX_INT_SAVED, MAX_INT_SAVED, MAX_INT_SAVED,
        MAX_INT_SAVED, MAX_INT_SAVED, MAX_INT_SAVED};
    for (Py_ssize_t vo = 0; vo < k; vo++) {
        if (read_rows(items[vo], "voyage_scores", S, 0, SCORE_PARTS, part_lo, part_hi, buf) < 0)
            return -1;
        for (long seat = 0; seat < S; seat++)
            for (int c = 0; c < SCORE_PARTS; c++)
                s->scores[vo][seat][c] = buf[seat * SCORE_PARTS + c];
    }
    s->num_scores = (int8_t)k;
    if (read_rng(f[F_RNG], &s->rng) < 0)
        return -1;
    const char *why = check_state(g, s);
    if (why) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state breaks the rules: %s", why);
        return -1;
    }
    return 0;
}

/* -- writing Python values ---------------------------------------------------------------- */

static PyObject *long_tuple(const long *x, long k)
{
    PyObject *t = PyTuple_New(k);
    for (long i = 0; t && i < k; i++) {
        PyObject *v = PyLong_FromLong(x[i]);
        if (v == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *byte_tuple(const uint8_t *x, long k)
{
    long buf[MAX_CRATES];
    for (long i = 0; i < k; i++)
        buf[i] = x[i];
    return long_tuple(buf, k);
}

/* a tuple of ``k`` items made by ``make(i)`` (new references; NULL on error) */
#define TUPLE_OF(out, k, make)                                                        \
    do {                                                                              \
        out = PyTuple_New(k);                                                         \
        for (long i = 0; out && i < (k); i++) {                                       \
            PyObject *x_ = (make);                                                    \
            if (x_ == NULL) {                                                         \
                Py_CLEAR(out);                                                        \
                break;                                                                \
            }                                                                         \
            PyTuple_SET_ITEM(out, i, x_);                                             \
        }                                                                             \
    } while (0)

static PyObject *crates_tuple(const crate_at *c, long k)
{
    PyObject *out;
    TUPLE_OF(out, k, Py_BuildValue("(ii)", c[i].crate, c[i].orient));
    return out;
}

static PyObject *placing_tuple(const taken_crate *t, long k)
{
    PyObject *out;
    TUPLE_OF(out, k, Py_BuildValue("(iii)", t[i].seat, t[i].crate, t[i].orient));
    return out;
}

static PyObject *scores_row(const rules *g, const int64_t (*row)[SCORE_PARTS])
{
    PyObject *out;
    TUPLE_OF(out, g->S, Py_BuildValue("(LLLLLL)", (long long)row[i][0], (long long)row[i][1],
                                      (long long)row[i][2], (long long)row[i][3],
                                      (long long)row[i][4], (long long)row[i][5]));
    return out;
}

static PyObject *scores_tuple(const rules *g, const ss_state *s)
{
    PyObject *out;
    TUPLE_OF(out, s->num_scores, scores_row(g, (const int64_t (*)[SCORE_PARTS])s->scores[i]));
    return out;
}

/* The public fields shared by to_dict and the view (hands: the Cap'n's deck as it lies, or
 * sorted when ``sorted_capn``), by engine.py's field names. */
typedef struct {
    PyObject *hands, *discards, *coins, *hold_history, *placed, *stacks, *unused, *need,
             *stage, *placing, *bids, *voyage_scores;
} public_fields;

static void public_fields_clear(public_fields *p)
{
    PyObject **x = (PyObject **)p;
    for (size_t i = 0; i < sizeof(*p) / sizeof(PyObject *); i++)
        Py_CLEAR(x[i]);
}

static int make_public_fields(const rules *g, const ss_state *s, int sorted_capn,
                              public_fields *p)
{
    const long S = g->S, G = g->ngroups;
    memset(p, 0, sizeof(*p));
    uint8_t deck[NUM_CARDS];
    TUPLE_OF(p->hands, S, (sorted_capn && i == g->capn)
             ? (memcpy(deck, s->hand[i], s->hand_len[i]), sort_cards(deck, s->hand_len[i]),
                byte_tuple(deck, s->hand_len[i]))
             : byte_tuple(s->hand[i], s->hand_len[i]));
    TUPLE_OF(p->discards, S, byte_tuple(s->discard[i], s->discard_len[i]));
    TUPLE_OF(p->coins, S, PyLong_FromLongLong((long long)s->coins[i]));
    TUPLE_OF(p->hold_history, s->num_voyages, byte_tuple(s->holds[i], S));
    TUPLE_OF(p->placed, S, crates_tuple(s->placed[i], s->placed_len[i]));
    TUPLE_OF(p->stacks, G, crates_tuple(s->stack[i], s->stack_len[i]));
    p->unused = byte_tuple(s->unused, s->unused_len);
    TUPLE_OF(p->need, G, byte_tuple(s->need[i], s->need_len[i]));
    TUPLE_OF(p->stage, G, PyLong_FromLong(s->stage[i]));
    TUPLE_OF(p->placing, G, placing_tuple(s->placing[i], s->placing_len[i]));
    TUPLE_OF(p->bids, s->num_bids, byte_tuple(s->bids[i], 5));
    p->voyage_scores = scores_tuple(g, s);
    PyObject **x = (PyObject **)p;
    for (size_t i = 0; i < sizeof(*p) / sizeof(PyObject *); i++)
        if (x[i] == NULL) {
            public_fields_clear(p);
            return -1;
        }
    return 0;
}

static PyObject *state_to_dict(const rules *g, const ss_state *s)
{
    public_fields p;
    if (make_public_fields(g, s, 0, &p) < 0)
        return NULL;
    PyObject *d = PyDict_New();
    if (d == NULL
            || set_item(d, "num_players", PyLong_FromLong(g->n)) < 0
            || set_item(d, "turns", PyLong_FromLongLong(s->turns)) < 0
            || set_item(d, "voyage", PyLong_FromLong(s->voyage)) < 0
            || set_item(d, "turn", PyLong_FromLong(s->turn)) < 0
            || set_item(d, "done", PyBool_FromLong(s->done)) < 0
            || PyDict_SetItemString(d, "hands", p.hands) < 0
            || PyDict_SetItemString(d, "discards", p.discards) < 0
            || PyDict_SetItemString(d, "coins", p.coins) < 0
            || PyDict_SetItemString(d, "hold_history", p.hold_history) < 0
            || PyDict_SetItemString(d, "placed", p.placed) < 0
            || PyDict_SetItemString(d, "stacks", p.stacks) < 0
            || PyDict_SetItemString(d, "unused", p.unused) < 0
            || PyDict_SetItemString(d, "need", p.need) < 0
            || PyDict_SetItemString(d, "stage", p.stage) < 0
            || PyDict_SetItemString(d, "placing", p.placing) < 0
            || PyDict_SetItemString(d, "bids", p.bids) < 0
            || PyDict_SetItemString(d, "voyage_scores", p.voyage_scores) < 0
            || set_item(d, "rng", rng_to_py(&s->rng)) < 0)
        Py_CLEAR(d);
    public_fields_clear(&p);
    return d;
}

/* -- the encoder (observation.py and bidding.py) ------------------------------------------ */

/* The layout fields whose (start, stop) observation.compiled_params gives, in this order
 * (-1, -1 for a field the layout lacks: other_stack and other_stack_present below six
 * seats). */
enum {
    L_VOYAGE, L_TURN, L_DECISION, L_REBID, L_MY_HAND, L_PENDING_CRATE, L_STACK,
    L_STACK_PRESENT, L_OTHER_STACK, L_OTHER_STACK_PRESENT, L_SCORE_NOW, L_PLACE_OUTCOMES,
    L_STACK_OUTCOMES, L_BID_OUTLOOK, L_SEAT_IS_CAPN, L_SEAT_IN_MY_GROUP, L_SEAT_COINS,
    L_SEAT_HOLD, L_SEAT_HAND, L_SEAT_VISIBLE, L_SEAT_TOTALS, L_SEAT_CRATES, L_SEAT_STATUS,
    L_SEAT_BIDS, N_LAYOUT
};
static const char *const LAYOUT_FIELDS[N_LAYOUT] = {
    "voyage", "turn", "decision", "rebid", "my_hand", "pending_crate", "stack",
    "stack_present", "other_stack", "other_stack_present", "score_now", "place_outcomes",
    "stack_outcomes", "bid_outlook", "seat_is_capn", "seat_in_my_group", "seat_coins",
    "seat_hold", "seat_hand", "seat_visible", "seat_totals", "seat_crates", "seat_status",
    "seat_bids",
};

/* A crate placed on a hold, as the outcomes need it: the packed totals of its own cells
 * and the cells it leaves showing the hold (its holes). */
typedef struct {
    unsigned long own;
    unsigned char holes;
    unsigned char hole[CELLS];
} placement;

/* The encoder's constants (observation.compiled_params: the layout, the cell tables, the
 * scales, bidding.py's constants), checked against the rules on building. */
typedef struct {
    long seats, stack_size, capn, six_seat, num_crates, num_codes, no_low;
    long group_index[VOYAGES][MAX_SEATS];
    Py_ssize_t size;
    Py_ssize_t at[N_LAYOUT];              /* each layout field's start (-1: absent) */
    /* lying[crate][o]: crate as it lies in orientation o (crate 0: none, all holes);
     * placements[crate][o][a]: that crate placed in the action orientation a */
    unsigned char lying[MAX_CRATES + 1][ORIENTATIONS][CELLS];
    placement placements[MAX_CRATES + 1][ORIENTATIONS][ORIENTATIONS];
    float cell_features[MAX_CODES][CELL_FEATURES];   /* observation._CELL_TABLE */
    long cell_totals[MAX_CODES][5];        /* gold, cannons, contraband, rats, a good */
    /* the same packed in one int, 6 bits each (observation._PACKED): a sum over a tile's 9
     * cells (each total at most 27) never carries from one field into the next */
    unsigned long cell_packed[MAX_CODES];
    float out_scale[OUTCOME_FEATURES];     /* observation._OUT_SCALE */
    double coin_scale, score_scale;
    double card_cost, width, rebid_charge, heuristic_tie;   /* bidding.py */
} ss_enc;

/* The layout spans: every field's width must be what the writers below write there. */
static int enc_init_layout(ss_enc *e, PyObject *spans_seq)
{
    long *spans = ce_longs_exact(spans_seq, 2 * N_LAYOUT, "layout spans");
    if (spans == NULL)
        return -1;
    const long S = e->seats, L = e->stack_size;
    const long width[N_LAYOUT] = {
        3, 3, 2, 1, NUM_CARDS, TILE, L * TILE, L, L * TILE, L, 1,
        ORIENTATIONS * OUTCOME_FEATURES, L * OUTCOME_FEATURES, NUM_CARDS, S, S, S, S,
        S * NUM_CARDS, S * TILE, S * 5, S, S * 3, S * 2,
    };
    for (int f = 0; f < N_LAYOUT; f++) {
        long start = spans[2 * f], stop = spans[2 * f + 1];
        int optional = f == L_OTHER_STACK || f == L_OTHER_STACK_PRESENT;
        if (start == -1 && stop == -1 && optional && !e->six_seat) {
            e->at[f] = -1;
            continue;
        }
        if (start < 0 || stop - start != width[f] || stop > e->size) {
            PyErr_Format(PyExc_ValueError, "Engine: layout field %s spans [%ld, %ld), "
                         "expected %ld values within %zd", LAYOUT_FIELDS[f], start, stop,
                         width[f], e->size);
            PyMem_Free(spans);
            return -1;
        }
        e->at[f] = start;
    }
    PyMem_Free(spans);
    return 0;
}

/* The per-code tables: cell features (floats) and totals (ints). */
static int enc_init_cells(ss_enc *e, PyObject *features_seq, PyObject *totals_seq)
{
    Py_ssize_t n;
    double *features = ce_doubles_new(features_seq, "cell features", &n);
    if (features == NULL)
        return -1;
    long *totals = NULL;
    int rc = -1;
    if (n % CELL_FEATURES != 0 || n / CELL_FEATURES < 11 || n / CELL_FEATURES > MAX_CODES) {
        PyErr_SetString(PyExc_ValueError, "Engine: cell features must be 5 per code");
        goto done;
    }
    e->num_codes = (long)(n / CELL_FEATURES);
    totals = ce_longs_exact(totals_seq, n, "cell totals");
    if (totals == NULL)
        goto done;
    for (long c = 0; c < e->num_codes; c++)
        for (int f = 0; f < 5; f++) {
            e->cell_features[c][f] = (float)features[c * CELL_FEATURES + f];
            e->cell_totals[c][f] = totals[c * 5 + f];
            if (totals[c * 5 + f] < 0 || totals[c * 5 + f] > 3) {
                PyErr_SetString(PyExc_ValueError, "Engine: cell totals must be 0-3");
                goto done;
            }
            e->cell_packed[c] |= (unsigned long)totals[c * 5 + f] << (6 * f);
        }
    rc = 0;
done:
    PyMem_Free(features);
    PyMem_Free(totals);
    return rc;
}

/* The crates as they lie and as they are placed, from their cells and geometry.PERMS. */
static int enc_init_crates(ss_enc *e, PyObject *cells_seq, PyObject *perms_seq)
{
    Py_ssize_t n;
    long *cells = ce_longs_new(cells_seq, "crate cells", &n);
    if (cells == NULL)
        return -1;
    long *perms = ce_longs_exact(perms_seq, ORIENTATIONS * CELLS, "perms");
    int rc = -1;
    if (perms == NULL)
        goto done;
    if (n % CELLS != 0 || n / CELLS > MAX_CRATES) {
        PyErr_SetString(PyExc_ValueError, "Engine: crate cells must be 9 per crate");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (cells[i] < 0 || cells[i] >= e->num_codes) {
            PyErr_Format(PyExc_ValueError, "Engine: crate cell code %ld out of range",
                         cells[i]);
            goto done;
        }
    for (int i = 0; i < ORIENTATIONS * CELLS; i++)
        if (perms[i] < 0 || perms[i] >= CELLS) {
            PyErr_SetString(PyExc_ValueError, "Engine: perms must index 9 cells");
            goto done;
        }
    e->num_crates = (long)(n / CELLS);
    memset(e->lying, 0, sizeof(e->lying));
    memset(e->placements, 0, sizeof(e->placements));
    /* orient(cells, k)[i] = cells[PERMS[k][i]] */
    for (long c = 1; c <= e->num_crates; c++)
        for (int o = 0; o < ORIENTATIONS; o++) {
            unsigned char *lying = e->lying[c][o];
            for (int i = 0; i < CELLS; i++)
                lying[i] = (unsigned char)cells[(c - 1) * CELLS + perms[o * CELLS + i]];
            for (int a = 0; a < ORIENTATIONS; a++) {
                placement *pl = &e->placements[c][o][a];
                for (int i = 0; i < CELLS; i++) {
                    unsigned char code = lying[perms[a * CELLS + i]];
                    pl->own += e->cell_packed[code];
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

/* ss_enc from observation.compiled_params' tuple: (seats, stack_size, capn, six_seat,
 * group_index, size, layout_spans, crate_cells, perms, cell_features, cell_totals,
 * out_scale, coin_scale, score_scale, no_low, bidding) */
static int enc_init(ss_enc *e, PyObject *params)
{
    long seats, stack_size, capn, no_low;
    int six_seat;
    Py_ssize_t size;
    double coin_scale, score_scale;
    PyObject *group_index, *spans, *crate_cells, *perms, *features, *totals, *out_scale;
    PyObject *bidding;
    if (!PyTuple_Check(params)) {
        PyErr_SetString(PyExc_TypeError, "encoder_params: expected a tuple");
        return -1;
    }
    if (!PyArg_ParseTuple(params, "lllpOnOOOOOOddlO:encoder_params", &seats, &stack_size,
                          &capn, &six_seat, &group_index, &size, &spans, &crate_cells, &perms,
                          &features, &totals, &out_scale, &coin_scale, &score_scale, &no_low,
                          &bidding))
        return -1;
    if (seats < 2 || seats > MAX_SEATS || stack_size < 1 || stack_size > MAX_STACK
            || capn < -1 || capn >= seats || size < 1) {
        PyErr_SetString(PyExc_ValueError, "encoder_params: seats, stack_size, capn or size "
                        "out of range");
        return -1;
    }
    e->seats = seats;
    e->stack_size = stack_size;
    e->capn = capn;
    e->six_seat = six_seat;
    e->size = size;
    e->coin_scale = coin_scale;
    e->score_scale = score_scale;
    e->no_low = no_low;
    long *groups = ce_longs_exact(group_index, VOYAGES * seats, "group_index");
    if (groups == NULL)
        return -1;
    for (int v = 0; v < VOYAGES; v++)
        for (long s = 0; s < seats; s++) {
            long g = groups[v * seats + s];
            if (g < 0 || g > (six_seat ? 1 : 0)) {
                PyErr_SetString(PyExc_ValueError, "encoder_params: group_index must be 0 "
                                "(or 1 with six seats)");
                PyMem_Free(groups);
                return -1;
            }
            e->group_index[v][s] = g;
        }
    PyMem_Free(groups);
    double *constants = ce_doubles_exact(bidding, 4, "bidding");
    if (constants == NULL)
        return -1;
    e->card_cost = constants[0];
    e->width = constants[1];
    e->rebid_charge = constants[2];
    e->heuristic_tie = constants[3];
    PyMem_Free(constants);
    if (!(e->width > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "encoder_params: the bidding width must be > 0");
        return -1;
    }
    double *scale = ce_doubles_exact(out_scale, OUTCOME_FEATURES, "out_scale");
    if (scale == NULL)
        return -1;
    for (int f = 0; f < OUTCOME_FEATURES; f++)
        e->out_scale[f] = (float)scale[f];
    PyMem_Free(scale);
    if (enc_init_layout(e, spans) < 0 || enc_init_cells(e, features, totals) < 0
            || enc_init_crates(e, crate_cells, perms) < 0)
        return -1;
    return 0;
}

/* One position as the writers read it: the table (a state's public fields), the seat
 * deciding and what it decides, and the facts several blocks use. */
typedef struct {
    const ss_state *s;
    long player, group, v;          /* v: min(voyage, 2), the index of the groups */
    int decision;                   /* DECIDE_* */
    long tot[MAX_SEATS][5];         /* every seat's hold: gold, cannons, contraband, rats,
                                     * cells showing goods */
} enc_view;

static void enc_facts(const ss_enc *e, const ss_state *s, long player, int decision,
                      enc_view *V)
{
    V->s = s;
    V->player = player;
    V->decision = decision;
    V->v = voyage_index(s);
    V->group = e->group_index[V->v][player];
    for (long seat = 0; seat < e->seats; seat++) {
        for (int f = 0; f < 5; f++)
            V->tot[seat][f] = 0;
        for (int i = 0; i < CELLS; i++)
            for (int f = 0; f < 5; f++)
                V->tot[seat][f] += e->cell_totals[s->visible[seat][i]][f];
    }
}

/* A tile's 45 features: the cell features of each of its 9 cells. */
static void write_tile(const ss_enc *e, const unsigned char *codes, float *dst)
{
    for (int i = 0; i < CELLS; i++)
        memcpy(dst + i * CELL_FEATURES, e->cell_features[codes[i]],
               sizeof(float) * CELL_FEATURES);
}

/* voyage, turn, decision, rebid: one-hots of min(voyage, 2) and min(turn, 2); the
 * decision [bid, place] (any other non-empty text counts as a bid, as in Python); rebid
 * when bidding at stage 2. */
static void write_voyage_turn_decision_rebid(const ss_enc *e, const enc_view *V, float *out)
{
    out[e->at[L_VOYAGE] + V->v] = 1.0f;
    out[e->at[L_TURN] + (V->s->turn < 2 ? V->s->turn : 2)] = 1.0f;
    if (V->decision != DECIDE_NONE)
        out[e->at[L_DECISION] + (V->decision == DECIDE_PLACE)] = 1.0f;
    if (V->decision == DECIDE_BID && V->s->stage[V->group] == 2)
        out[e->at[L_REBID]] = 1.0f;
}

static void write_hand(const ss_state *s, long seat, float *dst)
{
    for (long i = 0; i < s->hand_len[seat]; i++)
        dst[s->hand[seat][i] - 1] = 1.0f;
}

/* pending_crate: when placing, the crate the player took, as it lay in the stack. */
static void write_pending_crate(const ss_enc *e, const enc_view *V, float *out)
{
    if (V->decision != DECIDE_PLACE)
        return;
    const ss_state *s = V->s;
    for (long i = 0; i < s->placing_len[V->group]; i++) {
        const taken_crate *t = &s->placing[V->group][i];
        if (t->seat == V->player)
            write_tile(e, e->lying[t->crate][t->orient], out + e->at[L_PENDING_CRATE]);
    }
}

/* One group's stack into a stack field and its present flags (top first). */
static void write_one_stack(const ss_enc *e, const ss_state *s, long k, float *crates,
                            float *present)
{
    for (long i = 0; i < s->stack_len[k]; i++) {
        write_tile(e, e->lying[s->stack[k][i].crate][s->stack[k][i].orient], crates + i * TILE);
        present[i] = 1.0f;
    }
}

/* stack, stack_present (the player's group); six seats: other_stack,
 * other_stack_present (the other group's). */
static void write_stacks(const ss_enc *e, const enc_view *V, float *out)
{
    write_one_stack(e, V->s, V->group, out + e->at[L_STACK], out + e->at[L_STACK_PRESENT]);
    if (e->six_seat)
        write_one_stack(e, V->s, 1 - V->group, out + e->at[L_OTHER_STACK],
                        out + e->at[L_OTHER_STACK_PRESENT]);
}

/* observation._score: the voyage score of a hold with totals ``tot`` when the others'
 * lowest cannons and highest contraband are ``low`` and ``high``. */
static long voyage_score(const long tot[5], long low, long high)
{
    long gold = tot[0], cannons = tot[1], contraband = tot[2], rats = tot[3], goods = tot[4];
    return gold - rats + cannons - (cannons < low ? cannons : low)
        + (contraband < high ? contraband : 0) + (goods >= 9 ? 8 : 0);
}

/* One placement: the hold's totals once crate ``pl`` lies on the hold whose cells' packed
 * totals are ``hold``, and the voyage score then. */
static long place_totals(const placement *pl, const unsigned long hold[CELLS], long low,
                         long high, long tot[5])
{
    unsigned long packed = pl->own;
    for (int k = 0; k < pl->holes; k++)
        packed += hold[pl->hole[k]];
    for (int f = 0; f < 5; f++)
        tot[f] = (long)(packed >> (6 * f) & 63);
    return voyage_score(tot, low, high);
}

/* The 6 outcome numbers: totals and score over observation._OUT_SCALE (float32
 * quotients, as numpy's float32 division). */
static void write_outcome(const ss_enc *e, const long tot[5], long score, float *dst)
{
    for (int f = 0; f < 5; f++)
        dst[f] = (float)tot[f] / e->out_scale[f];
    dst[5] = (float)score / e->out_scale[5];
}

/* score_now, place_outcomes, stack_outcomes: the player's voyage score now; when placing,
 * the outcome of each action orientation of the crate taken; per crate of the group's
 * stack, the outcome of its best orientation (highest score, then most cells showing
 * goods, then the first). The context (the others' lowest cannons and highest contraband)
 * is the current one for every placement. */
static void write_score_now_place_stack_outcomes(const ss_enc *e, const enc_view *V,
                                                 float *out)
{
    const long S = e->seats, p = V->player;
    const ss_state *s = V->s;
    long low = e->no_low, high = 0;
    int first = 1;
    for (long seat = 0; seat < S; seat++) {
        if (seat == p)
            continue;
        if (first || V->tot[seat][1] < low)
            low = V->tot[seat][1];
        if (first || V->tot[seat][2] > high)
            high = V->tot[seat][2];
        first = 0;
    }
    unsigned long hold[CELLS];
    for (int i = 0; i < CELLS; i++)
        hold[i] = e->cell_packed[s->visible[p][i]];
    /* double division, then float32 (as Python's score / SCORE_SCALE stored in float32) */
    out[e->at[L_SCORE_NOW]] = (float)((double)voyage_score(V->tot[p], low, high)
                                      / e->score_scale);
    long tot[5], score;
    if (V->decision == DECIDE_PLACE)
        for (long i = 0; i < s->placing_len[V->group]; i++) {
            const taken_crate *t = &s->placing[V->group][i];
            if (t->seat != p)
                continue;
            const placement *pl = e->placements[t->crate][t->orient];
            for (int a = 0; a < ORIENTATIONS; a++) {
                score = place_totals(&pl[a], hold, low, high, tot);
                write_outcome(e, tot, score, out + e->at[L_PLACE_OUTCOMES] + a * OUTCOME_FEATURES);
            }
        }
    for (long i = 0; i < s->stack_len[V->group]; i++) {
        const crate_at *c = &s->stack[V->group][i];
        long best_tot[5] = {0}, best_score = 0, best_key = 0;
        const placement *pl = e->placements[c->crate][c->orient];
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
}

/* -- the bid outlook (bidding.py, operation for operation: the same doubles) -------------- */

#define MAX_BIDDERS MAX_GROUP

/* One bidder as the outlook reads it: its crate gains, its cards (sorted), whether it is
 * the Cap'n, its hold number, and (for the others) the chance of each card. */
typedef struct {
    double values[MAX_BIDDERS];
    long cards[NUM_CARDS];
    int n;
    int capn;
    long hold;
    double probs[NUM_CARDS];
} bidder;

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
static double card_cost(const ss_enc *e, long hand_size)
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
static void modelled_bid(const ss_enc *e, bidder *b, long count, long j)
{
    bidder *me = &b[j];
    const long m = count;
    double mean = 0.0;
    for (long i = 0; i < m; i++)
        mean += me->values[i];
    const double tie = e->heuristic_tie * mean / (double)m;
    double scores[NUM_CARDS], top = 0.0;
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
static void expected_crates(const ss_enc *e, const bidder *b, long count, int rebid,
                            double *out)
{
    const long m = count;
    long support[MAX_BIDDERS][NUM_CARDS], sizes[MAX_BIDDERS] = {0}, at[MAX_BIDDERS] = {0};
    double chances[MAX_BIDDERS][NUM_CARDS];
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
    for (long j = 1; j < count; j++)
        if (sizes[j] == 0)          /* never: a modelled bidder has a best card */
            return;
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

/* The bidders of the player's group in seat order, their crate gains and models
 * (observation._bid_outlooks); their count, 0 when the stack holds fewer crates than
 * bidders (never by the rules). */
static long group_bidders(const ss_enc *e, const enc_view *V, bidder *b, long *seat_of)
{
    const long S = e->seats, k = V->group;
    const ss_state *s = V->s;
    int bidding[MAX_SEATS] = {0};
    for (long i = 0; i < s->need_len[k]; i++)
        bidding[s->need[k][i]] = 1;
    const long count = s->need_len[k];
    if (s->stack_len[k] < count || count < 1)
        return 0;
    const placement *crates[MAX_BIDDERS];
    for (long i = 0; i < count; i++)
        crates[i] = e->placements[s->stack[k][i].crate][s->stack[k][i].orient];
    const uint8_t *holds = s->holds[s->num_voyages - 1];
    long n = 0;
    for (long seat = 0; seat < S; seat++) {
        if (!bidding[seat])
            continue;
        seat_of[n] = seat;
        bidder *x = &b[n++];
        memset(x, 0, sizeof(*x));
        x->hold = holds[seat];
        int has[NUM_CARDS + 1] = {0};
        for (long i = 0; i < s->hand_len[seat]; i++)
            has[s->hand[seat][i]] = 1;
        for (long card = 1; card <= NUM_CARDS; card++)     /* sorted; none: all ten */
            if (has[card] || s->hand_len[seat] == 0)
                x->cards[x->n++] = card;
        x->capn = seat == e->capn;
        /* its crate gains: the best of the 8 placements, less its hold's value now */
        long rivals = 0;
        int first = 1;
        for (long t = 0; t < S; t++)
            if (t != seat && (first || V->tot[t][2] > rivals)) {
                rivals = V->tot[t][2];
                first = 0;
            }
        const long count_placed = s->placed_len[seat];
        const double now = hold_value(V->tot[seat], rivals, count_placed);
        unsigned long hold[CELLS];
        for (int i = 0; i < CELLS; i++)
            hold[i] = e->cell_packed[s->visible[seat][i]];
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
    return count;
}

/* bid_outlook: while bidding, per crew card in hand, the expected crate gain (the bidders
 * from the player round the table). */
static void write_bid_outlook(const ss_enc *e, const enc_view *V, float *out)
{
    if (V->decision != DECIDE_BID)
        return;
    bidder all[MAX_BIDDERS], b[MAX_BIDDERS];
    long seat_of[MAX_BIDDERS], count = group_bidders(e, V, all, seat_of), me = -1;
    for (long i = 0; i < count; i++)
        if (seat_of[i] == V->player)
            me = i;
    if (me < 0)
        return;
    for (long k = 0; k < count; k++)
        b[k] = all[(me + k) % count];
    double expected[NUM_CARDS];
    expected_crates(e, b, count, V->s->stage[V->group] == 2, expected);
    float *dst = out + e->at[L_BID_OUTLOOK];
    for (int c = 0; c < b[0].n; c++)
        dst[b[0].cards[c] - 1] = (float)(expected[c] / e->score_scale);
}

/* The seat_* fields: per seat slot (0 = the player, then round the table, seat
 * (player + j) % seats), field after field. */
static void write_seats(const ss_enc *e, const enc_view *V, float *out)
{
    const long S = e->seats, p = V->player;
    const ss_state *s = V->s;
    float status[MAX_SEATS][3] = {{0}}, bids[MAX_SEATS][2] = {{0}};
    if (!s->done) {
        for (long k = 0; k < MAX_GROUPS && k < (e->six_seat ? 2 : 1); k++) {
            for (long i = 0; i < s->need_len[k]; i++) {
                status[s->need[k][i]][0] = 1.0f;
                if (s->stage[k] == 2)
                    status[s->need[k][i]][2] = 1.0f;
            }
            for (long i = 0; i < s->placing_len[k]; i++)
                status[s->placing[k][i].seat][1] = 1.0f;
        }
    }
    /* this voyage and turn's bids, newest first (the older ones are written last) */
    for (long i = s->num_bids - 1; i >= 0; i--) {
        const uint8_t *b = s->bids[i];
        if (b[0] != s->voyage || b[1] != s->turn)
            break;
        bids[b[3]][b[2] - 1] = (float)((double)b[4] / 10.0);
    }
    const uint8_t *holds = s->holds[s->num_voyages - 1];
    const long *groups = e->group_index[V->v];
    for (long j = 0; j < S; j++) {
        const long seat = (p + j) % S;
        write_hand(s, seat, out + e->at[L_SEAT_HAND] + j * NUM_CARDS);
        out[e->at[L_SEAT_IS_CAPN] + j] = seat == e->capn ? 1.0f : 0.0f;
        /* one group: every seat bids with the player; six seats: those of its group */
        out[e->at[L_SEAT_IN_MY_GROUP] + j] =
            !e->six_seat || groups[seat] == groups[p] ? 1.0f : 0.0f;
        out[e->at[L_SEAT_COINS] + j] = (float)((double)s->coins[seat] / e->coin_scale);
        out[e->at[L_SEAT_HOLD] + j] = (float)((double)holds[seat] / 18.0);
        write_tile(e, s->visible[seat], out + e->at[L_SEAT_VISIBLE] + j * TILE);
        float *tot = out + e->at[L_SEAT_TOTALS] + j * 5;
        tot[0] = (float)((double)V->tot[seat][0] / 27.0);
        tot[1] = (float)((double)V->tot[seat][1] / 27.0);
        tot[2] = (float)((double)V->tot[seat][2] / 27.0);
        tot[3] = (float)((double)V->tot[seat][3] / 9.0);
        tot[4] = (float)((double)V->tot[seat][4] / 9.0);
        out[e->at[L_SEAT_CRATES] + j] = (float)((double)s->placed_len[seat] / 3.0);
        memcpy(out + e->at[L_SEAT_STATUS] + j * 3, status[seat], sizeof(status[seat]));
        memcpy(out + e->at[L_SEAT_BIDS] + j * 2, bids[seat], sizeof(bids[seat]));
    }
}

/* encode: the whole observation of ``player`` deciding ``decision`` at ``s`` into ``out``
 * (size floats; zeroed here). Reads the public fields only: the Cap'n's deck as a set. */
static void encode(const ss_enc *e, const ss_state *s, long player, int decision, float *out)
{
    enc_view V;
    memset(out, 0, sizeof(float) * (size_t)e->size);
    enc_facts(e, s, player, decision, &V);
    write_voyage_turn_decision_rebid(e, &V, out);
    write_hand(s, player, out + e->at[L_MY_HAND]);
    write_pending_crate(e, &V, out);
    write_stacks(e, &V, out);
    write_score_now_place_stack_outcomes(e, &V, out);
    write_bid_outlook(e, &V, out);
    write_seats(e, &V, out);
}

/* -- the Engine type ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    rules g;
    ss_enc enc;
    PyObject *view_make;           /* ShipShapeView.make(player, decision, table) */
    PyObject *table_make;          /* PublicTable.from_fields(fields) */
    PyObject *decisions[3];        /* "", "bid", "place" (interned) */
    int ready;
} Engine;

static PyTypeObject EngineType;

/* groups: per voyage, its groups, each a tuple of seats (ShipShapeGame.groups) */
static int read_groups(rules *g, PyObject *groups)
{
    if (!PyTuple_Check(groups) || PyTuple_GET_SIZE(groups) != VOYAGES)
        goto bad;
    for (long v = 0; v < VOYAGES; v++) {
        PyObject *voyage = PyTuple_GET_ITEM(groups, v);
        if (!PyTuple_Check(voyage) || PyTuple_GET_SIZE(voyage) != g->ngroups)
            goto bad;
        int seen[MAX_SEATS] = {0};
        for (long k = 0; k < g->ngroups; k++) {
            Py_ssize_t len;
            long *seats = ce_longs_new(PyTuple_GET_ITEM(voyage, k), "groups", &len);
            if (seats == NULL)
                return -1;
            int ok = len == g->group_size;
            for (Py_ssize_t i = 0; ok && i < len; i++) {
                ok = seats[i] >= 0 && seats[i] < g->S && !seen[seats[i]]
                    && g->group_index[v][seats[i]] == k;
                if (ok) {
                    seen[seats[i]] = 1;
                    g->groups[v][k][i] = (uint8_t)seats[i];
                }
            }
            PyMem_Free(seats);
            if (!ok)
                goto bad;
            g->group_len[v][k] = (uint8_t)len;
        }
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "Engine: groups must give every voyage's bidding "
                    "groups, each seat once, as group_index places them");
    return -1;
}

static int Engine_init(Engine *e, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "num_seats", "capn", "groups", "hold_cells",
                             "voyage_holds", "compose", "actions", "encoder_params",
                             "view_make", "table_make", NULL};
    long n, S, capn, bid0, place0, num_actions;
    PyObject *groups, *hold_cells, *voyage_holds, *compose, *enc_params, *view_make,
             *table_make;
    e->ready = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "lllOOOO(lll)OOO:Engine", kwlist, &n, &S,
                                     &capn, &groups, &hold_cells, &voyage_holds, &compose,
                                     &num_actions, &bid0, &place0, &enc_params, &view_make,
                                     &table_make))
        return -1;
    rules *g = &e->g;
    memset(g, 0, sizeof(*g));
    if (n < 2 || S < n || S > MAX_SEATS || capn < -1 || capn >= S
            || (capn >= 0) != (S == n + 1) || num_actions > MAX_ACTIONS || bid0 < 0
            || place0 < 0 || bid0 + NUM_CARDS > num_actions || place0 + ORIENTATIONS > num_actions) {
        PyErr_SetString(InvalidArgumentError, "Engine: the game is outside what the compiled "
                        "engine holds (2-6 players, 3-6 seats)");
        return -1;
    }
    if (enc_init(&e->enc, enc_params) < 0)
        return -1;
    ss_enc *enc = &e->enc;
    g->n = n;
    g->S = S;
    g->capn = capn;
    g->six = S == 6;
    g->ngroups = g->six ? 2 : 1;
    g->group_size = S / g->ngroups;
    g->stack_size = TURNS * g->group_size;
    g->num_actions = num_actions;
    g->bid0 = bid0;
    g->place0 = place0;
    if (enc->seats != S || enc->capn != capn || enc->six_seat != g->six
            || enc->stack_size != g->stack_size || g->group_size > MAX_GROUP
            || enc->num_crates < TURNS * S * VOYAGES) {
        PyErr_SetString(PyExc_ValueError, "encoder_params: not this game's");
        return -1;
    }
    g->num_crates = enc->num_crates;
    memcpy(g->oriented, enc->lying, sizeof(g->oriented));
    for (long v = 0; v < VOYAGES; v++)
        for (long s = 0; s < S; s++)
            g->group_index[v][s] = (uint8_t)enc->group_index[v][s];
    if (read_groups(g, groups) < 0)
        return -1;
    long *cells = ce_longs_exact(hold_cells, NUM_HOLDS * CELLS, "hold_cells");
    if (cells == NULL)
        return -1;
    for (long i = 0; i < NUM_HOLDS * CELLS; i++) {
        if (cells[i] < 0 || cells[i] >= enc->num_codes) {
            PyMem_Free(cells);
            PyErr_SetString(PyExc_ValueError, "Engine: hold cell code out of range");
            return -1;
        }
        g->hold_cells[1 + i / CELLS][i % CELLS] = (uint8_t)cells[i];
    }
    PyMem_Free(cells);
    long *holds = ce_longs_exact(voyage_holds, VOYAGES * HOLDS_PER_VOYAGE, "voyage_holds");
    if (holds == NULL)
        return -1;
    for (long i = 0; i < VOYAGES * HOLDS_PER_VOYAGE; i++) {
        if (holds[i] < 1 || holds[i] > NUM_HOLDS) {
            PyMem_Free(holds);
            PyErr_SetString(PyExc_ValueError, "Engine: voyage_holds must be holds 1-18");
            return -1;
        }
        g->voyage_holds[i / HOLDS_PER_VOYAGE][i % HOLDS_PER_VOYAGE] = (uint8_t)holds[i];
    }
    PyMem_Free(holds);
    long *comp = ce_longs_exact(compose, ORIENTATIONS * ORIENTATIONS, "compose");
    if (comp == NULL)
        return -1;
    for (long i = 0; i < ORIENTATIONS * ORIENTATIONS; i++) {
        if (comp[i] < 0 || comp[i] >= ORIENTATIONS) {
            PyMem_Free(comp);
            PyErr_SetString(PyExc_ValueError, "Engine: compose must hold orientations 0-7");
            return -1;
        }
        g->compose[i / ORIENTATIONS][i % ORIENTATIONS] = (uint8_t)comp[i];
    }
    PyMem_Free(comp);
    if (!PyCallable_Check(view_make) || !PyCallable_Check(table_make)) {
        PyErr_SetString(PyExc_TypeError, "Engine: view_make and table_make must be callables");
        return -1;
    }
    const char *names[3] = {"", "bid", "place"};
    for (int i = 0; i < 3; i++) {
        PyObject *name = PyUnicode_InternFromString(names[i]);
        if (name == NULL)
            return -1;
        Py_XSETREF(e->decisions[i], name);
    }
    Py_INCREF(view_make);
    Py_XSETREF(e->view_make, view_make);
    Py_INCREF(table_make);
    Py_XSETREF(e->table_make, table_make);
    e->ready = 1;
    return 0;
}

static void Engine_dealloc(Engine *e)
{
    Py_XDECREF(e->view_make);
    Py_XDECREF(e->table_make);
    for (int i = 0; i < 3; i++)
        Py_XDECREF(e->decisions[i]);
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

/* -- the State type (envs/core/engine_state.h): the game's side ------------------------- */

static int engine_load(const Engine *e, PyObject *data, ss_state *s)
{
    return load_state(&e->g, data, s);
}

static PyObject *engine_to_dict(const Engine *e, const ss_state *s)
{
    return state_to_dict(&e->g, s);
}

static void engine_mask(const Engine *e, const ss_state *s, long player, int8_t *mask)
{
    fill_mask(&e->g, s, player, mask);
}

/* the PublicTable of ``s`` (public_table: the Cap'n's deck sorted) */
static PyObject *public_table(Engine *e, const ss_state *s)
{
    const rules *g = &e->g;
    public_fields p;
    if (make_public_fields(g, s, 1, &p) < 0)
        return NULL;
    long seats[MAX_SEATS], k = current_players(g, s, seats);
    PyObject *visible, *table = NULL;
    TUPLE_OF(visible, g->S, byte_tuple(s->visible[i], CELLS));
    PyObject *d = visible ? PyDict_New() : NULL;
    if (d != NULL
            && set_item(d, "acting", long_tuple(seats, k)) == 0
            && set_item(d, "voyage", PyLong_FromLong(s->voyage)) == 0
            && set_item(d, "turn", PyLong_FromLong(s->turn)) == 0
            && set_item(d, "turns", PyLong_FromLongLong(s->turns)) == 0
            && set_item(d, "done", PyBool_FromLong(s->done)) == 0
            && PyDict_SetItemString(d, "hands", p.hands) == 0
            && PyDict_SetItemString(d, "discards", p.discards) == 0
            && PyDict_SetItemString(d, "coins", p.coins) == 0
            && PyDict_SetItemString(d, "hold_history", p.hold_history) == 0
            && PyDict_SetItemString(d, "placed", p.placed) == 0
            && PyDict_SetItemString(d, "visible", visible) == 0
            && PyDict_SetItemString(d, "stacks", p.stacks) == 0
            && PyDict_SetItemString(d, "unused", p.unused) == 0
            && PyDict_SetItemString(d, "need", p.need) == 0
            && PyDict_SetItemString(d, "stage", p.stage) == 0
            && PyDict_SetItemString(d, "placing", p.placing) == 0
            && PyDict_SetItemString(d, "bids", p.bids) == 0
            && PyDict_SetItemString(d, "voyage_scores", p.voyage_scores) == 0)
        table = PyObject_CallOneArg(e->table_make, d);
    Py_XDECREF(d);
    Py_XDECREF(visible);
    public_fields_clear(&p);
    return table;
}

/* the ShipShapeView python_view builds */
static PyObject *engine_view(Engine *e, const ss_state *s, long player)
{
    PyObject *table = public_table(e, s);
    if (table == NULL)
        return NULL;
    PyObject *seat = PyLong_FromLong(player), *view = NULL;
    if (seat != NULL)
        view = PyObject_CallFunctionObjArgs(e->view_make, seat,
                                            e->decisions[decision(&e->g, s, player)],
                                            table, NULL);
    Py_XDECREF(seat);
    Py_DECREF(table);
    return view;
}

static void engine_encode(const Engine *e, const ss_state *s, long player, float *out)
{
    encode(&e->enc, s, player, decision(&e->g, s, player), out);
}

/* -- the Encoder type: any ShipShapeView through the same encoder ------------------------- */

/* ``Encoder(*observation.compiled_params(game, module))`` encodes a ShipShapeView (the
 * Python engine's, or any other) with ``encode`` above: the view's public table is read
 * into a state's public fields, every value checked (a wrong type or length is a
 * TypeError, a value out of range a ValueError, naming the field; every index is checked
 * before use), so the game's ``encode`` is this module's (Game.bind_compiled) and writes
 * what the compiled engine writes for the same position. The view and its table are
 * frozen dataclasses read by attribute name: VIEW_FIELDS and TABLE_FIELDS list the names
 * (a test checks that they are the dataclasses' fields). */

enum { V_PLAYER, V_DECISION, V_TABLE, N_VIEW };
static const char *const VIEW_FIELDS[N_VIEW] = {"player", "decision", "table"};

enum {
    T_ACTING, T_VOYAGE, T_TURN, T_TURNS, T_DONE, T_HANDS, T_DISCARDS, T_COINS,
    T_HOLD_HISTORY, T_PLACED, T_VISIBLE, T_STACKS, T_UNUSED, T_NEED, T_STAGE, T_PLACING,
    T_BIDS, T_VOYAGE_SCORES, N_TABLE
};
static const char *const TABLE_FIELDS[N_TABLE] = {
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

typedef struct {
    PyObject_HEAD
    ss_enc enc;
    long ngroups, group_size;
    PyObject *view_names[N_VIEW];       /* interned attribute names */
    PyObject *table_names[N_TABLE];
    /* The last table read (a strong reference, so no other object can take its address;
     * NULL: none) and its fields as a state: simultaneous bidders' views share one table
     * object, read once. The table is a frozen dataclass of ints and tuples (the checks
     * below accept tuples only, all the way down), so it cannot have changed. */
    PyObject *last_table;
    ss_state last;
} Encoder;

static void Encoder_dealloc(Encoder *self)
{
    Py_XDECREF(self->last_table);
    for (int i = 0; i < N_VIEW; i++)
        Py_XDECREF(self->view_names[i]);
    for (int i = 0; i < N_TABLE; i++)
        Py_XDECREF(self->table_names[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Encoder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (kwds != NULL && PyDict_GET_SIZE(kwds) > 0) {
        PyErr_SetString(PyExc_TypeError, "Encoder takes its parameters by position");
        return NULL;
    }
    Encoder *self = (Encoder *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    if (enc_init(&self->enc, args) < 0)
        goto fail;
    self->ngroups = self->enc.six_seat ? 2 : 1;
    self->group_size = self->enc.seats / self->ngroups;
    if (self->group_size > MAX_GROUP || self->group_size * self->ngroups != self->enc.seats
            || self->enc.stack_size != TURNS * self->group_size) {
        PyErr_SetString(PyExc_ValueError, "Encoder: not a ShipShape table (seats, groups "
                        "and stack size)");
        goto fail;
    }
    for (int i = 0; i < N_VIEW; i++)
        if ((self->view_names[i] = PyUnicode_InternFromString(VIEW_FIELDS[i])) == NULL)
            goto fail;
    for (int i = 0; i < N_TABLE; i++)
        if ((self->table_names[i] = PyUnicode_InternFromString(TABLE_FIELDS[i])) == NULL)
            goto fail;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
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

/* An int field within [lo, hi]. */
static int long_in(PyObject *obj, const char *name, long lo, long hi, long *v)
{
    if (!ce_small_int(obj, v) && ce_long(obj, name, v) < 0)
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

/* A tuple of exactly ``len`` (>= 0) or at most ``max`` items. */
static PyObject *tuple_of(PyObject *obj, Py_ssize_t len, Py_ssize_t max, const char *name)
{
    if (ce_tuple(obj, len, name) == NULL)
        return NULL;
    if (len < 0 && PyTuple_GET_SIZE(obj) > max) {
        PyErr_Format(PyExc_ValueError, "%s: at most %zd items, got %zd", name, max,
                     PyTuple_GET_SIZE(obj));
        return NULL;
    }
    return obj;
}

/* A stack entry (crate id, orientation as it lies). */
static int read_crate(const ss_enc *e, PyObject *obj, const char *name, crate_at *c)
{
    long crate, o;
    if (ce_tuple(obj, 2, name) == NULL || long_at_in(obj, 0, name, 1, e->num_crates, &crate) < 0
            || long_at_in(obj, 1, name, 0, ORIENTATIONS - 1, &o) < 0)
        return -1;
    c->crate = (uint8_t)crate;
    c->orient = (uint8_t)o;
    return 0;
}

/* A placing entry (seat, crate id, orientation as it lay in the stack). */
static int read_taken(const ss_enc *e, PyObject *obj, const char *name, taken_crate *t)
{
    long seat, crate, o;
    if (ce_tuple(obj, 3, name) == NULL
            || long_at_in(obj, 0, name, 0, e->seats - 1, &seat) < 0
            || long_at_in(obj, 1, name, 1, e->num_crates, &crate) < 0
            || long_at_in(obj, 2, name, 0, ORIENTATIONS - 1, &o) < 0)
        return -1;
    t->seat = (uint8_t)seat;
    t->crate = (uint8_t)crate;
    t->orient = (uint8_t)o;
    return 0;
}

/* The public table's fields the encoder reads into ``s`` (its other fields zero). */
static int read_table(const Encoder *self, PyObject *table, ss_state *s)
{
    const ss_enc *e = &self->enc;
    const long S = e->seats, G = self->ngroups;
    PyObject *f[N_TABLE] = {NULL};
    int rc = -1;
    memset(s, 0, sizeof(*s));
    for (int i = 0; i < N_TABLE_READ; i++)
        if ((f[TABLE_READ[i]] = get_attr(table, self->table_names[TABLE_READ[i]],
                                         "view.table")) == NULL)
            goto done;
    long v;
    if (long_in(f[T_VOYAGE], "table.voyage", 0, VOYAGES - 1, &v) < 0)
        goto done;
    s->voyage = (int8_t)v;
    if (long_in(f[T_TURN], "table.turn", 0, TURNS, &v) < 0)
        goto done;
    s->turn = (int8_t)v;
    int done = PyObject_IsTrue(f[T_DONE]);
    if (done < 0)
        goto done;
    s->done = (int8_t)done;
    PyObject *hands = ce_tuple(f[T_HANDS], S, "table.hands");
    PyObject *coins = ce_tuple(f[T_COINS], S, "table.coins");
    PyObject *placed = ce_tuple(f[T_PLACED], S, "table.placed");
    PyObject *visible = ce_tuple(f[T_VISIBLE], S, "table.visible");
    PyObject *history = ce_tuple(f[T_HOLD_HISTORY], -1, "table.hold_history");
    if (hands == NULL || coins == NULL || placed == NULL || visible == NULL || history == NULL)
        goto done;
    if (PyTuple_GET_SIZE(history) == 0) {
        PyErr_SetString(PyExc_ValueError, "table.hold_history: empty");
        goto done;
    }
    PyObject *holds = ce_tuple_at(history, PyTuple_GET_SIZE(history) - 1, S,
                                  "table.hold_history[-1]");
    if (holds == NULL)
        goto done;
    s->num_voyages = 1;
    for (long seat = 0; seat < S; seat++) {
        PyObject *hand = tuple_of(PyTuple_GET_ITEM(hands, seat), -1, NUM_CARDS,
                                  "table.hands[seat]");
        if (hand == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(hand); i++) {
            if (long_at_in(hand, i, "table.hands[seat]", 1, NUM_CARDS, &v) < 0)
                goto done;
            s->hand[seat][i] = (uint8_t)v;
        }
        s->hand_len[seat] = (uint8_t)PyTuple_GET_SIZE(hand);
        if (ce_long_at(coins, seat, "table.coins[seat]", &v) < 0)
            goto done;
        s->coins[seat] = v;
        if (long_at_in(holds, seat, "table.hold_history[-1][seat]", 1, NUM_HOLDS, &v) < 0)
            goto done;
        s->holds[0][seat] = (uint8_t)v;
        PyObject *crates = tuple_of(PyTuple_GET_ITEM(placed, seat), -1, TURNS,
                                    "table.placed[seat]");
        if (crates == NULL)
            goto done;
        s->placed_len[seat] = (uint8_t)PyTuple_GET_SIZE(crates);   /* only counted */
        PyObject *cells = ce_tuple_at(visible, seat, CELLS, "table.visible[seat]");
        if (cells == NULL)
            goto done;
        for (int i = 0; i < CELLS; i++) {
            if (long_at_in(cells, i, "table.visible[seat][cell]", 0, e->num_codes - 1, &v) < 0)
                goto done;
            s->visible[seat][i] = (uint8_t)v;
        }
    }
    PyObject *stacks = ce_tuple(f[T_STACKS], G, "table.stacks");
    PyObject *need = ce_tuple(f[T_NEED], G, "table.need");
    PyObject *stage = ce_tuple(f[T_STAGE], G, "table.stage");
    PyObject *placing = ce_tuple(f[T_PLACING], G, "table.placing");
    if (stacks == NULL || need == NULL || stage == NULL || placing == NULL)
        goto done;
    /* per group: every item read before the count is checked (a malformed item is a
     * TypeError wherever it is) */
    for (long k = 0; k < G; k++) {
        PyObject *stack = ce_tuple(PyTuple_GET_ITEM(stacks, k), -1, "table.stacks[group]");
        PyObject *bidders = ce_tuple(PyTuple_GET_ITEM(need, k), -1, "table.need[group]");
        PyObject *takers = ce_tuple(PyTuple_GET_ITEM(placing, k), -1, "table.placing[group]");
        if (stack == NULL || bidders == NULL || takers == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(stack); i++) {
            crate_at c;
            if (read_crate(e, PyTuple_GET_ITEM(stack, i), "table.stacks[group][i]", &c) < 0)
                goto done;
            if (i < MAX_STACK)
                s->stack[k][i] = c;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bidders); i++) {
            if (long_at_in(bidders, i, "table.need[group][i]", 0, S - 1, &v) < 0)
                goto done;
            if (i < MAX_GROUP)
                s->need[k][i] = (uint8_t)v;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(takers); i++) {
            taken_crate t;
            if (read_taken(e, PyTuple_GET_ITEM(takers, i), "table.placing[group][i]", &t) < 0)
                goto done;
            if (i < MAX_GROUP)
                s->placing[k][i] = t;
        }
        if (tuple_of(stack, -1, e->stack_size, "table.stacks[group]") == NULL
                || tuple_of(bidders, -1, self->group_size, "table.need[group]") == NULL
                || tuple_of(takers, -1, self->group_size, "table.placing[group]") == NULL)
            goto done;
        s->stack_len[k] = (uint8_t)PyTuple_GET_SIZE(stack);
        s->need_len[k] = (uint8_t)PyTuple_GET_SIZE(bidders);
        s->placing_len[k] = (uint8_t)PyTuple_GET_SIZE(takers);
        if (ce_long_at(stage, k, "table.stage", &v) < 0)
            goto done;
        s->stage[k] = v == 2 ? 2 : 1;          /* the encoder asks "stage 2?" only */
    }
    /* the bids of this voyage and turn: the last ones (the encoder reads no other) */
    PyObject *bids = ce_tuple(f[T_BIDS], -1, "table.bids");
    if (bids == NULL)
        goto done;
    Py_ssize_t first = PyTuple_GET_SIZE(bids);
    long bid[5];
    while (first > 0) {
        if (ce_longs(PyTuple_GET_ITEM(bids, first - 1), 5, "table.bids[i]", bid) < 0)
            goto done;
        if (bid[0] != s->voyage || bid[1] != s->turn)
            break;
        first--;
    }
    if (PyTuple_GET_SIZE(bids) - first > MAX_BIDS) {
        PyErr_SetString(PyExc_ValueError, "table.bids: more bids this turn than seats bid");
        goto done;
    }
    for (Py_ssize_t i = first; i < PyTuple_GET_SIZE(bids); i++) {
        uint8_t *b = s->bids[s->num_bids++];
        if (ce_longs(PyTuple_GET_ITEM(bids, i), 5, "table.bids[i]", bid) < 0)
            goto done;
        if (bid[2] < 1 || bid[2] > 2 || bid[3] < 0 || bid[3] >= S || bid[4] < 1
                || bid[4] > NUM_CARDS) {
            PyErr_Format(PyExc_ValueError, "table.bids[i]: stage %ld, seat %ld or card %ld "
                         "out of range", bid[2], bid[3], bid[4]);
            goto done;
        }
        for (int c = 0; c < 5; c++)
            b[c] = (uint8_t)bid[c];
    }
    rc = 0;
done:
    for (int i = 0; i < N_TABLE; i++)
        Py_XDECREF(f[i]);
    return rc;
}

/* encode_into(view, out): the observation of a ShipShapeView into ``out`` (a writable
 * C-contiguous float32 vector of the layout's size) */
static PyObject *Encoder_encode_into(Encoder *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode_into(view, out) takes 2 arguments, got %zd",
                     nargs);
        return NULL;
    }
    const ss_enc *e = &self->enc;
    PyObject *attr[N_VIEW] = {NULL};
    PyObject *result = NULL;
    Py_buffer buf;
    if (ce_out(args[1], e->size, &buf) < 0)
        return NULL;
    for (int i = 0; i < N_VIEW; i++)
        if ((attr[i] = get_attr(args[0], self->view_names[i], "view")) == NULL)
            goto done;
    long player;
    if (long_in(attr[V_PLAYER], "view.player", 0, e->seats - 1, &player) < 0)
        goto done;
    PyObject *name = attr[V_DECISION];
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "view.decision: expected a str, got %.100s",
                     Py_TYPE(name)->tp_name);
        goto done;
    }
    int kind = PyUnicode_GET_LENGTH(name) == 0 ? DECIDE_NONE
        : PyUnicode_CompareWithASCIIString(name, "bid") == 0 ? DECIDE_BID
        : PyUnicode_CompareWithASCIIString(name, "place") == 0 ? DECIDE_PLACE
        : DECIDE_OTHER;                  /* the Python encoder flags it as a bid */
    PyObject *table = attr[V_TABLE];
    if (table != self->last_table) {
        ss_state s;
        if (read_table(self, table, &s) < 0)
            goto done;
        self->last = s;
        Py_INCREF(table);
        Py_XSETREF(self->last_table, table);
    }
    const ss_state *s = &self->last;
    if (kind == DECIDE_BID) {                 /* the bid outlook's needs */
        long k = e->group_index[voyage_index(s)][player], found = 0;
        for (long i = 0; i < s->need_len[k]; i++)
            found |= s->need[k][i] == player;
        if (!found) {
            PyErr_SetString(PyExc_ValueError, "table: a bidder outside table.need");
            goto done;
        }
        if (s->stack_len[k] < s->need_len[k]) {
            PyErr_SetString(PyExc_ValueError, "table: fewer crates than bidders");
            goto done;
        }
    }
    encode(e, s, player, kind, buf.buf);
    result = Py_None;
    Py_INCREF(result);
done:
    for (int i = 0; i < N_VIEW; i++)
        Py_XDECREF(attr[i]);
    PyBuffer_Release(&buf);
    return result;
}

static PyMethodDef Encoder_methods[] = {
    {"encode_into", (PyCFunction)(void (*)(void))Encoder_encode_into, METH_FASTCALL,
     "encode_into(view, out): write the observation of a ShipShapeView into out (a "
     "writable C-contiguous float32 vector of the layout's size); returns None."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.shipshape._engine.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Encoder(seats, stack_size, capn, six_seat, group_index, size, layout_spans, "
              "crate_cells, perms, cell_features, cell_totals, out_scale, coin_scale, "
              "score_scale, no_low, bidding): ShipShape's encoder for any ShipShapeView "
              "(observation.compiled_params computes the arguments).",
    .tp_methods = Encoder_methods,
    .tp_new = Encoder_new,
};

/* -- the Batch type (envs/core/engine_batch.h): the game's side -------------------------- */

#define BATCH_STATE ss_state
#define BATCH_ENGINE Engine
#define BATCH_ENGINE_TYPE EngineType
#define BATCH_MAX_SEATS MAX_SEATS
#define BATCH_KEY_LEN 2
#define BATCH_TYPE_NAME "plunder.envs.shipshape._engine.Batch"

static int batch_engine_ready(Engine *e) { return engine_ready(e); }
static long batch_num_players(const Engine *e) { return e->g.n; }
static long batch_num_actions(const Engine *e) { return e->g.num_actions; }
static long batch_obs_size(const Engine *e) { return e->enc.size; }
static pcg64 *batch_rng(ss_state *s) { return &s->rng; }
static void batch_setup(const Engine *e, ss_state *s) { setup(&e->g, s); }
static int batch_finished(const ss_state *s) { return s->done; }
static int64_t batch_turns(const ss_state *s) { return s->turns; }

static long batch_deciders(const Engine *e, const ss_state *s, long *seats)
{
    return current_players(&e->g, s, seats);
}

static void batch_observe(const Engine *e, const ss_state *s, long seat, int8_t *mask,
                          float *row)
{
    fill_mask(&e->g, s, seat, mask);
    encode(&e->enc, s, seat, decision(&e->g, s, seat), row);
}

static void batch_apply(const Engine *e, ss_state *s, const long *seats,
                        const int64_t *actions, long k)
{
    long act[MAX_SEATS] = {0};
    for (long i = 0; i < k; i++)
        act[seats[i]] = (long)actions[i];
    apply_joint(&e->g, s, act);
}

static void batch_scores(const Engine *e, const ss_state *s, double *out)
{
    scores(&e->g, s, out);
}

static long batch_rank_keys(const Engine *e, const ss_state *s, double *keys)
{
    return rank_keys(&e->g, s, keys);
}

#include "engine_batch.h"
#define ENGINE_STATE_TYPE_NAME "plunder.envs.shipshape._engine.State"
#include "engine_state.h"

/* -- the Engine type ---------------------------------------------------------------------- */

static PyMethodDef Engine_methods[] = {
    ENGINE_METHODS,
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.shipshape._engine.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(num_players, num_seats, capn, groups, hold_cells, voyage_holds, "
              "compose, actions, encoder_params, view_make, table_make): one ShipShape "
              "game's constants (ShipShapeGame.compiled_engine_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};


/* -- the module --------------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "ShipShape's compiled engine: state, rules, view, encoder, JSON round trip, batches "
    "(engine.py is the specification).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    if (engine_import_errors() < 0)
        return NULL;
    if (PyType_Ready(&StateType) < 0)
        return NULL;
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_FIELDS, N_VIEW},
        {"TABLE_FIELDS", TABLE_FIELDS, N_TABLE},
        {"LAYOUT_FIELDS", LAYOUT_FIELDS, N_LAYOUT},
    };
    PyObject *m = ce_module_named(&module, "Engine", &EngineType, names, 3);
    if (m == NULL)
        return NULL;
    if (ce_add_type(m, "State", &StateType) < 0 || ce_add_type(m, "Batch", &BatchType) < 0
            || ce_add_type(m, "Encoder", &EncoderType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
