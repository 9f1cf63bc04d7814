/* All Hands on Deck (crew)'s compiled engine: the state, the rules, the view, the encoder
 * and the JSON round trip in one module, and a batch of games stepped without Python per
 * step (envs/core/engine_batch.h).
 *
 * The Python engine (engine.py, rounds.py, observation.py) is the specification: every
 * function here mirrors the one of the same name there, and tests/test_compiled_engine.py
 * checks that both give the same trajectories, masks, views, observations, scores and rank
 * keys. Randomness is numpy's, reproduced exactly (envs/core/engine.h): the deal is
 * Generator.permutation of the deck, the first start player and each Snatch are
 * Generator.integers draws, so the same seed gives the same game.
 *
 * ``Engine(...)`` holds one game's constants (AllHandsCrewGame.compiled_engine_params);
 * ``Engine.new_initial_state(rng_state)``, ``Engine.new_game(seed)`` and
 * ``Engine.from_dict(data)`` make ``State`` objects (to_dict, current_players, mask,
 * apply, apply_joint, view, encode_into, scores, rank_keys, clone).
 *
 * The hiring is simultaneous: every seat with a stock card still to pick decides, all from
 * the same state, and ``apply_joint`` takes all their actions at once (the other phases
 * have one decider).
 *
 * Anything read from Python (a saved state, an action, a seat, a buffer) is checked before
 * use: a bad one raises the project's InvalidStateError or InvalidArgumentError (or
 * IllegalActionError for an action the mask forbids), never reads outside the state.
 */
#define ENGINE_ENV_ID "all_hands_crew_v0"
#include "engine.h"
#include <stddef.h>

/* -- sizes -------------------------------------------------------------------------------- */

#define NK 9                   /* card kinds (components.NUM_KINDS) */
#define NCREW 6                /* kinds 0..5 are crew, 6..8 captains (components.NUM_CREW) */
#define MAX_P 6                /* most players */
#define MAX_CARDS 128          /* most cards in the game */
#define MAX_STOCK 32           /* most stock cards of one player */
#define MAX_COMBOS 126         /* most combinations (the solver's cache keeps index + 1 in 7 bits) */
#define MAX_EVENTS 1000        /* most events of a round a saved state holds (engine._MAX_EVENTS) */
#define MAX_PER_KIND 15        /* most cards of one kind (the solver's 5-bit digits) */
#define TOP_DEPTH_MAX 8
#define MAX_GROUP 16           /* most combinations settling one kind's cards */
#define MAX_INT_SAVED 2147483647LL   /* the saved ints' limit (core.checks.MAX_INT) */

enum { DRAW, SPYGLASS, HIRE, LAY, TARGET, OVER, NUM_PHASES };
static const char *const PHASE_NAMES[NUM_PHASES] = {
    "draw", "spyglass", "hire", "lay", "target", "over"};

/* a combination's in-game action (components.PAIR_ACTIONS order); pending holds one */
enum { PA_NONE, PA_DOUBLE_HIRE, PA_SNATCH, PA_SPYGLASS, PA_SHORT_RATIONS, PA_CURSE, NUM_PA };
static const char *const PA_NAMES[NUM_PA] = {
    "none", "double_hire", "snatch", "spyglass", "short_rations", "curse"};
/* the targeted actions in observation.PENDING_INDEX order */
static const int PENDING_ORDER[3] = {PA_SNATCH, PA_SHORT_RATIONS, PA_CURSE};

/* the kinds of events of a round (engine._EVENT_KINDS) */
enum { EV_DRAW, EV_HIRE, EV_LAY, EV_SNATCH, EV_CURSE, EV_SHORT_RATIONS, EV_FORFEIT, NUM_EV };
static const char *const EV_NAMES[NUM_EV] = {
    "draw", "hire", "lay", "snatch", "curse", "short_rations", "forfeit"};

/* -- the game's constants ----------------------------------------------------------------- */

/* the layout's fields, in layout order (observation.build_layout) */
enum {
    F_PHASE, F_PENDING_ACTION, F_ACTING, F_START_PLAYER, F_ROUND, F_HIRE_STEP,
    F_CARDS_IN_PILES, F_PILE_SIZE, F_PILE_TOP, F_PILE_KNOWN, F_PILE_KNOWN_BY_OTHERS,
    F_MY_STOCK, F_STOCK_SIZE, F_STOCK_SOURCES, F_STOCK_SEEN, F_DRAW_TARGET,
    F_SPYGLASS_LEFT, F_HIRE_KEEP, F_NEXT_DOUBLE_HIRE, F_NEXT_SPYGLASS,
    F_NEXT_SHORT_RATIONS, F_MY_CREW, F_MY_CREW_VALUE, F_CREW_SIZE, F_CREW_KNOWN,
    F_CREW_MAYBE_GONE, F_KNOWN_ABOUT_ME, F_ABOUT_ME_MAYBE_GONE, F_LAID_CARDS,
    F_LAID_POINTS, F_CURSES, F_CAPTAINS, F_SCORE, F_UNSEEN, NUM_LAYOUT_FIELDS
};
static const char *const LAYOUT_FIELDS[NUM_LAYOUT_FIELDS] = {
    "phase", "pending_action", "acting", "start_player", "round", "hire_step",
    "cards_in_piles", "pile_size", "pile_top", "pile_known", "pile_known_by_others",
    "my_stock", "stock_size", "stock_sources", "stock_seen", "draw_target",
    "spyglass_left", "hire_keep", "next_double_hire", "next_spyglass",
    "next_short_rations", "my_crew", "my_crew_value", "crew_size", "crew_known",
    "crew_maybe_gone", "known_about_me", "about_me_maybe_gone", "laid_cards",
    "laid_points", "curses", "captains", "score", "unseen",
};

typedef struct {
    long n, open_stock, everyone;          /* players, the variant, all players' bits */
    long copies[NK], total_cards, most;    /* cards of each kind in the game */
    long deal, stock_cards, spyglass_extra, short_rations_stock, curse;
    long max_stock, max_spyglasses;
    /* action indices (codes.action_ranges) */
    long a_draw, a_hire, a_lay, a_target, a_pass, a_size;
    /* the combinations of the score sheet */
    long num_combos;
    uint8_t combo_counts[MAX_COMBOS][NK];
    long combo_points[MAX_COMBOS], combo_captains[MAX_COMBOS];
    int8_t combo_action[MAX_COMBOS];
    uint64_t combo_packed[MAX_COMBOS];
    long single[NK];                       /* a leftover card's score (captains) */
    /* the partition solver (components.Partitioner) */
    int order[NK];
    long group_value[NK][MAX_PER_KIND + 1];
    uint8_t group_combos[NK][MAX_PER_KIND + 1][MAX_GROUP], group_len[NK][MAX_PER_KIND + 1];
    long cand_start[NK + 1];
    uint8_t cands[MAX_COMBOS * NK];
    uint64_t guard;
    uint64_t *cache;                       /* the solver's values (see solve) */
    size_t cache_mask;
    /* the encoder (observation.py) */
    long top_depth, size;
    long at[NUM_LAYOUT_FIELDS];
    double acc5[MAX_CARDS + 1];            /* ACC5[c]: 0.2 summed c times */
} rules;

/* -- the state ---------------------------------------------------------------------------- */

typedef struct {
    int8_t seat, what;
    int16_t arg;                           /* a pile, seat, combination, count or PA_ code */
    int8_t kind;                           /* a snatched kind, a hire's cards put back, -1 */
    uint8_t mask;                          /* who knows the kind */
} event;

typedef struct {
    pcg64 rng;
    uint8_t pile[MAX_P][MAX_CARDS], pile_known[MAX_P][MAX_CARDS], pile_len[MAX_P];
    uint8_t out[NK];
    uint8_t stock[MAX_P][MAX_STOCK], stock_src[MAX_P][MAX_STOCK], stock_len[MAX_P];
    uint8_t crew[MAX_P][NK];
    uint8_t crew_known[MAX_P][MAX_P][NK];  /* [q][o][k]: kind-k cards o knows in q's crew */
    uint8_t crew_maybe_gone[MAX_P][MAX_P];
    uint8_t laid[MAX_P][MAX_CARDS], laid_len[MAX_P];
    uint8_t final[MAX_P][MAX_CARDS], final_len[MAX_P];
    uint8_t final_left[MAX_P][NK];
    uint8_t curses[MAX_P];
    int16_t round;
    int8_t start, phase, actor, pending;   /* pending: a PA_ code (PA_NONE: none) */
    uint8_t draw_target[MAX_P], spy_left[MAX_P], keep[MAX_P];
    uint8_t hire_step, lay_count;
    uint8_t hired[MAX_P][MAX_STOCK], hired_len[MAX_P], hire_done[MAX_P];
    uint8_t next_double[MAX_P], next_spy[MAX_P], next_short[MAX_P];
    int16_t num_events;
    int64_t turns;
    event events[MAX_EVENTS];
} crew_state;

static inline long crew_size(const crew_state *s, long p)
{
    long t = 0;
    for (int k = 0; k < NK; k++)
        t += s->crew[p][k];
    return t;
}

static inline long row_sum(const uint8_t *row)
{
    long t = 0;
    for (int k = 0; k < NK; k++)
        t += row[k];
    return t;
}

static void add_event(crew_state *s, long seat, int what, long arg, long kind, long mask)
{
    if (s->num_events >= MAX_EVENTS)      /* a round records far fewer */
        return;
    event *e = &s->events[s->num_events++];
    e->seat = (int8_t)seat;
    e->what = (int8_t)what;
    e->arg = (int16_t)arg;
    e->kind = (int8_t)kind;
    e->mask = (uint8_t)mask;
}

/* -- the partition solver (components.Partitioner) ---------------------------------------- */

/* The solver's results are a pure function of the packed counts (5 bits a kind). A crew
 * of many cards has thousands of sub-crews, so, as the Python solver memoises, results are
 * kept in a direct-mapped cache owned by the Engine: one 64-bit word a slot (the key in
 * bits 0-44, the value + 2048 in 45-56, the choice + 1 in 57-63), read and written
 * atomically, so the threads of a batch share it safely; a slot is simply overwritten,
 * and a result that does not fit is not kept. It only saves time, never changes a value. */
#define CACHE_BITS 16
#define KEY_MASK ((((uint64_t)1) << 45) - 1)

static long solve(const rules *g, uint64_t key, int *choice)
{
    if (key == 0) {
        *choice = -1;
        return 0;
    }
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & g->cache_mask;
    uint64_t hit = __atomic_load_n(&g->cache[slot], __ATOMIC_RELAXED);
    if (hit != 0 && (hit & KEY_MASK) == key) {
        *choice = (int)(hit >> 57) - 1;
        return (long)((hit >> 45) & 0xFFF) - 2048;
    }
    int k = 0, dummy;
    long c = 0;
    for (int i = 0; i < NK; i++) {
        k = g->order[i];
        c = (long)((key >> (5 * k)) & 31);
        if (c)
            break;
    }
    long best = g->group_value[k][c] + solve(g, key & ~((uint64_t)31 << (5 * k)), &dummy);
    int best_i = -1;
    /* bit 4 of every 5-bit digit: it survives key - need iff no digit goes below 0 */
    const uint64_t guarded = key + g->guard;
    for (long i = g->cand_start[k]; i < g->cand_start[k + 1]; i++) {
        int ci = g->cands[i];
        uint64_t need = g->combo_packed[ci];
        if (((guarded - need) & g->guard) == g->guard) {
            long v = g->combo_points[ci] + solve(g, key - need, &dummy);
            if (v > best) {
                best = v;
                best_i = ci;
            }
        }
    }
    if (best >= -2048 && best < 2048)
        __atomic_store_n(&g->cache[slot], key | ((uint64_t)(best + 2048) << 45)
                         | ((uint64_t)(best_i + 1) << 57), __ATOMIC_RELAXED);
    *choice = best_i;
    return best;
}

static uint64_t pack(const uint8_t *counts)
{
    uint64_t key = 0;
    for (int k = 0; k < NK; k++)
        key |= (uint64_t)counts[k] << (5 * k);
    return key;
}

/* Partitioner.value: the best partition's score of ``counts`` */
static long crew_value(const rules *g, const uint8_t *counts)
{
    int choice;
    return solve(g, pack(counts), &choice);
}

/* Partitioner.partition: the best partition's combinations (ascending) into ``combos``
 * (their count returned) and the cards left over into ``left`` */
static long partition(const rules *g, const uint8_t *original, uint8_t *combos, uint8_t *left)
{
    uint8_t counts[NK];
    long m = 0;
    memcpy(counts, original, NK);
    for (;;) {
        int k = -1, choice;
        for (int i = 0; i < NK && k < 0; i++)
            if (counts[g->order[i]])
                k = g->order[i];
        if (k < 0)
            break;
        solve(g, pack(counts), &choice);
        if (choice < 0) {         /* settle kind k with same-kind groups */
            for (int j = 0; j < g->group_len[k][counts[k]]; j++)
                combos[m++] = g->group_combos[k][counts[k]][j];
            counts[k] = 0;
        } else {
            combos[m++] = (uint8_t)choice;
            for (int j = 0; j < NK; j++)
                counts[j] -= g->combo_counts[choice][j];
        }
    }
    for (long i = 1; i < m; i++)           /* insertion sort: a few dozen combinations */
        for (long j = i; j > 0 && combos[j - 1] > combos[j]; j--) {
            uint8_t t = combos[j];
            combos[j] = combos[j - 1];
            combos[j - 1] = t;
        }
    memcpy(left, original, NK);
    for (long i = 0; i < m; i++)
        for (int j = 0; j < NK; j++)
            left[j] -= g->combo_counts[combos[i]][j];
    return m;
}

/* -- whose decision and the legal moves (engine.py) --------------------------------------- */

/* current_players: the deciders in seat order into ``seats``, their count */
static long deciders(const rules *g, const crew_state *s, long *seats)
{
    if (s->phase == OVER)
        return 0;
    if (s->phase != HIRE) {
        seats[0] = s->actor;
        return 1;
    }
    long k = 0, step = s->hire_step;
    for (long p = 0; p < g->n; p++)
        if (s->keep[p] > step && s->stock_len[p] > step)
            seats[k++] = p;
    return k;
}

static int is_decider(const rules *g, const crew_state *s, long player)
{
    long seats[MAX_P], k = deciders(g, s, seats);
    for (long i = 0; i < k; i++)
        if (seats[i] == player)
            return 1;
    return 0;
}

static int target_ok(const crew_state *s, long player, long target)
{
    if (target == player)
        return 0;
    if (s->pending == PA_SNATCH)
        return crew_size(s, target) > 0;
    return 1;
}

/* _mask: ``player``'s legal actions into ``mask`` (a_size bytes, zeroed) */
static void fill_mask(const rules *g, const crew_state *s, long player, int8_t *mask)
{
    long n = g->n;
    if (s->phase == OVER || !is_decider(g, s, player))
        return;
    switch (s->phase) {
    case DRAW:
        for (long j = 0; j < n; j++)
            if (s->pile_len[(player + j) % n])
                mask[g->a_draw + j] = 1;
        break;
    case SPYGLASS: {
        long most = 0;
        for (long j = 0; j < n; j++)
            if (s->pile_len[j] > most)
                most = s->pile_len[j];
        long least = most >= 2 ? 2 : 1;
        for (long j = 0; j < n; j++)
            if (s->pile_len[(player + j) % n] >= least)
                mask[g->a_draw + j] = 1;
        mask[g->a_pass] = 1;
        break;
    }
    case HIRE:
        if (!s->hire_done[player]) {
            for (long i = 0; i < s->stock_len[player]; i++) {
                int taken = 0;
                for (long h = 0; h < s->hired_len[player]; h++)
                    taken |= s->hired[player][h] == i;
                if (!taken)
                    mask[g->a_hire + i] = 1;
            }
        }
        if (s->hire_step > 0)
            mask[g->a_pass] = 1;
        break;
    case LAY:
        for (long ci = 0; ci < g->num_combos; ci++) {
            int fits = 1;
            for (int k = 0; k < NK && fits; k++)
                fits = g->combo_counts[ci][k] <= s->crew[player][k];
            mask[g->a_lay + ci] = (int8_t)fits;
        }
        mask[g->a_pass] = 1;
        break;
    case TARGET:
        for (long j = 1; j < n; j++)
            if (target_ok(s, player, (player + j) % n))
                mask[g->a_target + j - 1] = 1;
        mask[g->a_pass] = 1;
        break;
    }
}

/* -- the round's moves (rounds.py) -------------------------------------------------------- */

static void begin_hire(const rules *g, crew_state *s)
{
    s->phase = HIRE;
    s->hire_step = 0;
    memset(s->hired_len, 0, sizeof(s->hired_len));
    memset(s->hire_done, 0, sizeof(s->hire_done));
    s->actor = -1;
}

static void draw_cards(const rules *g, crew_state *s, long player, long pile, long count)
{
    long take = count < s->pile_len[pile] ? count : s->pile_len[pile];
    for (long i = 0; i < take; i++) {
        long at = --s->pile_len[pile];
        s->stock[player][s->stock_len[player]] = s->pile[pile][at];
        s->stock_src[player][s->stock_len[player]++] = (uint8_t)pile;
    }
    add_event(s, player, EV_DRAW, pile, -1, 0);
}

static int any_pile(const rules *g, const crew_state *s)
{
    for (long p = 0; p < g->n; p++)
        if (s->pile_len[p])
            return 1;
    return 0;
}

static void advance_draw(const rules *g, crew_state *s)
{
    long n = g->n;
    if (s->phase == DRAW) {
        if (any_pile(g, s))
            for (long step = 1; step <= n; step++) {
                long p = (s->actor + step) % n;
                if (s->stock_len[p] < s->draw_target[p]) {
                    s->actor = (int8_t)p;
                    return;
                }
            }
        s->phase = SPYGLASS;
    }
    if (!any_pile(g, s))
        memset(s->spy_left, 0, sizeof(s->spy_left));
    for (long step = 0; step < n; step++) {
        long p = (s->start + step) % n;
        if (s->spy_left[p] > 0) {
            s->actor = (int8_t)p;
            return;
        }
    }
    begin_hire(g, s);
}

static void finish_hire(const rules *g, crew_state *s)
{
    long n = g->n;
    for (long p = 0; p < n; p++) {
        int chosen[MAX_STOCK] = {0};
        for (long h = 0; h < s->hired_len[p]; h++) {
            long i = s->hired[p][h];
            long k = s->stock[p][i];
            chosen[i] = 1;
            s->crew[p][k]++;
            if (g->open_stock)
                for (long o = 0; o < n; o++)
                    if (o != p)
                        s->crew_known[p][o][k]++;
        }
        long mask = g->open_stock ? g->everyone : 1L << p, back = 0;
        for (long i = 0; i < s->stock_len[p]; i++)
            if (!chosen[i]) {
                s->pile[p][s->pile_len[p]] = s->stock[p][i];
                s->pile_known[p][s->pile_len[p]++] = (uint8_t)mask;
                back++;
            }
        /* how many cards went back on the pile is public (its size shows it) */
        add_event(s, p, EV_HIRE, s->hired_len[p], back, g->everyone);
        s->stock_len[p] = 0;
    }
    memset(s->hired_len, 0, sizeof(s->hired_len));
    memset(s->hire_done, 0, sizeof(s->hire_done));
    s->hire_step = 0;
    s->phase = LAY;
    s->actor = s->start;
    s->lay_count = 0;
}

static void lay(const rules *g, crew_state *s, long player, long ci)
{
    long n = g->n;
    for (int k = 0; k < NK; k++) {
        long c = g->combo_counts[ci][k];
        if (!c)
            continue;
        s->crew[player][k] -= (uint8_t)c;
        for (long o = 0; o < n; o++) {
            uint8_t *row = s->crew_known[player][o];
            if (row[k])
                row[k] = (uint8_t)(row[k] > c ? row[k] - c : 0);
        }
    }
    for (long o = 0; o < n; o++) {
        long gone = s->crew_maybe_gone[player][o];
        if (gone) {   /* no more of the known cards can be gone than are left */
            long left = row_sum(s->crew_known[player][o]);
            s->crew_maybe_gone[player][o] = (uint8_t)(gone < left ? gone : left);
        }
    }
    s->laid[player][s->laid_len[player]++] = (uint8_t)ci;
    add_event(s, player, EV_LAY, ci, -1, 0);
    int act = g->combo_action[ci];
    if (act == PA_DOUBLE_HIRE) {
        s->next_double[player]++;
    } else if (act == PA_SPYGLASS) {
        s->next_spy[player]++;
    } else if (act == PA_SNATCH || act == PA_SHORT_RATIONS || act == PA_CURSE) {
        s->pending = (int8_t)act;
        int any = 0;
        for (long t = 0; t < n && !any; t++)
            any = target_ok(s, player, t);
        if (any) {
            s->phase = TARGET;
        } else {   /* no one to snatch from: the action is forfeited */
            s->pending = PA_NONE;
            add_event(s, player, EV_FORFEIT, act, -1, 0);
        }
    }
}

static void perform(const rules *g, crew_state *s, long player, int act, long target)
{
    long n = g->n;
    if (act == PA_CURSE) {
        s->curses[target]++;
        add_event(s, player, EV_CURSE, target, -1, 0);
    } else if (act == PA_SHORT_RATIONS) {
        s->next_short[target] = 1;
        add_event(s, player, EV_SHORT_RATIONS, target, -1, 0);
    } else if (act == PA_SNATCH) {
        long total = crew_size(s, target);
        long r = total > 1 ? (long)integers32(&s->rng, (uint32_t)total) : 0;
        int k = 0;
        for (k = 0; k < NK; k++) {
            r -= s->crew[target][k];
            if (r < 0)
                break;
        }
        s->crew[target][k]--;
        s->crew[player][k]++;
        /* only the two involved see which card moved. The others still know every card
         * they knew in the victim's pile, but one of them may be the one that left (they
         * cannot tell which); what they knew of the snatcher's pile stays true. */
        uint8_t *gone = s->crew_maybe_gone[target];
        for (long o = 0; o < n; o++)
            if (o != player && o != target) {
                long known = row_sum(s->crew_known[target][o]);
                gone[o] = (uint8_t)(gone[o] + 1 < known ? gone[o] + 1 : known);
            }
        uint8_t *row = s->crew_known[target][player];
        if (row[k])
            row[k]--;
        long known = row_sum(row);
        if (gone[player] > known)
            gone[player] = (uint8_t)known;
        s->crew_known[player][target][k]++;
        add_event(s, player, EV_SNATCH, target, k, (1L << player) | (1L << target));
    }
}

static void end_game(const rules *g, crew_state *s)
{
    long n = g->n;
    s->phase = OVER;
    s->actor = -1;
    for (long p = 0; p < n; p++) {
        s->keep[p] = 1;
        s->draw_target[p] = s->spy_left[p] = 0;
        s->next_short[p] = s->next_spy[p] = s->next_double[p] = 0;
    }
    for (long p = 0; p < n; p++) {
        s->final_len[p] = (uint8_t)partition(g, s->crew[p], s->final[p], s->final_left[p]);
        memset(s->crew[p], 0, NK);
        memset(s->crew_known[p], 0, sizeof(s->crew_known[p]));
        memset(s->crew_maybe_gone[p], 0, sizeof(s->crew_maybe_gone[p]));
    }
}

static void begin_round(const rules *g, crew_state *s)
{
    long n = g->n, cards = 0;
    s->round++;
    s->num_events = 0;
    for (long p = 0; p < n; p++)
        cards += s->pile_len[p];
    if (cards < n) {
        end_game(g, s);
        return;
    }
    for (long p = 0; p < n; p++) {
        int short_ = s->next_short[p] > 0;
        s->draw_target[p] = (uint8_t)(short_ ? g->short_rations_stock : g->stock_cards);
        /* Short rations caps the whole stock: it cancels a Spyglass of that round */
        s->spy_left[p] = short_ ? 0 : s->next_spy[p];
        s->keep[p] = (uint8_t)(1 + s->next_double[p]);
    }
    memset(s->next_short, 0, sizeof(s->next_short));
    memset(s->next_spy, 0, sizeof(s->next_spy));
    memset(s->next_double, 0, sizeof(s->next_double));
    s->phase = DRAW;
    s->actor = s->start;
    s->lay_count = 0;
    s->pending = PA_NONE;
}

static void end_lay_turn(const rules *g, crew_state *s)
{
    long n = g->n;
    s->lay_count++;
    if (s->lay_count < n) {
        s->actor = (int8_t)((s->actor + 1) % n);
        return;
    }
    s->start = (int8_t)((s->start + 1) % n);
    begin_round(g, s);
}

/* _apply: the deciders' actions, already checked against their masks; ``acts[p]`` is seat
 * p's action (-1 for a seat not deciding) */
static void apply_joint(const rules *g, crew_state *s, const long *acts)
{
    long n = g->n;
    s->turns++;
    if (s->phase == HIRE) {     /* _apply_hire */
        for (long p = 0; p < n; p++) {
            if (acts[p] < 0)
                continue;
            if (acts[p] == g->a_pass)
                s->hire_done[p] = 1;
            else
                s->hired[p][s->hired_len[p]++] = (uint8_t)(acts[p] - g->a_hire);
        }
        s->hire_step++;
        long seats[MAX_P];
        if (deciders(g, s, seats) == 0)
            finish_hire(g, s);
        return;
    }
    long player = s->actor, action = acts[player];
    if (s->phase == DRAW || s->phase == SPYGLASS) {
        if (action == g->a_pass) {  /* forfeit a Spyglass */
            s->spy_left[player]--;
            add_event(s, player, EV_FORFEIT, PA_SPYGLASS, -1, 0);
        } else {
            draw_cards(g, s, player, (player + action - g->a_draw) % n,
                       s->phase == SPYGLASS ? g->spyglass_extra : 1);
            if (s->phase == SPYGLASS)
                s->spy_left[player]--;
        }
        advance_draw(g, s);
    } else if (s->phase == LAY) {
        if (action == g->a_pass)
            end_lay_turn(g, s);
        else
            lay(g, s, player, action - g->a_lay);
    } else if (s->phase == TARGET) {
        int act = s->pending;
        s->pending = PA_NONE;
        s->phase = LAY;
        if (action == g->a_pass)
            add_event(s, player, EV_FORFEIT, act, -1, 0);
        else
            perform(g, s, player, act, (player + action - g->a_target + 1) % n);
    }
}

/* new_initial_state: deal the shuffled deck, draw the first start player, begin the first
 * round (the state's generator already seeded) */
static void setup(const rules *g, crew_state *s)
{
    pcg64 rng = s->rng;
    memset(s, 0, offsetof(crew_state, events));
    s->rng = rng;
    long n = g->n, m = 0;
    uint8_t deck[MAX_CARDS];
    for (int k = 0; k < NK; k++)
        for (long i = 0; i < g->copies[k]; i++)
            deck[m++] = (uint8_t)k;
    /* deck[permutation(len(deck))]: the same swaps as shuffling the deck itself */
    shuffle_u8(&s->rng, deck, m);
    for (long p = 0; p < n; p++) {
        memcpy(s->pile[p], deck + p * g->deal, (size_t)g->deal);
        s->pile_len[p] = (uint8_t)g->deal;
    }
    for (long i = n * g->deal; i < m; i++)
        s->out[deck[i]]++;
    /* the race for the Start Player Card: a random seat opens the first round */
    s->start = (int8_t)integers32(&s->rng, (uint32_t)n);
    s->phase = DRAW;
    s->actor = s->start;
    for (long p = 0; p < n; p++)
        s->keep[p] = 1;
    s->pending = PA_NONE;
    begin_round(g, s);
}

/* -- outcome ------------------------------------------------------------------------------ */

static long points(const rules *g, const crew_state *s, long p)
{
    long total = 0;
    for (long i = 0; i < s->laid_len[p]; i++)
        total += g->combo_points[s->laid[p][i]];
    for (long i = 0; i < s->final_len[p]; i++)
        total += g->combo_points[s->final[p][i]];
    for (int k = NCREW; k < NK; k++)
        total += g->single[k] * s->final_left[p][k];
    return total + g->curse * s->curses[p];
}

static long captains(const rules *g, const crew_state *s, long p)
{
    long total = 0;
    for (long i = 0; i < s->laid_len[p]; i++)
        total += g->combo_captains[s->laid[p][i]];
    for (long i = 0; i < s->final_len[p]; i++)
        total += g->combo_captains[s->final[p][i]];
    for (int k = NCREW; k < NK; k++)
        total += s->final_left[p][k];
    return total;
}

/* -- validate: the invariants of engine.py's AllHandsCrewState.validate -------------------- */

/* NULL when ``s`` (its fields each within the ranges the loader checks) is a legal
 * position, else which rule it breaks. */
static const char *check_state(const rules *g, const crew_state *s)
{
    long n = g->n, ph = s->phase, everyone = g->everyone;
    /* nothing created or lost: every card of the deck in exactly one zone */
    long total[NK];
    for (int k = 0; k < NK; k++)
        total[k] = s->out[k];
    for (long p = 0; p < n; p++) {
        for (long i = 0; i < s->pile_len[p]; i++)
            total[s->pile[p][i]]++;
        for (long i = 0; i < s->stock_len[p]; i++)
            total[s->stock[p][i]]++;
        for (int k = 0; k < NK; k++)
            total[k] += s->crew[p][k] + s->final_left[p][k];
        for (long i = 0; i < s->laid_len[p]; i++)
            for (int k = 0; k < NK; k++)
                total[k] += g->combo_counts[s->laid[p][i]][k];
        for (long i = 0; i < s->final_len[p]; i++)
            for (int k = 0; k < NK; k++)
                total[k] += g->combo_counts[s->final[p][i]][k];
    }
    for (int k = 0; k < NK; k++)
        if (total[k] != g->copies[k])
            return "a card was created or lost";
    /* who knows which pile card: the owner (everyone with open stock) of cards put back */
    for (long p = 0; p < n; p++)
        for (long i = 0; i < s->pile_len[p]; i++) {
            long m = s->pile_known[p][i];
            if (m != 0 && m != (g->open_stock ? everyone : 1L << p))
                return "impossible pile knowledge mask";
        }
    /* stocks: drawn cards until the hiring ends */
    for (long p = 0; p < n; p++) {
        if (ph == DRAW && s->stock_len[p] > s->draw_target[p])
            return "stock: more cards drawn than the draw target";
        if ((ph == LAY || ph == TARGET || ph == OVER) && s->stock_len[p])
            return "stock cards left after the hiring";
    }
    /* crew knowledge: what o knows of q's crew is there, but for at most
     * crew_maybe_gone[q][o] cards that unseen Snatches took; nobody tracks their own */
    for (long q = 0; q < n; q++) {
        if (row_sum(s->crew_known[q][q]) || s->crew_maybe_gone[q][q])
            return "own crew tracked as known by self";
        for (long o = 0; o < n; o++) {
            const uint8_t *row = s->crew_known[q][o];
            long gone = s->crew_maybe_gone[q][o], missing = 0;
            if (gone > row_sum(row))
                return "more known cards may be gone than are known";
            for (int k = 0; k < NK; k++)
                if (row[k] > s->crew[q][k])
                    missing += row[k] - s->crew[q][k];
            if (missing > gone)
                return "known card not there";
        }
    }
    /* hiring bookkeeping */
    if (ph == HIRE) {
        if (s->actor != -1)
            return "actor: a single actor in hiring";
        for (long p = 0; p < n; p++) {
            long picks = s->hired_len[p];
            for (long i = 0; i < picks; i++) {
                if (s->hired[p][i] >= s->stock_len[p])
                    return "hired: not a stock card";
                for (long j = 0; j < i; j++)
                    if (s->hired[p][j] == s->hired[p][i])
                        return "a stock card hired twice";
            }
            long full = s->hire_step;
            if (s->keep[p] < full)
                full = s->keep[p];
            if (s->stock_len[p] < full)
                full = s->stock_len[p];
            if (s->hire_done[p]) {
                if (!(picks >= 1 && picks < full))
                    return "passed without a first pick";
            } else if (picks != full) {
                return "a hiring step without a pick";
            }
        }
    } else {
        int any = s->hire_step != 0;
        for (long p = 0; p < n; p++)
            any |= s->hired_len[p] != 0 || s->hire_done[p] != 0;
        if (any)
            return "hire_step/hired/hire_done: hiring bookkeeping outside the hiring";
    }
    /* the acting seat and the pending targeted action */
    if (ph == DRAW || ph == SPYGLASS || ph == LAY || ph == TARGET) {
        if (s->actor < 0 || s->actor >= n)
            return "actor: nobody acts";
    }
    if (ph == OVER && s->actor != -1)
        return "actor: someone acts after the end";
    if (ph == DRAW) {      /* one card a turn, round the table from the start player */
        long drawn = s->stock_len[s->actor];
        if (drawn >= s->draw_target[s->actor])
            return "actor: a seat that has drawn its stock draws again";
        long before = ((s->actor - s->start) % n + n) % n;
        for (long p = 0; p < n; p++) {
            long want = drawn + (((p - s->start) % n + n) % n < before);
            if (want > s->draw_target[p])
                want = s->draw_target[p];
            if (s->stock_len[p] != want)
                return "stock: cards drawn out of turn (one card a turn, round the table "
                       "from the start player)";
        }
    }
    if (ph == TARGET ? s->pending == PA_NONE : s->pending != PA_NONE)
        return "pending: a target phase without its action, or an action outside it";
    if (ph == SPYGLASS && s->spy_left[s->actor] == 0)
        return "spy_left: a Spyglass draw without one";
    if (!(s->lay_count < n || ph == OVER))
        return "lay_count: out of range";
    if ((ph == LAY || ph == TARGET) && s->lay_count != ((s->actor - s->start) % n + n) % n)
        return "lay_count: not the seats that laid out before the actor";
    if (ph == OVER) {
        long cards = 0;
        for (long p = 0; p < n; p++) {
            if (crew_size(s, p))
                return "crew left after the final layout";
            cards += s->pile_len[p];
        }
        if (cards >= n)
            return "piles: the game ended too early";
    } else {
        for (long p = 0; p < n; p++)
            if (s->final_len[p] || row_sum(s->final_left[p]))
                return "final/final_left: a final layout before the end";
    }
    for (long i = 0; i < s->num_events; i++) {
        const event *e = &s->events[i];
        if (e->what == EV_SNATCH) {
            if (e->seat == e->arg || e->mask != ((1L << e->seat) | (1L << e->arg)))
                return "events: a Snatch not known to exactly the two involved";
        } else if (e->mask != (e->what == EV_HIRE ? everyone : 0)) {
            return "events: only a Snatch's card is known to some players alone";
        }
    }
    /* _validate_actions: in-game actions come from laid pairs */
    long pairs[MAX_P][NUM_PA] = {{0}}, all[NUM_PA] = {0}, curses = 0, shorts = 0;
    for (long p = 0; p < n; p++)
        for (long i = 0; i < s->laid_len[p]; i++) {
            int act = g->combo_action[s->laid[p][i]];
            pairs[p][act]++;
            all[act]++;
        }
    for (long p = 0; p < n; p++) {
        curses += s->curses[p];
        shorts += s->next_short[p];
    }
    if (curses > all[PA_CURSE])
        return "curses: more curses than Bosun pairs laid";
    if (shorts > all[PA_SHORT_RATIONS])
        return "next_short: more Short rations than Carpenter pairs laid";
    for (long p = 0; p < n; p++) {
        if (s->keep[p] - 1 + s->next_double[p] > pairs[p][PA_DOUBLE_HIRE])
            return "keep/next_double: more Double hires than Cook pairs laid";
        if (s->spy_left[p] + s->next_spy[p] > pairs[p][PA_SPYGLASS])
            return "spy_left/next_spy: more Spyglasses than Lookout pairs laid";
    }
    if (ph != OVER)
        for (long p = 0; p < n; p++)
            if (s->draw_target[p] != g->short_rations_stock
                    && s->draw_target[p] != g->stock_cards)
                return "draw_target: neither a full stock nor Short rations";
    return NULL;
}

/* -- the view as plain numbers (python_view; the encoder reads nothing else) --------------- */

typedef struct {
    long me, n, phase, pending, actor, round, start, hire_step;
    long num_acting, acting[MAX_P];
    long pile_len[MAX_P];
    uint8_t pile_masks[MAX_P][MAX_CARDS];
    int8_t pile_kind[MAX_P][MAX_CARDS];    /* the kind where I know it, else -1 */
    long stock_len[MAX_P];
    int8_t stock_kind[MAX_P][MAX_STOCK];   /* the kind where I see it, else -1 */
    uint8_t stock_src[MAX_P][MAX_STOCK];
    long num_hired, my_hire_done;
    uint8_t my_hired[MAX_STOCK];
    uint8_t my_crew[NK];
    long crew_sizes[MAX_P];
    uint8_t crew_known[MAX_P][NK];         /* per seat q: kinds I know in q's Crew Pile */
    long crew_maybe_gone[MAX_P];
    uint8_t known_about_me[MAX_P][NK];     /* per seat o: kinds o knows in my Crew Pile */
    long maybe_gone_about_me[MAX_P];
    long laid_len[MAX_P], final_len[MAX_P];
    uint8_t laid[MAX_P][MAX_CARDS], final[MAX_P][MAX_CARDS];
    uint8_t final_left[MAX_P][NK];
    long curses[MAX_P], draw_target[MAX_P], spy_left[MAX_P], keep[MAX_P];
    long next_double[MAX_P], next_spy[MAX_P], next_short[MAX_P];
    long num_events;                       /* events: only when asked for */
    event events[MAX_EVENTS];              /* a kind I did not see is -1 */
} crew_view;

/* python_view of ``player`` into ``v`` (the round's events too if ``with_events``) */
static void plain_view(const rules *g, const crew_state *s, long player, crew_view *v,
                       int with_events)
{
    long n = g->n, bit = 1L << player;
    v->me = player;
    v->n = n;
    v->phase = s->phase;
    v->pending = s->pending;
    v->actor = s->actor;
    v->round = s->round;
    v->start = s->start;
    v->hire_step = s->hire_step;
    v->num_acting = deciders(g, s, v->acting);
    for (long q = 0; q < n; q++) {
        long len = s->pile_len[q];
        v->pile_len[q] = len;
        memcpy(v->pile_masks[q], s->pile_known[q], (size_t)len);
        for (long i = 0; i < len; i++)
            v->pile_kind[q][i] = (int8_t)(s->pile_known[q][i] & bit ? s->pile[q][i] : -1);
        /* stock cards are seen at hiring only: one's own, or everyone's with open stock */
        int seen = s->phase == HIRE && (q == player || g->open_stock);
        v->stock_len[q] = s->stock_len[q];
        for (long i = 0; i < s->stock_len[q]; i++) {
            v->stock_kind[q][i] = (int8_t)(seen ? s->stock[q][i] : -1);
            v->stock_src[q][i] = s->stock_src[q][i];
        }
        v->crew_sizes[q] = crew_size(s, q);
        memcpy(v->crew_known[q], s->crew_known[q][player], NK);
        v->crew_maybe_gone[q] = s->crew_maybe_gone[q][player];
        memcpy(v->known_about_me[q], s->crew_known[player][q], NK);
        v->maybe_gone_about_me[q] = s->crew_maybe_gone[player][q];
        v->laid_len[q] = s->laid_len[q];
        memcpy(v->laid[q], s->laid[q], s->laid_len[q]);
        v->final_len[q] = s->final_len[q];
        memcpy(v->final[q], s->final[q], s->final_len[q]);
        memcpy(v->final_left[q], s->final_left[q], NK);
        v->curses[q] = s->curses[q];
        v->draw_target[q] = s->draw_target[q];
        v->spy_left[q] = s->spy_left[q];
        v->keep[q] = s->keep[q];
        v->next_double[q] = s->next_double[q];
        v->next_spy[q] = s->next_spy[q];
        v->next_short[q] = s->next_short[q];
    }
    v->num_hired = s->hired_len[player];
    memcpy(v->my_hired, s->hired[player], s->hired_len[player]);
    v->my_hire_done = s->hire_done[player];
    memcpy(v->my_crew, s->crew[player], NK);
    v->num_events = 0;
    if (with_events) {
        v->num_events = s->num_events;
        for (long i = 0; i < s->num_events; i++) {
            v->events[i] = s->events[i];
            if (!(s->events[i].mask & bit))
                v->events[i].kind = -1;
            v->events[i].mask = 0;
        }
    }
}

/* -- the encoder (observation.py, bit for bit) -------------------------------------------- */

/* Exactness: the Python encoder divides ints (``x / 6``: one correctly rounded double
 * division, the same as ``(double)x / 6.0`` here), accumulates laid_cards in doubles in
 * combination order, takes pile_known and stock_* values from ACC5 (0.2 summed c times),
 * and stores each double as float32. */
static inline float ratio(long x, double scale)
{
    return (float)((double)x / scale);
}

static void encode(const rules *g, const crew_view *v, float *o)
{
    const long n = g->n, me = v->me, TD = g->top_depth, *at = g->at;
    const long w_top = TD * (NK + 1);
    memset(o, 0, sizeof(float) * (size_t)g->size);
    /* tallies of what the unseen block subtracts from the copies */
    long seen_piles[NK] = {0}, seen_stock[NK] = {0}, known_crews[NK] = {0}, seen_laid[NK] = {0};

    /* phase .. hire_step */
    o[at[F_PHASE] + v->phase] = 1.0f;
    for (int i = 0; i < 3; i++)
        if (v->pending == PENDING_ORDER[i])
            o[at[F_PENDING_ACTION] + i] = 1.0f;
    for (long i = 0; i < v->num_acting; i++)
        o[at[F_ACTING] + (v->acting[i] - me + n) % n] = 1.0f;
    o[at[F_START_PLAYER] + (v->start - me + n) % n] = 1.0f;
    o[at[F_ROUND]] = ratio(v->round, 30.0);
    o[at[F_HIRE_STEP]] = ratio(v->hire_step, 8.0);

    /* cards_in_piles .. pile_known_by_others */
    long total = 0, bit = 1L << me;
    for (long j = 0; j < n; j++) {
        long seat = (me + j) % n, size = v->pile_len[seat], unknown = 0, mine = 0;
        total += size;
        for (long i = 0; i < size; i++) {
            unknown += v->pile_masks[seat][i] == 0;
            mine += v->pile_masks[seat][i] == bit;
        }
        o[at[F_PILE_SIZE] + j] = ratio(size, 40.0);
        /* cards known to someone other than me: not unknown to all, not mine alone */
        o[at[F_PILE_KNOWN_BY_OTHERS] + j] = ratio(size - unknown - mine, 10.0);
        /* pile_top: every position holding a card is "unknown" until I know its kind */
        float *top = o + at[F_PILE_TOP] + j * w_top;
        long n_top = size < TD ? size : TD, count[NK] = {0};
        for (long d = 0; d < n_top; d++)
            top[d * (NK + 1) + NK] = 1.0f;
        for (long i = 0; i < size; i++) {
            long k = v->pile_kind[seat][i];
            if (k < 0)
                continue;
            count[k]++;
            long depth = size - 1 - i;          /* from the top */
            if (depth < TD) {
                top[depth * (NK + 1) + NK] = 0.0f;
                top[depth * (NK + 1) + k] = 1.0f;
            }
        }
        for (int k = 0; k < NK; k++) {
            o[at[F_PILE_KNOWN] + j * NK + k] = (float)g->acc5[count[k]];
            seen_piles[k] += count[k];
        }
    }
    o[at[F_CARDS_IN_PILES]] = ratio(total, 90.0);

    /* my_stock: per slot present, picked by me, one-hot kind, one-hot source offset */
    const long w_slot = 2 + NK + n;
    for (long i = 0; i < v->stock_len[me] && i < g->max_stock; i++) {
        float *slot = o + at[F_MY_STOCK] + i * w_slot;
        int picked = 0;
        for (long h = 0; h < v->num_hired; h++)
            picked |= v->my_hired[h] == i;
        slot[0] = 1.0f;
        slot[1] = (float)picked;
        if (v->stock_kind[me][i] >= 0)
            slot[2 + v->stock_kind[me][i]] = 1.0f;
        slot[2 + NK + (v->stock_src[me][i] - me + n) % n] = 1.0f;
    }
    /* per seat: stock_size, its cards per source pile, the kinds I can see */
    for (long j = 0; j < n; j++) {
        long seat = (me + j) % n, size = v->stock_len[seat];
        long sources[MAX_P] = {0}, kinds[NK] = {0};
        for (long i = 0; i < size; i++) {
            sources[(v->stock_src[seat][i] - me + n) % n]++;
            if (v->stock_kind[seat][i] >= 0)
                kinds[v->stock_kind[seat][i]]++;
        }
        o[at[F_STOCK_SIZE] + j] = ratio(size, 15.0);
        for (long q = 0; q < n; q++)
            o[at[F_STOCK_SOURCES] + j * n + q] = (float)g->acc5[sources[q]];
        for (int k = 0; k < NK; k++) {
            o[at[F_STOCK_SEEN] + j * NK + k] = (float)g->acc5[kinds[k]];
            seen_stock[k] += kinds[k];
        }
    }

    /* draw_target .. next_short_rations: per seat counters / scale */
    const long *counters[6] = {v->draw_target, v->spy_left, v->keep, v->next_double,
                               v->next_spy, v->next_short};
    static const int blocks[6] = {F_DRAW_TARGET, F_SPYGLASS_LEFT, F_HIRE_KEEP,
                                  F_NEXT_DOUBLE_HIRE, F_NEXT_SPYGLASS, F_NEXT_SHORT_RATIONS};
    static const double scales[6] = {3.0, 3.0, 3.0, 3.0, 3.0, 1.0};
    for (int f = 0; f < 6; f++)
        for (long j = 0; j < n; j++)
            o[at[blocks[f]] + j] = ratio(counters[f][(me + j) % n], scales[f]);

    /* my_crew, my_crew_value (the best partition's score if the game ended now; 0 once it
     * is over), crew_size */
    for (int k = 0; k < NK; k++)
        o[at[F_MY_CREW] + k] = ratio(v->my_crew[k], 6.0);
    if (v->phase != OVER)
        o[at[F_MY_CREW_VALUE]] = ratio(crew_value(g, v->my_crew), 40.0);
    for (long j = 0; j < n; j++)
        o[at[F_CREW_SIZE] + j] = ratio(v->crew_sizes[(me + j) % n], 20.0);

    /* crew_known, crew_maybe_gone, known_about_me, about_me_maybe_gone (my rows stay 0) */
    for (long j = 0; j < n; j++) {
        long seat = (me + j) % n;
        if (seat == me)
            continue;
        const uint8_t *row = v->crew_known[seat];
        long maybe = v->crew_maybe_gone[seat];
        if (row_sum(row)) {
            o[at[F_CREW_MAYBE_GONE] + j] = ratio(maybe, 6.0);
            for (int k = 0; k < NK; k++)
                if (row[k]) {
                    o[at[F_CREW_KNOWN] + j * NK + k] = ratio(row[k], 6.0);
                    /* of row[k] known cards, all but ``maybe`` are surely there */
                    if (row[k] > maybe)
                        known_crews[k] += row[k] - maybe;
                }
        }
        for (int k = 0; k < NK; k++)
            o[at[F_KNOWN_ABOUT_ME] + j * NK + k] = ratio(v->known_about_me[seat][k], 6.0);
        o[at[F_ABOUT_ME_MAYBE_GONE] + j] = ratio(v->maybe_gone_about_me[seat], 6.0);
    }

    /* laid_cards .. score: per seat, its laid and final combinations, leftovers */
    for (long j = 0; j < n; j++) {
        long seat = (me + j) % n, pts = 0, caps = 0, cards[NK] = {0};
        double lc[NK] = {0.0};
        for (int group = 0; group < 2; group++) {
            long len = group ? v->final_len[seat] : v->laid_len[seat];
            const uint8_t *combos = group ? v->final[seat] : v->laid[seat];
            for (long i = 0; i < len; i++) {
                long ci = combos[i];
                pts += g->combo_points[ci];
                caps += g->combo_captains[ci];
                for (int k = 0; k < NK; k++)
                    if (g->combo_counts[ci][k]) {
                        lc[k] += (double)g->combo_counts[ci][k] / 12.0;  /* in order */
                        cards[k] += g->combo_counts[ci][k];
                    }
            }
        }
        /* cards left over at the end: captains count for the tie-break and score */
        for (int k = 0; k < NK; k++) {
            long rest = v->final_left[seat][k];
            if (rest) {
                cards[k] += rest;
                lc[k] += (double)rest / 12.0;
                if (k >= NCREW) {
                    caps += rest;
                    pts += g->single[k] * rest;
                }
            }
        }
        for (int k = 0; k < NK; k++) {
            o[at[F_LAID_CARDS] + j * NK + k] = (float)lc[k];
            seen_laid[k] += cards[k];
        }
        long x = v->curses[seat];
        o[at[F_LAID_POINTS] + j] = ratio(pts, 60.0);
        o[at[F_CAPTAINS] + j] = ratio(caps, 10.0);
        o[at[F_CURSES] + j] = ratio(x, 6.0);
        o[at[F_SCORE] + j] = ratio(pts + g->curse * x, 60.0);
    }

    /* unseen: cards of each kind whose place I do not know for sure */
    for (int k = 0; k < NK; k++)
        o[at[F_UNSEEN] + k] = ratio(g->copies[k] - seen_piles[k] - seen_stock[k]
                                    - v->my_crew[k] - known_crews[k] - seen_laid[k], 12.0);
}

/* -- reading a saved state (the STATE_FIELDS readers, then validate) ----------------------- */

static const char *const FIELDS[] = {
    "piles", "pile_known", "out", "stock", "stock_src", "crew", "crew_known",
    "crew_maybe_gone", "laid", "final", "final_left", "curses", "round", "start", "phase",
    "actor", "draw_target", "spy_left", "keep", "hire_step", "hired", "hire_done",
    "lay_count", "pending", "next_double", "next_spy", "next_short", "events", "turns", "rng",
};
#define NUM_FIELDS 30
enum {
    S_PILES, S_PILE_KNOWN, S_OUT, S_STOCK, S_STOCK_SRC, S_CREW, S_CREW_KNOWN,
    S_CREW_MAYBE_GONE, S_LAID, S_FINAL, S_FINAL_LEFT, S_CURSES, S_ROUND, S_START, S_PHASE,
    S_ACTOR, S_DRAW_TARGET, S_SPY_LEFT, S_KEEP, S_HIRE_STEP, S_HIRED, S_HIRE_DONE,
    S_LAY_COUNT, S_PENDING, S_NEXT_DOUBLE, S_NEXT_SPY, S_NEXT_SHORT, S_EVENTS, S_TURNS, S_RNG,
};

/* one list per seat of ints within lo..hi: exactly ``inner`` each (inner >= 0) or at most
 * ``max_inner``, into the rows of ``out`` (``width`` bytes apart), their lengths into
 * ``lens`` (if given) */
static int read_rows(const rules *g, PyObject *obj, const char *name, long inner,
                     long max_inner, long lo, long hi, uint8_t *out, size_t width,
                     uint8_t *lens)
{
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) != g->n)
        return bad_state("expected a list of one entry per seat", name);
    long buf[MAX_CARDS];
    for (long p = 0; p < g->n; p++) {
        long k = read_list(PyList_GET_ITEM(obj, p), name, inner, max_inner, lo, hi, buf);
        if (k < 0)
            return -1;
        for (long i = 0; i < k; i++)
            out[p * width + i] = (uint8_t)buf[i];
        if (lens)
            lens[p] = (uint8_t)k;
    }
    return 0;
}

/* one int per seat within lo..hi */
static int read_seats(const rules *g, PyObject *obj, const char *name, long lo, long hi,
                      uint8_t *out)
{
    long buf[MAX_P];
    if (read_list(obj, name, g->n, 0, lo, hi, buf) < 0)
        return -1;
    for (long p = 0; p < g->n; p++)
        out[p] = (uint8_t)buf[p];
    return 0;
}

/* the index of ``obj`` among ``count`` names (a str equal to one), or -1 */
static int name_index(PyObject *obj, const char *const *names, int count)
{
    if (!PyUnicode_Check(obj))
        return -1;
    for (int i = 0; i < count; i++)
        if (PyUnicode_CompareWithASCIIString(obj, names[i]) == 0)
            return i;
    return -1;
}

/* AllHandsCrewGame._check_event: [seat, what, argument, kind or count, knower mask] */
static int read_event(const rules *g, PyObject *obj, event *e)
{
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) != 5)
        return bad_state("expected [seat, what, argument, kind, knowers]", "events");
    PyObject **f = &PyList_GET_ITEM(obj, 0);
    long long seat, arg = 0, kind, mask;
    if (read_int(f[0], "events (seat)", 0, g->n - 1, &seat) < 0)
        return -1;
    int what = name_index(f[1], EV_NAMES, NUM_EV);
    if (what < 0)
        return bad_state("not a kind of event", "events (what)");
    if (what == EV_FORFEIT) {
        int act = name_index(f[2], PA_NAMES, NUM_PA);
        if (act != PA_SPYGLASS && act != PA_SNATCH && act != PA_SHORT_RATIONS && act != PA_CURSE)
            return bad_state("not a forfeited action", "events (action)");
        arg = act;
    } else if (what == EV_LAY) {
        if (read_int(f[2], "events (combination)", 0, g->num_combos - 1, &arg) < 0)
            return -1;
    } else if (what == EV_HIRE) {
        if (read_int(f[2], "events (cards hired)", 0, g->max_stock, &arg) < 0)
            return -1;
    } else if (read_int(f[2], "events (seat)", 0, g->n - 1, &arg) < 0) {
        return -1;
    }
    if (what == EV_HIRE) {
        if (read_int(f[3], "events (cards put back)", 0, g->max_stock, &kind) < 0)
            return -1;
    } else if (what == EV_SNATCH) {
        if (read_int(f[3], "events (kind)", 0, NK - 1, &kind) < 0)
            return -1;
    } else if (read_int(f[3], "events (kind)", -1, -1, &kind) < 0) {
        return -1;
    }
    if (read_int(f[4], "events (knowers)", 0, g->everyone, &mask) < 0)
        return -1;
    e->seat = (int8_t)seat;
    e->what = (int8_t)what;
    e->arg = (int16_t)arg;
    e->kind = (int8_t)kind;
    e->mask = (uint8_t)mask;
    return 0;
}

/* _load_state and validate: ``data`` (a to_dict()) into ``s`` */
static int load_state(const rules *g, PyObject *data, crew_state *s)
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
        PyErr_SetString(InvalidStateError, ENGINE_ENV_ID " state: unknown fields besides "
                        "the state's own");
        return -1;
    }
    memset(s, 0, offsetof(crew_state, events));
    long n = g->n, cards = g->total_cards, most = g->most, ms = g->max_stock;
    uint8_t lens[MAX_P];
    if (read_rows(g, f[S_PILES], "piles", -1, cards, 0, NK - 1, &s->pile[0][0], MAX_CARDS,
                  s->pile_len) < 0
            || read_rows(g, f[S_PILE_KNOWN], "pile_known", -1, cards, 0, g->everyone,
                         &s->pile_known[0][0], MAX_CARDS, lens) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        if (lens[p] != s->pile_len[p])
            return bad_state("not one mask per pile card", "pile_known");
    long buf[MAX_CARDS];
    if (read_list(f[S_OUT], "out", NK, 0, 0, most, buf) < 0)
        return -1;
    for (int k = 0; k < NK; k++)
        s->out[k] = (uint8_t)buf[k];
    if (read_rows(g, f[S_STOCK], "stock", -1, ms, 0, NK - 1, &s->stock[0][0], MAX_STOCK,
                  s->stock_len) < 0
            || read_rows(g, f[S_STOCK_SRC], "stock_src", -1, ms, 0, n - 1, &s->stock_src[0][0],
                         MAX_STOCK, lens) < 0)
        return -1;
    for (long p = 0; p < n; p++)
        if (lens[p] != s->stock_len[p])
            return bad_state("not one source per stock card", "stock_src");
    if (read_rows(g, f[S_CREW], "crew", NK, 0, 0, most, &s->crew[0][0], NK, NULL) < 0)
        return -1;
    if (!PyList_Check(f[S_CREW_KNOWN]) || PyList_GET_SIZE(f[S_CREW_KNOWN]) != n)
        return bad_state("expected a list of one entry per seat", "crew_known");
    for (long q = 0; q < n; q++)
        if (read_rows(g, PyList_GET_ITEM(f[S_CREW_KNOWN], q), "crew_known", NK, 0, 0, most,
                      &s->crew_known[q][0][0], NK, NULL) < 0)
            return -1;
    if (read_rows(g, f[S_CREW_MAYBE_GONE], "crew_maybe_gone", n, 0, 0, cards,
                  &s->crew_maybe_gone[0][0], MAX_P, NULL) < 0
            || read_rows(g, f[S_LAID], "laid", -1, cards, 0, g->num_combos - 1, &s->laid[0][0],
                         MAX_CARDS, s->laid_len) < 0
            || read_rows(g, f[S_FINAL], "final", -1, cards, 0, g->num_combos - 1,
                         &s->final[0][0], MAX_CARDS, s->final_len) < 0
            || read_rows(g, f[S_FINAL_LEFT], "final_left", NK, 0, 0, most, &s->final_left[0][0],
                         NK, NULL) < 0
            || read_seats(g, f[S_CURSES], "curses", 0, cards / 2, s->curses) < 0)
        return -1;
    long long v;
    /* engine.py's _most_rounds: a round takes a card per seat, and the count moves on
     * once more at the end */
    if (read_int(f[S_ROUND], "round", 1, cards / n + 1, &v) < 0)
        return -1;
    s->round = (int16_t)v;
    if (read_int(f[S_START], "start", 0, n - 1, &v) < 0)
        return -1;
    s->start = (int8_t)v;
    int phase = name_index(f[S_PHASE], PHASE_NAMES, NUM_PHASES);
    if (phase < 0)
        return bad_state("not a phase", "phase");
    s->phase = (int8_t)phase;
    if (read_int(f[S_ACTOR], "actor", -1, n - 1, &v) < 0)
        return -1;
    s->actor = (int8_t)v;
    if (read_seats(g, f[S_DRAW_TARGET], "draw_target", 0, g->stock_cards, s->draw_target) < 0
            || read_seats(g, f[S_SPY_LEFT], "spy_left", 0, g->max_spyglasses, s->spy_left) < 0
            || read_seats(g, f[S_KEEP], "keep", 1, ms, s->keep) < 0)
        return -1;
    if (read_int(f[S_HIRE_STEP], "hire_step", 0, ms, &v) < 0)
        return -1;
    s->hire_step = (uint8_t)v;
    if (read_rows(g, f[S_HIRED], "hired", -1, ms, 0, ms - 1, &s->hired[0][0], MAX_STOCK,
                  s->hired_len) < 0)
        return -1;
    if (!PyList_Check(f[S_HIRE_DONE]) || PyList_GET_SIZE(f[S_HIRE_DONE]) != n)
        return bad_state("expected a list of one bool per seat", "hire_done");
    for (long p = 0; p < n; p++) {
        PyObject *b = PyList_GET_ITEM(f[S_HIRE_DONE], p);
        if (!PyBool_Check(b))
            return bad_state("expected true or false", "hire_done");
        s->hire_done[p] = b == Py_True;
    }
    if (read_int(f[S_LAY_COUNT], "lay_count", 0, n, &v) < 0)
        return -1;
    s->lay_count = (uint8_t)v;
    if (PyUnicode_Check(f[S_PENDING]) && PyUnicode_GET_LENGTH(f[S_PENDING]) == 0) {
        s->pending = PA_NONE;
    } else {
        int act = name_index(f[S_PENDING], PA_NAMES, NUM_PA);
        if (act != PA_SNATCH && act != PA_SHORT_RATIONS && act != PA_CURSE)
            return bad_state("not '' or a targeted action", "pending");
        s->pending = (int8_t)act;
    }
    if (read_seats(g, f[S_NEXT_DOUBLE], "next_double", 0, ms, s->next_double) < 0
            || read_seats(g, f[S_NEXT_SPY], "next_spy", 0, g->max_spyglasses, s->next_spy) < 0
            || read_seats(g, f[S_NEXT_SHORT], "next_short", 0, 1, s->next_short) < 0)
        return -1;
    PyObject *events = f[S_EVENTS];
    if (!PyList_Check(events) || PyList_GET_SIZE(events) > MAX_EVENTS)
        return bad_state("expected a list of at most 1000 events", "events");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(events); i++)
        if (read_event(g, PyList_GET_ITEM(events, i), &s->events[i]) < 0)
            return -1;
    s->num_events = (int16_t)PyList_GET_SIZE(events);
    if (read_int(f[S_TURNS], "turns", 0, MAX_INT_SAVED, &v) < 0)
        return -1;
    s->turns = v;
    if (read_rng(f[S_RNG], &s->rng) < 0)
        return -1;
    const char *why = check_state(g, s);
    if (why) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state breaks the rules: %s", why);
        return -1;
    }
    return 0;
}

/* -- writing a state (to_dict) ------------------------------------------------------------ */

/* one list per seat: row p holds lens[p] (or ``len``) bytes of ``rows`` (``width`` apart) */
static PyObject *rows_to_py(long n, const uint8_t *rows, size_t width, const uint8_t *lens,
                            long len)
{
    PyObject *out = PyList_New(n);
    for (long p = 0; out && p < n; p++) {
        PyObject *row;
        INT_LIST(row, lens ? lens[p] : len, rows[p * width + i]);
        if (row == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, p, row);
    }
    return out;
}

static PyObject *bools_to_py(long n, const uint8_t *x)
{
    PyObject *out = PyList_New(n);
    for (long p = 0; out && p < n; p++) {
        PyObject *b = x[p] ? Py_True : Py_False;
        Py_INCREF(b);
        PyList_SET_ITEM(out, p, b);
    }
    return out;
}

/* -- the Engine type ---------------------------------------------------------------------- */

/* AllHandsCrewView's fields, in the order State.view fills them (view.py) */
#define NUM_VIEW_FIELDS 32
static const char *const VIEW_FIELDS[NUM_VIEW_FIELDS] = {
    "player", "num_players", "open_stock", "phase", "acting", "actor", "round", "start",
    "hire_step", "pending", "pile_masks", "pile_seen", "stock", "my_hired", "my_hire_done",
    "my_crew", "crew_sizes", "crew_known", "crew_maybe_gone", "known_about_me",
    "maybe_gone_about_me", "laid", "final", "final_left", "curses", "draw_target",
    "spy_left", "keep", "next_double", "next_spy", "next_short", "events",
};

typedef struct {
    PyObject_HEAD
    rules g;
    PyObject *view_cls;            /* AllHandsCrewView */
    PyObject *phases;              /* the Phase members (codes.PHASES), by phase code */
    PyObject *pa_names[NUM_PA];    /* the action names ("" for none: pending) */
    PyObject *ev_names[NUM_EV];
    int ready;
} Engine;

static PyTypeObject EngineType;

static PyObject *state_to_dict(const Engine *e, const crew_state *s)
{
    const rules *g = &e->g;
    long n = g->n;
    PyObject *d = PyDict_New(), *v;
    if (d == NULL)
        return NULL;
    if (set_item(d, "piles", rows_to_py(n, &s->pile[0][0], MAX_CARDS, s->pile_len, 0)) < 0
            || set_item(d, "pile_known", rows_to_py(n, &s->pile_known[0][0], MAX_CARDS,
                                                    s->pile_len, 0)) < 0)
        goto fail;
    INT_LIST(v, NK, s->out[i]);
    if (set_item(d, "out", v) < 0
            || set_item(d, "stock", rows_to_py(n, &s->stock[0][0], MAX_STOCK, s->stock_len,
                                               0)) < 0
            || set_item(d, "stock_src", rows_to_py(n, &s->stock_src[0][0], MAX_STOCK,
                                                   s->stock_len, 0)) < 0
            || set_item(d, "crew", rows_to_py(n, &s->crew[0][0], NK, NULL, NK)) < 0)
        goto fail;
    v = PyList_New(n);
    for (long q = 0; v && q < n; q++) {
        PyObject *rows = rows_to_py(n, &s->crew_known[q][0][0], NK, NULL, NK);
        if (rows == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, q, rows);
    }
    if (set_item(d, "crew_known", v) < 0
            || set_item(d, "crew_maybe_gone", rows_to_py(n, &s->crew_maybe_gone[0][0], MAX_P,
                                                         NULL, n)) < 0
            || set_item(d, "laid", rows_to_py(n, &s->laid[0][0], MAX_CARDS, s->laid_len, 0)) < 0
            || set_item(d, "final", rows_to_py(n, &s->final[0][0], MAX_CARDS, s->final_len,
                                               0)) < 0
            || set_item(d, "final_left", rows_to_py(n, &s->final_left[0][0], NK, NULL, NK)) < 0)
        goto fail;
    INT_LIST(v, n, s->curses[i]);
    if (set_item(d, "curses", v) < 0
            || set_item(d, "round", PyLong_FromLong(s->round)) < 0
            || set_item(d, "start", PyLong_FromLong(s->start)) < 0)
        goto fail;
    v = PyTuple_GET_ITEM(e->phases, s->phase);
    Py_INCREF(v);
    if (set_item(d, "phase", v) < 0 || set_item(d, "actor", PyLong_FromLong(s->actor)) < 0)
        goto fail;
    INT_LIST(v, n, s->draw_target[i]);
    if (set_item(d, "draw_target", v) < 0)
        goto fail;
    INT_LIST(v, n, s->spy_left[i]);
    if (set_item(d, "spy_left", v) < 0)
        goto fail;
    INT_LIST(v, n, s->keep[i]);
    if (set_item(d, "keep", v) < 0
            || set_item(d, "hire_step", PyLong_FromLong(s->hire_step)) < 0
            || set_item(d, "hired", rows_to_py(n, &s->hired[0][0], MAX_STOCK, s->hired_len,
                                               0)) < 0
            || set_item(d, "hire_done", bools_to_py(n, s->hire_done)) < 0
            || set_item(d, "lay_count", PyLong_FromLong(s->lay_count)) < 0)
        goto fail;
    v = e->pa_names[s->pending];
    Py_INCREF(v);
    if (set_item(d, "pending", v) < 0)
        goto fail;
    INT_LIST(v, n, s->next_double[i]);
    if (set_item(d, "next_double", v) < 0)
        goto fail;
    INT_LIST(v, n, s->next_spy[i]);
    if (set_item(d, "next_spy", v) < 0)
        goto fail;
    INT_LIST(v, n, s->next_short[i]);
    if (set_item(d, "next_short", v) < 0)
        goto fail;
    v = PyList_New(s->num_events);
    for (long i = 0; v && i < s->num_events; i++) {
        const event *ev = &s->events[i];
        PyObject *arg = ev->what == EV_FORFEIT ? (Py_INCREF(e->pa_names[ev->arg]),
                                                 e->pa_names[ev->arg])
                                               : PyLong_FromLong(ev->arg);
        PyObject *item = arg ? Py_BuildValue("[lONli]", (long)ev->seat, e->ev_names[ev->what],
                                             arg, (long)ev->kind, (int)ev->mask) : NULL;
        if (item == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, i, item);
    }
    if (set_item(d, "events", v) < 0
            || set_item(d, "turns", PyLong_FromLongLong(s->turns)) < 0
            || set_item(d, "rng", rng_to_py(&s->rng)) < 0)
        goto fail;
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

/* -- Engine(...): the constants (AllHandsCrewGame.compiled_engine_params) ------------------ */

static int param_error(const char *what)
{
    PyErr_Format(InvalidArgumentError, "Engine: %s", what);
    return -1;
}

/* a tuple of exactly ``len`` ints within lo..hi into ``out`` */
static int param_longs(PyObject *seq, Py_ssize_t len, const char *name, long lo, long hi,
                       long *out)
{
    long *tmp = ce_longs_exact(seq, len, name);
    if (tmp == NULL)
        return -1;
    int ok = 1;
    for (Py_ssize_t i = 0; i < len; i++) {
        ok &= tmp[i] >= lo && tmp[i] <= hi;
        out[i] = tmp[i];
    }
    PyMem_Free(tmp);
    if (!ok) {
        PyErr_Format(InvalidArgumentError, "Engine: %s: a value outside %ld..%ld", name, lo, hi);
        return -1;
    }
    return 0;
}

/* The encoder's constants (observation.compiled_params): the sizes, the layout's starts
 * (checked against the widths written here), the names, the cards, the combinations and
 * the partition solver's tables. */
static int read_encoder_params(rules *g, PyObject *params)
{
    int n, K, num_crew, top_depth, max_stock;
    Py_ssize_t size;
    long curse;
    PyObject *starts, *phases, *pendings, *acc5, *copies, *combo_counts, *combo_points;
    PyObject *combo_captains, *single, *order, *group_values, *cand_combos, *cand_start;
    if (!PyTuple_Check(params))
        return param_error("encoder_params: expected a tuple");
    if (!PyArg_ParseTuple(params, "iiiiinOOOOOOOOOlOOOO:encoder_params", &n, &K, &num_crew,
                          &top_depth, &max_stock, &size, &starts, &phases, &pendings, &acc5,
                          &copies, &combo_counts, &combo_points, &combo_captains, &single,
                          &curse, &order, &group_values, &cand_combos, &cand_start))
        return -1;
    if (n != g->n || K != NK || num_crew != NCREW || top_depth < 0 || top_depth > TOP_DEPTH_MAX
            || max_stock < 1 || max_stock > MAX_STOCK || curse < -100 || curse > 100)
        return param_error("encoder_params: sizes outside what the engine holds");
    g->max_stock = max_stock;
    g->top_depth = top_depth;
    g->size = (long)size;
    g->curse = curse;
    /* names: the phases and the pending actions in one-hot order */
    if (!PyTuple_Check(phases) || PyTuple_GET_SIZE(phases) != NUM_PHASES
            || !PyTuple_Check(pendings) || PyTuple_GET_SIZE(pendings) != 3)
        return param_error("encoder_params: phases and pendings must be tuples of 6 and 3 str");
    for (int i = 0; i < NUM_PHASES; i++)
        if (name_index(PyTuple_GET_ITEM(phases, i), PHASE_NAMES, NUM_PHASES) != i)
            return param_error("encoder_params: not this engine's phases");
    for (int i = 0; i < 3; i++)
        if (name_index(PyTuple_GET_ITEM(pendings, i), PA_NAMES, NUM_PA) != PENDING_ORDER[i])
            return param_error("encoder_params: not this engine's pending actions");
    /* the layout: each field's start, as the widths below add up */
    const long w[NUM_LAYOUT_FIELDS] = {
        NUM_PHASES, 3, n, n, 1, 1,
        1, n, n * top_depth * (NK + 1), n * NK, n,
        max_stock * (2 + NK + n), n, n * n, n * NK, n,
        n, n, n, n,
        n, NK, 1, n, n * NK,
        n, n * NK, n, n * NK,
        n, n, n, n, NK,
    };
    long at[NUM_LAYOUT_FIELDS], pos = 0;
    if (param_longs(starts, NUM_LAYOUT_FIELDS, "starts", 0, 1L << 20, at) < 0)
        return -1;
    for (int f = 0; f < NUM_LAYOUT_FIELDS; f++) {
        if (at[f] != pos)
            return param_error("encoder_params: the layout's fields are not this encoder's");
        g->at[f] = pos;
        pos += w[f];
    }
    if (pos != g->size)
        return param_error("encoder_params: the layout's size is not this encoder's");
    /* ACC5: 0.2 summed c times, as the Python encoder's table */
    double x = 0.0;
    for (long c = 0; c <= MAX_CARDS; c++) {
        g->acc5[c] = x;
        x += 0.2;
    }
    Py_ssize_t got;
    double *given = ce_doubles_new(acc5, "acc5", &got);
    if (given == NULL)
        return -1;
    int same = got > max_stock;
    for (Py_ssize_t c = 0; same && c < got && c <= MAX_CARDS; c++)
        same = given[c] == g->acc5[c];
    PyMem_Free(given);
    if (!same)
        return param_error("encoder_params: acc5 is not 0.2 summed c times");
    /* the cards */
    if (param_longs(copies, NK, "copies", 0, MAX_PER_KIND, g->copies) < 0)
        return -1;
    g->total_cards = g->most = 0;
    for (int k = 0; k < NK; k++) {
        g->total_cards += g->copies[k];
        if (g->copies[k] > g->most)
            g->most = g->copies[k];
    }
    if (g->total_cards > MAX_CARDS)
        return param_error("copies: more cards than the engine holds");
    if (param_longs(single, NK, "single_values", -100, 100, g->single) < 0)
        return -1;
    for (int k = 0; k < NCREW; k++)
        if (g->single[k] != 0)
            return param_error("single_values: a crew card left over scores 0");
    /* the combinations */
    long *pts = ce_longs_new(combo_points, "combo_points", &got);
    if (pts == NULL)
        return -1;
    g->num_combos = (long)got;
    int ok = got >= 1 && got <= MAX_COMBOS;
    for (Py_ssize_t i = 0; ok && i < got; i++) {
        ok = pts[i] >= -100 && pts[i] <= 100;
        g->combo_points[i] = pts[i];
    }
    PyMem_Free(pts);
    if (!ok)
        return param_error("combo_points: at most 126 combinations of -100..100 points");
    long *caps = ce_longs_exact(combo_captains, g->num_combos, "combo_captains");
    if (caps == NULL)
        return -1;
    for (long i = 0; i < g->num_combos; i++)
        g->combo_captains[i] = caps[i];
    PyMem_Free(caps);
    long *counts = ce_longs_exact(combo_counts, g->num_combos * NK, "combo_counts");
    if (counts == NULL)
        return -1;
    ok = 1;
    for (long ci = 0; ci < g->num_combos; ci++) {
        long cards = 0, cap = 0;
        g->combo_packed[ci] = 0;
        for (int k = 0; k < NK; k++) {
            long c = counts[ci * NK + k];
            ok &= c >= 0 && c <= MAX_PER_KIND;
            g->combo_counts[ci][k] = (uint8_t)c;
            g->combo_packed[ci] |= (uint64_t)(c & 31) << (5 * k);
            cards += c;
            cap += k >= NCREW ? c : 0;
        }
        ok &= cards >= 1 && cap == g->combo_captains[ci];
    }
    PyMem_Free(counts);
    if (!ok)
        return param_error("combo_counts: a combination of 0..15 cards a kind, captains "
                           "as combo_captains");
    /* the partition solver's tables */
    g->guard = 0;
    for (int k = 0; k < NK; k++)
        g->guard |= (uint64_t)16 << (5 * k);
    long ord[NK];
    if (param_longs(order, NK, "order", 0, NK - 1, ord) < 0)
        return -1;
    int listed[NK] = {0};
    for (int i = 0; i < NK; i++) {
        /* every kind exactly once, or the solver would loop on an unlisted kind */
        if (listed[ord[i]]++)
            return param_error("order: not a permutation of the kinds");
        g->order[i] = (int)ord[i];
    }
    long *gv = ce_longs_new(group_values, "group_values", &got);
    if (gv == NULL)
        return -1;
    Py_ssize_t len = got / NK;
    ok = got % NK == 0 && len > MAX_PER_KIND;
    for (int k = 0; ok && k < NK; k++)
        for (int r = 0; r <= MAX_PER_KIND; r++) {
            g->group_value[k][r] = gv[k * len + r];
            ok &= gv[k * len + r] >= -2000 && gv[k * len + r] <= 2000;
        }
    PyMem_Free(gv);
    if (!ok)
        return param_error("group_values: expected 9 rows of more than 15 values");
    if (param_longs(cand_start, NK + 1, "cand_start", 0, MAX_COMBOS * NK, g->cand_start) < 0)
        return -1;
    long *cc = ce_longs_new(cand_combos, "cand_combos", &got);
    if (cc == NULL)
        return -1;
    ok = got <= MAX_COMBOS * NK;
    for (Py_ssize_t i = 0; ok && i < got; i++) {
        ok = cc[i] >= 0 && cc[i] < g->num_combos;
        g->cands[i] = (uint8_t)cc[i];
    }
    PyMem_Free(cc);
    for (int k = 0; ok && k < NK; k++)
        ok = g->cand_start[k] <= g->cand_start[k + 1] && g->cand_start[k + 1] <= got;
    if (!ok || g->cand_start[0] != 0)
        return param_error("cand_combos/cand_start: candidates per kind of the combinations");
    return 0;
}

/* Partitioner._group: per kind, per count r, the combinations settling r cards of it */
static int read_groups(rules *g, PyObject *groups)
{
    if (!PyTuple_Check(groups) || PyTuple_GET_SIZE(groups) != NK)
        return param_error("group_combos: expected a tuple of 9 rows");
    for (int k = 0; k < NK; k++) {
        PyObject *row = PyTuple_GET_ITEM(groups, k);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) <= MAX_PER_KIND)
            return param_error("group_combos: a row of more than 15 entries a kind");
        for (int r = 0; r <= MAX_PER_KIND; r++) {
            Py_ssize_t m;
            long *combos = ce_longs_new(PyTuple_GET_ITEM(row, r), "group_combos", &m);
            if (combos == NULL)
                return -1;
            int ok = m <= MAX_GROUP;
            long cards = 0;
            for (Py_ssize_t i = 0; ok && i < m; i++) {
                ok = combos[i] >= 0 && combos[i] < g->num_combos;
                if (ok) {
                    g->group_combos[k][r][i] = (uint8_t)combos[i];
                    for (int j = 0; j < NK; j++)   /* kind k's cards alone, r at most */
                        if (g->combo_counts[combos[i]][j])
                            ok &= j == k;
                    cards += g->combo_counts[combos[i]][k];
                }
            }
            PyMem_Free(combos);
            if (!ok || cards > r)
                return param_error("group_combos: combinations of one kind's r cards");
            g->group_len[k][r] = (uint8_t)m;
        }
    }
    return 0;
}

static PyObject *intern_str(const char *s)
{
    return PyUnicode_InternFromString(s);
}

static int Engine_init(Engine *e, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "open_stock", "deal", "stock_cards",
                             "spyglass_extra", "short_rations_stock", "max_spyglasses",
                             "action_starts", "combo_actions", "group_combos",
                             "encoder_params", "view_cls", "phases", NULL};
    long n, deal, stock, spy, short_, max_spy;
    int open_stock;
    PyObject *starts, *actions, *groups, *enc, *view_cls, *phases;
    e->ready = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "lplllllOOOOOO:Engine", kwlist, &n,
                                     &open_stock, &deal, &stock, &spy, &short_, &max_spy,
                                     &starts, &actions, &groups, &enc, &view_cls, &phases))
        return -1;
    if (e->g.cache == NULL) {
        e->g.cache = PyMem_Calloc((size_t)1 << CACHE_BITS, sizeof(uint64_t));
        if (e->g.cache == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    uint64_t *cache = e->g.cache;
    rules *g = &e->g;
    memset(g, 0, sizeof(*g));
    g->cache = cache;
    memset(cache, 0, sizeof(uint64_t) << CACHE_BITS);
    g->cache_mask = ((size_t)1 << CACHE_BITS) - 1;
    if (n < 2 || n > MAX_P)
        return param_error("num_players: 2-6");
    g->n = n;
    g->everyone = (1L << n) - 1;
    g->open_stock = open_stock;
    if (read_encoder_params(g, enc) < 0 || read_groups(g, groups) < 0)
        return -1;
    if (deal < 1 || deal * n > g->total_cards || stock < 1 || stock > g->max_stock
            || short_ < 1 || short_ > stock || spy < 1 || max_spy < 0
            || g->max_stock + spy * max_spy > MAX_STOCK)
        return param_error("deal, stock_cards, spyglass_extra, short_rations_stock or "
                           "max_spyglasses outside what the engine holds");
    g->deal = deal;
    g->stock_cards = stock;
    g->spyglass_extra = spy;
    g->short_rations_stock = short_;
    g->max_spyglasses = max_spy;
    long a[6];
    if (param_longs(starts, 6, "action_starts", 0, 1L << 20, a) < 0)
        return -1;
    g->a_draw = a[0];
    g->a_hire = a[1];
    g->a_lay = a[2];
    g->a_target = a[3];
    g->a_pass = a[4];
    g->a_size = a[5];
    if (g->a_draw != 0 || g->a_hire != n || g->a_lay != g->a_hire + g->max_stock
            || g->a_target != g->a_lay + g->num_combos || g->a_pass != g->a_target + n - 1
            || g->a_size != g->a_pass + 1)
        return param_error("action_starts: not draw, hire, lay, target and pass in order");
    if (!PyTuple_Check(actions) || PyTuple_GET_SIZE(actions) != g->num_combos)
        return param_error("combo_actions: one action name per combination");
    for (long ci = 0; ci < g->num_combos; ci++) {
        int act = name_index(PyTuple_GET_ITEM(actions, ci), PA_NAMES, NUM_PA);
        if (act < 0)
            return param_error("combo_actions: an unknown action");
        g->combo_action[ci] = (int8_t)act;
    }
    if (!PyTuple_Check(phases) || PyTuple_GET_SIZE(phases) != NUM_PHASES)
        return param_error("phases: expected a tuple of the 6 phases");
    for (int i = 0; i < NUM_PHASES; i++)
        if (name_index(PyTuple_GET_ITEM(phases, i), PHASE_NAMES, NUM_PHASES) != i)
            return param_error("phases: expected draw, spyglass, hire, lay, target, over");
    if (ce_check_record(view_cls, "view_cls", VIEW_FIELDS, NUM_VIEW_FIELDS) < 0)
        return -1;
    for (int i = 0; i < NUM_PA; i++) {
        PyObject *s = intern_str(i == PA_NONE ? "" : PA_NAMES[i]);
        if (s == NULL)
            return -1;
        Py_XSETREF(e->pa_names[i], s);
    }
    for (int i = 0; i < NUM_EV; i++) {
        PyObject *s = intern_str(EV_NAMES[i]);
        if (s == NULL)
            return -1;
        Py_XSETREF(e->ev_names[i], s);
    }
    Py_INCREF(view_cls);
    Py_XSETREF(e->view_cls, view_cls);
    Py_INCREF(phases);
    Py_XSETREF(e->phases, phases);
    e->ready = 1;
    return 0;
}

static void Engine_dealloc(Engine *e)
{
    PyMem_Free(e->g.cache);
    Py_XDECREF(e->view_cls);
    Py_XDECREF(e->phases);
    for (int i = 0; i < NUM_PA; i++)
        Py_XDECREF(e->pa_names[i]);
    for (int i = 0; i < NUM_EV; i++)
        Py_XDECREF(e->ev_names[i]);
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

/* -- the batch (envs/core/engine_batch.h) ------------------------------------------------- */

#define BATCH_STATE crew_state
#define BATCH_ENGINE Engine
#define BATCH_ENGINE_TYPE EngineType
#define BATCH_MAX_SEATS MAX_P
#define BATCH_KEY_LEN 2
#define BATCH_TYPE_NAME "plunder.envs.all_hands_crew._engine.Batch"

static int batch_engine_ready(BATCH_ENGINE *e)
{
    return engine_ready(e);
}

static long batch_num_players(const BATCH_ENGINE *e)
{
    return e->g.n;
}

static long batch_num_actions(const BATCH_ENGINE *e)
{
    return e->g.a_size;
}

static long batch_obs_size(const BATCH_ENGINE *e)
{
    return e->g.size;
}

static pcg64 *batch_rng(BATCH_STATE *s)
{
    return &s->rng;
}

static void batch_setup(const BATCH_ENGINE *e, BATCH_STATE *s)
{
    setup(&e->g, s);
}

static int batch_finished(const BATCH_STATE *s)
{
    return s->phase == OVER;
}

static int64_t batch_turns(const BATCH_STATE *s)
{
    return s->turns;
}

static long batch_deciders(const BATCH_ENGINE *e, const BATCH_STATE *s, long *seats)
{
    return deciders(&e->g, s, seats);
}

static void batch_observe(const BATCH_ENGINE *e, const BATCH_STATE *s, long seat,
                          int8_t *mask, float *row)
{
    crew_view v;
    fill_mask(&e->g, s, seat, mask);
    plain_view(&e->g, s, seat, &v, 0);
    encode(&e->g, &v, row);
}

static void batch_apply(const BATCH_ENGINE *e, BATCH_STATE *s, const long *seats,
                        const int64_t *actions, long k)
{
    long acts[MAX_P];
    for (long p = 0; p < e->g.n; p++)
        acts[p] = -1;
    for (long i = 0; i < k; i++)
        acts[seats[i]] = (long)actions[i];
    apply_joint(&e->g, s, acts);
}

static void batch_scores(const BATCH_ENGINE *e, const BATCH_STATE *s, double *out)
{
    for (long p = 0; p < e->g.n; p++)
        out[p] = (double)points(&e->g, s, p);
}

static long batch_rank_keys(const BATCH_ENGINE *e, const BATCH_STATE *s, double *keys)
{
    for (long p = 0; p < e->g.n; p++) {
        keys[p * BATCH_KEY_LEN] = (double)points(&e->g, s, p);
        keys[p * BATCH_KEY_LEN + 1] = (double)captains(&e->g, s, p);
    }
    return e->g.n;
}

#include "engine_batch.h"

/* -- the State type and the Engine's game-making methods (envs/core/engine_state.h) ------- */

#define ENGINE_STATE_TYPE_NAME "plunder.envs.all_hands_crew._engine.State"
#include "engine_state.h"

/* -- the view object (python_view) -------------------------------------------------------- */

static PyObject *byte_tuple(const uint8_t *x, long k)
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

/* per seat: a tuple of lens[p] (or ``len``) bytes of ``rows`` (``width`` apart) */
static PyObject *byte_rows(long n, const uint8_t *rows, size_t width, const long *lens,
                           long len)
{
    PyObject *t = PyTuple_New(n);
    for (long p = 0; t && p < n; p++) {
        PyObject *row = byte_tuple(rows + p * width, lens ? lens[p] : len);
        if (row == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, p, row);
    }
    return t;
}

/* (a, b) of two new ints */
static PyObject *int_pair(long a, long b)
{
    return Py_BuildValue("(ll)", a, b);
}

static PyObject *build_view(const Engine *e, const crew_view *v)
{
    const rules *g = &e->g;
    long n = g->n;
    PyObject *items[NUM_VIEW_FIELDS] = {NULL};
    items[0] = PyLong_FromLong(v->me);
    items[1] = PyLong_FromLong(n);
    items[2] = PyBool_FromLong(g->open_stock);
    items[3] = PyTuple_GET_ITEM(e->phases, v->phase);
    Py_INCREF(items[3]);
    items[4] = engine_long_tuple(v->acting, v->num_acting);
    items[5] = PyLong_FromLong(v->actor);
    items[6] = PyLong_FromLong(v->round);
    items[7] = PyLong_FromLong(v->start);
    items[8] = PyLong_FromLong(v->hire_step);
    items[9] = e->pa_names[v->pending];
    Py_INCREF(items[9]);
    items[10] = byte_rows(n, &v->pile_masks[0][0], MAX_CARDS, v->pile_len, 0);
    /* per pile: (position from the bottom, kind) of the cards I know */
    items[11] = PyTuple_New(n);
    for (long q = 0; items[11] && q < n; q++) {
        long k = 0;
        for (long i = 0; i < v->pile_len[q]; i++)
            k += v->pile_kind[q][i] >= 0;
        PyObject *seen = PyTuple_New(k);
        for (long i = 0, j = 0; seen && i < v->pile_len[q]; i++) {
            if (v->pile_kind[q][i] < 0)
                continue;
            PyObject *pair = int_pair(i, v->pile_kind[q][i]);
            if (pair == NULL) {
                Py_CLEAR(seen);
                break;
            }
            PyTuple_SET_ITEM(seen, j++, pair);
        }
        if (seen == NULL) {
            Py_CLEAR(items[11]);
            break;
        }
        PyTuple_SET_ITEM(items[11], q, seen);
    }
    /* per seat, in stock order: (kind or -1, source pile) */
    items[12] = PyTuple_New(n);
    for (long q = 0; items[12] && q < n; q++) {
        PyObject *st = PyTuple_New(v->stock_len[q]);
        for (long i = 0; st && i < v->stock_len[q]; i++) {
            PyObject *pair = int_pair(v->stock_kind[q][i], v->stock_src[q][i]);
            if (pair == NULL) {
                Py_CLEAR(st);
                break;
            }
            PyTuple_SET_ITEM(st, i, pair);
        }
        if (st == NULL) {
            Py_CLEAR(items[12]);
            break;
        }
        PyTuple_SET_ITEM(items[12], q, st);
    }
    items[13] = byte_tuple(v->my_hired, v->num_hired);
    items[14] = PyBool_FromLong(v->my_hire_done);
    items[15] = byte_tuple(v->my_crew, NK);
    items[16] = engine_long_tuple(v->crew_sizes, n);
    items[17] = byte_rows(n, &v->crew_known[0][0], NK, NULL, NK);
    items[18] = engine_long_tuple(v->crew_maybe_gone, n);
    items[19] = byte_rows(n, &v->known_about_me[0][0], NK, NULL, NK);
    items[20] = engine_long_tuple(v->maybe_gone_about_me, n);
    items[21] = byte_rows(n, &v->laid[0][0], MAX_CARDS, v->laid_len, 0);
    items[22] = byte_rows(n, &v->final[0][0], MAX_CARDS, v->final_len, 0);
    items[23] = byte_rows(n, &v->final_left[0][0], NK, NULL, NK);
    items[24] = engine_long_tuple(v->curses, n);
    items[25] = engine_long_tuple(v->draw_target, n);
    items[26] = engine_long_tuple(v->spy_left, n);
    items[27] = engine_long_tuple(v->keep, n);
    items[28] = engine_long_tuple(v->next_double, n);
    items[29] = engine_long_tuple(v->next_spy, n);
    items[30] = engine_long_tuple(v->next_short, n);
    /* this round: (seat, what, arg, kind or -1) */
    items[31] = PyTuple_New(v->num_events);
    for (long i = 0; items[31] && i < v->num_events; i++) {
        const event *ev = &v->events[i];
        PyObject *arg = ev->what == EV_FORFEIT ? (Py_INCREF(e->pa_names[ev->arg]),
                                                 e->pa_names[ev->arg])
                                               : PyLong_FromLong(ev->arg);
        PyObject *item = arg ? Py_BuildValue("(lONl)", (long)ev->seat, e->ev_names[ev->what],
                                             arg, (long)ev->kind) : NULL;
        if (item == NULL) {
            Py_CLEAR(items[31]);
            break;
        }
        PyTuple_SET_ITEM(items[31], i, item);
    }
    PyObject *view = ((PyTypeObject *)e->view_cls)->tp_alloc((PyTypeObject *)e->view_cls,
                                                              NUM_VIEW_FIELDS);
    int ok = view != NULL;
    for (int i = 0; i < NUM_VIEW_FIELDS; i++)
        ok &= items[i] != NULL;
    if (!ok) {
        for (int i = 0; i < NUM_VIEW_FIELDS; i++)
            Py_XDECREF(items[i]);
        Py_XDECREF(view);
        return NULL;
    }
    for (int i = 0; i < NUM_VIEW_FIELDS; i++)
        PyTuple_SET_ITEM(view, i, items[i]);
    return view;
}

static int engine_load(const Engine *e, PyObject *data, crew_state *s)
{
    return load_state(&e->g, data, s);
}

static PyObject *engine_to_dict(const Engine *e, const crew_state *s)
{
    return state_to_dict(e, s);
}

static void engine_mask(const Engine *e, const crew_state *s, long player, int8_t *mask)
{
    fill_mask(&e->g, s, player, mask);
}

/* view(player): the AllHandsCrewView python_view builds */
static PyObject *engine_view(Engine *e, const crew_state *s, long player)
{
    crew_view *v = PyMem_Malloc(sizeof(crew_view));
    if (v == NULL)
        return PyErr_NoMemory();
    plain_view(&e->g, s, player, v, 1);
    PyObject *out = build_view(e, v);
    PyMem_Free(v);
    return out;
}

static void engine_encode(const Engine *e, const crew_state *s, long player, float *out)
{
    crew_view v;
    plain_view(&e->g, s, player, &v, 0);
    encode(&e->g, &v, out);
}

static PyMethodDef Engine_methods[] = {
    ENGINE_METHODS,
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.all_hands_crew._engine.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(num_players, open_stock, deal, stock_cards, spyglass_extra, "
              "short_rations_stock, max_spyglasses, action_starts, combo_actions, "
              "group_combos, encoder_params, view_cls, phases): one All Hands on Deck "
              "game's constants (AllHandsCrewGame.compiled_engine_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};

/* -- the module --------------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "All Hands on Deck (crew)'s compiled engine: state, rules, view, encoder, JSON round "
    "trip, batches (engine.py is the specification).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    if (engine_import_errors() < 0)
        return NULL;
    if (PyType_Ready(&StateType) < 0)
        return NULL;
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_FIELDS, NUM_VIEW_FIELDS},
        {"LAYOUT_FIELDS", LAYOUT_FIELDS, NUM_LAYOUT_FIELDS},
    };
    PyObject *m = ce_module_named(&module, "Engine", &EngineType, names, 2);
    if (m == NULL)
        return NULL;
    if (ce_add_type(m, "State", &StateType) < 0 || ce_add_type(m, "Batch", &BatchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
