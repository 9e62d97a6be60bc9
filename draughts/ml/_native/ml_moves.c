/* A VectorEnv game's legal moves with their action indices (the index of
 * draughts/ml/actions.py), sorted by index: the captures from the core's
 * generator, through its C API. */
#include "ml_step.h"

typedef struct {
    int base, n;
    uint8_t key[MAX_SQUARES]; /* the captured squares' numbers, sorted */
} Ranked;

static int compare_ranked(const Ranked *a, const Ranked *b) {
    if (a->base != b->base) return a->base < b->base ? -1 : 1;
    for (int i = 0; i < a->n && i < b->n; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i] ? -1 : 1;
    return (a->n > b->n) - (a->n < b->n);
}

/* Order the moves by (base, captured squares) and give every move of a
 * pair but the first an index in the extra block (actions.py's indexed):
 * the rare case, so it may take its time. */
static int rank_shared(const VecEnvObject *e, Game *g, const int *frame) {
    int n = g->nmoves;
    Ranked *r = malloc((size_t)n * sizeof *r);
    int *order = malloc((size_t)n * sizeof *order);
    Legal *sorted = malloc((size_t)n * sizeof *sorted);
    if (r == NULL || order == NULL || sorted == NULL) {
        free(r), free(order), free(sorted);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const Legal *m = &g->moves[i];
        r[i].base = m->action;
        r[i].n = 0;
        for (bb_t c = m->captured; c; c &= c - 1) {
            int number = e->core->number[low_bit(c)];
            int v = frame ? frame[number] : number, j = r[i].n++;
            while (j > 0 && r[i].key[j - 1] > v) {
                r[i].key[j] = r[i].key[j - 1];
                j--;
            }
            r[i].key[j] = (uint8_t)v;
        }
        int j = i;
        while (j > 0 && compare_ranked(&r[order[j - 1]], &r[i]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    int w = 0, extra = e->nsq * e->nsq, k = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || r[order[i]].base != r[order[i - 1]].base) sorted[w++] = g->moves[order[i]];
    for (int i = 1; i < n; i++) {
        if (r[order[i]].base != r[order[i - 1]].base) continue;
        sorted[w] = g->moves[order[i]];
        sorted[w++].action = extra + k++;
    }
    memcpy(g->moves, sorted, (size_t)n * sizeof *sorted);
    free(r), free(order), free(sorted);
    return k > e->nsq * e->nsq ? -2 : 0;
}

/* Sorting moves by action: up to RANKED of them (most positions), each
 * goes straight to its rank, the count of smaller keys (the action above
 * the route's place), with no branch on the data. ml_generate's own
 * instructions (the generator's aside) were 687 a step with an insertion
 * sort of the 32-byte moves and the action worked out from the square
 * numbers, 550 this way with the actions' parts from tables (callgrind,
 * International random self-play, 256 games, 2026-12-05). */
enum { RANKED = 16 };

#ifdef __SSE2__
#include <emmintrin.h>
/* How many of keys[0 .. width) are below key, four at a time (the
 * compiler does not vectorise the loop below by itself); width, a constant
 * 8 or 16, unrolls it. */
static inline int rank_of(const int32_t *keys, int width, int32_t key) {
    __m128i k = _mm_set1_epi32(key), sum = _mm_setzero_si128();
    for (int j = 0; j < width; j += 4)
        sum = _mm_sub_epi32(sum, _mm_cmpgt_epi32(k, _mm_loadu_si128((const __m128i *)(keys + j))));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
    return _mm_cvtsi128_si32(sum);
}
#else
static inline int rank_of(const int32_t *keys, int width, int32_t key) {
    int rank = 0;
    for (int j = 0; j < width; j++) rank += keys[j] < key;
    return rank;
}
#endif

static Legal legal(const Route *route, int32_t action) {
    return (Legal){route->captured, action, route->origin, route->dest, route->crowned,
                   route->ncaps > 0};
}

/* g's legal moves, sorted by action index. -1 out of memory, -2 when more
 * moves share a pair than the extra block holds. */
int ml_generate(const VecEnvObject *e, Game *g, RouteList *l) {
    const Rules *r = &e->core->rules;
    int c = g->turn;
    Side s = {g->bb[c], g->bb[2 + c], g->bb[1 - c], g->bb[3 - c]};
    l->len = 0;
    long n = ml_core->gen_captures(r, c, &s, 0, l);
    int captures = n != 0;
    if (n == 0) {
        bb_t frozen = 0;
        if (e->king_limit && g->kn[c] >= e->king_limit && g->bb[c]) frozen = BIT(g->ksq[c]);
        n = ml_core->gen_steps(r, c, &s, frozen, l);
    }
    if (n < 0 || ml_grow((void **)&g->moves, &g->capmoves, (int)n, sizeof(Legal)) < 0) return -1;
    const int *frame = e->perspective && c == 1 ? e->turned : NULL;
    /* A move's action is its origin's part plus its destination's, each
     * read from a table per side to move. */
    const int *origins = e->origin_part[frame != NULL], *dests = e->dest_part[frame != NULL];
    if (n <= RANKED) {
        int32_t keys[RANKED], actions[RANKED];
        memset(keys, 0x7F, sizeof keys); /* 0x7F7F7F7F: above every key, in no rank */
        for (int i = 0; i < n; i++) {
            actions[i] = origins[l->items[i].origin] + dests[l->items[i].dest];
            keys[i] = actions[i] * RANKED + i;
        }
        /* Keys past n are above every key: 8 of them compared where they hold n. */
        for (int i = 0; n <= 8 && i < n; i++)
            g->moves[rank_of(keys, 8, keys[i])] = legal(&l->items[i], actions[i]);
        for (int i = 0; n > 8 && i < n; i++)
            g->moves[rank_of(keys, RANKED, keys[i])] = legal(&l->items[i], actions[i]);
    } else {
        for (long i = 0; i < n; i++) {
            Legal m = legal(&l->items[i], origins[l->items[i].origin] + dests[l->items[i].dest]);
            long j = i; /* insertion by action */
            for (; j > 0 && g->moves[j - 1].action > m.action; j--) g->moves[j] = g->moves[j - 1];
            g->moves[j] = m;
        }
    }
    g->nmoves = (int)n;
    /* Steps have a pair each: only captures may share one. */
    int shared = 0;
    for (long i = 1; captures && i < n; i++) shared |= g->moves[i].action == g->moves[i - 1].action;
    return shared ? rank_shared(e, g, frame) : 0;
}
