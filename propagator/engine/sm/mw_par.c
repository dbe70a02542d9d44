/* Parallel McVitie-Wilson on CPU threads: each thread takes the next man from a shared
 * counter and carries him, and every man he displaces, until a free woman accepts.
 *
 * partner_rank[w] (rank of her partner, n = free) changes only by compare-and-swap to a
 * better rank, so a woman only trades up and the result is the man-optimal matching
 * whatever the interleaving. A man's next[] is touched only by the thread carrying him;
 * he is written before the CAS that installs him (release), and the CAS that displaces
 * him reads that value (acquire), so his next carrier sees it. */
#include "algos.h"
#include "deadline.h"
#include "parallel.h"
#include "prmatrix.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct tally {
  uint64_t proposals;
  char pad[56];
} tally;

typedef struct mw_shared {
  uint32_t n;
  const bb_id *men_prefs, *women_prefs;
  const uint32_t *rank;
  _Atomic uint32_t *partner_rank;
  uint32_t *next;
  _Atomic int64_t next_man; /* next man not yet taken by any thread */
  tally *tallies;
  double deadline;
  atomic_int stop;
} mw_shared;

static void carry_men(void *arg, int64_t begin, int64_t end, int tid) {
  (void)begin, (void)end;
  mw_shared *s = arg;
  const uint32_t n = s->n;
  uint64_t proposals = 0, checkpoint = BB_CLOCK_EVERY;
  for (;;) {
    int64_t entering = atomic_fetch_add_explicit(&s->next_man, 1, memory_order_relaxed);
    if (entering >= n) break;
    bb_id m = (bb_id)entering;
    for (;;) { /* the chain started by `entering` */
      const bb_id *list = s->men_prefs + (size_t)m * n;
      uint32_t k = s->next[m], start = k, mine, held;
      bb_id w;
      for (;;) {
        assert(k < n);
        w = list[k++];
        mine = s->rank[(size_t)w * n + m];
        held = atomic_load_explicit(&s->partner_rank[w], memory_order_relaxed);
        if (mine > held) continue;
        s->next[m] = k; /* before the CAS that may publish m as her partner */
        while (mine < held)
          if (atomic_compare_exchange_weak_explicit(&s->partner_rank[w], &held, mine, memory_order_acq_rel,
                                                    memory_order_relaxed))
            goto accepted;
      }
    accepted:
      proposals += k - start;
      if (proposals >= checkpoint) {
        checkpoint = proposals + BB_CLOCK_EVERY;
        if (atomic_load_explicit(&s->stop, memory_order_relaxed) || bb_past(s->deadline)) {
          atomic_store_explicit(&s->stop, 1, memory_order_relaxed);
          goto out;
        }
      }
      if (held == n) break;
      m = s->women_prefs[(size_t)w * n + held];
    }
  }
out:
  s->tallies[tid].proposals = proposals;
}

bb_status bb_mw_par(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                    bb_error *err) {
  const uint32_t n = (uint32_t)inst->n;
  int threads = bb_threads_for(opts, inst->n);
  double t0 = bb_now();
  uint32_t *rank;
  bb_status status = bb_rank_matrix_build(inst, threads, &rank, err);
  if (status != BB_OK) return status;
  double t1 = bb_now();
  stats->t_init = t1 - t0;

  mw_shared s = {.n = n,
                 .men_prefs = inst->men_prefs,
                 .women_prefs = inst->women_prefs,
                 .rank = rank,
                 .deadline = bb_deadline(opts)};
  s.partner_rank = malloc(n * sizeof *s.partner_rank);
  s.next = calloc(n, sizeof *s.next);
  s.tallies = calloc((size_t)threads, sizeof *s.tallies);
  if (!s.partner_rank || !s.next || !s.tallies) {
    status = bb_fail(err, BB_ERR_NOMEM, "mw-par: out of memory for %u men", n);
    goto done;
  }
  for (uint32_t w = 0; w < n; w++) atomic_init(&s.partner_rank[w], n);
  atomic_init(&s.next_man, 0);
  atomic_init(&s.stop, 0);
  /* One chunk per thread; each thread then pulls men from next_man. */
  bb_parallel_for(threads, threads, carry_men, &s);

  uint64_t proposals = 0;
  for (int t = 0; t < threads; t++) proposals += s.tallies[t].proposals;
  stats->proposals = proposals;
  if (atomic_load_explicit(&s.stop, memory_order_relaxed)) {
    status = bb_timeout(err, "mw-par", opts, proposals);
    goto done;
  }
  double t2 = bb_now();
  for (uint32_t w = 0; w < n; w++) {
    uint32_t r = atomic_load_explicit(&s.partner_rank[w], memory_order_relaxed);
    wife_of[inst->women_prefs[(size_t)w * n + r]] = w;
  }
  stats->t_solve = t2 - t1;
  stats->t_post = bb_now() - t2;
  snprintf(stats->path, sizeof stats->path, "cpu, %d threads", threads);
done:
  free(rank);
  free(s.partner_rank);
  free(s.next);
  free(s.tallies);
  return status;
}
