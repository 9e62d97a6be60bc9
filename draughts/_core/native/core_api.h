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
 * Board's push, the one move between two squares) and the core's types
 * without a copy of either: the move generator and the board state are the
 * core's alone. draughts.engine._native._c (the engine's search) reads it
 * the same way for the move generator itself. */
#ifndef DRAUGHTS_NATIVE_CORE_API_H
#define DRAUGHTS_NATIVE_CORE_API_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The engine's pointers take the core's types (convert.h, with its 128-bit
 * bitboards), which a module may not include (the PDN module does not):
 * there each is declared as a pointer to a function of no arguments,
 * which has the same size, so that the table is laid out alike for every
 * module that reads it. */
#ifdef DRAUGHTS_NATIVE_CONVERT_H
#define CORE_API_TYPED(ret, name, args) ret(*name) args
#else
#define CORE_API_TYPED(ret, name, args) void (*name)(void)
#endif

#define CORE_API_CAPSULE "draughts._core.native._native._C_API"
#define CORE_API_VERSION 2

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
    /* draughts.engine._native */
    /* The move generator (core.h) and the conversions (convert.h) the
     * engine's search reaches: the functions of the same names. */
    CORE_API_TYPED(void, routes_init, (RouteList * list));
    CORE_API_TYPED(void, routes_free, (RouteList * list));
    CORE_API_TYPED(long, gen_captures,
                   (const Rules *r, int color, const Side *s, int keep_duplicates, RouteList *out));
    CORE_API_TYPED(long, gen_steps,
                   (const Rules *r, int color, const Side *s, bb_t frozen, RouteList *out));
    CORE_API_TYPED(int, any_step, (const Rules *r, int color, const Side *s));
    CORE_API_TYPED(void, play,
                   (const Rules *r, const Route *m, int color, bb_t bb[4], uint64_t *key));
    CORE_API_TYPED(int, to_bits, (CoreObject * c, PyObject *value, bb_t *out, const char *what));
    CORE_API_TYPED(int, get_key, (PyObject * value, uint64_t *key));
    CORE_API_TYPED(PyObject *, raw_move, (CoreObject * c, const Route *m));
    /* end draughts.engine._native */
} CoreAPI;

#endif
