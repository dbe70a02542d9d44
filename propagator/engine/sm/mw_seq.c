/* McVitie-Wilson ([McVitie 1971], as [Manne 2016] describes it): men enter one at a time; a
 * rejected or displaced man proposes again at once, so the matching of the men seen so far is
 * always complete. This is queue Gale-Shapley with the queue replaced by a stack,
 * written as a chain that carries one man at a time. */
#include "algos.h"
#include "deadline.h"
#include "prmatrix.h"

#include <stdio.h>
#include <stdlib.h>

bb_status bb_mw_seq(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                    bb_error *err) {
  const uint32_t n = (uint32_t)inst->n;
  const bb_id *men_prefs = inst->men_prefs;
  double deadline = bb_deadline(opts), t0 = bb_now();
  uint32_t *rank;
  bb_status status = bb_rank_matrix_build(inst, opts->threads, &rank, err);
  if (status != BB_OK) return status;
  double t1 = bb_now();
  stats->t_init = t1 - t0;

  bb_id *suitor = malloc(n * sizeof *suitor); /* n = none */
  uint32_t *next = calloc(n, sizeof *next);
  if (!suitor || !next) {
    status = bb_fail(err, BB_ERR_NOMEM, "mw-seq: out of memory for %u men", n);
    goto done;
  }
  for (uint32_t w = 0; w < n; w++) suitor[w] = n;

  uint64_t proposals = 0, checkpoint = BB_CLOCK_EVERY;
  double reported = t0;
  for (bb_id entering = 0; entering < n; entering++) {
    bb_id u = entering;
    for (;;) {
      const bb_id *list = men_prefs + (size_t)u * n;
      uint32_t k = next[u];
      bb_id w;
      for (;;) {
        w = list[k++];
        bb_id s = suitor[w];
        const uint32_t *w_rank = rank + (size_t)w * n;
        if (s == n || w_rank[u] < w_rank[s]) break;
      }
      proposals += k - next[u];
      next[u] = k;
      bb_id displaced = suitor[w];
      suitor[w] = u;
      if (proposals >= checkpoint) {
        checkpoint = proposals + BB_CLOCK_EVERY;
        bb_progress_tick(opts, "proposals", proposals, &reported);
        if (bb_past(deadline)) {
          status = bb_timeout(err, "mw-seq", opts, proposals);
          goto done;
        }
      }
      if (displaced == n) break;
      u = displaced;
    }
  }
  double t2 = bb_now();
  for (uint32_t w = 0; w < n; w++) wife_of[suitor[w]] = w;
  stats->t_solve = t2 - t1;
  stats->t_post = bb_now() - t2;
  stats->proposals = proposals;
  snprintf(stats->path, sizeof stats->path, "cpu");
done:
  free(rank);
  free(suitor);
  free(next);
  return status;
}
