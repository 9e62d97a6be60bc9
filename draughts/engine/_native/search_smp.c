/* Lazy SMP: helper threads that search the main search's root at the same
 * time, each on its own copy of the position, line, killers, history and
 * quiet-leaf cache, all sharing the main search's transposition table
 * (search_table.h: entries checked by their key XOR their data, so that a
 * torn one is never used). What a helper stores there (deeper bounds and
 * best moves, reached in another order) is what the main search gains: its
 * own tree is the same search, only cut shorter. The main search's result
 * is the one played; a helper's is never read (it searched with a full
 * window and without the main search's root bookkeeping, and is at the
 * same or the next depth anyway).
 *
 * Each helper deepens from the main search's depth, an odd helper (the
 * first, third...) a ply ahead of it, so that two threads seldom search the
 * same depth's tree in the same order; when the main search overtakes a
 * helper (the table making it quick), the helper jumps to the main
 * search's depth. Scan 3.1 and Stockfish search with several threads in
 * this way (https://www.chessprogramming.org/Lazy_SMP).
 *
 * Helpers stop when the main search stops on a limit, when
 * helpers_interrupt (Search.stop, stop_helpers) tells them, at the main
 * search's deadline or node budget (of every thread's nodes), or past
 * max_depth; helpers_join waits for them, and the Search joins them before
 * it goes, so that none outlives the search it helps. Where there
 * are no threads (HAVE_THREADS unset: Windows, whose native core is not
 * built anyway) no helper starts and the search runs alone. */
#include "search.h"

#include <stdlib.h>

#ifdef HAVE_THREADS
#include <pthread.h>

/* A helper's stack: the search recurses a frame or two a ply (a few
 * hundred plies with the quiescence search), as deep as on the main thread,
 * whose stack is the process's; some C libraries give a new thread 128 KB. */
#define HELPER_STACK (8u << 20)

typedef struct {
    Search s;
    Helpers *pool;
    pthread_t id;
    int index; /* 0 for the first helper (the second thread) */
    Pos pos;
    uint64_t key;
    int reversible, max_depth, full_width, threats;
} Helper;
#endif

struct Helpers {
#ifdef HAVE_THREADS
    Helper *helpers;
#endif
    int count; /* running (or stopped, not yet joined) */
    SmpShared shared;
};

void helpers_main_depth(Helpers *pool, int depth) {
    if (pool != NULL) __atomic_store_n(&pool->shared.main_depth, depth, __ATOMIC_RELAXED);
}

unsigned long long helpers_nodes(const Helpers *pool) {
    return pool == NULL ? 0 : __atomic_load_n(&pool->shared.helper_nodes, __ATOMIC_RELAXED);
}

void helpers_reset_nodes(Helpers *pool) {
    if (pool != NULL) __atomic_store_n(&pool->shared.helper_nodes, 0, __ATOMIC_RELAXED);
}

#ifdef HAVE_THREADS
/* The next depth for a helper that completed done: the main search's (a
 * ply more on odd threads: the first helper, the third...), or done + 1 if
 * that is not beyond it. */
static int next_depth(const Helper *h, int done) {
    int ahead = h->index % 2 == 0;
    int depth = __atomic_load_n(&h->pool->shared.main_depth, __ATOMIC_RELAXED) + ahead;
    return depth > done ? depth : done + 1;
}

static void *helper_main(void *arg) {
    Helper *h = arg;
    Search *s = &h->s;
#if defined(__linux__) && defined(_GNU_SOURCE)
    /* Named for ps, debuggers and the tests, which check that none is left. */
    pthread_setname_np(pthread_self(), "draughts-help");
#endif
    for (int done = 0;;) {
        int depth = next_depth(h, done);
        if (depth > h->max_depth || __atomic_load_n(&h->pool->shared.halt, __ATOMIC_RELAXED))
            break;
        /* As Searcher.iterate sets them for each depth. */
        s->reductions = depth > h->full_width ? depth - h->full_width : 0;
        s->threat_extensions = h->threats;
        search_run(s, &h->pos, h->key, depth, -WIN - 1, WIN + 1, 0, h->reversible);
        if (s->stopped || s->failed) break;
        done = depth;
    }
    /* tick added the nodes by the thousand: the rest, for an exact sum. */
    __atomic_fetch_add(&h->pool->shared.helper_nodes, s->nodes % CHECK_EVERY, __ATOMIC_RELAXED);
    return NULL;
}

/* Make and start helper i of pool; 0, or -1 (nothing left to free). */
static int start_one(Helpers *pool, int i, const Search *main, const Pos *p, pthread_attr_t *attr) {
    Helper *h = &pool->helpers[i];
    if (search_init_helper(&h->s, main) < 0) {
        search_free_helper(&h->s);
        return -1;
    }
    h->pool = pool, h->index = i, h->pos = *p;
    h->s.smp = &pool->shared;
    /* A helper keeps to the main search's deadline and node budget (of
     * every thread's nodes) at once, whatever the main search's guard
     * depth: the main search may be searching on past them, its result the
     * one played. */
    h->s.enforce = 1, h->s.nodes = 0;
    if (pthread_create(&h->id, attr, helper_main, h) != 0) {
        search_free_helper(&h->s);
        return -1;
    }
    return 0;
}
#endif

int helpers_start(Helpers **poolp, Search *main, const Pos *p, uint64_t key, int reversible,
                  int max_depth, int full_width, int threats, int count) {
#ifdef HAVE_THREADS
    if (*poolp == NULL && (*poolp = calloc(1, sizeof **poolp)) == NULL) return -1;
    Helpers *pool = *poolp;
    pool->helpers = calloc((size_t)count, sizeof *pool->helpers);
    if (pool->helpers == NULL) return -1;
    __atomic_store_n(&pool->shared.main_depth, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&pool->shared.main_nodes, main->nodes, __ATOMIC_RELAXED);
    __atomic_store_n(&pool->shared.halt, 0, __ATOMIC_RELAXED);
    pthread_attr_t attr;
    int sized = pthread_attr_init(&attr) == 0;
    if (sized) pthread_attr_setstacksize(&attr, HELPER_STACK);
    for (int i = 0; i < count; i++) {
        Helper *h = &pool->helpers[i];
        h->key = key, h->reversible = reversible, h->max_depth = max_depth;
        h->full_width = full_width, h->threats = threats;
        /* Fewer helpers than asked where memory or threads run short. */
        if (start_one(pool, i, main, p, sized ? &attr : NULL) < 0) break;
        pool->count++;
    }
    if (sized) pthread_attr_destroy(&attr);
    if (pool->count) main->smp = &pool->shared;
    return pool->count;
#else
    (void)poolp, (void)main, (void)p, (void)key, (void)reversible;
    (void)max_depth, (void)full_width, (void)threats, (void)count;
    return 0;
#endif
}

void helpers_interrupt(Helpers *pool) {
    if (pool != NULL) __atomic_store_n(&pool->shared.halt, 1, __ATOMIC_RELAXED);
}

void helpers_join(Helpers *pool) {
#ifdef HAVE_THREADS
    helpers_interrupt(pool);
    for (int i = 0; pool != NULL && i < pool->count; i++) pthread_join(pool->helpers[i].id, NULL);
#else
    (void)pool;
#endif
}

void helpers_release(Helpers *pool, Search *main) {
    main->smp = NULL;
    if (pool == NULL) return;
#ifdef HAVE_THREADS
    for (int i = 0; i < pool->count; i++) search_free_helper(&pool->helpers[i].s);
    free(pool->helpers);
    pool->helpers = NULL;
#endif
    pool->count = 0;
}

int helpers_running(const Helpers *pool) { return pool != NULL && pool->count > 0; }

void helpers_free(Helpers *pool) { free(pool); }
