/* Compiled view builder of All Hands On Deck (battles): the C twin of
 * ``AllHandsBattleState.python_view`` (envs/all_hands_battle/engine.py).
 *
 * ``python_view`` is the reference: ``ViewBuilder(*view_params(game)).view(state, player)``
 * returns the same object it returns (an ``AllHandsBattleView`` of the same types and
 * values all the way down: the same named-tuple classes, tuples where it makes tuples,
 * the state's own int/bool/str objects where it passes them through, ``None`` for an
 * unknown crew). tests/all_hands_battle/test_compiled_view.py compares the two over random
 * games of every player count and variant.
 *
 * Hidden information: this is still *the* view (docs/architecture.md). It reads exactly the
 * state attributes ``python_view`` reads (STATE_FIELDS), and of the private ones only what
 * it reads: the viewer's own hand, the sizes of the other hands and of the draw pile, the
 * crews of the viewer's own ships, of revealed ships and of ships the viewer's Spy looked
 * at (the sizes of all others), the crew being launched only when the viewer launches it.
 * Fields are taken from the state's instance dict, where the engine keeps them (no class
 * attribute has their names: tested), and by getattr when one is not there.
 *
 * Checks: the containers read are lists or tuples (TypeError naming the field otherwise),
 * ships and Spy looks have their 5 and 3 items (ValueError), the seat and the numbers
 * compared are ints (TypeError) and the seat indexes ``hands`` within range (IndexError).
 * Values that ``python_view`` only copies (scores, card ids, flags, texts) are copied
 * unchanged, as it does: the observation encoder checks them. References to items of a
 * list are held while Python code may run (a ``__bool__`` or ``__index__``), and list
 * sizes are read again after it, so a list changed meanwhile is an error, never a crash.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <string.h>

#include "cencode.h"

/* ---- the view (filled by position: VIEW_FIELDS, SHIP_FIELDS) ------------------------- */

enum {
    V_PLAYER, V_NUM_PLAYERS, V_ROUND, V_STARTER, V_TOTALS, V_LAST_ROUND, V_PHASE, V_DECISION,
    V_ACTOR, V_TURN_PLAYER, V_HAND, V_HAND_SIZES, V_RESERVED, V_KNOWN_WITH, V_DISCARD,
    V_DECK_SIZE, V_RESHUFFLED, V_SHIPS, V_PLUNDER, V_LAUNCH_MASTER, V_LAUNCH_CREW,
    V_LAUNCH_COUNT, V_LAUNCHED, V_CLAIM_QUEUE, V_FIRST_FLEET, V_LAST_TURNS, V_PASSED,
    V_FORCED, V_SELECTED, V_SPIES_USED, V_SPIED, V_EVENTS, V_TURNS, NUM_VIEW
};

static const char *const VIEW_NAMES[NUM_VIEW] = {
    "player", "num_players", "round", "starter", "totals", "last_round", "phase", "decision",
    "actor", "turn_player", "hand", "hand_sizes", "reserved", "known_with", "discard",
    "deck_size", "reshuffled", "ships", "plunder", "launch_master", "launch_crew",
    "launch_count", "launched", "claim_queue", "first_fleet", "last_turns", "passed",
    "forced", "selected", "spies_used", "spied", "events", "turns",
};

enum {
    SV_MASTER, SV_IN_PLAY, SV_KEEPER, SV_CREW_COUNT, SV_CREW, SV_REVEALED, SV_SPIED, NUM_SHIP
};

static const char *const SHIP_NAMES[NUM_SHIP] = {
    "master", "in_play", "keeper", "crew_count", "crew", "revealed", "spied",
};

/* ---- the state attributes read (exported as STATE_FIELDS) ---------------------------- */

enum {
    S_ROUND, S_STARTER, S_TOTALS, S_LAST_ROUND, S_PHASE, S_DECISION, S_ACTOR, S_TURN_PLAYER,
    S_DECK, S_DISCARD, S_HANDS, S_RESERVED, S_KNOWN_WITH, S_SHIPS, S_PLUNDER,
    S_LAUNCH_MASTER, S_LAUNCH_CREW, S_LAUNCHED, S_CLAIM_QUEUE, S_FIRST_FLEET, S_LAST_TURNS,
    S_RESHUFFLED, S_PASSED, S_FORCED, S_SELECTED, S_SPIES_USED, S_SPIED, S_EVENTS, S_TURNS,
    NUM_STATE
};

static const char *const STATE_NAMES[NUM_STATE] = {
    "round", "starter", "totals", "last_round", "phase", "decision", "actor", "turn_player",
    "deck", "discard", "hands", "reserved", "known_with", "ships", "plunder",
    "launch_master", "launch_crew", "launched", "claim_queue", "first_fleet", "last_turns",
    "reshuffled", "passed", "forced", "selected", "spies_used", "spied", "events", "turns",
};

/* the ship record in ``state.ships[q][j]``: [master, crew, in_play, keeper, revealed] */
enum { SH_MASTER, SH_CREW, SH_IN_PLAY, SH_KEEPER, SH_REVEALED, SHIP_LEN };

/* whether instances of a type have a __dict__ (managed by the interpreter since 3.11) */
#ifdef Py_TPFLAGS_MANAGED_DICT
#define CV_HAS_DICT(t) (PyType_HasFeature((t), Py_TPFLAGS_MANAGED_DICT) || (t)->tp_dictoffset)
#else
#define CV_HAS_DICT(t) ((t)->tp_dictoffset != 0)
#endif

#define LOOKS_ON_STACK 64   /* the viewer's Spy looks kept without allocating (<= 5*5*3) */

typedef struct {
    PyObject_HEAD
    PyObject *num_players;          /* the game's player count (an int) */
    PyTypeObject *view_cls;         /* AllHandsBattleView */
    PyTypeObject *ship_cls;         /* ShipView */
    PyObject *attr[NUM_STATE];      /* interned attribute names, STATE_NAMES order */
} ViewBuilder;

/* ---- checked access (cv_: generic helpers of this file) ------------------------------ */

/* ``obj`` is a list or a tuple (what the state's containers are), else TypeError. */
static int cv_seq(PyObject *obj, const char *name)
{
    if (PyList_Check(obj) || PyTuple_Check(obj))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s: expected a list or tuple, got %.100s", name,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

/* The current size of a list or tuple (a list may change while Python code runs). */
static inline Py_ssize_t cv_size(PyObject *seq)
{
    return PyList_Check(seq) ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
}

/* Item ``i`` of a list or tuple as a new reference; IndexError naming the field when the
 * sequence is shorter (a list shortened by Python code run meanwhile). */
static PyObject *cv_get(PyObject *seq, Py_ssize_t i, const char *name)
{
    if (i >= cv_size(seq)) {
        PyErr_Format(PyExc_IndexError, "%s: changed size while the view was built", name);
        return NULL;
    }
    PyObject *item = PyList_Check(seq) ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
    Py_INCREF(item);
    return item;
}

/* The ``n`` items of ``obj``, a list or tuple of exactly ``n`` items (Python's unpacking),
 * as new references in ``out``; release them with cv_release. The field is named
 * ``name[i]``, or ``name[i][j]`` when ``j`` >= 0. */
static int cv_unpack(PyObject *obj, Py_ssize_t n, const char *name, Py_ssize_t i,
                     Py_ssize_t j, PyObject **out)
{
    int is_seq = PyList_Check(obj) || PyTuple_Check(obj);
    if (!is_seq || cv_size(obj) != n) {
        char where[96];
        if (j >= 0)
            snprintf(where, sizeof where, "%s[%zd][%zd]", name, i, j);
        else
            snprintf(where, sizeof where, "%s[%zd]", name, i);
        if (!is_seq)
            PyErr_Format(PyExc_TypeError, "%s: expected a list or tuple, got %.100s", where,
                         Py_TYPE(obj)->tp_name);
        else
            PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", where, n,
                         cv_size(obj));
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        out[k] = PyList_Check(obj) ? PyList_GET_ITEM(obj, k) : PyTuple_GET_ITEM(obj, k);
        Py_INCREF(out[k]);
    }
    return 0;
}

static void cv_release(PyObject **items, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; k < n; k++)
        Py_DECREF(items[k]);
}

/* ``obj`` as a C long: an int, a bool or anything with __index__ (as Python compares and
 * indexes with them), not a float. TypeError / ValueError (too large) naming the field
 * ``name``, or ``name[i]`` when ``i`` >= 0. */
static int cv_long(PyObject *obj, const char *name, Py_ssize_t i, long *v)
{
    char where[96];
    if (!PyLong_Check(obj) && !PyIndex_Check(obj)) {
        snprintf(where, sizeof where, i >= 0 ? "%s[%zd]" : "%s", name, i);
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", where,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *v = PyLong_AsLong(obj);
    if (*v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            snprintf(where, sizeof where, i >= 0 ? "%s[%zd]" : "%s", name, i);
            PyErr_Format(PyExc_ValueError, "%s: %R is out of range", where, obj);
        }
        return -1;
    }
    return 0;
}

/* The size of a list or tuple as a new int (``len(x)``). */
static PyObject *cv_len(PyObject *obj, const char *name)
{
    return cv_seq(obj, name) < 0 ? NULL : PyLong_FromSsize_t(cv_size(obj));
}

/* ``tuple(x)`` of a list or tuple (an exact tuple is returned itself, as tuple() does). */
static PyObject *cv_copy(PyObject *obj, const char *name)
{
    return cv_seq(obj, name) < 0 ? NULL : PySequence_Tuple(obj);
}

/* ``tuple(map(tuple, x))``: a list or tuple of lists or tuples, copied two levels deep. No
 * Python code runs here, so the items may be borrowed. */
static PyObject *cv_copy_rows(PyObject *obj, const char *name)
{
    if (cv_seq(obj, name) < 0)
        return NULL;
    Py_ssize_t n = cv_size(obj);
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PyList_Check(obj) ? PyList_GET_ITEM(obj, i) : PyTuple_GET_ITEM(obj, i);
        if (!PyList_Check(row) && !PyTuple_Check(row)) {
            PyErr_Format(PyExc_TypeError, "%s[%zd]: expected a list or tuple, got %.100s",
                         name, i, Py_TYPE(row)->tp_name);
            Py_DECREF(out);
            return NULL;
        }
        PyObject *t = PySequence_Tuple(row);
        if (t == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, t);
    }
    return out;
}

/* A new instance of a named-tuple class with ``n`` items still to set
 * (``tuple.__new__(Cls, ...)``, filled by position). */
static PyObject *cv_record(PyTypeObject *cls, Py_ssize_t n)
{
    return cls->tp_alloc(cls, n);
}

/* ---- the parts of the view ----------------------------------------------------------- */

/* The viewer's Spy looks, as (owner, slot) pairs, and ``tuple(map(tuple, spied_))``:
 *     seen = {(o, j) for s, o, j in spied_ if s == player} if spied_ else ()
 * ``*looks`` is ``stack`` or a PyMem block the caller frees when it is not ``stack``. */
static PyObject *spy_looks(PyObject *spied, long player, long *stack, long **looks,
                           Py_ssize_t *count)
{
    *looks = stack;
    *count = 0;
    if (cv_seq(spied, "spied") < 0)
        return NULL;
    Py_ssize_t n = cv_size(spied);
    if (n > LOOKS_ON_STACK) {
        *looks = PyMem_Malloc(sizeof(long) * 2 * (size_t)n);
        if (*looks == NULL)
            return PyErr_NoMemory();
    }
    PyObject *copy = PyTuple_New(n);
    if (copy == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *look = cv_get(spied, i, "spied");
        if (look == NULL)
            goto fail;
        PyObject *soj[3];
        if (cv_unpack(look, 3, "spied", i, -1, soj) < 0) {
            Py_DECREF(look);
            goto fail;
        }
        long s, o, j;
        const char *name = "spied";   /* [Spy owner, ship owner, slot] */
        int bad = cv_long(soj[0], name, i, &s) < 0;
        if (!bad && s == player) {
            bad = cv_long(soj[1], name, i, &o) < 0 || cv_long(soj[2], name, i, &j) < 0;
            if (!bad && *count < n) {
                (*looks)[2 * *count] = o;
                (*looks)[2 * *count + 1] = j;
                ++*count;
            }
        }
        cv_release(soj, 3);
        PyObject *t = bad ? NULL : PySequence_Tuple(look);   /* tuple(look) */
        Py_DECREF(look);
        if (t == NULL)
            goto fail;
        PyTuple_SET_ITEM(copy, i, t);
    }
    return copy;
fail:
    Py_DECREF(copy);
    return NULL;
}

/* One ship as the viewer sees it:
 *     for j, (m, crew, in_play, keeper, revealed) in enumerate(fleet):
 *         spied = (q, j) in seen
 *         ShipView(m, in_play, keeper, len(crew),
 *                  tuple(crew) if own or revealed or spied else None, revealed, spied)
 * The crew's cards are read only when the viewer knows them (else only its size). */
static PyObject *ship_view(ViewBuilder *self, PyObject *ship, Py_ssize_t q, Py_ssize_t j,
                           int own, const long *looks, Py_ssize_t nlooks)
{
    PyObject *f[SHIP_LEN];
    if (cv_unpack(ship, SHIP_LEN, "ships", q, j, f) < 0)
        return NULL;
    PyObject *out = NULL, *crew = f[SH_CREW];
    if (!PyList_Check(crew) && !PyTuple_Check(crew)) {
        PyErr_Format(PyExc_TypeError,
                     "ships[%zd][%zd] crew: expected a list or tuple, got %.100s", q, j,
                     Py_TYPE(crew)->tp_name);
        goto done;
    }
    int spied = 0;
    for (Py_ssize_t k = 0; k < nlooks && !spied; k++)
        spied = looks[2 * k] == (long)q && looks[2 * k + 1] == (long)j;
    int known = own;                                /* own or revealed or spied */
    if (!known) {
        known = PyObject_IsTrue(f[SH_REVEALED]);
        if (known < 0)
            goto done;
        known = known || spied;
    }
    out = cv_record(self->ship_cls, NUM_SHIP);
    if (out == NULL)
        goto done;
    PyObject *count = PyLong_FromSsize_t(cv_size(crew));   /* len(crew), after the code */
    PyObject *cards = known ? PySequence_Tuple(crew) : Py_NewRef(Py_None);
    if (count == NULL || cards == NULL) {
        Py_XDECREF(count);
        Py_XDECREF(cards);
        Py_CLEAR(out);
        goto done;
    }
    PyTuple_SET_ITEM(out, SV_MASTER, Py_NewRef(f[SH_MASTER]));
    PyTuple_SET_ITEM(out, SV_IN_PLAY, Py_NewRef(f[SH_IN_PLAY]));
    PyTuple_SET_ITEM(out, SV_KEEPER, Py_NewRef(f[SH_KEEPER]));
    PyTuple_SET_ITEM(out, SV_CREW_COUNT, count);
    PyTuple_SET_ITEM(out, SV_CREW, cards);
    PyTuple_SET_ITEM(out, SV_REVEALED, Py_NewRef(f[SH_REVEALED]));
    PyTuple_SET_ITEM(out, SV_SPIED, PyBool_FromLong(spied));
done:
    cv_release(f, SHIP_LEN);
    return out;
}

/* Every seat's fleet, in launch order:
 *     for q, fleet in enumerate(self.ships):
 *         if not fleet: ships.append(()); continue
 *         own = q == player; row = [ship views]; ships.append(tuple(row))
 *     ... tuple(ships) */
static PyObject *fleets_view(ViewBuilder *self, PyObject *ships, long player,
                             const long *looks, Py_ssize_t nlooks)
{
    if (cv_seq(ships, "ships") < 0)
        return NULL;
    Py_ssize_t n = cv_size(ships);
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t q = 0; q < n; q++) {
        PyObject *fleet = cv_get(ships, q, "ships");
        if (fleet == NULL)
            goto fail;
        if (!PyList_Check(fleet) && !PyTuple_Check(fleet)) {
            PyErr_Format(PyExc_TypeError, "ships[%zd]: expected a list or tuple, got %.100s",
                         q, Py_TYPE(fleet)->tp_name);
            Py_DECREF(fleet);
            goto fail;
        }
        Py_ssize_t size = cv_size(fleet);
        PyObject *row = PyTuple_New(size);          /* () when the fleet is empty */
        if (row == NULL) {
            Py_DECREF(fleet);
            goto fail;
        }
        PyTuple_SET_ITEM(out, q, row);
        for (Py_ssize_t j = 0; j < size; j++) {
            PyObject *ship = cv_get(fleet, j, "ships[q]");
            PyObject *sv = ship == NULL ? NULL
                           : ship_view(self, ship, q, j, q == player, looks, nlooks);
            Py_XDECREF(ship);
            if (sv == NULL) {
                Py_DECREF(fleet);
                goto fail;
            }
            PyTuple_SET_ITEM(row, j, sv);
        }
        Py_DECREF(fleet);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ``tuple(map(len, self.hands))`` and ``tuple(self.hands[player])`` (the only hand whose
 * cards are read). IndexError when the seat has no hand. */
static int hands_view(PyObject *hands, long player, PyObject **hand, PyObject **sizes)
{
    *hand = *sizes = NULL;
    if (cv_seq(hands, "hands") < 0)
        return -1;
    Py_ssize_t n = cv_size(hands);
    if (player < 0 || player >= n) {
        PyErr_Format(PyExc_IndexError, "player %ld: no such seat (hands has %zd)", player, n);
        return -1;
    }
    *sizes = PyTuple_New(n);
    if (*sizes == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {        /* no Python code runs: items borrowed */
        PyObject *h = PyList_Check(hands) ? PyList_GET_ITEM(hands, i)
                                          : PyTuple_GET_ITEM(hands, i);
        if (!PyList_Check(h) && !PyTuple_Check(h)) {
            PyErr_Format(PyExc_TypeError, "hands[%zd]: expected a list or tuple, got %.100s",
                         i, Py_TYPE(h)->tp_name);
            goto fail;
        }
        PyObject *len = PyLong_FromSsize_t(cv_size(h));
        if (len == NULL)
            goto fail;
        PyTuple_SET_ITEM(*sizes, i, len);
    }
    PyObject *own = PyList_Check(hands) ? PyList_GET_ITEM(hands, player)
                                        : PyTuple_GET_ITEM(hands, player);
    *hand = PySequence_Tuple(own);               /* a list or tuple, checked above */
    if (*hand != NULL)
        return 0;
fail:
    Py_CLEAR(*sizes);
    return -1;
}

/* ---- the view ------------------------------------------------------------------------ */

/* A copied field: ``tuple(self.<field>)``. */
static int put_copy(PyObject *view, int slot, PyObject *value, const char *name)
{
    PyObject *t = cv_copy(value, name);
    if (t == NULL)
        return -1;
    PyTuple_SET_ITEM(view, slot, t);
    return 0;
}

/* A field passed through unchanged: ``self.<field>``. */
static void put_same(PyObject *view, int slot, PyObject *value)
{
    PyTuple_SET_ITEM(view, slot, Py_NewRef(value));
}

static PyObject *build_view(ViewBuilder *self, PyObject *const *st, PyObject *player_obj,
                            long player)
{
    long stack[2 * LOOKS_ON_STACK], *looks = stack;
    Py_ssize_t nlooks = 0;
    PyObject *view = cv_record(self->view_cls, NUM_VIEW);
    if (view == NULL)
        return NULL;

    /* spied_ = self.spied; seen = {...}; ... tuple(map(tuple, spied_)) */
    PyObject *spied = spy_looks(st[S_SPIED], player, stack, &looks, &nlooks);
    if (spied == NULL)
        goto fail;
    PyTuple_SET_ITEM(view, V_SPIED, spied);

    /* the ships loop, then tuple(ships) */
    PyObject *ships = fleets_view(self, st[S_SHIPS], player, looks, nlooks);
    if (ships == NULL)
        goto fail;
    PyTuple_SET_ITEM(view, V_SHIPS, ships);

    /* tuple(self.hands[player]), tuple(map(len, self.hands)) */
    PyObject *hand, *sizes;
    if (hands_view(st[S_HANDS], player, &hand, &sizes) < 0)
        goto fail;
    PyTuple_SET_ITEM(view, V_HAND, hand);
    PyTuple_SET_ITEM(view, V_HAND_SIZES, sizes);

    /* player, self.game.num_players, self.round, self.starter, ... (passed through) */
    put_same(view, V_PLAYER, player_obj);
    put_same(view, V_NUM_PLAYERS, self->num_players);
    put_same(view, V_ROUND, st[S_ROUND]);
    put_same(view, V_STARTER, st[S_STARTER]);
    put_same(view, V_PHASE, st[S_PHASE]);
    put_same(view, V_DECISION, st[S_DECISION]);
    put_same(view, V_ACTOR, st[S_ACTOR]);
    put_same(view, V_TURN_PLAYER, st[S_TURN_PLAYER]);
    put_same(view, V_LAUNCH_MASTER, st[S_LAUNCH_MASTER]);
    put_same(view, V_LAUNCHED, st[S_LAUNCHED]);
    put_same(view, V_FIRST_FLEET, st[S_FIRST_FLEET]);
    put_same(view, V_FORCED, st[S_FORCED]);
    put_same(view, V_SELECTED, st[S_SELECTED]);
    put_same(view, V_SPIES_USED, st[S_SPIES_USED]);
    put_same(view, V_TURNS, st[S_TURNS]);

    /* tuple(self.totals), tuple(self.last_round), ... (public lists copied) */
    if (put_copy(view, V_TOTALS, st[S_TOTALS], "totals") < 0
            || put_copy(view, V_LAST_ROUND, st[S_LAST_ROUND], "last_round") < 0
            || put_copy(view, V_RESERVED, st[S_RESERVED], "reserved") < 0
            || put_copy(view, V_DISCARD, st[S_DISCARD], "discard") < 0
            || put_copy(view, V_RESHUFFLED, st[S_RESHUFFLED], "reshuffled") < 0
            || put_copy(view, V_CLAIM_QUEUE, st[S_CLAIM_QUEUE], "claim_queue") < 0
            || put_copy(view, V_LAST_TURNS, st[S_LAST_TURNS], "last_turns") < 0
            || put_copy(view, V_PASSED, st[S_PASSED], "passed") < 0
            || put_copy(view, V_EVENTS, st[S_EVENTS], "events") < 0)
        goto fail;

    /* tuple(map(tuple, self.known_with)), tuple(map(tuple, self.plunder)) */
    PyObject *rows = cv_copy_rows(st[S_KNOWN_WITH], "known_with");
    if (rows == NULL)
        goto fail;
    PyTuple_SET_ITEM(view, V_KNOWN_WITH, rows);
    rows = cv_copy_rows(st[S_PLUNDER], "plunder");
    if (rows == NULL)
        goto fail;
    PyTuple_SET_ITEM(view, V_PLUNDER, rows);

    /* len(self.deck): the hidden draw pile's size only */
    PyObject *len = cv_len(st[S_DECK], "deck");
    if (len == NULL)
        goto fail;
    PyTuple_SET_ITEM(view, V_DECK_SIZE, len);

    /* tuple(self.launch_crew) if player == turn_player else (), len(self.launch_crew):
     * the cards being launched are read only by the seat launching them */
    len = cv_len(st[S_LAUNCH_CREW], "launch_crew");
    if (len == NULL)
        goto fail;
    PyTuple_SET_ITEM(view, V_LAUNCH_COUNT, len);
    int launching = PyObject_RichCompareBool(player_obj, st[S_TURN_PLAYER], Py_EQ);
    if (launching < 0)
        goto fail;
    PyObject *crew = launching ? cv_copy(st[S_LAUNCH_CREW], "launch_crew") : PyTuple_New(0);
    if (crew == NULL)
        goto fail;
    PyTuple_SET_ITEM(view, V_LAUNCH_CREW, crew);

    if (looks != stack)
        PyMem_Free(looks);
    return view;
fail:
    if (looks != stack)
        PyMem_Free(looks);
    Py_DECREF(view);                              /* unset items are NULL: skipped */
    return NULL;
}

/* view(state, player): what ``player`` knows, as ``state.python_view(player)``. */
static PyObject *ViewBuilder_view(ViewBuilder *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "view(state, player) takes 2 arguments, got %zd",
                     nargs);
        return NULL;
    }
    PyObject *state = args[0], *player_obj = args[1];
    long player;
    if (cv_long(player_obj, "player", -1, &player) < 0)
        return NULL;
    /* self.<field>: from the instance dict (where the engine keeps them: no descriptor of
     * the state class has these names, tests check), else as Python reads an attribute */
    PyObject *dict = NULL;
    if (CV_HAS_DICT(Py_TYPE(state))) {
        dict = PyObject_GenericGetDict(state, NULL);
        if (dict == NULL)
            return NULL;
    }
    PyObject *st[NUM_STATE];
    int got = 0;
    for (; got < NUM_STATE; got++) {
        st[got] = dict == NULL ? NULL : PyDict_GetItemWithError(dict, self->attr[got]);
        if (st[got] != NULL)
            Py_INCREF(st[got]);
        else if (PyErr_Occurred()
                 || (st[got] = PyObject_GetAttr(state, self->attr[got])) == NULL)
            break;
    }
    Py_XDECREF(dict);
    PyObject *view = got == NUM_STATE ? build_view(self, st, player_obj, player) : NULL;
    cv_release(st, got);
    return view;
}

/* ---- the type ------------------------------------------------------------------------ */

static void ViewBuilder_dealloc(ViewBuilder *self)
{
    Py_XDECREF(self->num_players);
    Py_XDECREF(self->view_cls);
    Py_XDECREF(self->ship_cls);
    for (int k = 0; k < NUM_STATE; k++)
        Py_XDECREF(self->attr[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ViewBuilder(num_players, view_cls, ship_cls): see engine.view_params. */
static PyObject *ViewBuilder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "view_cls", "ship_cls", NULL};
    PyObject *num_players, *view_cls, *ship_cls;
    long n;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:ViewBuilder", kwlist, &num_players,
                                     &view_cls, &ship_cls))
        return NULL;
    if (cv_long(num_players, "ViewBuilder: num_players", -1, &n) < 0)
        return NULL;
    if (n < 1) {
        PyErr_Format(PyExc_ValueError, "ViewBuilder: num_players must be >= 1, got %ld", n);
        return NULL;
    }
    if (ce_check_record(view_cls, "ViewBuilder: view_cls", VIEW_NAMES, NUM_VIEW) < 0
            || ce_check_record(ship_cls, "ViewBuilder: ship_cls", SHIP_NAMES, NUM_SHIP) < 0)
        return NULL;
    ViewBuilder *self = (ViewBuilder *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->num_players = Py_NewRef(num_players);
    self->view_cls = (PyTypeObject *)Py_NewRef(view_cls);
    self->ship_cls = (PyTypeObject *)Py_NewRef(ship_cls);
    for (int k = 0; k < NUM_STATE; k++) {
        self->attr[k] = PyUnicode_InternFromString(STATE_NAMES[k]);
        if (self->attr[k] == NULL) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

static PyMethodDef ViewBuilder_methods[] = {
    {"view", (PyCFunction)(void (*)(void))ViewBuilder_view, METH_FASTCALL,
     "view(state, player): what ``player`` knows of ``state`` (the AllHandsBattleView "
     "``state.python_view(player)`` returns)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ViewBuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.all_hands_battle._cview.ViewBuilder",
    .tp_basicsize = sizeof(ViewBuilder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled All Hands On Deck (battles) view builder of one game.",
    .tp_new = ViewBuilder_new,
    .tp_dealloc = (destructor)ViewBuilder_dealloc,
    .tp_methods = ViewBuilder_methods,
};

/* ---- the module ---------------------------------------------------------------------- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cview",
    "Compiled view builder of All Hands On Deck (battles): the C twin of "
    "AllHandsBattleState.python_view.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cview(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_NAMES, NUM_VIEW},
        {"SHIP_FIELDS", SHIP_NAMES, NUM_SHIP},
        {"STATE_FIELDS", STATE_NAMES, NUM_STATE},
    };
    return ce_module_named(&module, "ViewBuilder", &ViewBuilderType, names,
                           (int)(sizeof names / sizeof names[0]));
}
