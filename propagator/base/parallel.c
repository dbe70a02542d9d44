/* pthreads helpers (the thread-count policy of the CPU algorithms, bb_threads_for, is the
 * engine's: engine/sm/sm_solve.c). */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- one-shot for */

typedef struct chunk {
  bb_range_fn body;
  void *ctx;
  int64_t begin, end;
  int tid;
} chunk;

static void *run_chunk(void *arg) {
  chunk *c = arg;
  c->body(c->ctx, c->begin, c->end, c->tid);
  return NULL;
}

void bb_parallel_for(int threads, int64_t count, bb_range_fn body, void *ctx) {
  if (count <= 0) return;
  if (threads > count) threads = (int)count;
  chunk *chunks = threads > 1 ? malloc((size_t)threads * sizeof *chunks) : NULL;
  pthread_t *ids = threads > 1 ? malloc((size_t)threads * sizeof *ids) : NULL;
  if (!chunks || !ids) {
    free(chunks);
    free(ids);
    body(ctx, 0, count, 0);
    return;
  }
  int64_t per = count / threads, extra = count % threads, begin = 0;
  for (int t = 0; t < threads; t++) {
    int64_t len = per + (t < extra);
    chunks[t] = (chunk){body, ctx, begin, begin + len, t};
    begin += len;
  }
  char *started = calloc((size_t)threads, 1);
  for (int t = 1; t < threads; t++)
    if (started && pthread_create(&ids[t], NULL, run_chunk, &chunks[t]) == 0) started[t] = 1;
  run_chunk(&chunks[0]);
  for (int t = 1; t < threads; t++) {
    if (started && started[t])
      pthread_join(ids[t], NULL);
    else
      run_chunk(&chunks[t]);
  }
  free(started);
  free(chunks);
  free(ids);
}

/* ---------------------------------------------------------------- pool */

typedef struct worker {
  bb_pool *pool;
  pthread_t id;
  int tid;
} worker;

struct bb_pool {
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  worker *workers;
  int started;         /* workers running */
  uint64_t generation; /* bumped once per bb_pool_for */
  int busy;            /* workers still inside the current job */
  int quit;
  /* the current job */
  bb_range_fn body;
  void *ctx;
  int64_t count, grain;
  _Atomic int64_t cursor;
};

static void run_blocks(bb_pool *pool, int tid) {
  for (;;) {
    int64_t begin = atomic_fetch_add_explicit(&pool->cursor, pool->grain, memory_order_relaxed);
    if (begin >= pool->count) return;
    int64_t end = begin + pool->grain < pool->count ? begin + pool->grain : pool->count;
    pool->body(pool->ctx, begin, end, tid);
  }
}

static void *worker_main(void *arg) {
  worker *w = arg;
  bb_pool *pool = w->pool;
  uint64_t seen = 0;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    while (pool->generation == seen && !pool->quit) pthread_cond_wait(&pool->wake, &pool->lock);
    if (pool->quit) break;
    seen = pool->generation;
    pthread_mutex_unlock(&pool->lock);
    run_blocks(pool, w->tid);
    pthread_mutex_lock(&pool->lock);
    if (--pool->busy == 0) pthread_cond_signal(&pool->done);
  }
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

bb_pool *bb_pool_new(int threads) {
  bb_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return NULL;
  int wanted = threads > 1 ? threads - 1 : 0;
  if (wanted) {
    pool->workers = calloc((size_t)wanted, sizeof *pool->workers);
    if (!pool->workers) {
      free(pool);
      return NULL;
    }
  }
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->done, NULL);
  atomic_init(&pool->cursor, 0);
  for (int i = 0; i < wanted; i++) {
    worker *w = &pool->workers[pool->started];
    w->pool = pool;
    w->tid = pool->started + 1;
    if (pthread_create(&w->id, NULL, worker_main, w) != 0) break;
    pool->started++;
  }
  return pool;
}

void bb_pool_free(bb_pool *pool) {
  if (!pool) return;
  pthread_mutex_lock(&pool->lock);
  pool->quit = 1;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);
  for (int i = 0; i < pool->started; i++) pthread_join(pool->workers[i].id, NULL);
  pthread_cond_destroy(&pool->done);
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->lock);
  free(pool->workers);
  free(pool);
}

int bb_pool_threads(const bb_pool *pool) { return pool->started + 1; }

void bb_pool_for(bb_pool *pool, int64_t count, int64_t grain, bb_range_fn body, void *ctx) {
  if (count <= 0) return;
  if (grain < 1) grain = 1;
  if (pool->started == 0 || count <= grain) {
    body(ctx, 0, count, 0);
    return;
  }
  pthread_mutex_lock(&pool->lock);
  pool->body = body;
  pool->ctx = ctx;
  pool->count = count;
  pool->grain = grain;
  atomic_store_explicit(&pool->cursor, 0, memory_order_relaxed);
  pool->busy = pool->started;
  pool->generation++;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);
  run_blocks(pool, 0);
  pthread_mutex_lock(&pool->lock);
  while (pool->busy > 0) pthread_cond_wait(&pool->done, &pool->lock);
  pthread_mutex_unlock(&pool->lock);
}
