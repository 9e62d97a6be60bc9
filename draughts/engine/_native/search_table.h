/* The transposition table of search.c (Table of draughts/engine/_table.py):
 * buckets of two entries in an array of Slots that helper threads
 * (search_smp.c) share with the main search, without a lock.
 *
 * A Slot holds an Entry in four words, the first being the key XOR the
 * other three (the "lockless hashing" of Hyatt and Mann, ICGA Journal 25,
 * 2002). Each word is read and written whole, with relaxed atomics (plain
 * loads and stores on x86-64 and AArch64: no data race for the compiler or
 * ThreadSanitizer); an entry read while another thread wrote it mixes the
 * words of two entries, fails its key check, and counts as no entry. With
 * one thread nothing is torn: the table answers as before, node for node
 * with the Python Table. And the buckets the search will most likely read
 * next, asked for ahead of the read (prefetch_first). Included by search.c
 * only. */
#ifndef DRAUGHTS_NATIVE_SEARCH_TABLE_H
#define DRAUGHTS_NATIVE_SEARCH_TABLE_H

#include "search.h"

static inline uint64_t word_get(const uint64_t *w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }

static inline void word_set(uint64_t *w, uint64_t v) { __atomic_store_n(w, v, __ATOMIC_RELAXED); }

/* The Entry of a slot's four words: w1 the move's hash; w2 the score, and
 * from bit 32 on the depth, used and bound; w3 the move's origin,
 * destination, crowning and capture count a byte each, and from bit 32 on
 * the generation; w0 the key XOR w1 XOR w2 XOR w3. */
static inline Entry slot_entry(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3) {
    Entry e = {w0 ^ w1 ^ w2 ^ w3,
               w1,
               (int32_t)(uint32_t)w2,
               (int16_t)(uint16_t)(w2 >> 32),
               (uint8_t)(w2 >> 48),
               (uint8_t)(w2 >> 56),
               (uint8_t)w3,
               (uint8_t)(w3 >> 8),
               (uint8_t)(w3 >> 16),
               (uint8_t)(w3 >> 24),
               (uint8_t)(w3 >> 32)};
    return e;
}

/* The entry in slot (torn by a writer: its key is no position's). */
static inline Entry slot_read(const Slot *slot) {
    return slot_entry(word_get(&slot->w[0]), word_get(&slot->w[1]), word_get(&slot->w[2]),
                      word_get(&slot->w[3]));
}

static inline uint64_t route_hash(const Route *m) {
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (int i = 0; i < m->ncaps; i++) h = (h ^ m->caps[i]) * 0x100000001b3ULL;
    for (int i = 0; m->ncaps && i <= m->ncaps; i++) h = (h ^ m->path[i]) * 0x100000001b3ULL;
    return h;
}

static inline int same_move(const Entry *e, const Route *m) {
    return e->origin == m->origin && e->dest == m->dest && e->crowned == m->crowned &&
           e->ncaps == m->ncaps && e->move_hash == route_hash(m);
}

/* The first of key's two entries (Table.probe). */
static inline size_t bucket_of(const Search *s, uint64_t key) {
    return ((size_t)(key ^ (key >> 29)) & (s->tt_cap / 2 - 1)) * 2;
}

/* Ask for key's bucket to be read into the cache (a hint: no effect on
 * what is read). */
static inline void tt_prefetch(const Search *s, uint64_t key) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&s->tt[bucket_of(s, key)]);
#else
    (void)s, (void)key;
#endif
}

/* Whether the table holds key; its entry in *out. The key is checked
 * before the rest is unpacked: most probes find nothing. The 20 first
 * positions of benchmarks/native_speed.py to depth 9 took 1,948 M
 * instructions in the search before the table was shared; 1,979 M with
 * every entry read unpacked and tick no longer inlined; 1,962 M as it is
 * (callgrind; the same trees). */
static inline int tt_get(const Search *s, uint64_t key, Entry *out) {
    const Slot *bucket = &s->tt[bucket_of(s, key)];
    for (int i = 0; i < 2; i++) {
        uint64_t w0 = word_get(&bucket[i].w[0]), w1 = word_get(&bucket[i].w[1]);
        uint64_t w2 = word_get(&bucket[i].w[2]), w3 = word_get(&bucket[i].w[3]);
        if ((w0 ^ w1 ^ w2 ^ w3) == key && (uint8_t)(w2 >> 48)) { /* the key, and used */
            *out = slot_entry(w0, w1, w2, w3);
            return 1;
        }
    }
    return 0;
}

/* Table.store of draughts/engine/_table.py, on the slots' words: an entry
 * moved to the second slot is copied as it is (its key check holds), and
 * only the fields that decide are unpacked. */
static inline void tt_put(Search *s, uint64_t key, int depth, int score, int bound,
                          const Route *m) {
    Slot *bucket = &s->tt[bucket_of(s, key)];
    uint64_t w[2][4], keys[2];
    int used[2];
    /* The second slot is read only where the first is not key's and the
     * move kept may be there. */
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 4; j++) w[i][j] = word_get(&bucket[i].w[j]);
        keys[i] = w[i][0] ^ w[i][1] ^ w[i][2] ^ w[i][3];
        used[i] = (uint8_t)(w[i][2] >> 48);
        if (bound != UPPER || (used[0] && keys[0] == key)) break;
    }
    uint64_t move_hash = route_hash(m);
    uint64_t move = (uint64_t)m->origin | (uint64_t)m->dest << 8 | (uint64_t)m->crowned << 16 |
                    (uint64_t)m->ncaps << 24;
    if (bound == UPPER) { /* keep the replaced entry's move (Table.store) */
        int old = used[0] && keys[0] == key ? 0 : 1;
        if (used[old] && keys[old] == key) move_hash = w[old][1], move = w[old][3] & 0xffffffffu;
    }
    uint64_t w2 = (uint64_t)(uint32_t)score | (uint64_t)(uint16_t)depth << 32 | 1ull << 48 |
                  (uint64_t)bound << 56;
    uint64_t fresh[4] = {0, move_hash, w2, move | (uint64_t)s->generation << 32};
    fresh[0] = key ^ fresh[1] ^ fresh[2] ^ fresh[3];
    int generation = (uint8_t)(w[0][3] >> 32), old_depth = (int16_t)(uint16_t)(w[0][2] >> 32);
    Slot *to = &bucket[0];
    if (used[0] && keys[0] != key) {
        if (generation == s->generation && old_depth > depth) {
            to = &bucket[1];
        } else {
            for (int j = 0; j < 4; j++) word_set(&bucket[1].w[j], w[0][j]);
        }
    }
    for (int j = 0; j < 4; j++) word_set(&to->w[j], fresh[j]);
}

/* The key of the child that a step from origin to dest makes (as play
 * computes it; crowned: a man that crowns). */
static uint64_t step_key(const Rules *r, const Pos *p, uint64_t key, int origin, int dest,
                         int crowned) {
    int c = p->color;
    key ^= r->key_black;
    if (p->bb[c] & SQUARE_BIT(origin))
        return key ^ r->key_men[c][origin] ^
               (crowned ? r->key_kings[c][dest] : r->key_men[c][dest]);
    return key ^ r->key_kings[c][origin] ^ r->key_kings[c][dest];
}

/* Ask for the bucket of the child that the search is likely to try first
 * (the table's move; without one, the first killer if it looks playable),
 * where that move is a step, so that the bucket is read while this node
 * makes and orders its moves rather than when the child probes it; and
 * (move_loop) the next move's while a sibling is searched. The table's
 * first read was 11.4 % of the run's CPU samples (perf record -e
 * cpu-clock, benchmarks/native_speed.py --depth 11), 6.0 % with these; CPU
 * seconds to depth 11, 8 runs of each build in turns, median 1.175 before
 * and 1.116 after (0.95; faster in each pair, load average 2.6 to 2.8),
 * for 3,678 M instructions to depth 9 before and 3,707 M after (callgrind;
 * the same trees). Prefetched as each child is made, or by a full play of
 * the next sibling, the read came too late or cost more than it saved. */
static void prefetch_first(const Search *s, const Pos *p, uint64_t key, int ply,
                           const Entry *entry) {
    if (entry != NULL) {
        if (!entry->ncaps)
            tt_prefetch(s, step_key(s->r, p, key, entry->origin & (MAX_SQUARES - 1),
                                    entry->dest & (MAX_SQUARES - 1), entry->crowned));
        return;
    }
    if ((size_t)ply >= s->nkillers) return;
    uint32_t code = s->killers[ply][0];
    int c = p->color, origin = code >> 10 & (MAX_SQUARES - 1), dest = code & (MAX_SQUARES - 1);
    if (code == 0 || (int)(code >> 20) != c) return;
    bb_t occupied = p->bb[0] | p->bb[1] | p->bb[2] | p->bb[3];
    if (!((p->bb[c] | p->bb[2 + c]) & SQUARE_BIT(origin)) || (occupied & SQUARE_BIT(dest))) return;
    tt_prefetch(s, step_key(s->r, p, key, origin, dest, 0));
}

#endif
