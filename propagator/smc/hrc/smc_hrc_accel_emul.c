/* The HRC counting pass's parallel engine on host threads (hrc_accel.h): the steps of
 * hrc_accel_steps.h with GCC atomics, list entries and then hospitals spread over a few
 * threads, so that CI, which has no GPU, runs the GPU's arithmetic with real races on the
 * counts. */
#include "hrc_accel.h"
#include "hrc_accel_steps.h"
#include "parallel.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { EMUL_THREADS = 4 };

static atomic_int fail_after;

void bb_smc_hrc_accel_emulated_fail_after(int runs) { atomic_store(&fail_after, runs); }

static void *emul_open(const bb_smc_hrc_accel_lists *lists, bb_error *err) {
  bb_smc_hrc_accel_lists *l = malloc(sizeof *l);
  if (!l) {
    bb_fail(err, BB_ERR_NOMEM, "stable_matching_hrc: out of memory for the emulated engine");
    return NULL;
  }
  *l = *lists;
  return l;
}

static void emul_close(void *engine) { free(engine); }

static void entries(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  for (int64_t e = begin; e < end; e++) bb_smc_hrc_accel_count_entry(ctx, (uint32_t)e);
}

static void hospitals(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  for (int64_t h = begin; h < end; h++) bb_smc_hrc_accel_prefix(ctx, (int)h);
}

static bb_status emul_count(void *engine, const uint32_t *alive, const int32_t *asize, const bb_smc_hrc_accel_out *out,
                            bb_error *err) {
  const bb_smc_hrc_accel_lists *l = engine;
  int left = atomic_load(&fail_after);
  if (left > 0 && atomic_fetch_sub(&fail_after, 1) == 1)
    return bb_fail(err, BB_ERR_GPU, "emulated CUDA failure (bb_smc_hrc_accel_emulated_fail_after)");
  memset(out->poss, 0, ((size_t)l->slots + 1) * sizeof *out->poss);
  bb_smc_hrc_accel_view v = {l->entries, l->n_hospitals,   l->e_s1,          l->e_s2,
                             alive,      l->hosp_start,    l->slot_var,      asize,
                             out->poss,  out->poss_before, out->sure_before, out->sure_total};
  int threads = l->entries < 256 ? 2 : EMUL_THREADS;
  bb_parallel_for(threads, l->entries, entries, &v);
  bb_parallel_for(threads, l->n_hospitals, hospitals, &v);
  return BB_OK;
}

const bb_smc_hrc_accel_engine_ops bb_smc_hrc_accel_emulated_ops = {"emulated", emul_open, emul_close, emul_count};
