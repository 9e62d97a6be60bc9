/* Playing a move on bitboards (the core's play), as a static inline
 * function: the core's play (steps.c) is this, and the engine's search
 * (draughts/engine/_native/search.c) compiles it in rather than calling
 * the core's through core_api, for the call and the copy of the position
 * it saves at each of its nodes (the 50 positions of
 * benchmarks/native_speed.py to depth 9: 3,404 M instructions in the
 * search for 3,436 M; callgrind, the same trees). Included after core.h. */
#ifndef DRAUGHTS_NATIVE_PLAY_H
#define DRAUGHTS_NATIVE_PLAY_H

#include "core.h"

/* The keys of the squares of one 64-bit half of a bitboard (keys: the
 * half's first key), xored: a bit scan and a bit cleared in one word rather
 * than in 128 bits (International's search to depth 9 on the 50 positions
 * of benchmarks/native_speed.py: 3,509 M instructions for 3,536 M;
 * callgrind, the same trees). */
static inline uint64_t half_keys(const uint64_t *keys, uint64_t x) {
    uint64_t k = 0;
    for (; x; x &= x - 1) k ^= keys[ctz64(x)];
    return k;
}

static inline void play_on(const Rules *r, const Route *m, int color, bb_t bb[4],
                           uint64_t *key) {
    int o = 1 - color;
    uint64_t k = *key ^ r->key_black;
    /* The captured pieces by their set (m->captured, the squares of
     * m->caps), a bit scan each, and nothing for a step: the search to
     * depth 9 on the 50 positions of benchmarks/native_speed.py took 3,825 M
     * instructions for 3,854 M walking m->caps (callgrind, the same trees). */
    bb_t captured = m->captured;
    if (captured) {
        k ^= half_keys(r->key_kings[o], (uint64_t)(captured & bb[2 + o])) ^
             half_keys(r->key_kings[o] + 64, (uint64_t)((captured & bb[2 + o]) >> 64)) ^
             half_keys(r->key_men[o], (uint64_t)(captured & bb[o])) ^
             half_keys(r->key_men[o] + 64, (uint64_t)((captured & bb[o]) >> 64));
        bb[o] &= ~captured;
        bb[2 + o] &= ~captured;
    }
    /* A capture may bring the piece back to its own square: clear it first. */
    bb_t origin = SQUARE_BIT(m->origin), dest = SQUARE_BIT(m->dest);
    if (bb[color] & origin) {
        bb[color] &= ~origin;
        k ^= r->key_men[color][m->origin];
        if (m->crowned) {
            bb[2 + color] |= dest;
            k ^= r->key_kings[color][m->dest];
        } else {
            bb[color] |= dest;
            k ^= r->key_men[color][m->dest];
        }
    } else {
        bb[2 + color] = (bb[2 + color] & ~origin) | dest;
        k ^= r->key_kings[color][m->origin] ^ r->key_kings[color][m->dest];
    }
    *key = k;
}

#endif
