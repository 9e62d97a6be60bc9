/* VectorEnv's step threads: ml_step.c steps the games (ml_step_games),
 * chunks of them on each thread (ml_pool_run in ml_step.h).
 *
 * The games are cut into chunks of CHUNK, and the chunks into one range per
 * thread. A thread claims the chunks of its own range first (so that a game
 * stays in the same core's cache from one step to the next), then those the
 * others have not claimed yet: the caller does not wait for a thread that
 * wakes late, it steps that thread's games itself. Which thread steps a game
 * changes nothing in its results (each game's step reads and writes only
 * that game's state and rows).
 *
 * The threads are kept between steps and spin a while before they sleep:
 * waking a sleeping thread (a condition variable) took longer than stepping
 * 256 International games on two threads (2 threads: 104 us a step of 256
 * games against 65 us on one, 2026-12-05; see the changelog). */
#include "ml_step.h"

#ifdef HAVE_THREADS
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

enum {
    CHUNK = 32, /* games a claim takes */
    /* How long a thread spins for the next step, and the caller for the
     * others to finish, before they sleep: longer than the Python between
     * two steps of random self-play (sample(), step()'s checks: about 10
     * us), short beside a policy that thinks. */
    SPIN_NS = 50000,
    /* After that long spinning, a spinning thread yields its processor at
     * every turn: on a machine with more work than processors, the other
     * thread it waits for (or another program) runs meanwhile. */
    YIELD_NS = 2000,
};

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RELAX() _mm_pause()
#elif defined(__aarch64__)
#define RELAX() __asm__ __volatile__("yield")
#else
#define RELAX() ((void)0)
#endif

/* The fields one thread writes and others read, each on its own cache line. */
#define LINE _Alignas(64)

typedef struct Pool {
    /* Per range: the round (high 32 bits) and the next chunk to claim. A
     * claim is a compare-and-swap that holds only in the round it names. */
    struct {
        LINE _Atomic uint64_t ticket;
    } ranges[MAX_THREADS];
    LINE _Atomic uint32_t round; /* rounds published: the threads wait for it to move */
    LINE _Atomic int done;       /* chunks stepped this round */
    _Atomic int status;          /* the round's first failure, or 0 */
    LINE _Atomic int sleepers;   /* threads asleep on go (the caller must wake them) */
    _Atomic int waiting;         /* the caller asleep on finished */
    _Atomic int quit;
    LINE const Batch *batch; /* this round's: read after a claim of it */
    int first[MAX_THREADS + 1]; /* range t: chunks first[t] .. first[t + 1] */
    int nranges, nchunks, workers;
    pthread_mutex_t lock;
    pthread_cond_t go, finished;
    pthread_t ids[MAX_THREADS];
    pid_t pid; /* a forked child has none of the threads: it starts its own */
    struct Worker {
        struct Pool *pool;
        int index; /* its range: the caller's is 0 */
    } args[MAX_THREADS];
} Pool;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* One turn of a wait that began at *start (0: not yet read, at the first
 * turns): whether to go on spinning (SPIN_NS not spent). */
static int spin(long long *start, int spins) {
    RELAX();
    if (spins % 64) return 1;
    long long t = now_ns();
    if (*start == 0) *start = t;
    if (t - *start > YIELD_NS) sched_yield();
    return t - *start < SPIN_NS;
}

/* A chunk of range r in round, or -1: the range is spent or the round over. */
static int claim(Pool *pool, int r, uint32_t round) {
    uint64_t t = atomic_load_explicit(&pool->ranges[r].ticket, memory_order_relaxed);
    for (;;) {
        if ((uint32_t)(t >> 32) != round || (int)(uint32_t)t >= pool->first[r + 1]) return -1;
        if (atomic_compare_exchange_weak_explicit(&pool->ranges[r].ticket, &t, t + 1,
                                                  memory_order_acq_rel, memory_order_relaxed))
            return (int)(uint32_t)t;
    }
}

/* Step the chunks of round that thread self can claim, its own range's first. */
static void take_part(Pool *pool, int self, uint32_t round) {
    for (int k = 0; k < pool->nranges; k++) {
        int r = (self + k) % pool->nranges, chunk;
        while ((chunk = claim(pool, r, round)) >= 0) {
            const Batch *b = pool->batch; /* round's: it cannot end before this chunk is done */
            if (b->backwards) chunk = pool->first[r] + pool->first[r + 1] - 1 - chunk;
            int from = chunk * CHUNK, to = from + CHUNK < b->n ? from + CHUNK : b->n;
            RouteList routes = b->e->scratch[self];
            int status = from < to ? ml_step_games(b, from, to, &routes) : 0;
            b->e->scratch[self] = routes;
            int none = 0;
            if (status) atomic_compare_exchange_strong(&pool->status, &none, status);
            if (atomic_fetch_add(&pool->done, 1) + 1 == pool->nchunks &&
                atomic_load(&pool->waiting)) {
                pthread_mutex_lock(&pool->lock);
                pthread_cond_signal(&pool->finished);
                pthread_mutex_unlock(&pool->lock);
            }
        }
    }
}

static void *work(void *arg) {
    Pool *pool = ((struct Worker *)arg)->pool;
    int self = ((struct Worker *)arg)->index;
    uint32_t seen = 0;
    for (;;) {
        long long since = 0;
        for (int spins = 1; atomic_load_explicit(&pool->round, memory_order_acquire) == seen &&
                            !atomic_load(&pool->quit);
             spins++) {
            if (!spin(&since, spins)) break;
        }
        if (atomic_load(&pool->round) == seen && !atomic_load(&pool->quit)) {
            /* Asleep: counted first, so that the caller's next round, published
             * before it reads sleepers, is seen here or wakes this thread. */
            pthread_mutex_lock(&pool->lock);
            atomic_fetch_add(&pool->sleepers, 1);
            while (atomic_load(&pool->round) == seen && !atomic_load(&pool->quit))
                pthread_cond_wait(&pool->go, &pool->lock);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->lock);
        }
        if (atomic_load(&pool->quit)) break;
        seen = atomic_load_explicit(&pool->round, memory_order_acquire);
        take_part(pool, self, seen);
    }
    return NULL;
}

/* e's pool: a thread for each range of its games but the caller's (at most
 * e->threads - 1, a range of 32 games at least), or NULL when there is no
 * memory. */
static Pool *start_pool(VecEnvObject *e) {
    if (e->pool != NULL && e->pool->pid == getpid()) return e->pool;
    e->pool = NULL; /* after fork(): the parent's threads are not here (its pool is left) */
    void *memory = NULL;
    if (posix_memalign(&memory, 64, sizeof(Pool)) != 0) return NULL;
    Pool *pool = memset(memory, 0, sizeof(Pool));
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->go, NULL);
    pthread_cond_init(&pool->finished, NULL);
    pool->pid = getpid();
    pool->nchunks = (e->num_envs + CHUNK - 1) / CHUNK;
    int most = e->threads < e->num_envs / CHUNK ? e->threads : e->num_envs / CHUNK;
    pool->nranges = most < 1 ? 1 : most;
    for (int r = 0; r <= pool->nranges; r++)
        pool->first[r] = (int)((long)pool->nchunks * r / pool->nranges);
    for (int w = 1; w < pool->nranges; w++) {
        pool->args[w] = (struct Worker){pool, w};
        if (pthread_create(&pool->ids[pool->workers], NULL, work, &pool->args[w]) != 0) break;
        pool->workers++; /* a range without its thread is stepped by the others */
    }
    e->pool = pool;
    return pool;
}

void ml_pool_free(VecEnvObject *e) {
    Pool *pool = e->pool;
    e->pool = NULL;
    if (pool == NULL || pool->pid != getpid()) return;
    pthread_mutex_lock(&pool->lock);
    atomic_store(&pool->quit, 1);
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->lock);
    for (int w = 0; w < pool->workers; w++) pthread_join(pool->ids[w], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->go);
    pthread_cond_destroy(&pool->finished);
    free(pool);
}

int ml_pool_run(VecEnvObject *e, const Batch *b) {
    Pool *pool = e->threads > 1 && e->num_envs >= 2 * CHUNK ? start_pool(e) : NULL;
    if (pool == NULL || pool->workers == 0) {
        RouteList routes = e->scratch[0];
        int status = ml_step_games(b, 0, b->n, &routes);
        e->scratch[0] = routes;
        return status;
    }
    /* Publish the round: its batch and tickets before the round itself (the
     * threads read them after they see it, or after a claim of it). */
    uint32_t round = atomic_load_explicit(&pool->round, memory_order_relaxed) + 1;
    pool->batch = b;
    atomic_store_explicit(&pool->done, 0, memory_order_relaxed);
    atomic_store_explicit(&pool->status, 0, memory_order_relaxed);
    for (int r = 0; r < pool->nranges; r++)
        atomic_store_explicit(&pool->ranges[r].ticket,
                              (uint64_t)round << 32 | (uint32_t)pool->first[r],
                              memory_order_release);
    atomic_store(&pool->round, round);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->lock);
        pthread_cond_broadcast(&pool->go);
        pthread_mutex_unlock(&pool->lock);
    }
    take_part(pool, 0, round);
    /* Every chunk is claimed: wait for those still being stepped. */
    long long since = 0;
    for (int spins = 1; atomic_load_explicit(&pool->done, memory_order_acquire) < pool->nchunks;
         spins++) {
        if (!spin(&since, spins)) break;
    }
    if (atomic_load(&pool->done) < pool->nchunks) {
        pthread_mutex_lock(&pool->lock);
        atomic_store(&pool->waiting, 1);
        while (atomic_load(&pool->done) < pool->nchunks)
            pthread_cond_wait(&pool->finished, &pool->lock);
        atomic_store(&pool->waiting, 0);
        pthread_mutex_unlock(&pool->lock);
    }
    return atomic_load(&pool->status);
}
#else
int ml_pool_run(VecEnvObject *e, const Batch *b) {
    return ml_step_games(b, 0, b->n, &e->scratch[0]);
}

void ml_pool_free(VecEnvObject *e) { (void)e; }
#endif
