/* The portfolio's runs on the GPU (hrc_portfolio_gpu.c, over cuda/bb_gpu_hrc_da.h). */
#ifndef BB_HRC_PORTFOLIO_GPU_H
#define BB_HRC_PORTFOLIO_GPU_H

#include "hrc_portfolio.h"

/* Runs 0 .. opts->runs - 1 of the portfolio on GPU opts->device, the same runs as the CPU's
 * (run 0 bb_hrc_da, run i bb_hrc_da_random with the run's seed): runs[i] each run's outcome
 * (BB_ERR_TIMEOUT for one the time limit left unlaunched), best[nr] the best run's matching
 * (fewest blocking pairs, most matched, lowest run), res's best_run, blocking, matched and
 * runs_done; all (NULL, or runs x nr) every run's matching. BB_ERR_NO_GPU without CUDA,
 * BB_ERR_GPU when not even one run fits in the GPU's memory, BB_ERR_TIMEOUT when no run ended. */
bb_status bb_hrc_portfolio_gpu_runs(const bb_hrc *inst, const bb_hrc_portfolio_opts *opts, int32_t *best,
                                    bb_hrc_portfolio_result *res, bb_hrc_run_stats *runs, int32_t *all, bb_error *err);

#endif
