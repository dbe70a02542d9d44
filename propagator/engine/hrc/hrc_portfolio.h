/* A portfolio of couples-aware deferred acceptances (hrc_portfolio.c, docs/hrc.md
 * "Portfolio"), and a local search that polishes its best matching (hrc_polish.c).
 *
 * hrc-da (bb_hrc_da) is deterministic: when it ends with blocking pairs, running it again
 * cannot help. The portfolio runs it once (run 0) and N - 1 randomised variants (runs 1..N-1):
 * singles and couples enter in a random order and are looked at in that order in the repair
 * rounds, a displaced agent proposes next or last by a coin flip, and an evicted couple now
 * and then starts its list again. It keeps the matching with the fewest blocking pairs (ties:
 * more residents matched, then the lower run). Run i's randomness comes from the seed and i
 * only, and runs are handed out to threads by index, so the result is the same for every
 * thread count unless the time limit cuts runs short. Blocking pairs are counted by
 * bb_hrc_count_blocking, the checker (on the GPU by the same cases, bb_hrcda_count). */
#ifndef BB_HRC_PORTFOLIO_H
#define BB_HRC_PORTFOLIO_H

#include <stdbool.h>
#include <stdint.h>

#include "hrc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_hrc_portfolio_opts {
  int runs;          /* deferred acceptances, >= 1 (run 0 is bb_hrc_da) */
  int threads;       /* 0: all CPUs; never more than runs */
  uint64_t seed;     /* the randomised runs' seed */
  int polish_steps;  /* local search steps on the best matching (0: none) */
  double deadline;   /* bb_now() time to stop at (0: none) */
  bb_hrc_da_opts da; /* bounds of each run (its deadline is ignored: the one above counts) */
  /* The runs on a GPU (cuda/bb_gpu_hrc_da.h: thousands at once, one thread each), the same
   * runs and winner as on the CPU; the polish stays on the CPU, threads are not used. The
   * deadline is checked between batches of gpu_batch runs (0: as many as the GPU's memory
   * holds). BB_ERR_NO_GPU in a build without CUDA or without the device. */
  bool on_gpu;
  int device, gpu_batch;
} bb_hrc_portfolio_opts;

/* One run's outcome. status is BB_OK, or BB_ERR_TIMEOUT for a run the time limit cut short or
 * never started (then the other fields are 0). */
typedef struct bb_hrc_run_stats {
  bb_status status;
  uint64_t seed; /* 0 for run 0 (deterministic) */
  uint64_t blocking;
  int matched, rounds;
  uint64_t proposals;
  double seconds;
} bb_hrc_run_stats;

typedef struct bb_hrc_portfolio_result {
  int best_run, runs_done;
  uint64_t blocking; /* of the matching returned (after polish) */
  int matched;
  uint64_t blocking_before_polish;
  int polish_steps, polish_moves, polish_improvements; /* steps taken, moves kept, new bests */
} bb_hrc_portfolio_result;

/* Runs the portfolio and, if opts->polish_steps > 0, the best has blocking pairs and the
 * hospitals' lists have no ties, the local search; assigned[r] gets the matching, *res its counts, runs[i] (NULL, or opts->runs
 * entries) each run's. BB_ERR_TIMEOUT when the limit passes before any run ends; BB_ERR_ARG
 * for runs < 1, threads < 0 or gpu_batch < 0. The instance must be valid. */
bb_status bb_hrc_portfolio(const bb_hrc *inst, const bb_hrc_portfolio_opts *opts, int32_t *assigned,
                           bb_hrc_portfolio_result *res, bb_hrc_run_stats *runs, bb_error *err);

/* One randomised deferred acceptance (a portfolio's run with this seed): batch repair rounds,
 * then, if unstable, sequential ones from scratch with the same seed; the better matching
 * stays. Deterministic for a seed. */
bb_status bb_hrc_da_random(const bb_hrc *inst, const bb_hrc_da_opts *opts, uint64_t seed, int32_t *assigned,
                           uint64_t *blocking, bb_hrc_da_stats *stats, bb_error *err);

/* Local search from matching `assigned` (in and out; a matching of inst): each step takes a
 * random blocking single or couple (the one the DA's repair would send back), lets it propose
 * from its first blocking entry and runs the deferred acceptance from there, then lets further
 * random blocking agents propose while the count is above the current matching's (a chain of
 * repairs); now and then a step first frees a blocking agent and the residents its hospitals
 * hold. A step is kept when it has no more blocking pairs than the current matching (ties: kept,
 * a sideways move), and after `patience` steps without a new best the search goes back to the
 * best. Stops after `steps`, at a stable matching or at the deadline (then with BB_OK: the best
 * so far is a matching). *blocking (in: assigned's count, BB_ERR_ARG if it is not; out: the
 * best's, counted again by bb_hrc_count_blocking). BB_ERR_ARG for hospitals' lists with ties.
 * Deterministic for a seed unless the deadline cuts it. */
typedef struct bb_hrc_polish_stats {
  int steps, moves, improvements;
} bb_hrc_polish_stats;
bb_status bb_hrc_polish(const bb_hrc *inst, int steps, uint64_t seed, double deadline, int32_t *assigned,
                        uint64_t *blocking, bb_hrc_polish_stats *stats, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
