/* The portfolio of couples-aware deferred acceptances on the GPU (cuda/gpu_hrc_da.cu;
 * gpu_stub.c answers BB_ERR_NO_GPU without CUDA). Thousands of runs at once, one thread each,
 * every run's state a slice of one device buffer; the steps are hrc_da_core.h's, the host's
 * own, so run i gives the matching bb_hrc_da (run 0) or bb_hrc_da_random (run i, seed
 * bb_hrcda_run_seed(seed, i)) gives on the CPU. The engine (propagator/engine/hrc/
 * hrc_portfolio_gpu.c) fills the lists from its instance and compares the runs. */
#ifndef BB_GPU_HRC_DA_H
#define BB_GPU_HRC_DA_H

#include <stddef.h>
#include <stdint.h>

#include "bb_common.h"
#include "hrc_da_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_gpu_hrc_da_opts {
  int device;
  int runs;               /* runs 0 .. runs - 1; run 0 is the deterministic one */
  uint64_t seed;          /* the portfolio's seed */
  int max_rounds;         /* repair rounds of each strategy, >= 1 */
  uint64_t max_proposals; /* bound on each strategy's proposals, >= 1 */
  double deadline;        /* bb_now() time after which no further batch starts (0: none) */
  int batch;              /* runs per launch (0: as many as the GPU's memory holds) */
} bb_gpu_hrc_da_opts;

/* One run's outcome: done 0 for a run the deadline left unlaunched (the rest then 0). */
typedef struct bb_gpu_hrc_da_run {
  uint64_t blocking, proposals;
  int32_t matched, rounds, bounded, done;
  double seconds; /* its batch's time on the GPU */
} bb_gpu_hrc_da_run;

/* Bytes of device memory one run's state takes (its slice of the buffer). */
static inline uint64_t bb_gpu_hrc_da_run_bytes(const bb_hrcda_lists *L) {
  uint64_t na = (uint64_t)L->nagents + 1, nh = (uint64_t)L->nh + 1, nr = (uint64_t)L->nr + 1;
  uint64_t slots = (uint64_t)L->slot0[L->nh] + 1, b = 0;
  b += (slots * sizeof(bb_hrcda_held) + 7) / 8 * 8;       /* held residents */
  b += (nh * sizeof(int32_t) + 7) / 8 * 8;                /* nheld */
  b += (na * sizeof(uint32_t) + 7) / 8 * 8;               /* next */
  b += na * sizeof(int64_t);                              /* cur */
  b += 2 * ((nr * sizeof(int32_t) + 7) / 8 * 8);          /* assigned, the run's best */
  b += 2 * ((na * sizeof(int32_t) + 7) / 8 * 8);          /* queue, order */
  b += (na + 7) / 8 * 8;                                  /* queued */
  b += nh * sizeof(bb_hrcda_hosp) + na * sizeof(int64_t); /* views, restarts */
  return b;
}

/* Runs the portfolio's runs on GPU o->device in batches (each as many runs as the memory left
 * after the lists holds, at most o->batch; the memory is planned before anything is allocated:
 * BB_ERR_GPU naming both numbers when not even one run fits). L's arrays are the host's; L's
 * srank/crank/slot0/room are bb_hrcda_init's. runs[i] (o->runs entries) gets each run's
 * outcome; best[nr] the matching of the best run by (fewest blocking pairs, most matched, lowest
 * run) and *best_run its index (-1 when the deadline left every run unlaunched); all (NULL, or
 * o->runs x nr) every run's matching. */
bb_status bb_gpu_hrc_da_runs(const bb_hrcda_lists *L, const bb_gpu_hrc_da_opts *o, bb_gpu_hrc_da_run *runs,
                             int32_t *best, int *best_run, int32_t *all, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
