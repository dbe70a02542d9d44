/* The HRC constraint's counting pass on a parallel engine, host side: what its engines (the
 * GPU in cuda/gpu_hrc.cu, the CPU emulation in propagator/smc/hrc/smc_hrc_accel_emul.c) are given
 * and give back. The steps both run are in hrc_accel_steps.h; propagator/smc/hrc/smc_hrc_accel.c
 * gathers the domains, and the rules of smc_hrc_propagate.c read the counts on the host. */
#ifndef BB_HRC_ACCEL_H
#define BB_HRC_ACCEL_H

#include "bb_common.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The constraint's tables (propagator/smc/hrc/internal/smc_hrc_data.h): per list entry the slots
 * it places its resident(s) at (e_s2 >= 0 only for a couple's acceptable entry), per hospital
 * its slots, per slot the variable that can place its resident there (-1: none). */
typedef struct bb_smc_hrc_accel_lists {
  int n_vars, n_hospitals;
  uint32_t entries, slots;
  const int32_t *e_s1, *e_s2;
  const uint32_t *hosp_start; /* n_hospitals + 1 */
  const int32_t *slot_var;
} bb_smc_hrc_accel_lists;

/* One run's results, in the host's arrays: per slot, per hospital (hrc_accel_steps.h). */
typedef struct bb_smc_hrc_accel_out {
  int32_t *poss, *poss_before, *sure_before; /* slots */
  int32_t *sure_total;                       /* hospitals */
} bb_smc_hrc_accel_out;

typedef struct bb_smc_hrc_accel_engine_ops {
  const char *name;
  /* Takes the tables (a GPU copies them to device 0; the emulation keeps the pointers, which
   * outlive it). */
  void *(*open)(const bb_smc_hrc_accel_lists *lists, bb_error *err);
  void (*close)(void *engine); /* accepts NULL */
  /* One counting pass: alive has one bit per entry (its value is in the domain, the entry is
   * acceptable), asize every variable's domain size. */
  bb_status (*count)(void *engine, const uint32_t *alive, const int32_t *asize, const bb_smc_hrc_accel_out *out,
                     bb_error *err);
} bb_smc_hrc_accel_engine_ops;

extern const bb_smc_hrc_accel_engine_ops bb_smc_hrc_accel_emulated_ops; /* smc_hrc_accel_emul.c */
/* cuda/gpu_hrc.cu; NULL in a build without CUDA (gpu_stub.c). */
const bb_smc_hrc_accel_engine_ops *bb_smc_hrc_accel_gpu_ops(void);

/* For tests: the emulated engine's run number `runs` from now fails as a CUDA error would,
 * so that the fallback to the CPU is exercised. 0: never. */
void bb_smc_hrc_accel_emulated_fail_after(int runs);

#ifdef __cplusplus
}
#endif
#endif
