/* play_line(board, text, end, numbers, visit): the PDN reader's loop over
 * the moves of a plain line (see pdn_lines.c), text[:end] being the line
 * before its result. Each move is played while it is the only legal move
 * between its squares (numbers[n]: the square a written number n names, or
 * None) and is written with the right separator: visit(board, move), then
 * board.push(move). Returns (moves played, where the move not played or
 * anything not plain starts, else end);
 * draughts.pdn.resolver.Resolver._play_line_python is the same loop in
 * Python, and its oracle (tests/pdn/test_pdn_play_line.py).
 *
 * The board is a draughts.Board on the native core: the one move between
 * two squares and the push are the core's own (board_state.c), reached
 * through its C API (draughts/_core/native/core_api.h). */
#include "pdn_native.h"

PyObject *py_play_line(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    Text t;
    if (nargs != 5 || !PyObject_TypeCheck(args[0], core_api->state_type) ||
        text_of(args[1], &t) < 0 || !PyLong_Check(args[2]) || !PyTuple_Check(args[3]) ||
        !PyCallable_Check(args[4])) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "play_line() takes a native board, a str, an int, a tuple and a function");
        return NULL;
    }
    PyObject *board = args[0], *numbers = args[3], *visit = args[4];
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end < 0 || end > t.len) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "play_line(): end %zd is outside the line", end);
        return NULL;
    }
    Py_ssize_t pos = 0, played = 0, known = PyTuple_GET_SIZE(numbers);
    PlainMove m;
    while (next_plain_move(&t, &pos, end, &m) == 1) {
        PyObject *origin = m.origin < known ? PyTuple_GET_ITEM(numbers, m.origin) : Py_None;
        PyObject *dest = m.destination < known ? PyTuple_GET_ITEM(numbers, m.destination) : Py_None;
        PyObject *move = origin == Py_None || dest == Py_None
                             ? Py_NewRef(Py_None)
                             : core_api->unique_move(board, origin, dest, m.capture);
        if (move == NULL) return NULL;
        if (move == Py_None) {
            Py_DECREF(move);
            pos = m.start;
            break;
        }
        PyObject *visit_args[] = {board, move};
        PyObject *visited = PyObject_Vectorcall(visit, visit_args, 2, NULL);
        PyObject *pushed = visited ? core_api->push(board, move) : NULL;
        Py_DECREF(move);
        Py_XDECREF(visited);
        if (pushed == NULL) return NULL;
        Py_DECREF(pushed);
        played++;
    }
    return Py_BuildValue("(nn)", played, pos);
}
