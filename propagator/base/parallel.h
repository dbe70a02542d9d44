/* Tiny pthreads helpers: a one-shot parallel for and a persistent pool for loops that
 * dispatch many short phases (round-based algorithms). */
#ifndef BB_PARALLEL_H
#define BB_PARALLEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs body over [0, count) split into `threads` contiguous chunks, chunk t on thread
 * t (the caller runs chunk 0); threads <= 1 runs inline. Returns when all are done. If
 * a thread cannot be started its chunk runs on the caller, so body must not wait for
 * other chunks. */
typedef void (*bb_range_fn)(void *ctx, int64_t begin, int64_t end, int tid);
void bb_parallel_for(int threads, int64_t count, bb_range_fn body, void *ctx);

/* A pool of threads - 1 parked workers plus the caller. */
typedef struct bb_pool bb_pool;

/* Starts as many workers as it can (possibly none); NULL only if out of memory. */
bb_pool *bb_pool_new(int threads);
void bb_pool_free(bb_pool *pool); /* accepts NULL */
/* Threads that actually take part (workers + the caller). */
int bb_pool_threads(const bb_pool *pool);
/* Runs body over [0, count) in blocks of `grain` handed out dynamically to the caller
 * (tid 0) and the workers (tid 1..threads-1). Not reentrant. */
void bb_pool_for(bb_pool *pool, int64_t count, int64_t grain, bb_range_fn body, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
