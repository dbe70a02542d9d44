/* The portfolio's runs on the GPU (internal/hrc_portfolio_gpu.h): the host computes the ranks
 * once (bb_hrcda_init), hands the lists to cuda/bb_gpu_hrc_da.h and turns its outcomes into
 * the portfolio's statistics. The GPU runs hrc_da_core.h's steps, the CPU's own, with the
 * CPU's bounds, so the runs and the winner are the CPU portfolio's; only a time limit, which
 * the GPU honours between batches of runs, can make them differ. */
#include <stdlib.h>

/* First: its hooks must be defined before the core is read. */
#include "hrc_da_internal.h"

#include "bb_gpu_device.h"
#include "bb_gpu_hrc_da.h"
#include "hrc_portfolio_gpu.h"

bb_status bb_hrc_portfolio_gpu_runs(const bb_hrc *inst, const bb_hrc_portfolio_opts *opts, int32_t *best,
                                    bb_hrc_portfolio_result *res, bb_hrc_run_stats *runs, int32_t *all, bb_error *err) {
  char why[256];
  if (!bb_gpu_probe(opts->device, why, sizeof why))
    return bb_fail(err, BB_ERR_NO_GPU, "hrc-da-portfolio on GPU %d: %s", opts->device, why);
  da d;
  bb_status st = bb_hrcda_init(&d, inst, opts->da.max_proposals, err);
  bb_gpu_hrc_da_run *out = st == BB_OK ? malloc((size_t)opts->runs * sizeof *out) : NULL;
  if (st == BB_OK && !out) st = bb_fail(err, BB_ERR_NOMEM, "hrc-da-portfolio: out of memory");
  int best_run = -1;
  if (st == BB_OK) {
    bb_gpu_hrc_da_opts o = {.device = opts->device,
                            .runs = opts->runs,
                            .seed = opts->seed,
                            .max_rounds = opts->da.max_rounds > 0 ? opts->da.max_rounds : 100,
                            .max_proposals = d.max_proposals,
                            .deadline = opts->deadline,
                            .batch = opts->gpu_batch};
    st = bb_gpu_hrc_da_runs(&d.L, &o, out, best, &best_run, all, err);
  }
  for (int i = 0; st == BB_OK && i < opts->runs; i++) {
    const bb_gpu_hrc_da_run *g = &out[i];
    runs[i] = (bb_hrc_run_stats){.status = g->done ? BB_OK : BB_ERR_TIMEOUT};
    if (!g->done) continue;
    runs[i].seed = i ? bb_hrcda_run_seed(opts->seed, i) : 0;
    runs[i].blocking = g->blocking, runs[i].matched = g->matched, runs[i].rounds = g->rounds;
    runs[i].proposals = g->proposals, runs[i].seconds = g->seconds;
    res->runs_done++;
  }
  if (st == BB_OK && best_run < 0)
    st = bb_fail(err, BB_ERR_TIMEOUT, "hrc-da-portfolio: time limit reached before any run ended");
  if (st == BB_OK) {
    res->best_run = best_run;
    res->blocking = res->blocking_before_polish = out[best_run].blocking;
    res->matched = out[best_run].matched;
  }
  free(out);
  bb_hrcda_free(&d);
  return st;
}
