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
 * with the Python Table. Included by search.c only. */
#ifndef DRAUGHTS_NATIVE_SEARCH_TABLE_H
#define DRAUGHTS_NATIVE_SEARCH_TABLE_H

#include "search.h"

static inline uint64_t word_get(const uint64_t *w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }

static inline void word_set(uint64_t *w, uint64_t v) { __atomic_store_n(w, v, __ATOMIC_RELAXED); }

/* The entry in slot, or one with used 0 (empty, or torn by a writer). */
static inline Entry slot_read(const Slot *slot) {
    uint64_t w0 = word_get(&slot->w[0]), w1 = word_get(&slot->w[1]);
    uint64_t w2 = word_get(&slot->w[2]), w3 = word_get(&slot->w[3]);
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

static inline void slot_write(Slot *slot, const Entry *e) {
    uint64_t w2 = (uint64_t)(uint32_t)e->score | (uint64_t)(uint16_t)e->depth << 32 |
                  (uint64_t)e->used << 48 | (uint64_t)e->bound << 56;
    uint64_t w3 = (uint64_t)e->origin | (uint64_t)e->dest << 8 | (uint64_t)e->crowned << 16 |
                  (uint64_t)e->ncaps << 24 | (uint64_t)e->generation << 32;
    word_set(&slot->w[0], e->key ^ e->move_hash ^ w2 ^ w3);
    word_set(&slot->w[1], e->move_hash);
    word_set(&slot->w[2], w2);
    word_set(&slot->w[3], w3);
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

/* Whether the table holds key; its entry in *out. */
static inline int tt_get(const Search *s, uint64_t key, Entry *out) {
    const Slot *bucket = &s->tt[bucket_of(s, key)];
    for (int i = 0; i < 2; i++) {
        *out = slot_read(&bucket[i]);
        if (out->used && out->key == key) return 1;
    }
    return 0;
}

/* Table.store of draughts/engine/_table.py */
static inline void tt_put(Search *s, uint64_t key, int depth, int score, int bound,
                          const Route *m) {
    Slot *bucket = &s->tt[bucket_of(s, key)];
    Entry e[2] = {slot_read(&bucket[0]), slot_read(&bucket[1])};
    Entry fresh = {key, route_hash(m), score, (int16_t)depth, 1, (uint8_t)bound,
                   m->origin, m->dest, m->crowned, m->ncaps, s->generation};
    if (bound == UPPER) { /* keep the replaced entry's move (Table.store) */
        const Entry *old = e[0].used && e[0].key == key ? &e[0] : &e[1];
        if (old->used && old->key == key) {
            fresh.move_hash = old->move_hash, fresh.origin = old->origin, fresh.dest = old->dest;
            fresh.crowned = old->crowned, fresh.ncaps = old->ncaps;
        }
    }
    if (!e[0].used || e[0].key == key) {
        slot_write(&bucket[0], &fresh);
    } else if (e[0].generation == s->generation && e[0].depth > depth) {
        slot_write(&bucket[1], &fresh);
    } else {
        slot_write(&bucket[1], &e[0]);
        slot_write(&bucket[0], &fresh);
    }
}

#endif
