/* The entry points of draughts._core.native._native: the functions of the
 * draughts._core interface. Each checks everything it is given; a tables
 * object the native core does not hold (a board over 128 squares, or a
 * pure Tables) is passed on to the pure generator unchanged. */
#include "convert.h"
#include "core_api.h"

extern PyTypeObject CoreType;
extern PyTypeObject StateType;
int board_state_init(void);  /* board_state.c */
PyObject *undo_fields(void); /* board_state.c */
PyObject *board_unique_move(PyObject *state, PyObject *origin, PyObject *destination,
                            int capture);              /* board_state.c */
PyObject *board_push(PyObject *state, PyObject *move); /* board_state.c */

static PyObject *pure_functions; /* name -> the pure generator's function */

/* -- Arguments -------------------------------------------------------------- */

/* Positional and keyword arguments into out[] by the names of the pure
 * functions (NULL where an optional one is not given). */
static int parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 const char *const *names, int nnames, int nrequired, PyObject **out) {
    for (int i = 0; i < nnames; i++) out[i] = NULL;
    if (nargs > nnames) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments", fname, nnames);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) out[i] = args[i];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        if (key == NULL) return -1;
        int i = 0;
        while (i < nnames && strcmp(names[i], key) != 0) i++;
        if (i == nnames || out[i] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected or repeated argument %R", fname,
                         PyTuple_GET_ITEM(kwnames, k));
            return -1;
        }
        out[i] = args[nargs + k];
    }
    for (int i = 0; i < nrequired; i++) {
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing argument %s", fname, names[i]);
            return -1;
        }
    }
    return 0;
}

static CoreObject *native_tables(PyObject *t) {
    if (PyObject_TypeCheck(t, &CoreType) && ((CoreObject *)t)->ready) return (CoreObject *)t;
    return NULL;
}

static PyObject *fallback(const char *name, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames) {
    PyObject *f = pure_functions ? PyDict_GetItemString(pure_functions, name) : NULL;
    if (f == NULL) {
        PyErr_Format(PyExc_RuntimeError, "no pure %s() to fall back on", name);
        return NULL;
    }
    return PyObject_Vectorcall(f, args, nargsf, kwnames);
}

static int get_color(PyObject *value, int *color) {
    long c = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
    if (c != 0 && c != 1) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "color must be 0 (White) or 1 (Black), not %R", value);
        return -1;
    }
    *color = (int)c;
    return 0;
}

static int get_flag(PyObject *value, int *flag) {
    *flag = value == NULL ? 0 : PyObject_IsTrue(value);
    return *flag < 0 ? -1 : 0;
}

/* Four bitboards that must not share a square. */
static int get_position(CoreObject *c, PyObject *const *values, const char *const *names,
                        bb_t out[4]) {
    bb_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (to_bits(c, values[i], &out[i], names[i]) < 0) return -1;
        if (seen & out[i]) {
            PyErr_Format(PyExc_ValueError, "%s shares a square with another bitboard", names[i]);
            return -1;
        }
        seen |= out[i];
    }
    return 0;
}

static int get_frozen(CoreObject *c, PyObject *value, bb_t *frozen) {
    *frozen = 0;
    return value == NULL ? 0 : to_bits(c, value, frozen, "frozen_kings");
}

/* -- Lists of moves ---------------------------------------------------------- */

static PyObject *raw_list(CoreObject *c, const RouteList *l) {
    PyObject *list = PyList_New((Py_ssize_t)l->len);
    if (list == NULL) return NULL;
    for (size_t i = 0; i < l->len; i++) {
        PyObject *m = raw_move(c, &l->items[i]);
        if (m == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, m);
    }
    return list;
}

/* The draughts.Move of each route, in square order (origin, then
 * destination; routes between the same two squares keep their order). */
static PyObject *move_list(CoreObject *c, const RouteList *l) {
    size_t n = l->len;
    PyObject *list = PyList_New((Py_ssize_t)n);
    size_t *order = PyMem_Malloc((n + 1) * sizeof(size_t));
    if (list == NULL || order == NULL) {
        Py_XDECREF(list);
        PyMem_Free(order);
        return PyErr_NoMemory();
    }
    for (size_t i = 0; i < n; i++) {
        const Route *m = &l->items[i];
        size_t j = i;
        int key = c->number[m->origin] * 256 + c->number[m->dest];
        while (j > 0) {
            const Route *p = &l->items[order[j - 1]];
            if (c->number[p->origin] * 256 + c->number[p->dest] <= key) break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (size_t i = 0; i < n; i++) {
        const Route *m = &l->items[order[i]];
        PyObject *move = m->ncaps ? capture_move(c, m) : Py_NewRef(c->step_moves[m->slot]);
        if (move == NULL) {
            Py_DECREF(list);
            PyMem_Free(order);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, move);
    }
    PyMem_Free(order);
    return list;
}

static PyObject *out_of_memory(RouteList *l) {
    routes_free(l);
    return PyErr_NoMemory();
}

/* legal_moves, captures and board_moves share their arguments. */
enum { LEGAL, CAPTURES, BOARD };

static PyObject *generate(int kind, const char *name, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames) {
    static const char *const names[] = {"t",        "color",        "own_men",
                                        "own_kings", "opp_men",     "opp_kings",
                                        "frozen_kings", "keep_duplicates"};
    static const char *const capture_names[] = {"t",       "color",     "own_men",
                                                "own_kings", "opp_men", "opp_kings",
                                                "keep_duplicates"};
    PyObject *a[8];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < 1) return fallback(name, args, nargsf, kwnames);
    CoreObject *c = native_tables(args[0]);
    if (c == NULL) return fallback(name, args, nargsf, kwnames);
    const char *const *used = kind == CAPTURES ? capture_names : names;
    int nnames = kind == CAPTURES ? 7 : kind == BOARD ? 7 : 8;
    if (parse(name, args, nargs, kwnames, used, nnames, 6, a) < 0) return NULL;
    int color, keep = 0;
    bb_t bb[4], frozen = 0;
    if (get_color(a[1], &color) < 0 || get_position(c, a + 2, used + 2, bb) < 0) return NULL;
    if (kind == CAPTURES ? get_flag(a[6], &keep) < 0
                         : get_frozen(c, a[6], &frozen) < 0 ||
                               (kind == LEGAL && get_flag(a[7], &keep) < 0))
        return NULL;
    Side s = {bb[0], bb[1], bb[2], bb[3]};
    RouteList l;
    routes_init(&l);
    long n = gen_captures(&c->rules, color, &s, keep, &l);
    if (n == 0 && kind != CAPTURES) n = gen_steps(&c->rules, color, &s, frozen, &l);
    if (n < 0) return out_of_memory(&l);
    PyObject *result = kind == BOARD ? move_list(c, &l) : raw_list(c, &l);
    routes_free(&l);
    return result;
}

static PyObject *py_legal_moves(PyObject *m, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    (void)m;
    return generate(LEGAL, "legal_moves", args, nargsf, kwnames);
}

static PyObject *py_captures(PyObject *m, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames) {
    (void)m;
    return generate(CAPTURES, "captures", args, nargsf, kwnames);
}

static PyObject *py_board_moves(PyObject *m, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    (void)m;
    return generate(BOARD, "board_moves", args, nargsf, kwnames);
}

/* The core's any_capture (the engine's test of whether a side can
 * capture), exposed so that the tests hold it to the pure generator; not
 * part of the contract (no pure twin): native tables only. */
static PyObject *py_any_capture(PyObject *m, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    (void)m;
    static const char *const names[] = {"t",         "color",   "own_men",
                                        "own_kings", "opp_men", "opp_kings"};
    PyObject *a[6];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) {
        PyErr_SetString(PyExc_TypeError, "any_capture needs tables the native core holds");
        return NULL;
    }
    if (parse("any_capture", args, nargs, kwnames, names, 6, 6, a) < 0) return NULL;
    int color;
    bb_t bb[4];
    if (get_color(a[1], &color) < 0 || get_position(c, a + 2, names + 2, bb) < 0) return NULL;
    Side s = {bb[0], bb[1], bb[2], bb[3]};
    return PyBool_FromLong(any_capture(&c->rules, color, &s));
}

/* steps, has_step and find_step: (t, color, men, kings, occupied, ...). */
static int get_own(CoreObject *c, PyObject *const *a, Side *s) {
    bb_t men, kings, occupied;
    if (to_bits(c, a[0], &men, "men") < 0 || to_bits(c, a[1], &kings, "kings") < 0 ||
        to_bits(c, a[2], &occupied, "occupied") < 0)
        return -1;
    if ((men & kings) || ((men | kings) & ~occupied)) {
        PyErr_SetString(PyExc_ValueError, "men and kings must be apart and within occupied");
        return -1;
    }
    s->own_men = men, s->own_kings = kings;
    s->opp_men = occupied & ~(men | kings), s->opp_kings = 0;
    return 0;
}

static PyObject *py_steps(PyObject *mod, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t", "color", "men", "kings", "occupied", "frozen_kings"};
    PyObject *a[6];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("steps", args, nargsf, kwnames);
    int color;
    Side s;
    bb_t frozen;
    if (parse("steps", args, nargs, kwnames, names, 6, 5, a) < 0 || get_color(a[1], &color) < 0 ||
        get_own(c, a + 2, &s) < 0 || get_frozen(c, a[5], &frozen) < 0)
        return NULL;
    RouteList l;
    routes_init(&l);
    if (gen_steps(&c->rules, color, &s, frozen, &l) < 0) return out_of_memory(&l);
    PyObject *result = raw_list(c, &l);
    routes_free(&l);
    return result;
}

static PyObject *py_has_step(PyObject *mod, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t", "color", "men", "kings", "occupied"};
    PyObject *a[5];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("has_step", args, nargsf, kwnames);
    int color;
    Side s;
    if (parse("has_step", args, nargs, kwnames, names, 5, 5, a) < 0 ||
        get_color(a[1], &color) < 0 || get_own(c, a + 2, &s) < 0)
        return NULL;
    return PyBool_FromLong(any_step(&c->rules, color, &s));
}

static PyObject *py_find_step(PyObject *mod, PyObject *const *args, size_t nargsf,
                              PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t",        "color",  "men",         "kings",
                                        "occupied", "origin", "destination", "frozen_kings"};
    PyObject *a[8];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("find_step", args, nargsf, kwnames);
    int color, origin, dest;
    Side s;
    bb_t frozen;
    if (parse("find_step", args, nargs, kwnames, names, 8, 7, a) < 0 ||
        get_color(a[1], &color) < 0 || get_own(c, a + 2, &s) < 0 ||
        to_index(c, a[5], &origin, "origin") < 0 || to_index(c, a[6], &dest, "destination") < 0 ||
        get_frozen(c, a[7], &frozen) < 0)
        return NULL;
    Route step;
    if (!is_step(&c->rules, color, &s, origin, dest, frozen, &step)) Py_RETURN_NONE;
    return raw_move(c, &step);
}

static PyObject *py_moves_between(PyObject *mod, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t",         "color",   "own_men", "own_kings",
                                        "opp_men",   "opp_kings", "origin", "destination",
                                        "frozen_kings"};
    PyObject *a[9];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("moves_between", args, nargsf, kwnames);
    int color, origin, dest;
    bb_t bb[4], frozen;
    if (parse("moves_between", args, nargs, kwnames, names, 9, 8, a) < 0 ||
        get_color(a[1], &color) < 0 || get_position(c, a + 2, names + 2, bb) < 0 ||
        to_index(c, a[6], &origin, "origin") < 0 || to_index(c, a[7], &dest, "destination") < 0 ||
        get_frozen(c, a[8], &frozen) < 0)
        return NULL;
    Side s = {bb[0], bb[1], bb[2], bb[3]};
    RouteList l;
    routes_init(&l);
    long n = gen_captures(&c->rules, color, &s, 0, &l);
    if (n < 0) return out_of_memory(&l);
    if (n == 0) {
        Route step;
        routes_free(&l);
        if (!is_step(&c->rules, color, &s, origin, dest, frozen, &step)) return PyList_New(0);
        PyObject *list = PyList_New(1);
        if (list != NULL) PyList_SET_ITEM(list, 0, Py_NewRef(c->step_moves[step.slot]));
        return list;
    }
    size_t w = 0;
    for (size_t i = 0; i < l.len; i++)
        if (l.items[i].origin == origin && l.items[i].dest == dest) l.items[w++] = l.items[i];
    l.len = w;
    PyObject *result = move_list(c, &l);
    routes_free(&l);
    return result;
}

/* -- Perft and playing moves -------------------------------------------------- */

static PyObject *py_perft(PyObject *mod, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t",  "depth", "c",  "m0",   "m1",
                                        "k0", "k1",    "keep_duplicates", "bulk"};
    PyObject *a[9];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("perft", args, nargsf, kwnames);
    int color, keep, bulk = 1;
    bb_t bb[4];
    if (parse("perft", args, nargs, kwnames, names, 9, 7, a) < 0) return NULL;
    int overflow = 0;
    long depth = PyLong_Check(a[1]) ? PyLong_AsLongAndOverflow(a[1], &overflow) : 0;
    if (depth < 1 || overflow || depth > 100000) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "perft depth must be from 1 to 100000, not %R", a[1]);
        return NULL;
    }
    if (get_color(a[2], &color) < 0 || get_position(c, a + 3, names + 3, bb) < 0 ||
        get_flag(a[7], &keep) < 0 || (a[8] != NULL && get_flag(a[8], &bulk) < 0))
        return NULL;
    uint64_t total;
    int failed;
    /* The tables are read-only once loaded and the caller holds them. */
    Py_BEGIN_ALLOW_THREADS
    total = perft(&c->rules, (int)depth, color, bb[0], bb[1], bb[2], bb[3], keep, bulk, &failed);
    Py_END_ALLOW_THREADS
    if (failed) return PyErr_NoMemory();
    return PyLong_FromUnsignedLongLong(total);
}

static PyObject *position_tuple(CoreObject *c, const bb_t bb[4], uint64_t key) {
    PyObject *v[5] = {from_bits(c, bb[0]), from_bits(c, bb[1]), from_bits(c, bb[2]),
                      from_bits(c, bb[3]), PyLong_FromUnsignedLongLong(key)};
    PyObject *t = NULL;
    if (v[0] && v[1] && v[2] && v[3] && v[4]) t = PyTuple_Pack(5, v[0], v[1], v[2], v[3], v[4]);
    for (int i = 0; i < 5; i++) Py_XDECREF(v[i]);
    return t;
}

static const char *const position_names[] = {"m0", "m1", "k0", "k1"};

/* apply_keyed(t, move, color, m0, m1, k0, k1, key) -> (m0, m1, k0, k1, key) */
static PyObject *py_apply_keyed(PyObject *mod, PyObject *const *args, size_t nargsf,
                                PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t", "move", "color", "m0", "m1", "k0", "k1", "key"};
    PyObject *a[8];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("apply_keyed", args, nargsf, kwnames);
    Route m;
    int color;
    bb_t bb[4];
    uint64_t key;
    if (parse("apply_keyed", args, nargs, kwnames, names, 8, 8, a) < 0 ||
        route_of(c, a[1], &m) < 0 || get_color(a[2], &color) < 0 ||
        get_position(c, a + 3, position_names, bb) < 0 || get_key(a[7], &key) < 0)
        return NULL;
    bb_t own = bb[color] | bb[2 + color], opp = bb[1 - color] | bb[3 - color];
    /* The destination may be a captured square where pieces leave at once. */
    if (!(own & BIT(m.origin)) || (m.captured & ~opp) ||
        (m.dest != m.origin && ((own | opp) & ~m.captured & BIT(m.dest)))) {
        PyErr_Format(PyExc_ValueError, "move %R cannot be played in this position", a[1]);
        return NULL;
    }
    play(&c->rules, &m, color, bb, &key);
    return position_tuple(c, bb, key);
}

/* undo_keyed(t, move, color, m0, m1, k0, k1, captured_kings, key): the
 * position before color played move, from the one after it. */
static PyObject *py_undo_keyed(PyObject *mod, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t",  "move", "color",          "m0", "m1",
                                        "k0", "k1",   "captured_kings", "key"};
    PyObject *a[9];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("undo_keyed", args, nargsf, kwnames);
    Route m;
    int color;
    bb_t bb[4], captured_kings;
    uint64_t key;
    if (parse("undo_keyed", args, nargs, kwnames, names, 9, 9, a) < 0 ||
        route_of(c, a[1], &m) < 0 || get_color(a[2], &color) < 0 ||
        get_position(c, a + 3, position_names, bb) < 0 ||
        to_bits(c, a[7], &captured_kings, "captured_kings") < 0 || get_key(a[8], &key) < 0)
        return NULL;
    bb_t all = bb[0] | bb[1] | bb[2] | bb[3];
    bb_t mover = m.crowned ? bb[2 + color] : bb[color] | bb[2 + color];
    if (!(mover & BIT(m.dest)) || (m.captured & all & ~BIT(m.dest)) ||
        (captured_kings & ~m.captured) ||
        (m.dest != m.origin && (all & BIT(m.origin)))) {
        PyErr_Format(PyExc_ValueError, "move %R was not just played in this position", a[1]);
        return NULL;
    }
    unplay(&c->rules, &m, color, captured_kings, bb, &key);
    return position_tuple(c, bb, key);
}

/* position_key(t, color, m0, m1, k0, k1) */
static PyObject *py_position_key(PyObject *mod, PyObject *const *args, size_t nargsf,
                                 PyObject *kwnames) {
    (void)mod;
    static const char *const names[] = {"t", "color", "m0", "m1", "k0", "k1"};
    PyObject *a[6];
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    CoreObject *c = nargs ? native_tables(args[0]) : NULL;
    if (c == NULL) return fallback("position_key", args, nargsf, kwnames);
    int color;
    bb_t bb[4];
    if (parse("position_key", args, nargs, kwnames, names, 6, 6, a) < 0 ||
        get_color(a[1], &color) < 0 || get_position(c, a + 2, position_names, bb) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(position_key(&c->rules, color, bb));
}

static PyObject *py_set_pure(PyObject *mod, PyObject *functions) {
    (void)mod;
    if (!PyDict_Check(functions)) {
        PyErr_SetString(PyExc_TypeError, "a dict of the pure functions expected");
        return NULL;
    }
    Py_XSETREF(pure_functions, Py_NewRef(functions));
    Py_RETURN_NONE;
}

/* Each docstring starts with the function's text signature (CPython's
 * "name($module, ...)\n--\n\n" convention: inspect.signature reads it), the
 * parameters of draughts._core.contract.Backend, which a test compares with
 * the pure functions' one by one. */
#define ENTRY(name, params, doc)                                                     \
    {#name, (PyCFunction)(void (*)(void))py_##name, METH_FASTCALL | METH_KEYWORDS, \
     #name "($module, " params ")\n--\n\n" doc}

#define POSITION "t, color, own_men, own_kings, opp_men, opp_kings"

static PyMethodDef functions[] = {
    ENTRY(legal_moves, POSITION ", frozen_kings=0, keep_duplicates=False",
          "Every legal move as RawMove values."),
    ENTRY(captures, POSITION ", keep_duplicates=False", "The capture routes the rules allow."),
    ENTRY(board_moves, POSITION ", frozen_kings=0",
          "The legal moves as Move objects in square order."),
    ENTRY(steps, "t, color, men, kings, occupied, frozen_kings=0", "Non-capturing moves."),
    ENTRY(has_step, "t, color, men, kings, occupied",
          "Whether the side has a non-capturing move."),
    ENTRY(find_step, "t, color, men, kings, occupied, origin, destination, frozen_kings=0",
          "The step from origin to destination, or None."),
    ENTRY(moves_between, POSITION ", origin, destination, frozen_kings=0",
          "The legal moves between two squares, as Move objects."),
    ENTRY(perft, "t, depth, c, m0, m1, k0, k1, keep_duplicates=False, bulk=True",
          "Leaf count (the GIL is released while counting)."),
    ENTRY(apply_keyed, "t, move, color, m0, m1, k0, k1, key",
          "The bitboards and key after a move."),
    ENTRY(undo_keyed, "t, move, color, m0, m1, k0, k1, captured_kings, key",
          "The bitboards and key before a move."),
    ENTRY(position_key, "t, color, m0, m1, k0, k1", "The Zobrist key of a position."),
    ENTRY(any_capture, POSITION,
          "Whether the side to move has a capture (the engine's test; no pure twin)."),
    {"set_pure", (PyCFunction)py_set_pure, METH_O,
     "set_pure($module, functions, /)\n--\n\nThe pure functions to fall back on."},
    {NULL, NULL, 0, NULL},
};

/* The core's C API for draughts.pdn's native module (core_api.h). Static:
 * it points at static types and functions, and outlives every module that
 * reads it. */
static const CoreAPI core_api = {
    .version = CORE_API_VERSION,
    .core_type = &CoreType,
    .state_type = &StateType,
    .unique_move = board_unique_move,
    .push = board_push,
    .routes_init = routes_init,
    .routes_free = routes_free,
    .gen_captures = gen_captures,
    .gen_steps = gen_steps,
    .is_step = is_step,
    .any_step = any_step,
    .any_capture = any_capture,
    .play = play,
    .position_key = position_key,
    .to_bits = to_bits,
    .from_bits = from_bits,
    .get_key = get_key,
    .raw_move = raw_move,
};

static int add_core_api(PyObject *m) {
    PyObject *capsule = PyCapsule_New((void *)&core_api, CORE_API_CAPSULE, NULL);
    int failed = capsule == NULL || PyModule_AddObjectRef(m, "_C_API", capsule) < 0;
    Py_XDECREF(capsule);
    return failed ? -1 : 0;
}

static int exec_module(PyObject *m) {
    if (PyType_Ready(&CoreType) < 0 || board_state_init() < 0)
        return -1;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddObjectRef(m, "BoardState", (PyObject *)&StateType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SQUARES", MAX_SQUARES) < 0)
        return -1;
    PyObject *fields = undo_fields();
    int failed = fields == NULL || PyModule_AddObjectRef(m, "UNDO_FIELDS", fields) < 0;
    Py_XDECREF(fields);
    return failed ? -1 : add_core_api(m);
}

/* Multi-phase initialisation (PEP 489). The types are static and the pure
 * functions to fall back on are one module-wide table, so the module is
 * refused in a second interpreter rather than shared with it.
 *
 * Free-threaded CPython (3.13t and later): the module declares that it needs
 * the GIL, and such an interpreter turns the GIL back on when it loads it
 * (with a RuntimeWarning). It is not safe without: a Core's capture cache is
 * a dict read with borrowed references and filled on the fly, BoardState's
 * push and pop change several lists of one board in steps another thread
 * could see half done, and set_pure replaces a global. Making it safe means
 * critical sections around those (Py_BEGIN_CRITICAL_SECTION), not only this
 * flag. */
static PyModuleDef_Slot slots[] = DRAUGHTS_MODULE_SLOTS(exec_module);

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The native move generator (C11).", 0, functions, slots,
    NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModuleDef_Init(&module); }
