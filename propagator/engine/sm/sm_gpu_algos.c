/* The GPU-only baselines (gpu-mw-cas, gpu-la-min) as registry entries: they upload the
 * lists, run their kernel and report BB_ERR_NO_GPU when there is no device. */
#include "algos.h"
#include "bb_gpu.h"

#include <stdio.h>

typedef bb_status (*gpu_kernel_fn)(bb_gpu *, const bb_solve_opts *, bb_id *, bb_solve_stats *,
                                   bb_error *);

static bb_status run_on_gpu(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of,
                            bb_solve_stats *stats, bb_error *err, gpu_kernel_fn kernel,
                            const char *path) {
  char why[256];
  int device = opts->gpu_count > 0 && opts->gpus ? opts->gpus[0] : 0;
  if (!bb_gpu_probe(device, why, sizeof why)) return bb_fail(err, BB_ERR_NO_GPU, "%s", why);
  if (opts->gpu_count > 1 && kernel == bb_gpu_la_min) return bb_gpu_la_min_multi(inst, opts, wife_of, stats, err);
  if (opts->gpu_count > 1)
    return bb_fail(err, BB_ERR_ARG, "gpu-mw-cas runs on one GPU; --gpus with several entries is for bamboo and gpu-la-min");
  bb_gpu *gpu = NULL;
  bb_status st = bb_gpu_open(device, inst, &gpu, stats, err);
  if (st == BB_OK) st = kernel(gpu, opts, wife_of, stats, err);
  if (st == BB_OK && opts->verbose) {
    char text[BB_BYTES_TEXT];
    uint64_t peak = bb_gpu_measured_peak(gpu);
    fprintf(stderr, "GPU memory measured at the peak: %s (%llu bytes, cudaMemGetInfo)\n",
            bb_bytes_text(text, peak), (unsigned long long)peak);
  }
  bb_gpu_close(gpu);
  snprintf(stats->path, sizeof stats->path, "%s", path);
  return st;
}

bb_status bb_gpu_mw_cas_solve(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of,
                              bb_solve_stats *stats, bb_error *err) {
  return run_on_gpu(inst, opts, wife_of, stats, err, bb_gpu_mw_cas, "gpu");
}

bb_status bb_gpu_la_min_solve(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of,
                              bb_solve_stats *stats, bb_error *err) {
  return run_on_gpu(inst, opts, wife_of, stats, err, bb_gpu_la_min, "gpu");
}
