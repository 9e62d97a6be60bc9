/* The moves of a replay kept for its main line (pdn_trace.c), for the PDN
 * checks of pdn_check.c. */
#ifndef DRAUGHTS_PDN_TRACE_H
#define DRAUGHTS_PDN_TRACE_H

#include "pdn_native.h"

/* A move played, for a line being recorded: its route, and how many
 * legal moves join its two squares (more than one: the line writes its
 * whole route, as draughts.pdn.record.line_move_text does). */
typedef struct {
    Route route;
    size_t alike;
} Played;

/* The moves of a replay, kept in C while it runs (inference replays
 * several variants, most of which stop at an error): the squares each
 * move's text writes, and the position key at the start and after each
 * move. A replay that is kept has its line written out (trace_line). */
typedef struct {
    uint8_t *squares;  /* each move's written squares, one move after the other */
    uint16_t *written; /* each move's count of squares, CAPTURE_TEXT added for a capture */
    uint64_t *keys;    /* the start's key, then one a move */
    Py_ssize_t moves, used, cap, squares_cap;
} Trace;

/* Room for one more move: 0, or -1 out of memory. */
int trace_room(Trace *t);
/* Record a move played and the key after it: 0, or -1 out of memory. */
int trace_add(Trace *t, const Played *played, uint64_t key);
void trace_free(Trace *t);
/* The line recorded, (moves, keys) as draughts.pdn.record.MainLine keeps
 * it, each move written with `names` (each square number's name, index 0
 * unused) and `separator` (a capture's); NULL with an exception. */
PyObject *trace_line(const Trace *t, const CoreObject *core, PyObject *names,
                     PyObject *separator);

#endif
