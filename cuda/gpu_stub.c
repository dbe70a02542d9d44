/* The GPU API of bb_gpu_device.h, bb_gpu.h, bb_gpu_hr.h, smc_accel.h, smc_hr_accel.h,
 * hrc_accel.h and bb_gpu_hrc_da.h for builds without CUDA: every entry point reports that no
 * GPU is available, so callers take their CPU path. */
#include "bb_gpu.h"
#include "bb_gpu_gen.h"
#include "bb_gpu_hr.h"
#include "bb_gpu_hrc_da.h"
#include "bb_gpu_multi.h"
#include "bb_gpu_lists.h"
#include "hrc_accel.h"
#include "smc_accel.h"
#include "smc_hr_accel.h"

#include <stdio.h>

static const char no_cuda[] = "this build of bamboo has no CUDA support (nvcc was not found)";

int bb_gpu_probe(int device, char *why, size_t why_len) {
  (void)device;
  if (why && why_len) snprintf(why, why_len, "%s", no_cuda);
  return 0;
}

bb_status bb_gpu_open(int device, const bb_gpu_instance *inst, bb_gpu **out, bb_gpu_stats *stats, bb_error *err) {
  (void)device;
  (void)inst;
  (void)stats;
  if (out) *out = NULL;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

void bb_gpu_close(bb_gpu *gpu) { (void)gpu; }

bb_status bb_gpu_mw_cas(bb_gpu *gpu, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats, bb_error *err) {
  (void)gpu, (void)opts, (void)wife_of, (void)stats;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

bb_status bb_gpu_la_min(bb_gpu *gpu, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats, bb_error *err) {
  (void)gpu, (void)opts, (void)wife_of, (void)stats;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

bb_status bb_gpu_bamboo(bb_gpu *gpu, const bb_gpu_opts *opts, bb_gpu_la *st, bb_id *free_men, int *free_count,
                        bb_gpu_stats *stats, bb_error *err) {
  (void)gpu, (void)opts, (void)st, (void)free_men, (void)free_count, (void)stats;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

const bb_prnode *bb_gpu_prrow(void *ctx, bb_id m, uint32_t from, bb_error *err) {
  (void)ctx, (void)m, (void)from;
  bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
  return NULL;
}

bb_status bb_gpu_tail(bb_gpu *gpu, bb_gpu_la *st, const bb_id *free_men, int count, bb_error *err) {
  (void)gpu, (void)st, (void)free_men, (void)count;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

int bb_gpu_name(int device, char *out, size_t len) {
  (void)device;
  if (out && len) out[0] = 0;
  return 0;
}

const bb_smc_accel_engine_ops *bb_smc_accel_gpu_ops(void) { return NULL; }
const bb_smc_hr_accel_engine_ops *bb_smc_hr_accel_gpu_ops(void) { return NULL; }
const bb_smc_hrc_accel_engine_ops *bb_smc_hrc_accel_gpu_ops(void) { return NULL; }

bb_status bb_gpu_hr_propose(const bb_gpu_hr_input *in, int tail, uint64_t *posts, uint64_t *cursor, uint32_t *parked,
                            int *parked_count, bb_gpu_hr_times *times, bb_error *err) {
  (void)in, (void)tail, (void)posts, (void)cursor, (void)parked, (void)times;
  *parked_count = 0;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

int bb_gpu_mem_info(int device, size_t *free_bytes, size_t *total_bytes) {
  (void)device;
  *free_bytes = *total_bytes = 0;
  return 0;
}

uint64_t bb_gpu_measured_peak(const bb_gpu *gpu) {
  (void)gpu;
  return 0;
}

bb_status bb_gpu_open_staged(int device, const bb_gpu_instance *inst, bb_gpu **out, bb_gpu_stats *stats,
                             bb_error *err) {
  return bb_gpu_open(device, inst, out, stats, err);
}

bb_status bb_gpu_multi_open(const int *devices, int count, const bb_gpu_instance *inst, int node_bytes,
                            bb_gpu_multi **out, bb_gpu_stats *stats, bb_error *err) {
  (void)devices, (void)count, (void)inst, (void)node_bytes, (void)stats;
  if (out) *out = NULL;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

bb_status bb_gpu_multi_open_gen(const int *devices, int count, const bb_gpu_instance *inst,
                                const struct bb_gen_spec *spec, int node_bytes, bb_gpu_multi **out, bb_gpu_stats *stats,
                                bb_error *err) {
  (void)spec;
  return bb_gpu_multi_open(devices, count, inst, node_bytes, out, stats, err);
}

bb_status bb_gpu_multi_open_staged(const int *devices, int count, const bb_gpu_instance *inst,
                                   const struct bb_gen_spec *spec, int node_bytes, int rank_rows, bb_gpu_multi **out,
                                   bb_gpu_stats *stats, bb_error *err) {
  (void)spec, (void)rank_rows;
  return bb_gpu_multi_open(devices, count, inst, node_bytes, out, stats, err);
}

uint64_t bb_gpu_multi_measured_peak(const bb_gpu_multi *mg, int device) {
  (void)mg, (void)device;
  return 0;
}

void bb_gpu_multi_close(bb_gpu_multi *mg) { (void)mg; }

bb_status bb_gpu_multi_bamboo(bb_gpu_multi *mg, const bb_gpu_opts *opts, bb_gpu_la *st, bb_id *free_men,
                              int *free_count, bb_gpu_stats *stats, bb_error *err) {
  (void)mg, (void)opts, (void)st, (void)free_men, (void)free_count, (void)stats;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

const char *bb_gpu_multi_solve_mode(void) { return "rounds"; }

int bb_gpu_multi_rounds_run(const bb_gpu_multi *mg) {
  (void)mg;
  return 0;
}

bb_status bb_gpu_multi_la_min(bb_gpu_multi *mg, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats,
                              bb_error *err) {
  (void)mg, (void)opts, (void)wife_of, (void)stats;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

const bb_prnode *bb_gpu_multi_prrow(void *ctx, bb_id m, uint32_t from, bb_error *err) {
  (void)ctx, (void)m, (void)from;
  bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
  return NULL;
}

void bb_gpu_set_rank_rows(bb_gpu *gpu, int rows) { (void)gpu, (void)rows; }

bb_status bb_gpu_gen_open(int device, const bb_gen_spec *spec, bb_gpu_gen **out, bb_error *err) {
  (void)device, (void)spec;
  if (out) *out = NULL;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

void bb_gpu_gen_close(bb_gpu_gen *gen) { (void)gen; }

bb_status bb_gpu_gen_to_host(bb_gpu_gen *gen, int women, int first, int count, bb_id *host_out, bb_error *err) {
  (void)gen, (void)women, (void)first, (void)count, (void)host_out;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

bb_status bb_gpu_gen_ranks_to_host(bb_gpu_gen *gen, int women, int first, int count, uint32_t *host_out,
                                   bb_error *err) {
  (void)gen, (void)women, (void)first, (void)count, (void)host_out;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

bb_status bb_gpu_set_generator(bb_gpu *gpu, bb_gpu_gen *gen, bb_error *err) {
  (void)gpu, (void)gen;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

bb_status bb_gpu_gen_time(bb_gpu_gen *gen, int women, int rows, double *seconds, bb_error *err) {
  (void)gen, (void)women, (void)rows, (void)seconds;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

bb_status bb_gpu_lists_pack(const bb_gpu_instance *inst, int threads, bb_gpu_lists **out, bb_error *err) {
  (void)inst, (void)threads;
  if (out) *out = NULL;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}

void bb_gpu_lists_release(bb_gpu_lists *lists) { (void)lists; }

bb_status bb_gpu_hrc_da_runs(const bb_hrcda_lists *L, const bb_gpu_hrc_da_opts *o, bb_gpu_hrc_da_run *runs,
                             int32_t *best, int *best_run, int32_t *all, bb_error *err) {
  (void)L, (void)o, (void)runs, (void)best, (void)all;
  if (best_run) *best_run = -1;
  return bb_fail(err, BB_ERR_NO_GPU, "%s", no_cuda);
}
