/* Whether a side has a capture (the core's any_capture), with the first-jump
 * tests it is made of, as static inline functions: the core (movegen.c,
 * through first_jumps.h) and the engine's search
 * (draughts/engine/_native/search.c), which compiles the test in rather
 * than calling the core's through core_api, share them (the 50 positions
 * of benchmarks/native_speed.py to depth 9: 3,393 M instructions in the
 * search for 3,404 M; callgrind, the same trees). Included after
 * core.h. */
#ifndef DRAUGHTS_NATIVE_CAPTURE_TEST_H
#define DRAUGHTS_NATIVE_CAPTURE_TEST_H

#include "core.h"

/* Padded layouts: per direction d, the squares from which a man of color
 * could jump along d, the whole board at once: prey one step along d, an
 * empty square two steps along (0 where the men do not capture along d).
 * On the 8x8 and 10x10 diagonal boards each shift is a constant, two
 * instructions rather than some twenty for a shift by a variable amount of
 * either sign, which took a third of International perft's instructions
 * (perft(8) with bulk counting, counted by cachegrind: 1,021 M for 1,207 M). */
static inline __attribute__((always_inline)) void
diagonal_jump_squares(const bb_t from[NDIRS], bb_t prey, bb_t empty, int stride,
                      bb_t squares[NDIRS]) {
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        int s = diagonal_shift(stride, d);
        squares[d] = from[d] & shifted(prey, -s) & shifted(empty, -2 * s);
    }
}

static inline void jump_squares(const Rules *r, int color, bb_t prey, bb_t empty,
                                bb_t squares[NDIRS]) {
    const bb_t *from = r->man_jump_from[color];
    for (int d = 0; d < NDIRS; d++)
        squares[d] = from[d] ? from[d] & shifted(prey, -r->shift[d]) &
                                   shifted(empty, -2 * r->shift[d])
                             : 0;
}

static inline __attribute__((always_inline)) bb_t
diagonal_candidates(const bb_t from[NDIRS], bb_t men, bb_t prey, bb_t empty, int stride) {
    bb_t squares[NDIRS];
    diagonal_jump_squares(from, prey, empty, stride, squares);
    return men & (squares[0] | squares[1] | squares[2] | squares[3]);
}

/* The men that have a piece of prey next to them in some capture direction. */
static inline __attribute__((always_inline)) bb_t
jump_candidates(const Rules *r, int color, bb_t men, bb_t prey, bb_t empty) {
    bb_t candidates = 0;
    if (r->diagonal_stride == 10)
        return diagonal_candidates(r->man_jump_from[color], men, prey, empty, 10);
    if (r->diagonal_stride == 12)
        return diagonal_candidates(r->man_jump_from[color], men, prey, empty, 12);
    if (r->padded) {
        bb_t squares[NDIRS];
        jump_squares(r, color, prey, empty, squares);
        for (int d = 0; d < NDIRS; d++) candidates |= squares[d];
        return men & candidates;
    }
    /* One mask test per man leaves out those with nothing next to them,
     * before the per-direction loop, which took three quarters of perft's
     * time without it. */
    for (; men; men &= men - 1) {
        int sq = low_bit(men);
        if (prey & r->man_jump_near[color][sq]) candidates |= SQUARE_BIT(sq);
    }
    return candidates;
}

/* The first occupied square along sq's ray d, or -1. A ray's squares are
 * one straight line, so the squares beyond it are its own ray d: a king's
 * jumps are found from the piece's square alone. On the rays whose squares
 * rise or fall (all of them on the boards of the variants), a bit scan of
 * the occupied squares of the ray rather than a walk: International's
 * search to depth 9 on the 50 positions of benchmarks/native_speed.py took
 * 3,900 M instructions for 4,025 M walking (callgrind, the same trees). */
static inline int nearest_piece(const Rules *r, int sq, int d, bb_t occupied) {
    int order = r->ray_order[sq][d];
    if (order) {
        bb_t on = r->ray_mask[sq][d] & occupied;
        return !on ? -1 : order > 0 ? low_bit(on) : top_bit(on);
    }
    const uint8_t *ray = RAY(r, sq, d);
    for (int i = 0; i < r->ray_len[sq][d]; i++)
        if (occupied & SQUARE_BIT(ray[i])) return ray[i];
    return -1;
}

/* Whether a man on land could jump again: an enemy piece of prey next to it
 * in a capture direction with a square of empty behind. Most captures are
 * one jump, and this is much cheaper than the search. */
static int man_can_go_on(const Rules *r, int color, int land, bb_t prey, bb_t empty) {
    for (int k = 0; k < r->n_man_cap[color]; k++) {
        int d = r->man_cap_dirs[color][k];
        if (r->ray_len[land][d] < 2) continue;
        const uint8_t *ray = RAY(r, land, d);
        if ((prey & SQUARE_BIT(ray[0])) && (empty & SQUARE_BIT(ray[1]))) return 1;
    }
    return 0;
}

/* Whether the king on sq has a first jump. Not inlined: in gen_captures and
 * any_capture it took International's search to depth 9 on the 50
 * positions of benchmarks/native_speed.py 3,548 M instructions for 3,536 M
 * (callgrind, the same trees). */
static int __attribute__((noinline)) king_can_jump(const Rules *r, int sq, bb_t occupied,
                                                   bb_t opp) {
    for (int k = 0; k < r->n_king_cap; k++) {
        int d = r->king_cap_dirs[k];
        int over = r->flying ? nearest_piece(r, sq, d, occupied)
                             : r->ray_len[sq][d] ? RAY(r, sq, d)[0] : -1;
        if (over >= 0 && (opp & SQUARE_BIT(over)) && r->ray_len[over][d] &&
            !(occupied & SQUARE_BIT(RAY(r, over, d)[0])))
            return 1;
    }
    return 0;
}

/* Whether color has a capture: a first jump (each one begins a legal route,
 * whatever the precedence rules keep), without the search; the kings only
 * looked at when no man can jump, and up to the first that can. Off the
 * padded layouts, jump_candidates holds the men next to prey, each then
 * looked at. */
static inline int any_capture_on(const Rules *r, int color, const Side *s) {
    bb_t opp = s->opp_men | s->opp_kings;
    bb_t occupied = s->own_men | s->own_kings | opp;
    if (s->own_men) {
        bb_t prey = r->men_capture_kings ? opp : s->opp_men, empty = r->board & ~occupied;
        bb_t men = jump_candidates(r, color, s->own_men, prey, empty);
        if (men && r->padded) return 1;
        for (; men; men &= men - 1)
            if (man_can_go_on(r, color, low_bit(men), prey, empty)) return 1;
    }
    for (bb_t kings = s->own_kings; kings; kings &= kings - 1)
        if (king_can_jump(r, low_bit(kings), occupied, opp)) return 1;
    return 0;
}

#endif
