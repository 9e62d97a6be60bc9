/* The Core type: a variant's tables, loaded once from the data the Python
 * side computes from its Geometry (draughts/_core/native/__init__.py). */
#include "convert.h"

#include <structmember.h>

static int int_at(PyObject *seq, Py_ssize_t i, long low, long high, long *out, const char *what) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (item == NULL) return -1;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
        return -1;
    }
    *out = v;
    return 0;
}

/* Reads a sequence of at most max ints in [low, high] into out. */
static int ints(PyObject *seq, int *out, int max, long low, long high, const char *what) {
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) return -1;
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: too many values", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (int_at(seq, i, low, high, &v, what) < 0) return -1;
        out[i] = (int)v;
    }
    return (int)n;
}

static int keys(PyObject *seq, uint64_t *out, int n) {
    if (PySequence_Size(seq) != n) {
        PyErr_SetString(PyExc_ValueError, "a key table of the wrong size");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        if (item == NULL) return -1;
        out[i] = PyLong_AsUnsignedLongLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

static PyObject *new_step(CoreObject *c, int origin, int dest, int crowned) {
    PyObject *t = c->raw_type->tp_alloc(c->raw_type, 6);
    if (t == NULL) return NULL;
    PyObject *empty = PyTuple_New(0), *zero = PyLong_FromLong(0);
    if (empty == NULL || zero == NULL) {
        Py_XDECREF(empty);
        Py_XDECREF(zero);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, Py_NewRef(c->pad_ints[origin]));
    PyTuple_SET_ITEM(t, 1, Py_NewRef(c->pad_ints[dest]));
    PyTuple_SET_ITEM(t, 2, zero);
    PyTuple_SET_ITEM(t, 3, Py_NewRef(empty));
    PyTuple_SET_ITEM(t, 4, empty);
    PyTuple_SET_ITEM(t, 5, Py_NewRef(crowned ? Py_True : Py_False));
    return t;
}

static int load_rays(CoreObject *c, PyObject *rays) {
    Rules *r = &c->rules;
    int total = 0, n = r->n;
    uint8_t buffer[MAX_SQUARES];
    int values[MAX_SQUARES];
    r->ray_data = PyMem_Malloc((size_t)n * NDIRS * MAX_SQUARES);
    if (r->ray_data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int sq = 0; sq < n; sq++) {
        PyObject *per_dir = PySequence_GetItem(rays, sq);
        if (per_dir == NULL) return -1;
        for (int d = 0; d < NDIRS; d++) {
            PyObject *ray = PySequence_GetItem(per_dir, d);
            int len = ray == NULL ? -1 : ints(ray, values, MAX_SQUARES - 1, 0, n - 1, "ray");
            Py_XDECREF(ray);
            if (len < 0 || total + len > 65535) {
                Py_DECREF(per_dir);
                if (len >= 0) PyErr_SetString(PyExc_ValueError, "too many ray squares");
                return -1;
            }
            for (int i = 0; i < len; i++) buffer[i] = (uint8_t)values[i];
            r->ray_off[sq][d] = (uint16_t)total;
            r->ray_len[sq][d] = (uint8_t)len;
            memcpy(r->ray_data + total, buffer, (size_t)len);
            total += len;
        }
        Py_DECREF(per_dir);
    }
    r->ray_total = total;
    return 0;
}

static int load_steps(CoreObject *c, PyObject *step_moves) {
    Rules *r = &c->rules;
    size_t size = (size_t)r->ray_total + 1;
    c->step_moves = PyMem_Calloc(size, sizeof(PyObject *));
    c->step_raws[0] = PyMem_Calloc(size, sizeof(PyObject *));
    c->step_raws[1] = PyMem_Calloc(size, sizeof(PyObject *));
    if (!c->step_moves || !c->step_raws[0] || !c->step_raws[1]) {
        PyErr_NoMemory();
        return -1;
    }
    if (PySequence_Size(step_moves) != r->ray_total) {
        PyErr_SetString(PyExc_ValueError, "one step Move per ray square expected");
        return -1;
    }
    for (int sq = 0; sq < r->n; sq++) {
        for (int d = 0; d < NDIRS; d++) {
            for (int i = 0; i < r->ray_len[sq][d]; i++) {
                int slot = r->ray_off[sq][d] + i, to = RAY(r, sq, d)[i];
                c->step_moves[slot] = PySequence_GetItem(step_moves, slot);
                c->step_raws[0][slot] = new_step(c, sq, to, 0);
                if (i == 0) c->step_raws[1][slot] = new_step(c, sq, to, 1);
                if (!c->step_moves[slot] || !c->step_raws[0][slot] ||
                    (i == 0 && !c->step_raws[1][slot]))
                    return -1;
            }
        }
    }
    return 0;
}

static int load_squares(CoreObject *c, PyObject *sq_to_pad, PyObject *numbers) {
    Rules *r = &c->rules;
    c->pad_to_sq = PyMem_Malloc((size_t)c->pad_size * sizeof(int16_t));
    if (c->pad_to_sq == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < c->pad_size; i++) c->pad_to_sq[i] = -1;
    for (int i = 0; i <= MAX_SQUARES; i++) c->sq_of_number[i] = -1;
    if (ints(sq_to_pad, c->sq_to_pad, MAX_SQUARES, 0, c->pad_size - 1, "squares") != r->n ||
        ints(numbers, c->number, MAX_SQUARES, 0, c->pad_size, "numbers") != r->n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one index per square expected");
        return -1;
    }
    r->board = 0;
    for (int sq = 0; sq < r->n; sq++) {
        if (sq > 0 && c->sq_to_pad[sq] <= c->sq_to_pad[sq - 1]) {
            PyErr_SetString(PyExc_ValueError, "squares must be in ascending index order");
            return -1;
        }
        c->pad_ints[sq] = PyLong_FromLong(c->sq_to_pad[sq]);
        c->number_ints[sq] = PyLong_FromLong(c->number[sq]);
        if (!c->pad_ints[sq] || !c->number_ints[sq]) return -1;
        if (c->number[sq] == 0) continue; /* padding, in a padded layout */
        c->pad_to_sq[c->sq_to_pad[sq]] = (int16_t)sq;
        if (c->number[sq] <= MAX_SQUARES) c->sq_of_number[c->number[sq]] = (int16_t)sq;
        r->board |= BIT(sq);
        c->bit_ints[sq] = from_bits(c, BIT(sq));
        if (!c->bit_ints[sq]) return -1;
    }
    return 0;
}

/* The rule switches, read by name from a draughts._core.native.RuleSwitches
 * (a NamedTuple: any object with these attributes will do). */
static const struct {
    const char *name;
    size_t offset; /* of the int in Rules */
} SWITCHES[] = {
    {"flying_kings", offsetof(Rules, flying)},
    {"removal_at_end", offsetof(Rules, at_end)},
    {"reverse_in_capture", offsetof(Rules, reverse_ok)},
    {"crown_and_stop", offsetof(Rules, crown_stop)},
    {"crown_and_continue", offsetof(Rules, crown_continue)},
    {"men_capture_kings", offsetof(Rules, men_capture_kings)},
    {"lands_directly_behind", offsetof(Rules, lands_behind)},
    {"stops_behind_king", offsetof(Rules, stops_behind_king)},
    {"must_land_to_continue", offsetof(Rules, must_land)},
    {"majority_only", offsetof(Rules, majority_only)},
    {"padded", offsetof(Rules, padded)},
};

static int load_switches(Rules *r, PyObject *switches) {
    for (size_t i = 0; i < sizeof SWITCHES / sizeof SWITCHES[0]; i++) {
        PyObject *value = PyObject_GetAttrString(switches, SWITCHES[i].name);
        int on = value == NULL ? -1 : PyObject_IsTrue(value);
        Py_XDECREF(value);
        if (on < 0) return -1;
        *(int *)(void *)((char *)r + SWITCHES[i].offset) = on;
    }
    return 0;
}

static int load_rules(Rules *r, PyObject *dirs, PyObject *promotion, PyObject *switches,
                      PyObject *rules) {
    /* dirs: man moves (white, black), man captures (white, black), king
     * moves, king captures, reverse. */
    PyObject *d[8];
    int counts[7], *targets[7] = {r->man_move_dirs[0], r->man_move_dirs[1], r->man_cap_dirs[0],
                                  r->man_cap_dirs[1],  r->king_move_dirs,   r->king_cap_dirs,
                                  r->reverse};
    if (!PyArg_ParseTuple(dirs, "OOOOOOOO", &d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &d[6],
                          &d[7]))
        return -1;
    if (ints(d[7], r->shift, NDIRS, -MAX_SQUARES, MAX_SQUARES, "shifts") != NDIRS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one shift per direction");
        return -1;
    }
    for (int i = 0; i < 7; i++)
        if ((counts[i] = ints(d[i], targets[i], NDIRS, 0, NDIRS - 1, "directions")) < 0) return -1;
    r->n_man_move[0] = counts[0], r->n_man_move[1] = counts[1];
    r->n_man_cap[0] = counts[2], r->n_man_cap[1] = counts[3];
    r->n_king_move = counts[4], r->n_king_cap = counts[5];
    int squares[MAX_SQUARES];
    for (int color = 0; color < 2; color++) {
        PyObject *row = PySequence_GetItem(promotion, color);
        int n = row == NULL ? -1 : ints(row, squares, MAX_SQUARES, 0, r->n - 1, "promotion");
        Py_XDECREF(row);
        if (n < 0) return -1;
        r->promotion[color] = 0;
        for (int i = 0; i < n; i++) r->promotion[color] |= BIT(squares[i]);
    }
    if (load_switches(r, switches) < 0) return -1;
    if ((r->n_rules = ints(rules, r->rules, MAX_RULES, 0, RULE_KINGS_FIRST, "rules")) < 0)
        return -1;
    return 0;
}

/* Where the member `name` of `type` lives in an instance when it is a
 * plain writable __slots__ member, else -1 (no error left set). */
static Py_ssize_t member_offset(PyObject *type, const char *name) {
    PyObject *descriptor = PyObject_GetAttrString(type, name);
    Py_ssize_t offset = -1;
    if (descriptor != NULL && Py_IS_TYPE(descriptor, &PyMemberDescr_Type)) {
        PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
        if (member->type == T_OBJECT_EX) offset = member->offset;
    }
    Py_XDECREF(descriptor);
    PyErr_Clear();
    return offset;
}

/* The masks and tables derived from the rays and directions once they are
 * loaded (core.h says what each is for). */
static void derive_masks(Rules *r) {
    r->order_counts = 0;
    for (int k = 0; k < r->n_rules; k++) r->order_counts |= r->rules[k] == RULE_KINGS_FIRST;
    for (int sq = 0; sq < r->n; sq++) {
        for (int d = 0; d < NDIRS; d++) {
            const uint8_t *ray = RAY(r, sq, d);
            int n = r->ray_len[sq][d], rises = 1, falls = 1;
            bb_t mask = 0;
            for (int i = 0; i < n; i++) {
                mask |= SQUARE_BIT(ray[i]);
                int before = i ? ray[i - 1] : sq;
                rises &= ray[i] > before;
                falls &= ray[i] < before;
            }
            r->ray_mask[sq][d] = mask;
            r->ray_order[sq][d] = (int8_t)(rises ? 1 : falls ? -1 : 0);
        }
    }
    for (int color = 0; color < 2; color++) {
        for (int sq = 0; sq < r->n; sq++) {
            bb_t jump = 0, step = 0;
            for (int k = 0; k < r->n_man_cap[color]; k++) {
                int d = r->man_cap_dirs[color][k];
                if (r->ray_len[sq][d] >= 2) jump |= SQUARE_BIT(RAY(r, sq, d)[0]);
            }
            for (int k = 0; k < r->n_man_move[color]; k++) {
                int d = r->man_move_dirs[color][k];
                if (r->ray_len[sq][d] >= 1) step |= SQUARE_BIT(RAY(r, sq, d)[0]);
            }
            r->man_jump_near[color][sq] = jump;
            r->man_step_near[color][sq] = step;
        }
    }
    for (int d = 0; d < NDIRS; d++) {
        r->step_from[d] = r->jump_from[d] = 0;
        for (int sq = 0; sq < r->n; sq++) {
            if (r->ray_len[sq][d] >= 1) r->step_from[d] |= SQUARE_BIT(sq);
            if (r->ray_len[sq][d] >= 2) r->jump_from[d] |= SQUARE_BIT(sq);
        }
    }
    int stride = r->shift[0] - 1, diagonal = r->padded;
    for (int d = 0; d < 4; d++) diagonal &= r->shift[d] == diagonal_shift(stride, d);
    memset(r->man_jump_from, 0, sizeof r->man_jump_from);
    memset(r->man_step_from, 0, sizeof r->man_step_from);
    for (int color = 0; color < 2; color++) {
        for (int k = 0; k < r->n_man_cap[color]; k++) {
            int d = r->man_cap_dirs[color][k];
            r->man_jump_from[color][d] = r->jump_from[d];
            diagonal &= d < 4;
        }
        for (int k = 0; k < r->n_man_move[color]; k++) {
            int d = r->man_move_dirs[color][k];
            r->man_step_from[color][d] = r->step_from[d];
            diagonal &= d < 4;
        }
    }
    /* The strides of the 8x8 and 10x10 boards, which have shifts compiled in. */
    r->diagonal_stride = diagonal && (stride == 10 || stride == 12) ? stride : 0;
}

/* _load(n, pad_size, squares, numbers, rays, dirs, promotion, switches, rules,
 *       man_value, king_value, key_men, key_kings, key_black, step_moves,
 *       move_type, raw_type, captures_kept) */
static PyObject *core_load(CoreObject *c, PyObject *args) {
    int n, pad_size;
    long long man_value, king_value;
    unsigned long long key_black;
    Py_ssize_t kept;
    PyObject *squares, *numbers, *rays, *dirs, *promotion, *switches, *rules, *key_men, *key_kings;
    PyObject *step_moves, *move_type, *raw_type;
    if (c->ready || c->pad_to_sq != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the native tables are loaded once");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iiOOOOOOOLLOOKOOO!n", &n, &pad_size, &squares, &numbers, &rays,
                          &dirs, &promotion, &switches, &rules, &man_value, &king_value, &key_men,
                          &key_kings, &key_black, &step_moves, &move_type, &PyType_Type,
                          &raw_type, &kept))
        return NULL;
    if (n < 1 || n > MAX_SQUARES || pad_size < n || pad_size > 64 * MAX_PAD_WORDS) {
        PyErr_Format(PyExc_ValueError, "the native core holds 1 to %d squares", MAX_SQUARES);
        return NULL;
    }
    Rules *r = &c->rules;
    r->n = n;
    c->pad_size = pad_size;
    r->man_value = man_value, r->king_value = king_value, r->key_black = key_black;
    c->move_type = Py_NewRef(move_type);
    c->move_slots[0] = member_offset(move_type, "from_square");
    c->move_slots[1] = member_offset(move_type, "to_square");
    c->move_slots[2] = member_offset(move_type, "captures");
    c->raw_type = (PyTypeObject *)Py_NewRef(raw_type);
    c->captures_kept = kept;
    c->capture_moves = PyDict_New();
    if (c->capture_moves == NULL || load_rules(r, dirs, promotion, switches, rules) < 0 ||
        load_squares(c, squares, numbers) < 0 || load_rays(c, rays) < 0)
        return NULL;
    if (r->padded && pad_size != n) {
        PyErr_SetString(PyExc_ValueError, "a padded layout has one square per index");
        return NULL;
    }
    for (int color = 0; color < 2; color++) {
        PyObject *men = PySequence_GetItem(key_men, color);
        PyObject *kings = PySequence_GetItem(key_kings, color);
        int failed = !men || !kings || keys(men, r->key_men[color], n) < 0 ||
                     keys(kings, r->key_kings[color], n) < 0;
        Py_XDECREF(men);
        Py_XDECREF(kings);
        if (failed) return NULL;
    }
    if (load_steps(c, step_moves) < 0) return NULL;
    derive_masks(r);
    c->ready = 1;
    Py_RETURN_NONE;
}

static PyObject *core_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    (void)args, (void)kwargs;
    return type->tp_alloc(type, 0); /* zeroed: not ready until _load */
}

/* The Python objects a Core holds: the Move and RawMove types, the capture
 * cache and the step moves (the ints of pad_ints, number_ints and bit_ints
 * hold nothing and are left out). A Tables subclass adds its __dict__. */
static int core_traverse(CoreObject *c, visitproc visit, void *arg) {
    Py_VISIT(c->move_type);
    Py_VISIT((PyObject *)c->raw_type);
    Py_VISIT(c->capture_moves);
    if (c->step_moves != NULL) {
        for (int i = 0; i <= c->rules.ray_total; i++) {
            Py_VISIT(c->step_moves[i]);
            Py_VISIT(c->step_raws[0][i]);
            Py_VISIT(c->step_raws[1][i]);
        }
    }
    return 0;
}

/* Breaks a cycle: the core stops being ready first, so that any later
 * call (a finaliser's) passes it to the pure generator, which needs none
 * of what is cleared. */
static int core_clear(CoreObject *c) {
    c->ready = 0;
    Py_CLEAR(c->move_type);
    Py_CLEAR(c->raw_type);
    Py_CLEAR(c->capture_moves);
    if (c->step_moves != NULL) {
        for (int i = 0; i <= c->rules.ray_total; i++) {
            Py_CLEAR(c->step_moves[i]);
            Py_CLEAR(c->step_raws[0][i]);
            Py_CLEAR(c->step_raws[1][i]);
        }
    }
    return 0;
}

static void core_dealloc(CoreObject *c) {
    PyTypeObject *type = Py_TYPE(c);
    PyObject_GC_UnTrack(c);
    core_clear(c);
    PyMem_Free(c->step_moves);
    PyMem_Free(c->step_raws[0]);
    PyMem_Free(c->step_raws[1]);
    for (int i = 0; i < MAX_SQUARES; i++) {
        Py_XDECREF(c->pad_ints[i]);
        Py_XDECREF(c->number_ints[i]);
        Py_XDECREF(c->bit_ints[i]);
    }
    PyMem_Free(c->pad_to_sq);
    PyMem_Free(c->rules.ray_data);
    type->tp_free((PyObject *)c);
}

static PyObject *core_ready(CoreObject *c, void *closure) {
    (void)closure;
    return PyBool_FromLong(c->ready);
}

static PyMethodDef core_methods[] = {
    {"_load", (PyCFunction)core_load, METH_VARARGS,
     "_load($self, n, pad_size, squares, numbers, rays, dirs, promotion, switches, rules, "
     "man_value, king_value, key_men, key_kings, key_black, step_moves, move_type, raw_type, "
     "captures_kept, /)\n--\n\n"
     "Load the tables (once): see draughts._core.native._table_data."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef core_getset[] = {
    {"native_ready", (getter)core_ready, NULL,
     "Whether the native core holds this board (else the pure generator runs).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "draughts._core.native._native.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A variant's tables for the native move generator.",
    .tp_traverse = (traverseproc)core_traverse,
    .tp_clear = (inquiry)core_clear,
    .tp_new = core_new,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
    .tp_getset = core_getset,
};
