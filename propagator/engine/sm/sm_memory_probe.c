/* What the memory plan compares its figures with: the free memory of each planned GPU as
 * cudaMemGetInfo reports it (after this process's CUDA context exists, so the context is
 * already taken off) and the host memory this process may still use. */
#include "bb_gpu_device.h"
#include "bb_gpu_prnode.h"
#include "memory_plan.h"

#include <stdlib.h>
#include <string.h>

void bb_memory_plan_probe(bb_memory_plan *plan) {
  for (int d = 0; d < plan->devices; d++) {
    size_t free_b = 0, total_b = 0;
    if (bb_gpu_mem_info(plan->device_id[d], &free_b, &total_b)) {
      plan->device_free[d] = free_b;
      plan->device_total[d] = total_b;
    }
  }
  plan->host_available = bb_available_memory();
}

bb_status bb_memory_plan_for_run(const bb_plan_request *req, bb_memory_plan *plan, bb_error *err) {
  bb_plan_request r = *req;
  if (!r.node_bytes && !r.wide_nodes) r.node_bytes = bb_prnode_bytes_forced(); /* as cuda/ reads it */
  const char *staged = getenv("BAMBOO_GPU_STAGED");
  r.unstaged = r.unstaged || (staged && *staged == '0');
  int fallback = r.algo && !strcmp(r.algo, "bamboo") && !bb_gpu_probe(r.devices ? r.devices[0] : 0, NULL, 0);
  if (fallback && r.gen_on_gpu) /* no la-seq fallback without the men's lists (sm_bamboo.c) */
    return bb_fail(err, BB_ERR_NO_GPU, "memory plan: lists generated on the GPU need a usable GPU");
  if (fallback) r.algo = "la-seq";
  bb_status st = bb_memory_plan_make(&r, plan, err);
  if (st != BB_OK) return st;
  if (fallback) snprintf(plan->algo, sizeof plan->algo, "bamboo (la-seq: no GPU)");
  bb_memory_plan_probe(plan);
  const char *rows = getenv("BAMBOO_GPU_RANK_ROWS");
  uint64_t free_b = plan->devices ? plan->device_free[0] : 0;
  if (plan->staged && !r.rank_rows && (rows && atoi(rows) > 0)) {
    r.rank_rows = atoi(rows);
  } else if (plan->staged && !r.rank_rows && free_b && bb_memory_plan_peak_device(plan, 0) > free_b) {
    r.rank_rows = bb_plan_rank_rows_for(r.n, plan->node_bytes, free_b);
  }
  if (!r.rank_rows) return BB_OK;
  uint64_t device_free[BB_PLAN_MAX_PARTS], device_total[BB_PLAN_MAX_PARTS];
  memcpy(device_free, plan->device_free, sizeof device_free);
  memcpy(device_total, plan->device_total, sizeof device_total);
  uint64_t host = plan->host_available;
  if ((st = bb_memory_plan_make(&r, plan, err)) != BB_OK) return st;
  memcpy(plan->device_free, device_free, sizeof device_free);
  memcpy(plan->device_total, device_total, sizeof device_total);
  plan->host_available = host;
  return BB_OK;
}
