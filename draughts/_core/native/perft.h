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

static PERFT_TARGET uint64_t PERFT_FN(perft_node)(Perft *P, int ply, int depth, int color,
                                                  const Side *s);

static uint64_t PERFT_TARGET PERFT_FN(count_moves)(Perft *P, int ply, int color, const Side *s);

/* The leaves under the position after color's move, depth plies above
 * them, given as color's men and kings and the other side's men and kings
 * after it. A leaf is counted here, where the compiler sees it, rather
 * than in a call (GCC's partial inlining did so for some callers, not all:
 * without bulk counting, International perft(9) gave 75 M leaves per CPU
 * second where the single jumps called perft_node for each leaf, 100 M
 * with this). The next mover's side is built from these values, never
 * loaded back from a board indexed by colour (International perft(8),
 * counted by cachegrind: without bulk counting 878 M instructions for
 * 946 M, with it 710 M for 714 M). */
static inline __attribute__((always_inline)) PERFT_TARGET uint64_t
PERFT_FN(perft_after)(Perft *P, int ply, int depth, int color, bb_t men, bb_t kings, bb_t opp_men,
                      bb_t opp_kings) {
    if (depth == 0) return 1;
    const Side next = {opp_men, opp_kings, men, kings};
    if (depth == 1 && P->bulk) return PERFT_FN(count_moves)(P, ply, 1 - color, &next);
    return PERFT_FN(perft_node)(P, ply, depth, 1 - color, &next);
}

/* The position after a man of color steps from -> to (crowned on to if
 * crown), counted on. */
static inline PERFT_TARGET uint64_t PERFT_FN(perft_man_step)(Perft *P, int ply, int depth,
                                                             int color, const Side *s,
                                                             bb_t from, bb_t to, int crown) {
    bb_t men = s->own_men ^ from, kings = s->own_kings;
    if (crown)
        kings |= to;
    else
        men |= to;
    return PERFT_FN(perft_after)(P, ply + 1, depth - 1, color, men, kings, s->opp_men,
                                 s->opp_kings);
}

/* The men's steps on a diagonal board of a stride known when it is
 * compiled: each step's squares come from its destination's lowest bit by
 * a constant shift, with no bit index (International perft(8) without bulk
 * counting: 1,370 M instructions, for 1,448 M with a shift by a variable
 * amount and SQUARE_BIT() of each index). */
static inline __attribute__((always_inline)) PERFT_TARGET uint64_t
PERFT_FN(perft_diagonal_steps)(Perft *P, int ply, int depth, int color, const Side *s,
                               bb_t empty, int stride) {
    const bb_t *from = P->r->man_step_from[color];
    bb_t promotion = P->r->promotion[color];
    uint64_t total = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        int shift = diagonal_shift(stride, d);
        for (bb_t to = shifted(s->own_men & from[d], shift) & empty; to; to &= to - 1) {
            bb_t lowest = to & -to;
            total += PERFT_FN(perft_man_step)(P, ply, depth, color, s, shifted(lowest, -shift),
                                              lowest, (promotion & lowest) != 0);
        }
    }
    return total;
}

/* Every step of side s, each played and counted on without a route list
 * (International perft(8) without bulk counting: 58 M leaves/s for 35 with
 * gen_steps' list of 288-byte routes and play). The order differs from
 * gen_steps', which perft's sum does not see. */
static PERFT_TARGET uint64_t PERFT_FN(perft_steps)(Perft *P, int ply, int depth, int color,
                                                   const Side *s) {
    const Rules *r = P->r;
    bb_t men = s->own_men, kings = s->own_kings;
    bb_t occupied = men | kings | s->opp_men | s->opp_kings;
    bb_t empty = r->board & ~occupied, promotion = r->promotion[color];
    uint64_t total = 0;
    if (men && r->diagonal_stride == 10)
        total = PERFT_FN(perft_diagonal_steps)(P, ply, depth, color, s, empty, 10);
    else if (men && r->diagonal_stride == 12)
        total = PERFT_FN(perft_diagonal_steps)(P, ply, depth, color, s, empty, 12);
    for (int k = 0; men && !r->diagonal_stride && k < r->n_man_move[color]; k++) {
        int d = r->man_move_dirs[color][k];
        if (r->padded) {
            int shift = r->shift[d];
            for (bb_t to = shifted(men & r->step_from[d], shift) & empty; to; to &= to - 1) {
                bb_t lowest = to & -to;
                total += PERFT_FN(perft_man_step)(P, ply, depth, color, s,
                                                  shifted(lowest, -shift), lowest,
                                                  (promotion & lowest) != 0);
            }
            continue;
        }
        for (bb_t from = men; from; from &= from - 1) {
            int sq = low_bit(from);
            if (r->ray_len[sq][d] < 1) continue;
            bb_t to = SQUARE_BIT(RAY(r, sq, d)[0]);
            if (empty & to)
                total += PERFT_FN(perft_man_step)(P, ply, depth, color, s, SQUARE_BIT(sq), to,
                                                  (promotion & to) != 0);
        }
    }
    for (; kings; kings &= kings - 1) {
        int sq = low_bit(kings);
        for (int k = 0; k < r->n_king_move; k++) {
            int d = r->king_move_dirs[k], n = r->ray_len[sq][d];
            const uint8_t *ray = RAY(r, sq, d);
            for (int i = 0; i < n && (empty & SQUARE_BIT(ray[i])); i++) {
                total += PERFT_FN(perft_after)(P, ply + 1, depth - 1, color, men,
                                               s->own_kings ^ (SQUARE_BIT(sq) | SQUARE_BIT(ray[i])),
                                               s->opp_men, s->opp_kings);
                if (!r->flying) break;
            }
        }
    }
    return total;
}

/* The position after a man of color jumps from origin over the square
 * shift beyond it (a single jump), counted on. */
static inline __attribute__((always_inline)) PERFT_TARGET uint64_t
PERFT_FN(perft_jump)(Perft *P, int ply, int depth, int color, const Side *s, bb_t origin,
                     int shift) {
    bb_t over = shifted(origin, shift), land = shifted(origin, 2 * shift);
    bb_t men = s->own_men ^ origin, kings = s->own_kings;
    if (P->r->promotion[color] & land)
        kings |= land;
    else
        men |= land;
    return PERFT_FN(perft_after)(P, ply + 1, depth - 1, color, men, kings, s->opp_men & ~over,
                                 s->opp_kings & ~over);
}

/* Every capture when all are single jumps of men (single_jumps_only),
 * played from first_jumps' bitboards without a route list, by constant
 * shifts on the 8x8 and 10x10 diagonal boards (stride 0: any padded one). */
static inline __attribute__((always_inline)) PERFT_TARGET uint64_t
PERFT_FN(perft_single_jumps)(Perft *P, int ply, int depth, int color, const Side *s,
                             const bb_t jumps[NDIRS], int stride) {
    uint64_t total = 0;
    if (stride) {
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++)
            for (bb_t from = jumps[d]; from; from &= from - 1)
                total += PERFT_FN(perft_jump)(P, ply, depth, color, s, from & -from,
                                              diagonal_shift(stride, d));
        return total;
    }
    for (int d = 0; d < NDIRS; d++)
        for (bb_t from = jumps[d]; from; from &= from - 1)
            total += PERFT_FN(perft_jump)(P, ply, depth, color, s, from & -from, P->r->shift[d]);
    return total;
}

/* The captures of side s, each played and counted on (at the last ply with
 * bulk counting, counted); *found says whether there were any. On padded
 * layouts the men's first jumps are worked out once: where every capture
 * is a single jump of a man and the rules cannot prefer one to another,
 * they are counted, or played from bitboards, without a route list
 * (International perft(9) from the start, per CPU second: with bulk
 * counting, where this counts the last ply's single jumps, 114 M leaves
 * for 104 M with every capture listed; without bulk counting, where it
 * plays them at every ply, 100 M for 94 M); else search_captures gets the
 * first jumps to save working them out again. Apart from perft_node,
 * whose frame would grow with the jumps. */
static uint64_t __attribute__((noinline)) PERFT_TARGET
PERFT_FN(perft_captures)(Perft *P, int ply, int depth, int color, const Side *s,
                         bb_t candidates, bb_t jumpers, int *found) {
    const Rules *r = P->r;
    int last = depth == 1 && P->bulk;
    bb_t jumps[NDIRS], more[NDIRS];
    const bb_t *known_jumps = NULL, *known_more = NULL;
    *found = 1; /* on padded layouts a candidate always has a jump */
    if (candidates && r->padded) {
        bb_t opp = s->opp_men | s->opp_kings;
        bb_t empty = r->board & ~(s->own_men | s->own_kings | opp);
        bb_t prey = r->men_capture_kings ? opp : s->opp_men;
        first_jumps(r, color, candidates, prey, empty, jumps, more);
        if (!jumpers && single_jumps_only(r, more)) {
            if (last) return count_jumps(r, jumps);
            if (r->diagonal_stride == 10)
                return PERFT_FN(perft_single_jumps)(P, ply, depth, color, s, jumps, 10);
            if (r->diagonal_stride == 12)
                return PERFT_FN(perft_single_jumps)(P, ply, depth, color, s, jumps, 12);
            return PERFT_FN(perft_single_jumps)(P, ply, depth, color, s, jumps, 0);
        }
        known_jumps = jumps;
        known_more = more;
    }
    RouteList *l = &P->lists[ply];
    l->len = 0;
    long n = search_captures(r, color, s, P->keep_duplicates, l, candidates, jumpers, known_jumps,
                             known_more);
    if (n < 0) {
        P->failed = 1;
        return 0;
    }
    *found = n > 0;
    if (last) return (uint64_t)n;
    uint64_t total = 0;
    for (long i = 0; i < n && !P->failed; i++) {
        /* The list may move when a deeper ply grows the array of lists. */
        const Route *m = &P->lists[ply].items[i];
        bb_t men = s->own_men, kings = s->own_kings;
        perft_play(m, &men, &kings);
        total += PERFT_FN(perft_after)(P, ply + 1, depth - 1, color, men, kings,
                                       s->opp_men & ~m->captured, s->opp_kings & ~m->captured);
    }
    return total;
}

static PERFT_TARGET uint64_t PERFT_FN(perft_node)(Perft *P, int ply, int depth, int color,
                                                  const Side *s) {
    if (ply >= P->nlists && !grow_lists(P, ply)) return 0;
    const Rules *r = P->r;
    /* Off the padded layouts, a candidate man may have no jump after all. */
    bb_t jumpers, candidates = first_jumpers(r, color, s, &jumpers);
    if (candidates | jumpers) {
        int found;
        uint64_t total =
            PERFT_FN(perft_captures)(P, ply, depth, color, s, candidates, jumpers, &found);
        if (found || P->failed) return total;
    }
    if (depth == 1 && P->bulk) return count_steps(r, color, s, 0);
    return PERFT_FN(perft_steps)(P, ply, depth, color, s);
}

/* The moves of color's side s, counted (bulk counting at the last ply):
 * perft_node without the recursion, whose frame this leaves out. */
static uint64_t PERFT_TARGET PERFT_FN(count_moves)(Perft *P, int ply, int color, const Side *s) {
    const Rules *r = P->r;
    bb_t jumpers, candidates = first_jumpers(r, color, s, &jumpers);
    if (candidates | jumpers) {
        if (ply >= P->nlists && !grow_lists(P, ply)) return 0;
        int found;
        uint64_t total =
            PERFT_FN(perft_captures)(P, ply, 1, color, s, candidates, jumpers, &found);
        if (found || P->failed) return total;
    }
    return count_steps(r, color, s, 0);
}
