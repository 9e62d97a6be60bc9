/* The moves of a replay, kept in C while it runs and written out as a
 * main line only for a replay that is kept (see pdn_trace.h). */
#include "pdn_trace.h"

#define CAPTURE_TEXT 0x100

void trace_free(Trace *t) {
    PyMem_Free(t->squares);
    PyMem_Free(t->written);
    PyMem_Free(t->keys);
}

/* Room for one more move: 0, or -1 out of memory. */
int trace_room(Trace *t) {
    if (t->moves + 2 > t->cap) {
        Py_ssize_t cap = t->cap ? 2 * t->cap : 128;
        uint16_t *written = PyMem_Realloc(t->written, (size_t)cap * sizeof *written);
        if (written == NULL) return -1;
        t->written = written;
        uint64_t *keys = PyMem_Realloc(t->keys, (size_t)cap * sizeof *keys);
        if (keys == NULL) return -1;
        t->keys = keys, t->cap = cap;
    }
    if (t->used + MAX_SQUARES + 1 > t->squares_cap) {
        Py_ssize_t cap = 2 * (t->squares_cap + MAX_SQUARES + 1);
        uint8_t *squares = PyMem_Realloc(t->squares, (size_t)cap);
        if (squares == NULL) return -1;
        t->squares = squares, t->squares_cap = cap;
    }
    return 0;
}

/* Record the move played and the key after it, as
 * draughts.pdn.record.line_move_text writes a move: its two squares, or
 * a capture's whole route where another legal move joins the same two.
 * 0, or -1 out of memory. */
int trace_add(Trace *t, const Played *played, uint64_t key) {
    if (trace_room(t) < 0) return -1;
    const Route *route = &played->route;
    int count = route->ncaps == 0 || played->alike < 2 ? 2 : route->ncaps + 1;
    uint8_t *sq = t->squares + t->used;
    for (int k = 0; k < count; k++)
        sq[k] = count == 2 ? (k ? route->dest : route->origin) : route->path[k];
    t->used += count;
    t->written[t->moves] = (uint16_t)(count | (route->ncaps ? CAPTURE_TEXT : 0));
    t->keys[++t->moves] = key;
    return 0;
}

/* One move's text from its squares (names: each square number's name,
 * index 0 unused); NULL with an exception. */
static PyObject *move_text(const CoreObject *core, PyObject *names, PyObject *separator,
                           const uint8_t *sq, int written) {
    int count = written & ~CAPTURE_TEXT;
    PyObject *squares = PyTuple_New(count);
    if (squares == NULL) return NULL;
    for (int k = 0; k < count; k++) {
        Py_ssize_t number = core->number[sq[k]];
        if (number < 1 || number >= PyTuple_GET_SIZE(names)) {
            PyErr_SetString(PyExc_ValueError, "play_final: a square without a name");
            Py_DECREF(squares);
            return NULL;
        }
        PyTuple_SET_ITEM(squares, k, Py_NewRef(PyTuple_GET_ITEM(names, number)));
    }
    PyObject *text = written & CAPTURE_TEXT ? PyUnicode_Join(separator, squares)
                                            : PyUnicode_FromFormat("%U-%U",
                                                                   PyTuple_GET_ITEM(squares, 0),
                                                                   PyTuple_GET_ITEM(squares, 1));
    Py_DECREF(squares);
    return text;
}

/* The line recorded, (moves, keys) as draughts.pdn.record.MainLine keeps
 * it; NULL with an exception. */
PyObject *trace_line(const Trace *t, const CoreObject *core, PyObject *names,
                            PyObject *separator) {
    PyObject *moves = PyTuple_New(t->moves), *keys = PyTuple_New(t->moves + 1);
    if (moves == NULL || keys == NULL) goto fail;
    const uint8_t *sq = t->squares;
    for (Py_ssize_t k = 0; k < t->moves; k++) {
        PyObject *text = move_text(core, names, separator, sq, t->written[k]);
        if (text == NULL) goto fail;
        PyTuple_SET_ITEM(moves, k, text);
        sq += t->written[k] & ~CAPTURE_TEXT;
    }
    for (Py_ssize_t k = 0; k <= t->moves; k++) {
        PyObject *key = PyLong_FromUnsignedLongLong(t->keys[k]);
        if (key == NULL) goto fail;
        PyTuple_SET_ITEM(keys, k, key);
    }
    return Py_BuildValue("(NN)", moves, keys);
fail:
    Py_XDECREF(moves);
    Py_XDECREF(keys);
    return NULL;
}
