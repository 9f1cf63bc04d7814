/* The shared machinery of the compiled game engines (envs/<game>/_engine.c): numpy's
 * random draws reproduced exactly, the project's errors, and the readers and writers of
 * a saved state's JSON values. Header-only: each engine module includes it once, after
 * defining ENGINE_ENV_ID (the env id its messages name, e.g. "scallywags_v0").
 *
 * Randomness is numpy's, bit for bit: PCG64 with its 32-bit half buffer, SeedSequence for
 * an int seed, Generator.permutation/shuffle (a Fisher-Yates shuffle over
 * random_interval), Generator.random, Generator.integers (Lemire's bounded draws) and
 * Generator.choice without replacement (Floyd's algorithm), so
 * a compiled state's generator gives the same numbers as the Python state's ``rng``, and
 * its saved form is numpy's PCG64 state dict.
 */
#ifndef PLUNDER_ENGINE_H
#define PLUNDER_ENGINE_H

#ifndef ENGINE_ENV_ID
#error "define ENGINE_ENV_ID (the env id the messages name) before including engine.h"
#endif

#include "cencode.h"
#include <stdint.h>

/* -- numpy's PCG64, SeedSequence and Generator draws -------------------------------------- */

typedef unsigned __int128 u128;
typedef struct {
    u128 state, inc;
    int has_uint32;
    uint32_t uinteger;
} pcg64;

#define PCG_MULT (((u128)0x2360ED051FC65DA4ULL << 64) | 0x4385DF649FCCF645ULL)

static inline uint64_t pcg_next64(pcg64 *r)
{
    r->state = r->state * PCG_MULT + r->inc;
    uint64_t hi = (uint64_t)(r->state >> 64), lo = (uint64_t)r->state;
    unsigned rot = (unsigned)(r->state >> 122);
    uint64_t x = hi ^ lo;
    return (x >> rot) | (x << ((-rot) & 63));
}

static inline uint32_t pcg_next32(pcg64 *r)
{
    if (r->has_uint32) {
        r->has_uint32 = 0;
        return r->uinteger;
    }
    uint64_t next = pcg_next64(r);
    r->has_uint32 = 1;
    r->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)next;
}

static inline double pcg_double(pcg64 *r)
{
    return (double)(pcg_next64(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Generator's random_interval: uniform in 0..max by masked rejection. */
static inline uint64_t random_interval(pcg64 *r, uint64_t max)
{
    if (max == 0)
        return 0;
    uint64_t mask = max, value;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    if (max <= 0xffffffffULL) {
        while ((value = (pcg_next32(r) & mask)) > max)
            ;
    } else {
        while ((value = (pcg_next64(r) & mask)) > max)
            ;
    }
    return value;
}

/* Generator.shuffle of a 1-d array (Generator.permutation copies then shuffles). */
static inline void shuffle_u8(pcg64 *r, uint8_t *a, long n)
{
    for (long i = n - 1; i >= 1; i--) {
        long j = (long)random_interval(r, (uint64_t)i);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static inline void shuffle_i16(pcg64 *r, int16_t *a, long n)
{
    for (long i = n - 1; i >= 1; i--) {
        long j = (long)random_interval(r, (uint64_t)i);
        int16_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Generator.integers(high) for 2 <= high <= 2**32 (Lemire's method on 32-bit draws). */
static inline uint32_t integers32(pcg64 *r, uint32_t high)
{
    const uint32_t rng_excl = high, rng = high - 1;
    uint64_t m = (uint64_t)pcg_next32(r) * rng_excl;
    uint32_t leftover = (uint32_t)m;
    if (leftover < rng_excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = (uint64_t)pcg_next32(r) * rng_excl;
            leftover = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Generator.integers(high) for 2**32 < high < 2**64 (Lemire's method on 64-bit draws). */
static inline uint64_t integers64(pcg64 *r, uint64_t high)
{
    const uint64_t rng_excl = high, rng = high - 1;
    u128 m = (u128)pcg_next64(r) * rng_excl;
    uint64_t leftover = (uint64_t)m;
    if (leftover < rng_excl) {
        const uint64_t threshold = (UINT64_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = (u128)pcg_next64(r) * rng_excl;
            leftover = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Generator.integers(high) for 1 <= high <= 2**32: integers32, and 0 without a draw for
 * high 1 (numpy draws nothing for a range of one value). */
static inline uint32_t integers32_from1(pcg64 *r, uint32_t high)
{
    return high <= 1 ? 0 : integers32(r, high);
}

/* Generator.choice(pop, size, replace=False) for 1 <= pop <= CHOICE_MAX_POP, 0 <= size <=
 * pop, into out[size]: numpy's Floyd's algorithm (each draw a bounded Lemire draw on 32
 * bits, none for a range of one value), then the chosen indices shuffled as numpy's
 * Generator._shuffle_int does (Lemire draws, not random_interval). numpy takes another
 * path (a tail shuffle) only for pop > 10000. */
#define CHOICE_MAX_POP 10000
static inline void choice_no_replace(pcg64 *r, long pop, long size, long *out)
{
    uint8_t chosen[CHOICE_MAX_POP];
    memset(chosen, 0, (size_t)pop);
    for (long j = pop - size; j < pop; j++) {
        long val = (long)integers32_from1(r, (uint32_t)(j + 1));
        if (!chosen[val]) {
            chosen[val] = 1;
            out[j - pop + size] = val;
        } else {
            chosen[j] = 1;
            out[j - pop + size] = j;
        }
    }
    for (long i = size - 1; i >= 1; i--) {
        long j = (long)integers32(r, (uint32_t)(i + 1));
        long t = out[j];
        out[j] = out[i];
        out[i] = t;
    }
}

/* numpy.random.default_rng(seed) for an int seed: SeedSequence(seed) feeding PCG64. */
static inline uint32_t hashmix(uint32_t value, uint32_t *hash_const)
{
    value ^= *hash_const;
    *hash_const *= 0x931e8875U;
    value *= *hash_const;
    value ^= value >> 16;
    return value;
}

static inline uint32_t mix(uint32_t x, uint32_t y)
{
    uint32_t result = 0xca01f9ddU * x - 0x4973f715U * y;
    result ^= result >> 16;
    return result;
}

static inline void pcg_seed_words(pcg64 *r, const uint64_t w[4])
{
    u128 initstate = ((u128)w[0] << 64) | w[1], initseq = ((u128)w[2] << 64) | w[3];
    r->state = 0;
    r->inc = (initseq << 1) | 1;
    r->state = r->state * PCG_MULT + r->inc;
    r->state += initstate;
    r->state = r->state * PCG_MULT + r->inc;
    r->has_uint32 = 0;
    r->uinteger = 0;
}

static inline void pcg_seed(pcg64 *r, uint64_t seed)
{
    uint32_t entropy[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int len = (seed >> 32) ? 2 : 1;
    uint32_t pool[4], h = 0x43b0d7e5U;
    for (int i = 0; i < 4; i++)
        pool[i] = hashmix(i < len ? entropy[i] : 0, &h);
    for (int src = 0; src < 4; src++)
        for (int dst = 0; dst < 4; dst++)
            if (src != dst)
                pool[dst] = mix(pool[dst], hashmix(pool[src], &h));
    uint32_t words[8], hb = 0x8b51f9ddU;
    for (int i = 0; i < 8; i++) {
        uint32_t v = pool[i % 4];
        v ^= hb;
        hb *= 0x58f38dedU;
        v *= hb;
        v ^= v >> 16;
        words[i] = v;
    }
    uint64_t w[4];
    for (int i = 0; i < 4; i++)
        w[i] = (uint64_t)words[2 * i] | ((uint64_t)words[2 * i + 1] << 32);
    pcg_seed_words(r, w);
}

static inline void shuffle_i32(pcg64 *r, int32_t *a, long n)
{
    for (long i = n - 1; i >= 1; i--) {
        long j = (long)random_interval(r, (uint64_t)i);
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static inline void shuffle_i64(pcg64 *r, int64_t *a, long n)
{
    for (long i = n - 1; i >= 1; i--) {
        long j = (long)random_interval(r, (uint64_t)i);
        int64_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* -- the project's errors (plunder.envs.core.errors) --------------------------------------- */

static PyObject *InvalidStateError, *InvalidArgumentError, *IllegalActionError;
static PyObject *NotActingError, *GameOverError;

/* Look the errors up (in the module's init); -1 with an exception on failure. */
static inline int engine_import_errors(void)
{
    PyObject *errors = PyImport_ImportModule("plunder.envs.core.errors");
    if (errors == NULL)
        return -1;
    InvalidStateError = PyObject_GetAttrString(errors, "InvalidStateError");
    InvalidArgumentError = PyObject_GetAttrString(errors, "InvalidArgumentError");
    IllegalActionError = PyObject_GetAttrString(errors, "IllegalActionError");
    NotActingError = PyObject_GetAttrString(errors, "NotActingError");
    GameOverError = PyObject_GetAttrString(errors, "GameOverError");
    Py_DECREF(errors);
    return InvalidStateError && InvalidArgumentError && IllegalActionError && NotActingError
        && GameOverError ? 0 : -1;
}

/* -- reading Python values (the JSON loader) ---------------------------------------------- */

static inline int bad_state(const char *fmt, const char *name)
{
    PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: %s", name, fmt);
    return -1;
}

/* an int (not a bool) within lo..hi */
static inline int read_int(PyObject *obj, const char *name, long long lo, long long hi, long long *v)
{
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: expected an int, got %.80s",
                     name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow;
    *v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (*v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || *v < lo || *v > hi) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: %R is outside %lld..%lld",
                     name, obj, lo, hi);
        return -1;
    }
    return 0;
}

/* a list of ints within lo..hi: exactly ``len`` of them (len >= 0) or at most ``max_len``;
 * into ``out`` as longs, the count returned (-1 on error) */
static inline long read_list(PyObject *obj, const char *name, long len, long max_len, long long lo,
                      long long hi, long *out)
{
    if (!PyList_Check(obj)) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: expected a list, got %.80s",
                     name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t k = PyList_GET_SIZE(obj);
    if ((len >= 0 && k != len) || (len < 0 && k > max_len)) {
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: %s: %zd entries, expected %s%ld",
                     name, k, len >= 0 ? "" : "at most ", len >= 0 ? len : max_len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long long v;
        if (read_int(PyList_GET_ITEM(obj, i), name, lo, hi, &v) < 0)
            return -1;
        out[i] = (long)v;
    }
    return (long)k;
}

static inline PyObject *get_key(PyObject *data, const char *key)
{
    PyObject *v = PyDict_GetItemString(data, key);
    if (v == NULL)
        PyErr_Format(InvalidStateError, ENGINE_ENV_ID " state: missing field %s", key);
    return v;
}

/* a non-negative int below 2**128 as two 64-bit halves */
static inline int read_u128(PyObject *obj, const char *name, u128 *out)
{
    if (!PyLong_Check(obj) || PyBool_Check(obj) || _PyLong_Sign(obj) < 0
            || _PyLong_NumBits(obj) > 128) {
        PyErr_Clear();
        return bad_state("expected an int within 0..2**128-1", name);
    }
    PyObject *shift = PyLong_FromLong(64);
    PyObject *hi_obj = shift ? PyNumber_Rshift(obj, shift) : NULL;
    Py_XDECREF(shift);
    if (hi_obj == NULL)
        return -1;
    uint64_t hi = PyLong_AsUnsignedLongLong(hi_obj);
    Py_DECREF(hi_obj);
    uint64_t lo = PyLong_AsUnsignedLongLongMask(obj);
    if (PyErr_Occurred())
        return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

static inline int read_rng(PyObject *data, pcg64 *r)
{
    if (!PyDict_Check(data))
        return bad_state("expected a saved numpy generator state", "rng");
    PyObject *name = PyDict_GetItemString(data, "bit_generator");
    if (name == NULL || !PyUnicode_Check(name)
            || PyUnicode_CompareWithASCIIString(name, "PCG64") != 0)
        return bad_state("the compiled engine draws with PCG64 only", "rng");
    PyObject *st = PyDict_GetItemString(data, "state");
    PyObject *has = PyDict_GetItemString(data, "has_uint32");
    PyObject *u = PyDict_GetItemString(data, "uinteger");
    if (st == NULL || !PyDict_Check(st) || has == NULL || u == NULL)
        return bad_state("expected state, has_uint32 and uinteger", "rng");
    PyObject *state = PyDict_GetItemString(st, "state"), *inc = PyDict_GetItemString(st, "inc");
    if (state == NULL || inc == NULL)
        return bad_state("expected state.state and state.inc", "rng");
    long long h, ui;
    if (read_u128(state, "rng.state.state", &r->state) < 0
            || read_u128(inc, "rng.state.inc", &r->inc) < 0
            || read_int(has, "rng.has_uint32", 0, 1, &h) < 0
            || read_int(u, "rng.uinteger", 0, UINT32_MAX, &ui) < 0)
        return -1;
    /* numpy's increments are odd: with an even one the generator can stick at a fixed
     * point, where a rejection loop would never end */
    if (!(r->inc & 1))
        return bad_state("the increment must be odd", "rng.state.inc");
    r->has_uint32 = (int)h;
    r->uinteger = (uint32_t)ui;
    return 0;
}

/* -- writing Python values ---------------------------------------------------------------- */

static inline PyObject *u128_to_py(u128 x)
{
    PyObject *hi = PyLong_FromUnsignedLongLong((uint64_t)(x >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((uint64_t)x);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *out = NULL;
    if (hi && lo && shift) {
        PyObject *t = PyNumber_Lshift(hi, shift);
        if (t) {
            out = PyNumber_Or(t, lo);
            Py_DECREF(t);
        }
    }
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    return out;
}

static inline PyObject *rng_to_py(const pcg64 *r)
{
    PyObject *state = u128_to_py(r->state), *inc = u128_to_py(r->inc);
    PyObject *out = NULL;
    if (state && inc)
        out = Py_BuildValue("{s:s,s:{s:O,s:O},s:i,s:k}", "bit_generator", "PCG64", "state",
                            "state", state, "inc", inc, "has_uint32", r->has_uint32,
                            "uinteger", (unsigned long)r->uinteger);
    Py_XDECREF(state);
    Py_XDECREF(inc);
    return out;
}

/* a list of ``k`` ints read by ``get(i)`` */
#define INT_LIST(out, k, expr)                                                        \
    do {                                                                              \
        out = PyList_New(k);                                                          \
        for (long i_ = 0; out && i_ < (k); i_++) {                                    \
            long i = i_;                                                              \
            PyObject *x_ = PyLong_FromLong((long)(expr));                             \
            if (x_ == NULL) {                                                         \
                Py_CLEAR(out);                                                        \
                break;                                                                \
            }                                                                         \
            PyList_SET_ITEM(out, i_, x_);                                             \
        }                                                                             \
    } while (0)

static inline int set_item(PyObject *d, const char *key, PyObject *v)
{
    if (v == NULL)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}


/* ``obj`` as a writable C-contiguous buffer of ``len`` items of format ``fmt`` */
static inline int get_array(PyObject *obj, const char *name, const char *fmt, Py_ssize_t itemsize,
                     Py_ssize_t len, Py_buffer *buf)
{
    if (PyObject_GetBuffer(obj, buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *f = buf->format ? buf->format : "B";
    if (f[0] == '=' || f[0] == '<' || f[0] == '@')
        f++;
    if (buf->itemsize != itemsize || strchr(fmt, f[0]) == NULL || f[1] != 0
            || buf->len != len * itemsize) {
        PyErr_Format(InvalidArgumentError, "%s: expected a writable C-contiguous array of %zd "
                     "items of format %s, got format %s and %zd bytes", name, len, fmt,
                     buf->format ? buf->format : "B", buf->len);
        PyBuffer_Release(buf);
        return -1;
    }
    return 0;
}

/* IllegalActionError(action, legal, player=player) set as the current exception */
static inline void engine_illegal(PyObject *action, const int8_t *mask, long a_size, long player)
{
    PyObject *legal = PyList_New(0);
    for (long i = 0; legal && i < a_size; i++)
        if (mask[i]) {
            PyObject *x = PyLong_FromLong(i);
            if (x == NULL || PyList_Append(legal, x) < 0)
                Py_CLEAR(legal);
            Py_XDECREF(x);
        }
    if (legal == NULL)
        return;
    PyObject *args = Py_BuildValue("(OO)", action, legal);
    PyObject *kw = Py_BuildValue("{s:l}", "player", player);
    PyObject *err = args && kw ? PyObject_Call(IllegalActionError, args, kw) : NULL;
    Py_DECREF(legal);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    if (err != NULL) {
        PyErr_SetObject(IllegalActionError, err);
        Py_DECREF(err);
    }
}

#endif /* PLUNDER_ENGINE_H */
