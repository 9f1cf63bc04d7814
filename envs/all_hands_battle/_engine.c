/* All Hands On Deck (battles)' compiled engine: the state, the rules, the view, the encoder
 * and the JSON round trip in one module, and a batch of games stepped without Python per
 * step.
 *
 * The Python engine (engine.py, battles.py, ships.py, observation.py) is the
 * specification: every function here mirrors the one of the same name there, and
 * tests/test_compiled_engine.py checks that both give the same trajectories, masks,
 * views, observations, scores and rank keys. Randomness is numpy's, reproduced exactly
 * (envs/core/engine.h): Generator.permutation for the deals, reshuffles and the Alternate
 * Aargh! order, Generator.integers for the first player, so a state's generator is the
 * same numbers as the Python state's ``rng``, and its saved form is numpy's PCG64 dict.
 *
 * ``Engine(...)`` holds one game's constants (AllHandsBattleGame.compiled_engine_params:
 * the card table, the rules' sizes and variant flags, the layout blocks);
 * ``Engine.new_initial_state(rng_state)``, ``Engine.new_game(seed)`` and
 * ``Engine.from_dict(data)`` make ``State`` objects (to_dict, current_players, mask,
 * apply, apply_joint, view, encode_into, scores, rank_keys, clone).
 *
 * The public event log is kept as codes (what happened, to which cards and seats) and
 * written as the Python engine's text only when a view or the saved form is asked for;
 * the texts of a loaded state are kept as they were given (at most EVENT_TEXT bytes each).
 *
 * Anything read from Python (a saved state, an action, a buffer) is checked before use:
 * a bad one raises the project's InvalidStateError or InvalidArgumentError (or
 * IllegalActionError for an action the mask forbids), never reads outside the state.
 */
#define ENGINE_ENV_ID "all_hands_battle_v0"
#include "engine.h"
#include <stdio.h>

/* -- sizes -------------------------------------------------------------------------------- */

#define MAX_PLAYERS 5
#define MAX_CARDS 256            /* card ids are bytes */
#define MAX_SHIPS 10             /* ships_per_fleet (the component data allows 1..10) */
#define MAX_CREW 10              /* crew_per_ship (1..10) */
#define MAX_HAND 64              /* hand_size + 1 (hand_size <= 60) */
#define MAX_EVENTS 12            /* codes.MAX_EVENTS */
/* Spy looks: a saved state holds at most n * n * S, and each new look is a (spy, ship)
 * pair not looked at yet this round */
#define MAX_LOOKS (2 * MAX_PLAYERS * MAX_PLAYERS * MAX_SHIPS)
#define EVENT_TEXT 512           /* bytes of one event text of a loaded state */
#define MAX_SAVED 2147483647LL   /* core.checks.MAX_INT: unbounded ints of a saved state */
#define CSET_WORDS (MAX_CARDS / 64)

/* card kinds and suits (components.py) */
enum { ADMIRAL, CAPTAIN, PRIVATEER, CREW, TREASURE, DAUGHTER, BLACK_SPOT, RUTH, SPY, LADY,
       COOK, NUM_KINDS };
enum { NAVY, MERCHANT, PIRATE, RAIDER, NO_SUIT };
/* phases and decisions (codes.py: PHASES and DECISIONS orders) */
enum { RECRUIT, BATTLE, OVER_PHASE, NUM_PHASES };
static const char *const PHASE_NAMES[NUM_PHASES] = {"recruit", "battle", "over"};
enum { D_TURN, D_CREW, D_DISCARD, D_CLAIM, D_SELECT, D_AIM, D_OVER, NUM_DECISIONS };
static const char *const DECISION_NAMES[NUM_DECISIONS] = {
    "turn", "crew", "discard", "claim", "select", "aim", "over",
};
/* battle outcomes and reasons (ships.py) */
enum { ATTACKER, DEFENDER, SINK, RAID };
enum { R_RAID, R_BLACK_SPOT, R_BOTH_SPOTS, R_PRIZE, R_DUELS, R_RANK, R_TIE };
static const char *const REASONS[] = {
    "raid", "black spot", "both black spots", "prize crew", "duels", "rank", "tie",
};
/* duel order classes: the Governor's Daughter duels first, Ladies last */
enum { FIRST_CLASS, MIDDLE_CLASS, LAST_CLASS };

/* -- card sets ---------------------------------------------------------------------------- */

typedef struct {
    uint64_t w[CSET_WORDS];
} cset;

static inline int cs_has(const cset *s, long c)
{
    return (int)(s->w[c >> 6] >> (c & 63) & 1);
}

static inline void cs_add(cset *s, long c)
{
    s->w[c >> 6] |= (uint64_t)1 << (c & 63);
}

static inline void cs_del(cset *s, long c)
{
    s->w[c >> 6] &= ~((uint64_t)1 << (c & 63));
}

static inline long popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (long)((x * 0x0101010101010101ULL) >> 56);
}

/* |a & b| */
static inline long cs_common(const cset *a, const cset *b)
{
    long k = 0;
    for (int i = 0; i < CSET_WORDS; i++)
        k += popcount64(a->w[i] & b->w[i]);
    return k;
}

/* |a & b & ~c| */
static inline long cs_common_not(const cset *a, const cset *b, const cset *c)
{
    long k = 0;
    for (int i = 0; i < CSET_WORDS; i++)
        k += popcount64(a->w[i] & b->w[i] & ~c->w[i]);
    return k;
}

static cset cs_of(const uint8_t *cards, long k)
{
    cset s;
    memset(&s, 0, sizeof(s));
    for (long i = 0; i < k; i++)
        cs_add(&s, cards[i]);
    return s;
}

/* -- the game's constants ----------------------------------------------------------------- */

/* the observation layout's blocks (observation.build_layout), in LAYOUT_FIELDS order */
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

static const char *const LAYOUT_FIELDS[NUM_BLOCKS] = {
    "decision", "my_decision", "phase", "acting_seat", "turn_seat", "starter", "hand",
    "hand_sizes", "reserved", "known_with", "discard_pile", "discard_top", "claim_outlook",
    "draw_pile_size", "pile_candidates", "unseen", "ship_launched", "ship_suit", "ship_rank",
    "ship_in_play", "ship_keeper", "ship_crew_count", "ship_crew_known", "ship_crew",
    "ship_revealed", "ship_spied", "ship_spied_by_other", "plunder_cards", "plunder_value",
    "launch_master", "launch_crew", "launch_count", "launched", "claim_queue", "first_fleet",
    "last_turns", "passed", "forced", "selected", "spies_used", "totals", "last_round",
    "round",
};

/* the per-card columns Engine takes, in CARD_COLUMNS order (components.Card) */
enum { K_KIND, K_SUIT, K_LEVEL, K_VALUE, K_PENALTY, K_ATTACK, K_DEFEND, K_BONUS,
       NUM_COLUMNS };
static const char *const CARD_COLUMNS[NUM_COLUMNS] = {
    "kind", "suit", "level", "value", "penalty", "attack_level", "defend_level", "bonus",
};

typedef struct {
    long n, C, hand, crew, S;            /* players, cards, hand size, crew per ship, fleet */
    long ship_points, ff_bonus;
    int prize_crew, alternate_aargh;
    int64_t target, max_rounds;
    uint8_t alliance[4];
    /* per card */
    uint8_t kind[MAX_CARDS], suit[MAX_CARDS], sails[MAX_CARDS], is_master[MAX_CARDS],
        is_treasure[MAX_CARDS], has_prize[MAX_CARDS];
    int16_t level[MAX_CARDS], value[MAX_CARDS], penalty[MAX_CARDS], attack[MAX_CARDS],
        defend[MAX_CARDS], bonus[MAX_CARDS];
    /* ShipRules' tables: the defending level (_defend_level), Ruth's bonus, duelling */
    int16_t defend_level[MAX_CARDS], ruth_bonus[MAX_CARDS];
    uint8_t duelling[MAX_CARDS];
    uint8_t obs_suit[MAX_CARDS], obs_rank[MAX_CARDS];   /* observation one-hot indices */
    /* per shipmaster: eligible crew (ShipRules.elig), without itself, the cards of its
     * crews (ShipRules._pool), its Prize Crew parts; all treasure cards */
    cset elig[MAX_CARDS], elig_nom[MAX_CARDS], pool[MAX_CARDS], caps[MAX_CARDS],
        cooks[MAX_CARDS];
    /* per card, the cards that dominate it in a crew (ShipRules._dominator_masks) */
    cset dominators[MAX_CARDS];
    cset treasure;
    /* card names (UTF-8), for the event texts */
    const char *name[MAX_CARDS];
    long name_len[MAX_CARDS];
    char *names;
    /* action indices (codes.BattleActions) */
    long a_discard, a_master, a_crew, a_claim, a_no_claim, a_select, a_attack, a_spy, a_pass,
        a_size;
    /* the observation layout */
    long size, start[NUM_BLOCKS], len[NUM_BLOCKS];
    double top;                          /* 1.0 + 600.0 / target_score */
    long round_scale;
} rules;

/* -- the state ---------------------------------------------------------------------------- */

typedef struct {
    uint8_t master, crew_len, in_play, revealed;
    int8_t keeper;
    uint8_t crew[MAX_CREW];              /* sorted */
} ship;

/* one public event: the Python engine's text is written from these (event_text) */
enum { EV_TEXT, EV_ROUND, EV_RESHUFFLE, EV_PICK_UP, EV_FIRST_FLEET, EV_DISCARD, EV_LAUNCH,
       EV_RESERVE, EV_SPY, EV_PASS, EV_BATTLES, EV_RAID, EV_ATTACK, EV_RECKONING,
       EV_GAME_OVER };

typedef struct {
    uint8_t type;
    int8_t seat, slot, owner, tslot, outcome, reason;
    uint8_t master, tmaster;             /* the two ships' shipmasters */
    uint8_t n1, n2;                      /* cards[0..n1) and cards[n1..n1+n2) */
    uint8_t cards[2 * MAX_CREW];
    int64_t num;                         /* a round, a count, a card, a ship number */
    int64_t vals[MAX_PLAYERS];           /* per seat: round scores, totals */
} event;

typedef struct {
    pcg64 rng;
    int64_t round, turns;
    int64_t totals[MAX_PLAYERS], last_round[MAX_PLAYERS];
    int8_t has_last_round, starter, phase, decision, actor, turn_player, first_fleet;
    int8_t launched, forced, selected, spies_used;
    int16_t launch_master;
    int16_t reserved[MAX_PLAYERS];
    uint16_t deck_len, discard_len, resh_len;
    uint8_t deck[MAX_CARDS];             /* top last */
    uint8_t discard[MAX_CARDS];          /* top last */
    uint8_t reshuffled[MAX_CARDS];       /* sorted */
    uint8_t hand_len[MAX_PLAYERS], hands[MAX_PLAYERS][MAX_HAND];     /* sorted */
    uint8_t kw_len[MAX_PLAYERS], known_with[MAX_PLAYERS][MAX_HAND];
    uint8_t fleet_len[MAX_PLAYERS];
    ship ships[MAX_PLAYERS][MAX_SHIPS];
    uint16_t plunder_len[MAX_PLAYERS];
    uint8_t plunder[MAX_PLAYERS][MAX_CARDS];
    uint8_t launch_len, launch_crew[MAX_CREW];
    uint8_t cq_len, claim_queue[MAX_PLAYERS];
    uint8_t lt_len, last_turns[MAX_PLAYERS];
    uint8_t passed[MAX_PLAYERS];
    uint16_t spied_len;
    uint8_t spied[MAX_LOOKS][3];         /* spy owner, ship owner, slot */
    uint8_t ev_head, ev_len;             /* a ring: event i at (ev_head + i) % MAX_EVENTS */
    event events[MAX_EVENTS];
    uint16_t text_len[MAX_EVENTS];       /* EV_TEXT events: their text, by event.num */
    char texts[MAX_EVENTS][EVENT_TEXT];
} ab_state;

/* seat q relative to seat p: Python's (q - p) % n for seats 0..n-1 */
static inline long rel_seat(long q, long p, long n)
{
    long r = q - p;
    return r < 0 ? r + n : r;
}

/* _event: a new event at the end of the log (the oldest dropped beyond MAX_EVENTS) */
static event *new_event(ab_state *s, int type)
{
    event *e;
    if (s->ev_len < MAX_EVENTS) {
        e = &s->events[(s->ev_head + s->ev_len) % MAX_EVENTS];
        s->ev_len++;
    } else {
        e = &s->events[s->ev_head];
        s->ev_head = (uint8_t)((s->ev_head + 1) % MAX_EVENTS);
    }
    memset(e, 0, sizeof(*e));
    e->type = (uint8_t)type;
    return e;
}

/* -- small list helpers ------------------------------------------------------------------- */

/* remove the first ``c`` of a byte list; 1 if it was there */
static int list_remove(uint8_t *a, uint8_t *len, long c)
{
    for (long i = 0; i < *len; i++)
        if (a[i] == c) {
            memmove(a + i, a + i + 1, (size_t)(*len - i - 1));
            (*len)--;
            return 1;
        }
    return 0;
}

static int list_has(const uint8_t *a, long len, long c)
{
    for (long i = 0; i < len; i++)
        if (a[i] == c)
            return 1;
    return 0;
}

/* bisect.insort into a sorted byte list */
static void insort(uint8_t *a, uint8_t *len, long c)
{
    long i = *len;
    while (i > 0 && a[i - 1] > c) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = (uint8_t)c;
    (*len)++;
}

static void sort_bytes(uint8_t *a, long k)
{
    for (long i = 1; i < k; i++)
        for (long j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint8_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* -- ship legality (ships.py: ShipRules) -------------------------------------------------- */

/* group: the alliance of a ship by its shipmaster, 0 mariners, 1 marauders, 2 Privateer */
static inline int group(const rules *g, long m)
{
    return g->suit[m] == NO_SUIT ? 2 : g->alliance[g->suit[m]];
}

static inline int may_attack(const rules *g, long att, long dfn)
{
    int a = group(g, att), d = group(g, dfn);
    return a == 2 || d == 2 || a != d;
}

/* is_prize_crew: Admiral + a Captain and the Cook of its suit + the rest eligible */
static int is_prize_crew(const rules *g, long m, const uint8_t *crew, long k)
{
    if (!g->has_prize[m] || k != g->crew)
        return 0;
    long ncap = 0, ncook = 0, nrest = 0;
    for (long i = 0; i < k; i++) {
        long c = crew[i];
        if (cs_has(&g->caps[m], c))
            ncap++;
        if (cs_has(&g->cooks[m], c))
            ncook++;
        if (!cs_has(&g->caps[m], c) && !cs_has(&g->cooks[m], c)) {
            if (!cs_has(&g->elig[m], c))
                return 0;
            nrest++;
        }
    }
    return ncap == 1 && ncook == 1 && nrest == g->crew - 2;
}

static int all_elig(const rules *g, long m, const uint8_t *crew, long k)
{
    for (long i = 0; i < k; i++)
        if (!cs_has(&g->elig[m], crew[i]))
            return 0;
    return 1;
}

/* crew_ok: a legal full crew for ``m`` */
static int crew_ok(const rules *g, long m, const uint8_t *crew, long k)
{
    if (!g->is_master[m] || k != g->crew)
        return 0;
    return all_elig(g, m, crew, k) || is_prize_crew(g, m, crew, k);
}

/* completable: ``partial`` (k cards) can be completed to a legal crew from ``avail`` */
static int completable(const rules *g, long m, const uint8_t *partial, long k,
                       const cset *avail)
{
    long need = g->crew - k;
    if (need < 0)
        return 0;
    if (all_elig(g, m, partial, k) && cs_common(avail, &g->elig[m]) >= need)
        return 1;
    if (!g->has_prize[m])
        return 0;
    long ncap = 0, ncook = 0, nrest = 0;
    int rest_ok = 1;
    for (long i = 0; i < k; i++) {
        long c = partial[i];
        int cap = cs_has(&g->caps[m], c), cook = cs_has(&g->cooks[m], c);
        ncap += cap;
        ncook += cook;
        if (!cap && !cook) {
            nrest++;
            rest_ok &= cs_has(&g->elig[m], c);
        }
    }
    long other_slots = g->crew - 2;
    if (ncap > 1 || ncook > 1 || nrest > other_slots || !rest_ok)
        return 0;
    if (ncap == 0 && !cs_common(avail, &g->caps[m]))
        return 0;
    if (ncook == 0 && !cs_common(avail, &g->cooks[m]))
        return 0;
    return cs_common_not(avail, &g->elig[m], &g->cooks[m]) >= other_slots - nrest;
}

/* ship_crew_ok: a legal full crew, or what a raid left of one */
static int ship_crew_ok(const rules *g, long m, const uint8_t *crew, long k)
{
    if (k >= g->crew)
        return crew_ok(g, m, crew, k);
    if (!g->is_master[m])
        return 0;
    cset treasure = g->treasure;
    for (long i = 0; i < k; i++) {
        if (g->is_treasure[crew[i]])
            return 0;
        cs_del(&treasure, crew[i]);
    }
    return completable(g, m, crew, k, &treasure);
}

/* can_launch: ``m`` (in the hand) can lead a legal ship from the rest of the hand */
static int can_launch(const rules *g, long m, const uint8_t *hand, long nh)
{
    cset held = cs_of(hand, nh);
    if (cs_common(&held, &g->elig_nom[m]) >= g->crew)
        return 1;
    if (!g->has_prize[m])
        return 0;
    cs_del(&held, m);
    return completable(g, m, NULL, 0, &held);
}

/* crew_choices: the cards of the hand that keep the launch completable, into ``out`` */
static long crew_choices(const rules *g, long m, const uint8_t *crew, long k,
                         const uint8_t *hand, long nh, uint8_t *out)
{
    long need = g->crew - k - 1, found = 0;
    if (need < 0)
        return 0;
    cset held = cs_of(hand, nh);
    int simple = all_elig(g, m, crew, k) && cs_common(&held, &g->elig[m]) - 1 >= need;
    int prize = g->has_prize[m];
    uint8_t more[MAX_CREW + 1];
    memcpy(more, crew, (size_t)k);
    for (long i = 0; i < nh; i++) {
        long c = hand[i];
        if (simple && cs_has(&g->elig[m], c)) {
            out[found++] = (uint8_t)c;
        } else if (prize) {
            more[k] = (uint8_t)c;
            cset rest = held;
            cs_del(&rest, c);
            if (completable(g, m, more, k + 1, &rest))
                out[found++] = (uint8_t)c;
        }
    }
    return found;
}

/* -- battles (ShipRules.levels, _duel, fourth_card, resolve) ------------------------------ */

typedef struct {
    long cls, level, card;
} duel_entry;

/* levels: (order class, effective level, card) of each crew card, in duel order */
static long levels(const rules *g, const uint8_t *crew, long k, int attacking, duel_entry *out)
{
    long base[MAX_CREW], bonus = 0;
    for (long i = 0; i < k; i++) {
        long c = crew[i], kd = g->kind[c], lv;
        if (kd == SPY)
            lv = attacking ? g->attack[c] : g->defend[c];
        else if (kd == CREW || kd == COOK || kd == PRIVATEER || kd == RUTH)
            lv = g->level[c];
        else
            lv = 0;
        if (kd == RUTH)
            bonus += g->bonus[c];
        base[i] = lv;
    }
    long strongest = 0;
    int any = 0;
    for (long i = 0; i < k; i++) {
        long c = crew[i];
        if (g->duelling[c])
            base[i] += bonus - (g->kind[c] == RUTH ? g->bonus[c] : 0);
        if (g->kind[c] != LADY && (!any || base[i] > strongest)) {
            strongest = base[i];
            any = 1;
        }
    }
    for (long i = 0; i < k; i++) {
        long c = crew[i], kd = g->kind[c];
        if (kd == LADY)
            out[i] = (duel_entry){LAST_CLASS, strongest, c};
        else if (kd == DAUGHTER)
            out[i] = (duel_entry){FIRST_CLASS, 0, c};
        else
            out[i] = (duel_entry){MIDDLE_CLASS, base[i], c};
    }
    for (long i = 1; i < k; i++)              /* sorted as tuples */
        for (long j = i; j > 0; j--) {
            duel_entry *a = &out[j - 1], *b = &out[j];
            int gt = a->cls != b->cls ? a->cls > b->cls
                : a->level != b->level ? a->level > b->level : a->card > b->card;
            if (!gt)
                break;
            duel_entry t = *a;
            *a = *b;
            *b = t;
        }
    return k;
}

/* a card's kind; -1 (no card) reads the last card, as Python's index -1 does */
static inline long kind_of(const rules *g, long card)
{
    return g->kind[card < 0 ? g->C - 1 : card];
}

static int duel(const rules *g, const duel_entry *a, const duel_entry *b)
{
    int ad = kind_of(g, a->card) == DAUGHTER, bd = kind_of(g, b->card) == DAUGHTER;
    if (ad || bd)
        return ad && bd ? 0 : (ad ? 1 : -1);
    return (a->level > b->level) - (a->level < b->level);
}

static duel_entry fourth_card(const rules *g, const uint8_t *crew, long k, int attacking)
{
    duel_entry lv[MAX_CREW];
    levels(g, crew, k, attacking, lv);
    for (long i = 0; i < k; i++)
        if (g->kind[lv[i].card] != CAPTAIN && g->kind[lv[i].card] != COOK)
            return lv[i];
    return (duel_entry){MIDDLE_CLASS, 0, -1};
}

static int has_kind(const rules *g, const uint8_t *crew, long k, int kind)
{
    for (long i = 0; i < k; i++)
        if (g->kind[crew[i]] == kind)
            return 1;
    return 0;
}

/* resolve: the outcome of ship ``a`` attacking ship ``d`` (its reason in *reason) */
static int resolve(const rules *g, const ship *a, const ship *d, int *reason)
{
    long am = a->master, dm = d->master;
    if (g->suit[am] == RAIDER && g->kind[am] != PRIVATEER)
        for (long i = 0; i < d->crew_len; i++)
            if (g->is_treasure[d->crew[i]]) {
                *reason = R_RAID;
                return RAID;
            }
    int a_spot = has_kind(g, a->crew, a->crew_len, BLACK_SPOT);
    int d_spot = has_kind(g, d->crew, d->crew_len, BLACK_SPOT);
    if (a_spot && d_spot) {
        *reason = R_BOTH_SPOTS;
        return SINK;
    }
    if (a_spot != d_spot) {
        *reason = R_BLACK_SPOT;
        return a_spot ? ATTACKER : DEFENDER;
    }
    if (g->prize_crew) {
        int a_prize = is_prize_crew(g, am, a->crew, a->crew_len);
        int d_prize = is_prize_crew(g, dm, d->crew, d->crew_len);
        if (a_prize != d_prize) {
            *reason = R_PRIZE;
            return a_prize ? ATTACKER : DEFENDER;
        }
        if (a_prize && d_prize) {
            duel_entry a4 = fourth_card(g, a->crew, a->crew_len, 1);
            duel_entry d4 = fourth_card(g, d->crew, d->crew_len, 0);
            int w = duel(g, &a4, &d4);
            *reason = R_PRIZE;
            return w == 0 ? SINK : (w > 0 ? ATTACKER : DEFENDER);
        }
    }
    duel_entry al[MAX_CREW], dl[MAX_CREW];
    long na = levels(g, a->crew, a->crew_len, 1, al);
    long nd = levels(g, d->crew, d->crew_len, 0, dl);
    long score = 0;
    for (long i = 0; i < (na > nd ? na : nd); i++) {
        if (i >= na || i >= nd)
            score += i < na ? 1 : -1;          /* an unopposed card wins its duel */
        else
            score += duel(g, &al[i], &dl[i]);
    }
    if (score) {
        *reason = R_DUELS;
        return score > 0 ? ATTACKER : DEFENDER;
    }
    long ra = g->sails[am], rd = g->sails[dm];
    if (ra != rd) {
        *reason = R_RANK;
        return ra > rd ? ATTACKER : DEFENDER;
    }
    *reason = R_TIE;
    return SINK;
}

/* -- rounds and recruiting (engine.py: AllHandsBattleState) ------------------------------- */

static int has_turn_left(const ab_state *s, long seat)
{
    if (s->phase != RECRUIT)
        return 0;
    return s->first_fleet < 0 || list_has(s->last_turns, s->lt_len, seat);
}

static void start_round(const rules *g, ab_state *s);
static void start_battles(const rules *g, ab_state *s);

/* _reshuffle: the draw pile is empty: shuffle the discard pile except its top card */
static void reshuffle(ab_state *s)
{
    if (s->discard_len < 2)
        return;
    long k = s->discard_len - 1;
    int64_t rest[MAX_CARDS];
    for (long i = 0; i < k; i++)
        rest[i] = s->discard[i];
    shuffle_i64(&s->rng, rest, k);           /* rng.permutation(rest) */
    for (long i = 0; i < k; i++)
        s->deck[i] = (uint8_t)rest[i];
    s->deck_len = (uint16_t)k;
    memcpy(s->reshuffled, s->discard, (size_t)k);
    sort_bytes(s->reshuffled, k);
    s->resh_len = (uint16_t)k;
    s->discard[0] = s->discard[k];
    s->discard_len = 1;
    new_event(s, EV_RESHUFFLE)->num = k;
}

static void start_turn(ab_state *s, long seat)
{
    s->turn_player = s->actor = (int8_t)seat;
    s->decision = D_TURN;
    s->launched = 0;
    long card = s->reserved[seat];
    if (card >= 0) {
        s->reserved[seat] = -1;
        insort(s->hands[seat], &s->hand_len[seat], card);
        s->known_with[seat][s->kw_len[seat]++] = (uint8_t)card;
        event *e = new_event(s, EV_PICK_UP);
        e->seat = (int8_t)seat;
        e->num = card;
        return;
    }
    if (!s->deck_len)
        reshuffle(s);
    if (s->deck_len)
        insort(s->hands[seat], &s->hand_len[seat], s->deck[--s->deck_len]);
}

static void start_round(const rules *g, ab_state *s)
{
    long n = g->n, C = g->C, hs = g->hand;
    int64_t perm[MAX_CARDS];
    for (long c = 0; c < C; c++)
        perm[c] = c;
    shuffle_i64(&s->rng, perm, C);           /* rng.permutation(num_cards) */
    for (long c = 0; c < C; c++)
        s->deck[c] = (uint8_t)perm[c];
    for (long p = 0; p < n; p++) {
        memcpy(s->hands[p], s->deck + C - hs * (p + 1), (size_t)hs);
        sort_bytes(s->hands[p], hs);
        s->hand_len[p] = (uint8_t)hs;
        s->reserved[p] = -1;
        s->kw_len[p] = 0;
        s->fleet_len[p] = 0;
        s->plunder_len[p] = 0;
        s->passed[p] = 0;
    }
    s->deck_len = (uint16_t)(C - hs * n);
    s->discard_len = 0;
    s->launch_master = -1;
    s->launch_len = 0;
    s->launched = 0;
    s->cq_len = 0;
    s->first_fleet = -1;
    s->lt_len = 0;
    s->resh_len = 0;
    s->forced = 0;
    s->selected = -1;
    s->spies_used = 0;
    s->spied_len = 0;
    s->phase = RECRUIT;
    event *e = new_event(s, EV_ROUND);
    e->num = s->round;
    e->seat = s->starter;
    start_turn(s, s->starter);
}

/* _end_recruit_turn: after ``seat``'s discard: first fleet, last turns, the Aargh! asks */
static void end_recruit_turn(const rules *g, ab_state *s, long seat)
{
    long n = g->n;
    s->turns++;
    if (s->first_fleet >= 0) {
        if (s->lt_len && s->last_turns[0] == seat)
            list_remove(s->last_turns, &s->lt_len, seat);
        if (!s->lt_len) {
            start_battles(g, s);
            return;
        }
    } else if (s->fleet_len[seat] == g->S && !s->hand_len[seat]) {
        s->first_fleet = (int8_t)seat;
        for (long i = 1; i < n; i++)
            s->last_turns[i - 1] = (uint8_t)((seat + i) % n);
        s->lt_len = (uint8_t)(n - 1);
        new_event(s, EV_FIRST_FLEET)->seat = (int8_t)seat;
    }
    uint8_t others[MAX_PLAYERS];
    for (long i = 1; i < n; i++)
        others[i - 1] = (uint8_t)((seat + i) % n);
    if (g->alternate_aargh) {
        int64_t order[MAX_PLAYERS];
        for (long i = 0; i < n - 1; i++)
            order[i] = i;
        shuffle_i64(&s->rng, order, n - 1);  /* rng.permutation(len(others)) */
        for (long i = 0; i < n - 1; i++)
            s->claim_queue[i] = others[order[i]];
    } else {
        memcpy(s->claim_queue, others, (size_t)(n - 1));
    }
    s->cq_len = (uint8_t)(n - 1);
    s->decision = D_CLAIM;
    s->actor = (int8_t)s->claim_queue[0];
}

static void next_recruit_turn(const rules *g, ab_state *s)
{
    s->cq_len = 0;
    if (s->first_fleet >= 0)
        start_turn(s, s->last_turns[0]);
    else
        start_turn(s, (s->turn_player + 1) % g->n);
}

/* -- battles (battles.py: Battles) -------------------------------------------------------- */

/* targets: (owner, slot) of every ship ``seat``'s ship ``slot`` may attack now */
static long targets(const rules *g, const ab_state *s, long seat, long slot, uint8_t *owners,
                    uint8_t *slots)
{
    const ship *sh = &s->ships[seat][slot];
    long k = 0;
    if (!sh->in_play)
        return 0;
    for (long q = 0; q < g->n; q++) {
        if (q == seat)
            continue;
        for (long j = 0; j < s->fleet_len[q]; j++) {
            const ship *o = &s->ships[q][j];
            if (o->in_play && may_attack(g, sh->master, o->master)) {
                if (owners) {
                    owners[k] = (uint8_t)q;
                    slots[k] = (uint8_t)j;
                }
                k++;
            }
        }
    }
    return k;
}

static int can_attack(const rules *g, const ab_state *s, long seat)
{
    for (long k = 0; k < s->fleet_len[seat]; k++)
        if (targets(g, s, seat, k, NULL, NULL))
            return 1;
    return 0;
}

static void reckon(const rules *g, ab_state *s);

static void next_battle_turn(const rules *g, ab_state *s, long after)
{
    s->selected = -1;
    s->spies_used = 0;
    if (s->forced) {
        if (can_attack(g, s, s->first_fleet)) {
            s->turn_player = s->actor = s->first_fleet;
            s->decision = D_SELECT;
            return;
        }
        s->forced = 0;
        after = s->first_fleet;
    }
    long n = g->n;
    for (long i = 1; i <= n; i++) {
        long q = (after + i) % n;
        if (!s->passed[q] && can_attack(g, s, q)) {
            s->turn_player = s->actor = (int8_t)q;
            s->decision = D_SELECT;
            return;
        }
    }
    reckon(g, s);
}

static void start_battles(const rules *g, ab_state *s)
{
    s->phase = BATTLE;
    s->cq_len = 0;
    memset(s->passed, 0, sizeof(s->passed));
    new_event(s, EV_BATTLES);
    s->forced = 1;
    next_battle_turn(g, s, s->first_fleet);
}

static void attack(const rules *g, ab_state *s, long seat, long slot, long owner, long tslot)
{
    ship *att = &s->ships[seat][slot], *dfn = &s->ships[owner][tslot];
    int reason;
    int outcome = resolve(g, att, dfn, &reason);
    att->in_play = dfn->in_play = 0;
    event *e = new_event(s, outcome == RAID ? EV_RAID : EV_ATTACK);
    e->seat = (int8_t)seat;
    e->slot = (int8_t)slot;
    e->owner = (int8_t)owner;
    e->tslot = (int8_t)tslot;
    e->master = att->master;
    e->tmaster = dfn->master;
    e->outcome = (int8_t)outcome;
    e->reason = (int8_t)reason;
    if (outcome == RAID) {
        uint8_t kept = 0;
        for (long i = 0; i < dfn->crew_len; i++) {
            long c = dfn->crew[i];
            if (g->is_treasure[c]) {
                e->cards[e->n1++] = (uint8_t)c;
                list_remove(s->known_with[owner], &s->kw_len[owner], c);
                s->plunder[seat][s->plunder_len[seat]++] = (uint8_t)c;
            } else {
                dfn->crew[kept++] = (uint8_t)c;
            }
        }
        dfn->crew_len = kept;
        return;
    }
    att->revealed = dfn->revealed = 1;
    for (long i = 0; i < att->crew_len; i++)
        list_remove(s->known_with[seat], &s->kw_len[seat], att->crew[i]);
    for (long i = 0; i < dfn->crew_len; i++)
        list_remove(s->known_with[owner], &s->kw_len[owner], dfn->crew[i]);
    int8_t keeper = outcome == ATTACKER ? (int8_t)seat : outcome == DEFENDER ? (int8_t)owner : -1;
    att->keeper = dfn->keeper = keeper;
    memcpy(e->cards, att->crew, att->crew_len);
    e->n1 = att->crew_len;
    memcpy(e->cards + e->n1, dfn->crew, dfn->crew_len);
    e->n2 = dfn->crew_len;
}

/* round_scores: the scores of the current round as the reckoning counts them now */
static void round_scores(const rules *g, const ab_state *s, int64_t *pts)
{
    long n = g->n;
    for (long p = 0; p < n; p++)
        pts[p] = 0;
    for (long q = 0; q < n; q++)
        for (long j = 0; j < s->fleet_len[q]; j++) {
            const ship *sh = &s->ships[q][j];
            if (sh->keeper >= 0) {
                int64_t v = g->ship_points;
                for (long i = 0; i < sh->crew_len; i++)
                    v += g->value[sh->crew[i]];
                pts[sh->keeper] += v;
            }
        }
    for (long p = 0; p < n; p++) {
        for (long i = 0; i < s->plunder_len[p]; i++)
            pts[p] += g->value[s->plunder[p][i]];
        if (s->first_fleet == p)
            pts[p] += g->ff_bonus;
        for (long i = 0; i < s->hand_len[p]; i++)
            pts[p] -= g->penalty[s->hands[p][i]];
        if (pts[p] < 0)
            pts[p] = 0;
    }
}

static void reckon(const rules *g, ab_state *s)
{
    long n = g->n;
    int64_t sc[MAX_PLAYERS], best = 0;
    round_scores(g, s, sc);
    event *e = new_event(s, EV_RECKONING);
    e->num = s->round;
    for (long p = 0; p < n; p++) {
        s->totals[p] += sc[p];
        s->last_round[p] = sc[p];
        e->vals[p] = sc[p];
        if (p == 0 || s->totals[p] > best)
            best = s->totals[p];
    }
    s->has_last_round = 1;
    if (best >= g->target || (g->max_rounds && s->round >= g->max_rounds)) {
        s->phase = OVER_PHASE;
        s->decision = D_OVER;
        s->actor = -1;
        s->turn_player = -1;
        e = new_event(s, EV_GAME_OVER);
        for (long p = 0; p < n; p++)
            e->vals[p] = s->totals[p];
        return;
    }
    s->round++;
    s->starter = (int8_t)((s->starter + 1) % n);
    start_round(g, s);
}

/* new_initial_state: draw the first player, shuffle and deal round 1 (the state's
 * generator already seeded) */
static void setup(const rules *g, ab_state *s)
{
    pcg64 rng = s->rng;
    memset(s, 0, sizeof(*s));
    s->rng = rng;
    s->starter = (int8_t)integers32(&s->rng, (uint32_t)g->n);
    s->round = 1;
    s->actor = s->turn_player = 0;
    start_round(g, s);
}

/* -- whose decision and the legal moves --------------------------------------------------- */

static inline int finished(const ab_state *s)
{
    return s->phase == OVER_PHASE;
}

static long spies_left(const rules *g, const ab_state *s, long seat, long slot)
{
    const ship *sh = &s->ships[seat][slot];
    long k = 0;
    for (long i = 0; i < sh->crew_len; i++)
        k += g->kind[sh->crew[i]] == SPY;
    return s->selected == slot ? k - s->spies_used : k;
}

/* legal_actions_mask of the acting player into ``mask`` (a_size bytes, zeroed) */
static void fill_mask(const rules *g, const ab_state *s, int8_t *mask)
{
    long p = s->actor;
    if (p < 0)
        return;
    const uint8_t *hand = s->hands[p];
    long nh = s->hand_len[p];
    switch (s->decision) {
    case D_TURN: case D_DISCARD:
        for (long i = 0; i < nh; i++)
            mask[g->a_discard + hand[i]] = 1;
        if (s->decision == D_TURN && s->fleet_len[p] < g->S)
            for (long i = 0; i < nh; i++)
                if (g->is_master[hand[i]] && can_launch(g, hand[i], hand, nh))
                    mask[g->a_master + hand[i]] = 1;
        break;
    case D_CREW: {
        uint8_t out[MAX_HAND];
        long k = crew_choices(g, s->launch_master, s->launch_crew, s->launch_len, hand, nh,
                              out);
        for (long i = 0; i < k; i++)
            mask[g->a_crew + out[i]] = 1;
        break;
    }
    case D_CLAIM:
        mask[g->a_no_claim] = 1;
        if (s->reserved[p] < 0 && has_turn_left(s, p))
            mask[g->a_claim] = 1;
        break;
    case D_SELECT:
        for (long k = 0; k < s->fleet_len[p]; k++)
            if (targets(g, s, p, k, NULL, NULL))
                mask[g->a_select + k] = 1;
        if (!s->forced)
            mask[g->a_pass] = 1;
        break;
    case D_AIM: {
        uint8_t owners[MAX_PLAYERS * MAX_SHIPS], slots[MAX_PLAYERS * MAX_SHIPS];
        long k = s->selected, spies = spies_left(g, s, p, k);
        long m = targets(g, s, p, k, owners, slots);
        for (long i = 0; i < m; i++) {
            long q = owners[i], j = slots[i];
            long idx = (rel_seat(q, p, g->n) - 1) * g->S + j;
            mask[g->a_attack + idx] = 1;
            if (spies > 0) {
                int seen = 0;
                for (long t = 0; t < s->spied_len && !seen; t++)
                    seen = s->spied[t][0] == p && s->spied[t][1] == q && s->spied[t][2] == j;
                if (!seen)
                    mask[g->a_spy + idx] = 1;
            }
        }
        if (s->spies_used > 0 && !s->forced)
            mask[g->a_pass] = 1;
        break;
    }
    }
}

/* -- moves (engine.py: _apply) ------------------------------------------------------------ */

static void pass_battle(const rules *g, ab_state *s, long p)
{
    s->passed[p] = 1;
    s->turns++;
    new_event(s, EV_PASS)->seat = (int8_t)p;
    next_battle_turn(g, s, p);
}

/* the acting player's action, already checked against the mask */
static void apply_action(const rules *g, ab_state *s, long a)
{
    long p = s->actor;
    switch (s->decision) {
    case D_TURN: case D_DISCARD:
        if (a < g->a_master) {
            list_remove(s->hands[p], &s->hand_len[p], a);
            s->discard[s->discard_len++] = (uint8_t)a;
            list_remove(s->known_with[p], &s->kw_len[p], a);
            event *e = new_event(s, EV_DISCARD);
            e->seat = (int8_t)p;
            e->num = a;
            end_recruit_turn(g, s, p);
        } else {
            long c = a - g->a_master;
            list_remove(s->hands[p], &s->hand_len[p], c);
            list_remove(s->known_with[p], &s->kw_len[p], c);
            s->launch_master = (int16_t)c;
            s->launch_len = 0;
            s->decision = D_CREW;
        }
        break;
    case D_CREW: {
        long c = a - g->a_crew;
        list_remove(s->hands[p], &s->hand_len[p], c);
        s->launch_crew[s->launch_len++] = (uint8_t)c;
        if (s->launch_len == g->crew) {
            ship *sh = &s->ships[p][s->fleet_len[p]++];
            sh->master = (uint8_t)s->launch_master;
            memcpy(sh->crew, s->launch_crew, (size_t)g->crew);
            sort_bytes(sh->crew, g->crew);
            sh->crew_len = (uint8_t)g->crew;
            sh->in_play = 1;
            sh->keeper = (int8_t)p;
            sh->revealed = 0;
            event *e = new_event(s, EV_LAUNCH);
            e->seat = (int8_t)p;
            e->num = s->fleet_len[p];
            e->master = sh->master;
            s->launch_master = -1;
            s->launch_len = 0;
            s->launched = 1;
            s->decision = D_DISCARD;
        }
        break;
    }
    case D_CLAIM:
        if (a == g->a_claim) {
            long card = s->discard[--s->discard_len];
            s->reserved[p] = (int16_t)card;
            event *e = new_event(s, EV_RESERVE);
            e->seat = (int8_t)p;
            e->num = card;
            next_recruit_turn(g, s);
        } else {
            memmove(s->claim_queue, s->claim_queue + 1, (size_t)(s->cq_len - 1));
            s->cq_len--;
            if (s->cq_len)
                s->actor = (int8_t)s->claim_queue[0];
            else
                next_recruit_turn(g, s);
        }
        break;
    case D_SELECT:
        if (a == g->a_pass) {
            pass_battle(g, s, p);
        } else {
            s->selected = (int8_t)(a - g->a_select);
            s->spies_used = 0;
            s->decision = D_AIM;
        }
        break;
    case D_AIM: {
        if (a == g->a_pass) {
            pass_battle(g, s, p);
            break;
        }
        int spy = a >= g->a_spy;
        long off = (a - (spy ? g->a_spy : g->a_attack)) / g->S;
        long j = (a - (spy ? g->a_spy : g->a_attack)) % g->S;
        long q = (p + off + 1) % g->n;
        if (spy) {
            s->spies_used++;
            uint8_t *look = s->spied[s->spied_len++];
            look[0] = (uint8_t)p;
            look[1] = (uint8_t)q;
            look[2] = (uint8_t)j;
            event *e = new_event(s, EV_SPY);
            e->seat = (int8_t)p;
            e->owner = (int8_t)q;
            e->tslot = (int8_t)j;
            e->tmaster = s->ships[q][j].master;
        } else {
            attack(g, s, p, s->selected, q, j);
            s->turns++;
            next_battle_turn(g, s, p);
        }
        break;
    }
    }
}

static void scores(const rules *g, const ab_state *s, double *out)
{
    for (long p = 0; p < g->n; p++)
        out[p] = (double)s->totals[p];
}

/* -- the view as plain numbers (python_view; the encoder reads nothing else) -------------- */

typedef struct {
    uint8_t master, in_play, crew_count, known, revealed, spied;
    int8_t keeper;
    uint8_t crew[MAX_CREW];              /* when known */
} ship_view;

typedef struct {
    long player;
    const ab_state *pub;                 /* the public fields are read from here */
    long hand_len;
    uint8_t hand[MAX_HAND];              /* the viewer's own hand */
    long hand_sizes[MAX_PLAYERS];
    long launch_len;                     /* the crew placed so far, if the viewer's */
    uint8_t launch_crew[MAX_CREW];
    ship_view ships[MAX_PLAYERS][MAX_SHIPS];
} ab_view;

/* python_view of ``player``: own hand and crews, what its Spy saw, the table */
static void plain_view(const rules *g, const ab_state *s, long player, ab_view *v)
{
    v->player = player;
    v->pub = s;
    v->hand_len = s->hand_len[player];
    memcpy(v->hand, s->hands[player], (size_t)v->hand_len);
    for (long q = 0; q < g->n; q++)
        v->hand_sizes[q] = s->hand_len[q];
    v->launch_len = player == s->turn_player ? s->launch_len : 0;
    memcpy(v->launch_crew, s->launch_crew, (size_t)v->launch_len);
    for (long q = 0; q < g->n; q++)
        for (long j = 0; j < s->fleet_len[q]; j++) {
            const ship *sh = &s->ships[q][j];
            ship_view *o = &v->ships[q][j];
            int spied = 0;
            for (long t = 0; t < s->spied_len && !spied; t++)
                spied = s->spied[t][0] == player && s->spied[t][1] == q && s->spied[t][2] == j;
            o->master = sh->master;
            o->in_play = sh->in_play;
            o->keeper = sh->keeper;
            o->crew_count = sh->crew_len;
            o->known = q == player || sh->revealed || spied;
            if (o->known)
                memcpy(o->crew, sh->crew, sh->crew_len);
            o->revealed = sh->revealed;
            o->spied = (uint8_t)spied;
        }
}

/* -- the encoder (observation.encode) ----------------------------------------------------- */

static inline void put(const rules *g, float *x, int block, long i, double v)
{
    x[g->start[block] + i] = (float)v;
}

static inline double min2(double a, double b)
{
    return b < a ? b : a;                /* Python's min keeps the first of equals */
}

/* ShipRules._crew_worth */
static double crew_worth(const rules *g, const uint8_t *crew, long k)
{
    long bonus = 0, total = 0, strongest = 0, ladies = 0, value = 0;
    int spot = 0, daughter = 0;
    for (long i = 0; i < k; i++)
        bonus += g->ruth_bonus[crew[i]];
    for (long i = 0; i < k; i++) {
        long c = crew[i];
        value += g->value[c];
        spot |= g->kind[c] == BLACK_SPOT;
        daughter |= g->kind[c] == DAUGHTER;
        if (g->kind[c] == LADY) {
            ladies++;
            continue;
        }
        long lv = g->defend_level[c];
        if (g->duelling[c])
            lv += bonus - g->ruth_bonus[c];
        total += lv;
        if (lv > strongest)
            strongest = lv;
    }
    long lv = total + ladies * strongest + 25 * spot + 6 * daughter;
    return (double)lv + (double)value / 4.0;
}

/* ShipRules.best_ship: the launch value of ``m``'s first best crew (in combinations order)
 * from the cards of ``cards``, with *holds set if that crew holds ``card``; 0 if none.
 * As ShipRules._best_crew, a master without Prize Crew parts leaves out the cards that a
 * crew's worth of others dominate (no first best crew holds one). */
static int best_ship(const rules *g, long m, const cset *cards, long card, double *value,
                     int *holds)
{
    long k = g->crew, np = 0, idx[MAX_CREW];
    uint8_t pool[MAX_CARDS], crew[MAX_CREW] = {0};
    cset usable;
    for (int i = 0; i < CSET_WORDS; i++)
        usable.w[i] = cards->w[i] & g->pool[m].w[i];
    if (cs_common(&usable, &usable) < k)
        return 0;
    for (long c = 0; c < g->C; c++)
        if (cs_has(&usable, c)
                && (g->has_prize[m] || cs_common(&g->dominators[c], &usable) < k))
            pool[np++] = (uint8_t)c;
    if (np < k)
        return 0;
    int found = 0;
    for (long i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        for (long i = 0; i < k; i++)
            crew[i] = pool[idx[i]];
        int prize = g->has_prize[m] && is_prize_crew(g, m, crew, k);
        if (prize || all_elig(g, m, crew, k)) {
            double v = crew_worth(g, crew, k) + (prize ? 25.0 : 0.0);
            if (!found || v > *value) {
                found = 1;
                *value = v;
                *holds = list_has(crew, k, card);
            }
        }
        long i = k - 1;                        /* the next combination */
        while (i >= 0 && idx[i] == np - k + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (long j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
    if (!found)
        return 0;
    *value = *value + 2.0 * (double)g->sails[m];     /* = launch_value */
    return 1;
}

/* claim_outlook of the hand offered ``card`` (the top discard) */
static void put_claim_outlook(const rules *g, float *x, const uint8_t *hand, long nh, long card)
{
    cset held = cs_of(hand, nh), full = held;
    cs_add(&full, card);
    int before = 0, after = 0, after_holds = 0, holds;
    double before_v = 0.0, after_v = 0.0, v;
    long after_m = -1;
    for (long i = 0; i <= nh; i++) {           /* the hand's cards, then the card */
        long m = i < nh ? hand[i] : card;
        if (!g->is_master[m] || !best_ship(g, m, &full, card, &v, &holds))
            continue;
        if (!after || v > after_v) {
            after = 1;
            after_v = v;
            after_m = m;
            after_holds = holds;
        }
        if (m != card) {
            int ok = !holds || best_ship(g, m, &held, card, &v, &holds);
            if (ok && (!before || v > before_v)) {
                before = 1;
                before_v = v;
            }
        }
    }
    put(g, x, B_CLAIM_OUTLOOK, 0, before ? 1.0 : 0.0);
    put(g, x, B_CLAIM_OUTLOOK, 1, after ? 1.0 : 0.0);
    put(g, x, B_CLAIM_OUTLOOK, 2, before ? min2(before_v / 50.0, 2.0) : 0.0);
    put(g, x, B_CLAIM_OUTLOOK, 3, after ? min2(after_v / 50.0, 2.0) : 0.0);
    put(g, x, B_CLAIM_OUTLOOK, 4, after && (card == after_m || after_holds) ? 1.0 : 0.0);
}

/* observation.encode of the view ``v`` into ``x`` (layout size floats) */
static void encode(const rules *g, const ab_view *v, float *x)
{
    const ab_state *s = v->pub;
    long n = g->n, C = g->C, S = g->S, p = v->player;
    /* (ints, not bytes: a byte store may alias g's tables, which then reload) */
    int located[MAX_CARDS], tied[MAX_CARDS], resh[MAX_CARDS];
    memset(x, 0, sizeof(float) * (size_t)g->size);
    memset(located, 0, sizeof(int) * (size_t)C);
    memset(tied, 0, sizeof(int) * (size_t)C);
    /* the table: starter, first fleet, round, scores, plunder, ships, passes, Spy looks */
    put(g, x, B_STARTER, rel_seat(s->starter, p, n), 1.0);
    put(g, x, B_FIRST_FLEET, s->first_fleet < 0 ? n : rel_seat(s->first_fleet, p, n), 1.0);
    put(g, x, B_ROUND, 0, min2((double)s->round / (double)g->round_scale, 1.0));
    for (long q = 0; q < n; q++) {
        long r = rel_seat(q, p, n);
        put(g, x, B_TOTALS, r, min2((double)s->totals[q] / (double)g->target, g->top));
        if (s->has_last_round)
            put(g, x, B_LAST_ROUND, r, min2((double)s->last_round[q] / 100.0, 6.0));
        if (s->plunder_len[q]) {
            long pv = 0;
            for (long i = 0; i < s->plunder_len[q]; i++) {
                long c = s->plunder[q][i];
                located[c] = 1;
                put(g, x, B_PLUNDER_CARDS, c, 1.0);
                pv += g->value[c];
            }
            put(g, x, B_PLUNDER_VALUE, r, min2((double)pv / 100.0, 2.0));
        }
        for (long j = 0; j < s->fleet_len[q]; j++) {
            const ship_view *sh = &v->ships[q][j];
            long k = r * S + j, m = sh->master;
            located[m] = 1;
            put(g, x, B_SHIP_LAUNCHED, k, 1.0);
            put(g, x, B_SHIP_SUIT, k * 5 + g->obs_suit[m], 1.0);
            put(g, x, B_SHIP_RANK, k * 3 + g->obs_rank[m], 1.0);
            if (sh->in_play)
                put(g, x, B_SHIP_IN_PLAY, k, 1.0);
            long keeper = sh->keeper < 0 ? n : rel_seat(sh->keeper, p, n);
            put(g, x, B_SHIP_KEEPER, k * (n + 1) + keeper, 1.0);
            put(g, x, B_SHIP_CREW_COUNT, k, (double)sh->crew_count / 3.0);
            if (sh->known) {
                put(g, x, B_SHIP_CREW_KNOWN, k, 1.0);
                for (long i = 0; i < sh->crew_count; i++) {
                    located[sh->crew[i]] = 1;
                    put(g, x, B_SHIP_CREW, k * C + sh->crew[i], 1.0);
                }
            }
            if (sh->revealed)
                put(g, x, B_SHIP_REVEALED, k, 1.0);
            if (sh->spied)
                put(g, x, B_SHIP_SPIED, k, 1.0);
        }
        if (s->passed[q])
            put(g, x, B_PASSED, r, 1.0);
    }
    for (long t = 0; t < s->spied_len; t++)
        if (s->spied[t][0] != p)
            put(g, x, B_SHIP_SPIED_BY_OTHER, rel_seat(s->spied[t][1], p, n) * S + s->spied[t][2],
                1.0);
    /* the turn */
    put(g, x, B_DECISION, s->decision, 1.0);
    put(g, x, B_PHASE, s->phase, 1.0);
    if (s->actor >= 0) {
        put(g, x, B_ACTING_SEAT, rel_seat(s->actor, p, n), 1.0);
        if (s->actor == p)
            put(g, x, B_MY_DECISION, 0, 1.0);
    }
    if (s->turn_player >= 0)
        put(g, x, B_TURN_SEAT, rel_seat(s->turn_player, p, n), 1.0);
    /* hands */
    for (long i = 0; i < v->hand_len; i++) {
        put(g, x, B_HAND, v->hand[i], 1.0);
        located[v->hand[i]] = 1;
    }
    for (long r = 0; r < n; r++) {
        long q = p + r < n ? p + r : p + r - n;
        long card = s->reserved[q];
        if (card >= 0) {
            put(g, x, B_RESERVED, r * C + card, 1.0);
            located[card] = 1;
        }
        for (long i = 0; i < s->kw_len[q]; i++) {
            put(g, x, B_KNOWN_WITH, r * C + s->known_with[q][i], 1.0);
            tied[s->known_with[q][i]] = 1;
        }
        put(g, x, B_HAND_SIZES, r, (double)v->hand_sizes[q] / 13.0);
    }
    for (long i = 0; i < s->cq_len; i++)
        put(g, x, B_CLAIM_QUEUE, rel_seat(s->claim_queue[i], p, n), 1.0);
    for (long i = 0; i < s->lt_len; i++)
        put(g, x, B_LAST_TURNS, rel_seat(s->last_turns[i], p, n), 1.0);
    /* the discard pile, the launch, the battle turn */
    for (long i = 0; i < s->discard_len; i++) {
        put(g, x, B_DISCARD_PILE, s->discard[i], 1.0);
        located[s->discard[i]] = 1;
    }
    if (s->discard_len)
        put(g, x, B_DISCARD_TOP, s->discard[s->discard_len - 1], 1.0);
    if (s->launch_master >= 0) {
        put(g, x, B_LAUNCH_MASTER, s->launch_master, 1.0);
        located[s->launch_master] = 1;
    }
    for (long i = 0; i < v->launch_len; i++) {
        put(g, x, B_LAUNCH_CREW, v->launch_crew[i], 1.0);
        located[v->launch_crew[i]] = 1;
    }
    if (s->launched)
        put(g, x, B_LAUNCHED, 0, 1.0);
    if (s->forced)
        put(g, x, B_FORCED, 0, 1.0);
    if (s->selected >= 0)
        put(g, x, B_SELECTED, s->selected, 1.0);
    put(g, x, B_DRAW_PILE_SIZE, 0, (double)s->deck_len / (double)C);
    put(g, x, B_LAUNCH_COUNT, 0, (double)s->launch_len / 3.0);
    put(g, x, B_SPIES_USED, 0, (double)s->spies_used / 2.0);
    if (s->decision == D_CLAIM && s->actor == p && s->discard_len)
        put_claim_outlook(g, x, v->hand, v->hand_len, s->discard[s->discard_len - 1]);
    /* unseen, and the draw pile's candidates (unseen, not claimed, and reshuffled if
     * the pile was) */
    int pile = s->deck_len > 0, all = s->resh_len == 0;
    for (long c = 0; c < C; c++)
        resh[c] = all;
    for (long i = 0; i < s->resh_len; i++)
        resh[s->reshuffled[i]] = 1;
    float *unseen = x + g->start[B_UNSEEN], *candidates = x + g->start[B_PILE_CANDIDATES];
    for (long c = 0; c < C; c++) {
        int u = !located[c];
        unseen[c] = (float)u;
        candidates[c] = (float)(u & pile & !tied[c] & resh[c]);
    }
}

/* -- the event texts (the Python engine's _event calls) ----------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
} text;

static void tx_add(text *t, const char *s, size_t k)
{
    if (t->failed)
        return;
    if (t->len + k + 1 > t->cap) {
        size_t cap = (t->len + k + 1) * 2;
        char *b = PyMem_Realloc(t->buf, cap);
        if (b == NULL) {
            t->failed = 1;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, k);
    t->len += k;
}

static void tx_str(text *t, const char *s)
{
    tx_add(t, s, strlen(s));
}

static void tx_int(text *t, long long v)
{
    char b[32];
    int k = snprintf(b, sizeof(b), "%lld", v);
    tx_add(t, b, (size_t)k);
}

static void tx_card(text *t, const rules *g, long c)
{
    tx_add(t, g->name[c], (size_t)g->name_len[c]);
}

/* _ship_name: f"P{seat}'s ship {slot + 1} ({name of its shipmaster})" */
static void tx_ship(text *t, const rules *g, long seat, long slot, long master)
{
    tx_str(t, "P");
    tx_int(t, seat);
    tx_str(t, "'s ship ");
    tx_int(t, slot + 1);
    tx_str(t, " (");
    tx_card(t, g, master);
    tx_str(t, ")");
}

static void tx_cards(text *t, const rules *g, const uint8_t *cards, long k)
{
    for (long i = 0; i < k; i++) {
        if (i)
            tx_str(t, ", ");
        tx_card(t, g, cards[i]);
    }
}

/* The Python engine's texts, one per event type; in braces what event_text writes there:
 * {n} the number, {s} the seat, {c} the card's name, {m} the shipmaster's, {B} the first
 * fleet bonus, {A} the attacking ship, {T} the ship attacked or looked at, {1} and {2}
 * the two card lists, {R} the battle's result, {+} and {=} the per-seat numbers (with and
 * without a plus sign) */
static const char *const EVENT_FORMATS[] = {
    [EV_ROUND] = "round {n}: cards dealt; P{s} begins",
    [EV_RESHUFFLE] = "the discard pile ({n} cards) is shuffled into a new draw pile",
    [EV_PICK_UP] = "P{s} picks up the reserved {c}",
    [EV_FIRST_FLEET] = "P{s} has launched the fleet first (+{B}); everyone else has one last turn",
    [EV_DISCARD] = "P{s} discards {c}",
    [EV_LAUNCH] = "P{s} launches ship {n}: {m} and 3 crew face down",
    [EV_RESERVE] = "P{s}: Aargh! reserves {c}",
    [EV_SPY] = "P{s}'s Spy looks at {T}",
    [EV_PASS] = "P{s} passes (no more attacks this round)",
    [EV_BATTLES] = "recruiting is over; naval battles begin",
    [EV_RAID] = "{A} attacks {T}: raid! P{s} plunders {1}; both ships leave play",
    [EV_ATTACK] = "{A} attacks {T}: [{1} vs {2}] {R}",
    [EV_RECKONING] = "reckoning of round {n}: {+}",
    [EV_GAME_OVER] = "game over: {=}",
};

/* the text of event ``e`` of state ``s`` as a str */
static PyObject *event_text(const rules *g, const ab_state *s, const event *e)
{
    if (e->type == EV_TEXT)
        return PyUnicode_DecodeUTF8(s->texts[e->num], s->text_len[e->num], "strict");
    text t = {NULL, 0, 0, 0};
    tx_add(&t, "", 0);
    for (const char *f = EVENT_FORMATS[e->type]; *f; f++) {
        if (f[0] != '{' || f[1] == 0 || f[2] != '}') {
            tx_add(&t, f, 1);
            continue;
        }
        switch (f[1]) {
        case 'n': tx_int(&t, e->num); break;
        case 's': tx_int(&t, e->seat); break;
        case 'c': tx_card(&t, g, e->num); break;
        case 'm': tx_card(&t, g, e->master); break;
        case 'B': tx_int(&t, g->ff_bonus); break;
        case 'A': tx_ship(&t, g, e->seat, e->slot, e->master); break;
        case 'T': tx_ship(&t, g, e->owner, e->tslot, e->tmaster); break;
        case '1': tx_cards(&t, g, e->cards, e->n1); break;
        case '2': tx_cards(&t, g, e->cards + e->n1, e->n2); break;
        case 'R':
            if (e->outcome == SINK) {
                tx_str(&t, "both ships sink");
            } else {
                tx_str(&t, "P");
                tx_int(&t, e->outcome == ATTACKER ? e->seat : e->owner);
                tx_str(&t, " wins");
            }
            tx_str(&t, " (");
            tx_str(&t, REASONS[e->reason]);
            tx_str(&t, ")");
            break;
        case '+': case '=':
            for (long p = 0; p < g->n; p++) {
                tx_str(&t, p ? ", P" : "P");
                tx_int(&t, p);
                tx_str(&t, f[1] == '+' ? " +" : " ");
                tx_int(&t, e->vals[p]);
            }
            break;
        }
        f += 2;
    }
    PyObject *out = t.failed ? PyErr_NoMemory()
        : PyUnicode_DecodeUTF8(t.buf, (Py_ssize_t)t.len, "strict");
    PyMem_Free(t.buf);
    return out;
}

static PyObject *events_list(const rules *g, const ab_state *s, int as_tuple)
{
    PyObject *out = as_tuple ? PyTuple_New(s->ev_len) : PyList_New(s->ev_len);
    for (long i = 0; out && i < s->ev_len; i++) {
        PyObject *x = event_text(g, s, &s->events[(s->ev_head + i) % MAX_EVENTS]);
        if (x == NULL) {
            Py_CLEAR(out);
            break;
        }
        if (as_tuple)
            PyTuple_SET_ITEM(out, i, x);
        else
            PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* -- writing Python values ---------------------------------------------------------------- */

static PyObject *py_bool(int v)
{
    PyObject *b = v ? Py_True : Py_False;
    Py_INCREF(b);
    return b;
}

static PyObject *bytes_list(const uint8_t *a, long k)
{
    PyObject *out;
    INT_LIST(out, k, a[i]);
    return out;
}

/* a list (or tuple) of n rows of bytes */
static PyObject *rows(const uint8_t *base, size_t stride, const uint8_t *lens, long n, int tuple)
{
    PyObject *out = tuple ? PyTuple_New(n) : PyList_New(n);
    for (long q = 0; out && q < n; q++) {
        const uint8_t *row = base + stride * (size_t)q;
        PyObject *r;
        if (tuple) {
            r = PyTuple_New(lens[q]);
            for (long i = 0; r && i < lens[q]; i++) {
                PyObject *x = PyLong_FromLong(row[i]);
                if (x == NULL) {
                    Py_CLEAR(r);
                    break;
                }
                PyTuple_SET_ITEM(r, i, x);
            }
        } else {
            r = bytes_list(row, lens[q]);
        }
        if (r == NULL) {
            Py_CLEAR(out);
            break;
        }
        if (tuple)
            PyTuple_SET_ITEM(out, q, r);
        else
            PyList_SET_ITEM(out, q, r);
    }
    return out;
}

static PyObject *int64_list(const int64_t *a, long k)
{
    PyObject *out = PyList_New(k);
    for (long i = 0; out && i < k; i++) {
        PyObject *x = PyLong_FromLongLong(a[i]);
        if (x == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *ships_to_py(const rules *g, const ab_state *s)
{
    PyObject *out = PyList_New(g->n);
    for (long q = 0; out && q < g->n; q++) {
        PyObject *fleet = PyList_New(s->fleet_len[q]);
        for (long j = 0; fleet && j < s->fleet_len[q]; j++) {
            const ship *sh = &s->ships[q][j];
            PyObject *x = Py_BuildValue("[lNNlN]", (long)sh->master,
                                        bytes_list(sh->crew, sh->crew_len), py_bool(sh->in_play),
                                        (long)sh->keeper, py_bool(sh->revealed));
            if (x == NULL) {
                Py_CLEAR(fleet);
                break;
            }
            PyList_SET_ITEM(fleet, j, x);
        }
        if (fleet == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, q, fleet);
    }
    return out;
}

static PyObject *plunder_to_py(const rules *g, const ab_state *s, int tuple)
{
    PyObject *out = tuple ? PyTuple_New(g->n) : PyList_New(g->n);
    for (long q = 0; out && q < g->n; q++) {
        PyObject *r = bytes_list(s->plunder[q], s->plunder_len[q]);
        if (r != NULL && tuple)
            Py_SETREF(r, PyList_AsTuple(r));
        if (r == NULL) {
            Py_CLEAR(out);
            break;
        }
        if (tuple)
            PyTuple_SET_ITEM(out, q, r);
        else
            PyList_SET_ITEM(out, q, r);
    }
    return out;
}

static PyObject *spied_to_py(const ab_state *s, int tuple)
{
    PyObject *out = tuple ? PyTuple_New(s->spied_len) : PyList_New(s->spied_len);
    for (long i = 0; out && i < s->spied_len; i++) {
        const uint8_t *l = s->spied[i];
        PyObject *x = tuple ? Py_BuildValue("(iii)", l[0], l[1], l[2])
                            : Py_BuildValue("[iii]", l[0], l[1], l[2]);
        if (x == NULL) {
            Py_CLEAR(out);
            break;
        }
        if (tuple)
            PyTuple_SET_ITEM(out, i, x);
        else
            PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *passed_to_py(const rules *g, const ab_state *s, int tuple)
{
    PyObject *out = tuple ? PyTuple_New(g->n) : PyList_New(g->n);
    for (long q = 0; out && q < g->n; q++) {
        if (tuple)
            PyTuple_SET_ITEM(out, q, py_bool(s->passed[q]));
        else
            PyList_SET_ITEM(out, q, py_bool(s->passed[q]));
    }
    return out;
}

static PyObject *state_to_dict(const rules *g, const ab_state *s)
{
    long n = g->n;
    PyObject *d = PyDict_New(), *v;
    if (d == NULL)
        return NULL;
    if (set_item(d, "round", PyLong_FromLongLong(s->round)) < 0
            || set_item(d, "starter", PyLong_FromLong(s->starter)) < 0
            || set_item(d, "totals", int64_list(s->totals, n)) < 0
            || set_item(d, "last_round", int64_list(s->last_round, s->has_last_round ? n : 0)) < 0
            || set_item(d, "phase", PyUnicode_FromString(PHASE_NAMES[s->phase])) < 0
            || set_item(d, "decision", PyUnicode_FromString(DECISION_NAMES[s->decision])) < 0
            || set_item(d, "actor", PyLong_FromLong(s->actor)) < 0
            || set_item(d, "turn_player", PyLong_FromLong(s->turn_player)) < 0
            || set_item(d, "deck", bytes_list(s->deck, s->deck_len)) < 0
            || set_item(d, "discard", bytes_list(s->discard, s->discard_len)) < 0
            || set_item(d, "hands", rows(s->hands[0], MAX_HAND, s->hand_len, n, 0)) < 0)
        goto fail;
    INT_LIST(v, n, s->reserved[i]);
    if (set_item(d, "reserved", v) < 0
            || set_item(d, "known_with", rows(s->known_with[0], MAX_HAND, s->kw_len, n, 0)) < 0
            || set_item(d, "ships", ships_to_py(g, s)) < 0
            || set_item(d, "plunder", plunder_to_py(g, s, 0)) < 0
            || set_item(d, "launch_master", PyLong_FromLong(s->launch_master)) < 0
            || set_item(d, "launch_crew", bytes_list(s->launch_crew, s->launch_len)) < 0
            || set_item(d, "launched", py_bool(s->launched)) < 0
            || set_item(d, "claim_queue", bytes_list(s->claim_queue, s->cq_len)) < 0
            || set_item(d, "first_fleet", PyLong_FromLong(s->first_fleet)) < 0
            || set_item(d, "last_turns", bytes_list(s->last_turns, s->lt_len)) < 0
            || set_item(d, "reshuffled", bytes_list(s->reshuffled, s->resh_len)) < 0
            || set_item(d, "passed", passed_to_py(g, s, 0)) < 0
            || set_item(d, "forced", py_bool(s->forced)) < 0
            || set_item(d, "selected", PyLong_FromLong(s->selected)) < 0
            || set_item(d, "spies_used", PyLong_FromLong(s->spies_used)) < 0
            || set_item(d, "spied", spied_to_py(s, 0)) < 0
            || set_item(d, "events", events_list(g, s, 0)) < 0
            || set_item(d, "turns", PyLong_FromLongLong(s->turns)) < 0
            || set_item(d, "rng", rng_to_py(&s->rng)) < 0)
        goto fail;
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

/* -- reading a saved state (Game.state_from_dict: the field readers, then validate) ------- */

static const char *const FIELDS[] = {
    "round", "starter", "totals", "last_round", "phase", "decision", "actor", "turn_player",
    "deck", "discard", "hands", "reserved", "known_with", "ships", "plunder", "launch_master",
    "launch_crew", "launched", "claim_queue", "first_fleet", "last_turns", "reshuffled",
    "passed", "forced", "selected", "spies_used", "spied", "events", "turns", "rng",
};
#define NUM_FIELDS 30

static int read_bool(PyObject *obj, const char *name, int8_t *v)
{
    if (!PyBool_Check(obj))
        return bad_state("expected true or false", name);
    *v = obj == Py_True;
    return 0;
}

static int read_name(PyObject *obj, const char *name, const char *const *names, int k,
                     int8_t *v)
{
    if (PyUnicode_Check(obj))
        for (int i = 0; i < k; i++)
            if (PyUnicode_CompareWithASCIIString(obj, names[i]) == 0) {
                *v = (int8_t)i;
                return 0;
            }
    PyErr_Clear();
    return bad_state("not one of the known names", name);
}

/* a list of exactly ``len`` lists (len >= 0) */
static int read_rows(PyObject *obj, const char *name, long len)
{
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) != len) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: expected a list of %ld "
                     "entries", name, len);
        return -1;
    }
    return 0;
}

/* a list of at most ``max_len`` ints into bytes (``out`` holds ``room``) */
static long read_bytes(PyObject *obj, const char *name, long max_len, long lo, long hi,
                       uint8_t *out, size_t room)
{
    long buf[MAX_CARDS];
    long k = read_list(obj, name, -1, max_len < (long)room ? max_len : (long)room, lo, hi,
                       buf);
    for (long i = 0; i < k && i < (long)room; i++)
        out[i] = (uint8_t)buf[i];
    return k;
}

static int read_ship(const rules *g, PyObject *obj, ship *sh)
{
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) != 5)
        return bad_state("expected [shipmaster, crew, in play, keeper, revealed]", "ships");
    long long v;
    int8_t b;
    if (read_int(PyList_GET_ITEM(obj, 0), "ships (shipmaster)", 0, g->C - 1, &v) < 0)
        return -1;
    sh->master = (uint8_t)v;
    long k = read_bytes(PyList_GET_ITEM(obj, 1), "ships (crew)", g->crew, 0, g->C - 1,
                       sh->crew, sizeof(sh->crew));
    if (k < 0)
        return -1;
    sh->crew_len = (uint8_t)k;
    if (read_bool(PyList_GET_ITEM(obj, 2), "ships (in play)", &b) < 0)
        return -1;
    sh->in_play = (uint8_t)b;
    if (read_int(PyList_GET_ITEM(obj, 3), "ships (keeper)", -1, g->n - 1, &v) < 0)
        return -1;
    sh->keeper = (int8_t)v;
    if (read_bool(PyList_GET_ITEM(obj, 4), "ships (revealed)", &b) < 0)
        return -1;
    sh->revealed = (uint8_t)b;
    return 0;
}

static int read_events(PyObject *obj, ab_state *s)
{
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) > MAX_EVENTS)
        return bad_state("expected a list of at most 12 texts", "events");
    long k = (long)PyList_GET_SIZE(obj);
    for (long i = 0; i < k; i++) {
        PyObject *t = PyList_GET_ITEM(obj, i);
        Py_ssize_t len;
        const char *utf8 = PyUnicode_Check(t) ? PyUnicode_AsUTF8AndSize(t, &len) : NULL;
        if (utf8 == NULL) {
            PyErr_Clear();
            return bad_state("expected a text", "events");
        }
        if (len > EVENT_TEXT)
            return bad_state("a text longer than the compiled engine holds (512 bytes)",
                             "events");
        memcpy(s->texts[i], utf8, (size_t)len);
        s->text_len[i] = (uint16_t)len;
        event *e = new_event(s, EV_TEXT);
        e->num = i;
    }
    return 0;
}

/* the field readers of STATE_FIELDS */
static int read_fields(const rules *g, PyObject *const *f, ab_state *s)
{
    long n = g->n, C = g->C, buf[MAX_CARDS];
    long long v;
    int8_t b;
    if (read_int(f[0], "round", 1, g->max_rounds ? g->max_rounds : MAX_SAVED, &v) < 0)
        return -1;
    s->round = v;
    if (read_int(f[1], "starter", 0, n - 1, &v) < 0)
        return -1;
    s->starter = (int8_t)v;
    if (read_list(f[2], "totals", n, 0, 0, MAX_SAVED, buf) < 0)
        return -1;
    for (long q = 0; q < n; q++)
        s->totals[q] = buf[q];
    long k = read_list(f[3], "last_round", -1, n, 0, MAX_SAVED, buf);
    if (k < 0)
        return -1;
    if (k != 0 && k != n)
        return bad_state("expected 0 or one entry per seat", "last_round");
    for (long q = 0; q < k; q++)
        s->last_round[q] = buf[q];
    s->has_last_round = k > 0;
    if (read_name(f[4], "phase", PHASE_NAMES, NUM_PHASES, &s->phase) < 0
            || read_name(f[5], "decision", DECISION_NAMES, NUM_DECISIONS, &s->decision) < 0)
        return -1;
    if (read_int(f[6], "actor", -1, n - 1, &v) < 0)
        return -1;
    s->actor = (int8_t)v;
    if (read_int(f[7], "turn_player", -1, n - 1, &v) < 0)
        return -1;
    s->turn_player = (int8_t)v;
    if ((k = read_bytes(f[8], "deck", C, 0, C - 1,
                       s->deck, sizeof(s->deck))) < 0)
        return -1;
    s->deck_len = (uint16_t)k;
    if ((k = read_bytes(f[9], "discard", C, 0, C - 1,
                       s->discard, sizeof(s->discard))) < 0)
        return -1;
    s->discard_len = (uint16_t)k;
    if (read_rows(f[10], "hands", n) < 0)
        return -1;
    for (long q = 0; q < n; q++) {
        if ((k = read_bytes(PyList_GET_ITEM(f[10], q), "hands", g->hand + 1, 0, C - 1,
                       s->hands[q], sizeof(s->hands[q]))) < 0)
            return -1;
        s->hand_len[q] = (uint8_t)k;
    }
    if (read_list(f[11], "reserved", n, 0, -1, C - 1, buf) < 0)
        return -1;
    for (long q = 0; q < n; q++)
        s->reserved[q] = (int16_t)buf[q];
    if (read_rows(f[12], "known_with", n) < 0)
        return -1;
    for (long q = 0; q < n; q++) {
        if ((k = read_bytes(PyList_GET_ITEM(f[12], q), "known_with", g->hand + 1, 0, C - 1,
                       s->known_with[q], sizeof(s->known_with[q]))) < 0)
            return -1;
        s->kw_len[q] = (uint8_t)k;
    }
    if (read_rows(f[13], "ships", n) < 0)
        return -1;
    for (long q = 0; q < n; q++) {
        PyObject *fleet = PyList_GET_ITEM(f[13], q);
        if (!PyList_Check(fleet) || PyList_GET_SIZE(fleet) > g->S)
            return bad_state("expected a list of at most ships_per_fleet ships", "ships");
        for (long j = 0; j < PyList_GET_SIZE(fleet); j++)
            if (read_ship(g, PyList_GET_ITEM(fleet, j), &s->ships[q][j]) < 0)
                return -1;
        s->fleet_len[q] = (uint8_t)PyList_GET_SIZE(fleet);
    }
    if (read_rows(f[14], "plunder", n) < 0)
        return -1;
    for (long q = 0; q < n; q++) {
        if ((k = read_bytes(PyList_GET_ITEM(f[14], q), "plunder", C, 0, C - 1,
                       s->plunder[q], sizeof(s->plunder[q]))) < 0)
            return -1;
        s->plunder_len[q] = (uint16_t)k;
    }
    if (read_int(f[15], "launch_master", -1, C - 1, &v) < 0)
        return -1;
    s->launch_master = (int16_t)v;
    if ((k = read_bytes(f[16], "launch_crew", g->crew, 0, C - 1,
                       s->launch_crew, sizeof(s->launch_crew))) < 0)
        return -1;
    s->launch_len = (uint8_t)k;
    if (read_bool(f[17], "launched", &s->launched) < 0)
        return -1;
    if ((k = read_bytes(f[18], "claim_queue", n - 1, 0, n - 1,
                       s->claim_queue, sizeof(s->claim_queue))) < 0)
        return -1;
    s->cq_len = (uint8_t)k;
    if (read_int(f[19], "first_fleet", -1, n - 1, &v) < 0)
        return -1;
    s->first_fleet = (int8_t)v;
    if ((k = read_bytes(f[20], "last_turns", n - 1, 0, n - 1,
                       s->last_turns, sizeof(s->last_turns))) < 0)
        return -1;
    s->lt_len = (uint8_t)k;
    if ((k = read_bytes(f[21], "reshuffled", C, 0, C - 1,
                       s->reshuffled, sizeof(s->reshuffled))) < 0)
        return -1;
    s->resh_len = (uint16_t)k;
    if (read_rows(f[22], "passed", n) < 0)
        return -1;
    for (long q = 0; q < n; q++) {
        if (read_bool(PyList_GET_ITEM(f[22], q), "passed", &b) < 0)
            return -1;
        s->passed[q] = (uint8_t)b;
    }
    if (read_bool(f[23], "forced", &s->forced) < 0)
        return -1;
    if (read_int(f[24], "selected", -1, g->S - 1, &v) < 0)
        return -1;
    s->selected = (int8_t)v;
    if (read_int(f[25], "spies_used", 0, g->crew, &v) < 0)
        return -1;
    s->spies_used = (int8_t)v;
    if (!PyList_Check(f[26]) || PyList_GET_SIZE(f[26]) > n * n * g->S)
        return bad_state("expected a list of at most n * n * ships_per_fleet looks", "spied");
    for (long i = 0; i < PyList_GET_SIZE(f[26]); i++) {
        long look[3];
        PyObject *x = PyList_GET_ITEM(f[26], i);
        if (read_list(x, "spied", 3, 0, 0, (n > g->S ? n : g->S) - 1, look) < 0)
            return -1;
        if (look[0] >= n || look[1] >= n || look[2] >= g->S)
            return bad_state("a seat or ship slot outside the game", "spied");
        for (int j = 0; j < 3; j++)
            s->spied[i][j] = (uint8_t)look[j];
    }
    s->spied_len = (uint16_t)PyList_GET_SIZE(f[26]);
    if (read_events(f[27], s) < 0)
        return -1;
    if (read_int(f[28], "turns", 0, MAX_SAVED, &v) < 0)
        return -1;
    s->turns = v;
    return read_rng(f[29], &s->rng);
}

/* validate: NULL when ``s`` is a legal position, else the broken rule (the checks of
 * AllHandsBattleState.validate and _validate_bookkeeping) */
static const char *check_state(const rules *g, const ab_state *s)
{
    long n = g->n, C = g->C, crew = g->crew;
    /* every card in exactly one place */
    long count[MAX_CARDS] = {0};
    for (long i = 0; i < s->deck_len; i++)
        count[s->deck[i]]++;
    for (long i = 0; i < s->discard_len; i++)
        count[s->discard[i]]++;
    for (long q = 0; q < n; q++) {
        for (long i = 0; i < s->hand_len[q]; i++)
            count[s->hands[q][i]]++;
        if (s->reserved[q] >= 0)
            count[s->reserved[q]]++;
        for (long j = 0; j < s->fleet_len[q]; j++) {
            const ship *sh = &s->ships[q][j];
            count[sh->master]++;
            for (long i = 0; i < sh->crew_len; i++)
                count[sh->crew[i]]++;
        }
        for (long i = 0; i < s->plunder_len[q]; i++)
            count[s->plunder[q][i]]++;
    }
    if (s->launch_master >= 0)
        count[s->launch_master]++;
    for (long i = 0; i < s->launch_len; i++)
        count[s->launch_crew[i]]++;
    for (long c = 0; c < C; c++)
        if (count[c] != 1)
            return "a card was created, lost or duplicated";
    /* the decision fits the phase */
    if (s->phase == OVER_PHASE) {
        if (s->decision != D_OVER || s->actor != -1)
            return "actor: someone acts after the end";
    } else {
        if (s->actor < 0)
            return "nobody is to act in a running game";
        int recruit = s->decision == D_TURN || s->decision == D_CREW
            || s->decision == D_DISCARD || s->decision == D_CLAIM;
        int battle = s->decision == D_SELECT || s->decision == D_AIM;
        if (s->phase == RECRUIT ? !recruit : !battle)
            return "decision does not fit the phase";
    }
    if ((s->decision == D_CREW) != (s->launch_master >= 0))
        return "launch without CREW";
    int own_turn = s->decision == D_TURN || s->decision == D_CREW || s->decision == D_DISCARD;
    if (own_turn && s->actor != s->turn_player)
        return "actor: not the turn player in its turn";
    if (s->decision == D_CLAIM
            && !(s->cq_len && s->actor == s->claim_queue[0] && s->discard_len))
        return "claim_queue: the claim decision is not the next asked seat's, on a discard";
    if (s->resh_len) {
        uint8_t resh[MAX_CARDS] = {0};
        for (long i = 0; i < s->resh_len; i++)
            resh[s->reshuffled[i]] = 1;
        for (long i = 0; i < s->deck_len; i++)
            if (!resh[s->deck[i]])
                return "a drawn card was not reshuffled";
    }
    for (long q = 0; q < n; q++) {
        const uint8_t *hand = s->hands[q];
        for (long i = 1; i < s->hand_len[q]; i++)
            if (hand[i - 1] > hand[i])
                return "hands are kept sorted";
        long held = s->hand_len[q] + (1 + crew) * s->fleet_len[q];
        if (s->phase == RECRUIT && q == s->turn_player && own_turn) {
            held += (s->launch_master >= 0) + s->launch_len;
            if (held != g->hand + 1)
                return "the turn player holds its deal + a draw";
        } else if (held != g->hand) {
            return "a player holds other than its deal";
        }
        cset face_down = cs_of(hand, s->hand_len[q]);
        for (long j = 0; j < s->fleet_len[q]; j++) {
            const ship *sh = &s->ships[q][j];
            if (!g->is_master[sh->master])
                return "a ship without a shipmaster";
            for (long i = 1; i < sh->crew_len; i++)
                if (sh->crew[i - 1] > sh->crew[i])
                    return "crews are kept sorted";
            if (!ship_crew_ok(g, sh->master, sh->crew, sh->crew_len))
                return "an illegal ship was launched";
            if (sh->crew_len < crew && (sh->in_play || sh->revealed))
                return "a raided ship left play unshown";
            if (sh->in_play && !(sh->keeper == q && !sh->revealed))
                return "a ship in play is its owner's";
            if (!sh->revealed)
                for (long i = 0; i < sh->crew_len; i++)
                    cs_add(&face_down, sh->crew[i]);
        }
        if (q == s->turn_player && s->launch_master >= 0)
            for (long i = 0; i < s->launch_len; i++)
                cs_add(&face_down, s->launch_crew[i]);
        const uint8_t *kw = s->known_with[q];
        for (long i = 0; i < s->kw_len[q]; i++)
            for (long j = 0; j < i; j++)
                if (kw[i] == kw[j])
                    return "a claimed card is listed twice";
        for (long i = 0; i < s->kw_len[q]; i++)
            if (!cs_has(&face_down, kw[i]))
                return "a claimed card is listed with a player but is not in its hand or face "
                       "down";
        if (s->reserved[q] >= 0) {
            if (list_has(kw, s->kw_len[q], s->reserved[q]))
                return "a reserved card also taken into hand";
            if (!(s->phase == RECRUIT && has_turn_left(s, q)))
                return "a reserved card nobody will pick up";
            if (q == s->turn_player)
                return "a reserved card not picked up at the start of its seat's turn";
        }
        for (long i = 0; i < s->plunder_len[q]; i++)
            if (!g->is_treasure[s->plunder[q][i]])
                return "plunder of non-treasure";
    }
    if (s->launch_master >= 0) {
        if (!g->is_master[s->launch_master])
            return "launch_master: not a shipmaster";
        if (s->launch_len >= crew)
            return "launch_crew: a full crew still launching";
        /* decision CREW: a running recruit phase, so the turn player is a seat */
        cset avail = cs_of(s->hands[s->turn_player], s->hand_len[s->turn_player]);
        if (!completable(g, s->launch_master, s->launch_crew, s->launch_len, &avail))
            return "a launch that cannot end";
    } else if (s->launch_len) {
        return "crew placed without a shipmaster";
    }
    if (s->phase != RECRUIT && s->first_fleet < 0)
        return "battles without a first fleet";
    if (s->first_fleet >= 0 && s->fleet_len[s->first_fleet] != g->S)
        return "first_fleet: that fleet is not complete";
    /* _validate_bookkeeping */
    if (s->phase == OVER_PHASE) {
        if (s->turn_player != -1)
            return "turn_player: someone's turn after the game";
    } else {
        if (s->turn_player < 0)
            return "turn_player: nobody's turn in a running game";
        for (long q = 0; q < n; q++)
            if (s->totals[q] >= g->target)
                return "totals: the target score was reached but the game goes on";
    }
    if (s->decision == D_CLAIM) {
        for (long i = 0; i < s->cq_len; i++) {
            if (s->claim_queue[i] == s->turn_player)
                return "claim_queue: a seat asked twice, or the discarding player";
            for (long j = 0; j < i; j++)
                if (s->claim_queue[i] == s->claim_queue[j])
                    return "claim_queue: a seat asked twice, or the discarding player";
        }
    } else if (s->cq_len) {
        return "claim_queue: claims asked outside a claim decision";
    }
    if (s->decision == D_DISCARD && !s->launched)
        return "launched: a discard decision without a launch";
    if ((s->decision == D_TURN || s->decision == D_CREW) && s->launched)
        return "launched: a second launch in one turn";
    long ff = s->first_fleet;
    if (s->phase == RECRUIT && ff >= 0) {
        /* last_turns == [(ff + i) % n for i in 1..n-1][n - 1 - len(last_turns):] */
        if (!s->lt_len)
            return "last_turns: not the players after the first fleet still to play";
        for (long i = 0; i < s->lt_len; i++)
            if (s->last_turns[i] != (ff + (n - 1 - s->lt_len) + i + 1) % n)
                return "last_turns: not the players after the first fleet still to play";
    } else if (s->lt_len) {
        return "last_turns: last turns without a first fleet";
    }
    if (s->phase == RECRUIT) {
        int any = 0;
        for (long q = 0; q < n; q++)
            any |= s->passed[q];
        if (any || s->forced || s->spied_len)
            return "passed/forced/spied: battle bookkeeping while recruiting";
    }
    if (s->forced && !(s->phase == BATTLE && s->actor == ff))
        return "forced: the compulsory attack is not the first fleet's";
    if (s->decision == D_AIM) {
        long a = s->actor;
        if (!(s->selected >= 0 && s->selected < s->fleet_len[a]
              && s->ships[a][s->selected].in_play))
            return "selected: not a ship of the attacker in play";
        const ship *sh = &s->ships[a][s->selected];
        long spies = 0;
        for (long i = 0; i < sh->crew_len; i++)
            spies += g->kind[sh->crew[i]] == SPY;
        if (s->spies_used > spies)
            return "spies_used: more looks than Spies";
    } else if (s->selected != -1 || s->spies_used != 0) {
        return "selected/spies_used: a ship selected outside an aim decision";
    }
    for (long i = 0; i < s->spied_len; i++) {
        const uint8_t *l = s->spied[i];
        if (l[0] == l[1] || l[2] >= s->fleet_len[l[1]])
            return "spied: a look at one's own or a missing ship";
    }
    return NULL;
}

/* _load_state and validate: ``data`` (a to_dict()) into ``s`` */
static int load_state(const rules *g, PyObject *data, ab_state *s)
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
        PyErr_SetString(InvalidStateError, ENGINE_ENV_ID " state: unknown fields (expected "
                        "exactly the saved state's)");
        return -1;
    }
    memset(s, 0, sizeof(*s));
    if (read_fields(g, f, s) < 0)
        return -1;
    const char *why = check_state(g, s);
    if (why) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state breaks the rules: %s", why);
        return -1;
    }
    return 0;
}

/* -- the Engine type and the view object ------------------------------------------------- */

/* AllHandsBattleView's and ShipView's fields, in the order player_view fills them */
#define NUM_VIEW_FIELDS 33
static const char *const VIEW_FIELDS[NUM_VIEW_FIELDS] = {
    "player", "num_players", "round", "starter", "totals", "last_round", "phase",
    "decision", "actor", "turn_player", "hand", "hand_sizes", "reserved", "known_with",
    "discard", "deck_size", "reshuffled", "ships", "plunder", "launch_master", "launch_crew",
    "launch_count", "launched", "claim_queue", "first_fleet", "last_turns", "passed",
    "forced", "selected", "spies_used", "spied", "events", "turns",
};
#define NUM_SHIP_FIELDS 7
static const char *const SHIP_FIELDS[NUM_SHIP_FIELDS] = {
    "master", "in_play", "keeper", "crew_count", "crew", "revealed", "spied",
};

typedef struct {
    PyObject_HEAD
    rules g;
    PyObject *view_cls, *ship_cls;       /* AllHandsBattleView, ShipView */
    PyObject *phases, *decisions;        /* the Phase members and the decision strs */
    int ready;
} Engine;

static PyTypeObject EngineType;

static int arg_int(PyObject *obj, const char *name, long long lo, long long hi, long long *v)
{
    int overflow = 0;
    *v = 0;
    if (PyLong_Check(obj) && !PyBool_Check(obj))
        *v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (!PyLong_Check(obj) || PyBool_Check(obj) || overflow || *v < lo || *v > hi) {
        PyErr_Clear();
        PyErr_Format(InvalidArgumentError, "Engine: %s must be an int within %lld..%lld, got "
                     "%R", name, lo, hi, obj);
        return -1;
    }
    return 0;
}

static void rules_free(rules *g)
{
    PyMem_Free(g->names);
    g->names = NULL;
}

/* the per-card columns, the names and the derived ShipRules tables */
static int init_cards(rules *g, PyObject *columns, PyObject *names)
{
    long C = g->C;
    if (!PyTuple_Check(columns) || PyTuple_GET_SIZE(columns) != NUM_COLUMNS
            || !PyTuple_Check(names) || PyTuple_GET_SIZE(names) != C) {
        PyErr_SetString(InvalidArgumentError, "Engine: cards: expected a tuple of the "
                        "CARD_COLUMNS, and a name per card");
        return -1;
    }
    static const long hi[NUM_COLUMNS] = {NUM_KINDS - 1, NO_SUIT, 1000, 1000, 1000, 1000, 1000,
                                         1000};
    for (int k = 0; k < NUM_COLUMNS; k++) {
        PyObject *col = PyTuple_GET_ITEM(columns, k);
        if (!PyTuple_Check(col) || PyTuple_GET_SIZE(col) != C) {
            PyErr_Format(InvalidArgumentError, "Engine: cards: %s: expected %ld values",
                         CARD_COLUMNS[k], C);
            return -1;
        }
        for (long c = 0; c < C; c++) {
            long long v;
            if (arg_int(PyTuple_GET_ITEM(col, c), CARD_COLUMNS[k], 0, hi[k], &v) < 0)
                return -1;
            int16_t x = (int16_t)v;
            switch (k) {
            case K_KIND: g->kind[c] = (uint8_t)x; break;
            case K_SUIT: g->suit[c] = (uint8_t)x; break;
            case K_LEVEL: g->level[c] = x; break;
            case K_VALUE: g->value[c] = x; break;
            case K_PENALTY: g->penalty[c] = x; break;
            case K_ATTACK: g->attack[c] = x; break;
            case K_DEFEND: g->defend[c] = x; break;
            case K_BONUS: g->bonus[c] = x; break;
            }
        }
    }
    /* the names, into one buffer */
    size_t total = 0;
    const char *utf8[MAX_CARDS];
    for (long c = 0; c < C; c++) {
        PyObject *nm = PyTuple_GET_ITEM(names, c);
        Py_ssize_t len;
        utf8[c] = PyUnicode_Check(nm) ? PyUnicode_AsUTF8AndSize(nm, &len) : NULL;
        if (utf8[c] == NULL) {
            PyErr_Clear();
            PyErr_SetString(InvalidArgumentError, "Engine: names: expected a str per card");
            return -1;
        }
        g->name_len[c] = (long)len;
        total += (size_t)len + 1;
    }
    g->names = PyMem_Malloc(total);
    if (g->names == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    char *at = g->names;
    for (long c = 0; c < C; c++) {
        memcpy(at, utf8[c], (size_t)g->name_len[c] + 1);
        g->name[c] = at;
        at += g->name_len[c] + 1;
    }
    /* ShipRules' tables */
    memset(&g->treasure, 0, sizeof(cset));
    for (long c = 0; c < C; c++) {
        long kd = g->kind[c];
        g->sails[c] = kd == ADMIRAL ? 3 : kd == CAPTAIN ? 2 : kd == PRIVATEER ? 1 : 0;
        g->is_master[c] = kd == ADMIRAL || kd == CAPTAIN || kd == PRIVATEER;
        g->is_treasure[c] = kd == TREASURE || kd == DAUGHTER;
        if (g->is_treasure[c])
            cs_add(&g->treasure, c);
        g->defend_level[c] = kd == SPY ? g->defend[c]
            : (kd == CREW || kd == COOK || kd == PRIVATEER || kd == RUTH) ? g->level[c] : 0;
        g->ruth_bonus[c] = kd == RUTH ? g->bonus[c] : 0;
        g->duelling[c] = kd == CREW || kd == COOK || kd == PRIVATEER || kd == SPY || kd == RUTH;
        g->obs_suit[c] = g->suit[c];
        g->obs_rank[c] = kd == ADMIRAL ? 0 : kd == CAPTAIN ? 1 : 2;
        if ((kd == PRIVATEER) != (g->suit[c] == NO_SUIT)) {
            PyErr_SetString(InvalidArgumentError, "Engine: cards: Privateers, and only they, "
                            "have no suit");
            return -1;
        }
    }
    /* _dominator_masks: a dominates b in any crew without both (same kind of
     * contribution, a defending level and treasure value at least b's), and strictly
     * more or a lower id */
    for (long b = 0; b < C; b++) {
        memset(&g->dominators[b], 0, sizeof(cset));
        for (long a = 0; a < C; a++) {
            if (a == b || g->duelling[a] != g->duelling[b] || g->ruth_bonus[a] != g->ruth_bonus[b]
                    || (g->kind[a] == LADY) != (g->kind[b] == LADY)
                    || (g->kind[a] == BLACK_SPOT) != (g->kind[b] == BLACK_SPOT)
                    || (g->kind[a] == DAUGHTER) != (g->kind[b] == DAUGHTER)
                    || g->defend_level[a] < g->defend_level[b] || g->value[a] < g->value[b])
                continue;
            if (g->defend_level[a] > g->defend_level[b] || g->value[a] > g->value[b] || a < b)
                cs_add(&g->dominators[b], a);
        }
    }
    for (long m = 0; m < C; m++) {
        memset(&g->elig[m], 0, sizeof(cset));
        memset(&g->caps[m], 0, sizeof(cset));
        memset(&g->cooks[m], 0, sizeof(cset));
        g->has_prize[m] = 0;
        if (!g->is_master[m])
            continue;
        for (long c = 0; c < C; c++) {
            if (g->kind[c] == ADMIRAL || g->kind[c] == CAPTAIN)
                continue;
            if (g->kind[m] == PRIVATEER || g->kind[c] == PRIVATEER || g->suit[c] == g->suit[m])
                cs_add(&g->elig[m], c);
        }
        if (g->prize_crew && g->kind[m] == ADMIRAL) {
            for (long c = 0; c < C; c++) {
                if (g->suit[c] != g->suit[m])
                    continue;
                if (g->kind[c] == CAPTAIN)
                    cs_add(&g->caps[m], c);
                if (g->kind[c] == COOK)
                    cs_add(&g->cooks[m], c);
            }
            cset none;
            memset(&none, 0, sizeof(none));
            g->has_prize[m] = cs_common_not(&g->caps[m], &g->caps[m], &none) > 0
                && cs_common_not(&g->cooks[m], &g->cooks[m], &none) > 0;
            if (!g->has_prize[m]) {
                memset(&g->caps[m], 0, sizeof(cset));
                memset(&g->cooks[m], 0, sizeof(cset));
            }
        }
        g->elig_nom[m] = g->elig[m];
        cs_del(&g->elig_nom[m], m);
        for (int i = 0; i < CSET_WORDS; i++)
            g->pool[m].w[i] = g->elig[m].w[i] | g->caps[m].w[i] | g->cooks[m].w[i];
        cs_del(&g->pool[m], m);
    }
    return 0;
}

/* the layout blocks, (start, stop) in LAYOUT_FIELDS order, checked against their sizes */
static int init_blocks(rules *g, PyObject *blocks)
{
    long n = g->n, C = g->C, S = g->S, nS = n * S;
    const long want[NUM_BLOCKS] = {
        [B_DECISION] = NUM_DECISIONS, [B_MY_DECISION] = 1, [B_PHASE] = NUM_PHASES,
        [B_ACTING_SEAT] = n, [B_TURN_SEAT] = n, [B_STARTER] = n, [B_HAND] = C,
        [B_HAND_SIZES] = n, [B_RESERVED] = n * C, [B_KNOWN_WITH] = n * C,
        [B_DISCARD_PILE] = C, [B_DISCARD_TOP] = C, [B_CLAIM_OUTLOOK] = 5,
        [B_DRAW_PILE_SIZE] = 1, [B_PILE_CANDIDATES] = C, [B_UNSEEN] = C,
        [B_SHIP_LAUNCHED] = nS, [B_SHIP_SUIT] = nS * 5, [B_SHIP_RANK] = nS * 3,
        [B_SHIP_IN_PLAY] = nS, [B_SHIP_KEEPER] = nS * (n + 1), [B_SHIP_CREW_COUNT] = nS,
        [B_SHIP_CREW_KNOWN] = nS, [B_SHIP_CREW] = nS * C, [B_SHIP_REVEALED] = nS,
        [B_SHIP_SPIED] = nS, [B_SHIP_SPIED_BY_OTHER] = nS, [B_PLUNDER_CARDS] = C,
        [B_PLUNDER_VALUE] = n, [B_LAUNCH_MASTER] = C, [B_LAUNCH_CREW] = C,
        [B_LAUNCH_COUNT] = 1, [B_LAUNCHED] = 1, [B_CLAIM_QUEUE] = n, [B_FIRST_FLEET] = n + 1,
        [B_LAST_TURNS] = n, [B_PASSED] = n, [B_FORCED] = 1, [B_SELECTED] = S,
        [B_SPIES_USED] = 1, [B_TOTALS] = n, [B_LAST_ROUND] = n, [B_ROUND] = 1,
    };
    if (!PyTuple_Check(blocks) || PyTuple_GET_SIZE(blocks) != NUM_BLOCKS) {
        PyErr_SetString(InvalidArgumentError, "Engine: blocks: expected a (start, stop) per "
                        "LAYOUT_FIELDS entry");
        return -1;
    }
    for (int b = 0; b < NUM_BLOCKS; b++) {
        PyObject *se = PyTuple_GET_ITEM(blocks, b);
        long long lo, hi;
        if (!PyTuple_Check(se) || PyTuple_GET_SIZE(se) != 2) {
            PyErr_Format(InvalidArgumentError, "Engine: blocks: %s: expected (start, stop)",
                         LAYOUT_FIELDS[b]);
            return -1;
        }
        if (arg_int(PyTuple_GET_ITEM(se, 0), LAYOUT_FIELDS[b], 0, g->size, &lo) < 0
                || arg_int(PyTuple_GET_ITEM(se, 1), LAYOUT_FIELDS[b], 0, g->size, &hi) < 0)
            return -1;
        if (hi - lo != want[b]) {
            PyErr_Format(InvalidArgumentError, "Engine: blocks: %s holds %lld values, "
                         "expected %ld", LAYOUT_FIELDS[b], hi - lo, want[b]);
            return -1;
        }
        g->start[b] = (long)lo;
        g->len[b] = (long)(hi - lo);
    }
    return 0;
}

/* a tuple of ``k`` strs equal to ``names`` */
static int check_names(PyObject *obj, const char *what, const char *const *names, int k)
{
    int ok = PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == k;
    for (int i = 0; ok && i < k; i++) {
        PyObject *x = PyTuple_GET_ITEM(obj, i);
        ok = PyUnicode_Check(x) && PyUnicode_CompareWithASCIIString(x, names[i]) == 0;
    }
    if (!ok)
        PyErr_Format(InvalidArgumentError, "Engine: %s: expected the %d names in order", what,
                     k);
    return ok ? 0 : -1;
}

static int Engine_init(Engine *e, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "hand_size", "crew_per_ship", "ships_per_fleet",
                             "ship_points", "first_fleet_bonus", "alliance", "prize_crew",
                             "alternate_aargh", "target_score", "max_rounds", "cards", "names",
                             "num_actions", "obs_size", "blocks", "round_scale", "view_cls",
                             "ship_cls", "phases", "decisions", NULL};
    PyObject *o_n, *o_hand, *o_crew, *o_S, *o_pts, *o_bonus, *alliance, *prize, *alt, *o_target,
        *o_rounds, *cards, *names, *o_actions, *o_size, *blocks, *o_scale, *view_cls, *ship_cls,
        *phases, *decisions;
    if (e->ready) {                 /* its States read these constants */
        PyErr_SetString(InvalidArgumentError, "Engine: already initialised");
        return -1;
    }
    rules_free(&e->g);              /* what a failed call left */
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOOOOOOOOOOOOOO:Engine", kwlist, &o_n,
                                     &o_hand, &o_crew, &o_S, &o_pts, &o_bonus, &alliance, &prize,
                                     &alt, &o_target, &o_rounds, &cards, &names, &o_actions,
                                     &o_size, &blocks, &o_scale, &view_cls, &ship_cls, &phases,
                                     &decisions))
        return -1;
    rules *g = &e->g;
    memset(g, 0, sizeof(*g));
    long long n, hand, crew, S, pts, bonus, target, rounds, actions, size, scale;
    if (arg_int(o_n, "num_players", 2, MAX_PLAYERS, &n) < 0
            || arg_int(o_hand, "hand_size", 1, MAX_HAND - 4, &hand) < 0
            || arg_int(o_crew, "crew_per_ship", 1, MAX_CREW, &crew) < 0
            || arg_int(o_S, "ships_per_fleet", 1, MAX_SHIPS, &S) < 0
            || arg_int(o_pts, "ship_points", 0, 1000, &pts) < 0
            || arg_int(o_bonus, "first_fleet_bonus", 0, 1000, &bonus) < 0
            || arg_int(o_target, "target_score", 1, MAX_SAVED, &target) < 0
            || arg_int(o_rounds, "max_rounds", 0, MAX_SAVED, &rounds) < 0
            || arg_int(o_actions, "num_actions", 1, 1 << 20, &actions) < 0
            || arg_int(o_size, "obs_size", 1, 1 << 24, &size) < 0
            || arg_int(o_scale, "round_scale", 1, 1 << 20, &scale) < 0)
        return -1;
    if (!PyBool_Check(prize) || !PyBool_Check(alt)) {
        PyErr_SetString(InvalidArgumentError, "Engine: prize_crew and alternate_aargh must be "
                        "bools");
        return -1;
    }
    if (!PyTuple_Check(alliance) || PyTuple_GET_SIZE(alliance) != 4) {
        PyErr_SetString(InvalidArgumentError, "Engine: alliance: expected 4 ints");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        long long v;
        if (arg_int(PyTuple_GET_ITEM(alliance, i), "alliance", 0, 1, &v) < 0)
            return -1;
        g->alliance[i] = (uint8_t)v;
    }
    if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) < 1
            || PyTuple_GET_SIZE(names) > MAX_CARDS) {
        PyErr_SetString(InvalidArgumentError, "Engine: names: the compiled engine holds 1 to "
                        "256 cards");
        return -1;
    }
    g->n = (long)n;
    g->hand = (long)hand;
    g->crew = (long)crew;
    g->S = (long)S;
    g->ship_points = (long)pts;
    g->ff_bonus = (long)bonus;
    g->prize_crew = prize == Py_True;
    g->alternate_aargh = alt == Py_True;
    g->target = target;
    g->max_rounds = rounds;
    g->C = (long)PyTuple_GET_SIZE(names);
    g->size = (long)size;
    g->round_scale = (long)scale;
    g->top = 1.0 + 600.0 / (double)target;
    if (g->C < n * hand + 2 || S * (crew + 1) != hand) {
        PyErr_SetString(InvalidArgumentError, "Engine: the deck must deal every hand and two "
                        "more, and a fleet use exactly the hand");
        return -1;
    }
    long C = g->C, T = (n - 1) * S;
    g->a_discard = 0;
    g->a_master = C;
    g->a_crew = 2 * C;
    g->a_claim = 3 * C;
    g->a_no_claim = 3 * C + 1;
    g->a_select = 3 * C + 2;
    g->a_attack = g->a_select + S;
    g->a_spy = g->a_attack + T;
    g->a_pass = g->a_spy + T;
    g->a_size = g->a_pass + 1;
    if (g->a_size != actions) {
        PyErr_SetString(InvalidArgumentError, "Engine: num_actions is not this game's");
        return -1;
    }
    if (init_cards(g, cards, names) < 0 || init_blocks(g, blocks) < 0)
        return -1;
    if (ce_check_record(view_cls, "view_cls", VIEW_FIELDS, NUM_VIEW_FIELDS) < 0
            || ce_check_record(ship_cls, "ship_cls", SHIP_FIELDS, NUM_SHIP_FIELDS) < 0
            || check_names(phases, "phases", PHASE_NAMES, NUM_PHASES) < 0
            || check_names(decisions, "decisions", DECISION_NAMES, NUM_DECISIONS) < 0)
        return -1;
    Py_INCREF(view_cls);
    Py_XSETREF(e->view_cls, view_cls);
    Py_INCREF(ship_cls);
    Py_XSETREF(e->ship_cls, ship_cls);
    Py_INCREF(phases);
    Py_XSETREF(e->phases, phases);
    Py_INCREF(decisions);
    Py_XSETREF(e->decisions, decisions);
    e->ready = 1;
    return 0;
}

static void Engine_dealloc(Engine *e)
{
    rules_free(&e->g);
    Py_XDECREF(e->view_cls);
    Py_XDECREF(e->ship_cls);
    Py_XDECREF(e->phases);
    Py_XDECREF(e->decisions);
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

static PyObject *bytes_tuple(const uint8_t *a, long k)
{
    PyObject *t = PyTuple_New(k);
    for (long i = 0; t && i < k; i++) {
        PyObject *x = PyLong_FromLong(a[i]);
        if (x == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *int64_tuple(const int64_t *a, long k)
{
    PyObject *t = PyTuple_New(k);
    for (long i = 0; t && i < k; i++) {
        PyObject *x = PyLong_FromLongLong(a[i]);
        if (x == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* a named tuple of ``k`` items (stolen; NULL items release everything) */
static PyObject *record(PyObject *cls, PyObject **items, int k)
{
    PyObject *r = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, k);
    for (int i = 0; i < k; i++)
        if (items[i] == NULL || r == NULL) {
            for (int j = 0; j < k; j++)
                Py_XDECREF(items[j]);
            Py_XDECREF(r);
            return NULL;
        }
    for (int i = 0; i < k; i++)
        PyTuple_SET_ITEM(r, i, items[i]);
    return r;
}

static PyObject *fleets_view(Engine *e, const ab_state *s, const ab_view *v)
{
    long n = e->g.n;
    PyObject *out = PyTuple_New(n);
    for (long q = 0; out && q < n; q++) {
        PyObject *fleet = PyTuple_New(s->fleet_len[q]);
        for (long j = 0; fleet && j < s->fleet_len[q]; j++) {
            const ship_view *sh = &v->ships[q][j];
            PyObject *items[NUM_SHIP_FIELDS];
            items[0] = PyLong_FromLong(sh->master);
            items[1] = py_bool(sh->in_play);
            items[2] = PyLong_FromLong(sh->keeper);
            items[3] = PyLong_FromLong(sh->crew_count);
            if (sh->known) {
                items[4] = bytes_tuple(sh->crew, sh->crew_count);
            } else {
                Py_INCREF(Py_None);
                items[4] = Py_None;
            }
            items[5] = py_bool(sh->revealed);
            items[6] = py_bool(sh->spied);
            PyObject *x = record(e->ship_cls, items, NUM_SHIP_FIELDS);
            if (x == NULL) {
                Py_CLEAR(fleet);
                break;
            }
            PyTuple_SET_ITEM(fleet, j, x);
        }
        if (fleet == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, q, fleet);
    }
    return out;
}

/* python_view of ``player``: the AllHandsBattleView it builds */
static PyObject *player_view(Engine *e, const ab_state *s, long player)
{
    const rules *g = &e->g;
    ab_view view, *v = &view;
    plain_view(g, s, player, v);
    long n = g->n, sizes[MAX_PLAYERS];
    PyObject *items[NUM_VIEW_FIELDS];
    items[0] = PyLong_FromLong(player);
    items[1] = PyLong_FromLong(n);
    items[2] = PyLong_FromLongLong(s->round);
    items[3] = PyLong_FromLong(s->starter);
    items[4] = int64_tuple(s->totals, n);
    items[5] = int64_tuple(s->last_round, s->has_last_round ? n : 0);
    items[6] = PyTuple_GET_ITEM(e->phases, s->phase);
    Py_INCREF(items[6]);
    items[7] = PyTuple_GET_ITEM(e->decisions, s->decision);
    Py_INCREF(items[7]);
    items[8] = PyLong_FromLong(s->actor);
    items[9] = PyLong_FromLong(s->turn_player);
    items[10] = bytes_tuple(v->hand, v->hand_len);
    for (long q = 0; q < n; q++)
        sizes[q] = v->hand_sizes[q];
    items[11] = PyTuple_New(n);
    for (long q = 0; items[11] && q < n; q++) {
        PyObject *x = PyLong_FromLong(sizes[q]);
        if (x == NULL) {
            Py_CLEAR(items[11]);
            break;
        }
        PyTuple_SET_ITEM(items[11], q, x);
    }
    items[12] = PyTuple_New(n);
    for (long q = 0; items[12] && q < n; q++) {
        PyObject *x = PyLong_FromLong(s->reserved[q]);
        if (x == NULL) {
            Py_CLEAR(items[12]);
            break;
        }
        PyTuple_SET_ITEM(items[12], q, x);
    }
    items[13] = rows(s->known_with[0], MAX_HAND, s->kw_len, n, 1);
    items[14] = bytes_tuple(s->discard, s->discard_len);
    items[15] = PyLong_FromLong(s->deck_len);
    items[16] = bytes_tuple(s->reshuffled, s->resh_len);
    items[17] = fleets_view(e, s, v);
    items[18] = plunder_to_py(g, s, 1);
    items[19] = PyLong_FromLong(s->launch_master);
    items[20] = bytes_tuple(v->launch_crew, v->launch_len);
    items[21] = PyLong_FromLong(s->launch_len);
    items[22] = py_bool(s->launched);
    items[23] = bytes_tuple(s->claim_queue, s->cq_len);
    items[24] = PyLong_FromLong(s->first_fleet);
    items[25] = bytes_tuple(s->last_turns, s->lt_len);
    items[26] = passed_to_py(g, s, 1);
    items[27] = py_bool(s->forced);
    items[28] = PyLong_FromLong(s->selected);
    items[29] = PyLong_FromLong(s->spies_used);
    items[30] = spied_to_py(s, 1);
    items[31] = events_list(g, s, 1);
    items[32] = PyLong_FromLongLong(s->turns);
    return record(e->view_cls, items, NUM_VIEW_FIELDS);
}

/* -- the Batch type (envs/core/engine_batch.h): the game's side -------------------------- */

#define BATCH_STATE ab_state
#define BATCH_ENGINE Engine
#define BATCH_ENGINE_TYPE EngineType
#define BATCH_MAX_SEATS MAX_PLAYERS
#define BATCH_KEY_LEN 1
#define BATCH_TYPE_NAME "plunder.envs.all_hands_battle._engine.Batch"

static int batch_engine_ready(Engine *e) { return engine_ready(e); }
static long batch_num_players(const Engine *e) { return e->g.n; }
static long batch_num_actions(const Engine *e) { return e->g.a_size; }
static long batch_obs_size(const Engine *e) { return e->g.size; }
static pcg64 *batch_rng(ab_state *s) { return &s->rng; }
static void batch_setup(const Engine *e, ab_state *s) { setup(&e->g, s); }
static int batch_finished(const ab_state *s) { return finished(s); }
static int64_t batch_turns(const ab_state *s) { return s->turns; }

static long batch_deciders(const Engine *e, const ab_state *s, long *seats)
{
    if (finished(s))
        return 0;
    seats[0] = s->actor;
    return 1;
}

static void batch_observe(const Engine *e, const ab_state *s, long seat, int8_t *mask,
                          float *row)
{
    if (seat == s->actor)
        fill_mask(&e->g, s, mask);
    ab_view v;
    plain_view(&e->g, s, seat, &v);
    encode(&e->g, &v, row);
}

static void batch_apply(const Engine *e, ab_state *s, const long *seats,
                        const int64_t *actions, long k)
{
    apply_action(&e->g, s, (long)actions[0]);
}

static void batch_scores(const Engine *e, const ab_state *s, double *out)
{
    scores(&e->g, s, out);
}

/* the score alone, as GameState.rank_keys */
static long batch_rank_keys(const Engine *e, const ab_state *s, double *keys)
{
    scores(&e->g, s, keys);
    return e->g.n;
}

#include "engine_batch.h"

/* -- the State type and the Engine's game-making methods (envs/core/engine_state.h) ------- */

#define ENGINE_STATE_TYPE_NAME "plunder.envs.all_hands_battle._engine.State"
#include "engine_state.h"

static int engine_load(const Engine *e, PyObject *data, ab_state *s)
{
    return load_state(&e->g, data, s);
}

static PyObject *engine_to_dict(const Engine *e, const ab_state *s)
{
    return state_to_dict(&e->g, s);
}

/* legal_actions_mask(player): zeros unless ``player`` decides now */
static void engine_mask(const Engine *e, const ab_state *s, long player, int8_t *mask)
{
    if (player == s->actor)
        fill_mask(&e->g, s, mask);
}

static PyObject *engine_view(Engine *e, const ab_state *s, long player)
{
    return player_view(e, s, player);
}

static void engine_encode(const Engine *e, const ab_state *s, long player, float *out)
{
    ab_view v;
    plain_view(&e->g, s, player, &v);
    encode(&e->g, &v, out);
}

static PyMethodDef Engine_methods[] = {
    ENGINE_METHODS,
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.all_hands_battle._engine.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(...): one All Hands On Deck (battles) game's constants "
              "(AllHandsBattleGame.compiled_engine_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};

/* -- the module --------------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "All Hands On Deck (battles)' compiled engine: state, rules, view, encoder, JSON round "
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
        {"SHIP_FIELDS", SHIP_FIELDS, NUM_SHIP_FIELDS},
        {"LAYOUT_FIELDS", LAYOUT_FIELDS, NUM_BLOCKS},
        {"CARD_COLUMNS", CARD_COLUMNS, NUM_COLUMNS},
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
