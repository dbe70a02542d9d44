/* Round-based parallel Gale-Shapley on CPU threads.
 *
 * Each round every free man proposes to the next woman on his list who might accept him
 * (one whose best offer so far is worse), lowering her `best` rank with an atomic min.
 * After a barrier the round is resolved: the proposer whose rank equals her `best` is
 * her partner, the other proposers and the partner he displaced are the next round's
 * free men. Rejections are only ever by a woman holding a better offer, so any schedule
 * yields the man-optimal matching; the thread count changes the order, not the result. */
#include "algos.h"
#include "deadline.h"
#include "parallel.h"
#include "prmatrix.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/* A round with fewer free men runs on the calling thread: waking the pool costs more. */
#define PARALLEL_MIN_FREE 256
#define GRAIN 64

/* Per-thread proposal count, a cache line each. */
typedef struct tally {
  uint64_t proposals, checkpoint;
  char pad[48];
} tally;

typedef struct gs_round {
  uint32_t n;
  const bb_id *men_prefs, *women_prefs;
  const uint32_t *rank;
  _Atomic uint32_t *best; /* best rank proposed to each woman so far, n = none */
  uint32_t *partner_rank; /* rank of her partner as of the last resolve, n = none */
  uint32_t *next;         /* per man: position after the woman he proposed to last */
  const bb_id *free_men;  /* this round's proposers */
  bb_id *next_free;       /* next round's */
  _Atomic int64_t next_free_count;
  tally *tallies; /* per thread */
  double deadline;
  atomic_int stop;
} gs_round;

static void propose(void *arg, int64_t begin, int64_t end, int tid) {
  gs_round *r = arg;
  const uint32_t n = r->n;
  uint64_t proposals = r->tallies[tid].proposals;
  for (int64_t i = begin; i < end; i++) {
    bb_id m = r->free_men[i];
    const bb_id *list = r->men_prefs + (size_t)m * n;
    uint32_t k = r->next[m];
    for (;;) {
      assert(k < n);
      bb_id w = list[k++];
      uint32_t mine = r->rank[(size_t)w * n + m];
      uint32_t best = atomic_load_explicit(&r->best[w], memory_order_relaxed);
      while (mine < best)
        if (atomic_compare_exchange_weak_explicit(&r->best[w], &best, mine, memory_order_relaxed, memory_order_relaxed))
          goto proposed;
    }
  proposed:
    proposals += k - r->next[m];
    r->next[m] = k;
    if (proposals >= r->tallies[tid].checkpoint) {
      r->tallies[tid].checkpoint = proposals + BB_CLOCK_EVERY;
      if (atomic_load_explicit(&r->stop, memory_order_relaxed) || bb_past(r->deadline)) {
        atomic_store_explicit(&r->stop, 1, memory_order_relaxed);
        break;
      }
    }
  }
  r->tallies[tid].proposals = proposals;
}

static void push_free(gs_round *r, bb_id m) {
  int64_t at = atomic_fetch_add_explicit(&r->next_free_count, 1, memory_order_relaxed);
  r->next_free[at] = m;
}

static void resolve(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  gs_round *r = arg;
  const size_t n = r->n;
  for (int64_t i = begin; i < end; i++) {
    bb_id m = r->free_men[i];
    bb_id w = r->men_prefs[(size_t)m * n + r->next[m] - 1];
    uint32_t mine = r->rank[(size_t)w * n + m];
    if (atomic_load_explicit(&r->best[w], memory_order_relaxed) != mine) {
      push_free(r, m);
      continue;
    }
    /* m is w's only winner this round, so only this thread touches partner_rank[w]. */
    uint32_t old = r->partner_rank[w];
    r->partner_rank[w] = mine;
    if (old != n) push_free(r, r->women_prefs[(size_t)w * n + old]);
  }
}

bb_status bb_gs_par(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                    bb_error *err) {
  const uint32_t n = (uint32_t)inst->n;
  int threads = bb_threads_for(opts, inst->n);
  double t0 = bb_now();
  uint32_t *rank;
  bb_status status = bb_rank_matrix_build(inst, threads, &rank, err);
  if (status != BB_OK) return status;
  double t1 = bb_now();
  stats->t_init = t1 - t0;

  gs_round r = {.n = n,
                .men_prefs = inst->men_prefs,
                .women_prefs = inst->women_prefs,
                .rank = rank,
                .deadline = bb_deadline(opts)};
  r.best = malloc(n * sizeof *r.best);
  r.partner_rank = malloc(n * sizeof *r.partner_rank);
  r.next = calloc(n, sizeof *r.next);
  bb_id *lists[2] = {malloc(n * sizeof(bb_id)), malloc(n * sizeof(bb_id))};
  r.tallies = calloc((size_t)threads, sizeof *r.tallies);
  bb_pool *pool = threads > 1 ? bb_pool_new(threads) : NULL;
  if (!r.best || !r.partner_rank || !r.next || !lists[0] || !lists[1] || !r.tallies || (threads > 1 && !pool)) {
    status = bb_fail(err, BB_ERR_NOMEM, "gs-par: out of memory for %u men", n);
    goto done;
  }
  atomic_init(&r.stop, 0);
  for (int t = 0; t < threads; t++) r.tallies[t].checkpoint = BB_CLOCK_EVERY;
  for (uint32_t i = 0; i < n; i++) {
    atomic_init(&r.best[i], n);
    r.partner_rank[i] = n;
    lists[0][i] = i;
  }
  int64_t free_count = n;
  uint64_t rounds = 0;
  for (int cur = 0; free_count > 0; cur ^= 1, rounds++) {
    r.free_men = lists[cur];
    r.next_free = lists[cur ^ 1];
    atomic_store_explicit(&r.next_free_count, 0, memory_order_relaxed);
    if (pool && free_count >= PARALLEL_MIN_FREE) {
      bb_pool_for(pool, free_count, GRAIN, propose, &r);
      if (atomic_load_explicit(&r.stop, memory_order_relaxed)) break;
      bb_pool_for(pool, free_count, GRAIN, resolve, &r);
    } else {
      propose(&r, 0, free_count, 0);
      if (atomic_load_explicit(&r.stop, memory_order_relaxed)) break;
      resolve(&r, 0, free_count, 0);
    }
    free_count = atomic_load_explicit(&r.next_free_count, memory_order_relaxed);
  }
  uint64_t proposals = 0;
  for (int t = 0; t < threads; t++) proposals += r.tallies[t].proposals;
  stats->proposals = proposals;
  if (atomic_load_explicit(&r.stop, memory_order_relaxed)) {
    status = bb_timeout(err, "gs-par", opts, proposals);
    goto done;
  }
  double t2 = bb_now();
  for (uint32_t w = 0; w < n; w++) wife_of[inst->women_prefs[(size_t)w * n + r.partner_rank[w]]] = w;
  stats->t_solve = t2 - t1;
  stats->t_post = bb_now() - t2;
  snprintf(stats->path, sizeof stats->path, "cpu, %d threads, %llu rounds", pool ? bb_pool_threads(pool) : 1,
           (unsigned long long)rounds);
done:
  bb_pool_free(pool);
  free(rank);
  free(r.best);
  free(r.partner_rank);
  free(r.next);
  free(lists[0]);
  free(lists[1]);
  free(r.tallies);
  return status;
}
