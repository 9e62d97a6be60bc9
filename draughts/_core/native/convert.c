/* Python ints <-> compact bitboards, and routes <-> RawMove / Move values.
 * Every value that comes from Python is checked here before C reads it. */
#include "convert.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the native core reads ints as little-endian words"
#endif

static int as_bytes(PyObject *value, unsigned char *buffer, size_t n) {
#if PY_VERSION_HEX >= 0x030D0000
    return _PyLong_AsByteArray((PyLongObject *)value, buffer, n, 1, 0, 1);
#else
    return _PyLong_AsByteArray((PyLongObject *)value, buffer, n, 1, 0);
#endif
}

/* Ints of up to 128 bits, read and made digit by digit where the int's
 * layout is CPython 3.11's (Py_SIZE digits of 30 bits, the sign in the
 * size): a bitboard of International's 10 x 12 padded grid has 120 bits,
 * and _PyLong_AsByteArray and _PyLong_FromByteArray, the general way,
 * are slow for it: read_game on that corpus ran 954k instructions a game
 * with them, 896k with these (callgrind). Elsewhere the general way. */
#if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
#define DIGIT_INTS 1
/* 0 with *out set, -1 (no error) for a negative int or one above 2**128. */
static int u128_of(PyObject *value, bb_t *out) {
    Py_ssize_t n = Py_SIZE(value);
    const digit *d = ((PyLongObject *)value)->ob_digit;
    if (n < 0 || n > 5 || (n == 5 && d[4] >> 8)) return -1;
    bb_t bits = 0;
    for (Py_ssize_t i = n - 1; i >= 0; i--) bits = bits << PyLong_SHIFT | d[i];
    *out = bits;
    return 0;
}

static PyObject *int_of_u128(bb_t bits) {
    if (bits >> 64 == 0) return PyLong_FromUnsignedLongLong((unsigned long long)bits);
    digit d[5];
    Py_ssize_t n = 0;
    for (; bits; bits >>= PyLong_SHIFT) d[n++] = (digit)(bits & PyLong_MASK);
    PyLongObject *v = _PyLong_New(n);
    if (v != NULL) memcpy(v->ob_digit, d, (size_t)n * sizeof(digit));
    return (PyObject *)v;
}
#else
#define DIGIT_INTS 0
#endif

int to_bits(CoreObject *c, PyObject *value, bb_t *out, const char *what) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    uint64_t words[MAX_PAD_WORDS];
    size_t nwords = ((size_t)c->pad_size + 63) / 64;
    int small = 0; /* read digit by digit (see u128_of); else the general way, which reports errors */
#if DIGIT_INTS
    bb_t whole;
    if (nwords <= 2 && u128_of(value, &whole) == 0 && (nwords == 2 || whole >> 64 == 0)) {
        words[0] = (uint64_t)whole;
        if (nwords == 2) words[1] = (uint64_t)(whole >> 64);
        small = 1;
    }
#endif
    if (!small && as_bytes(value, (unsigned char *)words, nwords * 8) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError,
                     "%s must be a bitboard: a non-negative int below 2**%d, not %R", what,
                     (int)(nwords * 64), value);
        return -1;
    }
    bb_t bits = 0;
    if (c->rules.padded) { /* squares are the indices themselves */
        bits = (bb_t)words[0] | (nwords > 1 ? (bb_t)words[1] << 64 : 0);
        if (bits & ~c->rules.board) {
            PyErr_Format(PyExc_ValueError,
                         "%s has bit %d set, which is not a playing square of the board", what,
                         low_bit(bits & ~c->rules.board));
            return -1;
        }
        *out = bits;
        return 0;
    }
    for (size_t w = 0; w < nwords; w++) {
        for (uint64_t word = words[w]; word; word &= word - 1) {
            int index = (int)(64 * w) + ctz64(word);
            int sq = index < c->pad_size ? c->pad_to_sq[index] : -1;
            if (sq < 0) {
                PyErr_Format(PyExc_ValueError,
                             "%s has bit %d set, which is not a playing square of the board",
                             what, index);
                return -1;
            }
            bits |= BIT(sq);
        }
    }
    *out = bits;
    return 0;
}

PyObject *from_bits(CoreObject *c, bb_t bits) {
    size_t nwords = ((size_t)c->pad_size + 63) / 64;
    if (c->rules.padded) { /* at most two words: none to clear */
        uint64_t pair[2] = {(uint64_t)bits, (uint64_t)(bits >> 64)};
#if DIGIT_INTS
        return int_of_u128(bits);
#endif
        return _PyLong_FromByteArray((unsigned char *)pair, nwords * 8, 1, 0);
    }
    uint64_t words[MAX_PAD_WORDS] = {0};
    while (bits) {
        int sq = low_bit(bits);
        bits &= bits - 1;
        int index = c->sq_to_pad[sq];
        words[index / 64] |= (uint64_t)1 << (index % 64);
    }
#if DIGIT_INTS
    if (nwords <= 2) return int_of_u128((bb_t)words[0] | (nwords > 1 ? (bb_t)words[1] << 64 : 0));
#endif
    return _PyLong_FromByteArray((unsigned char *)words, nwords * 8, 1, 0);
}

int get_key(PyObject *value, uint64_t *key) {
#if DIGIT_INTS
    bb_t whole; /* see u128_of */
    if (PyLong_Check(value) && u128_of(value, &whole) == 0 && whole >> 64 == 0) {
        *key = (uint64_t)whole;
        return 0;
    }
#endif
    *key = PyLong_Check(value) ? PyLong_AsUnsignedLongLong(value) : (uint64_t)-1;
    if (!PyLong_Check(value) || PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "key must be an int from 0 to 2**64 - 1, not %R", value);
        return -1;
    }
    return 0;
}

int to_index(CoreObject *c, PyObject *value, int *out, const char *what) {
    int overflow = 0;
    long index = PyLong_Check(value) ? PyLong_AsLongAndOverflow(value, &overflow) : -1;
    if (!PyLong_Check(value) || overflow || index < 0 || index >= c->pad_size ||
        c->pad_to_sq[index] < 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s must be the internal index of a playing square, not %R",
                         what, value);
        return -1;
    }
    *out = c->pad_to_sq[index];
    return 0;
}

static PyObject *index_tuple(const uint8_t *squares, int n, PyObject **ints) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = ints[squares[i]];
        Py_INCREF(v);
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

PyObject *raw_move(CoreObject *c, const Route *m) {
    if (m->ncaps == 0) {
        /* Steps are always the same values: made once at load. */
        PyObject *made = c->step_raws[m->crowned ? 1 : 0][m->slot];
        Py_XINCREF(made);
        if (made == NULL) PyErr_SetString(PyExc_SystemError, "no prebuilt step");
        return made;
    }
    PyObject *t = c->raw_type->tp_alloc(c->raw_type, 6);
    if (t == NULL) return NULL;
    PyObject *mask = m->ncaps == 1 ? Py_NewRef(c->bit_ints[m->caps[0]])
                                   : from_bits(c, m->captured);
    PyObject *caps = index_tuple(m->caps, m->ncaps, c->pad_ints);
    PyObject *path = index_tuple(m->path, m->ncaps + 1, c->pad_ints);
    if (mask == NULL || caps == NULL || path == NULL) {
        Py_XDECREF(mask);
        Py_XDECREF(caps);
        Py_XDECREF(path);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, Py_NewRef(c->pad_ints[m->origin]));
    PyTuple_SET_ITEM(t, 1, Py_NewRef(c->pad_ints[m->dest]));
    PyTuple_SET_ITEM(t, 2, mask);
    PyTuple_SET_ITEM(t, 3, caps);
    PyTuple_SET_ITEM(t, 4, path);
    PyTuple_SET_ITEM(t, 5, Py_NewRef(m->crowned ? Py_True : Py_False));
    return t;
}

/* The route of a RawMove (origin, destination, captured_mask, captured,
 * path, crowned); the path is not needed to play it and is not read. */
int route_of(CoreObject *c, PyObject *raw, Route *m) {
    if (!PyTuple_Check(raw) || PyTuple_GET_SIZE(raw) != 6) {
        PyErr_Format(PyExc_TypeError, "move must be a RawMove, not %R", raw);
        return -1;
    }
    int origin, dest;
    if (to_index(c, PyTuple_GET_ITEM(raw, 0), &origin, "move.origin") < 0 ||
        to_index(c, PyTuple_GET_ITEM(raw, 1), &dest, "move.destination") < 0)
        return -1;
    PyObject *caps = PyTuple_GET_ITEM(raw, 3);
    if (!PyTuple_Check(caps) || PyTuple_GET_SIZE(caps) >= MAX_SQUARES) {
        PyErr_Format(PyExc_ValueError, "move.captured must be a tuple of indices, not %R", caps);
        return -1;
    }
    bb_t captured = 0;
    int ncaps = (int)PyTuple_GET_SIZE(caps);
    for (int i = 0; i < ncaps; i++) {
        int sq;
        if (to_index(c, PyTuple_GET_ITEM(caps, i), &sq, "move.captured[i]") < 0) return -1;
        if (captured & BIT(sq) || sq == origin) {
            PyErr_Format(PyExc_ValueError, "move.captured %R takes a square twice or its origin",
                         caps);
            return -1;
        }
        captured |= BIT(sq);
        m->caps[i] = (uint8_t)sq;
    }
    bb_t mask;
    if (to_bits(c, PyTuple_GET_ITEM(raw, 2), &mask, "move.captured_mask") < 0) return -1;
    if (mask != captured) {
        PyErr_Format(PyExc_ValueError, "move.captured_mask does not match move.captured %R",
                     caps);
        return -1;
    }
    int crowned = PyObject_IsTrue(PyTuple_GET_ITEM(raw, 5));
    if (crowned < 0) return -1;
    m->captured = captured;
    m->origin = (uint8_t)origin;
    m->dest = (uint8_t)dest;
    m->crowned = (uint8_t)crowned;
    m->ncaps = (uint8_t)ncaps;
    m->slot = 0;
    return 0;
}

/* The draughts.Move of a capture route, each made once and then found by
 * its captured squares and path (building one costs about ten times as
 * much as finding it). */
PyObject *capture_move(CoreObject *c, const Route *m) {
    unsigned char key[2 * MAX_SQUARES + 2];
    int n = 0;
    key[n++] = m->ncaps;
    memcpy(key + n, m->caps, m->ncaps);
    n += m->ncaps;
    memcpy(key + n, m->path, (size_t)m->ncaps + 1);
    n += m->ncaps + 1;
    PyObject *k = PyBytes_FromStringAndSize((const char *)key, n);
    if (k == NULL) return NULL;
    PyObject *move = PyDict_GetItemWithError(c->capture_moves, k);
    if (move != NULL) {
        Py_DECREF(k);
        return Py_NewRef(move);
    }
    if (PyErr_Occurred()) {
        Py_DECREF(k);
        return NULL;
    }
    PyObject *caps = index_tuple(m->caps, m->ncaps, c->number_ints);
    PyObject *path = index_tuple(m->path, m->ncaps + 1, c->number_ints);
    if (caps != NULL && path != NULL)
        move = PyObject_CallFunctionObjArgs(c->move_type, c->number_ints[m->origin],
                                            c->number_ints[m->dest], caps, path, NULL);
    Py_XDECREF(caps);
    Py_XDECREF(path);
    if (move != NULL) {
        if (PyDict_GET_SIZE(c->capture_moves) >= c->captures_kept) PyDict_Clear(c->capture_moves);
        if (PyDict_SetItem(c->capture_moves, k, move) < 0) Py_CLEAR(move);
    }
    Py_DECREF(k);
    return move;
}
