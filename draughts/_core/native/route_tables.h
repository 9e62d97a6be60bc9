/* The capture search's two hash tables, for movegen.c alone (static
 * functions, so that they inline there): the states a flying king's search
 * has searched from, and the routes drop_duplicates has kept. */
#ifndef DRAUGHTS_ROUTE_TABLES_H
#define DRAUGHTS_ROUTE_TABLES_H

#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The states a flying king's search has searched from, from MERGE_FROM
 * pieces taken on: the origin, the square it stands on, the pieces taken and
 * the two directions it may not take next (0 for none, else the direction
 * + 1), with whether it could capture there. A second route into a state
 * already searched (the same pieces taken in another order) can only find
 * again, later, the moves the first found, which drop_duplicates would
 * drop: it is not searched. A king that captures along the lines as well as
 * the diagonals has exponentially many such routes (a custom 10x10 variant
 * on all squares with immediate removal: one move list of a random
 * placement of 24 pieces took 9 to 47 s and more than 4 GB). The same rule
 * as the pure search's (draughts/_core/pure/capture_search.py). An open
 * addressing table, made on first use and doubled at half full up to
 * MEMO_MOST_SIZE entries (128 MB), then emptied whenever half full again
 * (a random placement of 30 pieces on that variant can reach millions of
 * states: finding the longest capture is a longest-path search, whose
 * cost no table removes); where memory runs out, the states met later are
 * not stored (the same moves, found more slowly). The first table is
 * small: a game's king captures store a few states, and every search of
 * one made it afresh, zeroed (the engine's search met 9,438 of them on the
 * 50 positions of benchmarks/native_speed.py to depth 9; with 1,024
 * entries, 32 KB each, the search took 4,005 M instructions, with 64 3,890 M,
 * with 16 3,881 M; callgrind, the same trees). */
enum { MERGE_FROM = 3, MEMO_FIRST_SIZE = 16, MEMO_MOST_SIZE = 1 << 22 };

typedef struct {
    bb_t captured;
    uint8_t origin, sq, back, skip; /* back and skip: direction + 1, 0 for none */
    uint8_t used, found;
} MemoEntry;

typedef struct {
    MemoEntry *items;
    size_t size, len; /* size: a power of two */
} RouteMemo;

/* A slot of an open addressing table of mask + 1 places for a set of
 * captured pieces and a few small numbers packed in squares (the state of
 * RouteMemo, the move of drop_duplicates). */
static size_t hash_slot(bb_t captured, uint64_t squares, size_t mask) {
    uint64_t h = (uint64_t)captured ^ (uint64_t)(captured >> 64) * 0x9E3779B97F4A7C15ULL;
    h ^= squares * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ h >> 29) & mask;
}

static size_t memo_slot(const RouteMemo *m, const MemoEntry *e) {
    uint64_t squares =
        (uint64_t)e->origin << 24 | (uint64_t)e->sq << 16 | (uint64_t)e->back << 8 | e->skip;
    return hash_slot(e->captured, squares, m->size - 1);
}

/* The entry of e's state: the one stored, or an empty slot to store it in. */
static MemoEntry *memo_find(const RouteMemo *m, const MemoEntry *e) {
    for (size_t i = memo_slot(m, e);; i = (i + 1) & (m->size - 1)) {
        MemoEntry *x = &m->items[i];
        if (!x->used || (x->captured == e->captured && x->origin == e->origin &&
                         x->sq == e->sq && x->back == e->back && x->skip == e->skip))
            return x;
    }
}

/* Room for one more entry (the table at most half full); 0 where memory
 * ran out (the memo is then left as it is, and nothing more is stored). */
static int memo_room(RouteMemo *m) {
    if (m->items != NULL && 2 * (m->len + 1) <= m->size) return 1;
    size_t size = m->items == NULL ? MEMO_FIRST_SIZE : 2 * m->size;
    if (size > MEMO_MOST_SIZE) {
        /* Full: forgotten, to be filled again with the states the search
         * meets next, which are near those it just left. */
        memset(m->items, 0, m->size * sizeof(MemoEntry));
        m->len = 0;
        return 1;
    }
    MemoEntry *items = calloc(size, sizeof(MemoEntry));
    if (items == NULL) return 0;
    RouteMemo grown = {items, size, m->len};
    for (size_t i = 0; m->items != NULL && i < m->size; i++)
        if (m->items[i].used) *memo_find(&grown, &m->items[i]) = m->items[i];
    free(m->items);
    *m = grown;
    return 1;
}

static int same_move(const Route *a, const Route *b) {
    return a->origin == b->origin && a->dest == b->dest && a->captured == b->captured;
}

/* Where one route list is longer than this, drop_duplicates finds the
 * copies through a hash table rather than by comparing each route with
 * every one kept: the lists of the rule sets' own positions are a few
 * dozen routes, but a custom variant's flying king capturing along lines
 * and diagonals can leave a hundred thousand, whose quadratic pass took
 * most of a one-second move list. */
enum { DUPLICATES_BY_HASH = 256 };

/* One route per (origin, destination, captured set), the first found;
 * 0 where memory ran out for the hash table (the list is then unchanged). */
static int drop_duplicates(RouteList *l, size_t start) {
    Route *items = l->items;
    size_t n = l->len - start, w = start;
    if (n <= DUPLICATES_BY_HASH) {
        for (size_t i = start; i < l->len; i++) {
            size_t j = start;
            while (j < w && !same_move(&items[j], &items[i])) j++;
            if (j == w) {
                if (w != i) items[w] = items[i];
                w++;
            }
        }
        l->len = w;
        return 1;
    }
    size_t size = 1;
    while (size < 2 * n) size *= 2;
    size_t *kept = malloc(size * sizeof(size_t)); /* places of kept routes, + 1; 0: empty */
    if (kept == NULL) return 0;
    memset(kept, 0, size * sizeof(size_t));
    for (size_t i = start; i < l->len; i++) {
        size_t slot = hash_slot(items[i].captured, (uint64_t)items[i].origin << 8 | items[i].dest,
                                size - 1);
        while (kept[slot] && !same_move(&items[kept[slot] - 1], &items[i]))
            slot = (slot + 1) & (size - 1);
        if (kept[slot]) continue;
        if (w != i) items[w] = items[i]; /* w <= i: the kept ones hashed stay in place */
        kept[slot] = ++w;
    }
    free(kept);
    l->len = w;
    return 1;
}

#endif
