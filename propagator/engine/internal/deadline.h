/* Internal: the time limit of the CPU algorithms. Loops compare their proposal count
 * with a checkpoint and read the clock only every BB_CLOCK_EVERY proposals. */
#ifndef BB_DEADLINE_H
#define BB_DEADLINE_H

#include "solve.h"

#define BB_CLOCK_EVERY ((uint64_t)1 << 20)

/* Absolute bb_now() deadline, or 0 for none. */
static inline double bb_deadline(const bb_solve_opts *opts) {
  return opts->time_limit_s > 0 ? bb_now() + opts->time_limit_s : 0;
}

static inline int bb_past(double deadline) { return deadline > 0 && bb_now() > deadline; }

/* Progress for long runs, at most four times a second; called at the checkpoints above,
 * so it costs nothing between them. `last` is the caller's time of the last report. */
static inline void bb_progress_tick(const bb_solve_opts *opts, const char *what, uint64_t done, double *last) {
  if (!opts->progress) return;
  double now = bb_now();
  if (now - *last < 0.25) return;
  *last = now;
  opts->progress(opts->progress_ctx, what, done, 0);
}

static inline bb_status bb_timeout(bb_error *err, const char *algorithm, const bb_solve_opts *opts,
                                   uint64_t proposals) {
  return bb_fail(err, BB_ERR_TIMEOUT, "%s: time limit of %g s reached after %llu proposals", algorithm,
                 opts->time_limit_s, (unsigned long long)proposals);
}

#endif
