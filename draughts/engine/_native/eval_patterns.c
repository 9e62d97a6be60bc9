/* The learned patterns (eval_patterns.h): their sum, and their loading from
 * the Python Patterns.data() (windows as padded indices, weights as int32
 * bytes), checked before C reads them. */
#include "eval_patterns_load.h"

#include <string.h>

/* Add `times` (1 a white man, 2 a black one; negative: taken away) of each
 * square of b's digits to the numbers of the windows holding it. */
static void add_men(const Patterns *p, bb_t b, int times, uint16_t *number) {
    for (; b; b &= b - 1) {
        int sq = low_bit(b);
        for (int i = 0; i < p->nmembers[sq]; i++)
            number[p->members[sq][i].window] =
                (uint16_t)(number[p->members[sq][i].window] + times * p->members[sq][i].power);
    }
}

void patterns_number(const Patterns *p, bb_t white_men, bb_t black_men, uint16_t *number) {
    memset(number, 0, (size_t)p->nwindows * sizeof *number);
    add_men(p, white_men, 1, number);
    add_men(p, black_men & ~white_men, 2, number);
}

/* A move changes the men of two or three squares and those it captures:
 * a handful of digits where numbering afresh adds up to 40 men's. */
void patterns_update(const Patterns *p, const bb_t before[2], const bb_t after[2],
                     uint16_t *number) {
    for (int color = 0; color < 2; color++) {
        add_men(p, before[color] & ~after[color], -(color + 1), number);
        add_men(p, after[color] & ~before[color], color + 1, number);
    }
}

long long patterns_sum(const Patterns *p, const uint16_t *number) {
    long long total = 0;
    for (int w = 0; w < p->nwindows; w++)
        total += p->weights[w * PATTERN_CONFIGURATIONS + number[w]];
    return total;
}

/* One window's squares: PATTERN_DIGITS padded indices of playing squares. */
static int load_window(CoreObject *c, Patterns *p, PyObject *window, int w) {
    PyObject *squares = PySequence_Fast(window, "patterns: a window must be a sequence");
    if (squares == NULL) return -1;
    int failed = PySequence_Fast_GET_SIZE(squares) != PATTERN_DIGITS;
    if (failed) PyErr_SetString(PyExc_ValueError, "patterns: a window has 6 squares");
    for (int k = 0, power = 1; !failed && k < PATTERN_DIGITS; k++, power *= 3) {
        long index = PyLong_AsLong(PySequence_Fast_GET_ITEM(squares, k));
        int sq = PyErr_Occurred() || index < 0 || index >= c->pad_size ? -1 : c->pad_to_sq[index];
        if (sq < 0 || p->nmembers[sq] >= PATTERN_MAX_MEMBERS) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "patterns: window %d: bad square %ld", w, index);
            failed = 1;
            break;
        }
        p->members[sq][p->nmembers[sq]++] = (PatternMember){(uint8_t)w, (uint16_t)power};
    }
    Py_DECREF(squares);
    return failed ? -1 : 0;
}

int patterns_load(CoreObject *c, PyObject *data, Patterns *p) {
    memset(p, 0, sizeof *p);
    if (data == Py_None) return 0;
    PyObject *windows, *weights;
    if (!PyTuple_Check(data) || !PyArg_ParseTuple(data, "OO!", &windows, &PyBytes_Type, &weights)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "patterns: None or (windows, weights bytes) expected");
        return -1;
    }
    Py_ssize_t n = PySequence_Size(windows);
    if (n < 1 || n > PATTERN_MAX_WINDOWS ||
        PyBytes_GET_SIZE(weights) != n * PATTERN_CONFIGURATIONS * (Py_ssize_t)sizeof(int32_t)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "patterns: 1 to 64 windows of 729 int32 weights");
        return -1;
    }
    for (int w = 0; w < n; w++) {
        PyObject *window = PySequence_GetItem(windows, w);
        int failed = window == NULL || load_window(c, p, window, w) < 0;
        Py_XDECREF(window);
        if (failed) return -1;
    }
    p->weights = PyMem_RawMalloc((size_t)PyBytes_GET_SIZE(weights));
    if (p->weights == NULL) return PyErr_NoMemory(), -1;
    memcpy(p->weights, PyBytes_AS_STRING(weights), (size_t)PyBytes_GET_SIZE(weights));
    p->nwindows = (int)n;
    return 0;
}

void patterns_free(Patterns *p) {
    PyMem_RawFree(p->weights);
    p->weights = NULL;
    p->nwindows = 0;
}
