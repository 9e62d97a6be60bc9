/* draughts.ml._native._c.VecEnv: the Python face of ml_step.c's
 * games (construction from the tables draughts/ml/_native_env.py makes,
 * step, reset, sample, history) and encode_batch's C reading of boards.
 * Buffers come through the buffer protocol: the module does not link
 * against NumPy. Each method's text signature is held to
 * draughts.ml._native.NativeVecEnv by the tests. */
#include "ml_step.h"

/* Whether no step runs (the others read what a step writes). */
static int idle(const VecEnvObject *e) {
    if (e->busy) PyErr_SetString(PyExc_RuntimeError, "the games are being stepped by another thread");
    return !e->busy;
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t size, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, view->len, size);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *failure(VecEnvObject *e) {
    if (e->failed == -2)
        PyErr_SetString(PyExc_ValueError,
                        "more legal moves share an origin and a destination than the action "
                        "index's extra block holds (reset() starts the games again)");
    else
        PyErr_NoMemory();
    e->failed = 0;
    return NULL;
}

static const char *const array_names[10] = {"actions", "observations", "masks", "rewards",
                                            "terminated", "truncated", "final observations",
                                            "end codes", "winners", "uniforms"};

/* Acquire the first count of step()'s arrays (objs) into views, each
 * checked for its size: 0, or -1 with an exception (none held). */
static int get_arrays(VecEnvObject *e, PyObject *const *objs, int count, Py_buffer *views) {
    Py_ssize_t n = e->num_envs, obs = n * e->planes * e->hw * (e->u8 ? 1 : (Py_ssize_t)sizeof(float));
    Py_ssize_t sizes[10] = {n * 8, obs, n * 2 * e->nsq * e->nsq, n * 4, n, n, obs, n, n,
                            n * (Py_ssize_t)sizeof(double)};
    for (int got = 0; got < count; got++) {
        if (get_buffer(objs[got], &views[got], sizes[got], array_names[got]) < 0) {
            while (got > 0) PyBuffer_Release(&views[--got]);
            return -1;
        }
    }
    return 0;
}

/* Step the games on the arrays in views (uniforms: the tenth is there):
 * -1 or the illegal game as a Python int, or NULL. */
static PyObject *run_step(VecEnvObject *e, Py_buffer *views, int uniforms, const void *pcg) {
    long illegal = -1;
    Arrays a = {.actions = views[0].buf, .obs = views[1].buf, .masks = views[2].buf,
                .rewards = views[3].buf, .terminated = views[4].buf, .truncated = views[5].buf,
                .final_obs = views[6].buf, .codes = views[7].buf, .winners = views[8].buf,
                .uniforms = uniforms ? views[9].buf : NULL};
#ifdef ML_PCG64
    a.pcg = pcg;
#else
    (void)pcg;
#endif
    int status;
    e->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    status = ml_step_all(e, &a, &illegal);
    Py_END_ALLOW_THREADS
    e->busy = 0;
    if (status < 0) {
        e->failed = status;
        return failure(e);
    }
    return PyLong_FromLong(illegal);
}

static PyObject *vec_step(VecEnvObject *e, PyObject *args) {
    PyObject *objs[10] = {NULL};
    if (!PyArg_ParseTuple(args, "OOOOOOOOO|O", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8], &objs[9]))
        return NULL;
    int all = objs[9] != NULL && objs[9] != Py_None ? 10 : 9; /* with uniforms */
    Py_buffer views[10];
    if (!idle(e) || get_arrays(e, objs, all, views) < 0) return NULL;
    PyObject *result = run_step(e, views, all == 10, NULL);
    for (int i = 0; i < all; i++) PyBuffer_Release(&views[i]);
    return result;
}

static void release_bound(VecEnvObject *e) {
    for (int i = 0; i < e->nbound; i++) PyBuffer_Release(&e->bound[i]);
    e->nbound = 0;
}

/* Keep step()'s ten arrays, uniforms included, for step_sampled(). */
static PyObject *vec_bind(VecEnvObject *e, PyObject *args) {
    PyObject *objs[10];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8], &objs[9]) ||
        !idle(e))
        return NULL;
    Py_buffer views[10];
    if (get_arrays(e, objs, 10, views) < 0) return NULL;
    release_bound(e);
    memcpy(e->bound, views, sizeof views);
    e->nbound = 10;
    Py_RETURN_NONE;
}

/* step() on the arrays bind() keeps, with its uniforms. Acquiring the ten
 * arrays' buffers at every call took some 14,000 instructions a call
 * (callgrind, International random self-play, 256 games: 2,016 a step
 * against 1,962) and 1.3 to 2.1 us of a call on one game (timeit, 2026-12-05,
 * load average 5: 1.9 to 2.6 us against 0.4 to 0.6). */
/* NumPy's bit generator interface (numpy/random/bitgen.h, documented in
 * NumPy's "C API for random"): BitGenerator.capsule, a capsule named
 * "BitGenerator", holds it, and Generator.random() fills an array with
 * next_double() calls. */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *state);
    uint32_t (*next_uint32)(void *state);
    double (*next_double)(void *state);
    uint64_t (*next_raw)(void *state);
} BitGen;

/* The uniforms from bits, a bit generator's capsule: all of them here, or
 * (pcg64: the generator is NumPy's PCG64) the first one here and, where
 * the draw agrees with ours from the state read from the capsule (NumPy's
 * layout: a pointer to the 128-bit state and increment), the others on
 * the stepping threads from the state after it (*drawn set), the
 * generator's state then set beyond them. sample_step()'s part outside
 * the stepping (on the caller's thread alone, which the other threads wait
 * for) took 8,789 instructions a call so drawing all the numbers, 589 so
 * (callgrind, International random self-play, 256 games, one thread, 451
 * calls, 2026-12-06); the threads draw as many as it did (25 a number). */
static int draw_first(VecEnvObject *e, PyObject *capsule, int pcg64, void *drawn, void **state) {
    BitGen *bits = PyCapsule_GetPointer(capsule, "BitGenerator");
    if (bits == NULL) return -1;
    double *uniforms = e->bound[9].buf;
#ifdef ML_PCG64
    Pcg64 *pcg = drawn;
    if (pcg64) {
        Pcg64 *theirs = *(Pcg64 **)bits->state;
        *state = theirs;
        memcpy(pcg, theirs, sizeof *pcg);
        double ours = ml_pcg_double(pcg);
        uniforms[0] = bits->next_double(bits->state);
        if (ours == uniforms[0] && memcmp(pcg, theirs, sizeof *pcg) == 0) return 1;
        for (int i = 1; i < e->num_envs; i++) uniforms[i] = bits->next_double(bits->state);
        return 0;
    }
#else
    (void)pcg64, (void)drawn, (void)state;
#endif
    for (int i = 0; i < e->num_envs; i++) uniforms[i] = bits->next_double(bits->state);
    return 0;
}

static PyObject *vec_step_sampled(VecEnvObject *e, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "step_sampled() takes at most two arguments");
        return NULL;
    }
    if (!idle(e)) return NULL;
    if (!e->nbound) {
        PyErr_SetString(PyExc_RuntimeError, "step_sampled() needs bind() first");
        return NULL;
    }
    int pcg64 = nargs == 2 ? PyObject_IsTrue(args[1]) : 0, on_threads = 0;
    void *state = NULL;
    if (pcg64 < 0) return NULL;
#ifdef ML_PCG64
    Pcg64 drawn;
#else
    char drawn;
#endif
    if (nargs >= 1 && args[0] != Py_None) {
        /* The uniforms drawn here, as Generator.random(out=uniforms) draws
         * them (the caller holds the generator's lock), rather than by that
         * call in Python before, on the caller's thread, which the other
         * threads wait for: sample_step() took 3,925 instructions a call on
         * one game so, 8,197 before, and 0.80 us against 1.11 to 1.16; at
         * 256 games 319,673 against 320,339 (callgrind, whole process,
         * 10,000 calls; timeit, load 6; International, 2026-12-06). */
        on_threads = draw_first(e, args[0], pcg64, &drawn, &state);
        if (on_threads < 0) return NULL;
    }
#ifdef ML_PCG64
    if (!on_threads) return run_step(e, e->bound, 1, NULL);
    PyObject *result = run_step(e, e->bound, 1, &drawn);
    /* the generator past the numbers the threads drew */
    ((Pcg64 *)state)->state = ml_pcg_advance(&drawn, (uint64_t)e->num_envs - 1);
    return result;
#else
    return run_step(e, e->bound, 1, NULL);
#endif
}

static PyObject *vec_reset(VecEnvObject *e, PyObject *args) {
    PyObject *obs_obj, *mask_obj;
    if (!PyArg_ParseTuple(args, "OO", &obs_obj, &mask_obj)) return NULL;
    if (!idle(e)) return NULL;
    Py_ssize_t n = e->num_envs;
    Py_buffer obs, masks;
    size_t obs_size = ml_obs_bytes(e), mask_size = ml_mask_bytes(e);
    if (get_buffer(obs_obj, &obs, n * (Py_ssize_t)obs_size, "observations") < 0)
        return NULL;
    if (get_buffer(mask_obj, &masks, n * (Py_ssize_t)mask_size, "masks") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    int status = 0;
    for (int i = 0; i < e->num_envs && status == 0; i++) {
        Game *g = &e->games[i];
        g->nfhist = -1; /* no game ended since the reset */
        status = ml_restart(e, g);
        ml_observe(e, g, (char *)obs.buf + (size_t)i * obs_size, NULL);
        ml_shown(e, g, &e->drawn[i]);
        uint8_t *mask = (uint8_t *)masks.buf + (size_t)i * mask_size;
        memset(mask, 0, mask_size);
        for (int k = 0; k < g->nmoves; k++) mask[g->moves[k].action] = 1;
    }
    PyBuffer_Release(&obs);
    PyBuffer_Release(&masks);
    if (status < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* A legal action per game, picked by uniforms[i] in [0, 1) among its sorted
 * legal actions (VectorEnv.sample's rule). */
static PyObject *vec_sample(VecEnvObject *e, PyObject *args) {
    PyObject *u_obj, *a_obj;
    if (!PyArg_ParseTuple(args, "OO", &u_obj, &a_obj) || !idle(e)) return NULL;
    Py_buffer u, a;
    if (get_buffer(u_obj, &u, e->num_envs * (Py_ssize_t)sizeof(double), "uniforms") < 0)
        return NULL;
    if (get_buffer(a_obj, &a, e->num_envs * 8, "actions") < 0) {
        PyBuffer_Release(&u);
        return NULL;
    }
    const double *uniforms = u.buf;
    int64_t *actions = a.buf;
    for (int i = 0; i < e->num_envs; i++) actions[i] = ml_pick(e, i, uniforms[i]);
    PyBuffer_Release(&u);
    PyBuffer_Release(&a);
    Py_RETURN_NONE;
}

/* The actions of game i's current game (final: of the last one that
 * ended, None where none has since the reset). */
static PyObject *vec_history(VecEnvObject *e, PyObject *args) {
    int i, final;
    if (!PyArg_ParseTuple(args, "ip", &i, &final) || !idle(e)) return NULL;
    if (i < 0 || i >= e->num_envs) {
        PyErr_Format(PyExc_IndexError, "no game %d", i);
        return NULL;
    }
    const Game *g = &e->games[i];
    if (final && g->nfhist < 0) Py_RETURN_NONE;
    int n = final ? g->nfhist : g->nhist;
    const int32_t *h = final ? g->fhist : g->hist;
    PyObject *list = PyList_New(n);
    for (int k = 0; list != NULL && k < n; k++) {
        PyObject *v = PyLong_FromLong(h[k]);
        if (v == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, k, v);
    }
    return list;
}

/* -- Encoding boards (draughts.ml.encode_batch) -------------------------------- */

enum { A_CTX, A_MEN, A_KINGS, A_TURN, A_STACK, A_QUIET, A_STARTS, A_KMOVES, A_ORIGIN, N_ATTRS };
static PyObject *attr_names[N_ATTRS];

static int intern_names(void) {
    static const char *const names[N_ATTRS] = {"_ctx",         "_men",    "_kings",
                                               "_turn",        "_stack",  "_quiet_from",
                                               "_starts",      "_kmoves", "_ply_origin"};
    for (int i = 0; i < N_ATTRS; i++)
        if (attr_names[i] == NULL && (attr_names[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    return 0;
}

static int int_item(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *v = PySequence_GetItem(seq, i);
    if (v == NULL) return -1;
    *out = v == Py_None ? NOT_COUNTING : PyLong_AsLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int pair_bits(CoreObject *c, PyObject *board, PyObject *name, bb_t *first, bb_t *second) {
    PyObject *pair = PyObject_GetAttr(board, name);
    if (pair == NULL) return -1;
    PyObject *a = PySequence_GetItem(pair, 0), *b = PySequence_GetItem(pair, 1);
    int status = a && b && ml_core->to_bits(c, a, first, "a bitboard") == 0 &&
                         ml_core->to_bits(c, b, second, "a bitboard") == 0
                     ? 0
                     : -1;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_DECREF(pair);
    return status;
}

/* A board's game state as a Game: what ml_observe() reads. The keys of the
 * plies the repetition scan looks at go into keys (room for ply keys). */
static int read_board(VecEnvObject *e, PyObject *board, Game *g) {
    CoreObject *c = e->core;
    long v;
    PyObject *o;
    if (pair_bits(c, board, attr_names[A_MEN], &g->bb[0], &g->bb[1]) < 0 ||
        pair_bits(c, board, attr_names[A_KINGS], &g->bb[2], &g->bb[3]) < 0)
        return -1;
    if ((o = PyObject_GetAttr(board, attr_names[A_TURN])) == NULL) return -1;
    g->turn = (int)PyLong_AsLong(o);
    Py_DECREF(o);
    if ((o = PyObject_GetAttr(board, attr_names[A_QUIET])) == NULL) return -1;
    g->quiet_from = (int)PyLong_AsLong(o);
    Py_DECREF(o);
    if ((o = PyObject_GetAttr(board, attr_names[A_STACK])) == NULL) return -1;
    g->ply = (int)PyList_Size(o);
    int low = g->quiet_from > 0 ? g->quiet_from : 0, failed = g->ply < 0;
    if (!failed && e->repetition >= 0 && g->ply > (int)g->capkeys) {
        uint64_t *keys = realloc(g->keys, (size_t)g->ply * sizeof *keys);
        if (keys == NULL) failed = 1;
        else g->keys = keys, g->capkeys = (size_t)g->ply;
    }
    for (int p = g->ply - 2; !failed && e->repetition >= 0 && p >= low; p -= 2) {
        PyObject *entry = PyList_GET_ITEM(o, p);
        PyObject *key = PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) > 5
                            ? PyTuple_GET_ITEM(entry, 5)
                            : NULL;
        failed = key == NULL || ml_core->get_key(key, &g->keys[p]) < 0;
    }
    Py_DECREF(o);
    if (failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a board's history is unreadable");
        return -1;
    }
    g->key = ml_core->position_key(&c->rules, g->turn, g->bb);
    ml_number_bits(e, g); /* the observation's pieces come from them (Drawn.view) */
    g->ply_origin = 0;
    for (int i = 0; i < e->nrules; i++) {
        if (e->rules[i].mode != MODE_PLIES) continue;
        if ((o = PyObject_GetAttr(board, attr_names[A_ORIGIN])) == NULL) return -1;
        g->ply_origin = (int)PyLong_AsLong(o);
        Py_DECREF(o);
        break;
    }
    if ((o = PyObject_GetAttr(board, attr_names[A_STARTS])) == NULL) return -1;
    Py_ssize_t n = PySequence_Size(o);
    for (Py_ssize_t i = 0; i < MAX_DRAW_RULES; i++) {
        if (i < n && int_item(o, i, &v) < 0) {
            Py_DECREF(o);
            return -1;
        }
        g->starts[i] = i < n ? (int)v : NOT_COUNTING;
    }
    Py_DECREF(o);
    ml_holding(e, g);
    if (e->king_limit) {
        if ((o = PyObject_GetAttr(board, attr_names[A_KMOVES])) == NULL) return -1;
        for (int k = 0; k < 2; k++) {
            PyObject *bit = PySequence_GetItem(o, 2 * k);
            bb_t b = 0;
            int bad = bit == NULL || ml_core->to_bits(c, bit, &b, "a king square") < 0 ||
                      int_item(o, 2 * k + 1, &v) < 0;
            Py_XDECREF(bit);
            if (bad) {
                Py_DECREF(o);
                return -1;
            }
            g->ksq[k] = b ? low_bit(b) : -1;
            g->kn[k] = (int)v;
        }
        Py_DECREF(o);
    }
    return PyErr_Occurred() ? -1 : 0;
}

/* encode(boards, out, ctx): the observations of boards (as this VecEnv's
 * perspective shows them, float32 or its bytes) into out; -1, or the index of the first board
 * whose _ctx is not ctx (nothing is promised of out then). */
static PyObject *vec_encode(VecEnvObject *e, PyObject *args) {
    PyObject *boards, *out_obj, *ctx;
    if (!PyArg_ParseTuple(args, "O!OO", &PyList_Type, &boards, &out_obj, &ctx) ||
        intern_names() < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(boards);
    Py_buffer out;
    size_t obs_size = ml_obs_bytes(e);
    if (get_buffer(out_obj, &out, n * (Py_ssize_t)obs_size, "out") < 0)
        return NULL;
    Game g;
    memset(&g, 0, sizeof g);
    long stopped = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *board = PyList_GET_ITEM(boards, i);
        PyObject *board_ctx = PyObject_GetAttr(board, attr_names[A_CTX]);
        if (board_ctx == NULL) {
            stopped = -2;
            break;
        }
        Py_DECREF(board_ctx);
        if (board_ctx != ctx) {
            stopped = (long)i;
            break;
        }
        if (read_board(e, board, &g) < 0) {
            stopped = -2;
            break;
        }
        ml_observe(e, &g, (char *)out.buf + (size_t)i * obs_size, NULL);
    }
    free(g.keys);
    PyBuffer_Release(&out);
    if (stopped == -2) return NULL;
    return PyLong_FromLong(stopped);
}

/* -- Construction --------------------------------------------------------------- */

static int int32s(PyObject *bytes, const int32_t **out, Py_ssize_t *n) {
    if (!PyBytes_Check(bytes)) {
        PyErr_SetString(PyExc_TypeError, "int32 tables come as bytes");
        return -1;
    }
    *out = (const int32_t *)PyBytes_AS_STRING(bytes);
    *n = PyBytes_GET_SIZE(bytes) / 4;
    return 0;
}

/* rules: per rule is_repetition, automatic, limit, mode, slot, strong side
 * moves, resets, most, weak most, claim on next move, endings, then 11
 * ints per ending. */
static int load_draw_rules(VecEnvObject *e, PyObject *bytes) {
    const int32_t *v;
    Py_ssize_t n, at = 0;
    if (int32s(bytes, &v, &n) < 0) return -1;
    e->repetition = -1;
    while (at < n) {
        if (e->nrules == MAX_DRAW_RULES || at + 11 > n) goto bad;
        RuleSpec *rule = &e->rules[e->nrules];
        rule->is_repetition = v[at], rule->automatic = v[at + 1], rule->limit = v[at + 2];
        rule->mode = v[at + 3], rule->slot = v[at + 4], rule->strong_moves = v[at + 5];
        rule->resets = v[at + 6], rule->most = v[at + 7], rule->weak_most = v[at + 8];
        rule->claim_next = v[at + 9], rule->n_endings = v[at + 10];
        at += 11;
        if (rule->n_endings < 0 || rule->n_endings > MAX_ENDINGS ||
            at + 11 * rule->n_endings > n || rule->slot < -1 || rule->slot >= MAX_DRAW_RULES ||
            (rule->mode == MODE_TRACKED && rule->slot < 0))
            goto bad;
        memcpy(rule->endings, v + at, 11 * sizeof(int32_t) * (size_t)rule->n_endings);
        for (int k = 0; k < rule->n_endings; k++) e->king_endings |= rule->endings[k].diagonal != 0;
        at += 11 * rule->n_endings;
        if (rule->is_repetition) {
            if (rule->limit < 1) goto bad;
            e->repetition = e->nrules;
        } else {
            e->counting[e->ncounting++] = e->nrules;
        }
        e->nrules++;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "a malformed draw-rule table");
    return -1;
}

/* start: m0, m1, k0, k1, turn, quiet_from, ply_origin, starts (int32
 * bytes), king square and count of White, of Black. */
static int load_start(VecEnvObject *e, PyObject *start) {
    PyObject *bbs[4], *starts;
    Game *g = &e->start;
    if (!PyArg_ParseTuple(start, "OOOOiiiOiiii", &bbs[0], &bbs[1], &bbs[2], &bbs[3], &g->turn,
                          &g->quiet_from, &g->ply_origin, &starts, &g->ksq[0], &g->kn[0],
                          &g->ksq[1], &g->kn[1]))
        return -1;
    for (int i = 0; i < 4; i++)
        if (ml_core->to_bits(e->core, bbs[i], &g->bb[i], "a start bitboard") < 0) return -1;
    const int32_t *v;
    Py_ssize_t n;
    if (int32s(starts, &v, &n) < 0) return -1;
    for (int i = 0; i < MAX_DRAW_RULES; i++) g->starts[i] = i < n ? v[i] : NOT_COUNTING;
    ml_holding(e, g);
    g->key = ml_core->position_key(&e->core->rules, g->turn, g->bb);
    ml_number_bits(e, g);
    int status = ml_generate(e, g, &e->scratch[0], NULL);
    if (status == -2) {
        e->failed = -2;
        failure(e);
        return -1;
    }
    if (status < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *vec_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *core, *params, *cells, *turned, *rules, *diagonal, *start;
    int num_envs;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs)) {
        PyErr_SetString(PyExc_TypeError, "VecEnv takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!iOOOOOO", ml_core->core_type, &core, &num_envs, &params,
                          &cells, &turned, &rules, &diagonal, &start))
        return NULL;
    CoreObject *c = (CoreObject *)core;
    if (!c->ready || !c->rules.padded || num_envs < 1) {
        PyErr_SetString(PyExc_ValueError, "the native VecEnv needs a padded board and a game");
        return NULL;
    }
    VecEnvObject *e = (VecEnvObject *)type->tp_alloc(type, 0);
    if (e == NULL) return NULL;
    e->core = (CoreObject *)Py_NewRef(core);
    e->num_envs = num_envs;
    for (int t = 0; t < MAX_THREADS; t++) ml_core->routes_init(&e->scratch[t]);
    const int32_t *v;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(params, "iiiiiiiiiiiiii", &e->perspective, &e->max_plies, &e->lose,
                          &e->goal, &e->planes, &e->hw, &e->nsq, &e->king_limit, &e->events[0],
                          &e->events[1], &e->events[2], &e->threads, &e->claim, &e->u8) ||
        int32s(cells, &v, &n) < 0)
        goto fail;
    e->perspective = e->perspective != 0; /* 0 or 1: the step masks the turn with it */
    if (e->threads < 1 || e->threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1 to %d", MAX_THREADS);
        goto fail;
    }
    if (n != c->rules.n || e->nsq > MAX_SQUARES || e->nsq < 1) {
        PyErr_SetString(PyExc_ValueError, "one cell per square expected");
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        e->cell[i] = v[i];
        e->turned_cell[i] = v[i] < 0 ? -1 : e->hw - 1 - v[i];
    }
    if (int32s(turned, &v, &n) < 0) goto fail;
    for (int i = 0; i <= e->nsq; i++) e->turned[i] = i < n ? v[i] : i;
    for (int sq = 0; sq < c->rules.n; sq++) {
        int number = c->number[sq];
        if (number < 1 || number > e->nsq) continue; /* not a playing square */
        for (int t = 0; t < 2; t++) {
            int seen = t ? e->turned[number] : number;
            e->origin_part[t][sq] = (seen - 1) * e->nsq;
            e->dest_part[t][sq] = seen - 1;
        }
    }
    if (ml_moves_init(e) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    e->view_ok = e->num.ok;
    for (int b = 0; e->num.ok && b < e->nsq; b++) {
        int sq = e->num.square[b], other = e->num.square[e->nsq - 1 - b];
        e->num_cell[b] = e->cell[sq];
        e->num_bit[0][sq] = (uint64_t)1 << b;
        e->num_bit[1][sq] = (uint64_t)1 << (e->nsq - 1 - b);
        if (e->perspective)
            e->view_ok &= e->turned[b + 1] == e->nsq - b && e->turned_cell[sq] == e->cell[other];
    }
    e->view_turns = e->view_ok && e->perspective;
    ml_spread_init(e);
    if (load_draw_rules(e, rules) < 0 || ml_core->to_bits(c, diagonal, &e->long_diagonal, "diagonal") < 0)
        goto fail;
    ml_rules_init(e);
    if (load_start(e, start) < 0) goto fail;
    e->squares_turn = 1;
    for (int sq = 0; sq < c->rules.n; sq++) {
        int turned_cell = e->cell[sq] < 0 ? -1 : e->hw - 1 - e->cell[sq], found = 0;
        for (int other = 0; other < c->rules.n && turned_cell >= 0; other++)
            found |= e->cell[other] == turned_cell;
        if (turned_cell >= 0 && !found) e->squares_turn = 0;
    }
    e->games = calloc((size_t)num_envs, sizeof(Game));
    e->drawn = calloc((size_t)num_envs, sizeof(Drawn));
    e->chosen = calloc((size_t)num_envs, sizeof(int));
    e->ones = e->hw > 0 ? malloc((size_t)e->hw * sizeof(float)) : NULL;
    for (int i = 0; e->ones != NULL && i < e->hw; i++) e->ones[i] = 1.0f;
    if (e->games == NULL || e->drawn == NULL || e->chosen == NULL || e->ones == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int i = 0; i < num_envs; i++) {
        e->games[i].nfhist = -1;
        if (ml_restart(e, &e->games[i]) < 0) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    return (PyObject *)e;
fail:
    Py_DECREF(e);
    return NULL;
}

static void free_game(Game *g) {
    free(g->keys), free(g->moves), free(g->captured), free(g->hist), free(g->fhist);
}

/* The environment holds its core (a Python object): it takes part in
 * garbage collection, so that a cycle through it is found. */
static int vec_traverse(VecEnvObject *e, visitproc visit, void *arg) {
    Py_VISIT(e->core);
    for (int i = 0; i < e->nbound; i++) Py_VISIT(e->bound[i].obj);
    return 0;
}

static int vec_clear(VecEnvObject *e) {
    if (!e->busy) release_bound(e);
    Py_CLEAR(e->core);
    return 0;
}

static void vec_dealloc(VecEnvObject *e) {
    PyObject_GC_UnTrack(e);
    release_bound(e);
    ml_pool_free(e);
    if (e->games != NULL)
        for (int i = 0; i < e->num_envs; i++) free_game(&e->games[i]);
    free(e->games);
    free(e->drawn);
    free(e->chosen);
    free(e->ones);
    free(e->num.king_bit);
    free(e->num.king_move);
    free_game(&e->start);
    for (int t = 0; t < MAX_THREADS; t++) ml_core->routes_free(&e->scratch[t]);
    Py_XDECREF(e->core);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyMethodDef vec_methods[] = {
    {"step", (PyCFunction)vec_step, METH_VARARGS,
     "step($self, actions, observations, masks, rewards, terminated, truncated, "
     "final_observations, codes, winners, uniforms=None, /)\n--\n\n"
     "-1, or the game whose action is illegal (the games before it have moved); "
     "with uniforms, the actions they pick (as sample()) written into actions and played."},
    {"bind", (PyCFunction)vec_bind, METH_VARARGS,
     "bind($self, actions, observations, masks, rewards, terminated, truncated, "
     "final_observations, codes, winners, uniforms, /)\n--\n\n"
     "Keep step()'s arrays, uniforms included, for step_sampled()."},
    {"step_sampled", (PyCFunction)(void (*)(void))vec_step_sampled, METH_FASTCALL,
     "step_sampled($self, bits=None, pcg64=False, /)\n--\n\n"
     "step() on the arrays bind() keeps, with its uniforms (drawn first from bits, "
     "a bit generator's capsule, where given; on the stepping threads where pcg64, "
     "bits being NumPy's PCG64's): -1."},
    {"reset", (PyCFunction)vec_reset, METH_VARARGS,
     "reset($self, observations, masks, /)\n--\n\nEvery game anew."},
    {"sample", (PyCFunction)vec_sample, METH_VARARGS,
     "sample($self, uniforms, actions, /)\n--\n\nThe legal action each uniform picks."},
    {"encode", (PyCFunction)vec_encode, METH_VARARGS,
     "encode($self, boards, out, ctx, /)\n--\n\n"
     "Observations of boards; -1 or the first board of another context."},
    {"replay", (PyCFunction)ml_replay, METH_VARARGS,
     "replay($self, data, spans, numbers, dash_captures, threads, /)\n--\n\n"
     "Game records' positions and actions (see ml_dataset.c)."},
    {"expand", (PyCFunction)ml_expand, METH_VARARGS,
     "expand($self, rows, out, threads, /)\n--\n\n"
     "The observations of replay()'s rows into out."},
    {"history", (PyCFunction)vec_history, METH_VARARGS,
     "history($self, game, final, /)\n--\n\n"
     "The actions of a game (final: of its last ended game, or None)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject VecEnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "draughts.ml._native._c.VecEnv",
    .tp_basicsize = sizeof(VecEnvObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The games of draughts.ml.VectorEnv, stepped in C.",
    .tp_new = vec_new,
    .tp_dealloc = (destructor)vec_dealloc,
    .tp_traverse = (traverseproc)vec_traverse,
    .tp_clear = (inquiry)vec_clear,
    .tp_methods = vec_methods,
};
