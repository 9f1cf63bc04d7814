/* The Batch type of the compiled game engines, written once: N games of one kind held in
 * C memory and stepped together without Python per step (envs/core/batch.py,
 * CompiledBatch, is its Python side).
 *
 * A game's engine module includes this after its own code, having defined:
 *
 *   BATCH_STATE, BATCH_ENGINE, BATCH_ENGINE_TYPE, BATCH_MAX_SEATS (most scoring seats),
 *   BATCH_KEY_LEN (the rank keys' length), BATCH_TYPE_NAME, and the functions
 *   batch_engine_ready, batch_num_players, batch_num_actions, batch_obs_size, batch_rng,
 *   batch_setup, batch_finished, batch_turns, batch_deciders, batch_observe, batch_apply,
 *   batch_scores, batch_rank_keys and batch_wrap_state (their contracts are below, where
 *   they are declared).
 *
 * Every pending decision of every table is one row of the caller's arrays: ``obs``
 * (float32), ``masks`` (int8), ``tables`` and ``seats`` (int64), tables in order and a
 * table's deciders in seat order (several for a simultaneous decision, all asked from
 * the same state: nothing is applied until each has chosen). ``reset`` and ``step``
 * return the number of rows written. A table whose game ended (or reached
 * ``max_turns``) gets its rewards (rank and win from the rank keys, as
 * envs/core/rewards.py; score from the scores) and at once a new game from its table
 * generator. Stepping runs with the GIL released and, when asked, split over threads
 * (each table is touched by one thread only; the threads are started once per batch and
 * sleep between steps). ``step(actions, hold)`` can leave some tables as they are.
 */
#ifndef PLUNDER_ENGINE_BATCH_H
#define PLUNDER_ENGINE_BATCH_H

#include <pthread.h>
#include <unistd.h>

/* the game's side */
static int batch_engine_ready(BATCH_ENGINE *e);                /* 1, or 0 with an exception */
static long batch_num_players(const BATCH_ENGINE *e);           /* agent seats */
static long batch_num_actions(const BATCH_ENGINE *e);
static long batch_obs_size(const BATCH_ENGINE *e);              /* the full observation row */
static pcg64 *batch_rng(BATCH_STATE *s);                         /* the game's generator */
static void batch_setup(const BATCH_ENGINE *e, BATCH_STATE *s);  /* a new game, rng seeded */
static int batch_finished(const BATCH_STATE *s);
static int64_t batch_turns(const BATCH_STATE *s);
/* the seats asked to decide now, in seat order (>= 1 while the game goes on) */
static long batch_deciders(const BATCH_ENGINE *e, const BATCH_STATE *s, long *seats);
/* ``seat``'s legal-action mask (``mask`` zeroed) and full observation row, from its view */
static void batch_observe(const BATCH_ENGINE *e, const BATCH_STATE *s, long seat,
                          int8_t *mask, float *row);
/* the deciders' joint action (seats[i] plays actions[i]), already checked */
static void batch_apply(const BATCH_ENGINE *e, BATCH_STATE *s, const long *seats,
                        const int64_t *actions, long k);
static void batch_scores(const BATCH_ENGINE *e, const BATCH_STATE *s, double *out);
/* rank keys of every scoring seat, agents first: keys[seat * BATCH_KEY_LEN + j]; returns
 * the number of scoring seats */
static long batch_rank_keys(const BATCH_ENGINE *e, const BATCH_STATE *s, double *keys);
static PyObject *batch_wrap_state(BATCH_ENGINE *e, const BATCH_STATE *s);

enum { REWARD_RANK, REWARD_WIN, REWARD_SCORE };
#define BATCH_MAX_THREADS 64

/* -- a pool of worker threads, started once per batch ------------------------------------
 * A step is split into parts (contiguous runs of tables); part 0 runs on the caller's
 * thread, parts 1.. on workers that sleep on a condition variable between steps (no
 * thread is started per step, and none spins). After a fork the child has none of the
 * parent's workers: the pool notices (its pid) and starts its own. */
typedef struct batch_pool batch_pool;
typedef void (*batch_job)(void *arg, long part);
typedef struct {
    batch_pool *pool;
    long part;
    unsigned long seen;            /* the last round it ran (or the round when it started) */
} batch_worker;
struct batch_pool {
    long size;                     /* workers running */
    pthread_t ids[BATCH_MAX_THREADS];
    batch_worker workers[BATCH_MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long round;           /* bumped for each job */
    long busy;                     /* workers still on the current job */
    int stop, ready;
    batch_job job;
    void *arg;
    pid_t pid;                     /* the process whose workers these are */
};

static void *batch_worker_main(void *p)
{
    batch_worker *w = p;
    batch_pool *pool = w->pool;
    unsigned long seen = w->seen;
    pthread_mutex_lock(&pool->mu);
    for (;;) {
        while (!pool->stop && pool->round == seen)
            pthread_cond_wait(&pool->go, &pool->mu);
        if (pool->stop)
            break;
        seen = pool->round;
        batch_job job = pool->job;
        void *arg = pool->arg;
        pthread_mutex_unlock(&pool->mu);
        job(arg, w->part);
        pthread_mutex_lock(&pool->mu);
        if (--pool->busy == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->mu);
    return NULL;
}

/* make sure ``want`` - 1 workers run (fewer if the system refuses threads: the caller
 * then runs their parts itself) */
static void batch_pool_grow(batch_pool *pool, long want)
{
    if (pool->ready && pool->pid != getpid()) {
        pool->ready = 0;           /* a forked child: the parent's workers are not here */
        pool->size = 0;
    }
    if (!pool->ready) {
        pthread_mutex_init(&pool->mu, NULL);
        pthread_cond_init(&pool->go, NULL);
        pthread_cond_init(&pool->done, NULL);
        pool->round = 0;
        pool->busy = 0;
        pool->stop = 0;
        pool->size = 0;
        pool->pid = getpid();
        pool->ready = 1;
    }
    while (pool->size < want - 1 && pool->size < BATCH_MAX_THREADS - 1) {
        batch_worker *w = &pool->workers[pool->size];
        w->pool = pool;
        w->part = pool->size + 1;
        w->seen = pool->round;     /* read here: a job posted before it runs is still new */
        if (pthread_create(&pool->ids[pool->size], NULL, batch_worker_main, w) != 0)
            break;
        pool->size++;
    }
}

/* job(arg, part) for part 0..parts-1, side by side; returns when all are done */
static void batch_pool_run(batch_pool *pool, long parts, batch_job job, void *arg)
{
    if (parts > 1)
        batch_pool_grow(pool, parts);
    if (parts <= 1 || pool->size == 0) {
        for (long p = 0; p < parts; p++)
            job(arg, p);
        return;
    }
    pthread_mutex_lock(&pool->mu);
    pool->job = job;
    pool->arg = arg;
    pool->busy = pool->size;
    pool->round++;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->mu);
    job(arg, 0);
    for (long p = pool->size + 1; p < parts; p++)   /* parts no worker took */
        job(arg, p);
    pthread_mutex_lock(&pool->mu);
    while (pool->busy > 0)
        pthread_cond_wait(&pool->done, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
}

static void batch_pool_stop(batch_pool *pool)
{
    if (!pool->ready)
        return;
    if (pool->pid == getpid()) {
        pthread_mutex_lock(&pool->mu);
        pool->stop = 1;
        pthread_cond_broadcast(&pool->go);
        pthread_mutex_unlock(&pool->mu);
        for (long t = 0; t < pool->size; t++)
            pthread_join(pool->ids[t], NULL);
        pthread_mutex_destroy(&pool->mu);
        pthread_cond_destroy(&pool->go);
        pthread_cond_destroy(&pool->done);
    }
    pool->ready = 0;
    pool->size = 0;
}

typedef struct {
    PyObject_HEAD
    BATCH_ENGINE *engine;
    long n_tables, max_turns, reward_mode, players, actions, threads;
    BATCH_STATE *states;
    BATCH_STATE *ended;            /* each table's last finished (or cut) game */
    pcg64 *table_rngs;             /* each table's generator (new games come from it) */
    uint64_t *generation;          /* games started on each table */
    long *first_row;               /* each table's first decision row (n_tables + 1) */
    long *counts;                  /* each table's decisions (rows) */
    long *deciders;                /* each table's deciders, P slots a table */
    int64_t *act_buf;              /* a step's actions, copied before the GIL is released */
    uint8_t *hold_buf;             /* a step's held tables, likewise */
    /* the caller's arrays, held for the batch's life */
    Py_buffer obs, masks, tables, seats, rewards, term, trunc;
    int have_buffers;
    long obs_width;                /* full layout size, or the kept columns' count */
    Py_ssize_t *kept;              /* the full row's columns kept, or NULL */
    float *full_rows;              /* one full row per thread, when columns are dropped */
    long rows;                     /* decision rows written by the last reset/step */
    const float *prev_obs;         /* during a step given a new obs array: the old one (held
                                    * tables' rows are copied from it), else NULL */
    batch_pool pool;
} Batch;

static PyTypeObject BatchType;

static void Batch_release(Batch *b)
{
    if (b->have_buffers) {
        PyBuffer_Release(&b->obs);
        PyBuffer_Release(&b->masks);
        PyBuffer_Release(&b->tables);
        PyBuffer_Release(&b->seats);
        PyBuffer_Release(&b->rewards);
        PyBuffer_Release(&b->term);
        PyBuffer_Release(&b->trunc);
        b->have_buffers = 0;
    }
}

static void Batch_free_tables(Batch *b)
{
    PyMem_Free(b->states);
    PyMem_Free(b->ended);
    PyMem_Free(b->table_rngs);
    PyMem_Free(b->generation);
    PyMem_Free(b->first_row);
    PyMem_Free(b->counts);
    PyMem_Free(b->deciders);
    PyMem_Free(b->act_buf);
    PyMem_Free(b->hold_buf);
    b->act_buf = NULL;
    b->hold_buf = NULL;
    b->states = b->ended = NULL;
    b->table_rngs = NULL;
    b->generation = NULL;
    b->first_row = b->counts = b->deciders = NULL;
}

static void Batch_dealloc(Batch *b)
{
    batch_pool_stop(&b->pool);
    Batch_release(b);
    Batch_free_tables(b);
    PyMem_Free(b->kept);
    PyMem_Free(b->full_rows);
    Py_XDECREF(b->engine);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

/* final rewards of a finished (or cut) game into ``out`` (the agent seats) */
static void batch_final_rewards(const Batch *b, const BATCH_STATE *s, float *out)
{
    const BATCH_ENGINE *e = b->engine;
    if (b->reward_mode == REWARD_SCORE) {
        double sc[BATCH_MAX_SEATS];
        batch_scores(e, s, sc);
        for (long p = 0; p < b->players; p++)
            out[p] = (float)sc[p];
        return;
    }
    double keys[BATCH_MAX_SEATS * BATCH_KEY_LEN];
    long seats = batch_rank_keys(e, s, keys);
    for (long p = 0; p < b->players; p++) {
        long beaten = 0, beat_me = 0, best = 1;
        for (long q = 0; q < seats; q++) {
            if (q == p)
                continue;
            int cmp = 0;       /* tuple comparison of the keys */
            for (long j = 0; j < BATCH_KEY_LEN && cmp == 0; j++) {
                double x = keys[p * BATCH_KEY_LEN + j], y = keys[q * BATCH_KEY_LEN + j];
                cmp = x > y ? 1 : x < y ? -1 : 0;
            }
            beaten += cmp > 0;
            beat_me += cmp < 0;
            if (cmp < 0)
                best = 0;
        }
        if (b->reward_mode == REWARD_WIN)
            out[p] = best ? 1.0f : 0.0f;
        else
            out[p] = seats > 1 ? (float)((double)(beaten - beat_me) / (double)(seats - 1))
                               : 0.0f;
    }
}

static void batch_new_table_game(Batch *b, long i)
{
    uint64_t seed = integers64(&b->table_rngs[i], ((uint64_t)1 << 63) - 1);
    pcg_seed(batch_rng(&b->states[i]), seed);
    batch_setup(b->engine, &b->states[i]);
    b->generation[i]++;
}

/* A reset or a step, in two passes over the tables, each split into parts (contiguous
 * runs of tables) run side by side: first every table's move (``actions`` NULL: a new
 * game instead), its end and a new game where it ended, and who decides next (their
 * count per table); then, once every table's first row is known, each decider's mask and
 * observation written straight into its row of the caller's arrays. A held table
 * (``hold``) keeps its game and decisions; its rows are rewritten only if they moved. */
typedef struct {
    Batch *b;
    long parts;
    const int64_t *actions;         /* NULL: reset */
    const uint8_t *hold;            /* per table: leave it as it is (NULL: none) */
    long part_rows[BATCH_MAX_THREADS];
} batch_job_args;

static void batch_part_range(const Batch *b, long parts, long part, long *lo, long *hi)
{
    long per = (b->n_tables + parts - 1) / parts;
    *lo = part * per < b->n_tables ? part * per : b->n_tables;
    *hi = (part + 1) * per < b->n_tables ? (part + 1) * per : b->n_tables;
}

static void batch_move_part(void *arg, long part)
{
    batch_job_args *j = arg;
    Batch *b = j->b;
    if (part >= j->parts)
        return;
    const BATCH_ENGINE *e = b->engine;
    const long P = b->players;
    const int64_t *act = j->actions;
    float *rewards = b->rewards.buf;
    char *term = b->term.buf, *trunc = b->trunc.buf;
    long lo, hi, total = 0;
    batch_part_range(b, j->parts, part, &lo, &hi);
    for (long i = lo; i < hi; i++) {
        BATCH_STATE *s = &b->states[i];
        long *deciders = b->deciders + i * P;
        if (act == NULL) {
            batch_new_table_game(b, i);
        } else {
            memset(rewards + i * P, 0, sizeof(float) * (size_t)P);
            term[i] = trunc[i] = 0;
            if (j->hold != NULL && j->hold[i]) {
                total += b->counts[i];
                continue;
            }
            batch_apply(e, s, deciders, act + b->first_row[i], b->counts[i]);
            if (batch_finished(s))
                term[i] = 1;
            else if (batch_turns(s) >= b->max_turns)
                trunc[i] = 1;
            if (term[i] || trunc[i]) {
                batch_final_rewards(b, s, rewards + i * P);
                b->ended[i] = *s;
                batch_new_table_game(b, i);
            }
        }
        b->counts[i] = batch_deciders(e, s, deciders);
        total += b->counts[i];
    }
    j->part_rows[part] = total;
}

static void batch_observe_part(void *arg, long part)
{
    batch_job_args *j = arg;
    Batch *b = j->b;
    if (part >= j->parts)
        return;
    const BATCH_ENGINE *e = b->engine;
    const long P = b->players, A = b->actions, W = b->obs_width;
    int8_t *masks = b->masks.buf;
    float *obs = b->obs.buf;
    int64_t *tables = b->tables.buf, *seats = b->seats.buf;
    float *full_row = b->full_rows + part * batch_obs_size(e);
    long lo, hi, row = 0;
    batch_part_range(b, j->parts, part, &lo, &hi);
    for (long p = 0; p < part; p++)
        row += j->part_rows[p];
    for (long i = lo; i < hi; i++) {
        const long k = b->counts[i];
        const int moved = b->first_row[i] != row;
        b->first_row[i] = row;
        if (j->hold != NULL && j->hold[i] && j->actions != NULL && !moved) {
            if (b->prev_obs != NULL)        /* where they were, in the old obs array */
                memcpy(obs + row * W, b->prev_obs + row * W, sizeof(float) * (size_t)(k * W));
            row += k;               /* its rows are where they were */
            continue;
        }
        const BATCH_STATE *s = &b->states[i];
        for (long d = 0; d < k; d++, row++) {
            const long seat = b->deciders[i * P + d];
            int8_t *mask = masks + row * A;
            float *out = obs + row * W;
            tables[row] = i;
            seats[row] = seat;
            memset(mask, 0, (size_t)A);
            if (b->kept == NULL) {
                batch_observe(e, s, seat, mask, out);
            } else {
                batch_observe(e, s, seat, mask, full_row);
                for (long x = 0; x < W; x++)
                    out[x] = full_row[b->kept[x]];
            }
        }
    }
    if (part == j->parts - 1)       /* the last part ends at the last table */
        b->first_row[b->n_tables] = row;
}

/* reset (actions NULL) or step every table not held, split over b->threads parts.
 * Runs without the GIL. */
static void batch_run(Batch *b, const int64_t *actions, const uint8_t *hold)
{
    batch_job_args j;
    j.b = b;
    j.parts = b->threads < b->n_tables ? b->threads : b->n_tables;
    if (j.parts < 1)
        j.parts = 1;
    j.actions = actions;
    j.hold = hold;
    batch_pool_run(&b->pool, j.parts, batch_move_part, &j);
    batch_pool_run(&b->pool, j.parts, batch_observe_part, &j);
    long rows = 0;
    for (long p = 0; p < j.parts; p++)
        rows += j.part_rows[p];
    b->rows = rows;
}

/* Batch(engine, tables, obs, masks, table_of_row, seats, rewards, terminated, truncated,
 * max_turns, reward_mode, kept, threads=1): rows (obs, masks, table_of_row, seats) hold
 * tables * players decisions at most */
static int Batch_init(Batch *b, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"engine", "tables", "obs", "masks", "table_of_row", "seats",
                             "rewards", "terminated", "truncated", "max_turns", "reward_mode",
                             "kept", "threads", NULL};
    PyObject *engine, *obs, *masks, *tables, *seats, *rewards, *term, *trunc, *kept;
    Py_ssize_t n, threads = 1;
    long max_turns;
    const char *mode;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!nOOOOOOOlsO|n:Batch", kwlist,
                                     &BATCH_ENGINE_TYPE, &engine, &n, &obs, &masks, &tables,
                                     &seats, &rewards, &term, &trunc, &max_turns, &mode, &kept,
                                     &threads))
        return -1;
    BATCH_ENGINE *e = (BATCH_ENGINE *)engine;
    if (!batch_engine_ready(e))
        return -1;
    if (n < 1 || n > (1 << 24) || max_turns < 1) {
        PyErr_SetString(InvalidArgumentError, "Batch: tables must be 1..2**24, max_turns >= 1");
        return -1;
    }
    if (threads < 1 || threads > BATCH_MAX_THREADS) {
        PyErr_Format(InvalidArgumentError, "Batch: threads must be 1..%d, got %zd",
                     BATCH_MAX_THREADS, threads);
        return -1;
    }
    b->reward_mode = strcmp(mode, "rank") == 0 ? REWARD_RANK : strcmp(mode, "win") == 0
        ? REWARD_WIN : strcmp(mode, "score") == 0 ? REWARD_SCORE : -1;
    if (b->reward_mode < 0) {
        PyErr_Format(InvalidArgumentError, "reward_mode: %s is not rank, win or score", mode);
        return -1;
    }
    Batch_release(b);
    Batch_free_tables(b);
    PyMem_Free(b->kept);
    b->kept = NULL;
    const long size = batch_obs_size(e), P = batch_num_players(e), A = batch_num_actions(e);
    b->obs_width = size;
    if (kept != Py_None) {
        Py_ssize_t k;
        long *cols = ce_longs_new(kept, "kept", &k);
        if (cols == NULL)
            return -1;
        b->kept = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(k > 0 ? k : 1));
        int ok = b->kept != NULL;
        for (Py_ssize_t i = 0; ok && i < k; i++) {
            ok = cols[i] >= 0 && cols[i] < size;
            if (ok)
                b->kept[i] = cols[i];
        }
        PyMem_Free(cols);
        if (!ok) {
            PyErr_SetString(InvalidArgumentError, "kept: columns of the observation row");
            return -1;
        }
        b->obs_width = (long)k;
    }
    Py_ssize_t rows = n * P;
    Py_buffer *bufs[] = {&b->obs, &b->masks, &b->tables, &b->seats, &b->rewards, &b->term,
                         &b->trunc};
    PyObject *objs[] = {obs, masks, tables, seats, rewards, term, trunc};
    const char *names[] = {"obs", "masks", "table_of_row", "seats", "rewards", "terminated",
                           "truncated"};
    const char *fmts[] = {"f", "bb", "lq", "lq", "f", "?", "?"};
    const Py_ssize_t sizes[] = {4, 1, 8, 8, 4, 1, 1};
    const Py_ssize_t lens[] = {rows * b->obs_width, rows * A, rows, rows, n * P, n, n};
    for (int j = 0; j < 7; j++)
        if (get_array(objs[j], names[j], fmts[j], sizes[j], lens[j], bufs[j]) < 0) {
            while (--j >= 0)
                PyBuffer_Release(bufs[j]);
            return -1;
        }
    b->have_buffers = 1;
    b->states = PyMem_Calloc((size_t)n, sizeof(BATCH_STATE));
    b->ended = PyMem_Calloc((size_t)n, sizeof(BATCH_STATE));
    b->table_rngs = PyMem_Calloc((size_t)n, sizeof(pcg64));
    b->generation = PyMem_Calloc((size_t)n, sizeof(uint64_t));
    b->first_row = PyMem_Calloc((size_t)n + 1, sizeof(long));
    b->counts = PyMem_Calloc((size_t)n, sizeof(long));
    b->deciders = PyMem_Calloc((size_t)rows, sizeof(long));
    b->act_buf = PyMem_Calloc((size_t)rows, sizeof(int64_t));
    b->hold_buf = PyMem_Calloc((size_t)n, 1);
    PyMem_Free(b->full_rows);
    b->full_rows = PyMem_Calloc((size_t)(threads * size), sizeof(float));
    if (!b->states || !b->ended || !b->table_rngs || !b->generation || !b->first_row
            || !b->counts || !b->deciders || !b->act_buf || !b->hold_buf || !b->full_rows) {
        PyErr_NoMemory();
        return -1;
    }
    b->n_tables = (long)n;
    b->max_turns = max_turns;
    b->players = P;
    b->actions = A;
    b->threads = (long)threads;
    b->rows = 0;
    Py_INCREF(e);
    Py_XSETREF(b->engine, e);
    return 0;
}

static int batch_ready(Batch *b)
{
    if (b->engine == NULL || !b->have_buffers) {
        PyErr_SetString(InvalidArgumentError, "Batch: not initialised");
        return 0;
    }
    if (b->rows == 0 && b->generation[0] == 0) {
        PyErr_SetString(InvalidArgumentError, "Batch: reset() it before stepping");
        return 0;
    }
    return 1;
}

/* the caller's new obs array (``obj``: one of the batch's obs shape) into ``fresh``; 0 when
 * ``obj`` is None (the rows go to the obs array held), 1 when taken, -1 with an exception */
static int batch_new_obs(Batch *b, PyObject *obj, Py_buffer *fresh)
{
    if (obj == NULL || obj == Py_None)
        return 0;
    if (get_array(obj, "obs", "f", 4, b->n_tables * b->players * b->obs_width, fresh) < 0)
        return -1;
    return 1;
}

/* the new obs array (taken by batch_new_obs) held from now on, the old one released */
static void batch_swap_obs(Batch *b, Py_buffer *fresh)
{
    Py_buffer old = b->obs;
    b->obs = *fresh;
    PyBuffer_Release(&old);
}

/* reset(words, obs=None): each table's generator from a uint64 array [n, 4] of PCG64 states (state
 * high, state low, inc high, inc low); a new game on every table; returns the rows */
static PyObject *Batch_reset(Batch *b, PyObject *args)
{
    PyObject *words, *obs = Py_None;
    if (!PyArg_ParseTuple(args, "O|O:reset", &words, &obs))
        return NULL;
    if (b->engine == NULL || !b->have_buffers) {
        PyErr_SetString(InvalidArgumentError, "Batch: not initialised");
        return NULL;
    }
    Py_buffer w, fresh;
    if (PyObject_GetBuffer(words, &w, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (w.itemsize != 8 || w.len != b->n_tables * 32 || w.format == NULL
            || strchr("LQ", w.format[strlen(w.format) - 1]) == NULL) {
        PyBuffer_Release(&w);
        PyErr_Format(InvalidArgumentError, "reset: expected a uint64 array of shape (%ld, 4)",
                     b->n_tables);
        return NULL;
    }
    const uint64_t *x = w.buf;
    for (long i = 0; i < b->n_tables; i++)
        if (!(x[4 * i + 3] & 1)) {
            PyBuffer_Release(&w);
            PyErr_SetString(InvalidArgumentError, "reset: every increment must be odd (as "
                            "numpy's PCG64 states are)");
            return NULL;
        }
    const int have_obs = batch_new_obs(b, obs, &fresh);
    if (have_obs < 0) {
        PyBuffer_Release(&w);
        return NULL;
    }
    if (have_obs)
        batch_swap_obs(b, &fresh);
    for (long i = 0; i < b->n_tables; i++) {
        pcg64 *r = &b->table_rngs[i];
        r->state = ((u128)x[4 * i] << 64) | x[4 * i + 1];
        r->inc = ((u128)x[4 * i + 2] << 64) | x[4 * i + 3];
        r->has_uint32 = 0;
        r->uinteger = 0;
        b->generation[i] = 0;
    }
    PyBuffer_Release(&w);
    Py_BEGIN_ALLOW_THREADS
    batch_run(b, NULL, NULL);
    Py_END_ALLOW_THREADS
    memset(b->rewards.buf, 0, sizeof(float) * (size_t)(b->n_tables * b->players));
    memset(b->term.buf, 0, (size_t)b->n_tables);
    memset(b->trunc.buf, 0, (size_t)b->n_tables);
    return PyLong_FromLong(b->rows);
}

/* step(actions, hold=None, obs=None): one int64 action per decision row of the last
 * reset/step, in row order; ``hold`` (a bool array, one per table) names tables to leave
 * as they are: their decisions stay pending (still rows, in table order) and their rows'
 * actions are not read. ``obs``: a new array (the obs array's shape) the rows are written
 * into and held from then on (the held tables' rows copied into it), so that the old one
 * is never written again. Returns the new number of rows, or -1 - row for the first row
 * whose action its mask forbids (then nothing is applied, and ``obs`` is not taken). */
static PyObject *Batch_step(Batch *b, PyObject *args)
{
    PyObject *actions, *hold = Py_None, *obs = Py_None;
    if (!PyArg_ParseTuple(args, "O|OO:step", &actions, &hold, &obs))
        return NULL;
    if (!batch_ready(b))
        return NULL;
    const uint8_t *held = NULL;
    if (hold != Py_None) {
        Py_buffer h;
        if (PyObject_GetBuffer(hold, &h, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return NULL;
        const char *f = h.format ? h.format + strlen(h.format) - 1 : "B";
        if (h.itemsize != 1 || h.len != b->n_tables || f[0] != '?') {
            PyBuffer_Release(&h);
            PyErr_Format(InvalidArgumentError, "step: hold must be a bool array of %ld "
                         "values (one per table)", b->n_tables);
            return NULL;
        }
        memcpy(b->hold_buf, h.buf, (size_t)b->n_tables);
        PyBuffer_Release(&h);
        for (long i = 0; i < b->n_tables; i++)
            b->hold_buf[i] = b->hold_buf[i] != 0;
        held = b->hold_buf;
    }
    Py_buffer a;
    if (PyObject_GetBuffer(actions, &a, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    const char *f = a.format ? a.format + strlen(a.format) - 1 : "B";
    if (a.itemsize != 8 || a.len != b->rows * 8 || strchr("lq", f[0]) == NULL) {
        PyBuffer_Release(&a);
        PyErr_Format(InvalidArgumentError, "step: expected an int64 array of %ld actions (one "
                     "per decision row)", b->rows);
        return NULL;
    }
    /* copied: nothing another thread writes into the array can reach the rules */
    memcpy(b->act_buf, a.buf, sizeof(int64_t) * (size_t)b->rows);
    PyBuffer_Release(&a);
    const int64_t *act = b->act_buf;
    const int8_t *masks = (const int8_t *)b->masks.buf;
    const int64_t *table_of_row = (const int64_t *)b->tables.buf;
    for (long r = 0; r < b->rows; r++) {
        if (held != NULL && held[table_of_row[r]])
            continue;
        if (act[r] < 0 || act[r] >= b->actions || !masks[r * b->actions + act[r]])
            return PyLong_FromLong(-1 - r);
    }
    Py_buffer fresh, old;
    const int have_obs = batch_new_obs(b, obs, &fresh);
    if (have_obs < 0)
        return NULL;
    if (have_obs) {
        old = b->obs;
        b->obs = fresh;
        b->prev_obs = old.buf != fresh.buf ? old.buf : NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    batch_run(b, act, held);
    Py_END_ALLOW_THREADS
    if (have_obs) {
        b->prev_obs = NULL;
        PyBuffer_Release(&old);
    }
    return PyLong_FromLong(b->rows);
}

static int batch_table_index(Batch *b, PyObject *index, Py_ssize_t *i)
{
    if (!batch_ready(b))
        return -1;
    *i = PyNumber_AsSsize_t(index, PyExc_IndexError);
    if (*i == -1 && PyErr_Occurred())
        return -1;
    if (*i < 0 || *i >= b->n_tables) {
        PyErr_SetString(PyExc_IndexError, "Batch: no such table");
        return -1;
    }
    return 0;
}

/* state(i) / ended(i): a copy of table i's game, or of its last finished one */
static PyObject *Batch_state(Batch *b, PyObject *index)
{
    Py_ssize_t i;
    return batch_table_index(b, index, &i) < 0 ? NULL
                                                : batch_wrap_state(b->engine, &b->states[i]);
}

static PyObject *Batch_ended(Batch *b, PyObject *index)
{
    Py_ssize_t i;
    return batch_table_index(b, index, &i) < 0 ? NULL
                                                : batch_wrap_state(b->engine, &b->ended[i]);
}

/* generation(i): how many games table i has started (a new one after each end) */
static PyObject *Batch_generation(Batch *b, PyObject *index)
{
    Py_ssize_t i;
    return batch_table_index(b, index, &i) < 0 ? NULL
                                                : PyLong_FromUnsignedLongLong(b->generation[i]);
}

static PyObject *Batch_get_rows(Batch *b, void *closure)
{
    return PyLong_FromLong(b->rows);
}

static PyObject *Batch_get_threads(Batch *b, void *closure)
{
    return PyLong_FromLong(b->threads);
}

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_VARARGS,
     "reset(tables, obs=None): each table's generator from a uint64 [n, 4] array of PCG64 "
     "states (state high, low, inc high, low), a new game on each; returns the decision "
     "rows. ``obs``: a new array (the obs array's shape) to write the rows into and hold."},
    {"step", (PyCFunction)Batch_step, METH_VARARGS,
     "step(actions, hold=None, obs=None): one int64 action per decision row (rows of the "
     "tables ``hold`` names are left pending, their actions unread); the new number of "
     "rows, or -1 - row for the first illegal action (then nothing is applied). ``obs``: a "
     "new array (the obs array's shape) to write the rows into and hold from then on."},
    {"state", (PyCFunction)Batch_state, METH_O, "state(i): a copy of table i's game."},
    {"ended", (PyCFunction)Batch_ended, METH_O,
     "ended(i): a copy of table i's last finished (or cut) game, as it ended."},
    {"generation", (PyCFunction)Batch_generation, METH_O,
     "generation(i): games started on table i."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Batch_getset[] = {
    {"rows", (getter)Batch_get_rows, NULL, "decision rows written by the last reset/step",
     NULL},
    {"threads", (getter)Batch_get_threads, NULL, "threads a step is split over", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = BATCH_TYPE_NAME,
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(engine, tables, obs, masks, table_of_row, seats, rewards, terminated, "
              "truncated, max_turns, reward_mode, kept, threads=1): N games in C memory, "
              "writing every pending decision into the given arrays (envs/core/batch.py, "
              "CompiledBatch).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
};

/* State.apply_joint({seat: action}) of every engine, as GameState.apply_joint: every
 * current player's action, each checked against its mask (nothing applied otherwise) */
static PyObject *engine_apply_joint(BATCH_ENGINE *e, BATCH_STATE *s, PyObject *joint)
{
    if (batch_finished(s)) {
        PyErr_SetString(GameOverError, "the game is over; no action can be applied");
        return NULL;
    }
    long seats[BATCH_MAX_SEATS];
    int64_t actions[BATCH_MAX_SEATS];
    long k = batch_deciders(e, s, seats);
    int same = PyDict_Check(joint) && PyDict_GET_SIZE(joint) == k;
    for (long d = 0; same && d < k; d++) {
        PyObject *key = PyLong_FromLong(seats[d]);
        if (key == NULL)
            return NULL;
        same = PyDict_GetItemWithError(joint, key) != NULL;
        Py_DECREF(key);
        if (PyErr_Occurred())
            return NULL;
    }
    if (!same) {
        PyObject *acting = PyList_New(k);
        for (long d = 0; acting && d < k; d++)
            PyList_SET_ITEM(acting, d, PyLong_FromLong(seats[d]));
        if (acting != NULL)
            PyErr_Format(NotActingError, "expected actions from players %R, got %R", acting,
                         joint);
        Py_XDECREF(acting);
        return NULL;
    }
    const long A = batch_num_actions(e);
    int8_t *mask = PyMem_Malloc((size_t)A);
    float *row = PyMem_Malloc(sizeof(float) * (size_t)batch_obs_size(e));
    if (mask == NULL || row == NULL) {
        PyMem_Free(mask);
        PyMem_Free(row);
        return PyErr_NoMemory();
    }
    for (long d = 0; d < k; d++) {
        PyObject *key = PyLong_FromLong(seats[d]);
        PyObject *action = key ? PyDict_GetItem(joint, key) : NULL;
        Py_XDECREF(key);
        memset(mask, 0, (size_t)A);
        batch_observe(e, s, seats[d], mask, row);
        long long a = -1;
        int overflow = 0;
        if (action != NULL && PyLong_Check(action) && !PyBool_Check(action))
            a = PyLong_AsLongLongAndOverflow(action, &overflow);
        PyErr_Clear();
        if (action == NULL || overflow || a < 0 || a >= A || !mask[a]) {
            if (action != NULL)
                engine_illegal(action, mask, A, seats[d]);
            PyMem_Free(mask);
            PyMem_Free(row);
            return NULL;
        }
        actions[d] = a;
    }
    PyMem_Free(mask);
    PyMem_Free(row);
    batch_apply(e, s, seats, actions, k);
    Py_RETURN_NONE;
}

#endif /* PLUNDER_ENGINE_BATCH_H */
