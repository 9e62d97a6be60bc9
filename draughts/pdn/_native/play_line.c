/* The PDN reader's loop over the moves of plain lines (see pdn_lines.c),
 * the native twin of draughts.pdn.resolver.Resolver's _play_line_python
 * and _play_lines_python, its oracles (tests/board/test_native_push.py,
 * tests/pdn/test_pdn_play_lines.py).
 *
 * play_line(board, text, end, numbers, visit): text[:end] being a line
 * before its result, each move is played while it is the only legal move
 * between its squares (numbers[n]: the square a written number n names, or
 * None) and is written with the right separator: visit(board, move), then
 * board.push(move) (visit may be a list instead: the move is appended to it,
 * with no call; the game-tree builder keeps a line's moves so, see
 * draughts.pdn.builders). Returns (moves played, where the move not played or
 * anything not plain starts, else end).
 *
 * play_lines(board, text, end, numbers, visit, readline) goes on with the
 * lines readline() gives while each line before was played to its end
 * without a result: a blank line is passed over, a plain line is played,
 * anything else stops it. Returns (moves played, the last line read (text
 * if none), where the reader goes on in it, lines read): a line read and
 * not taken is handed back whole (position 0), a line played to its end
 * at its length. Reading a game's plain lines in one call rather than one
 * call a line (and four Python frames) took read_game on the International
 * corpus from 1.13 M to 1.06 M instructions a game (callgrind).
 *
 * The board is a draughts.Board on the native core: the one move between
 * two squares and the push are the core's own (board_state.c), reached
 * through its C API (draughts/_core/native/core_api.h). */
#include "pdn_native.h"

/* The moves of a line read here that are kept as it is checked (a longer
 * line is read again, move by move). */
#define KEPT_MOVES 64

/* One move played: 1, 0 if it is not the one legal move between its
 * squares (or not written so), -1 with an exception. */
static int play_move(PyObject *board, const PlainMove *m, PyObject *numbers, PyObject *visit) {
    Py_ssize_t known = PyTuple_GET_SIZE(numbers);
    PyObject *origin = m->origin < known ? PyTuple_GET_ITEM(numbers, m->origin) : Py_None;
    PyObject *dest = m->destination < known ? PyTuple_GET_ITEM(numbers, m->destination) : Py_None;
    PyObject *move = origin == Py_None || dest == Py_None
                         ? Py_NewRef(Py_None)
                         : core_api->unique_move(board, origin, dest, m->capture);
    if (move == NULL) return -1;
    if (move == Py_None) {
        Py_DECREF(move);
        return 0;
    }
    int visited;
    if (PyList_CheckExact(visit)) {
        visited = PyList_Append(visit, move) == 0;
    } else {
        PyObject *visit_args[] = {board, move};
        PyObject *result = PyObject_Vectorcall(visit, visit_args, 2, NULL);
        visited = result != NULL;
        Py_XDECREF(result);
    }
    PyObject *pushed = visited ? core_api->push(board, move) : NULL;
    Py_DECREF(move);
    if (pushed == NULL) return -1;
    Py_DECREF(pushed);
    return 1;
}

/* The moves of t[:end] played from *pos: 0 (*pos where the loop stopped,
 * *played counted up), -1 with an exception. */
static int play_moves(PyObject *board, const Text *t, Py_ssize_t end, PyObject *numbers,
                      PyObject *visit, Py_ssize_t *pos, Py_ssize_t *played) {
    PlainMove m;
    while (next_plain_move(t, pos, end, &m) == 1) {
        int done = play_move(board, &m, numbers, visit);
        if (done < 0) return -1;
        if (done == 0) {
            *pos = m.start;
            return 0;
        }
        ++*played;
    }
    return 0;
}

/* The moves of a line plain_line_moves kept, played as play_moves would
 * play them from 0 to end (each line read here is so read once, not twice:
 * reading the International corpus took 550 against 576 thousand
 * instructions a game, callgrind). */
static int play_kept(PyObject *board, const PlainMove *moves, Py_ssize_t count, Py_ssize_t end,
                     PyObject *numbers, PyObject *visit, Py_ssize_t *pos, Py_ssize_t *played) {
    for (Py_ssize_t k = 0; k < count; k++) {
        int done = play_move(board, &moves[k], numbers, visit);
        if (done < 0) return -1;
        if (done == 0) {
            *pos = moves[k].start;
            return 0;
        }
        ++*played;
    }
    *pos = end;
    return 0;
}

/* The arguments both functions share: 0, or -1 with TypeError or ValueError. */
static int line_arguments(PyObject *const *args, Text *t, Py_ssize_t *end) {
    if (!PyObject_TypeCheck(args[0], core_api->state_type) || text_of(args[1], t) < 0 ||
        !PyLong_Check(args[2]) || !PyTuple_Check(args[3]) ||
        !(PyCallable_Check(args[4]) || PyList_CheckExact(args[4]))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "a native board, a str, an int, a tuple and a function or list expected");
        return -1;
    }
    *end = PyLong_AsSsize_t(args[2]);
    if (*end < 0 || *end > t->len) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "end %zd is outside the line", *end);
        return -1;
    }
    return 0;
}

PyObject *py_play_line(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    Text t;
    Py_ssize_t end, pos = 0, played = 0;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "play_line() takes 5 arguments");
        return NULL;
    }
    if (line_arguments(args, &t, &end) < 0 ||
        play_moves(args[0], &t, end, args[3], args[4], &pos, &played) < 0)
        return NULL;
    return Py_BuildValue("(nn)", played, pos);
}

/* Whether the line is all white space (the tokenizer finds nothing in it). */
static int blank(const Text *t) {
    for (Py_ssize_t i = 0; i < t->len; i++)
        if (!Py_UNICODE_ISSPACE(PyUnicode_READ(t->kind, t->data, i))) return 0;
    return 1;
}

PyObject *py_play_lines(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    Text t;
    Py_ssize_t end, pos = 0, played = 0, lines = 0;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "play_lines() takes 6 arguments");
        return NULL;
    }
    if (line_arguments(args, &t, &end) < 0) return NULL;
    if (!PyCallable_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "play_lines(): readline must be callable");
        return NULL;
    }
    PyObject *line = Py_NewRef(args[1]);
    PlainMove kept[KEPT_MOVES];
    Py_ssize_t count = -1; /* the moves kept of the line, -1 for the first (not read here) */
    for (;;) {
        int failed = count >= 0 && count <= KEPT_MOVES
                         ? play_kept(args[0], kept, count, end, args[3], args[4], &pos, &played)
                         : play_moves(args[0], &t, end, args[3], args[4], &pos, &played);
        if (failed < 0) goto failed;
        if (pos < t.len) break; /* a move not played, or the result */
        /* The line was played to its end: the next one, past blank lines. */
        PyObject *next;
        for (;;) {
            next = PyObject_CallNoArgs(args[5]);
            if (next == NULL) goto failed;
            if (text_of(next, &t) < 0) {
                Py_DECREF(next);
                goto failed;
            }
            if (t.len == 0) { /* the end of the file: the reader finds it again */
                Py_DECREF(next);
                text_of(line, &t);
                return Py_BuildValue("(nNnn)", played, line, t.len, lines);
            }
            lines++;
            if (!blank(&t)) break;
            Py_SETREF(line, next);
        }
        Py_SETREF(line, next);
        pos = 0;
        end = plain_line_moves(&t, kept, KEPT_MOVES, &count);
        if (end < 0) break; /* not plain: the tokenizer reads it */
    }
    return Py_BuildValue("(nNnn)", played, line, pos, lines);
failed:
    Py_DECREF(line);
    return NULL;
}
