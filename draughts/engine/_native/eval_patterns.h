/* The learned patterns of draughts/engine/patterns.py in C: per window of
 * the board, the configuration of its men indexed into a table of weights.
 * The windows and weights come from the Python Patterns (loaded by
 * patterns_load, eval_patterns.c); C only sums them. */
#ifndef DRAUGHTS_NATIVE_EVAL_PATTERNS_H
#define DRAUGHTS_NATIVE_EVAL_PATTERNS_H

#include "core.h"

#define PATTERN_DIGITS 6            /* playing squares per window: patterns.DIGITS */
#define PATTERN_CONFIGURATIONS 729  /* 3 ** PATTERN_DIGITS */
#define PATTERN_MAX_WINDOWS 64      /* 12x12 has 50 */
#define PATTERN_MAX_MEMBERS 8       /* windows per square: 6 on any board */

typedef struct {
    uint8_t window;
    uint16_t power; /* 3 ** digit: a white man adds it, a black man twice it */
} PatternMember;

typedef struct {
    int nwindows;     /* 0: no patterns */
    int32_t *weights; /* nwindows rows of PATTERN_CONFIGURATIONS (PyMem_Raw) */
    uint8_t nmembers[MAX_SQUARES];
    PatternMember members[MAX_SQUARES][PATTERN_MAX_MEMBERS];
} Patterns;

/* Patterns.white: the sum of the windows' weights, White's point of view. */
long long patterns_white(const Patterns *p, bb_t white_men, bb_t black_men);

#endif
