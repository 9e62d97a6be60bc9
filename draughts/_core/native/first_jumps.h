/* The men's first jumps on whole bitboards, for movegen.c alone (static
 * functions, so that they inline there, in the capture test, the capture
 * search's entry and perft): per direction the squares from which a man
 * could jump, the men that can, the landing squares from which they go on,
 * and the single jumps counted from them (movegen.c lists them). */
#ifndef DRAUGHTS_FIRST_JUMPS_H
#define DRAUGHTS_FIRST_JUMPS_H

#include "core.h"
#include "capture_test.h"

static int single_jump(RouteList *out, int origin, int over, int land, int crowned) {
    Route *m = new_route(out);
    if (m == NULL) return 0;
    m->captured = SQUARE_BIT(over);
    m->origin = (uint8_t)origin;
    m->dest = (uint8_t)land;
    m->crowned = (uint8_t)crowned;
    m->ncaps = 1;
    m->caps[0] = (uint8_t)over;
    m->path[0] = (uint8_t)origin;
    m->path[1] = (uint8_t)land;
    return 1;
}

/* The directions first_jumps sets: on the diagonal boards whose stride
 * is compiled in, the men capture along the four diagonals only. */
static inline int jump_dirs(const Rules *r) { return r->diagonal_stride ? 4 : NDIRS; }

/* Padded layouts: per direction, the squares from which a man could jump
 * (diagonal_jump_squares, jump_squares), set for the directions the men
 * capture in (jump_dirs: on the 8x8 and 10x10 diagonal boards, the first
 * four only). */
static inline __attribute__((always_inline)) void
padded_jump_squares(const Rules *r, int color, bb_t prey, bb_t empty, bb_t squares[NDIRS]) {
    switch (r->diagonal_stride) {
    case 10:
        diagonal_jump_squares(r->man_jump_from[color], prey, empty, 10, squares);
        return;
    case 12:
        diagonal_jump_squares(r->man_jump_from[color], prey, empty, 12, squares);
        return;
    }
    jump_squares(r, color, prey, empty, squares);
}

/* Padded layouts: the first jumps of the men, the whole board at once:
 * jumps[d], the men that can jump along d, and more[d], their landing
 * squares from which they go on: they could jump again in some direction,
 * or they crown and go on as kings. Each landing square is looked up in
 * the jump squares of every direction (any: their union) rather than
 * searched (International perft(8), bulk counting: 915 M instructions,
 * for 940 M with the jumps from each landing square worked out anew and
 * 1,021 M with a ray look-up per man and direction). The reverse of d
 * needs no leaving out: its jump squares never hold the landing square,
 * since a jump back from there would land on the square the man left,
 * which those squares count as occupied (the search to depth 9 on the 50
 * positions of benchmarks/native_speed.py took 3,619 M instructions with
 * it left out, 3,586 M without; callgrind, the same trees). */
static inline __attribute__((always_inline)) void
diagonal_jumps_of(const bb_t squares[NDIRS], bb_t men, bb_t onward, int stride, bb_t jumps[NDIRS],
                  bb_t more[NDIRS]) {
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        jumps[d] = men & squares[d];
        more[d] = shifted(jumps[d], 2 * diagonal_shift(stride, d)) & onward;
    }
}

/* The men's first jumps (jumps, more) from padded_jump_squares' squares
 * and their union any. */
static inline __attribute__((always_inline)) void
jumps_of(const Rules *r, int color, bb_t men, const bb_t squares[NDIRS], bb_t any,
         bb_t jumps[NDIRS], bb_t more[NDIRS]) {
    bb_t onward = any | (r->crown_continue ? r->promotion[color] : 0);
    switch (r->diagonal_stride) {
    case 10:
        diagonal_jumps_of(squares, men, onward, 10, jumps, more);
        return;
    case 12:
        diagonal_jumps_of(squares, men, onward, 12, jumps, more);
        return;
    }
    for (int d = 0; d < NDIRS; d++) {
        jumps[d] = men & squares[d];
        more[d] = jumps[d] ? shifted(jumps[d], 2 * r->shift[d]) & onward : 0;
    }
}

/* The union of per-direction sets over the directions first_jumps sets. */
static inline __attribute__((always_inline)) bb_t jump_union(const Rules *r,
                                                             const bb_t sets[NDIRS]) {
    bb_t any = 0;
    for (int d = 0; d < jump_dirs(r); d++) any |= sets[d];
    return any;
}

static inline __attribute__((always_inline)) void
first_jumps(const Rules *r, int color, bb_t men, bb_t prey, bb_t empty, bb_t jumps[NDIRS],
            bb_t more[NDIRS]) {
    bb_t squares[NDIRS];
    padded_jump_squares(r, color, prey, empty, squares);
    jumps_of(r, color, men, squares, jump_union(r, squares), jumps, more);
}

/* Whether every capture is one of the men's first jumps (none goes on)
 * and the rules cannot prefer one single jump to another, so that none is
 * dropped: gen_captures then lists them (single_jumps, in movegen.c) and
 * perft counts or plays them from first_jumps' bitboards, without the
 * search. */
static inline int single_jumps_only(const Rules *r, const bb_t more[NDIRS]) {
    if (r->n_rules && !r->majority_only) return 0;
    return !jump_union(r, more);
}

/* How many jumps first_jumps found. */
static inline __attribute__((always_inline)) uint64_t count_jumps(const Rules *r,
                                                                 const bb_t jumps[NDIRS]) {
    uint64_t count = 0;
    for (int d = 0; d < jump_dirs(r); d++) count += (uint64_t)popcount(jumps[d]);
    return count;
}

#endif
