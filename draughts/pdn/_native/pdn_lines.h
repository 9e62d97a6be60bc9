/* The commonest lines of PDN text, read in C for the PDN reader: plain
 * lines of movetext ("1. 32-28 19-23 2. 28x19 14x23") and lines of one tag
 * pair ('[Event "Open"]'); see pdn_lines.c. */
#ifndef DRAUGHTS_NATIVE_PLAIN_LINE_H
#define DRAUGHTS_NATIVE_PLAIN_LINE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* A str's characters, read by index whatever its width. */
typedef struct {
    PyObject *object; /* the str (borrowed) */
    int kind;
    const void *data;
    Py_ssize_t len;
} Text;

/* A plain move as read: its two square numbers (1-99), whether it is
 * written as a capture ("x"), and where it starts and ends. */
typedef struct {
    int origin, destination, capture;
    Py_ssize_t start, end;
} PlainMove;

/* text as a Text; -1 with TypeError if it is not a str. */
int text_of(PyObject *text, Text *out);

/* Where the result at the end of a plain line starts (the line's length
 * when it has none), or -1 when the line is not plain. */
Py_ssize_t plain_line_end(const Text *t);

/* plain_line_end, keeping the line's moves as it reads them: the first cap
 * in moves[], how many there are in *count (more than cap: the rest not
 * kept). The moves are those next_plain_move gives from 0 to the end. */
Py_ssize_t plain_line_moves(const Text *t, PlainMove *moves, Py_ssize_t cap, Py_ssize_t *count);

/* The next plain move at or after *pos and before end, skipping spaces and
 * move numbers: 1 and *move filled in, *pos set past it; 0 at end (*pos is
 * end); -1 at anything else (*pos is where that starts). */
int next_plain_move(const Text *t, Py_ssize_t *pos, Py_ssize_t end, PlainMove *move);

/* A line holding one tag pair and nothing else: 1 with *name and *value
 * new references and *start where its "[" is, 0 if the line is not one (or
 * its value has an escape), -1 with an exception. */
int tag_line(const Text *t, PyObject **name, PyObject **value, Py_ssize_t *start);

#endif
