/* Scallywags' compiled engine: the state, the rules, the view, the encoder and the JSON
 * round trip in one module, and a batch of games stepped without Python per step.
 *
 * The Python engine (engine.py) is the specification: every function here mirrors the
 * one of the same name there, and tests/test_compiled_engine.py checks that both give the
 * same trajectories, masks, views, observations, scores and rank keys. Randomness is
 * numpy's, reproduced exactly: PCG64 with its 32-bit half buffer, SeedSequence for an int
 * seed, Generator.permutation (a Fisher-Yates shuffle over random_interval),
 * Generator.random and Generator.integers (Lemire's bounded draws), so a state's
 * generator is the same numbers as the Python state's ``rng``, and its saved form is
 * numpy's PCG64 state dict.
 *
 * ``Engine(...)`` holds one game's constants (ScallywagsGame.compiled_engine_params);
 * ``Engine.new_initial_state(rng_state)``, ``Engine.new_game(seed)`` and
 * ``Engine.from_dict(data)`` make ``State`` objects (to_dict, current_players, mask,
 * apply, view, encode_into, scores, rank_keys). ``Batch(engine, ...)`` holds N games and
 * their table generators in C memory and writes every pending decision's observation,
 * mask and seat into numpy arrays it was given (see envs/core/batch.py, CompiledBatch).
 * ``Encoder(*observation.compiled_params(game, module))`` encodes any ScallywagsView (a
 * Python state's, for the search bots' sampled worlds) with the same writer (encode.h) as
 * the engine's states: the game's only compiled encoder.
 *
 * Anything read from Python (a saved state, an action, a buffer) is checked before use:
 * a bad one raises the project's InvalidStateError or InvalidArgumentError (or
 * IllegalActionError for an action the mask forbids), never reads outside the state.
 */
#define ENGINE_ENV_ID "scallywags_v0"
#include "engine.h"
#include "encode.h"

/* -- sizes -------------------------------------------------------------------------------- */

#define NUM_CARDS 9
enum { ARRGH, AVAST, BLOW, BOOTY, SHIVER, LAND_HO, PIECES, YO_HO, HANDS_OFF };
static const int TARGET_STEPS[NUM_CARDS] = {1, 2, 4, 1, 2, 2, 1, 2, 0};
enum { CHOOSE, TARGET, BLOCK, NUM_PHASES };
static const char *const PHASE_NAMES[NUM_PHASES] = {"choose", "target", "block"};
#define MAX_PLAYERS 6
#define MAX_OPPONENTS 5
#define MAX_COINS 256          /* coin ids are bytes */
#define MAX_TAKE 64
#define MAX_DECK 1024
#define MAX_HAND 32
#define MIDDLE (-1)
#define MAX_TURNS_SAVED ((int64_t)1 << 40)   /* turns a saved state may hold */

/* -- the game's constants ----------------------------------------------------------------- */

typedef struct {
    long n, limit, num_coins, hand_size, total_cards;
    int16_t coin_values[MAX_COINS];          /* ascending */
    long copies[NUM_CARDS];
    double face_up_p;
    long min_value, max_value;
    /* action indices (ActionIndex) */
    long a_play, a_discard, a_coin, a_player, a_block, a_allow, a_size;
} rules;

/* -- the state ---------------------------------------------------------------------------- */

typedef struct {
    pcg64 rng;
    int16_t values[MAX_COINS];
    uint8_t face_up[MAX_COINS];
    uint8_t knowers[MAX_COINS];
    int8_t where[MAX_COINS];                 /* seat, or MIDDLE */
    uint8_t slot[MAX_COINS];                 /* 1-based place in its take, 0 in the middle */
    uint8_t takes[MAX_PLAYERS][MAX_TAKE];
    uint8_t take_len[MAX_PLAYERS];
    uint8_t hands[MAX_PLAYERS][NUM_CARDS];
    uint8_t hand_total[MAX_PLAYERS];
    uint8_t draw[MAX_DECK];                  /* top last */
    uint8_t discard[MAX_DECK];
    int16_t draw_len, discard_len;
    int16_t reshuffled[NUM_CARDS];
    int8_t actor, phase, card, num_chosen, num_queue, finished;
    int16_t chosen[4];
    int8_t queue[MAX_OPPONENTS];
    int64_t turns;
} sw_state;

static inline long room(const rules *g, const sw_state *s, long seat)
{
    return g->limit - s->take_len[seat];
}

static inline void learn(sw_state *s, long coin, long seat)
{
    s->knowers[coin] |= (uint8_t)(1u << seat);
}

static inline long acting_seat(const sw_state *s)
{
    return s->phase == BLOCK ? s->queue[0] : s->actor;
}

/* -- legal moves -------------------------------------------------------------------------- */

/* Coin lists are written into ``out`` (at most MAX_COINS), their count returned. */

static long middle_coins(const rules *g, const sw_state *s, int face_up, uint8_t *out)
{
    long k = 0;
    for (long c = 0; c < g->num_coins; c++)
        if (s->where[c] == MIDDLE && s->face_up[c] == face_up)
            out[k++] = (uint8_t)c;
    return k;
}

/* coins in the takes of ``me``'s opponents, in turn order (face down only if asked) */
static long opponent_coins(const rules *g, const sw_state *s, long me, int down_only,
                           uint8_t *out)
{
    long k = 0;
    for (long d = 1; d < g->n; d++) {
        long q = (me + d) % g->n;
        for (long i = 0; i < s->take_len[q]; i++) {
            uint8_t c = s->takes[q][i];
            if (!down_only || !s->face_up[c])
                out[k++] = c;
        }
    }
    return k;
}

/* target_choices: the legal choices of the pending card's next target, as coin ids
 * (*is_seat = 0) or seats (*is_seat = 1). */
static long target_choices(const rules *g, const sw_state *s, int *is_seat, uint8_t *out)
{
    long me = s->actor, step = s->num_chosen, n = g->n, k = 0;
    *is_seat = 0;
    switch (s->card) {
    case ARRGH: case PIECES:
        return opponent_coins(g, s, me, 0, out);
    case AVAST:
        if (step == 0) {
            for (long i = 0; i < s->take_len[me]; i++)
                if (!s->face_up[s->takes[me][i]])
                    out[k++] = s->takes[me][i];
            return k;
        }
        return opponent_coins(g, s, me, 1, out);
    case BLOW:
        if (step < 2) {
            for (long c = 0; c < g->num_coins; c++)
                if (s->where[c] == MIDDLE && !s->face_up[c]
                        && !(step == 1 && s->chosen[0] == c))
                    out[k++] = (uint8_t)c;
            return k;
        }
        *is_seat = 1;
        for (long d = 1; d < n; d++) {
            long q = (me + d) % n, r = room(g, s, q);
            int ok;
            if (step == 2) {
                ok = r >= 2;
                if (!ok && r == 1)
                    for (long e = 1; e < n && !ok; e++) {
                        long o = (me + e) % n;
                        ok = o != q && room(g, s, o) >= 1;
                    }
            } else {
                ok = r >= 1 + (q == s->chosen[2]);
            }
            if (ok)
                out[k++] = (uint8_t)q;
        }
        return k;
    case BOOTY:
        return middle_coins(g, s, 1, out);
    case SHIVER:
        return middle_coins(g, s, step == 0 ? 0 : 1, out);
    case LAND_HO:
        k = middle_coins(g, s, 0, out);
        return k + opponent_coins(g, s, me, 1, out + k);
    case YO_HO:
        if (step == 0)
            return middle_coins(g, s, 1, out);
        *is_seat = 1;
        for (long d = 1; d < n; d++) {
            long q = (me + d) % n;
            if (room(g, s, q) >= 1)
                out[k++] = (uint8_t)q;
        }
        return k;
    }
    return 0;
}

/* can_play, from the choose step's facts */
typedef struct {
    long down, up, room;          /* face-down middle coins, face-up ones, actor's room */
    long opp_coins, opp_down;     /* coins in the opponents' takes, face-down ones */
    long max_room, rooms_free;    /* opponents' largest room, opponents with room */
    long my_down;                 /* face-down coins in the actor's take */
} facts;

static void choice_facts(const rules *g, const sw_state *s, facts *f)
{
    long me = s->actor;
    memset(f, 0, sizeof(*f));
    for (long c = 0; c < g->num_coins; c++) {
        if (s->where[c] == MIDDLE) {
            if (s->face_up[c])
                f->up++;
            else
                f->down++;
        } else if (!s->face_up[c]) {
            if (s->where[c] == me)
                f->my_down++;
            else
                f->opp_down++;
        }
    }
    f->room = room(g, s, me);
    for (long d = 1; d < g->n; d++) {
        long q = (me + d) % g->n, r = room(g, s, q);
        f->opp_coins += s->take_len[q];
        if (r > f->max_room)
            f->max_room = r;
        if (r >= 1)
            f->rooms_free++;
    }
}

static int can_play(long card, const facts *f)
{
    switch (card) {
    case ARRGH: return f->opp_coins > 0;
    case AVAST: return f->my_down > 0 && f->opp_down > 0;
    case BLOW: return f->down >= 2 && (f->max_room >= 2 || f->rooms_free >= 2);
    case BOOTY: return f->room >= 1 && f->up > 0;
    case SHIVER: return f->room >= 2 && f->down > 0 && f->up > 0;
    case LAND_HO: return f->room >= 1 && (f->down > 0 || f->opp_down > 0);
    case PIECES: return f->room >= 1 && f->opp_coins > 0;
    case YO_HO: return f->up > 0 && f->rooms_free > 0;
    }
    return 0;     /* HANDS_OFF */
}

/* _fill_mask: the acting player's legal actions into ``mask`` (a_size bytes, zeroed). */
static void fill_mask(const rules *g, const sw_state *s, int8_t *mask)
{
    long player = acting_seat(s);
    if (s->phase == BLOCK) {
        mask[g->a_allow] = 1;
        if (s->hands[player][HANDS_OFF] > 0)
            mask[g->a_block] = 1;
        return;
    }
    uint8_t list[MAX_COINS];
    if (s->phase == TARGET) {
        int is_seat;
        long k = target_choices(g, s, &is_seat, list);
        for (long i = 0; i < k; i++)
            mask[is_seat ? g->a_player + (list[i] - s->actor + g->n) % g->n - 1
                         : g->a_coin + list[i]] = 1;
        return;
    }
    facts f;
    choice_facts(g, s, &f);
    int any_move = 0;
    if (f.room >= 1 && f.down > 0) {
        for (long c = 0; c < g->num_coins; c++)
            if (s->where[c] == MIDDLE && !s->face_up[c])
                mask[g->a_coin + c] = 1;
        any_move = 1;
    }
    const uint8_t *hand = s->hands[player];
    for (long k = 0; k < NUM_CARDS; k++)
        if (hand[k] && can_play(k, &f)) {
            mask[g->a_play + k] = 1;
            any_move = 1;
        }
    if (!any_move)
        for (long k = 0; k < NUM_CARDS; k++)
            if (hand[k])
                mask[g->a_discard + k] = 1;
}

/* -- effects ------------------------------------------------------------------------------ */

static void leave_take(sw_state *s, long coin, long seat)
{
    uint8_t *take = s->takes[seat];
    long len = s->take_len[seat], i = 0;
    while (i < len && take[i] != coin)
        i++;
    for (long j = i; j + 1 < len; j++) {
        take[j] = take[j + 1];
        s->slot[take[j]] = (uint8_t)(j + 1);
    }
    s->take_len[seat] = (uint8_t)(len - 1);
}

static void move_to_take(sw_state *s, long coin, long seat)
{
    if (s->where[coin] != MIDDLE)
        leave_take(s, coin, s->where[coin]);
    s->takes[seat][s->take_len[seat]++] = (uint8_t)coin;
    s->where[coin] = (int8_t)seat;
    s->slot[coin] = s->take_len[seat];
    learn(s, coin, seat);
}

static void move_to_middle(sw_state *s, long coin)
{
    leave_take(s, coin, s->where[coin]);
    s->where[coin] = MIDDLE;
    s->slot[coin] = 0;
}

/* _draw: one card for ``seat`` (reshuffling the discard pile if needed); 0 if none left */
static int draw_card(sw_state *s, long seat)
{
    if (s->draw_len == 0) {
        if (s->discard_len == 0)
            return 0;
        memcpy(s->draw, s->discard, (size_t)s->discard_len);
        s->draw_len = s->discard_len;
        shuffle_u8(&s->rng, s->draw, s->draw_len);
        memset(s->reshuffled, 0, sizeof(s->reshuffled));
        for (long i = 0; i < s->discard_len; i++)
            s->reshuffled[s->discard[i]]++;
        s->discard_len = 0;
    }
    uint8_t k = s->draw[--s->draw_len];
    s->hands[seat][k]++;
    s->hand_total[seat]++;
    return 1;
}

static void end_turn(const rules *g, sw_state *s, int draw)
{
    if (draw)
        draw_card(s, s->actor);
    s->phase = CHOOSE;
    s->card = -1;
    s->num_chosen = 0;
    s->num_queue = 0;
    s->turns++;
    s->actor = (int8_t)((s->actor + 1) % g->n);
    int finished = 1;
    for (long p = 0; p < g->n; p++)
        if (s->take_len[p] != g->limit)
            finished = 0;
    s->finished = (int8_t)finished;
}

/* _touched: the opponents the finished action takes from, swaps with or gives to, in
 * turn order, into ``out``; their count */
static long touched(const rules *g, const sw_state *s, int8_t *out)
{
    const int16_t *ch = s->chosen;
    int seats[MAX_PLAYERS] = {0};
    switch (s->card) {
    case ARRGH: case PIECES:
        if (s->where[ch[0]] >= 0) seats[s->where[ch[0]]] = 1;
        break;
    case AVAST:
        if (s->where[ch[1]] >= 0) seats[s->where[ch[1]]] = 1;
        break;
    case BLOW:
        seats[ch[2]] = seats[ch[3]] = 1;
        break;
    case YO_HO:
        seats[ch[1]] = 1;
        break;
    case LAND_HO:
        if (s->where[ch[1]] >= 0) seats[s->where[ch[1]]] = 1;
        break;
    }
    long k = 0;
    for (long d = 1; d < g->n; d++) {
        long q = (s->actor + d) % g->n;
        if (seats[q])
            out[k++] = (int8_t)q;
    }
    return k;
}

static void execute(const rules *g, sw_state *s)
{
    long me = s->actor;
    const int16_t *ch = s->chosen;
    switch (s->card) {
    case ARRGH:
        move_to_middle(s, ch[0]);
        break;
    case AVAST: {
        long mine = ch[0], theirs = ch[1], other = s->where[theirs];
        long i = 0, j = 0;
        while (s->takes[me][i] != mine)
            i++;
        while (s->takes[other][j] != theirs)
            j++;
        s->takes[me][i] = (uint8_t)theirs;
        s->takes[other][j] = (uint8_t)mine;
        s->where[theirs] = (int8_t)me;
        s->where[mine] = (int8_t)other;
        uint8_t t = s->slot[mine];
        s->slot[mine] = s->slot[theirs];
        s->slot[theirs] = t;
        learn(s, theirs, me);
        learn(s, mine, other);
        break;
    }
    case BLOW:
        move_to_take(s, ch[0], ch[2]);
        move_to_take(s, ch[1], ch[3]);
        break;
    case BOOTY: case PIECES:
        move_to_take(s, ch[0], me);
        break;
    case SHIVER:
        move_to_take(s, ch[0], me);
        move_to_take(s, ch[1], me);
        break;
    case LAND_HO:
        move_to_take(s, ch[1], me);
        break;
    case YO_HO:
        move_to_take(s, ch[0], ch[1]);
        break;
    }
    end_turn(g, s, 1);
}

static void choose_target(const rules *g, sw_state *s, long target)
{
    s->chosen[s->num_chosen++] = (int16_t)target;
    long me = s->actor;
    if (s->card == BLOW && s->num_chosen == 2) {
        learn(s, s->chosen[0], me);
        learn(s, s->chosen[1], me);
    }
    if (s->card == LAND_HO && s->num_chosen == 1)
        learn(s, target, me);
    if (s->num_chosen < TARGET_STEPS[s->card])
        return;
    int8_t q[MAX_OPPONENTS];
    long k = touched(g, s, q);
    if (k) {
        s->phase = BLOCK;
        memcpy(s->queue, q, (size_t)k);
        s->num_queue = (int8_t)k;
    } else {
        execute(g, s);
    }
}

static void answer_block(const rules *g, sw_state *s, long seat, int block)
{
    if (block) {
        s->hands[seat][HANDS_OFF]--;
        s->hand_total[seat]--;
        s->discard[s->discard_len++] = HANDS_OFF;
        while (s->hand_total[seat] < g->hand_size && draw_card(s, seat))
            ;
        end_turn(g, s, 1);
        return;
    }
    memmove(s->queue, s->queue + 1, (size_t)(s->num_queue - 1));
    s->num_queue--;
    if (s->num_queue == 0)
        execute(g, s);
}

/* _apply: the acting player's action, already checked against the mask */
static void apply_action(const rules *g, sw_state *s, long action)
{
    long player = acting_seat(s);
    if (s->phase == BLOCK) {
        answer_block(g, s, player, action == g->a_block);
    } else if (s->phase == TARGET) {
        long target = action >= g->a_player
            ? (s->actor + action - g->a_player + 1) % g->n : action - g->a_coin;
        choose_target(g, s, target);
    } else if (action < g->a_discard) {
        long k = action - g->a_play;
        s->hands[player][k]--;
        s->hand_total[player]--;
        s->discard[s->discard_len++] = (uint8_t)k;
        s->card = (int8_t)k;
        s->num_chosen = 0;
        s->phase = TARGET;
    } else if (action < g->a_coin) {
        long k = action - g->a_discard;
        s->hands[player][k]--;
        s->hand_total[player]--;
        s->discard[s->discard_len++] = (uint8_t)k;
        end_turn(g, s, 1);
    } else {
        move_to_take(s, action - g->a_coin, player);
        end_turn(g, s, 0);
    }
}

/* new_initial_state: spill the coins, shuffle and deal, draw the first player (the
 * state's generator already seeded) */
static void setup(const rules *g, sw_state *s)
{
    pcg64 rng = s->rng;
    memset(s, 0, sizeof(*s));
    s->rng = rng;
    long nc = g->num_coins;
    memcpy(s->values, g->coin_values, sizeof(int16_t) * (size_t)nc);
    shuffle_i16(&s->rng, s->values, nc);
    for (long c = 0; c < nc; c++)
        s->face_up[c] = pcg_double(&s->rng) < g->face_up_p;
    for (long c = 0; c < nc; c++)
        s->where[c] = MIDDLE;
    long k = 0;
    for (long kind = 0; kind < NUM_CARDS; kind++)
        for (long i = 0; i < g->copies[kind]; i++)
            s->draw[k++] = (uint8_t)kind;
    s->draw_len = (int16_t)k;
    shuffle_u8(&s->rng, s->draw, k);
    for (long i = 0; i < g->hand_size; i++)
        for (long p = 0; p < g->n; p++) {
            s->hands[p][s->draw[--s->draw_len]]++;
            s->hand_total[p]++;
        }
    s->actor = (int8_t)integers32(&s->rng, (uint32_t)g->n);
    s->phase = CHOOSE;
    s->card = -1;
    s->finished = g->limit == 0;
}

static void scores(const rules *g, const sw_state *s, double *out)
{
    for (long p = 0; p < g->n; p++) {
        long sum = 0;
        for (long i = 0; i < s->take_len[p]; i++)
            sum += s->values[s->takes[p][i]];
        out[p] = (double)sum;
    }
}

/* -- the view as plain numbers (for the encoder) ------------------------------------------ */

typedef struct {
    long values[MAX_COINS], face_up[MAX_COINS], owner[MAX_COINS], slot[MAX_COINS],
         knowers[MAX_COINS];
    long hand[NUM_CARDS], discard[NUM_CARDS], reshuffled[NUM_CARDS];
    long hand_sizes[MAX_PLAYERS], acting[1], chosen[4];
} view_rows;

/* python_view of ``player``, as an sw_view over ``rows`` */
static void plain_view(const rules *g, const sw_state *s, long player, sw_view *v,
                       view_rows *r)
{
    long nc = g->num_coins;
    v->me = player;
    v->n = g->n;
    v->limit = g->limit;
    sw_offsets(v);
    for (long c = 0; c < nc; c++) {
        r->face_up[c] = s->face_up[c];
        r->knowers[c] = s->knowers[c];
        r->values[c] = (s->face_up[c] || (s->knowers[c] >> player & 1)) ? s->values[c] : -1;
        r->owner[c] = s->where[c];
        r->slot[c] = s->slot[c];
    }
    for (long k = 0; k < NUM_CARDS; k++) {
        r->hand[k] = s->hands[player][k];
        r->discard[k] = 0;
        r->reshuffled[k] = s->reshuffled[k];
    }
    for (long i = 0; i < s->discard_len; i++)
        r->discard[s->discard[i]]++;
    for (long p = 0; p < g->n; p++)
        r->hand_sizes[p] = s->hand_total[p];
    v->values = r->values;
    v->face_up = r->face_up;
    v->owner = r->owner;
    v->slot = r->slot;
    v->knowers = r->knowers;
    v->hand = r->hand;
    v->discard = r->discard;
    v->reshuffled = r->reshuffled;
    v->hand_sizes = r->hand_sizes;
    v->draw_size = s->draw_len;
    v->actor = s->actor;
    v->num_acting = s->finished ? 0 : 1;
    r->acting[0] = acting_seat(s);
    v->acting = r->acting;
    v->phase = s->phase;
    v->card = s->card;
    v->num_chosen = s->num_chosen;
    for (long i = 0; i < s->num_chosen; i++)
        r->chosen[i] = s->chosen[i];
    v->chosen = r->chosen;
    v->turns = (long)s->turns;
}

/* -- validate: the invariants of engine.py's ScallywagsState.validate ---------------------- */

/* NULL when ``s`` is a legal position, else what is wrong (the derived tables: where,
 * slot, hand_total and finished are rebuilt from the fields first). */
static const char *check_state(const rules *g, sw_state *s)
{
    long nc = g->num_coins, n = g->n;
    int seen[MAX_COINS] = {0};
    for (long c = 0; c < nc; c++)
        if (s->where[c] == MIDDLE)
            seen[c]++;
    for (long p = 0; p < n; p++)
        for (long i = 0; i < s->take_len[p]; i++) {
            long c = s->takes[p][i];
            if (seen[c]++)
                return "a coin was created or lost";
            s->where[c] = (int8_t)p;
            s->slot[c] = (uint8_t)(i + 1);
        }
    for (long c = 0; c < nc; c++)
        if (seen[c] != 1)
            return "a coin was created or lost";
    int16_t sorted[MAX_COINS];
    memcpy(sorted, s->values, sizeof(int16_t) * (size_t)nc);
    for (long i = 1; i < nc; i++)           /* insertion sort: a few dozen coins */
        for (long j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int16_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    if (memcmp(sorted, g->coin_values, sizeof(int16_t) * (size_t)nc) != 0)
        return "coin values changed";
    long counts[NUM_CARDS] = {0}, draw_counts[NUM_CARDS] = {0};
    for (long i = 0; i < s->draw_len; i++) {
        counts[s->draw[i]]++;
        draw_counts[s->draw[i]]++;
    }
    for (long i = 0; i < s->discard_len; i++)
        counts[s->discard[i]]++;
    for (long p = 0; p < n; p++) {
        long total = 0;
        for (long k = 0; k < NUM_CARDS; k++) {
            counts[k] += s->hands[p][k];
            total += s->hands[p][k];
        }
        if (total > g->hand_size)
            return "a hand above the hand size";
        s->hand_total[p] = (uint8_t)total;
    }
    for (long k = 0; k < NUM_CARDS; k++)
        if (counts[k] != g->copies[k])
            return "a card was created or lost";
    /* hands are refilled at once: every hand full, but the actor's while its card is
     * pending (one short) */
    for (long p = 0; p < n; p++)
        if (s->hand_total[p] != g->hand_size - (s->phase != CHOOSE && p == s->actor))
            return "hands: a hand that is not full (the actor's is one short while its "
                   "card is pending)";
    int any_reshuffled = 0;
    for (long k = 0; k < NUM_CARDS; k++) {
        if (s->reshuffled[k] > g->copies[k])
            return "reshuffled: more copies of a card than the deck holds";
        any_reshuffled |= s->reshuffled[k] != 0;
    }
    if (any_reshuffled)
        for (long k = 0; k < NUM_CARDS; k++)
            if (draw_counts[k] > s->reshuffled[k])
                return "draw_pile holds cards that were not reshuffled";
    for (long p = 0; p < n; p++)
        for (long i = 0; i < s->take_len[p]; i++)
            if (!(s->knowers[s->takes[p][i]] >> p & 1))
                return "knowers: a coin in a take is unknown to its holder";
    int finished = 1;
    for (long p = 0; p < n; p++)
        finished &= s->take_len[p] == g->limit;
    s->finished = (int8_t)finished;
    /* the pending card */
    if (s->phase == CHOOSE) {
        if (s->card != -1 || s->num_chosen || s->num_queue)
            return "a pending card outside its target or block phase";
        return NULL;
    }
    if (s->finished)
        return "a card pending after the game ended";
    if (s->card < 0 || s->card == HANDS_OFF)
        return "card: not a card with targets";
    if (!s->discard_len || s->discard[s->discard_len - 1] != s->card)
        return "card: the pending card is not on top of the discard pile";
    facts played;          /* the table as it was when the card was played */
    choice_facts(g, s, &played);
    if (!can_play(s->card, &played))
        return "card: a card the actor could not have played";
    long steps = TARGET_STEPS[s->card];
    sw_state *probe = PyMem_Malloc(sizeof(sw_state));
    if (probe == NULL)
        return "out of memory";
    memcpy(probe, s, sizeof(sw_state));
    probe->num_chosen = 0;
    const char *why = NULL;
    for (long i = 0; i < s->num_chosen && i < steps && !why; i++) {
        uint8_t list[MAX_COINS];
        int is_seat;
        long k = target_choices(g, probe, &is_seat, list), found = 0;
        for (long j = 0; j < k; j++)
            found |= list[j] == s->chosen[i];
        if (!found)
            why = "chosen: a target is not a legal target";
        probe->chosen[probe->num_chosen++] = s->chosen[i];
    }
    if (!why) {
        long me = s->actor;
        if (s->card == BLOW && s->num_chosen >= 2) {
            if (!(s->knowers[s->chosen[0]] >> me & 1) || !(s->knowers[s->chosen[1]] >> me & 1))
                why = "a looked-at coin unknown";
        } else if (s->card == LAND_HO && s->num_chosen >= 1) {
            if (!(s->knowers[s->chosen[0]] >> me & 1))
                why = "a looked-at coin unknown";
        }
    }
    if (!why && s->phase == TARGET) {
        if (!(s->num_chosen < steps && s->num_queue == 0))
            why = "target phase: every target chosen, or a block queue";
    } else if (!why) {
        if (s->num_chosen != steps) {
            why = "chosen: blocking before every target";
        } else {
            int8_t q[MAX_OPPONENTS];
            long k = touched(g, probe, q);
            if (!(s->num_queue && s->num_queue <= k
                  && memcmp(s->queue, q + (k - s->num_queue), (size_t)s->num_queue) == 0))
                why = "block_queue: not the touched opponents still to be asked, in turn order";
        }
    }
    PyMem_Free(probe);
    return why;
}


static const char *const FIELDS[] = {
    "values", "face_up", "middle", "takes", "knowers", "hands", "draw_pile", "discard",
    "reshuffled", "actor", "phase", "card", "chosen", "block_queue", "turns", "rng",
};
#define NUM_FIELDS 16

/* _load_state and validate: ``data`` (a to_dict()) into ``s`` */
static int load_state(const rules *g, PyObject *data, sw_state *s)
{
    if (!PyDict_Check(data)) {
        PyErr_Format(InvalidStateError, "scallywags_v0 state: expected an object, got %.80s",
                     Py_TYPE(data)->tp_name);
        return -1;
    }
    if (PyDict_GET_SIZE(data) != NUM_FIELDS) {
        PyErr_Format(InvalidStateError, "scallywags_v0 state: expected the fields %s, ...",
                     FIELDS[0]);
        return -1;
    }
    PyObject *f[NUM_FIELDS];
    for (int i = 0; i < NUM_FIELDS; i++)
        if ((f[i] = get_key(data, FIELDS[i])) == NULL)
            return -1;
    memset(s, 0, sizeof(*s));
    long nc = g->num_coins, n = g->n, buf[MAX_DECK];
    long ncards = g->total_cards;
    if (read_list(f[0], "values", nc, 0, g->min_value, g->max_value, buf) < 0)
        return -1;
    for (long c = 0; c < nc; c++)
        s->values[c] = (int16_t)buf[c];
    /* face_up: bools */
    if (!PyList_Check(f[1]) || PyList_GET_SIZE(f[1]) != nc)
        return bad_state("expected a list of one bool per coin", "face_up");
    for (long c = 0; c < nc; c++) {
        PyObject *b = PyList_GET_ITEM(f[1], c);
        if (!PyBool_Check(b))
            return bad_state("expected a bool", "face_up");
        s->face_up[c] = b == Py_True;
    }
    long k = read_list(f[2], "middle", -1, nc, 0, nc - 1, buf);
    if (k < 0)
        return -1;
    for (long c = 0; c < nc; c++)
        s->where[c] = -2;            /* nowhere yet */
    for (long i = 0; i < k; i++) {
        if (i > 0 && buf[i] <= buf[i - 1])
            return bad_state("coin ids are kept ascending, each once", "middle");
        s->where[buf[i]] = MIDDLE;
    }
    if (!PyList_Check(f[3]) || PyList_GET_SIZE(f[3]) != n)
        return bad_state("expected a list of one take per seat", "takes");
    for (long p = 0; p < n; p++) {
        long len = read_list(PyList_GET_ITEM(f[3], p), "takes", -1, g->limit, 0, nc - 1, buf);
        if (len < 0)
            return -1;
        for (long i = 0; i < len; i++)
            s->takes[p][i] = (uint8_t)buf[i];
        s->take_len[p] = (uint8_t)len;
    }
    if (read_list(f[4], "knowers", nc, 0, 0, (1 << n) - 1, buf) < 0)
        return -1;
    for (long c = 0; c < nc; c++)
        s->knowers[c] = (uint8_t)buf[c];
    if (!PyList_Check(f[5]) || PyList_GET_SIZE(f[5]) != n)
        return bad_state("expected a list of one hand per seat", "hands");
    for (long p = 0; p < n; p++) {
        if (read_list(PyList_GET_ITEM(f[5], p), "hands", NUM_CARDS, 0, 0, g->hand_size,
                      buf) < 0)
            return -1;
        for (long kind = 0; kind < NUM_CARDS; kind++)
            s->hands[p][kind] = (uint8_t)buf[kind];
    }
    k = read_list(f[6], "draw_pile", -1, ncards, 0, NUM_CARDS - 1, buf);
    if (k < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->draw[i] = (uint8_t)buf[i];
    s->draw_len = (int16_t)k;
    k = read_list(f[7], "discard", -1, ncards, 0, NUM_CARDS - 1, buf);
    if (k < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->discard[i] = (uint8_t)buf[i];
    s->discard_len = (int16_t)k;
    if (read_list(f[8], "reshuffled", NUM_CARDS, 0, 0, ncards, buf) < 0)
        return -1;
    for (long kind = 0; kind < NUM_CARDS; kind++)
        s->reshuffled[kind] = (int16_t)buf[kind];
    long long v;
    if (read_int(f[9], "actor", 0, n - 1, &v) < 0)
        return -1;
    s->actor = (int8_t)v;
    s->phase = -1;
    if (PyUnicode_Check(f[10]))
        for (int p = 0; p < NUM_PHASES; p++)
            if (PyUnicode_CompareWithASCIIString(f[10], PHASE_NAMES[p]) == 0)
                s->phase = (int8_t)p;
    if (s->phase < 0)
        return bad_state("expected 'choose', 'target' or 'block'", "phase");
    if (read_int(f[11], "card", -1, NUM_CARDS - 1, &v) < 0)
        return -1;
    s->card = (int8_t)v;
    k = read_list(f[12], "chosen", -1, 4, 0, (nc > n ? nc : n) - 1, buf);
    if (k < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->chosen[i] = (int16_t)buf[i];
    s->num_chosen = (int8_t)k;
    k = read_list(f[13], "block_queue", -1, n - 1, 0, n - 1, buf);
    if (k < 0)
        return -1;
    for (long i = 0; i < k; i++)
        s->queue[i] = (int8_t)buf[i];
    s->num_queue = (int8_t)k;
    if (read_int(f[14], "turns", 0, MAX_TURNS_SAVED, &v) < 0)
        return -1;
    s->turns = v;
    if (read_rng(f[15], &s->rng) < 0)
        return -1;
    /* a seat in the block queue or a chosen seat must be a seat the rules can touch:
     * check_state's replay checks them; chosen coins and seats index tables of nc >= n
     * entries */
    const char *why = check_state(g, s);
    if (why) {
        PyErr_Format(InvalidStateError, "scallywags_v0 state breaks the rules: %s", why);
        return -1;
    }
    return 0;
}

static PyObject *state_to_dict(const rules *g, const sw_state *s)
{
    long nc = g->num_coins, n = g->n;
    PyObject *d = PyDict_New(), *v;
    if (d == NULL)
        return NULL;
    INT_LIST(v, nc, s->values[i]);
    if (set_item(d, "values", v) < 0)
        goto fail;
    v = PyList_New(nc);
    for (long c = 0; v && c < nc; c++) {
        PyObject *b = s->face_up[c] ? Py_True : Py_False;
        Py_INCREF(b);
        PyList_SET_ITEM(v, c, b);
    }
    if (set_item(d, "face_up", v) < 0)
        goto fail;
    long mid[MAX_COINS], k = 0;
    for (long c = 0; c < nc; c++)
        if (s->where[c] == MIDDLE)
            mid[k++] = c;
    INT_LIST(v, k, mid[i]);
    if (set_item(d, "middle", v) < 0)
        goto fail;
    v = PyList_New(n);
    for (long p = 0; v && p < n; p++) {
        PyObject *t;
        INT_LIST(t, s->take_len[p], s->takes[p][i]);
        if (t == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, p, t);
    }
    if (set_item(d, "takes", v) < 0)
        goto fail;
    INT_LIST(v, nc, s->knowers[i]);
    if (set_item(d, "knowers", v) < 0)
        goto fail;
    v = PyList_New(n);
    for (long p = 0; v && p < n; p++) {
        PyObject *t;
        INT_LIST(t, NUM_CARDS, s->hands[p][i]);
        if (t == NULL) {
            Py_CLEAR(v);
            break;
        }
        PyList_SET_ITEM(v, p, t);
    }
    if (set_item(d, "hands", v) < 0)
        goto fail;
    INT_LIST(v, s->draw_len, s->draw[i]);
    if (set_item(d, "draw_pile", v) < 0)
        goto fail;
    INT_LIST(v, s->discard_len, s->discard[i]);
    if (set_item(d, "discard", v) < 0)
        goto fail;
    INT_LIST(v, NUM_CARDS, s->reshuffled[i]);
    if (set_item(d, "reshuffled", v) < 0)
        goto fail;
    if (set_item(d, "actor", PyLong_FromLong(s->actor)) < 0
            || set_item(d, "phase", PyUnicode_FromString(PHASE_NAMES[s->phase])) < 0
            || set_item(d, "card", PyLong_FromLong(s->card)) < 0)
        goto fail;
    INT_LIST(v, s->num_chosen, s->chosen[i]);
    if (set_item(d, "chosen", v) < 0)
        goto fail;
    INT_LIST(v, s->num_queue, s->queue[i]);
    if (set_item(d, "block_queue", v) < 0)
        goto fail;
    if (set_item(d, "turns", PyLong_FromLongLong(s->turns)) < 0
            || set_item(d, "rng", rng_to_py(&s->rng)) < 0)
        goto fail;
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

/* ScallywagsView's fields, in order (view.py): State.view fills them, Encoder reads them */
enum {
    V_PLAYER, V_NUM_PLAYERS, V_TAKE_LIMIT, V_COIN_VALUES, V_FACE_UP, V_COIN_OWNER,
    V_COIN_SLOT, V_KNOWERS, V_HAND, V_HAND_SIZES, V_DISCARD, V_RESHUFFLED, V_DRAW_SIZE,
    V_ACTOR, V_PHASE, V_CARD, V_CHOSEN, V_BLOCK_QUEUE, V_ACTING, V_TURNS, V_COUNT
};
static const char *const VIEW_FIELDS[V_COUNT] = {
    "player", "num_players", "take_limit", "coin_values", "face_up", "coin_owner",
    "coin_slot", "knowers", "hand", "hand_sizes", "discard", "reshuffled", "draw_size",
    "actor", "phase", "card", "chosen", "block_queue", "acting", "turns",
};

/* -- the Engine type ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    rules g;
    sw_enc enc;
    PyObject *view_cls;            /* ScallywagsView */
    PyObject *phases;              /* the phase strs (engine.PHASES) */
    int ready;
} Engine;

static PyTypeObject EngineType, StateType;

typedef struct {
    PyObject_HEAD
    Engine *engine;
    sw_state s;
} State;

static int Engine_init(Engine *e, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "take_limit", "coin_values", "card_copies",
                             "hand_size", "face_up_probability", "num_actions",
                             "encoder_params", "view_cls", "phases", NULL};
    PyObject *values, *copies, *enc_params, *view_cls, *phases;
    long n, limit, hand, num_actions;
    double p;
    e->ready = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "llOOldlOOO:Engine", kwlist, &n, &limit,
                                     &values, &copies, &hand, &p, &num_actions, &enc_params,
                                     &view_cls, &phases))
        return -1;
    rules *g = &e->g;
    memset(g, 0, sizeof(*g));
    Py_ssize_t nc, nk;
    long *vals = ce_longs_new(values, "coin_values", &nc);
    if (vals == NULL)
        return -1;
    long *cps = ce_longs_new(copies, "card_copies", &nk);
    if (cps == NULL) {
        PyMem_Free(vals);
        return -1;
    }
    int ok = n >= 2 && n <= MAX_PLAYERS && limit >= 1 && limit < MAX_TAKE && nc >= 1
        && nc <= MAX_COINS && n * limit <= nc && nk == NUM_CARDS && hand >= 1
        && hand <= MAX_HAND && p >= 0.0 && p <= 1.0;
    long total = 0;
    for (Py_ssize_t i = 0; ok && i < nc; i++)
        ok = vals[i] >= 0 && vals[i] <= 30000 && (i == 0 || vals[i] >= vals[i - 1]);
    for (Py_ssize_t k = 0; ok && k < nk; k++) {
        ok = cps[k] >= 0 && cps[k] <= 255;
        total += cps[k];
    }
    ok = ok && total <= MAX_DECK && total >= n * hand;
    if (ok) {
        g->n = n;
        g->limit = limit;
        g->num_coins = nc;
        g->hand_size = hand;
        g->total_cards = total;
        g->face_up_p = p;
        for (Py_ssize_t i = 0; i < nc; i++)
            g->coin_values[i] = (int16_t)vals[i];
        for (Py_ssize_t k = 0; k < nk; k++)
            g->copies[k] = cps[k];
        g->min_value = vals[0];
        g->max_value = vals[nc - 1];
        g->a_play = 0;
        g->a_discard = NUM_CARDS;
        g->a_coin = 2 * NUM_CARDS;
        g->a_player = g->a_coin + nc;
        g->a_block = g->a_player + MAX_OPPONENTS;
        g->a_allow = g->a_block + 1;
        g->a_size = g->a_allow + 1;
        ok = g->a_size == num_actions;
    }
    PyMem_Free(vals);
    PyMem_Free(cps);
    if (!ok) {
        PyErr_SetString(InvalidArgumentError, "Engine: the game's components are outside "
                        "what the compiled engine holds (2-6 players, at most 256 coins, "
                        "1024 cards, takes of 63, hands of 32)");
        return -1;
    }
    if (!PyTuple_Check(enc_params)) {
        PyErr_SetString(PyExc_TypeError, "encoder_params: expected a tuple");
        return -1;
    }
    PyObject *enc_phases;
    if (sw_enc_init(&e->enc, enc_params, NULL, &enc_phases) < 0)
        return -1;
    if (e->enc.num_coins != nc || e->enc.num_cards != NUM_CARDS || e->enc.num_phases != NUM_PHASES
            || e->enc.seats < n || e->enc.take_limit != limit || e->enc.blow != BLOW
            || e->enc.yo_ho != YO_HO) {
        PyErr_SetString(PyExc_ValueError, "encoder_params: not this game's");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nc; i++)
        if (e->enc.value_index[g->coin_values[i]] < 0) {
            PyErr_SetString(PyExc_ValueError, "encoder_params: not this game's coin values");
            return -1;
        }
    if (!PyTuple_Check(phases) || PyTuple_GET_SIZE(phases) != NUM_PHASES) {
        PyErr_SetString(PyExc_TypeError, "phases: expected a tuple of 3 str");
        return -1;
    }
    for (int i = 0; i < NUM_PHASES; i++) {
        PyObject *ph = PyTuple_GET_ITEM(phases, i);
        if (!PyUnicode_Check(ph) || PyUnicode_CompareWithASCIIString(ph, PHASE_NAMES[i]) != 0) {
            PyErr_SetString(PyExc_ValueError, "phases: expected ('choose', 'target', 'block')");
            return -1;
        }
    }
    if (ce_check_record(view_cls, "view_cls", VIEW_FIELDS, V_COUNT) < 0)
        return -1;
    Py_INCREF(view_cls);
    Py_XSETREF(e->view_cls, view_cls);
    Py_INCREF(phases);
    Py_XSETREF(e->phases, phases);
    e->ready = 1;
    return 0;
}

static void Engine_dealloc(Engine *e)
{
    sw_enc_free(&e->enc);
    Py_XDECREF(e->view_cls);
    Py_XDECREF(e->phases);
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

static State *new_state(Engine *e)
{
    State *st = PyObject_New(State, &StateType);
    if (st == NULL)
        return NULL;
    Py_INCREF(e);
    st->engine = e;
    return st;
}

static PyObject *Engine_new_initial_state(Engine *e, PyObject *rng)
{
    if (!engine_ready(e))
        return NULL;
    pcg64 r;
    if (read_rng(rng, &r) < 0) {
        if (PyErr_ExceptionMatches(InvalidStateError)) {
            PyObject *t, *v, *tb;
            PyErr_Fetch(&t, &v, &tb);
            PyErr_Format(InvalidArgumentError, "new_initial_state: %S", v);
            Py_XDECREF(t);
            Py_XDECREF(v);
            Py_XDECREF(tb);
        }
        return NULL;
    }
    State *st = new_state(e);
    if (st == NULL)
        return NULL;
    st->s.rng = r;
    setup(&e->g, &st->s);
    return (PyObject *)st;
}

static int read_seed(PyObject *obj, uint64_t *seed)
{
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_SetString(InvalidArgumentError, "seed: expected an int within 0..2**64-1");
        return -1;
    }
    *seed = PyLong_AsUnsignedLongLong(obj);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(InvalidArgumentError, "seed: expected an int within 0..2**64-1");
        return -1;
    }
    return 0;
}

/* Game.new_game's second half: the state of numpy.random.default_rng(seed) */
static PyObject *Engine_rng_state(Engine *e, PyObject *seed_obj)
{
    uint64_t seed;
    if (read_seed(seed_obj, &seed) < 0)
        return NULL;
    pcg64 r;
    pcg_seed(&r, seed);
    return rng_to_py(&r);
}

static PyObject *Engine_new_game(Engine *e, PyObject *seed_obj)
{
    if (!engine_ready(e))
        return NULL;
    uint64_t seed;
    if (read_seed(seed_obj, &seed) < 0)
        return NULL;
    State *st = new_state(e);
    if (st == NULL)
        return NULL;
    pcg_seed(&st->s.rng, seed);
    setup(&e->g, &st->s);
    return (PyObject *)st;
}

static PyObject *Engine_from_dict(Engine *e, PyObject *data)
{
    if (!engine_ready(e))
        return NULL;
    State *st = new_state(e);
    if (st == NULL)
        return NULL;
    if (load_state(&e->g, data, &st->s) < 0) {
        Py_DECREF(st);
        return NULL;
    }
    return (PyObject *)st;
}

static PyMethodDef Engine_methods[] = {
    {"new_initial_state", (PyCFunction)Engine_new_initial_state, METH_O,
     "new_initial_state(rng_state): a new game drawn from a PCG64 state dict (as "
     "ScallywagsGame.new_initial_state with that generator)."},
    {"new_game", (PyCFunction)Engine_new_game, METH_O,
     "new_game(seed): new_initial_state(default_rng(seed)) (seed: an int)."},
    {"rng_state", (PyCFunction)Engine_rng_state, METH_O,
     "rng_state(seed): the PCG64 state dict of numpy.random.default_rng(seed)."},
    {"from_dict", (PyCFunction)Engine_from_dict, METH_O,
     "from_dict(data): a State from ScallywagsState.to_dict() (InvalidStateError if it is "
     "not a legal position)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.scallywags._engine.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(num_players, take_limit, coin_values, card_copies, hand_size, "
              "face_up_probability, num_actions, encoder_params, view_cls, phases): one "
              "Scallywags game's constants (ScallywagsGame.compiled_engine_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};

/* -- the State type ----------------------------------------------------------------------- */

static void State_dealloc(State *st)
{
    Py_XDECREF(st->engine);
    PyObject_Free(st);
}

static PyObject *State_to_dict(State *st, PyObject *unused)
{
    return state_to_dict(&st->engine->g, &st->s);
}

static PyObject *State_current_players(State *st, PyObject *unused)
{
    if (st->s.finished)
        return PyTuple_New(0);
    return Py_BuildValue("(l)", acting_seat(&st->s));
}

static PyObject *State_is_terminal(State *st, PyObject *unused)
{
    return PyBool_FromLong(st->s.finished);
}

static PyObject *State_turns(State *st, void *closure)
{
    return PyLong_FromLongLong(st->s.turns);
}

static int read_player(State *st, PyObject *obj, long *player)
{
    long long v;
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_SetString(InvalidArgumentError, "player: expected an int seat");
        return -1;
    }
    int overflow;
    v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || v < 0 || v >= st->engine->g.n) {
        PyErr_Format(InvalidArgumentError, "player: %R is not a seat of this game", obj);
        return -1;
    }
    *player = (long)v;
    return 0;
}

/* legal_actions_mask(player): int8 bytes over the action space, zeros for a player not
 * acting */
static PyObject *State_mask(State *st, PyObject *player_obj)
{
    long player;
    if (read_player(st, player_obj, &player) < 0)
        return NULL;
    const rules *g = &st->engine->g;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, g->a_size);
    if (out == NULL)
        return NULL;
    int8_t *mask = (int8_t *)PyByteArray_AS_STRING(out);
    memset(mask, 0, (size_t)g->a_size);
    if (!st->s.finished && acting_seat(&st->s) == player)
        fill_mask(g, &st->s, mask);
    return out;
}

/* apply_action(action): the acting player's action, checked against the mask */
static PyObject *State_apply(State *st, PyObject *action_obj)
{
    const rules *g = &st->engine->g;
    if (st->s.finished) {
        PyErr_SetString(InvalidArgumentError, "the game is over; no action can be applied");
        return NULL;
    }
    int8_t mask[MAX_COINS + 64] = {0};
    fill_mask(g, &st->s, mask);
    long long a = -1;
    int overflow = 0;
    if (PyLong_Check(action_obj) && !PyBool_Check(action_obj))
        a = PyLong_AsLongLongAndOverflow(action_obj, &overflow);
    if (overflow || a < 0 || a >= g->a_size || !mask[a]) {
        PyErr_Clear();
        engine_illegal(action_obj, mask, g->a_size, acting_seat(&st->s));
        return NULL;
    }
    apply_action(g, &st->s, (long)a);
    Py_RETURN_NONE;
}

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

/* view(player): the ScallywagsView python_view builds */
static PyObject *State_view(State *st, PyObject *player_obj)
{
    long player;
    if (read_player(st, player_obj, &player) < 0)
        return NULL;
    Engine *e = st->engine;
    const rules *g = &e->g;
    const sw_state *s = &st->s;
    sw_view v;
    view_rows r;
    plain_view(g, s, player, &v, &r);
    long nc = g->num_coins, queue[MAX_OPPONENTS];
    for (long i = 0; i < s->num_queue; i++)
        queue[i] = s->queue[i];
    PyObject *items[V_COUNT];
    items[V_PLAYER] = PyLong_FromLong(player);
    items[V_NUM_PLAYERS] = PyLong_FromLong(g->n);
    items[V_TAKE_LIMIT] = PyLong_FromLong(g->limit);
    items[V_COIN_VALUES] = long_tuple(r.values, nc);
    items[V_FACE_UP] = PyTuple_New(nc);
    for (long c = 0; items[V_FACE_UP] && c < nc; c++) {
        PyObject *b = s->face_up[c] ? Py_True : Py_False;
        Py_INCREF(b);
        PyTuple_SET_ITEM(items[V_FACE_UP], c, b);
    }
    items[V_COIN_OWNER] = long_tuple(r.owner, nc);
    items[V_COIN_SLOT] = long_tuple(r.slot, nc);
    items[V_KNOWERS] = long_tuple(r.knowers, nc);
    items[V_HAND] = long_tuple(r.hand, NUM_CARDS);
    items[V_HAND_SIZES] = long_tuple(r.hand_sizes, g->n);
    items[V_DISCARD] = long_tuple(r.discard, NUM_CARDS);
    items[V_RESHUFFLED] = long_tuple(r.reshuffled, NUM_CARDS);
    items[V_DRAW_SIZE] = PyLong_FromLong(s->draw_len);
    items[V_ACTOR] = PyLong_FromLong(s->actor);
    items[V_PHASE] = PyTuple_GET_ITEM(e->phases, s->phase);
    Py_INCREF(items[V_PHASE]);
    items[V_CARD] = PyLong_FromLong(s->card);
    items[V_CHOSEN] = long_tuple(r.chosen, s->num_chosen);
    items[V_BLOCK_QUEUE] = long_tuple(queue, s->num_queue);
    items[V_ACTING] = long_tuple(r.acting, v.num_acting);
    items[V_TURNS] = PyLong_FromLongLong(s->turns);
    PyObject *view = ((PyTypeObject *)e->view_cls)->tp_alloc((PyTypeObject *)e->view_cls, V_COUNT);
    for (int i = 0; i < V_COUNT; i++) {
        if (items[i] == NULL || view == NULL) {
            for (int j = 0; j < V_COUNT; j++)
                Py_XDECREF(items[j]);
            Py_XDECREF(view);
            return NULL;
        }
    }
    for (int i = 0; i < V_COUNT; i++)
        PyTuple_SET_ITEM(view, i, items[i]);
    return view;
}

/* encode_into(player, out): player's observation into ``out`` */
static PyObject *State_encode_into(State *st, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "encode_into(player, out) takes 2 arguments");
        return NULL;
    }
    long player;
    if (read_player(st, args[0], &player) < 0)
        return NULL;
    Engine *e = st->engine;
    Py_buffer buf;
    if (ce_out(args[1], e->enc.size, &buf) < 0)
        return NULL;
    sw_view v;
    view_rows r;
    plain_view(&e->g, &st->s, player, &v, &r);
    sw_write(&e->enc, &v, buf.buf);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
}

static PyObject *State_scores(State *st, PyObject *unused)
{
    double sc[MAX_PLAYERS];
    scores(&st->engine->g, &st->s, sc);
    PyObject *out = PyList_New(st->engine->g.n);
    for (long p = 0; out && p < st->engine->g.n; p++) {
        PyObject *x = PyFloat_FromDouble(sc[p]);
        if (x == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, p, x);
    }
    return out;
}

/* rank_keys: the score alone, as GameState.rank_keys */
static PyObject *State_rank_keys(State *st, PyObject *unused)
{
    PyObject *sc = State_scores(st, NULL);
    if (sc == NULL)
        return NULL;
    for (Py_ssize_t p = 0; p < PyList_GET_SIZE(sc); p++) {
        PyObject *key = PyTuple_Pack(1, PyList_GET_ITEM(sc, p));
        if (key == NULL) {
            Py_DECREF(sc);
            return NULL;
        }
        PyList_SetItem(sc, p, key);
    }
    return sc;
}

static PyObject *State_clone(State *st, PyObject *unused)
{
    State *new = new_state(st->engine);
    if (new != NULL)
        new->s = st->s;
    return (PyObject *)new;
}

static PyObject *State_apply_joint(State *st, PyObject *joint);   /* after the Batch */

static PyMethodDef State_methods[] = {
    {"to_dict", (PyCFunction)State_to_dict, METH_NOARGS, "The state in to_dict() form."},
    {"current_players", (PyCFunction)State_current_players, METH_NOARGS,
     "The acting seat as a 1-tuple, () once the game is over."},
    {"is_terminal", (PyCFunction)State_is_terminal, METH_NOARGS, "Every take is full."},
    {"mask", (PyCFunction)State_mask, METH_O,
     "mask(player): the legal-action mask as int8 bytes (a bytearray)."},
    {"apply", (PyCFunction)State_apply, METH_O,
     "apply(action): the acting player's action (IllegalActionError if the mask forbids "
     "it)."},
    {"apply_joint", (PyCFunction)State_apply_joint, METH_O,
     "apply_joint({seat: action}): the acting player's action, as GameState.apply_joint."},
    {"view", (PyCFunction)State_view, METH_O, "view(player): the player's ScallywagsView."},
    {"encode_into", (PyCFunction)(void (*)(void))State_encode_into, METH_FASTCALL,
     "encode_into(player, out): the player's observation into a float32 vector."},
    {"scores", (PyCFunction)State_scores, METH_NOARGS, "Sum of coin values of each take."},
    {"rank_keys", (PyCFunction)State_rank_keys, METH_NOARGS, "(score,) per seat."},
    {"clone", (PyCFunction)State_clone, METH_NOARGS, "An independent copy."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef State_getset[] = {
    {"turns", (getter)State_turns, NULL, "Completed turns.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.scallywags._engine.State",
    .tp_basicsize = sizeof(State),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Scallywags position held in C (made by an Engine).",
    .tp_dealloc = (destructor)State_dealloc,
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

/* -- the Batch type (envs/core/engine_batch.h): the game's side -------------------------- */

#define BATCH_STATE sw_state
#define BATCH_ENGINE Engine
#define BATCH_ENGINE_TYPE EngineType
#define BATCH_MAX_SEATS MAX_PLAYERS
#define BATCH_KEY_LEN 1
#define BATCH_TYPE_NAME "plunder.envs.scallywags._engine.Batch"

static int batch_engine_ready(Engine *e) { return engine_ready(e); }
static long batch_num_players(const Engine *e) { return e->g.n; }
static long batch_num_actions(const Engine *e) { return e->g.a_size; }
static long batch_obs_size(const Engine *e) { return e->enc.size; }
static pcg64 *batch_rng(sw_state *s) { return &s->rng; }
static void batch_setup(const Engine *e, sw_state *s) { setup(&e->g, s); }
static int batch_finished(const sw_state *s) { return s->finished; }
static int64_t batch_turns(const sw_state *s) { return s->turns; }

static long batch_deciders(const Engine *e, const sw_state *s, long *seats)
{
    if (s->finished)
        return 0;
    seats[0] = acting_seat(s);
    return 1;
}

static void batch_observe(const Engine *e, const sw_state *s, long seat, int8_t *mask,
                          float *row)
{
    fill_mask(&e->g, s, mask);
    sw_view v;
    view_rows r;
    plain_view(&e->g, s, seat, &v, &r);
    sw_write(&e->enc, &v, row);
}

static void batch_apply(const Engine *e, sw_state *s, const long *seats,
                        const int64_t *actions, long k)
{
    apply_action(&e->g, s, (long)actions[0]);
}

static void batch_scores(const Engine *e, const sw_state *s, double *out)
{
    scores(&e->g, s, out);
}

/* the score alone, as GameState.rank_keys */
static long batch_rank_keys(const Engine *e, const sw_state *s, double *keys)
{
    scores(&e->g, s, keys);
    return e->g.n;
}

static PyObject *batch_wrap_state(Engine *e, const sw_state *s)
{
    State *st = new_state(e);
    if (st != NULL)
        st->s = *s;
    return (PyObject *)st;
}

#include "engine_batch.h"

static PyObject *State_apply_joint(State *st, PyObject *joint)
{
    return engine_apply_joint(st->engine, &st->s, joint);
}

/* -- the Encoder type: any ScallywagsView through the same writer ---------------------- */

/* ``Encoder(*observation.compiled_params(game, module))`` encodes a ScallywagsView (the
 * game's compiled encoder for Python states: Game.bind_compiled binds it as ``encode``).
 * ``encode_into(view, out)`` reads the view, by position (VIEW_FIELDS), into an
 * ``sw_view`` of plain numbers and writes it with ``sw_write`` (encode.h), the writer the
 * engine's own states use. Every item is checked: a wrong type raises TypeError, a value
 * outside its range (a seat, coin id, card, slot or value the game does not have) raises
 * ValueError naming the field, so no index computed from the view can fall outside its
 * block; after an error ``out`` holds zeros. encode_into checks that the view is a tuple
 * of V_COUNT items first, so the readers take its items with PyTuple_GET_ITEM; ints and
 * bools of one digit (all a real view holds) are read without a call on CPython 3.11
 * (int_of), anything else through the checked ce_long. It keeps no state besides its
 * constants. */

typedef struct {
    PyObject_HEAD
    sw_enc e;                      /* the constants (encode.h) */
    long *coins;                   /* scratch: the five per-coin rows of a view */
    PyObject *phases;              /* tuple of str: the "phase" one-hot's order */
    int ready;                     /* the constructor succeeded */
} Encoder;

/* ``obj`` as a C long, as ce_long: an int or bool of one digit (every value of a view) is
 * read directly on CPython 3.11; anything else goes through ce_long (big ints, __index__,
 * and its errors). */
static inline int int_of(PyObject *obj, const char *name, long *v)
{
    return ce_small_int(obj, v) ? 0 : ce_long(obj, name, v);
}

/* The ValueError of long_in: item ``index`` of ``name`` (the field itself when < 0). */
static int outside(const char *name, Py_ssize_t index, long v, long lo, long hi)
{
    if (index >= 0)
        PyErr_Format(PyExc_ValueError, "%s[%zd]: %ld is outside %ld..%ld", name, index, v,
                     lo, hi);
    else
        PyErr_Format(PyExc_ValueError, "%s: %ld is outside %ld..%ld", name, v, lo, hi);
    return -1;
}

/* A view item as a long within lo..hi (ValueError naming the field otherwise). */
static inline int long_in(PyObject *obj, const char *name, Py_ssize_t index, long lo,
                          long hi, long *v)
{
    if (int_of(obj, name, v) < 0)
        return -1;
    return *v < lo || *v > hi ? outside(name, index, *v, lo, hi) : 0;
}

/* A seat of the view (0..n-1). */
static int seat_in(PyObject *obj, const char *name, Py_ssize_t index, const sw_view *s,
                   long *v)
{
    return long_in(obj, name, index, 0, s->n - 1, v);
}

/* -- reading the view into an sw_view (every entry checked) ---------------------------- */

/* The five per-coin fields into ``rows`` (values, face_up, owner, slot, knowers). */
static int read_coins(const Encoder *enc, PyObject *view, sw_view *s, long *rows)
{
    const sw_enc *e = &enc->e;
    const long nc = e->num_coins;
    PyObject *values = ce_tuple_at(view, V_COIN_VALUES, nc, "coin_values");
    PyObject *face_up = ce_tuple_at(view, V_FACE_UP, nc, "face_up");
    PyObject *owner = ce_tuple_at(view, V_COIN_OWNER, nc, "coin_owner");
    PyObject *slot = ce_tuple_at(view, V_COIN_SLOT, nc, "coin_slot");
    PyObject *knowers = ce_tuple_at(view, V_KNOWERS, nc, "knowers");
    if (!values || !face_up || !owner || !slot || !knowers)
        return -1;
    long *v = rows, *up = rows + nc, *seat = rows + 2 * nc, *pos = rows + 3 * nc,
         *mask = rows + 4 * nc;
    const long all_seats = (1L << s->n) - 1;
    for (long c = 0; c < nc; c++) {
        if (long_in(PyTuple_GET_ITEM(values, c), "coin_values", c, -1, e->max_value,
                    &v[c]) < 0
                || long_in(PyTuple_GET_ITEM(face_up, c), "face_up", c, 0, 1, &up[c]) < 0
                || long_in(PyTuple_GET_ITEM(owner, c), "coin_owner", c, -1, s->n - 1,
                           &seat[c]) < 0
                || long_in(PyTuple_GET_ITEM(slot, c), "coin_slot", c, 0, e->take_limit,
                           &pos[c]) < 0
                || long_in(PyTuple_GET_ITEM(knowers, c), "knowers", c, 0, all_seats,
                           &mask[c]) < 0)
            return -1;
        if (v[c] >= 0 && e->value_index[v[c]] < 0) {
            PyErr_Format(PyExc_ValueError, "coin_values[%ld]: no coin has the value %ld", c,
                         v[c]);
            return -1;
        }
    }
    s->values = v;
    s->face_up = up;
    s->owner = seat;
    s->slot = pos;
    s->knowers = mask;
    return 0;
}

/* A tuple of one int per card kind into ``dst``. */
static int read_card_counts(const sw_enc *e, PyObject *view, int field, long *dst)
{
    const char *name = VIEW_FIELDS[field];
    PyObject *counts = ce_tuple_at(view, field, e->num_cards, name);
    if (counts == NULL)
        return -1;
    for (long k = 0; k < e->num_cards; k++)
        if (int_of(PyTuple_GET_ITEM(counts, k), name, &dst[k]) < 0)
            return -1;
    return 0;
}

/* hand, discard, reshuffled (into ``cards``: 3 rows of num_cards), hand_sizes (into
 * ``sizes``), draw_size. */
static int read_cards(const sw_enc *e, PyObject *view, sw_view *s, long *cards, long *sizes)
{
    const long K = e->num_cards;
    if (read_card_counts(e, view, V_HAND, cards) < 0
            || read_card_counts(e, view, V_DISCARD, cards + K) < 0
            || read_card_counts(e, view, V_RESHUFFLED, cards + 2 * K) < 0)
        return -1;
    s->hand = cards;
    s->discard = cards + K;
    s->reshuffled = cards + 2 * K;
    PyObject *tuple = ce_tuple_at(view, V_HAND_SIZES, s->n, "hand_sizes");
    if (tuple == NULL)
        return -1;
    for (long p = 0; p < s->n; p++)
        if (int_of(PyTuple_GET_ITEM(tuple, p), "hand_sizes", &sizes[p]) < 0)
            return -1;
    s->hand_sizes = sizes;
    return int_of(PyTuple_GET_ITEM(view, V_DRAW_SIZE), "draw_size", &s->draw_size);
}

/* actor, and acting as the distinct seats it names (into ``acting``: n entries). */
static int read_actor(PyObject *view, sw_view *s, long *acting)
{
    PyObject *item = ce_item(view, V_ACTOR, "actor");
    if (item == NULL || seat_in(item, "actor", -1, s, &s->actor) < 0)
        return -1;
    PyObject *tuple = ce_tuple_at(view, V_ACTING, -1, "acting");
    if (tuple == NULL)
        return -1;
    char named[SW_MAX_SEATS] = {0};
    s->num_acting = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
        long seat;
        if (seat_in(PyTuple_GET_ITEM(tuple, i), "acting", i, s, &seat) < 0)
            return -1;
        if (!named[seat]) {          /* a seat named twice is one to_act entry */
            named[seat] = 1;
            acting[s->num_acting++] = seat;
        }
    }
    s->acting = acting;
    return 0;
}

/* phase: its index among the game's phases. */
static int read_phase(const Encoder *enc, PyObject *view, sw_view *s)
{
    PyObject *phase = ce_item(view, V_PHASE, "phase");
    if (phase == NULL)
        return -1;
    if (!PyUnicode_Check(phase)) {
        PyErr_Format(PyExc_TypeError, "phase: expected a str, got %.100s",
                     Py_TYPE(phase)->tp_name);
        return -1;
    }
    PyObject *phases = enc->phases;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(phases); i++) {
        if (phase == PyTuple_GET_ITEM(phases, i)) {      /* the same (interned) str */
            s->phase = (long)i;
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(phases); i++) {
        int eq = PyUnicode_Compare(phase, PyTuple_GET_ITEM(phases, i));
        if (eq == -1 && PyErr_Occurred())
            return -1;
        if (eq == 0) {
            s->phase = (long)i;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "phase: %R is not one of %R", phase, phases);
    return -1;
}

/* card and chosen (into ``*chosen``: ``room`` entries there, else a new array the caller
 * frees), turns. The chosen targets are checked only with a card pending: coins, then
 * seats for Blow Me Down! and Yo Ho Ho!. */
static int read_pending(const sw_enc *e, PyObject *view, sw_view *s, long **chosen,
                        Py_ssize_t room)
{
    PyObject *item = ce_item(view, V_CARD, "card");
    if (item == NULL || long_in(item, "card", -1, -1, e->num_cards - 1, &s->card) < 0)
        return -1;
    PyObject *tuple = ce_tuple_at(view, V_CHOSEN, -1, "chosen");
    if (tuple == NULL)
        return -1;
    Py_ssize_t steps = PyTuple_GET_SIZE(tuple);
    s->num_chosen = (long)steps;
    s->chosen = *chosen;
    if (s->card >= 0) {
        if (steps > room) {
            *chosen = PyMem_Malloc(sizeof(long) * (size_t)steps);
            if (*chosen == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            s->chosen = *chosen;
        }
        Py_ssize_t coin_steps = s->card == e->blow ? 2 : s->card == e->yo_ho ? 1 : steps;
        for (Py_ssize_t i = 0; i < steps; i++) {
            PyObject *target = PyTuple_GET_ITEM(tuple, i);
            if (i < coin_steps ? long_in(target, "chosen", i, 0, e->num_coins - 1,
                                         &(*chosen)[i]) < 0
                               : seat_in(target, "chosen", i, s, &(*chosen)[i]) < 0)
                return -1;
        }
    }
    return int_of(PyTuple_GET_ITEM(view, V_TURNS), "turns", &s->turns);
}

/* -- the Encoder type ---------------------------------------------------------------------------- */

static PyObject *Encoder_encode_into(Encoder *enc, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode_into() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *view = args[0], *out = args[1];
    if (!enc->ready) {
        PyErr_SetString(PyExc_ValueError, "Encoder: not initialised");
        return NULL;
    }
    const sw_enc *e = &enc->e;
    if (ce_tuple(view, V_COUNT, "view") == NULL)
        return NULL;
    sw_view s;
    if (int_of(PyTuple_GET_ITEM(view, V_NUM_PLAYERS), "num_players", &s.n) < 0)
        return NULL;
    if (s.n < 1 || s.n > e->seats) {
        PyErr_Format(PyExc_ValueError, "num_players: %ld is outside 1..%ld", s.n, e->seats);
        return NULL;
    }
    if (seat_in(PyTuple_GET_ITEM(view, V_PLAYER), "player", -1, &s, &s.me) < 0
            || long_in(PyTuple_GET_ITEM(view, V_TAKE_LIMIT), "take_limit", -1, 1, LONG_MAX / 8,
                       &s.limit) < 0)
        return NULL;
    sw_offsets(&s);
    Py_buffer buf;
    if (ce_out(out, e->size, &buf) < 0)
        return NULL;
    long sizes[SW_MAX_SEATS], acting[SW_MAX_SEATS], few[8], *chosen = few;
    long *cards = PyMem_Malloc(sizeof(long) * (size_t)(3 * e->num_cards));
    int rc = cards == NULL ? (PyErr_NoMemory(), -1) : 0;
    if (rc == 0)
        rc = read_coins(enc, view, &s, enc->coins);
    if (rc == 0)
        rc = read_cards(e, view, &s, cards, sizes);
    if (rc == 0)
        rc = read_actor(view, &s, acting);
    if (rc == 0)
        rc = read_phase(enc, view, &s);
    if (rc == 0)
        rc = read_pending(e, view, &s, &chosen, 8);
    if (rc == 0)
        sw_write(e, &s, buf.buf);
    if (chosen != few)
        PyMem_Free(chosen);
    PyMem_Free(cards);
    PyBuffer_Release(&buf);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static int Encoder_init(Encoder *enc, PyObject *args, PyObject *kwds)
{
    PyObject *phases;
    enc->ready = 0;
    if (sw_enc_init(&enc->e, args, kwds, &phases) < 0)
        return -1;
    Py_INCREF(phases);
    Py_XSETREF(enc->phases, phases);
    PyMem_Free(enc->coins);
    enc->coins = PyMem_Malloc(sizeof(long) * (size_t)(5 * enc->e.num_coins));
    if (enc->coins == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    enc->ready = 1;
    return 0;
}

static void Encoder_dealloc(Encoder *e)
{
    sw_enc_free(&e->e);
    PyMem_Free(e->coins);
    Py_XDECREF(e->phases);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyMethodDef Encoder_methods[] = {
    {"encode_into", (PyCFunction)(void (*)(void))Encoder_encode_into, METH_FASTCALL,
     "encode_into(view, out): write the observation of ``view`` into ``out`` (a writable "
     "C-contiguous float32 vector of the layout's size)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.scallywags._engine.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Encoder(size, slices, num_coins, seats, num_cards, distinct_values, "
              "take_limit, hand_size, total_value, total_cards, inv_copies, phases, blow, yo_ho): "
              "the Scallywags observation encoder of one game (see "
              "observation.compiled_params).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Encoder_init,
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_methods = Encoder_methods,
};

/* -- the module --------------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "Scallywags' compiled engine: state, rules, view, encoder, JSON round trip, batches "
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
        {"VIEW_FIELDS", VIEW_FIELDS, V_COUNT},
        {"LAYOUT_FIELDS", LAYOUT_FIELDS, L_COUNT},
    };
    PyObject *m = ce_module_named(&module, "Engine", &EngineType, names, 2);
    if (m == NULL)
        return NULL;
    if (ce_add_type(m, "State", &StateType) < 0 || ce_add_type(m, "Batch", &BatchType) < 0
            || ce_add_type(m, "Encoder", &EncoderType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
