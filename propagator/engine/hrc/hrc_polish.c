/* Local search on an HRC matching (hrc_portfolio.h, bb_hrc_polish): a min-conflicts walk whose
 * moves are steps of the deferred acceptance's sequential repair. A blocking agent, picked at
 * random, proposes from its first blocking entry and the queue runs to its end (evictions,
 * withdrawn partners and their new proposals included), so every move ends in a matching. One
 * such proposal chain almost always leaves new blocking pairs behind (a couple's withdrawal
 * frees posts that others now want), so a step goes on repairing: while the count is above
 * the current matching's, another random blocking agent proposes, up to HRC_POLISH_CHAIN times;
 * one step in HRC_POLISH_FREE_ONE_IN starts instead by freeing a blocking agent and everyone its
 * first blocking entry's hospitals hold, all proposing again from the top. A step is kept when
 * it is no worse, so the walk can cross plateaus, and it goes back to the best after `patience`
 * steps without progress. The state and the count live in hrc_walk.c, which undoes a rejected
 * step and counts again only the agents it can reach; the best matching's count is checked by
 * bb_hrc_count_blocking at the end. */
#include <stdlib.h>
#include <string.h>

#include "hrc_portfolio.h"
#include "hrc_walk.h"
#include "rng.h"

/* Steps without a new best before the walk goes back to the best matching. */
#define HRC_POLISH_PATIENCE 200
/* Repairing moves a step may chain after its first. */
#define HRC_POLISH_CHAIN 40
/* One step in this many starts by freeing the hospitals of a blocking pair. */
#define HRC_POLISH_FREE_ONE_IN 4u

/* One step: a first move and the repairs after it; false when the deadline cut it (undone). */
static bool step(bb_hrcw *w, uint64_t now) {
  bool free_move = bb_splitmix64(&w->d.rng) % HRC_POLISH_FREE_ONE_IN == 0;
  if (!(free_move ? bb_hrcw_move_free(w) : bb_hrcw_move(w))) return false;
  for (int c = 0; c < HRC_POLISH_CHAIN && w->blocking > now; c++)
    if (!bb_hrcw_move(w)) return false;
  return true;
}

bb_status bb_hrc_polish(const bb_hrc *inst, int steps, uint64_t seed, double deadline, int32_t *assigned,
                        uint64_t *blocking, bb_hrc_polish_stats *stats, bb_error *err) {
  if (!inst || !assigned || !blocking) return bb_fail(err, BB_ERR_ARG, "bb_hrc_polish: NULL argument");
  bb_hrc_polish_stats s = {0, 0, 0};
  bb_hrcw w;
  bb_status st = bb_hrcw_init(&w, inst, assigned, seed, err);
  if (st == BB_OK && w.blocking != *blocking)
    st = bb_fail(err, BB_ERR_ARG, "bb_hrc_polish: the matching has %llu blocking pairs, not %llu",
                 (unsigned long long)w.blocking, (unsigned long long)*blocking);
  uint64_t best = w.blocking, now = best;
  int best_matched = w.matched, now_matched = best_matched, stale = 0;
  w.d.deadline = deadline;
  while (st == BB_OK && s.steps < steps && best > 0 && !(deadline > 0 && bb_now() > deadline)) {
    s.steps++;
    /* No blocker left, or the deadline cut the step (then undone): the best stands. */
    if (w.nblockers == 0 || !step(&w, now)) break;
    if (w.blocking < now || (w.blocking == now && w.matched >= now_matched)) {
      bb_hrcw_commit(&w);
      now = w.blocking, now_matched = w.matched;
      s.moves++;
    } else {
      bb_hrcw_undo(&w);
    }
    if (now < best || (now == best && now_matched > best_matched)) {
      memcpy(assigned, w.d.assigned, (size_t)inst->n_residents * sizeof *assigned);
      bb_hrcw_checkpoint(&w);
      best = now, best_matched = now_matched, stale = 0;
      s.improvements++;
    } else if (++stale >= HRC_POLISH_PATIENCE) {
      bb_hrcw_back(&w);
      now = w.blocking, now_matched = w.matched, stale = 0;
    }
  }
  bb_hrcw_free(&w);
  uint64_t checked = 0;
  if (st == BB_OK && (st = bb_hrc_count_blocking(inst, assigned, &checked, err)) == BB_OK && checked != best)
    st = bb_fail(err, BB_ERR_INPUT, "bb_hrc_polish: the walk counts %llu blocking pairs, the checker %llu",
                 (unsigned long long)best, (unsigned long long)checked);
  if (st == BB_OK) *blocking = checked;
  if (stats) *stats = s;
  return st;
}
