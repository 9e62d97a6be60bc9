/* draughts.pdn._native._c: the PDN reader's native hot spots, a module of
 * its own beside draughts.pdn, so that the core (draughts._core.native) is
 * the move generator and the board state only.
 *
 * It reaches the board state through the core's C API, a capsule the core
 * module publishes (draughts/_core/native/core_api.h); importing this
 * module imports the core's. Each function is the native twin of a pure
 * one in draughts.pdn, its oracle in the tests (see
 * draughts/pdn/_native/__init__.py). */
#include "pdn_native.h"

const CoreAPI *core_api;

extern PyTypeObject MakerType;
int node_maker_init(void); /* node_maker.c */
PyObject *py_split_games(PyObject *unused, PyObject *const *args, Py_ssize_t nargs); /* pdn_split.c */
PyObject *py_count_controls(PyObject *unused, PyObject *data);                        /* pdn_split.c */
PyObject *py_play_line(PyObject *unused, PyObject *const *args, Py_ssize_t nargs);   /* play_line.c */
PyObject *py_play_lines(PyObject *unused, PyObject *const *args, Py_ssize_t nargs);  /* play_line.c */
/* pdn_check.c */
PyObject *py_check_each(PyObject *unused, PyObject *const *args, Py_ssize_t nargs);
PyObject *py_infer_each(PyObject *unused, PyObject *const *args, Py_ssize_t nargs);
PyObject *py_play_final(PyObject *unused, PyObject *const *args, Py_ssize_t nargs);
PyObject *py_record_tags(PyObject *unused, PyObject *text); /* pdn_tags.c */

/* plain_line_end(text): see pdn_lines.c. */
static PyObject *py_plain_line_end(PyObject *unused, PyObject *text) {
    (void)unused;
    Text t;
    if (text_of(text, &t) < 0) return NULL;
    return PyLong_FromSsize_t(plain_line_end(&t));
}

/* tag_line(text): see pdn_lines.c. */
static PyObject *py_tag_line(PyObject *unused, PyObject *text) {
    (void)unused;
    Text t;
    PyObject *name, *value;
    Py_ssize_t start;
    if (text_of(text, &t) < 0) return NULL;
    int found = tag_line(&t, &name, &value, &start);
    if (found < 0) return NULL;
    if (found == 0) Py_RETURN_NONE;
    return Py_BuildValue("(NNn)", name, value, start);
}

/* Each docstring starts with the function's text signature, which
 * inspect.signature reads and the tests compare with the contract
 * (draughts.pdn._native.NativePdn). */
static PyMethodDef functions[] = {
    {"plain_line_end", (PyCFunction)py_plain_line_end, METH_O,
     "plain_line_end($module, text, /)\n--\n\n"
     "Where the result of a plain PDN line starts (its length if none), or -1 if not plain."},
    {"tag_line", (PyCFunction)py_tag_line, METH_O,
     "tag_line($module, text, /)\n--\n\n"
     "(name, value, where its [ is) of a line of one tag pair, else None."},
    {"split_games", (PyCFunction)(void (*)(void))py_split_games, METH_FASTCALL,
     "split_games($module, data, pos, line, column, skip, final, base, /)\n--\n\n"
     "The game starts of PDN bytes (see draughts.pdn.offsets)."},
    {"count_controls", (PyCFunction)py_count_controls, METH_O,
     "count_controls($module, data, /)\n--\n\n"
     "How many bytes of data are controls a text file has few of (see draughts.pdn._text)."},
    {"play_line", (PyCFunction)(void (*)(void))py_play_line, METH_FASTCALL,
     "play_line($module, board, text, end, numbers, visit, /)\n--\n\n"
     "Play the moves of a plain PDN line while each is the only one between its squares."},
    {"play_lines", (PyCFunction)(void (*)(void))py_play_lines, METH_FASTCALL,
     "play_lines($module, board, text, end, numbers, visit, readline, /)\n--\n\n"
     "play_line, then the plain lines readline() gives while each is played to its end."},
    {"check_each", (PyCFunction)(void (*)(void))py_check_each, METH_FASTCALL,
     "check_each($module, setups, text, start, limit, /)\n--\n\n"
     "A game's movetext played on bitboards from each setup (see draughts.pdn._fastcheck)."},
    {"infer_each", (PyCFunction)(void (*)(void))py_infer_each, METH_FASTCALL,
     "infer_each($module, text, start, starters, final, /)\n--\n\n"
     "A movetext's evidence and its candidates' replays (see draughts.pdn._fastgame)."},
    {"play_final", (PyCFunction)(void (*)(void))py_play_final, METH_FASTCALL,
     "play_final($module, setup, text, start, names, separator, /)\n--\n\n"
     "A game's movetext played on bitboards, with the position it ends in."},
    {"record_tags", (PyCFunction)py_record_tags, METH_O,
     "record_tags($module, text, /)\n--\n\n"
     "The plain tag pairs a game record starts with (see draughts.pdn._fastgame)."},
    {NULL, NULL, 0, NULL},
};

static int exec_module(PyObject *m) {
    const CoreAPI *api = core_api_import("draughts.pdn._native._c");
    if (api == NULL) return -1;
    core_api = api;
    if (node_maker_init() < 0 ||
        PyModule_AddObjectRef(m, "NodeMaker", (PyObject *)&MakerType) < 0)
        return -1;
    return 0;
}

/* Multi-phase initialisation (PEP 489), with the core's limits and for the
 * same reasons (see draughts/_core/native/module.c): static types, and one
 * C API pointer for the process; a free-threaded interpreter turns the GIL
 * back on for it. */
static PyModuleDef_Slot slots[] = DRAUGHTS_MODULE_SLOTS(exec_module);

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_c", "The PDN reader's native hot spots (C11).", 0, functions, slots,
    NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__c(void) { return PyModuleDef_Init(&module); }
