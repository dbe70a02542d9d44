/* The GPU's run on the host (test_hrc_da_emul.h): one run's arrays malloc'd here, as the
 * kernel carves them out of its buffer, and bb_hrcda_full_run without hooks. */
#include "test_hrc_da_emul.h"

#include <stdlib.h>

bool emul_run(const bb_hrcda_lists *L, uint64_t max_proposals, int max_rounds, int run, uint64_t seed,
              int32_t *best_assigned, uint64_t *best, bb_hrcda_totals *t) {
  size_t na = (size_t)L->nagents + 1, nh = (size_t)L->nh + 1, nr = (size_t)L->nr + 1;
  bb_hrcda d = {0};
  d.L = *L;
  d.nr = L->nr;
  d.nagents = L->nagents;
  d.max_proposals = max_proposals;
  d.slots = malloc(((size_t)L->slot0[L->nh] + 1) * sizeof *d.slots);
  d.nheld = malloc(nh * sizeof *d.nheld);
  d.next = malloc(na * sizeof *d.next);
  d.cur = malloc(na * sizeof *d.cur);
  d.assigned = malloc(nr * sizeof *d.assigned);
  d.queue = malloc(na * sizeof *d.queue);
  d.queued = malloc(na);
  d.order = malloc(na * sizeof *d.order);
  bb_hrcda_hosp *view = malloc(nh * sizeof *view);
  int64_t *restart = malloc(na * sizeof *restart);
  bool ok = d.slots && d.nheld && d.next && d.cur && d.assigned && d.queue && d.queued && d.order && view && restart;
  *best = UINT64_MAX;
  if (ok)
    ok = bb_hrcda_full_run(&d, run > 0, run > 0 ? bb_hrcda_run_seed(seed, run) : 0, max_rounds, view, restart,
                           best_assigned, best, t) == BB_HRCDA_DONE;
  free(d.slots), free(d.nheld), free(d.next), free(d.cur), free(d.assigned);
  free(d.queue), free(d.queued), free(d.order), free(view), free(restart);
  return ok;
}
