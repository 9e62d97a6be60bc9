/* The Search type of draughts.engine._native._c: one search's tables
 * (transposition table, killers, history) kept between the iterations that
 * draughts/engine/search.py's iterate loop asks for. The data it is built
 * from comes from the Python Evaluator and DrawTable; everything is
 * checked here before C reads it. The GIL is released while C searches. */
#include "convert.h"
#include "eval_patterns_load.h"
#include "search.h"

typedef struct {
    PyObject_HEAD
    CoreObject *core;
    Evaluation evaluation;
    Search search;
    PyObject *bitbase_bytes; /* a list of the bytes search.bases reads, or NULL */
    Helpers *helpers;        /* search_smp.c's, once start_helpers ran */
    int ready, busy;
} SearchObject;

/* -- Loading the evaluation ----------------------------------------------------- */

static int bits_at(CoreObject *c, PyObject *seq, Py_ssize_t i, bb_t *out, const char *what) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (item == NULL) return -1;
    int failed = core_api->to_bits(c, item, out, what);
    Py_DECREF(item);
    return failed;
}

/* A pair (one value per colour) of bitboards, or of sequences of them. */
static int pair_of_masks(CoreObject *c, PyObject *pair, bb_t out[2], const char *what) {
    if (!PySequence_Check(pair) || PySequence_Size(pair) != 2) {
        PyErr_Format(PyExc_ValueError, "evaluation %s must be a pair", what);
        return -1;
    }
    return bits_at(c, pair, 0, &out[0], what) < 0 || bits_at(c, pair, 1, &out[1], what) < 0 ? -1
                                                                                            : 0;
}

static int load_planes(SearchObject *o, PyObject *planes) {
    Evaluation *e = &o->evaluation;
    for (int color = 0; color < 2; color++) {
        PyObject *list = PySequence_GetItem(planes, color);
        if (list == NULL) return -1;
        Py_ssize_t n = PySequence_Size(list);
        int failed = n < 1 || n > MAX_PLANES || (color && n != e->nplanes);
        if (failed && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "evaluation planes: 1 to 8 masks per colour");
        for (Py_ssize_t k = 0; !failed && k < n; k++)
            failed = bits_at(o->core, list, k, &e->planes[color][k], "planes") < 0;
        Py_DECREF(list);
        if (failed) return -1;
        e->nplanes = (int)n;
    }
    return 0;
}

/* The padded shifts of a man's steps, and (unpadded boards) their square
 * maps; then Evaluation.men_stride (search.h), from the shifts and the
 * number of planes (loaded before). */
static int load_shifts(SearchObject *o, PyObject *shifts) {
    Evaluation *e = &o->evaluation;
    CoreObject *c = o->core;
    for (int color = 0; color < 2; color++) {
        PyObject *list = PySequence_GetItem(shifts, color);
        if (list == NULL) return -1;
        Py_ssize_t n = PySequence_Size(list);
        int failed = n < 0 || n > NDIRS;
        if (failed && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "evaluation shifts: at most 8 per colour");
        for (Py_ssize_t i = 0; !failed && i < n; i++) {
            PyObject *item = PySequence_GetItem(list, i);
            long shift = item ? PyLong_AsLong(item) : -1;
            Py_XDECREF(item);
            failed = PyErr_Occurred() != NULL;
            if (!failed && (shift <= -c->pad_size || shift >= c->pad_size || shift == 0)) {
                PyErr_Format(PyExc_ValueError, "evaluation shift %ld is off the board", shift);
                failed = 1;
            }
            e->shifts[color][i] = (int)shift;
            for (int sq = 0; !failed && sq < c->rules.n; sq++) {
                long to = c->sq_to_pad[sq] + shift;
                e->shift_to[color][i][sq] =
                    to >= 0 && to < c->pad_size ? c->pad_to_sq[to] : (int16_t)-1;
            }
        }
        Py_DECREF(list);
        if (failed) return -1;
        e->nshifts[color] = (int)n;
    }
    e->men_stride = 0;
    for (int stride = 10; stride <= 12; stride += 2) {
        const int *w = e->shifts[0], *b = e->shifts[1];
        int up = e->nshifts[0] == 2 && e->nshifts[1] == 2 && w[0] + w[1] == 2 * stride &&
                 (w[0] == stride + 1 || w[1] == stride + 1) && b[0] + b[1] == -2 * stride &&
                 (b[0] == -stride - 1 || b[1] == -stride - 1);
        /* and the rows' advancement in 4 planes (10 rows) or 3 (8 rows) */
        if (c->rules.padded && up && e->nplanes == men_stride_planes(stride)) e->men_stride = stride;
    }
    e->steps_exact = c->rules.padded;
    for (int color = 0; color < 2; color++) {
        const Rules *r = &c->rules;
        int same = e->nshifts[color] == r->n_man_move[color];
        for (int i = 0; same && i < e->nshifts[color]; i++) {
            int found = 0;
            for (int k = 0; k < r->n_man_move[color]; k++)
                found |= r->shift[r->man_move_dirs[color][k]] == e->shifts[color][i];
            same = found;
        }
        e->steps_exact &= same;
    }
    return 0;
}

/* Per colour, a dict: the padded index of each square -> its cone. */
static int load_cones(SearchObject *o, PyObject *cones) {
    CoreObject *c = o->core;
    for (int color = 0; color < 2; color++) {
        PyObject *dict = PySequence_GetItem(cones, color);
        if (dict == NULL) return -1;
        int failed = !PyDict_Check(dict);
        if (failed) PyErr_SetString(PyExc_TypeError, "evaluation cones: a dict per colour");
        for (int sq = 0; !failed && sq < c->rules.n; sq++) {
            if (!(c->rules.board & BIT(sq))) continue; /* padding */
            PyObject *mask = PyDict_GetItemWithError(dict, c->pad_ints[sq]);
            if (mask == NULL && !PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "evaluation cones: no cone for index %R",
                             c->pad_ints[sq]);
            failed = mask == NULL ||
                     core_api->to_bits(c, mask, &o->evaluation.cones[color][sq], "cones") < 0;
        }
        Py_DECREF(dict);
        if (failed) return -1;
    }
    return 0;
}

static int load_blended(SearchObject *o, PyObject *blended) {
    Evaluation *e = &o->evaluation;
    Py_ssize_t n = PySequence_Size(blended);
    if (n < 0) return -1;
    bb_t board = o->core->rules.board;
    int squares = popcount(board);
    if (n != squares + 1) {
        PyErr_SetString(PyExc_ValueError, "evaluation weights: one row per count of men");
        return -1;
    }
    e->blended = PyMem_RawCalloc((size_t)n, sizeof *e->blended);
    if (e->blended == NULL) return PyErr_NoMemory(), -1;
    e->nblended = (int)n;
    for (Py_ssize_t men = 0; men < n; men++) {
        PyObject *row = PySequence_GetItem(blended, men);
        int failed = row == NULL || PySequence_Size(row) != N_FEATURES;
        if (failed && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "evaluation weights: one per feature in each row");
        for (int f = 0; !failed && f < N_FEATURES; f++) {
            PyObject *item = PySequence_GetItem(row, f);
            e->blended[men][f] = item ? PyLong_AsLongLong(item) : -1;
            Py_XDECREF(item);
            failed = PyErr_Occurred() != NULL;
        }
        Py_XDECREF(row);
        if (failed) return -1;
    }
    return 0;
}

/* (planes, centre, back, edge, left, right, far_half, shifts, near, last_step,
 * cones, blended, men_at_start, patterns): see Searcher's use of Evaluator. */
static int load_evaluation(SearchObject *o, PyObject *data) {
    Evaluation *e = &o->evaluation;
    CoreObject *c = o->core;
    if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 14) {
        PyErr_SetString(PyExc_TypeError, "evaluation: a tuple of 14 values expected");
        return -1;
    }
    PyObject **v = &PyTuple_GET_ITEM(data, 0);
    int (*bits)(CoreObject *, PyObject *, bb_t *, const char *) = core_api->to_bits;
    if (load_planes(o, v[0]) < 0 || bits(c, v[1], &e->centre, "centre") < 0 ||
        pair_of_masks(c, v[2], e->back, "back") < 0 || bits(c, v[3], &e->edge, "edge") < 0 ||
        bits(c, v[4], &e->left, "left") < 0 || bits(c, v[5], &e->right, "right") < 0 ||
        pair_of_masks(c, v[6], e->far_half, "far_half") < 0 || load_shifts(o, v[7]) < 0 ||
        pair_of_masks(c, v[8], e->near, "near") < 0 ||
        pair_of_masks(c, v[9], e->last_step, "last_step") < 0 || load_cones(o, v[10]) < 0 ||
        load_blended(o, v[11]) < 0 || patterns_load(c, v[13], &e->patterns) < 0)
        return -1;
    e->men_at_start = PyLong_AsLongLong(v[12]);
    if (e->men_at_start < 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "men_at_start must be >= 1");
        return -1;
    }
    return 0;
}

/* endings: {(white kings, white men, black kings, black men): divisor}. */
static int load_endings(Search *s, PyObject *endings) {
    if (!PyDict_Check(endings)) {
        PyErr_SetString(PyExc_TypeError, "endings must be a dict");
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *material, *divisor;
    while (PyDict_Next(endings, &pos, &material, &divisor)) {
        int n[4];
        long d = PyLong_Check(divisor) ? PyLong_AsLong(divisor) : -1;
        int ok = PyTuple_Check(material) && PyTuple_GET_SIZE(material) == 4 && d >= 0 && d < 128;
        for (int i = 0; ok && i < 4; i++) {
            long count = PyLong_AsLong(PyTuple_GET_ITEM(material, i));
            ok = count >= 0 && count <= SMALL_MATERIAL;
            n[i] = (int)count;
        }
        if (!ok || PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "endings: bad entry %R: %R", material, divisor);
            return -1;
        }
        s->endings[n[0]][n[1]][n[2]][n[3]] = (int8_t)d;
    }
    return 0;
}

/* -- The type --------------------------------------------------------------------- */

static int get_int(PyObject *value, long low, long high, long *out, const char *what) {
    int overflow = 0;
    long v = PyLong_Check(value) ? PyLong_AsLongAndOverflow(value, &overflow) : 0;
    if (!PyLong_Check(value) || overflow || v < low || v > high) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s must be an int from %ld to %ld, not %R", what, low,
                         high, value);
        return -1;
    }
    *out = v;
    return 0;
}

/* The keys of a game_keys sequence in *values (PyMem_RawFree them), or -1
 * with an exception set. */
static int get_game_keys(PyObject *game_keys, uint64_t **values, Py_ssize_t *nkeys) {
    PyObject *keys = PySequence_Fast(game_keys, "game_keys must be a sequence of keys");
    if (keys == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(keys);
    uint64_t *out = PyMem_RawCalloc((size_t)n + 1, sizeof *out);
    for (Py_ssize_t i = 0; out != NULL && i < n && !PyErr_Occurred(); i++)
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(keys, i));
    Py_DECREF(keys);
    if (out == NULL || PyErr_Occurred()) {
        PyMem_RawFree(out);
        if (out == NULL) PyErr_NoMemory();
        else PyErr_SetString(PyExc_ValueError, "game_keys must be ints from 0 to 2**64 - 1");
        return -1;
    }
    *values = out, *nkeys = n;
    return 0;
}

/* Search(core, evaluation, no_progress, endings, sign, breakthrough, game_keys) */
static int search_object_init(SearchObject *o, PyObject *args, PyObject *kwargs) {
    PyObject *core, *evaluation, *no_progress, *endings, *sign, *game_keys;
    int breakthrough;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs)) {
        PyErr_SetString(PyExc_TypeError, "Search() takes positional arguments only");
        return -1;
    }
    if (o->core != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Search() is set up once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!OOOOpO", core_api->core_type, &core, &evaluation, &no_progress,
                          &endings, &sign, &breakthrough, &game_keys))
        return -1;
    if (!((CoreObject *)core)->ready) {
        PyErr_SetString(PyExc_ValueError, "the native core does not hold this board");
        return -1;
    }
    o->core = (CoreObject *)Py_NewRef(core);
    if (load_evaluation(o, evaluation) < 0) return -1;
    uint64_t *values;
    Py_ssize_t nkeys;
    if (get_game_keys(game_keys, &values, &nkeys) < 0) return -1;
    int failed = search_init(&o->search, &o->core->rules, &o->evaluation, values, (size_t)nkeys);
    PyMem_RawFree(values);
    if (failed < 0) return PyErr_NoMemory(), -1;
    long sign_value, limit = -1;
    if (get_int(sign, -1, 1, &sign_value, "sign") < 0 ||
        (no_progress != Py_None && get_int(no_progress, 0, 1L << 30, &limit, "no_progress") < 0) ||
        load_endings(&o->search, endings) < 0)
        return -1;
    if (sign_value == 0) return PyErr_SetString(PyExc_ValueError, "sign must be 1 or -1"), -1;
    o->search.sign = (int)sign_value;
    o->search.breakthrough = breakthrough;
    o->search.no_progress = (int)limit;
    o->ready = 1;
    return 0;
}

static int search_object_traverse(SearchObject *o, visitproc visit, void *arg) {
    Py_VISIT(o->core);
    Py_VISIT(o->bitbase_bytes);
    return 0;
}

/* The search reads its core's rules: once the core goes, it is no longer
 * ready and every method but dealloc refuses. A running search holds a
 * reference to this object, so it is never cleared under a search. */
static int search_object_clear(SearchObject *o) {
    o->ready = 0;
    o->search.bases.pieces = 0;
    Py_CLEAR(o->core);
    Py_CLEAR(o->bitbase_bytes);
    return 0;
}

static void search_object_dealloc(SearchObject *o) {
    PyObject_GC_UnTrack(o);
    /* No helper outlives the search it shares a table with. */
    helpers_join(o->helpers);
    helpers_release(o->helpers, &o->search);
    helpers_free(o->helpers);
    if (o->search.tt != NULL) search_free(&o->search);
    PyMem_RawFree(o->evaluation.blended);
    patterns_free(&o->evaluation.patterns);
    search_object_clear(o);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

/* (turn, white men, black men, white kings, black kings), its pattern
 * windows numbered. */
static int get_pos(SearchObject *o, PyObject *value, Pos *p) {
    CoreObject *c = o->core;
    static const char *const names[] = {"white men", "black men", "white kings", "black kings"};
    if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 5) {
        PyErr_Format(PyExc_TypeError, "pos must be a tuple of 5 ints, not %R", value);
        return -1;
    }
    long color;
    if (get_int(PyTuple_GET_ITEM(value, 0), 0, 1, &color, "pos[0] (the side to move)") < 0)
        return -1;
    p->color = (int)color;
    bb_t seen = 0;
    for (int i = 0; i < 4; i++) {
        if (core_api->to_bits(c, PyTuple_GET_ITEM(value, i + 1), &p->bb[i], names[i]) < 0)
            return -1;
        if (seen & p->bb[i]) {
            PyErr_Format(PyExc_ValueError, "pos: the %s share a square with other pieces",
                         names[i]);
            return -1;
        }
        seen |= p->bb[i];
    }
    search_pos_ready(&o->search, p);
    return 0;
}

static int check_ready(SearchObject *o) {
    if (!o->ready) return PyErr_SetString(PyExc_RuntimeError, "Search() was not set up"), -1;
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Search is already running in another thread");
        return -1;
    }
    return 0;
}

/* check_ready, and no helper running: for what changes the tables or
 * settings the helpers read. */
static int check_idle(SearchObject *o) {
    if (check_ready(o) < 0) return -1;
    if (helpers_running(o->helpers)) {
        PyErr_SetString(PyExc_RuntimeError, "stop_helpers() first: helper threads are running");
        return -1;
    }
    return 0;
}

/* Root indices: None, or a list of indices into pos's legal moves. */
static int get_root(SearchObject *o, PyObject *value, const Pos *p, int **root, int *nroot) {
    *root = NULL, *nroot = 0;
    if (value == Py_None) return 0;
    PyObject *list = PySequence_Fast(value, "root must be None or a list of move indices");
    if (list == NULL) return -1;
    RouteList legal;
    core_api->routes_init(&legal);
    legal_routes(&o->core->rules, p, &legal);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(list);
    *root = PyMem_RawMalloc(((size_t)n + 1) * sizeof **root);
    int failed = *root == NULL || legal.failed;
    if (failed) PyErr_NoMemory();
    for (Py_ssize_t i = 0; !failed && i < n; i++) {
        long index;
        failed = get_int(PySequence_Fast_GET_ITEM(list, i), 0, (long)legal.len - 1, &index,
                         "root index") < 0;
        if (!failed) (*root)[i] = (int)index;
    }
    core_api->routes_free(&legal);
    Py_DECREF(list);
    if (failed) {
        PyMem_RawFree(*root);
        *root = NULL;
        return -1;
    }
    *nroot = (int)n;
    return 0;
}

/* The limits and counters of one call: (enforce, reductions,
 * threat_extensions, nodes, max_nodes, deadline, table_entries, probcut,
 * late_deep, late_depth, late_pv, late_sacrifice, etc_depth, late_root). */
static int get_limits(Search *s, PyObject *limits, int helped) {
    PyObject *enforce, *nodes, *max_nodes, *deadline;
    long reductions, threats, entries, margin, late_deep, late_depth, late_pv, sacrifice, etc;
    long late_root;
    if (!PyArg_ParseTuple(limits,
                          "OllOOOllllllll;limits: (enforce, reductions, threat_extensions, nodes, "
                          "max_nodes, deadline, table_entries, probcut, late_deep, late_depth, "
                          "late_pv, late_sacrifice, etc_depth, late_root)",
                          &enforce, &reductions, &threats, &nodes, &max_nodes, &deadline,
                          &entries, &margin, &late_deep, &late_depth, &late_pv, &sacrifice, &etc,
                          &late_root))
        return -1;
    if (etc < 0 || etc > 100000) {
        PyErr_Format(PyExc_ValueError, "etc_depth must be from 0 to 100000, not %ld", etc);
        return -1;
    }
    s->etc_depth = (int)etc;
    if (late_depth < 0 || late_depth > 100000 || late_pv < 0 || late_pv > 1 || sacrifice < 0 ||
        sacrifice > 1 || late_root < 0 || late_root > 1) {
        PyErr_Format(PyExc_ValueError,
                     "late_depth must be from 0 to 100000, late_pv, late_sacrifice and late_root "
                     "0 or 1, not %ld, %ld, %ld and %ld",
                     late_depth, late_pv, sacrifice, late_root);
        return -1;
    }
    s->late_depth = (int)late_depth, s->late_pv = (int)late_pv, s->late_sacrifice = (int)sacrifice;
    s->late_root = (int)late_root;
    if (margin < 0 || margin > 100000 || late_deep < 0 || late_deep > 100000) {
        PyErr_Format(PyExc_ValueError,
                     "probcut and late_deep must be from 0 to 100000, not %ld and %ld", margin,
                     late_deep);
        return -1;
    }
    s->probcut = (int)margin, s->late_deep = (int)late_deep;
    if (entries < 2 || entries > 100000000 || (entries & (entries - 1))) {
        PyErr_Format(PyExc_ValueError,
                     "table_entries must be a power of two from 2 to 10**8, not %ld", entries);
        return -1;
    }
    if (helped && (size_t)entries != s->tt_cap) { /* the helpers read this table */
        PyErr_SetString(PyExc_RuntimeError, "table_entries changed while helpers run");
        return -1;
    }
    if (search_size_table(s, (size_t)entries) < 0) return PyErr_NoMemory(), -1;
    int on = PyObject_IsTrue(enforce);
    if (on < 0) return -1;
    unsigned long long count = PyLong_Check(nodes) ? PyLong_AsUnsignedLongLong(nodes) : 0;
    long long budget = max_nodes == Py_None ? -1 : PyLong_AsLongLong(max_nodes);
    double until = deadline == Py_None ? -1.0 : PyFloat_AsDouble(deadline);
    if (!PyLong_Check(nodes) || PyErr_Occurred() || reductions < 0 || reductions > 100000 ||
        threats < 0 || threats > 100000) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError,
                        "limits: nodes, reductions and threat extensions must be counts, "
                        "max_nodes an int or None, deadline a float or None");
        return -1;
    }
    s->enforce = on, s->reductions = (int)reductions, s->threat_extensions = (int)threats;
    s->nodes = count;
    /* A negative budget or deadline is spent at once, as in Python. */
    s->max_nodes = max_nodes == Py_None ? -1 : budget < 0 ? 0 : budget;
    s->deadline = deadline == Py_None ? -1.0 : until < 0 ? 0.0 : until;
    return 0;
}

static PyObject *search_object_run(SearchObject *o, PyObject *args) {
    PyObject *pos, *key_value, *root_value, *limits;
    long depth, alpha, beta, ply, reversible;
    if (check_ready(o) < 0 ||
        !PyArg_ParseTuple(args, "OOlllllOO!", &pos, &key_value, &depth, &alpha, &beta, &ply,
                          &reversible, &root_value, &PyTuple_Type, &limits))
        return NULL;
    Pos p;
    uint64_t key;
    int *root;
    int nroot;
    Search *s = &o->search;
    if (get_pos(o, pos, &p) < 0 || core_api->get_key(key_value, &key) < 0 ||
        get_limits(s, limits, helpers_running(o->helpers)) < 0)
        return NULL;
    if (depth < -1000 || depth > 1000 || ply < 0 || ply > 1000 || reversible < 0 ||
        reversible > (1L << 30) || alpha < -2000000 || beta > 2000000 || alpha >= beta) {
        PyErr_Format(PyExc_ValueError,
                     "search: depth %ld (up to 1000), ply %ld (0 to 1000), reversible %ld or "
                     "window (%ld, %ld) out of range",
                     depth, ply, reversible, alpha, beta);
        return NULL;
    }
    if (get_root(o, root_value, &p, &root, &nroot) < 0) return NULL;
    s->root = root, s->nroot = nroot;
    int score;
    o->busy = 1;
    helpers_main_depth(o->helpers, (int)depth);
    Py_BEGIN_ALLOW_THREADS
    score = search_run(s, &p, key, (int)depth, (int)alpha, (int)beta, (int)ply, (int)reversible);
    Py_END_ALLOW_THREADS
    o->busy = 0;
    s->root = NULL;
    PyMem_RawFree(root);
    if (s->failed) return PyErr_NoMemory();
    PyObject *partial = Py_None;
    if (s->has_partial) {
        PyObject *move = core_api->raw_move(o->core, &s->partial);
        partial = move ? Py_BuildValue("(iN)", s->partial_score, move) : NULL;
        if (partial == NULL) return NULL;
    } else {
        Py_INCREF(partial);
    }
    if (s->stopped) return Py_BuildValue("(OKN)", Py_None, s->nodes, partial);
    return Py_BuildValue("(iKN)", score, s->nodes, partial);
}

static PyObject *search_object_table_move(SearchObject *o, PyObject *args) {
    PyObject *pos, *key_value;
    Pos p;
    uint64_t key;
    if (check_ready(o) < 0 || !PyArg_ParseTuple(args, "OO", &pos, &key_value) ||
        get_pos(o, pos, &p) < 0 || core_api->get_key(key_value, &key) < 0)
        return NULL;
    RouteList moves;
    core_api->routes_init(&moves);
    int at = search_table_move(&o->search, &p, key, &moves);
    PyObject *result = moves.failed ? PyErr_NoMemory()
                       : at < 0     ? Py_NewRef(Py_None)
                                    : core_api->raw_move(o->core, &moves.items[at]);
    core_api->routes_free(&moves);
    return result;
}

static PyObject *search_object_static(SearchObject *o, PyObject *pos) {
    Pos p;
    if (check_ready(o) < 0 || get_pos(o, pos, &p) < 0) return NULL;
    return PyLong_FromLong(search_static_white(&o->search, &p));
}

/* The bitbases' square numbers: squares[i] is the raw bit of number i. */
static int load_bitbase_squares(SearchObject *o, PyObject *squares) {
    Bitbases *b = &o->search.bases;
    PyObject *list = PySequence_Fast(squares, "squares must be a sequence of raw bits");
    if (list == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(list);
    /* Every playing square numbered: probe_value reads any piece's number. */
    int failed = n != popcount(o->core->rules.board);
    if (failed) PyErr_SetString(PyExc_ValueError, "squares: one raw bit per square of the board");
    for (int sq = 0; sq < MAX_SQUARES; sq++) b->number[sq] = -1;
    for (Py_ssize_t i = 0; !failed && i < n; i++) {
        bb_t bit;
        failed =
            core_api->to_bits(o->core, PySequence_Fast_GET_ITEM(list, i), &bit, "squares") < 0;
        if (!failed && (popcount(bit) != 1 || b->number[low_bit(bit)] >= 0)) {
            PyErr_Format(PyExc_ValueError, "squares: item %zd is not one new square", i);
            failed = 1;
        }
        if (!failed) b->number[low_bit(bit)] = (int16_t)i;
    }
    Py_DECREF(list);
    if (failed) return -1;
    b->nsquares = (int)n;
    for (int m = 0; m <= n; m++)
        for (int k = 0; k <= PROBE_PIECES; k++)
            b->choose[m][k] = k == 0 ? 1 : m == 0 ? 0 : b->choose[m - 1][k - 1] + b->choose[m - 1][k];
    return 0;
}

/* One material's entry: (white men, white kings, black men, black kings) ->
 * bytes of exactly the size its positions take, two bits each. */
static int load_bitbase_material(SearchObject *o, PyObject *material, PyObject *data) {
    Bitbases *b = &o->search.bases;
    int n[4], total = 0;
    int ok = PyTuple_Check(material) && PyTuple_GET_SIZE(material) == 4 && PyBytes_Check(data);
    for (int i = 0; ok && i < 4; i++) {
        long count = PyLong_AsLong(PyTuple_GET_ITEM(material, i));
        ok = count >= 0 && count <= b->pieces;
        n[i] = (int)count, total += (int)count;
    }
    if (!ok || PyErr_Occurred() || total > b->pieces) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "tables: bad material %R (or its data is not bytes)",
                     material);
        return -1;
    }
    uint64_t size = 2;
    for (int i = 0; i < 4; i++) size *= b->choose[b->nsquares][n[i]];
    if ((uint64_t)PyBytes_GET_SIZE(data) != (size + 3) / 4) {
        PyErr_Format(PyExc_ValueError, "tables: material %R has %zd bytes, not %llu", material,
                     PyBytes_GET_SIZE(data), (unsigned long long)((size + 3) / 4));
        return -1;
    }
    b->packed[n[0]][n[1]][n[2]][n[3]] = (const uint8_t *)PyBytes_AS_STRING(data);
    return 0;
}

/* bitbases(pieces, squares, tables): probe these bitbases (Probe of
 * draughts/engine/egtb.py) at the nodes of pieces or fewer; pieces 0: none. */
static PyObject *search_object_bitbases(SearchObject *o, PyObject *args) {
    PyObject *pieces_value, *squares, *tables;
    long pieces;
    if (check_idle(o) < 0 ||
        !PyArg_ParseTuple(args, "OOO!", &pieces_value, &squares, &PyDict_Type, &tables) ||
        get_int(pieces_value, 0, PROBE_PIECES, &pieces, "pieces") < 0)
        return NULL;
    Bitbases *b = &o->search.bases;
    memset(b->packed, 0, sizeof b->packed);
    b->pieces = 0;
    Py_CLEAR(o->bitbase_bytes);
    if (pieces == 0) Py_RETURN_NONE;
    b->pieces = (int)pieces;
    PyObject *material, *data;
    Py_ssize_t at = 0;
    int failed = load_bitbase_squares(o, squares) < 0;
    while (!failed && PyDict_Next(tables, &at, &material, &data))
        failed = load_bitbase_material(o, material, data) < 0;
    /* The values, held here: the caller's dict may change or go. */
    o->bitbase_bytes = failed ? NULL : PyDict_Values(tables);
    if (o->bitbase_bytes == NULL) {
        memset(b->packed, 0, sizeof b->packed);
        b->pieces = 0;
        return NULL;
    }
    Py_RETURN_NONE;
}

/* renew(game_keys): Searcher.renew's part in C. */
static PyObject *search_object_renew(SearchObject *o, PyObject *game_keys) {
    uint64_t *values;
    Py_ssize_t nkeys;
    if (check_idle(o) < 0 || get_game_keys(game_keys, &values, &nkeys) < 0) return NULL;
    int failed = search_renew(&o->search, values, (size_t)nkeys);
    helpers_reset_nodes(o->helpers);
    PyMem_RawFree(values);
    if (failed < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* clear_table(): Searcher.clear_table. */
static PyObject *search_object_clear_table(SearchObject *o, PyObject *Py_UNUSED(ignored)) {
    if (check_idle(o) < 0) return NULL;
    search_clear_table(&o->search);
    Py_RETURN_NONE;
}

/* table_count(): Searcher.table_count. */
static PyObject *search_object_table_count(SearchObject *o, PyObject *Py_UNUSED(ignored)) {
    if (check_ready(o) < 0) return NULL;
    return PyLong_FromSize_t(search_table_count(&o->search));
}

/* Callable from another thread while run() works without the GIL: it only
 * sets the flag the search reads (so it skips check_ready's busy test). */
static PyObject *search_object_stop(SearchObject *o, PyObject *Py_UNUSED(ignored)) {
    if (!o->ready) return PyErr_SetString(PyExc_RuntimeError, "Search() was not set up"), NULL;
    search_interrupt(&o->search);
    helpers_interrupt(o->helpers);
    Py_RETURN_NONE;
}

/* start_helpers(pos, key, reversible, root, limits, max_depth, full_width,
 * count): count helper threads (search_smp.c) searching pos as the run()
 * calls to come will, until stop_helpers(); returns how many started (0
 * where there are no threads). */
static PyObject *search_object_start_helpers(SearchObject *o, PyObject *args) {
    PyObject *pos, *key_value, *root_value, *limits;
    long reversible, max_depth, full_width, count;
    if (check_idle(o) < 0 ||
        !PyArg_ParseTuple(args, "OOlOO!lll", &pos, &key_value, &reversible, &root_value,
                          &PyTuple_Type, &limits, &max_depth, &full_width, &count))
        return NULL;
    Pos p;
    uint64_t key;
    int *root, nroot;
    Search *s = &o->search;
    if (get_pos(o, pos, &p) < 0 || core_api->get_key(key_value, &key) < 0 ||
        get_limits(s, limits, 0) < 0)
        return NULL;
    if (reversible < 0 || reversible > (1L << 30) || max_depth < 1 || max_depth > 1000 ||
        full_width < 0 || full_width > 1000 || count < 0 || count > MAX_HELPERS) {
        PyErr_Format(PyExc_ValueError,
                     "start_helpers: reversible %ld, max_depth %ld (1 to 1000), full_width %ld "
                     "(0 to 1000) or count %ld (0 to %d) out of range",
                     reversible, max_depth, full_width, count, MAX_HELPERS);
        return NULL;
    }
    if (count == 0) return PyLong_FromLong(0);
    if (get_root(o, root_value, &p, &root, &nroot) < 0) return NULL;
    s->root = root, s->nroot = nroot;
    int started = helpers_start(&o->helpers, s, &p, key, (int)reversible, (int)max_depth,
                                (int)full_width, s->threat_extensions, (int)count);
    s->root = NULL; /* each helper has its copy */
    PyMem_RawFree(root);
    if (started < 0) return PyErr_NoMemory();
    return PyLong_FromLong(started);
}

/* stop_helpers(): stop and join the helper threads (none: nothing). */
static PyObject *search_object_stop_helpers(SearchObject *o, PyObject *Py_UNUSED(ignored)) {
    if (check_ready(o) < 0) return NULL;
    o->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    helpers_join(o->helpers);
    Py_END_ALLOW_THREADS
    o->busy = 0;
    helpers_release(o->helpers, &o->search);
    Py_RETURN_NONE;
}

/* helper_nodes(): the helpers' nodes since the last renew(). */
static PyObject *search_object_helper_nodes(SearchObject *o, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromUnsignedLongLong(helpers_nodes(o->helpers));
}

static PyMethodDef search_methods[] = {
    /* Text signatures first (inspect.signature reads them): the parameters
     * of draughts.engine._native.CompiledSearch, which a test compares. */
    {"stop", (PyCFunction)search_object_stop, METH_NOARGS,
     "stop($self, /)\n--\n\nEnd the search running in another thread, as Searcher.stop."},
    {"run", (PyCFunction)search_object_run, METH_VARARGS,
     "run($self, pos, key, depth, alpha, beta, ply, reversible, root, limits, /)\n--\n\n"
     "(score or None if a limit ran out, nodes, partial): one Searcher.search call, without "
     "the GIL."},
    {"start_helpers", (PyCFunction)search_object_start_helpers, METH_VARARGS,
     "start_helpers($self, pos, key, reversible, root, limits, max_depth, full_width, count, "
     "/)\n--\n\n"
     "Start count helper threads searching pos with this search's table (Lazy SMP), until "
     "stop_helpers(); the number started (0 without threads)."},
    {"stop_helpers", (PyCFunction)search_object_stop_helpers, METH_NOARGS,
     "stop_helpers($self, /)\n--\n\nStop the helper threads and wait for them to end."},
    {"helper_nodes", (PyCFunction)search_object_helper_nodes, METH_NOARGS,
     "helper_nodes($self, /)\n--\n\nThe nodes the helper threads searched since renew()."},
    {"renew", (PyCFunction)search_object_renew, METH_O,
     "renew($self, game_keys, /)\n--\n\n"
     "Ready for a search from the game's next position, keeping the table, as "
     "Searcher.renew."},
    {"bitbases", (PyCFunction)search_object_bitbases, METH_VARARGS,
     "bitbases($self, pieces, squares, tables, /)\n--\n\n"
     "Probe these endgame bitbases (draughts.engine.egtb.Probe) below the root; pieces 0: "
     "none."},
    {"table_move", (PyCFunction)search_object_table_move, METH_VARARGS,
     "table_move($self, pos, key, /)\n--\n\n"
     "The table's move for pos among its legal moves, or None."},
    {"clear_table", (PyCFunction)search_object_clear_table, METH_NOARGS,
     "clear_table($self, /)\n--\n\nEmpty the transposition table, as Searcher.clear_table."},
    {"table_count", (PyCFunction)search_object_table_count, METH_NOARGS,
     "table_count($self, /)\n--\n\nThe table's entries in use, as Searcher.table_count."},
    {"static", (PyCFunction)search_object_static, METH_O,
     "static($self, pos, /)\n--\n\nWhite's static score, the drawn endings applied."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "draughts.engine._native._c.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Search(core, evaluation, no_progress, endings, sign, breakthrough, game_keys, /)\n"
              "--\n\n"
              "The built-in engine's search tables and the C search over them.",
    .tp_traverse = (traverseproc)search_object_traverse,
    .tp_clear = (inquiry)search_object_clear,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_object_init,
    .tp_dealloc = (destructor)search_object_dealloc,
    .tp_methods = search_methods,
};
