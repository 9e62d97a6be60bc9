/* Python ints <-> compact bitboards, and Python values <-> routes. */
#ifndef DRAUGHTS_NATIVE_CONVERT_H
#define DRAUGHTS_NATIVE_CONVERT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

#define MAX_PAD_WORDS 64 /* padded grids up to 4096 indices (28 x 99 is 2,772) */

typedef struct {
    PyObject_HEAD
    Rules rules;
    int ready;            /* tables loaded: 0 for a board the native core cannot hold */
    int pad_size;         /* internal indices of the padded grid */
    int16_t *pad_to_sq;   /* padded index -> compact square, -1 off the board */
    int sq_to_pad[MAX_SQUARES];
    int number[MAX_SQUARES];      /* compact square -> square number */
    int16_t sq_of_number[MAX_SQUARES + 1]; /* square number -> compact square, -1 for none */
    PyObject *pad_ints[MAX_SQUARES];    /* the padded index of each square, as an int */
    PyObject *number_ints[MAX_SQUARES]; /* the square number, as an int */
    PyObject *bit_ints[MAX_SQUARES];    /* the padded bit of each square, as an int */
    PyObject **step_moves;  /* per ray square (parallel to ray_data): the draughts.Move */
    PyObject **step_raws[2]; /* per ray square: the RawMove of the step there, [1] crowned
                                (only next to the origin, NULL further on) */
    PyObject *move_type;    /* draughts.Move */
    /* Where a Move's from_square, to_square and captures live in the
     * instance (plain __slots__ members), -1 if they are not: push reads
     * them there rather than through getattr (see board_state.c). */
    Py_ssize_t move_slots[3];
    PyTypeObject *raw_type; /* draughts._core.raw.RawMove */
    PyObject *capture_moves; /* dict: route bytes -> draughts.Move */
    Py_ssize_t captures_kept;
} CoreObject;

int to_bits(CoreObject *c, PyObject *value, bb_t *out, const char *what);
PyObject *from_bits(CoreObject *c, bb_t bits);
int to_index(CoreObject *c, PyObject *value, int *out, const char *what);
/* A Zobrist key from Python: an int of 0 to 2**64 - 1. */
int get_key(PyObject *value, uint64_t *key);
PyObject *raw_move(CoreObject *c, const Route *m);
int route_of(CoreObject *c, PyObject *raw, Route *m);
PyObject *capture_move(CoreObject *c, const Route *m);

#endif
