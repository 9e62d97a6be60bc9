/* draughts.engine._native._c: the built-in engine's search in C, a module of
 * its own beside draughts.engine, so that the core (draughts._core.native)
 * is the move generator and the board state only.
 *
 * It reaches the move generator through the core's C API, a capsule the
 * core module publishes (draughts/_core/native/core_api.h); importing this
 * module imports the core's. The search is the twin of the Python Searcher
 * (draughts/engine/search.py), its oracle in the tests, node for node. */
#include "search.h"

const CoreAPI *core_api;

extern PyTypeObject SearchType; /* search_module.c */

static int exec_module(PyObject *m) {
    const CoreAPI *api = core_api_import("draughts.engine._native._c");
    if (api == NULL) return -1;
    core_api = api;
#ifdef HAVE_THREADS
    int threads = MAX_HELPERS + 1;
#else
    int threads = 1;
#endif
    if (PyType_Ready(&SearchType) < 0 ||
        PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0 ||
        /* The most threads a search runs on (search_smp.c). */
        PyModule_AddIntConstant(m, "MAX_THREADS", threads) < 0)
        return -1;
    return 0;
}

/* Multi-phase initialisation (PEP 489), with the core's limits and for the
 * same reasons (see draughts/_core/native/module.c): a static type, and one
 * C API pointer for the process; a free-threaded interpreter turns the GIL
 * back on for it. */
static PyModuleDef_Slot slots[] = DRAUGHTS_MODULE_SLOTS(exec_module);

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_c", "The built-in engine's search (C11).", 0, NULL, slots,
    NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__c(void) { return PyModuleDef_Init(&module); }
