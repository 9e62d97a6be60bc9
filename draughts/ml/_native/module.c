/* draughts.ml._native._c: draughts.ml's native module, a module of its own
 * beside draughts.ml, so that the native core (draughts._core.native) is the
 * move generator and the board state only. It holds one type, VecEnv: the
 * games of draughts.ml.VectorEnv stepped in C (ml_step.c), its Python face
 * and encode_batch's reading of boards (ml_env.c), and game records
 * replayed for draughts.ml.dataset (ml_dataset.c).
 *
 * It reaches the move generator through the core's C API, a capsule the
 * core module publishes (draughts/_core/native/core_api.h); importing this
 * module imports the core's. The pure Python in draughts.ml is the oracle
 * the tests hold it to (see draughts/ml/_native/__init__.py). */
#include "ml_step.h"

const CoreAPI *ml_core;

static int exec_module(PyObject *m) {
    const CoreAPI *api = core_api_import("draughts.ml._native._c");
    if (api == NULL) return -1;
    ml_core = api;
    if (PyType_Ready(&VecEnvType) < 0 ||
        PyModule_AddObjectRef(m, "VecEnv", (PyObject *)&VecEnvType) < 0)
        return -1;
    return 0;
}

/* Multi-phase initialisation (PEP 489), with the core's limits and for the
 * same reasons (see draughts/_core/native/module.c): a static type, and one
 * C API pointer for the process; a free-threaded interpreter turns the GIL
 * back on for it. */
static PyModuleDef_Slot slots[] = DRAUGHTS_MODULE_SLOTS(exec_module);

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_c", "draughts.ml's native games and records (C11).", 0, NULL, slots,
    NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__c(void) { return PyModuleDef_Init(&module); }
