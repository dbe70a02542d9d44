/* The parallel part of the native HR propagation, host side: what its engines (the GPU in
 * cuda/gpu_smc_hr.cu, the CPU emulation in propagator/smc/hr/smc_hr_accel_emul.c) are given
 * and give back. The step both run is in smc_hr_accel_steps.h; propagator/smc/hr/smc_hr_accel.c
 * gathers the domains, applies the result and lets the CPU rules finish the fixpoint. */
#ifndef BB_SMC_HR_ACCEL_H
#define BB_SMC_HR_ACCEL_H

#include "bb_common.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The constraint's lists (smc_hr_internal.h's arrays) and every hospital's first slot:
 * slot_start[h] = capacity[0] + .. + capacity[h - 1], slot_start[nh] = slots. */
typedef struct bb_smc_hr_accel_lists {
  int nr, nh;
  uint32_t res_entries, hosp_entries, slots;
  const uint32_t *res_start, *res_hosp, *res_pos, *hosp_start, *hosp_rank, *slot_start;
} bb_smc_hr_accel_lists;

typedef struct bb_smc_hr_accel_engine_ops {
  const char *name;
  /* Takes the lists (a GPU copies them to device 0; the emulation keeps the pointers, which
   * outlive it). */
  void *(*open)(const bb_smc_hr_accel_lists *lists, bb_error *err);
  void (*close)(void *engine); /* accepts NULL */
  /* One run of the proposals: alive has one bit per resident entry (still possible), start
   * each resident's smallest value; slots gets every hospital's slot words at the end. */
  bb_status (*propose)(void *engine, const uint32_t *alive, const uint32_t *start, uint64_t *slots, bb_error *err);
} bb_smc_hr_accel_engine_ops;

extern const bb_smc_hr_accel_engine_ops bb_smc_hr_accel_emulated_ops; /* smc_hr_accel_emul.c */
/* cuda/gpu_smc_hr.cu; NULL in a build without CUDA (gpu_stub.c). */
const bb_smc_hr_accel_engine_ops *bb_smc_hr_accel_gpu_ops(void);

/* For tests: the emulated engine's run number `runs` from now fails as a CUDA error would,
 * so that the fallback to the CPU is exercised. 0: never. */
void bb_smc_hr_accel_emulated_fail_after(int runs);

#ifdef __cplusplus
}
#endif
#endif
