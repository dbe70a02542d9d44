/* The native HR propagation's parallel engine on host threads (smc_hr_accel.h): the step of
 * smc_hr_accel_steps.h with C11 atomics, one chain per resident spread over a few threads,
 * so that CI, which has no GPU, runs the GPU's algorithm with real races on the slots. */
#include "parallel.h"
#include "smc_hr_accel.h"
#include "smc_hr_accel_steps.h"

#include <stdatomic.h>
#include <stdlib.h>

enum { EMUL_THREADS = 4 };

typedef struct emul {
  bb_smc_hr_accel_lists lists;
  bb_smc_hr_accel_u64a *slot;
} emul;

static atomic_int fail_after;

void bb_smc_hr_accel_emulated_fail_after(int runs) { atomic_store(&fail_after, runs); }

static void *emul_open(const bb_smc_hr_accel_lists *lists, bb_error *err) {
  emul *e = calloc(1, sizeof *e);
  if (e) e->slot = malloc(((size_t)lists->slots + 1) * sizeof *e->slot);
  if (!e || !e->slot) {
    free(e);
    bb_fail(err, BB_ERR_NOMEM, "stable_matching_hr: out of memory for the emulated engine's slots");
    return NULL;
  }
  e->lists = *lists;
  return e;
}

static void emul_close(void *engine) {
  emul *e = engine;
  if (!e) return;
  free(e->slot);
  free(e);
}

static void chains(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const bb_smc_hr_accel_view *v = ctx;
  for (int64_t r = begin; r < end; r++) bb_smc_hr_accel_propose(v, (int)r);
}

static bb_status emul_propose(void *engine, const uint32_t *alive, const uint32_t *start, uint64_t *slots,
                              bb_error *err) {
  emul *e = engine;
  int left = atomic_load(&fail_after);
  if (left > 0 && atomic_fetch_sub(&fail_after, 1) == 1)
    return bb_fail(err, BB_ERR_GPU, "emulated CUDA failure (bb_smc_hr_accel_emulated_fail_after)");
  const bb_smc_hr_accel_lists *l = &e->lists;
  for (uint32_t q = 0; q < l->slots; q++) atomic_init(&e->slot[q], BB_SMC_HR_ACCEL_EMPTY);
  bb_smc_hr_accel_view v = {l->nr,        l->res_start,  l->res_hosp, l->res_pos, l->hosp_start,
                            l->hosp_rank, l->slot_start, alive,       start,      e->slot};
  bb_parallel_for(l->nr < 64 ? 2 : EMUL_THREADS, l->nr, chains, &v);
  for (uint32_t q = 0; q < l->slots; q++) slots[q] = atomic_load(&e->slot[q]);
  return BB_OK;
}

const bb_smc_hr_accel_engine_ops bb_smc_hr_accel_emulated_ops = {"emulated", emul_open, emul_close, emul_propose};
