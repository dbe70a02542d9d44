/* LA-Seq-CPU ([Bamboo-SMP] Algorithm 1): PRMatrix initialisation, LAProp for every man,
 * and the matching read off PartnerRank. */
#include "algos.h"
#include "deadline.h"
#include "la.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct host_rows {
  const bb_prnode *pr;
  size_t n;
  const bb_la_state *st;
  double deadline;
  uint64_t checkpoint;
  int timed_out;
  const bb_solve_opts *opts;
  double reported;
} host_rows;

/* Row source over the host PRMatrix; it also enforces the time limit, because a single
 * LAProp chain can run for O(n^2) proposals. */
static const bb_prnode *host_row(void *arg, bb_id m, uint32_t from, bb_error *err) {
  host_rows *h = arg;
  if (h->st->proposals >= h->checkpoint) {
    h->checkpoint = h->st->proposals + BB_CLOCK_EVERY;
    bb_progress_tick(h->opts, "proposals", h->st->proposals, &h->reported);
    if (bb_past(h->deadline)) {
      h->timed_out = 1;
      bb_fail(err, BB_ERR_TIMEOUT, "time limit");
      return NULL;
    }
  }
  return h->pr + (size_t)m * h->n + from;
}

bb_status bb_la_seq(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                    bb_error *err) {
  const int n = inst->n;
  double t0 = bb_now();
  uint32_t *rank;
  bb_prnode *pr = NULL;
  bb_status status = bb_rank_matrix_build(inst, opts->threads, &rank, err);
  if (status != BB_OK) return status;
  status = bb_prmatrix_build(inst, rank, opts->threads, &pr, err);
  free(rank);
  if (status != BB_OK) return status;

  bb_la_state st;
  status = bb_la_state_init(&st, n, err);
  if (status != BB_OK) goto done;
  double t1 = bb_now();
  stats->t_init = t1 - t0;

  host_rows rows = {pr, (size_t)n, &st, bb_deadline(opts), BB_CLOCK_EVERY, 0, opts, bb_now()};
  for (int m = 0; m < n && status == BB_OK; m++) status = bb_la_propose(&st, host_row, &rows, (bb_id)m, err);
  stats->proposals = st.proposals;
  if (status != BB_OK) {
    if (rows.timed_out) status = bb_timeout(err, "la-seq", opts, st.proposals);
    goto done;
  }
  double t2 = bb_now();
  bb_la_extract(&st, wife_of);
  stats->t_solve = t2 - t1;
  stats->t_post = bb_now() - t2;
  snprintf(stats->path, sizeof stats->path, "cpu");
done:
  free(pr);
  bb_la_state_free(&st);
  return status;
}
