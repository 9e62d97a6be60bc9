/* VectorEnv's step threads: ml_step.c steps the games, a slice of them on
 * each thread (ml_pool_run in ml_step.h). */
#include "ml_step.h"

#ifdef HAVE_THREADS
#include <unistd.h>

/* The threads that step with the caller's: started at the first step on
 * more than one thread and kept, each waiting for the next batch. Starting
 * and joining threads at every step cost about 50 microseconds of CPU a
 * call, a quarter of the stepping of 256 International games; a wake-up is
 * a few (benchmarks/ml.py's 2-thread row; see the changelog). */
typedef struct Pool {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    pthread_t ids[MAX_THREADS];
    int workers, quit, pending;
    unsigned long round; /* batches handed out so far */
    StepPart *parts;         /* this batch: worker w steps parts[w + 1] when w + 1 < nparts */
    int nparts;
    pid_t pid; /* a forked child has none of the threads: it starts its own */
    struct Worker *args; /* each thread's Worker */
} Pool;

typedef struct Worker {
    Pool *pool;
    int index;
} Worker;

static void *work(void *arg) {
    Pool *pool = ((Worker *)arg)->pool;
    int index = ((Worker *)arg)->index;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->quit && pool->round == seen) pthread_cond_wait(&pool->go, &pool->lock);
        if (pool->quit) break;
        seen = pool->round;
        StepPart *part = index + 1 < pool->nparts ? &pool->parts[index + 1] : NULL;
        pthread_mutex_unlock(&pool->lock);
        if (part != NULL) ml_step_part(part);
        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0) pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* e's pool: a thread for each slice of its games but the caller's (at most
 * e->threads - 1, each slice 32 games at least; fewer if some do not
 * start), or NULL when there is no memory. */
static Pool *start_pool(VecEnvObject *e) {
    if (e->pool != NULL && e->pool->pid == getpid()) return e->pool;
    e->pool = NULL; /* after fork(): the parent's threads are not here (its pool is left) */
    Pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL) return NULL;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->go, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->pid = getpid();
    Worker *args = malloc((size_t)MAX_THREADS * sizeof *args);
    if (args == NULL) {
        free(pool);
        return NULL;
    }
    pool->args = args;
    int most = e->threads < e->num_envs / 32 ? e->threads : e->num_envs / 32;
    for (int w = 0; w < most - 1; w++) {
        args[w] = (Worker){pool, w};
        if (pthread_create(&pool->ids[w], NULL, work, &args[w]) != 0) break;
        pool->workers++;
    }
    e->pool = pool;
    return pool;
}

void ml_pool_free(VecEnvObject *e) {
    Pool *pool = e->pool;
    e->pool = NULL;
    if (pool == NULL || pool->pid != getpid()) return;
    pthread_mutex_lock(&pool->lock);
    pool->quit = 1;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->lock);
    for (int w = 0; w < pool->workers; w++) pthread_join(pool->ids[w], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->go);
    pthread_cond_destroy(&pool->done);
    free(pool->args);
    free(pool);
}

void ml_pool_run(VecEnvObject *e, StepPart *parts, int n) {
    Pool *pool = n > 1 ? start_pool(e) : NULL;
    int helped = pool ? pool->workers + 1 : 1; /* parts the pool's threads take */
    if (helped > n) helped = n;
    if (pool) {
        pthread_mutex_lock(&pool->lock);
        pool->parts = parts;
        pool->nparts = helped;
        pool->pending = pool->workers;
        pool->round++;
        pthread_cond_broadcast(&pool->go);
        pthread_mutex_unlock(&pool->lock);
    }
    ml_step_part(&parts[0]);
    for (int t = helped; t < n; t++) ml_step_part(&parts[t]); /* a thread did not start */
    if (pool) {
        pthread_mutex_lock(&pool->lock);
        while (pool->pending > 0) pthread_cond_wait(&pool->done, &pool->lock);
        pthread_mutex_unlock(&pool->lock);
    }
}
#else
void ml_pool_run(VecEnvObject *e, StepPart *parts, int n) {
    (void)e;
    for (int t = 0; t < n; t++) ml_step_part(&parts[t]);
}

void ml_pool_free(VecEnvObject *e) { (void)e; }
#endif
