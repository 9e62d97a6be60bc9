/* Steps (the moves that capture nothing), and moves played on bitboards.
 *
 * Like the capture search in movegen.c, this follows draughts/_core/pure
 * step for step, in the same order. No Python here: module.c converts. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "play.h"

static void set_step(Route *m, int origin, int dest, int crowned, int slot) {
    m->captured = 0;
    m->origin = (uint8_t)origin;
    m->dest = (uint8_t)dest;
    m->crowned = (uint8_t)crowned;
    m->ncaps = 0;
    m->slot = (uint16_t)slot;
}

static int add_step(RouteList *out, int origin, int dest, int crowned, int slot) {
    Route *m = new_route(out);
    if (m == NULL) return 0;
    set_step(m, origin, dest, crowned, slot);
    return 1;
}

/* The steps of the men along d (shift) to the squares of one 64-bit half of
 * a bitboard (base: 0 or 64), highest first, written in place from out's
 * end on; 0 (out->failed set) out of memory. */
static inline __attribute__((always_inline)) int
half_steps(const Rules *r, int d, int shift, uint64_t to, uint64_t crowns, int base,
           RouteList *out) {
    Route *m = out->items + out->len, *end = out->items + out->cap;
    while (to) {
        if (m == end) {
            out->len = (size_t)(m - out->items);
            if (new_route(out) == NULL) return 0; /* room grown for one more */
            m = out->items + --out->len;
            end = out->items + out->cap;
        }
        int bit = 63 - clz64(to), sq = base + bit;
        to ^= 1ULL << bit;
        set_step(m++, sq - shift, sq, (int)(crowns >> bit) & 1, r->ray_off[sq - shift][d]);
    }
    out->len = (size_t)(m - out->items);
    return 1;
}

/* Padded layouts: the steps of the men along d, to the squares of to
 * (one step along d from a man), highest destination first as the pure
 * generator lists them. The squares are taken from the two 64-bit halves
 * in turn, a bit scan and a bit cleared in one word rather than in 128
 * bits, and the routes written in place (International's search to depth
 * 9 on the 50 positions of benchmarks/native_speed.py: 3,541 M
 * instructions for 3,557 M; callgrind, the same trees). */
static int padded_man_steps(const Rules *r, int color, int d, bb_t to, RouteList *out) {
    int shift = r->shift[d];
    bb_t crowns = to & r->promotion[color];
    return half_steps(r, d, shift, (uint64_t)(to >> 64), (uint64_t)(crowns >> 64), 64, out) &&
           half_steps(r, d, shift, (uint64_t)to, (uint64_t)crowns, 0, out);
}

long gen_steps(const Rules *r, int color, const Side *s, bb_t frozen, RouteList *out) {
    size_t start = out->len;
    /* The men in a local: the routes written below could be s's memory for
     * all the compiler knows, which then read s->own_men again at each
     * direction (International's search to depth 9 on the 50 positions of
     * benchmarks/native_speed.py: 3,486 M instructions for 3,492 M;
     * callgrind, the same trees). */
    bb_t own_men = s->own_men;
    bb_t occupied = own_men | s->own_kings | s->opp_men | s->opp_kings;
    bb_t empty = r->board & ~occupied;
    for (int k = 0; r->padded && own_men && k < r->n_man_move[color]; k++) {
        int d = r->man_move_dirs[color][k];
        bb_t to = shifted(own_men & r->step_from[d], r->shift[d]) & empty;
        if (to && !padded_man_steps(r, color, d, to, out)) return -1;
    }
    for (int k = 0; !r->padded && own_men && k < r->n_man_move[color]; k++) {
        int d = r->man_move_dirs[color][k];
        for (bb_t men = own_men; men;) {
            int sq = pop_top(&men);
            if (r->ray_len[sq][d] < 1) continue;
            int to = RAY(r, sq, d)[0];
            int crowned = (r->promotion[color] & SQUARE_BIT(to)) != 0;
            if ((empty & SQUARE_BIT(to)) && !add_step(out, sq, to, crowned, r->ray_off[sq][d]))
                return -1;
        }
    }
    for (bb_t kings = s->own_kings & ~frozen; kings;) {
        int sq = pop_top(&kings);
        for (int k = 0; k < r->n_king_move; k++) {
            int d = r->king_move_dirs[k], n = r->ray_len[sq][d];
            const uint8_t *ray = RAY(r, sq, d);
            for (int i = 0; i < n && !(occupied & SQUARE_BIT(ray[i])); i++) {
                if (!add_step(out, sq, ray[i], 0, r->ray_off[sq][d] + i)) return -1;
                if (!r->flying) break;
            }
        }
    }
    return (long)(out->len - start);
}

/* Whether a man on a square of one 64-bit half of a bitboard (base: 0 or
 * 64) has an empty square next to it in its step directions, highest
 * square first; a bit scan and a bit cleared in one word rather than in
 * 128 bits (International's search to depth 9 on the 50 positions of
 * benchmarks/native_speed.py: 3,500 M instructions for 3,509 M; callgrind,
 * the same trees). */
static inline int half_man_step(const bb_t *near, uint64_t men, int base, bb_t empty) {
    while (men) {
        int bit = 63 - clz64(men);
        men ^= 1ULL << bit;
        if (empty & near[base + bit]) return 1;
    }
    return 0;
}

int any_step(const Rules *r, int color, const Side *s) {
    bb_t occupied = s->own_men | s->own_kings | s->opp_men | s->opp_kings;
    bb_t empty = r->board & ~occupied;
    const bb_t *near = r->man_step_near[color];
    if (half_man_step(near, (uint64_t)(s->own_men >> 64), 64, empty) ||
        half_man_step(near, (uint64_t)s->own_men, 0, empty))
        return 1;
    for (bb_t kings = s->own_kings; kings;) {
        int sq = pop_top(&kings);
        for (int k = 0; k < r->n_king_move; k++) {
            int d = r->king_move_dirs[k];
            if (r->ray_len[sq][d] >= 1 && (empty & SQUARE_BIT(RAY(r, sq, d)[0]))) return 1;
        }
    }
    return 0;
}

int is_step(const Rules *r, int color, const Side *s, int origin, int dest, bb_t frozen,
            Route *step) {
    bb_t occupied = s->own_men | s->own_kings | s->opp_men | s->opp_kings;
    if (!(r->board & SQUARE_BIT(dest)) || (occupied & SQUARE_BIT(dest))) return 0;
    if (s->own_men & SQUARE_BIT(origin)) {
        for (int k = 0; k < r->n_man_move[color]; k++) {
            int d = r->man_move_dirs[color][k];
            if (r->ray_len[origin][d] >= 1 && RAY(r, origin, d)[0] == dest) {
                set_step(step, origin, dest, (r->promotion[color] & SQUARE_BIT(dest)) != 0,
                         r->ray_off[origin][d]);
                return 1;
            }
        }
        return 0;
    }
    if (!(s->own_kings & SQUARE_BIT(origin)) || (frozen & SQUARE_BIT(origin))) return 0;
    for (int k = 0; k < r->n_king_move; k++) {
        int d = r->king_move_dirs[k], n = r->ray_len[origin][d];
        const uint8_t *ray = RAY(r, origin, d);
        for (int i = 0; i < n && !(occupied & SQUARE_BIT(ray[i])); i++) {
            if (ray[i] == dest) {
                set_step(step, origin, dest, 0, r->ray_off[origin][d] + i);
                return 1;
            }
            if (!r->flying) break;
        }
    }
    return 0;
}

/* -- Playing moves ---------------------------------------------------------- */

void play(const Rules *r, const Route *m, int color, bb_t bb[4], uint64_t *key) {
    play_on(r, m, color, bb, key);
}

void unplay(const Rules *r, const Route *m, int color, bb_t captured_kings, bb_t bb[4],
            uint64_t *key) {
    int o = 1 - color;
    uint64_t k = *key ^ r->key_black;
    if (m->crowned) {
        bb[2 + color] &= ~SQUARE_BIT(m->dest);
        bb[color] |= SQUARE_BIT(m->origin);
        k ^= r->key_kings[color][m->dest] ^ r->key_men[color][m->origin];
    } else if (bb[color] & SQUARE_BIT(m->dest)) {
        bb[color] = (bb[color] & ~SQUARE_BIT(m->dest)) | SQUARE_BIT(m->origin);
        k ^= r->key_men[color][m->dest] ^ r->key_men[color][m->origin];
    } else {
        bb[2 + color] = (bb[2 + color] & ~SQUARE_BIT(m->dest)) | SQUARE_BIT(m->origin);
        k ^= r->key_kings[color][m->dest] ^ r->key_kings[color][m->origin];
    }
    for (int i = 0; i < m->ncaps; i++) {
        int sq = m->caps[i];
        if (captured_kings & SQUARE_BIT(sq)) {
            bb[2 + o] |= SQUARE_BIT(sq);
            k ^= r->key_kings[o][sq];
        } else {
            bb[o] |= SQUARE_BIT(sq);
            k ^= r->key_men[o][sq];
        }
    }
    *key = k;
}

uint64_t position_key(const Rules *r, int color, const bb_t bb[4]) {
    uint64_t k = color ? r->key_black : 0;
    for (int c = 0; c < 2; c++) {
        for (bb_t b = bb[c]; b;) {
            int sq = pop_top(&b);
            k ^= r->key_men[c][sq];
        }
        for (bb_t b = bb[2 + c]; b;) {
            int sq = pop_top(&b);
            k ^= r->key_kings[c][sq];
        }
    }
    return k;
}
