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

/* The windows' configurations are numbered once for the search's root
 * (patterns_number) and then kept up to date move by move from the squares
 * whose men changed (patterns_update), so that an evaluation only sums the
 * windows' weights (patterns_sum). Summed from scratch at every evaluation,
 * the patterns took 17 % of the search's time and made it 27 % slower; kept
 * so, see the figure in eval_patterns.c. */

/* Each window's configuration number (Patterns.configurations). A square in
 * both masks counts as White's (as Patterns.white reads it), so that every
 * number stays below PATTERN_CONFIGURATIONS. */
void patterns_number(const Patterns *p, bb_t white_men, bb_t black_men, uint16_t *number);
/* number, the configurations of a position whose men were before[0]
 * (White's) and before[1] (Black's), made those of the men after[0] and
 * after[1] (men that do not share a square). */
void patterns_update(const Patterns *p, const bb_t before[2], const bb_t after[2],
                     uint16_t *number);
/* Patterns.white: the sum of the windows' weights, White's point of view. */
long long patterns_sum(const Patterns *p, const uint16_t *number);

#endif
