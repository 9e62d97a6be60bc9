/* The built-in engine's static evaluation in C (no Python):
 * Evaluator.side, Evaluator.score and Searcher._static of
 * draughts/engine/evaluation.py and search.py, for search.c, which calls it
 * at the quiet leaves. Kept apart from the search for the length of each;
 * the same header (search.h: Python.h first, then the core's types). */
#include "search.h"

/* Python's floor division, for a positive divisor. */
static inline long long floor_div(long long a, long long b) {
    long long q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* -- The evaluation (Evaluator.side, Evaluator.score, Searcher._static) ------ */

/* The men's step shifts of color: with stride (Evaluation.men_stride,
 * a constant where the evaluation is compiled for it: see
 * search_static_white), stride + 1 and stride - 1, up for White and down
 * for Black; their order does not count, since every caller takes them all
 * (unions, an intersection, whether any). */
ENGINE_INLINE int men_shifts(const Evaluation *e, int stride, int color) {
    return stride ? 2 : e->nshifts[color];
}

ENGINE_INLINE bb_t moved(const Evaluation *e, const Rules *r, int stride, int color, int i,
                         bb_t b) {
    if (stride) {
        int shift = i ? stride - 1 : stride + 1;
        return color == 0 ? b << shift : b >> shift;
    }
    if (r->padded) {
        int shift = e->shifts[color][i];
        return shift >= 0 ? b << shift : b >> -shift;
    }
    bb_t out = 0;
    for (; b; b &= b - 1) {
        int to = e->shift_to[color][i][low_bit(b)];
        if (to >= 0) out |= BIT(to);
    }
    return out;
}

/* The empty squares of a flying king's ray before its nearest piece: with
 * the core's ray masks (derive_masks), one bit count rather than a walk.
 * 3,851 M instructions to depth 9 (benchmarks/native_speed.py) for 3,883 M
 * walking (callgrind, the same trees). */
ENGINE_INLINE int flying_reach(const Rules *r, int sq, int d, bb_t empty) {
    int order = r->ray_order[sq][d], n = r->ray_len[sq][d];
    if (order) {
        bb_t ray = r->ray_mask[sq][d], on = ray & ~empty;
        if (!on) return n;
        return popcount(order > 0 ? ray & (BIT(low_bit(on)) - 1)
                                  : ray & ((~(bb_t)0 << top_bit(on)) << 1));
    }
    const uint8_t *squares = RAY(r, sq, d);
    int j = 0;
    while (j < n && (empty & BIT(squares[j]))) j++;
    return j;
}

ENGINE_INLINE long long king_mobility(const Rules *r, bb_t kings, bb_t empty) {
    long long moves = 0;
    for (; kings; kings &= kings - 1) {
        int sq = low_bit(kings);
        for (int i = 0; i < r->n_king_move; i++) {
            int d = r->king_move_dirs[i];
            if (r->flying)
                moves += flying_reach(r, sq, d, empty);
            else
                moves += r->ray_len[sq][d] && (empty & BIT(RAY(r, sq, d)[0]));
        }
    }
    return moves;
}

/* Evaluator._free_path: whether the man can step to an empty square of
 * the row before crowning from which a crowning square is empty and next
 * to which (in the men's step directions of both colours) no opposing
 * piece stands (two_step_next). */
ENGINE_INLINE int free_path(const Evaluation *e, const Rules *r, int stride, int color, bb_t man,
                            bb_t empty, bb_t opp) {
    for (int i = 0; i < men_shifts(e, stride, color); i++) {
        bb_t square = moved(e, r, stride, color, i, man) & empty & e->last_step[color];
        if (!square) continue;
        bb_t ahead = 0, behind = 0;
        for (int j = 0; j < men_shifts(e, stride, color); j++)
            ahead |= moved(e, r, stride, color, j, square);
        for (int j = 0; j < men_shifts(e, stride, 1 - color); j++)
            behind |= moved(e, r, stride, 1 - color, j, square);
        if ((ahead & empty) && !((ahead | behind) & opp)) return 1;
    }
    return 0;
}

ENGINE_INLINE long long side_score(const Search *s, int stride, int color, bb_t men, bb_t kings,
                                   bb_t opp, bb_t opp_kings, bb_t empty, int nmen, int nkings,
                                   const long long *w, int to_move, int *can_step) {
    const Evaluation *e = s->e;
    const Rules *r = s->r;
    bb_t bits = men | kings;
    long long total = w[0] * nmen + w[1] * nkings;
    long long advance = 0;
    int nplanes = stride ? men_stride_planes(stride) : e->nplanes; /* a constant where stride is */
    for (int k = 0; k < nplanes; k++)
        advance += (long long)popcount(men & e->planes[color][k]) << k;
    bb_t steps = 0, behind = 0, supported = men & e->far_half[color];
    for (int i = 0; i < men_shifts(e, stride, color); i++) {
        steps |= moved(e, r, stride, color, i, men);
        bb_t from_behind = moved(e, r, stride, color, i, bits);
        behind |= from_behind;
        supported &= from_behind;
    }
    long long lopsided = popcount(men & e->left) - popcount(men & e->right);
    total += w[2] * advance + w[3] * popcount(men & e->centre) +
             w[4] * popcount(men & e->back[color]) + w[5] * popcount(steps & empty) +
             w[6] * popcount(men & behind) + w[7] * popcount(supported) +
             w[8] * popcount(men & e->edge) - w[9] * (lopsided < 0 ? -lopsided : lopsided);
    for (bb_t near = men & e->near[color]; near; near &= near - 1) {
        int sq = low_bit(near);
        if (!opp_kings && !(e->cones[color][sq] & opp)) {
            total += w[10] + (to_move ? w[14] : 0);
        } else if (BIT(sq) & e->last_step[color]) {
            bb_t to = 0; /* the squares it may crown on */
            for (int i = 0; i < men_shifts(e, stride, color); i++)
                to |= moved(e, r, stride, color, i, BIT(sq));
            if (to & empty) total += w[12] + (to_move ? w[13] : 0);
        } else if (to_move && !opp_kings && free_path(e, r, stride, color, BIT(sq), empty, opp)) {
            total += w[15];
        }
    }
    long long mobility = kings ? king_mobility(r, kings, empty) : 0;
    total += w[11] * mobility;
    /* Whether the side can step (the core's any_step where
     * Evaluation.steps_exact): a man's step to an empty square, or a
     * king's (its mobility counts its first square on a ray if empty). */
    if (can_step) *can_step = (steps & empty) != 0 || mobility > 0;
    return total;
}

/* White's side's score less Black's, for search_static_white; n the bit
 * counts of p's four sets; *can_step whether the side to move can step. */
ENGINE_INLINE long long sides_score(const Search *s, int stride, const Pos *p, const int *n,
                                    const long long *w, int *can_step) {
    const bb_t *b = p->bb;
    bb_t empty = s->r->board & ~(b[0] | b[1] | b[2] | b[3]);
    int white = p->color == 0;
    return side_score(s, stride, 0, b[0], b[2], b[1] | b[3], b[3], empty, n[0], n[2], w, white,
                      white ? can_step : NULL) -
           side_score(s, stride, 1, b[1], b[3], b[0] | b[2], b[2], empty, n[1], n[3], w, !white,
                      white ? NULL : can_step);
}

/* Cloned (ENGINE_CLONED, search.h): its bit counts, a dozen operations each
 * in portable C, are one POPCNT each in the x86-64-v3 clone. The 50
 * positions of benchmarks/native_speed.py to depth 9 (2,736,189 nodes, the
 * same trees) took 4,472 M instructions in the search so, 5,786 M without
 * the clone (callgrind), and 2.2 against 2.6-2.9 CPU seconds to depth 11
 * (runs interleaved, load average 6; 2026-12-05).
 *
 * And compiled for each stride of Evaluation.men_stride, where each step of
 * the men is a shift by a constant (two instructions on 128 bits, some ten
 * by a variable amount of either sign) and the advancement's planes a fixed
 * number: to depth 9 as above, 3,881 M instructions in the search before,
 * 3,703 M with the shifts constant, 3,678 M with the planes too (callgrind,
 * the same trees; the evaluation, called 1,059,270 times, from 870 to 685
 * instructions a call; 2026-12-06). */
ENGINE_CLONED int search_static_white_step(const Search *s, const Pos *p, int *can_step) {
    const bb_t *b = p->bb;
    /* The four sets' bit counts once, for the phase, both sides and the
     * endings, and the empty squares once for both sides (sides_score): to
     * depth 9 as above, 3,497 M instructions for 3,513 M. */
    int n[4] = {popcount(b[0]), popcount(b[1]), popcount(b[2]), popcount(b[3])};
    const long long *w = s->e->blended[n[0] + n[1]];
    long long total = s->e->men_stride == 12   ? sides_score(s, 12, p, n, w, can_step)
                      : s->e->men_stride == 10 ? sides_score(s, 10, p, n, w, can_step)
                                               : sides_score(s, 0, p, n, w, can_step);
    if (s->e->patterns.nwindows)
        total += s->e->men_at_start * patterns_sum(&s->e->patterns, p->pattern);
    /* Rounded towards zero, so that both colours see the same score. */
    long long magnitude = (total < 0 ? -total : total) / s->e->men_at_start;
    long long white = total >= 0 ? magnitude : -magnitude;
    if (n[0] + n[1] + n[2] + n[3] <= SMALL_MATERIAL) {
        int divisor = s->endings[n[2]][n[0]][n[3]][n[1]];
        if (divisor >= 0) white = divisor ? floor_div(white, divisor) : 0;
    }
    return (int)white;
}

int search_static_white(const Search *s, const Pos *p) {
    int can_step;
    return search_static_white_step(s, p, &can_step);
}
