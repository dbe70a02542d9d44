/* The GPU-only baselines (gpu-mw-cas, gpu-la-min) as registry entries: they upload the
 * lists, run their kernel and report BB_ERR_NO_GPU when there is no device; and the engine's
 * gpu_lists.h over cuda/'s packing. */
#include "algos.h"
#include "bb_gpu.h"
#include "bb_gpu_lists.h"
#include "gpu_args.h"
#include "gpu_lists.h"

#include <stdio.h>

typedef bb_status (*gpu_kernel_fn)(bb_gpu *, const bb_gpu_opts *, bb_id *, bb_gpu_stats *, bb_error *);

static bb_status run_on_gpu(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                            bb_error *err, gpu_kernel_fn kernel, const char *path) {
  char why[256];
  int device = opts->gpu_count > 0 && opts->gpus ? opts->gpus[0] : 0;
  if (!bb_gpu_probe(device, why, sizeof why)) return bb_fail(err, BB_ERR_NO_GPU, "%s", why);
  if (opts->gpu_count > 1 && kernel == bb_gpu_la_min) return bb_gpu_la_min_multi(inst, opts, wife_of, stats, err);
  if (opts->gpu_count > 1)
    return bb_fail(err, BB_ERR_ARG,
                   "gpu-mw-cas runs on one GPU; --gpus with several entries is for bamboo and gpu-la-min");
  bb_gpu *gpu = NULL;
  bb_gpu_instance lists = bb_gpu_instance_of(inst);
  bb_gpu_opts gopts = bb_gpu_opts_of(opts);
  bb_gpu_stats gstats = bb_gpu_stats_of(stats);
  bb_status st = bb_gpu_open(device, &lists, &gpu, &gstats, err);
  if (st == BB_OK) st = kernel(gpu, &gopts, wife_of, &gstats, err);
  bb_gpu_stats_back(&gstats, stats);
  if (st == BB_OK && opts->verbose) {
    char text[BB_BYTES_TEXT];
    uint64_t peak = bb_gpu_measured_peak(gpu);
    fprintf(stderr, "GPU memory measured at the peak: %s (%llu bytes, cudaMemGetInfo)\n", bb_bytes_text(text, peak),
            (unsigned long long)peak);
  }
  bb_gpu_close(gpu);
  snprintf(stats->path, sizeof stats->path, "%s", path);
  return st;
}

bb_status bb_gpu_mw_cas_solve(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                              bb_error *err) {
  return run_on_gpu(inst, opts, wife_of, stats, err, bb_gpu_mw_cas, "gpu");
}

bb_status bb_gpu_la_min_solve(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                              bb_error *err) {
  return run_on_gpu(inst, opts, wife_of, stats, err, bb_gpu_la_min, "gpu");
}

/* gpu_lists.h over cuda/'s packing, which takes the lists alone. */
bb_status bb_gpu_lists_prepare(const bb_instance *inst, int threads, bb_gpu_lists **out, bb_error *err) {
  bb_gpu_instance lists;
  if (inst) lists = bb_gpu_instance_of(inst);
  return bb_gpu_lists_pack(inst ? &lists : NULL, threads, out, err);
}

void bb_gpu_lists_free(bb_gpu_lists *lists) { bb_gpu_lists_release(lists); }
