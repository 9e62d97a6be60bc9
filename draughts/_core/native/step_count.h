/* How many steps a side has (gen_steps's steps, counted without making
 * them), as static inline functions: perft's bulk counting (movegen.c) and
 * the engine's search (draughts/engine/_native/search_staged.h, whether a
 * quiet node has two steps or more) share them, as capture_test.h shares
 * the capture test. Included after core.h. */
#ifndef DRAUGHTS_NATIVE_STEP_COUNT_H
#define DRAUGHTS_NATIVE_STEP_COUNT_H

#include "core.h"

/* The men's steps on a diagonal board of a stride known when it is compiled. */
static inline __attribute__((always_inline)) uint64_t
diagonal_step_count(const bb_t from[NDIRS], bb_t men, bb_t empty, int stride) {
    uint64_t count = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        bb_t steps = men & from[d] & shifted(empty, -diagonal_shift(stride, d));
        if (from[d]) count += (uint64_t)popcount(steps);
    }
    return count;
}

/* How many steps gen_steps would make, without making them: all of them
 * with limit 0 (perft), else counted until there are limit or more (the
 * search asks whether there are two). Inlined with limit a constant, so
 * that perft's count has no test for it. */
static inline __attribute__((always_inline)) uint64_t
count_steps(const Rules *r, int color, const Side *s, uint64_t limit) {
    bb_t occupied = s->own_men | s->own_kings | s->opp_men | s->opp_kings;
    bb_t empty = r->board & ~occupied;
    uint64_t count = 0;
    if (r->padded && r->diagonal_stride == 10) {
        count = diagonal_step_count(r->man_step_from[color], s->own_men, empty, 10);
    } else if (r->padded && r->diagonal_stride == 12) {
        count = diagonal_step_count(r->man_step_from[color], s->own_men, empty, 12);
    } else if (r->padded) {
        for (int k = 0; k < r->n_man_move[color]; k++) {
            int d = r->man_move_dirs[color][k];
            count += (uint64_t)popcount(s->own_men & r->step_from[d] &
                                        shifted(empty, -r->shift[d]));
        }
    }
    for (bb_t men = r->padded ? 0 : s->own_men; men;) {
        int sq = pop_top(&men);
        count += (uint64_t)popcount(empty & r->man_step_near[color][sq]);
    }
    if (limit && count >= limit) return count;
    for (bb_t kings = s->own_kings; kings;) {
        int sq = pop_top(&kings);
        for (int k = 0; k < r->n_king_move; k++) {
            int d = r->king_move_dirs[k], n = r->ray_len[sq][d], i = 0;
            const uint8_t *ray = RAY(r, sq, d);
            while (i < n && !(occupied & SQUARE_BIT(ray[i])) && (r->flying || i == 0)) i++;
            count += (uint64_t)i;
            if (limit && count >= limit) return count;
        }
    }
    return count;
}

#endif
