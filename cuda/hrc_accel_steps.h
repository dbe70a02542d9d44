/* The HRC constraint's counting pass (propagator/smc/hrc/smc_hrc_count.c's, on the host), written
 * once in the common subset
 * of C11 and CUDA C++ and compiled two ways:
 *   cuda/gpu_hrc.cu                          one GPU thread per list entry, then per hospital;
 *   propagator/smc/hrc/smc_hrc_accel_emul.c      host threads and GCC atomics (what CI tests).
 *
 * Step 1, per list entry whose value is still in its variable's domain: one more value places
 * the resident (both members, for a couple's pair) at its slot. The counts are sums of ones,
 * so the order the atomic adds land in does not change them.
 * Step 2, per hospital, down its list: how many residents it ranks above each slot are
 * possibly there (poss > 0) and surely there (every value of the slot's variable places him
 * there), and how many are surely there in all.
 * These are exactly the numbers the host's pass gives; the rules run on the host over them,
 * so every path gives the same domains (tests/test_hrc_accel.c compares them). */
#ifndef BB_HRC_ACCEL_STEPS_H
#define BB_HRC_ACCEL_STEPS_H

#include <stdint.h>

#ifdef __CUDACC__
#define BB_SMC_HRC_ACCEL_FN static __device__ __forceinline__
BB_SMC_HRC_ACCEL_FN void bb_smc_hrc_accel_add(int32_t *p) { atomicAdd((int *)p, 1); }
BB_SMC_HRC_ACCEL_FN int32_t bb_smc_hrc_accel_load(const int32_t *p) { return *p; }
#else
#define BB_SMC_HRC_ACCEL_FN static inline
BB_SMC_HRC_ACCEL_FN void bb_smc_hrc_accel_add(int32_t *p) { __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); }
BB_SMC_HRC_ACCEL_FN int32_t bb_smc_hrc_accel_load(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
#endif

/* One run's state. Pointers are device pointers on the GPU. */
typedef struct bb_smc_hrc_accel_view {
  uint32_t entries;
  int n_hospitals;
  const int32_t *e_s1, *e_s2;         /* per entry: the slots it places residents at */
  const uint32_t *alive;              /* one bit per entry: in the domain and acceptable */
  const uint32_t *hosp_start;         /* h's slots: hosp_start[h] .. hosp_start[h + 1], best first */
  const int32_t *slot_var;            /* per slot */
  const int32_t *asize;               /* per variable: its domain's size */
  int32_t *poss;                      /* per slot, 0 before step 1 */
  int32_t *poss_before, *sure_before; /* per slot, written by step 2 */
  int32_t *sure_total;                /* per hospital, written by step 2 */
} bb_smc_hrc_accel_view;

BB_SMC_HRC_ACCEL_FN void bb_smc_hrc_accel_count_entry(const bb_smc_hrc_accel_view *v, uint32_t e) {
  if (!(v->alive[e >> 5] >> (e & 31) & 1u)) return;
  bb_smc_hrc_accel_add(&v->poss[v->e_s1[e]]);
  if (v->e_s2[e] >= 0) bb_smc_hrc_accel_add(&v->poss[v->e_s2[e]]);
}

BB_SMC_HRC_ACCEL_FN void bb_smc_hrc_accel_prefix(const bb_smc_hrc_accel_view *v, int h) {
  int32_t may = 0, must = 0;
  for (uint32_t t = v->hosp_start[h]; t < v->hosp_start[h + 1]; t++) {
    int32_t p = bb_smc_hrc_accel_load(&v->poss[t]), var = v->slot_var[t];
    v->poss_before[t] = may;
    v->sure_before[t] = must;
    may += p > 0;
    must += var >= 0 && p > 0 && p == v->asize[var];
  }
  v->sure_total[h] = must;
}

#endif
