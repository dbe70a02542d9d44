/* Local search on an HRC matching (hrc_portfolio.h, bb_hrc_polish): a min-conflicts walk whose
 * move is one step of the deferred acceptance's sequential repair. A blocking agent, picked at
 * random, proposes from its first blocking entry and the queue runs to its end (evictions,
 * withdrawn partners and their new proposals included), so every move ends in a matching. The
 * checker (bb_hrc_count_blocking) judges each; a move is kept when it is no worse, so the walk
 * can cross plateaus, and it goes back to the best after `patience` steps without progress. */
#include <stdlib.h>
#include <string.h>

#include "hrc_portfolio.h"
#include "hrc_da_internal.h"

/* Steps without a new best before the walk goes back to the best matching. */
#define HRC_POLISH_PATIENCE 50

static int count_matched(const bb_hrc *inst, const int32_t *m) {
  int n = 0;
  for (int r = 0; r < inst->n_residents; r++) n += m[r] != BB_HRC_NONE;
  return n;
}

/* The agents that block on d's state, into `blockers`; returns how many, and their first
 * blocking entries into `entry`. */
static int find_blockers(da *d, hosp_view *view, int32_t *blockers, int64_t *entry) {
  bb_hrcda_view(d, view);
  int n = 0;
  for (int a = 0; a < d->nagents; a++) {
    if (a < d->nr && d->in->couple_of[a] != BB_HRC_SINGLE) continue;
    int64_t e = bb_hrcda_first_blocking(d, view, a);
    if (e >= 0) blockers[n] = a, entry[n++] = e;
  }
  return n;
}

bb_status bb_hrc_polish(const bb_hrc *inst, int steps, uint64_t seed, double deadline, int32_t *assigned,
                        uint64_t *blocking, bb_hrc_polish_stats *stats, bb_error *err) {
  if (!inst || !assigned || !blocking) return bb_fail(err, BB_ERR_ARG, "bb_hrc_polish: NULL argument");
  bb_hrc_polish_stats s = {0, 0, 0};
  da d;
  bb_status st = bb_hrcda_init(&d, inst, 0, err);
  size_t nr = (size_t)inst->n_residents, na = (size_t)d.nagents;
  int32_t *current = malloc((nr + 1) * sizeof *current), *blockers = malloc((na + 1) * sizeof *blockers);
  int64_t *entry = malloc((na + 1) * sizeof *entry);
  hosp_view *view = malloc(((size_t)inst->n_hospitals + 1) * sizeof *view);
  if (st == BB_OK && (!current || !blockers || !entry || !view))
    st = bb_fail(err, BB_ERR_NOMEM, "bb_hrc_polish: out of memory");
  uint64_t best = *blocking, now = best;
  int best_matched = count_matched(inst, assigned), now_matched = best_matched, stale = 0;
  if (st == BB_OK) memcpy(current, assigned, nr * sizeof *current);
  d.rng = seed;
  d.deadline = deadline;
  while (st == BB_OK && s.steps < steps && best > 0 && !(deadline > 0 && bb_now() > deadline)) {
    s.steps++;
    bb_hrcda_load(&d, current);
    int n = find_blockers(&d, view, blockers, entry);
    if (n == 0) break; /* the checker and the repair disagree: cannot happen */
    int k = (int)(bb_hrcda_next_random(&d.rng) % (uint64_t)n), a = blockers[k];
    if (d.cur[a] >= 0) bb_hrcda_lose_place(&d, a);
    d.next[a] = (uint32_t)entry[k];
    bb_hrcda_push(&d, a);
    d.proposals = 0;
    bb_hrcda_run_queue(&d);
    if (d.timed_out) break;
    uint64_t count;
    if ((st = bb_hrc_count_blocking(inst, d.assigned, &count, err)) != BB_OK) break;
    int matched = count_matched(inst, d.assigned);
    if (count < now || (count == now && matched >= now_matched)) {
      memcpy(current, d.assigned, nr * sizeof *current);
      now = count, now_matched = matched;
      s.moves++;
    }
    if (now < best || (now == best && now_matched > best_matched)) {
      memcpy(assigned, current, nr * sizeof *assigned);
      best = now, best_matched = now_matched, stale = 0;
      s.improvements++;
    } else if (++stale >= HRC_POLISH_PATIENCE) {
      memcpy(current, assigned, nr * sizeof *current);
      now = best, now_matched = best_matched, stale = 0;
    }
  }
  *blocking = best;
  if (stats) *stats = s;
  free(current), free(blockers), free(entry), free(view);
  bb_hrcda_free(&d);
  return st;
}
