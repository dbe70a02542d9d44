/* The couples-aware deferred acceptance's state (hrc_da.c), shared with the randomised runs of
 * the portfolio (hrc_portfolio.c) and its local search (hrc_polish.c, hrc_walk.c).
 *
 * The state and the per-run steps are cuda/hrc_da_core.h's, which the GPU portfolio compiles
 * too: every field is a flat array indexed by hospital, agent, resident or list entry, plus a
 * few scalars, so many copies live side by side in one buffer there. Here the host's hooks
 * are plugged in first: the local search told of every change, the wall-clock limit, and the
 * checker (bb_hrc_count_blocking) as the count that judges each matching.
 *
 * Agents are singles (ids 0..nr-1, couple members skipped) and couples (nr + c). */
#ifndef BB_HRC_DA_INTERNAL_H
#define BB_HRC_DA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hrc.h"

#ifdef BB_HRC_DA_CORE_H
#error "include hrc_da_internal.h before hrc_da_core.h (or a header that includes it): the hooks come first"
#endif

struct bb_hrcda;
struct bb_hrcw;
/* The walk's hooks (hrc_walk.c): agent a's or hospital h's state is about to change. */
void bb_hrcw_note_agent(struct bb_hrcw *w, int a);
void bb_hrcw_note_hospital(struct bb_hrcw *w, int h);
static inline bool bb_hrcda_out_of_time(struct bb_hrcda *d);
static inline bool bb_hrcda_past_deadline(const struct bb_hrcda *d);
static inline bool bb_hrcda_checker_count(struct bb_hrcda *d, uint64_t *count);

#define BB_HRCDA_NOTE_AGENT(d, a) ((d)->watch ? bb_hrcw_note_agent((d)->watch, (a)) : (void)0)
#define BB_HRCDA_NOTE_HOSPITAL(d, h) ((d)->watch ? bb_hrcw_note_hospital((d)->watch, (h)) : (void)0)
#define BB_HRCDA_OUT_OF_TIME(d) bb_hrcda_out_of_time(d)
#define BB_HRCDA_PAST_DEADLINE(d) bb_hrcda_past_deadline(d)
#define BB_HRCDA_COUNT(d, count) bb_hrcda_checker_count((d), (count))

#include "hrc_da_core.h"

typedef bb_hrcda da;
typedef bb_hrcda_held held;
typedef bb_hrcda_hosp hosp_view;

#define HRC_CLOCK_EVERY 4095u

/* Whether the deadline has passed: a proposal costs nanoseconds, a clock read tens of them. */
static inline bool bb_hrcda_out_of_time(struct bb_hrcda *d) {
  if (d->deadline > 0 && !d->timed_out && (d->ticks++ & HRC_CLOCK_EVERY) == 0) d->timed_out = bb_now() > d->deadline;
  return d->timed_out;
}

static inline bool bb_hrcda_past_deadline(const struct bb_hrcda *d) {
  return d->timed_out || (d->deadline > 0 && bb_now() > d->deadline);
}

/* The checker's count of d's matching; false (the error in d->err) if it is no matching. */
static inline bool bb_hrcda_checker_count(struct bb_hrcda *d, uint64_t *count) {
  return (d->host_status = (int)bb_hrc_count_blocking(d->in, d->assigned, count, d->err)) == BB_OK;
}

/* Ranks, empty hospitals, every agent unassigned and queued in id order (bb_hrcda_reset). */
bb_status bb_hrcda_init(da *d, const bb_hrc *in, uint64_t max_proposals, bb_error *err);
void bb_hrcda_free(da *d);
/* Puts d in the state of matching `assigned` (a matching of d->in): hospitals hold their
 * assignees, each placed agent holds its entry, unplaced agents have proposed their whole
 * list, the queue is empty. Counters and the random state are kept. */
void bb_hrcda_load(da *d, const int32_t *assigned);
/* All hospitals' views (bb_hrcda_view_all). */
static inline void bb_hrcda_view(const da *d, hosp_view *v) { bb_hrcda_view_all(d, v); }
/* A whole run on the host (bb_hrcda_full_run) with opts' bounds and deadline: BB_ERR_TIMEOUT
 * past it, the checker's error if a matching is refused. */
bb_status bb_hrcda_host_run(da *d, const bb_hrc_da_opts *opts, bool randomised, uint64_t seed, int32_t *assigned,
                            uint64_t *best, bb_hrc_da_stats *stats, bb_error *err);

#endif
