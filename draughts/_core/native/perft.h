/* Perft's recursion, included twice by movegen.c: as it is, and on x86
 * once more with the popcnt instruction allowed. PERFT_FN(name) names a
 * copy's functions, PERFT_TARGET is its target attribute (empty for the
 * first), and perft() in movegen.c picks a copy by the CPU it runs on.
 *
 * Why twice: a wheel must run on every x86-64, and not all have popcnt,
 * so the build cannot assume it; but the popcnt copy counts the last
 * ply's steps with one instruction a direction (the compiler recognises
 * the bit-parallel popcount of core.h, and the loop over the last ply's
 * steps, as a population count). International perft(9) from the start,
 * per CPU second: with bulk counting 120 M leaves for 113 M, without it
 * 92 M for 76 M (2026-12-05, load average 1.4).
 *
 * No include guard: this is not a header of declarations. */

static PERFT_TARGET uint64_t PERFT_FN(perft_node)(Perft *P, int ply, int depth, int color, const bb_t bb[4]);

/* The position after a man of color steps from -> to (crowned on to if
 * crown), counted on. */
static inline PERFT_TARGET uint64_t PERFT_FN(perft_man_step)(Perft *P, int ply, int depth, int color, const bb_t bb[4],
                                      bb_t from, bb_t to, int crown) {
    bb_t next[4] = {bb[0], bb[1], bb[2], bb[3]};
    next[color] ^= from;
    next[crown ? 2 + color : color] |= to;
    return PERFT_FN(perft_node)(P, ply + 1, depth - 1, 1 - color, next);
}

/* The men's steps on a diagonal board of a stride known when it is
 * compiled: each step's squares come from its destination's lowest bit by
 * a constant shift, with no bit index (International perft(8) without bulk
 * counting: 1,370 M instructions, for 1,448 M with a shift by a variable
 * amount and BIT() of each index). */
static inline __attribute__((always_inline)) PERFT_TARGET uint64_t
PERFT_FN(perft_diagonal_steps)(Perft *P, int ply, int depth, int color, const bb_t bb[4], bb_t empty,
                     int stride) {
    const bb_t *from = P->r->man_step_from[color];
    bb_t promotion = P->r->promotion[color];
    uint64_t total = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        int s = diagonal_shift(stride, d);
        for (bb_t to = shifted(bb[color] & from[d], s) & empty; to; to &= to - 1) {
            bb_t lowest = to & -to;
            total += PERFT_FN(perft_man_step)(P, ply, depth, color, bb, shifted(lowest, -s), lowest,
                                    (promotion & lowest) != 0);
        }
    }
    return total;
}

/* Every step from bb, each played and counted on without a route list
 * (International perft(8) without bulk counting: 58 M leaves/s for 35 with
 * gen_steps' list of 288-byte routes and play). The order differs from
 * gen_steps', which perft's sum does not see. */
static PERFT_TARGET uint64_t PERFT_FN(perft_steps)(Perft *P, int ply, int depth, int color, const bb_t bb[4]) {
    const Rules *r = P->r;
    bb_t men = bb[color], kings = bb[2 + color];
    bb_t occupied = bb[0] | bb[1] | bb[2] | bb[3];
    bb_t empty = r->board & ~occupied, promotion = r->promotion[color];
    uint64_t total = 0;
    if (men && r->diagonal_stride == 10)
        total = PERFT_FN(perft_diagonal_steps)(P, ply, depth, color, bb, empty, 10);
    else if (men && r->diagonal_stride == 12)
        total = PERFT_FN(perft_diagonal_steps)(P, ply, depth, color, bb, empty, 12);
    for (int k = 0; men && !r->diagonal_stride && k < r->n_man_move[color]; k++) {
        int d = r->man_move_dirs[color][k];
        if (r->padded) {
            int shift = r->shift[d];
            for (bb_t to = shifted(men & r->step_from[d], shift) & empty; to; to &= to - 1) {
                bb_t lowest = to & -to;
                total += PERFT_FN(perft_man_step)(P, ply, depth, color, bb, shifted(lowest, -shift), lowest,
                                        (promotion & lowest) != 0);
            }
            continue;
        }
        for (bb_t from = men; from; from &= from - 1) {
            int sq = low_bit(from);
            if (r->ray_len[sq][d] < 1) continue;
            bb_t to = BIT(RAY(r, sq, d)[0]);
            if (empty & to)
                total += PERFT_FN(perft_man_step)(P, ply, depth, color, bb, BIT(sq), to,
                                        (promotion & to) != 0);
        }
    }
    for (; kings; kings &= kings - 1) {
        int sq = low_bit(kings);
        for (int k = 0; k < r->n_king_move; k++) {
            int d = r->king_move_dirs[k], n = r->ray_len[sq][d];
            const uint8_t *ray = RAY(r, sq, d);
            for (int i = 0; i < n && (empty & BIT(ray[i])); i++) {
                bb_t next[4] = {bb[0], bb[1], bb[2], bb[3]};
                next[2 + color] ^= BIT(sq) | BIT(ray[i]);
                total += PERFT_FN(perft_node)(P, ply + 1, depth - 1, 1 - color, next);
                if (!r->flying) break;
            }
        }
    }
    return total;
}

/* How many captures there are at the last ply with bulk counting: single
 * jumps are counted without listing them where count_single_jumps can,
 * and search_captures gets the first jumps to save working them out again
 * (International perft(9) from the start: 114 M leaves per CPU second for
 * 104 M with every capture listed). Apart from perft_node, whose frame
 * would grow with the jumps. Returns -1 out of memory. */
static long __attribute__((noinline)) PERFT_TARGET
PERFT_FN(count_captures)(const Perft *P, const Side *s, int color, bb_t candidates, bb_t jumpers,
               RouteList *l) {
    const Rules *r = P->r;
    if (!candidates || !r->padded)
        return search_captures(r, color, s, P->keep_duplicates, l, candidates, jumpers, NULL,
                               NULL);
    bb_t jumps[NDIRS], more[NDIRS];
    bb_t opp = s->opp_men | s->opp_kings;
    bb_t empty = r->board & ~(s->own_men | s->own_kings | opp);
    first_jumps(r, color, candidates, r->men_capture_kings ? opp : s->opp_men, empty, jumps, more);
    uint64_t count = jumpers ? 0 : count_single_jumps(r, jumps, more);
    if (count) return (long)count;
    return search_captures(r, color, s, P->keep_duplicates, l, candidates, jumpers, jumps, more);
}

static PERFT_TARGET uint64_t PERFT_FN(perft_node)(Perft *P, int ply, int depth, int color, const bb_t bb[4]) {
    if (depth == 0) return 1;
    if (ply >= P->nlists) {
        int n = 2 * P->nlists + 8;
        RouteList *lists = realloc(P->lists, (size_t)n * sizeof *lists);
        if (lists == NULL) {
            P->failed = 1;
            return 0;
        }
        for (int i = P->nlists; i < n; i++) routes_init(&lists[i]);
        P->lists = lists;
        P->nlists = n;
    }
    const Rules *r = P->r;
    Side s = {bb[color], bb[2 + color], bb[1 - color], bb[3 - color]};
    /* Off the padded layouts, a candidate man may have no jump after all. */
    bb_t jumpers, candidates = first_jumpers(r, color, &s, &jumpers);
    long n = 0;
    if (candidates | jumpers) {
        RouteList *l = &P->lists[ply];
        l->len = 0;
        n = depth == 1 && P->bulk ? PERFT_FN(count_captures)(P, &s, color, candidates, jumpers, l)
                                  : search_captures(r, color, &s, P->keep_duplicates, l,
                                                    candidates, jumpers, NULL, NULL);
        if (n < 0) {
            P->failed = 1;
            return 0;
        }
    }
    if (n == 0) {
        if (depth == 1 && P->bulk) return count_steps(r, color, &s);
        return PERFT_FN(perft_steps)(P, ply, depth, color, bb);
    }
    if (depth == 1 && P->bulk) return (uint64_t)n;
    uint64_t total = 0;
    for (long i = 0; i < n && !P->failed; i++) {
        /* The list may move when a deeper ply grows the array of lists. */
        bb_t next[4] = {bb[0], bb[1], bb[2], bb[3]};
        perft_play(&P->lists[ply].items[i], color, next);
        total += PERFT_FN(perft_node)(P, ply + 1, depth - 1, 1 - color, next);
    }
    return total;
}

