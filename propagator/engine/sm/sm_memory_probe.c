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

/* Staged partitions: the most women per rank block whose rank rows fit, on every device whose
 * free memory is known, beside what the rank phase holds there besides them (PRMatrix rows,
 * uploaded lists' blocks, staging, generator) and 64 MiB for the allocator's rounding; at least
 * ceil(n / 64) (at most 64 passes over the rows), at most n. 0 when no device is known. */
static int part_rank_rows_fit(const bb_memory_plan *plan) {
  const bb_plan_phase *ranks = NULL;
  for (int i = 0; i < plan->phases; i++)
    if (!strcmp(plan->phase[i].name, "rank matrix")) ranks = &plan->phase[i];
  uint64_t n = (uint64_t)plan->n, best = 0;
  int known = 0;
  for (int d = 0; ranks && d < plan->devices; d++) {
    if (!plan->device_free[d]) continue;
    uint64_t parts = 0;
    for (int q = 0; q < plan->parts; q++) parts += plan->part[q].device == plan->device_id[d];
    uint64_t per_row = parts * n * (uint64_t)bb_rank_block_bytes(plan->n);
    uint64_t beside = ranks->device[d] - (uint64_t)plan->rank_rows * per_row + ((uint64_t)64 << 20);
    uint64_t rows = plan->device_free[d] > beside ? (plan->device_free[d] - beside) / per_row : 0;
    if (!known || rows < best) best = rows;
    known = 1;
  }
  if (!known) return 0;
  uint64_t fewest = (n + 63) / 64;
  if (best < fewest) best = fewest;
  return best < n ? (int)best : plan->n;
}

/* The machine's memory: probed here, or as the request states it (plan --gpu-memory). */
static void fill_memory(const bb_plan_request *r, bb_memory_plan *plan) {
  if (!r->gpu_memory) {
    bb_memory_plan_probe(plan);
  } else {
    for (int d = 0; d < plan->devices; d++) plan->device_free[d] = plan->device_total[d] = r->gpu_memory;
    plan->host_available = bb_available_memory();
  }
  if (r->host_memory) plan->host_available = r->host_memory;
}

bb_status bb_memory_plan_for_run(const bb_plan_request *req, bb_memory_plan *plan, bb_error *err) {
  bb_plan_request r = *req;
  if (!r.node_bytes && !r.wide_nodes) r.node_bytes = bb_prnode_bytes_forced(); /* as cuda/ reads it */
  const char *staged = getenv("BAMBOO_GPU_STAGED");
  r.unstaged = r.unstaged || (staged && *staged == '0');
  int fallback =
      r.algo && !strcmp(r.algo, "bamboo") && !r.gpu_memory && !bb_gpu_probe(r.devices ? r.devices[0] : 0, NULL, 0);
  if (fallback && r.gen_on_gpu) /* no la-seq fallback without the men's lists (sm_bamboo.c) */
    return bb_fail(err, BB_ERR_NO_GPU, "memory plan: lists generated on the GPU need a usable GPU");
  if (fallback) r.algo = "la-seq";
  bb_status st = bb_memory_plan_make(&r, plan, err);
  if (st != BB_OK) return st;
  if (fallback) snprintf(plan->algo, sizeof plan->algo, "bamboo (la-seq: no GPU)");
  fill_memory(&r, plan);
  const char *rows = getenv("BAMBOO_GPU_RANK_ROWS");
  uint64_t free_b = plan->devices ? plan->device_free[0] : 0;
  if (plan->staged && !r.rank_rows && (rows && atoi(rows) > 0)) {
    r.rank_rows = atoi(rows);
  } else if (plan->staged && plan->parts > 1 && !r.rank_rows) {
    r.rank_rows = part_rank_rows_fit(plan);
  } else if (plan->staged && !r.rank_rows && free_b && bb_memory_plan_peak_device(plan, 0) > free_b) {
    r.rank_rows = bb_plan_rank_rows_for(r.n, plan->node_bytes, r.gen_on_gpu, free_b);
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
