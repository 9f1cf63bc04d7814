/* The State type and the Engine's game-making methods of the compiled game engines,
 * written once (envs/<game>/_engine.c): what the oracle suite (tests/test_compiled_engine.py)
 * and envs/core/batch.py call on every engine.
 *
 * A game's engine module includes this after engine_batch.h and its batch hooks, having
 * defined besides them:
 *
 *   static int engine_load(const BATCH_ENGINE *e, PyObject *data, BATCH_STATE *s);
 *       ``data`` (a to_dict()) into ``s``, every field checked as the Python loader and
 *       validate() check it: 0, or -1 with InvalidStateError set
 *   static PyObject *engine_to_dict(const BATCH_ENGINE *e, const BATCH_STATE *s);
 *   static void engine_mask(const BATCH_ENGINE *e, const BATCH_STATE *s, long player,
 *                           int8_t *mask);      zeroed mask; any seat (zeros if not asked)
 *   static PyObject *engine_view(BATCH_ENGINE *e, const BATCH_STATE *s, long player);
 *   static void engine_encode(const BATCH_ENGINE *e, const BATCH_STATE *s, long player,
 *                             float *out);      the full observation row
 *
 * It defines the ``State`` object (``StateType``, a copy of one position: to_dict,
 * current_players, is_terminal, mask, apply_joint, apply, view, encode_into, scores,
 * rank_keys, clone and turns), ``batch_wrap_state`` (a hook of engine_batch.h), and the
 * Engine methods ``ENGINE_METHODS`` (new_initial_state, new_game, rng_state, from_dict)
 * for the game's Engine method table. Add the type to the module with
 * ``ce_add_type(m, "State", &StateType)``.
 */
#ifndef PLUNDER_ENGINE_STATE_H
#define PLUNDER_ENGINE_STATE_H

#ifndef PLUNDER_ENGINE_BATCH_H
#error "include engine_batch.h before engine_state.h"
#endif

static int engine_load(const BATCH_ENGINE *e, PyObject *data, BATCH_STATE *s);
static PyObject *engine_to_dict(const BATCH_ENGINE *e, const BATCH_STATE *s);
static void engine_mask(const BATCH_ENGINE *e, const BATCH_STATE *s, long player,
                        int8_t *mask);
static PyObject *engine_view(BATCH_ENGINE *e, const BATCH_STATE *s, long player);
static void engine_encode(const BATCH_ENGINE *e, const BATCH_STATE *s, long player,
                          float *out);

typedef struct {
    PyObject_HEAD
    BATCH_ENGINE *engine;
    BATCH_STATE s;
} State;

static PyTypeObject StateType;

static State *engine_new_state(BATCH_ENGINE *e)
{
    State *st = PyObject_New(State, &StateType);
    if (st == NULL)
        return NULL;
    Py_INCREF(e);
    st->engine = e;
    return st;
}

static PyObject *batch_wrap_state(BATCH_ENGINE *e, const BATCH_STATE *s)
{
    State *st = engine_new_state(e);
    if (st != NULL)
        st->s = *s;
    return (PyObject *)st;
}

/* -- the Engine's methods ----------------------------------------------------------------- */

/* new_initial_state(rng_state): a new game drawn from a PCG64 state dict */
static PyObject *Engine_new_initial_state(BATCH_ENGINE *e, PyObject *rng)
{
    if (!batch_engine_ready(e))
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
    State *st = engine_new_state(e);
    if (st == NULL)
        return NULL;
    *batch_rng(&st->s) = r;
    batch_setup(e, &st->s);
    return (PyObject *)st;
}

static int engine_read_seed(PyObject *obj, uint64_t *seed)
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

/* rng_state(seed): the PCG64 state dict of numpy.random.default_rng(seed) */
static PyObject *Engine_rng_state(BATCH_ENGINE *e, PyObject *seed_obj)
{
    uint64_t seed;
    if (engine_read_seed(seed_obj, &seed) < 0)
        return NULL;
    pcg64 r;
    pcg_seed(&r, seed);
    return rng_to_py(&r);
}

/* new_game(seed): new_initial_state(default_rng(seed)) */
static PyObject *Engine_new_game(BATCH_ENGINE *e, PyObject *seed_obj)
{
    if (!batch_engine_ready(e))
        return NULL;
    uint64_t seed;
    if (engine_read_seed(seed_obj, &seed) < 0)
        return NULL;
    State *st = engine_new_state(e);
    if (st == NULL)
        return NULL;
    pcg_seed(batch_rng(&st->s), seed);
    batch_setup(e, &st->s);
    return (PyObject *)st;
}

/* from_dict(data): a State from the Python state's to_dict() */
static PyObject *Engine_from_dict(BATCH_ENGINE *e, PyObject *data)
{
    if (!batch_engine_ready(e))
        return NULL;
    State *st = engine_new_state(e);
    if (st == NULL)
        return NULL;
    if (engine_load(e, data, &st->s) < 0) {
        Py_DECREF(st);
        return NULL;
    }
    return (PyObject *)st;
}

#define ENGINE_METHODS                                                                   \
    {"new_initial_state", (PyCFunction)Engine_new_initial_state, METH_O,                 \
     "new_initial_state(rng_state): a new game drawn from a PCG64 state dict (as the "   \
     "game's new_initial_state with that generator)."},                                  \
    {"new_game", (PyCFunction)Engine_new_game, METH_O,                                   \
     "new_game(seed): new_initial_state(default_rng(seed)) (seed: an int)."},           \
    {"rng_state", (PyCFunction)Engine_rng_state, METH_O,                                 \
     "rng_state(seed): the PCG64 state dict of numpy.random.default_rng(seed)."},        \
    {"from_dict", (PyCFunction)Engine_from_dict, METH_O,                                 \
     "from_dict(data): a State from the Python state's to_dict() (InvalidStateError if " \
     "it is not a legal position)."}

/* -- the State type ----------------------------------------------------------------------- */

static void State_dealloc(State *st)
{
    Py_XDECREF(st->engine);
    PyObject_Free(st);
}

static PyObject *State_to_dict(State *st, PyObject *unused)
{
    return engine_to_dict(st->engine, &st->s);
}

static PyObject *engine_long_tuple(const long *x, long k)
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

static PyObject *State_current_players(State *st, PyObject *unused)
{
    long seats[BATCH_MAX_SEATS], k = 0;
    if (!batch_finished(&st->s))
        k = batch_deciders(st->engine, &st->s, seats);
    return engine_long_tuple(seats, k);
}

static PyObject *State_is_terminal(State *st, PyObject *unused)
{
    return PyBool_FromLong(batch_finished(&st->s));
}

static PyObject *State_turns(State *st, void *closure)
{
    return PyLong_FromLongLong(batch_turns(&st->s));
}

/* an agent seat of the game: the player of mask, view and encode_into */
static int engine_read_player(State *st, PyObject *obj, long *player)
{
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_SetString(InvalidArgumentError, "player: expected an int seat");
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || v < 0 || v >= batch_num_players(st->engine)) {
        PyErr_Format(InvalidArgumentError, "player: %R is not a seat of this game", obj);
        return -1;
    }
    *player = (long)v;
    return 0;
}

/* mask(player): the legal-action mask as int8 bytes (a bytearray), zeros for a seat not
 * asked */
static PyObject *State_mask(State *st, PyObject *player_obj)
{
    long player;
    if (engine_read_player(st, player_obj, &player) < 0)
        return NULL;
    const long A = batch_num_actions(st->engine);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, A);
    if (out == NULL)
        return NULL;
    int8_t *mask = (int8_t *)PyByteArray_AS_STRING(out);
    memset(mask, 0, (size_t)A);
    if (!batch_finished(&st->s))
        engine_mask(st->engine, &st->s, player, mask);
    return out;
}

static PyObject *State_apply_joint(State *st, PyObject *joint)
{
    return engine_apply_joint(st->engine, &st->s, joint);
}

/* apply(action): the action of the single seat asked, as GameState.apply_action */
static PyObject *State_apply(State *st, PyObject *action_obj)
{
    BATCH_ENGINE *e = st->engine;
    if (batch_finished(&st->s)) {
        PyErr_SetString(GameOverError, "the game is over; no action can be applied");
        return NULL;
    }
    long seats[BATCH_MAX_SEATS], k = batch_deciders(e, &st->s, seats);
    if (k != 1) {
        PyErr_Format(NotActingError, "apply needs exactly one acting player; %ld act now",
                     k);
        return NULL;
    }
    const long A = batch_num_actions(e);
    int8_t *mask = PyMem_Calloc((size_t)A, 1);
    if (mask == NULL)
        return PyErr_NoMemory();
    engine_mask(e, &st->s, seats[0], mask);
    long long a = -1;
    int overflow = 0;
    if (PyLong_Check(action_obj) && !PyBool_Check(action_obj))
        a = PyLong_AsLongLongAndOverflow(action_obj, &overflow);
    PyErr_Clear();
    if (overflow || a < 0 || a >= A || !mask[a]) {
        engine_illegal(action_obj, mask, A, seats[0]);
        PyMem_Free(mask);
        return NULL;
    }
    PyMem_Free(mask);
    int64_t act = a;
    batch_apply(e, &st->s, seats, &act, 1);
    Py_RETURN_NONE;
}

static PyObject *State_view(State *st, PyObject *player_obj)
{
    long player;
    if (engine_read_player(st, player_obj, &player) < 0)
        return NULL;
    return engine_view(st->engine, &st->s, player);
}

/* encode_into(player, out): the player's observation into ``out`` */
static PyObject *State_encode_into(State *st, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "encode_into(player, out) takes 2 arguments");
        return NULL;
    }
    long player;
    if (engine_read_player(st, args[0], &player) < 0)
        return NULL;
    Py_buffer buf;
    if (ce_out(args[1], batch_obs_size(st->engine), &buf) < 0)
        return NULL;
    engine_encode(st->engine, &st->s, player, buf.buf);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
}

static PyObject *State_scores(State *st, PyObject *unused)
{
    double sc[BATCH_MAX_SEATS];
    long n = batch_num_players(st->engine);
    batch_scores(st->engine, &st->s, sc);
    PyObject *out = PyList_New(n);
    for (long p = 0; out && p < n; p++) {
        PyObject *x = PyFloat_FromDouble(sc[p]);
        if (x == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, p, x);
    }
    return out;
}

/* rank_keys: a tuple of BATCH_KEY_LEN floats per scoring seat, agents first */
static PyObject *State_rank_keys(State *st, PyObject *unused)
{
    double keys[BATCH_MAX_SEATS * BATCH_KEY_LEN];
    long seats = batch_rank_keys(st->engine, &st->s, keys);
    PyObject *out = PyList_New(seats);
    for (long p = 0; out && p < seats; p++) {
        PyObject *key = PyTuple_New(BATCH_KEY_LEN);
        for (long j = 0; key && j < BATCH_KEY_LEN; j++) {
            PyObject *x = PyFloat_FromDouble(keys[p * BATCH_KEY_LEN + j]);
            if (x == NULL)
                Py_CLEAR(key);
            else
                PyTuple_SET_ITEM(key, j, x);
        }
        if (key == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, p, key);
    }
    return out;
}

static PyObject *State_clone(State *st, PyObject *unused)
{
    return batch_wrap_state(st->engine, &st->s);
}

static PyMethodDef State_methods[] = {
    {"to_dict", (PyCFunction)State_to_dict, METH_NOARGS, "The state in to_dict() form."},
    {"current_players", (PyCFunction)State_current_players, METH_NOARGS,
     "The seats asked to decide now, in seat order; () once the game is over."},
    {"is_terminal", (PyCFunction)State_is_terminal, METH_NOARGS, "The game is over."},
    {"mask", (PyCFunction)State_mask, METH_O,
     "mask(player): the legal-action mask as int8 bytes (a bytearray)."},
    {"apply_joint", (PyCFunction)State_apply_joint, METH_O,
     "apply_joint({seat: action}): every current player's action, as "
     "GameState.apply_joint (IllegalActionError, nothing applied, if a mask forbids one)."},
    {"apply", (PyCFunction)State_apply, METH_O,
     "apply(action): the single acting player's action (IllegalActionError if the mask "
     "forbids it)."},
    {"view", (PyCFunction)State_view, METH_O,
     "view(player): the player's view, as the Python state's view(player)."},
    {"encode_into", (PyCFunction)(void (*)(void))State_encode_into, METH_FASTCALL,
     "encode_into(player, out): the player's observation into a float32 vector."},
    {"scores", (PyCFunction)State_scores, METH_NOARGS, "Every agent seat's score."},
    {"rank_keys", (PyCFunction)State_rank_keys, METH_NOARGS,
     "Every scoring seat's rank key (a tuple of floats)."},
    {"clone", (PyCFunction)State_clone, METH_NOARGS, "An independent copy."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef State_getset[] = {
    {"turns", (getter)State_turns, NULL, "Completed turns.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#ifndef ENGINE_STATE_TYPE_NAME
#error "define ENGINE_STATE_TYPE_NAME (e.g. \"plunder.envs.<game>._engine.State\")"
#endif

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = ENGINE_STATE_TYPE_NAME,
    .tp_basicsize = sizeof(State),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One position held in C (made by an Engine).",
    .tp_dealloc = (destructor)State_dealloc,
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

#endif /* PLUNDER_ENGINE_STATE_H */
