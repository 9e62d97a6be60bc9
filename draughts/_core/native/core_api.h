/* What the native core offers other extension modules of the package: a
 * table of pointers, published as the PyCapsule `_C_API` of
 * draughts._core.native._native (the way the CPython documentation gives
 * for one extension to call another's C API, "Providing a C API for an
 * Extension Module"). draughts.pdn's native module reads it at import:
 *
 *     const CoreAPI *core = PyCapsule_Import(CORE_API_CAPSULE, 0);
 *
 * and refuses to load when its version is not CORE_API_VERSION (the two
 * modules are built together from one tree, so it always is unless a
 * stale build is mixed in).
 *
 * Through it, the PDN reader's native code reaches the board state (a
 * Board's push, the one move between two squares), the move generator (the
 * PDN checks replay games on bitboards) and the core's types without a copy
 * of any: the move generator and the board state are the core's alone.
 * draughts.engine._native._c (the engine's search) and draughts.ml._native._c
 * (VectorEnv, datasets) read it the same way for the move generator itself. */
#ifndef DRAUGHTS_NATIVE_CORE_API_H
#define DRAUGHTS_NATIVE_CORE_API_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "convert.h" /* CoreObject, and core.h's Rules, Route, RouteList, Side */

#define CORE_API_CAPSULE "draughts._core.native._native._C_API"
#define CORE_API_VERSION 3

typedef struct {
    int version; /* CORE_API_VERSION */
    /* The C base of draughts._core.native.Tables (a CoreObject, convert.h). */
    PyTypeObject *core_type;
    /* draughts._core.native.BoardState, the base of draughts.Board. */
    PyTypeObject *state_type;
    /* Board._unique_move_python for a BoardState: the legal move between
     * two square numbers when it is the only one and is a capture exactly
     * when `capture` is true, else None (a new reference; NULL with an
     * exception). The board does not change. */
    PyObject *(*unique_move)(PyObject *state, PyObject *origin, PyObject *destination,
                             int capture);
    /* BoardState.push(move): None, or NULL with an exception. */
    PyObject *(*push)(PyObject *state, PyObject *move);

    /* The move generator on a CoreObject's Rules (core.h) and the
     * conversions (convert.h), for the modules that play games on bitboards:
     * the PDN checks, the engine's search, VectorEnv. Each is the function of
     * the same name. A RouteList filled here is freed with routes_free (the
     * core's allocator). */
    void (*routes_init)(RouteList *list);
    void (*routes_free)(RouteList *list);
    long (*gen_captures)(const Rules *r, int color, const Side *s, int keep_duplicates,
                         RouteList *out);
    long (*gen_steps)(const Rules *r, int color, const Side *s, bb_t frozen, RouteList *out);
    int (*is_step)(const Rules *r, int color, const Side *s, int origin, int dest, bb_t frozen,
                   Route *step);
    int (*any_step)(const Rules *r, int color, const Side *s);
    int (*any_capture)(const Rules *r, int color, const Side *s);
    void (*play)(const Rules *r, const Route *m, int color, bb_t bb[4], uint64_t *key);
    uint64_t (*position_key)(const Rules *r, int color, const bb_t bb[4]);
    int (*to_bits)(CoreObject *c, PyObject *value, bb_t *out, const char *what);
    PyObject *(*from_bits)(CoreObject *c, bb_t bits);
    int (*get_key)(PyObject *value, uint64_t *key);
    PyObject *(*raw_move)(CoreObject *c, const Route *m);
} CoreAPI;

/* The table, for another module's Py_mod_exec slot: NULL with an exception
 * when the core cannot be imported or was built from another version of
 * this header (`module` names the caller in the message). */
static inline const CoreAPI *core_api_import(const char *module) {
    const CoreAPI *api = PyCapsule_Import(CORE_API_CAPSULE, 0);
    if (api != NULL && api->version != CORE_API_VERSION) {
        PyErr_Format(PyExc_ImportError,
                     "%s was built for version %d of the native core's C API, and the core "
                     "offers version %d: rebuild the package",
                     module, CORE_API_VERSION, api->version);
        return NULL;
    }
    return api;
}

/* The module slots (PEP 489 multi-phase initialisation) that every native
 * module of the package has after its Py_mod_exec, for the reasons given
 * in draughts/_core/native/module.c: static types and one C API pointer a
 * process, so no second interpreter; a free-threaded interpreter turns the
 * GIL back on for them. */
#if PY_VERSION_HEX >= 0x030C0000
#define DRAUGHTS_SLOT_INTERPRETERS                                                            \
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#else
#define DRAUGHTS_SLOT_INTERPRETERS
#endif
#if PY_VERSION_HEX >= 0x030D0000
#define DRAUGHTS_SLOT_GIL {Py_mod_gil, Py_MOD_GIL_USED},
#else
#define DRAUGHTS_SLOT_GIL
#endif
#define DRAUGHTS_MODULE_SLOTS(exec)                                                           \
    {{Py_mod_exec, (void *)(exec)}, DRAUGHTS_SLOT_INTERPRETERS DRAUGHTS_SLOT_GIL{0, NULL}}

#endif
