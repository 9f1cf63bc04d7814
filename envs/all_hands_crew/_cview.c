/* All Hands on Deck (all_hands_crew): the compiled twin of the state's view.
 *
 * ``ViewBuilder(*engine.view_params(game)).view(state, player)`` returns exactly what
 * ``state.python_view(player)`` returns (engine.py): a CrewView with the same types and
 * values all the way down (ints copied from the state are the same objects, bools are
 * bools, empty rows are tuples). The Python view stays the reference and the fallback;
 * tests/all_hands_crew/test_compiled_view.py compares the two over random states of every
 * player count and variant.
 *
 * Hidden information: this is still *the* view, the one reader of private state fields,
 * so it reads exactly what the Python view reads: of the Drawing Piles only the cards at
 * positions the player knows, of the stocks only their sizes and sources (and the cards of
 * the player's own stock, or every stock with open stock, during the hiring), of the
 * knowledge tables only the player's row and column. Each block below quotes the Python
 * lines it mirrors.
 *
 * The state's fields are read from its instance __dict__ (where the engine keeps them;
 * as attributes when missing there), as ``self.field`` reads them. Every read is
 * checked: a field that is not a list (or tuple) of the expected length, an item that is
 * not an int (a str, a bool where the Python view gives one), raises TypeError or
 * ValueError naming the field; the only index taken from outside, the player, is checked
 * against the seats. The Python view's memos (known_positions,
 * hidden_stocks) only save it time and are not used here; its shared constant tuples
 * (NO_CARDS, no_card_rows, no_combos) are reused, so the encoder's identity shortcuts
 * still apply. No state is kept between calls.
 */
#include "cencode.h"
#include <limits.h>

#define MAXN 16            /* most players (the knower masks are read as C longs) */
#define MAXK 64            /* most card kinds */

/* ---- the view's fields, in CrewView order (VIEW_FIELDS; the tests compare) ----------- */
enum {
    V_PLAYER, V_NUM_PLAYERS, V_OPEN_STOCK, V_PHASE, V_ACTING, V_ACTOR, V_ROUND, V_START,
    V_HIRE_STEP, V_PENDING, V_PILE_MASKS, V_PILE_SEEN, V_STOCK, V_MY_HIRED, V_MY_HIRE_DONE,
    V_MY_CREW, V_CREW_SIZES, V_CREW_KNOWN, V_CREW_MAYBE_GONE, V_KNOWN_ABOUT_ME,
    V_MAYBE_GONE_ABOUT_ME, V_LAID, V_FINAL, V_FINAL_LEFT, V_CURSES, V_DRAW_TARGET,
    V_SPY_LEFT, V_KEEP, V_NEXT_DOUBLE, V_NEXT_SPY, V_NEXT_SHORT, V_EVENTS, NUM_VIEW_FIELDS
};
static const char *const VIEW_NAMES[NUM_VIEW_FIELDS] = {
    "player", "num_players", "open_stock", "phase", "acting", "actor", "round", "start",
    "hire_step", "pending", "pile_masks", "pile_seen", "stock", "my_hired", "my_hire_done",
    "my_crew", "crew_sizes", "crew_known", "crew_maybe_gone", "known_about_me",
    "maybe_gone_about_me", "laid", "final", "final_left", "curses", "draw_target",
    "spy_left", "keep", "next_double", "next_spy", "next_short", "events",
};

/* ---- the state fields the Python view reads (STATE_FIELDS) --------------------------- */
enum {
    S_PILES, S_PILE_KNOWN, S_STOCK, S_STOCK_SRC, S_CREW, S_CREW_KNOWN, S_CREW_MAYBE_GONE,
    S_LAID, S_FINAL, S_FINAL_LEFT, S_CURSES, S_ROUND, S_START, S_PHASE, S_ACTOR,
    S_DRAW_TARGET, S_SPY_LEFT, S_KEEP, S_HIRE_STEP, S_HIRED, S_HIRE_DONE, S_PENDING,
    S_NEXT_DOUBLE, S_NEXT_SPY, S_NEXT_SHORT, S_EVENTS, NUM_STATE_FIELDS
};
static const char *const STATE_NAMES[NUM_STATE_FIELDS] = {
    "piles", "pile_known", "stock", "stock_src", "crew", "crew_known", "crew_maybe_gone",
    "laid", "final", "final_left", "curses", "round", "start", "phase", "actor",
    "draw_target", "spy_left", "keep", "hire_step", "hired", "hire_done", "pending",
    "next_double", "next_spy", "next_short", "events",
};

/* ---- the builder's constants (engine.view_params) ------------------------------------ */
typedef struct {
    PyObject_HEAD
    Py_ssize_t n;                 /* players */
    Py_ssize_t K;                 /* card kinds (the length of a count row) */
    int open_stock;               /* bool(game.open_stock) */
    PyObject *num_players;        /* n as a Python int */
    PyTypeObject *view_cls;       /* CrewView */
    PyObject *no_cards;           /* NO_CARDS: the shared all-zero count row */
    PyObject *no_card_rows;       /* game.no_card_rows: (NO_CARDS,) * n */
    PyObject *no_combos;          /* game.no_combos: ((),) * n */
    PyObject *zero;               /* the int 0 (CPython's shared one: most counts and masks) */
    PyObject *attr[NUM_STATE_FIELDS];   /* interned attribute names */
} ViewBuilder;

/* ---- checked readers (cv_: generic, worth sharing) ----------------------------------- */

/* The field's name for a message: "name" or "name[i]". */
static const char *cv_where(char *buf, size_t size, const char *name, Py_ssize_t i)
{
    if (i < 0)
        return name;
    snprintf(buf, size, "%s[%zd]", name, i);
    return buf;
}

/* ``obj`` as a list or tuple of ``len`` items (any number when ``len`` < 0): its item
 * array in ``*items`` (borrowed), its length returned; -1 with TypeError (not a list)
 * or ValueError (wrong length) naming ``name[i]``. */
static Py_ssize_t cv_seq(PyObject *obj, Py_ssize_t len, const char *name, Py_ssize_t i,
                         PyObject ***items)
{
    char buf[96];
    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a list, got %.100s",
                     cv_where(buf, sizeof buf, name, i), Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t got = PySequence_Fast_GET_SIZE(obj);
    if (len >= 0 && got != len) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd",
                     cv_where(buf, sizeof buf, name, i), len, got);
        return -1;
    }
    *items = PySequence_Fast_ITEMS(obj);
    return got;
}

/* ``obj`` (an int, bools included, as the Python view's arithmetic accepts) as a C long;
 * -1 with TypeError (not an int) or ValueError (beyond a C long) naming ``name[i]``. */
static int cv_int(PyObject *obj, const char *name, Py_ssize_t i, long *v)
{
    char buf[96];
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s",
                     cv_where(buf, sizeof buf, name, i), Py_TYPE(obj)->tp_name);
        return -1;
    }
    *v = PyLong_AsLong(obj);
    if (*v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: an int out of range",
                     cv_where(buf, sizeof buf, name, i));
        return -1;
    }
    return 0;
}

/* cv_int with a shortcut for ``zero``, the shared int 0 object (most counts and knower
 * masks are 0: an identity test instead of a conversion). */
static inline int cv_int0(PyObject *zero, PyObject *obj, const char *name, Py_ssize_t i,
                          long *v)
{
    if (obj == zero) {
        *v = 0;
        return 0;
    }
    return cv_int(obj, name, i, v);
}

/* ``tuple(seq)`` for a list of ints (the same item objects), checked: exactly ``len``
 * items (any number when < 0), each an int. New reference, or NULL. */
static PyObject *cv_int_tuple(PyObject *seq, Py_ssize_t len, const char *name, Py_ssize_t i)
{
    PyObject **items;
    Py_ssize_t m = cv_seq(seq, len, name, i, &items);
    if (m < 0)
        return NULL;
    for (Py_ssize_t k = 0; k < m; k++)
        if (!PyLong_Check(items[k])) {
            char buf[96];
            PyErr_Format(PyExc_TypeError, "%s: expected ints, got %.100s",
                         cv_where(buf, sizeof buf, name, i), Py_TYPE(items[k])->tp_name);
            return NULL;
        }
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_INCREF(items[k]);
        PyTuple_SET_ITEM(out, k, items[k]);
    }
    return out;
}

/* ``tuple(map(tuple, rows))`` for a list of ``len`` lists of ints (any lengths). */
static PyObject *cv_int_rows(PyObject *rows, Py_ssize_t len, const char *name)
{
    PyObject **items;
    Py_ssize_t m = cv_seq(rows, len, name, -1, &items);
    if (m < 0)
        return NULL;
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t r = 0; r < m; r++) {
        PyObject *row = cv_int_tuple(items[r], -1, name, r);
        if (row == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, r, row);
    }
    return out;
}

/* ``(a, b)``: a new pair of the two objects (PyTuple_Pack without its varargs). */
static PyObject *cv_pair(PyObject *a, PyObject *b)
{
    PyObject *t = PyTuple_New(2);
    if (t == NULL)
        return NULL;
    Py_INCREF(a);
    PyTuple_SET_ITEM(t, 0, a);
    Py_INCREF(b);
    PyTuple_SET_ITEM(t, 1, b);
    return t;
}

/* A new reference to ``obj`` (for the view's shared constants). */
static PyObject *cv_ref(PyObject *obj)
{
    Py_INCREF(obj);
    return obj;
}

/* ---- the parts of the view ----------------------------------------------------------- */

/* acting = self.current_players():
 *     if ph != "hire": return () if ph == "over" else (self.actor,)
 *     s = self.hire_step
 *     return tuple([p for p in range(n) if keep[p] > s and len(stock[p]) > s])
 * (``stock`` is read only in the hiring phase, NULL otherwise.) */
static PyObject *build_acting(ViewBuilder *vb, int hire, int over, PyObject *actor,
                              PyObject *hire_step, PyObject *keep, PyObject *stock)
{
    if (!hire)
        return over ? PyTuple_New(0) : PyTuple_Pack(1, actor);
    long s, kp;
    PyObject **keeps, **stocks, **cards;
    if (cv_int(hire_step, "hire_step", -1, &s) < 0
            || cv_seq(keep, vb->n, "keep", -1, &keeps) < 0
            || cv_seq(stock, vb->n, "stock", -1, &stocks) < 0)
        return NULL;
    Py_ssize_t seats[MAXN], count = 0;
    for (Py_ssize_t p = 0; p < vb->n; p++) {
        if (cv_int(keeps[p], "keep", p, &kp) < 0)
            return NULL;
        Py_ssize_t size = cv_seq(stocks[p], -1, "stock", p, &cards);
        if (size < 0)
            return NULL;
        if (kp > s && size > s)
            seats[count++] = p;
    }
    PyObject *out = PyTuple_New(count);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *seat = PyLong_FromSsize_t(seats[i]);
        if (seat == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, seat);
    }
    return out;
}

/* masks = tuple(map(tuple, self.pile_known))
 * for known, pile in zip(masks, self.piles):
 *     where = positions i with known[i] & bit  (memoised in Python on (bit, known))
 *     seen.append(tuple([(i, pile[i]) for i in where]) if where else ())
 * Only the cards at the known positions are read; a pile must be as long as its masks. */
static int build_piles(ViewBuilder *vb, long player, PyObject *piles, PyObject *pile_known,
                       PyObject **masks_out, PyObject **seen_out)
{
    PyObject **knowns, **pile_items, **masks_items, **cards;
    if (cv_seq(pile_known, vb->n, "pile_known", -1, &knowns) < 0
            || cv_seq(piles, vb->n, "piles", -1, &pile_items) < 0)
        return -1;
    PyObject *masks = PyTuple_New(vb->n), *seen = PyTuple_New(vb->n);
    if (masks == NULL || seen == NULL)
        goto fail;
    for (Py_ssize_t s = 0; s < vb->n; s++) {
        PyObject *row = cv_int_tuple(knowns[s], -1, "pile_known", s);
        if (row == NULL)
            goto fail;
        PyTuple_SET_ITEM(masks, s, row);
        Py_ssize_t size = PyTuple_GET_SIZE(row);
        masks_items = &PyTuple_GET_ITEM(row, 0);
        if (cv_seq(pile_items[s], size, "piles", s, &cards) < 0)
            goto fail;
        Py_ssize_t count = 0;
        for (Py_ssize_t i = 0; i < size; i++) {
            long m;
            if (cv_int0(vb->zero, masks_items[i], "pile_known", s, &m) < 0)
                goto fail;
            if (((unsigned long)m >> player) & 1)
                count++;
        }
        PyObject *here = PyTuple_New(count);     /* () when I know no card here */
        if (here == NULL)
            goto fail;
        PyTuple_SET_ITEM(seen, s, here);
        Py_ssize_t j = 0;
        for (Py_ssize_t i = 0; i < size && j < count; i++) {
            if (masks_items[i] == vb->zero
                    || !(((unsigned long)PyLong_AsLong(masks_items[i]) >> player) & 1))
                continue;
            PyObject *card = cards[i];
            if (!PyLong_Check(card)) {
                PyErr_Format(PyExc_TypeError, "piles[%zd]: expected ints, got %.100s", s,
                             Py_TYPE(card)->tp_name);
                goto fail;
            }
            PyObject *pos = PyLong_FromSsize_t(i);
            PyObject *pair = pos == NULL ? NULL : cv_pair(pos, card);
            Py_XDECREF(pos);
            if (pair == NULL)
                goto fail;
            PyTuple_SET_ITEM(here, j++, pair);
        }
    }
    *masks_out = masks;
    *seen_out = seen;
    return 0;
fail:
    Py_XDECREF(masks);
    Py_XDECREF(seen);
    return -1;
}

/* _hidden_stock(g, srcs): tuple([(-1, s) for s in srcs]) (memoised in Python). */
static PyObject *hidden_stock(PyObject *srcs, Py_ssize_t q, PyObject *minus_one)
{
    PyObject **items;
    Py_ssize_t m = cv_seq(srcs, -1, "stock_src", q, &items);
    if (m < 0)
        return NULL;
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *pair;
        if (!PyLong_Check(items[i])) {
            PyErr_Format(PyExc_TypeError, "stock_src[%zd]: expected ints, got %.100s", q,
                         Py_TYPE(items[i])->tp_name);
            pair = NULL;
        } else {
            pair = cv_pair(minus_one, items[i]);
        }
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* tuple(zip(cards, srcs)) of a stock the player sees (the two lists must be as long). */
static PyObject *shown_stock(PyObject *cards, PyObject *srcs, Py_ssize_t q)
{
    PyObject **ks, **ss;
    Py_ssize_t m = cv_seq(srcs, -1, "stock_src", q, &ss);
    if (m < 0 || cv_seq(cards, m, "stock", q, &ks) < 0)
        return NULL;
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *pair;
        if (!PyLong_Check(ks[i]) || !PyLong_Check(ss[i])) {
            PyErr_Format(PyExc_TypeError, "stock[%zd]/stock_src[%zd]: expected ints", q, q);
            pair = NULL;
        } else {
            pair = cv_pair(ks[i], ss[i]);
        }
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* if not any(stock_src): stock = ((),) * n
 * elif self.phase == "hire":   # stock cards are seen at hiring only
 *     stock = tuple([tuple(zip(cards, srcs)) if q == player or g.open_stock
 *                    else _hidden_stock(g, srcs) for q, (cards, srcs) in ...])
 * else: stock = tuple([_hidden_stock(g, srcs) for srcs in stock_src])
 * (``stock`` is NULL outside the hiring phase: not read there.) */
static PyObject *build_stock(ViewBuilder *vb, long player, int hire, PyObject *stock,
                             PyObject *stock_src)
{
    PyObject **srcs, **cards = NULL, **unused;
    if (cv_seq(stock_src, vb->n, "stock_src", -1, &srcs) < 0)
        return NULL;
    int any = 0;
    for (Py_ssize_t q = 0; q < vb->n; q++) {
        Py_ssize_t m = cv_seq(srcs[q], -1, "stock_src", q, &unused);
        if (m < 0)
            return NULL;
        any |= m > 0;
    }
    PyObject *out = PyTuple_New(vb->n);
    if (out == NULL)
        return NULL;
    PyObject *minus_one = NULL;
    if (any && hire && cv_seq(stock, vb->n, "stock", -1, &cards) < 0)
        goto fail;
    if (any && (minus_one = PyLong_FromLong(-1)) == NULL)
        goto fail;
    for (Py_ssize_t q = 0; q < vb->n; q++) {
        PyObject *part;
        if (!any)
            part = PyTuple_New(0);
        else if (hire && (q == player || vb->open_stock))
            part = shown_stock(cards[q], srcs[q], q);
        else
            part = hidden_stock(srcs[q], q, minus_one);
        if (part == NULL)
            goto fail;
        PyTuple_SET_ITEM(out, q, part);
    }
    Py_XDECREF(minus_one);
    return out;
fail:
    Py_XDECREF(minus_one);
    Py_DECREF(out);
    return NULL;
}

/* _count_rows(rows, g.no_card_rows): every row a list of K counts;
 *     if not any(map(any, rows)): return no_cards    (the game's no_card_rows)
 *     return tuple([tuple(row) if any(row) else NO_CARDS for row in rows]) */
static PyObject *count_rows(ViewBuilder *vb, PyObject *const *rows, const char *name)
{
    int nonzero[MAXN], any = 0;
    PyObject **items;
    for (Py_ssize_t r = 0; r < vb->n; r++) {
        if (cv_seq(rows[r], vb->K, name, r, &items) < 0)
            return NULL;
        nonzero[r] = 0;
        for (Py_ssize_t k = 0; k < vb->K; k++) {
            long c;
            if (cv_int0(vb->zero, items[k], name, r, &c) < 0)
                return NULL;
            nonzero[r] |= c != 0;
        }
        any |= nonzero[r];
    }
    if (!any)
        return cv_ref(vb->no_card_rows);
    PyObject *out = PyTuple_New(vb->n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t r = 0; r < vb->n; r++) {
        PyObject *row = nonzero[r] ? cv_int_tuple(rows[r], vb->K, name, r)
                                   : cv_ref(vb->no_cards);
        if (row == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, r, row);
    }
    return out;
}

/* my_crew = tuple(self.crew[player]); crew_sizes = tuple(map(sum, self.crew)) */
static int build_crew(ViewBuilder *vb, long player, PyObject *crew, PyObject **mine,
                      PyObject **sizes)
{
    PyObject **rows, **items;
    if (cv_seq(crew, vb->n, "crew", -1, &rows) < 0)
        return -1;
    PyObject *out = PyTuple_New(vb->n);
    if (out == NULL)
        return -1;
    for (Py_ssize_t q = 0; q < vb->n; q++) {
        if (cv_seq(rows[q], vb->K, "crew", q, &items) < 0)
            goto fail;
        long total = 0, c;
        for (Py_ssize_t k = 0; k < vb->K; k++) {
            if (cv_int0(vb->zero, items[k], "crew", q, &c) < 0)
                goto fail;
            if ((c > 0 && total > LONG_MAX - c) || (c < 0 && total < LONG_MIN - c)) {
                PyErr_Format(PyExc_ValueError, "crew[%zd]: the counts overflow", q);
                goto fail;
            }
            total += c;
        }
        PyObject *size = PyLong_FromLong(total);
        if (size == NULL)
            goto fail;
        PyTuple_SET_ITEM(out, q, size);
    }
    if ((*mine = cv_int_tuple(rows[player], vb->K, "crew", player)) == NULL)
        goto fail;
    *sizes = out;
    return 0;
fail:
    Py_DECREF(out);
    return -1;
}

/* crew_known = _count_rows([row[player] for row in crew_known], g.no_card_rows)
 * crew_maybe_gone = tuple([row[player] for row in maybe_gone])
 * known_about_me = _count_rows(crew_known[player], g.no_card_rows)
 * maybe_gone_about_me = tuple(maybe_gone[player])
 * Only the player's column (what the player knows of q) and row (what o knows of the
 * player's pile) are read. */
static int build_knowledge(ViewBuilder *vb, long player, PyObject *crew_known,
                           PyObject *maybe_gone, PyObject **out)
{
    PyObject **qs, **by, **gone_rows, **gone;
    PyObject *column[MAXN], *gone_col = NULL;
    out[0] = out[1] = out[2] = out[3] = NULL;
    if (cv_seq(crew_known, vb->n, "crew_known", -1, &qs) < 0
            || cv_seq(maybe_gone, vb->n, "crew_maybe_gone", -1, &gone_rows) < 0)
        return -1;
    for (Py_ssize_t q = 0; q < vb->n; q++) {
        if (cv_seq(qs[q], vb->n, "crew_known", q, &by) < 0)
            return -1;
        column[q] = by[player];
    }
    if ((out[0] = count_rows(vb, column, "crew_known")) == NULL)
        goto fail;
    if ((gone_col = PyTuple_New(vb->n)) == NULL)
        goto fail;
    out[1] = gone_col;
    for (Py_ssize_t q = 0; q < vb->n; q++) {
        long v;
        if (cv_seq(gone_rows[q], vb->n, "crew_maybe_gone", q, &gone) < 0
                || cv_int(gone[player], "crew_maybe_gone", q, &v) < 0)
            goto fail;
        PyTuple_SET_ITEM(gone_col, q, cv_ref(gone[player]));
    }
    if (cv_seq(qs[player], vb->n, "crew_known", player, &by) < 0
            || (out[2] = count_rows(vb, by, "crew_known")) == NULL
            || (out[3] = cv_int_tuple(gone_rows[player], vb->n, "crew_maybe_gone",
                                      player)) == NULL)
        goto fail;
    return 0;
fail:
    for (int i = 0; i < 4; i++)
        Py_CLEAR(out[i]);
    return -1;
}

/* events = tuple([(a, what, arg, k if m & bit else -1)
 *                 for a, what, arg, k, m in self.events])
 * A Snatch's card only for the players its knower mask names. */
static PyObject *build_events(ViewBuilder *vb, long player, PyObject *events)
{
    PyObject **list, **e;
    Py_ssize_t m = cv_seq(events, -1, "events", -1, &list);
    if (m < 0)
        return NULL;
    PyObject *out = PyTuple_New(m);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        long a, k, mask;
        if (cv_seq(list[i], 5, "events", i, &e) < 0
                || cv_int(e[0], "events (seat)", i, &a) < 0
                || cv_int0(vb->zero, e[3], "events (kind)", i, &k) < 0
                || cv_int0(vb->zero, e[4], "events (knowers)", i, &mask) < 0)
            goto fail;
        if (!PyUnicode_Check(e[1]) || !(PyUnicode_Check(e[2]) || PyLong_Check(e[2]))) {
            PyErr_Format(PyExc_TypeError,
                         "events[%zd]: expected [seat, what (a str), argument (an int or "
                         "a str), kind, knowers]", i);
            goto fail;
        }
        int seen = ((unsigned long)mask >> player) & 1;
        PyObject *kind = seen ? cv_ref(e[3]) : PyLong_FromLong(-1);
        PyObject *ev = kind == NULL ? NULL : PyTuple_New(4);
        if (ev == NULL) {
            Py_XDECREF(kind);
            goto fail;
        }
        for (int j = 0; j < 3; j++)
            PyTuple_SET_ITEM(ev, j, cv_ref(e[j]));
        PyTuple_SET_ITEM(ev, 3, kind);
        PyTuple_SET_ITEM(out, i, ev);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ---- the view ------------------------------------------------------------------------ */

/* ``player`` as a seat: any int-like (the Python view accepts numpy ints and keeps the
 * object itself in the view), within 0..n-1. */
static int seat_of(ViewBuilder *vb, PyObject *player, long *seat)
{
    if (PyFloat_Check(player) || !PyIndex_Check(player)) {
        PyErr_Format(PyExc_TypeError, "player: expected an int, got %.100s",
                     Py_TYPE(player)->tp_name);
        return -1;
    }
    Py_ssize_t p = PyNumber_AsSsize_t(player, PyExc_ValueError);
    if (p == -1 && PyErr_Occurred())
        return -1;
    if (p < 0 || p >= vb->n) {
        PyErr_Format(PyExc_ValueError, "player: seat %zd is not one of 0..%zd", p,
                     vb->n - 1);
        return -1;
    }
    *seat = (long)p;
    return 0;
}

/* A str field (phase, pending), checked. */
static int check_str(PyObject *obj, const char *name)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a str, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* An int field copied as it is (actor, round, start, hire_step), checked. */
static PyObject *int_field(PyObject *obj, const char *name)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return cv_ref(obj);
}

/* The per-seat lists copied as tuples of ints, in view order. */
static const struct { int view, state; } SEAT_INTS[] = {
    {V_CURSES, S_CURSES}, {V_DRAW_TARGET, S_DRAW_TARGET}, {V_SPY_LEFT, S_SPY_LEFT},
    {V_KEEP, S_KEEP}, {V_NEXT_DOUBLE, S_NEXT_DOUBLE}, {V_NEXT_SPY, S_NEXT_SPY},
    {V_NEXT_SHORT, S_NEXT_SHORT},
};

/* Fill ``v`` (NULL items) with the view's items; -1 on an error (``v`` then holds the
 * items made so far, for the caller to release). */
static int fill_view(ViewBuilder *vb, PyObject **f, PyObject *state, PyObject *player,
                     long p, PyObject **v)
{
    PyObject *phase = f[S_PHASE];
    if (check_str(phase, "phase") < 0 || check_str(f[S_PENDING], "pending") < 0)
        return -1;
    int hire = PyUnicode_CompareWithASCIIString(phase, "hire") == 0;
    int over = PyUnicode_CompareWithASCIIString(phase, "over") == 0;
    /* self.stock is read only while hiring (current_players and the open stocks) */
    PyObject *stock = NULL;
    if (hire && (stock = f[S_STOCK] = PyObject_GetAttr(state, vb->attr[S_STOCK])) == NULL)
        return -1;

    /* player, n, bool(g.open_stock), self.phase */
    v[V_PLAYER] = cv_ref(player);
    v[V_NUM_PLAYERS] = cv_ref(vb->num_players);
    v[V_OPEN_STOCK] = cv_ref(vb->open_stock ? Py_True : Py_False);
    v[V_PHASE] = cv_ref(phase);
    /* self.current_players(), self.actor, self.round, self.start, self.hire_step,
     * self.pending */
    if ((v[V_ACTING] = build_acting(vb, hire, over, f[S_ACTOR], f[S_HIRE_STEP], f[S_KEEP],
                                    stock)) == NULL
            || (v[V_ACTOR] = int_field(f[S_ACTOR], "actor")) == NULL
            || (v[V_ROUND] = int_field(f[S_ROUND], "round")) == NULL
            || (v[V_START] = int_field(f[S_START], "start")) == NULL
            || (v[V_HIRE_STEP] = int_field(f[S_HIRE_STEP], "hire_step")) == NULL)
        return -1;
    v[V_PENDING] = cv_ref(f[S_PENDING]);
    /* masks, tuple(seen), stock */
    if (build_piles(vb, p, f[S_PILES], f[S_PILE_KNOWN], &v[V_PILE_MASKS],
                    &v[V_PILE_SEEN]) < 0
            || (v[V_STOCK] = build_stock(vb, p, hire, stock, f[S_STOCK_SRC])) == NULL)
        return -1;
    /* tuple(self.hired[player]), self.hire_done[player] */
    PyObject **items;
    if (cv_seq(f[S_HIRED], vb->n, "hired", -1, &items) < 0
            || (v[V_MY_HIRED] = cv_int_tuple(items[p], -1, "hired", p)) == NULL
            || cv_seq(f[S_HIRE_DONE], vb->n, "hire_done", -1, &items) < 0)
        return -1;
    if (!PyBool_Check(items[p])) {
        PyErr_Format(PyExc_TypeError, "hire_done[%ld]: expected a bool, got %.100s", p,
                     Py_TYPE(items[p])->tp_name);
        return -1;
    }
    v[V_MY_HIRE_DONE] = cv_ref(items[p]);
    /* tuple(self.crew[player]), tuple(map(sum, self.crew)), the knowledge tables */
    if (build_crew(vb, p, f[S_CREW], &v[V_MY_CREW], &v[V_CREW_SIZES]) < 0
            || build_knowledge(vb, p, f[S_CREW_KNOWN], f[S_CREW_MAYBE_GONE],
                               &v[V_CREW_KNOWN]) < 0)
        return -1;
    /* tuple(map(tuple, self.laid)),
     * tuple(map(tuple, final)) if any(final) else g.no_combos,
     * _count_rows(left, g.no_card_rows) */
    if ((v[V_LAID] = cv_int_rows(f[S_LAID], vb->n, "laid")) == NULL
            || cv_seq(f[S_FINAL], vb->n, "final", -1, &items) < 0)
        return -1;
    int any_final = 0;
    for (Py_ssize_t q = 0; q < vb->n; q++) {
        PyObject **unused;
        Py_ssize_t m = cv_seq(items[q], -1, "final", q, &unused);
        if (m < 0)
            return -1;
        any_final |= m > 0;
    }
    if ((v[V_FINAL] = any_final ? cv_int_rows(f[S_FINAL], vb->n, "final")
                                : cv_ref(vb->no_combos)) == NULL
            || cv_seq(f[S_FINAL_LEFT], vb->n, "final_left", -1, &items) < 0
            || (v[V_FINAL_LEFT] = count_rows(vb, items, "final_left")) == NULL)
        return -1;
    /* tuple(self.curses), tuple(self.draw_target), ..., tuple(self.next_short) */
    for (size_t i = 0; i < sizeof SEAT_INTS / sizeof SEAT_INTS[0]; i++) {
        int s = SEAT_INTS[i].state;
        if ((v[SEAT_INTS[i].view] = cv_int_tuple(f[s], vb->n, STATE_NAMES[s], -1)) == NULL)
            return -1;
    }
    /* events */
    if ((v[V_EVENTS] = build_events(vb, p, f[S_EVENTS])) == NULL)
        return -1;
    return 0;
}

/* ViewBuilder.view(state, player): state.python_view(player), built in C. */
static PyObject *ViewBuilder_view(ViewBuilder *vb, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "view() takes 2 arguments (state, player), got %zd",
                     nargs);
        return NULL;
    }
    PyObject *state = args[0], *player = args[1];
    long p;
    if (seat_of(vb, player, &p) < 0)
        return NULL;
    /* every field the view reads but self.stock (read in fill_view when hiring): from
     * the instance __dict__ (where the engine keeps them), else as attributes */
    PyObject *f[NUM_STATE_FIELDS] = {NULL};
    PyObject *view = NULL;
    PyObject *dict = PyObject_GenericGetDict(state, NULL);
    if (dict == NULL)
        PyErr_Clear();
    for (int i = 0; i < NUM_STATE_FIELDS; i++) {
        if (i == S_STOCK)
            continue;
        if (dict != NULL && PyDict_CheckExact(dict)
                && (f[i] = PyDict_GetItemWithError(dict, vb->attr[i])) != NULL) {
            Py_INCREF(f[i]);
            continue;
        }
        if (PyErr_Occurred() || (f[i] = PyObject_GetAttr(state, vb->attr[i])) == NULL)
            goto done;
    }
    PyObject *v[NUM_VIEW_FIELDS] = {NULL};
    if (fill_view(vb, f, state, player, p, v) < 0) {
        for (int i = 0; i < NUM_VIEW_FIELDS; i++)
            Py_XDECREF(v[i]);
        goto done;
    }
    /* tuple.__new__(CrewView, (...)): the tuple subclass filled by position */
    view = vb->view_cls->tp_alloc(vb->view_cls, NUM_VIEW_FIELDS);
    for (int i = 0; i < NUM_VIEW_FIELDS; i++) {
        if (view != NULL)
            PyTuple_SET_ITEM(view, i, v[i]);
        else
            Py_DECREF(v[i]);
    }
done:
    Py_XDECREF(dict);
    for (int i = 0; i < NUM_STATE_FIELDS; i++)
        Py_XDECREF(f[i]);
    return view;
}

/* ---- construction -------------------------------------------------------------------- */

static int check_const(PyObject *obj, Py_ssize_t len, PyObject *item, const char *name)
{
    if (ce_tuple(obj, len, name) == NULL)
        return -1;
    for (Py_ssize_t i = 0; item != NULL && i < len; i++)
        if (PyTuple_GET_ITEM(obj, i) != item) {
            PyErr_Format(PyExc_ValueError, "ViewBuilder: %s must repeat one shared tuple",
                         name);
            return -1;
        }
    return 0;
}

static void ViewBuilder_dealloc(ViewBuilder *vb)
{
    Py_XDECREF(vb->num_players);
    Py_XDECREF(vb->view_cls);
    Py_XDECREF(vb->no_cards);
    Py_XDECREF(vb->no_card_rows);
    Py_XDECREF(vb->no_combos);
    Py_XDECREF(vb->zero);
    for (int i = 0; i < NUM_STATE_FIELDS; i++)
        Py_XDECREF(vb->attr[i]);
    Py_TYPE(vb)->tp_free((PyObject *)vb);
}

static PyObject *ViewBuilder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_players", "num_kinds", "open_stock", "view_cls",
                             "no_cards", "no_card_rows", "no_combos", NULL};
    Py_ssize_t n, K;
    int open;
    PyObject *cls, *no_cards, *no_card_rows, *no_combos;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nnpOOOO:ViewBuilder", kwlist, &n, &K,
                                     &open, &cls, &no_cards, &no_card_rows, &no_combos))
        return NULL;
    if (n < 1 || n > MAXN || K < 1 || K > MAXK) {
        PyErr_SetString(PyExc_ValueError,
                        "ViewBuilder: num_players or num_kinds out of range");
        return NULL;
    }
    if (ce_check_record(cls, "ViewBuilder: view_cls", VIEW_NAMES, NUM_VIEW_FIELDS) < 0
            || check_const(no_cards, K, NULL, "no_cards") < 0
            || check_const(no_card_rows, n, no_cards, "no_card_rows") < 0)
        return NULL;
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL)
        return NULL;
    int bad = check_const(no_combos, n, empty, "no_combos");
    Py_DECREF(empty);
    if (bad < 0)
        return NULL;
    for (Py_ssize_t k = 0; k < K; k++) {
        long c;
        if (ce_long(PyTuple_GET_ITEM(no_cards, k), "no_cards", &c) < 0)
            return NULL;
        if (c != 0) {
            PyErr_SetString(PyExc_ValueError, "ViewBuilder: no_cards must be all zero");
            return NULL;
        }
    }
    ViewBuilder *vb = (ViewBuilder *)type->tp_alloc(type, 0);
    if (vb == NULL)
        return NULL;
    vb->n = n;
    vb->K = K;
    vb->open_stock = open;
    vb->view_cls = (PyTypeObject *)cv_ref(cls);
    vb->no_cards = cv_ref(no_cards);
    vb->no_card_rows = cv_ref(no_card_rows);
    vb->no_combos = cv_ref(no_combos);
    if ((vb->num_players = PyLong_FromSsize_t(n)) == NULL
            || (vb->zero = PyLong_FromLong(0)) == NULL)
        goto fail;
    for (int i = 0; i < NUM_STATE_FIELDS; i++)
        if ((vb->attr[i] = PyUnicode_InternFromString(STATE_NAMES[i])) == NULL)
            goto fail;
    return (PyObject *)vb;
fail:
    Py_DECREF(vb);
    return NULL;
}

static PyMethodDef ViewBuilder_methods[] = {
    {"view", (PyCFunction)(void (*)(void))ViewBuilder_view, METH_FASTCALL,
     "view(state, player) -> CrewView: exactly state.python_view(player)."},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(VIEWBUILDER_DOC,
"ViewBuilder(num_players, num_kinds, open_stock, view_cls, no_cards, no_card_rows,\n"
"            no_combos)\n\n"
"The compiled All Hands on Deck view builder (engine.view_params gives the arguments);\n"
"view(state, player) returns what state.python_view(player) returns.");

static PyTypeObject ViewBuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "plunder.envs.all_hands_crew._cview.ViewBuilder",
    .tp_basicsize = sizeof(ViewBuilder),
    .tp_dealloc = (destructor)ViewBuilder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = VIEWBUILDER_DOC,
    .tp_methods = ViewBuilder_methods,
    .tp_new = ViewBuilder_new,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cview",
    "All Hands on Deck: the compiled twin of the state's python_view.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cview(void)
{
    static const ce_names names[] = {
        {"VIEW_FIELDS", VIEW_NAMES, NUM_VIEW_FIELDS},
        {"STATE_FIELDS", STATE_NAMES, NUM_STATE_FIELDS},
    };
    return ce_module_named(&module, "ViewBuilder", &ViewBuilderType, names,
                           (int)(sizeof names / sizeof names[0]));
}
