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

static inline bb_status bb_timeout(bb_error *err, const char *algorithm, const bb_solve_opts *opts,
                                   uint64_t proposals) {
  return bb_fail(err, BB_ERR_TIMEOUT, "%s: time limit of %g s reached after %llu proposals",
                 algorithm, opts->time_limit_s, (unsigned long long)proposals);
}

#endif
