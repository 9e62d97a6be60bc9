/* Loading the learned patterns from Python (eval_patterns.c). */
#ifndef DRAUGHTS_NATIVE_EVAL_PATTERNS_LOAD_H
#define DRAUGHTS_NATIVE_EVAL_PATTERNS_LOAD_H

#include "convert.h"
#include "eval_patterns.h"

/* From Patterns.data() or None (no patterns); 0, or -1 with an exception. */
int patterns_load(CoreObject *c, PyObject *data, Patterns *p);
void patterns_free(Patterns *p);

#endif
