/* The native HR propagation's data-parallel part: the resident-oriented proposals over the
 * current domains, written once in the common subset of C11 and CUDA C++ and compiled two ways:
 *   cuda/gpu_smc_hr.cu                    one GPU thread per resident (atomicMin on 64-bit words);
 *   propagator/smc/hr/smc_hr_accel.c      host threads and C11 atomics (the CPU emulation CI tests).
 *
 * Every hospital h owns capacity[h] slots, one 64-bit word each: (h's position of the
 * resident) << 32 | resident, or BB_SMC_HR_ACCEL_EMPTY. A thread takes its resident to his
 * first still-possible hospital (from his smallest value on: the entries whose bit is set in
 * `alive`) and inserts his word into the hospital's slots by a cascade of atomicMin, slot 0
 * first: a smaller word that a slot held is carried on to the next slot, so the slots only
 * ever decrease, stay sorted, and at the end hold the capacity[h] best proposers (what falls
 * off the last slot is worse than every word left in them). The word that falls off is a
 * rejected resident: the thread carries him on from his next entry (the loss-free chain of
 * [Bamboo-SMP], as cuda/gpu_hr.cu does for the engine). A capacity-0 hospital rejects at once.
 * Each resident is carried by at most one thread at a time (his word is in one slot or in
 * one thread's hands), so no per-resident state is shared; the final slots say everything:
 * a resident in a slot of h ends at h, one in no slot ran out of hospitals.
 *
 * Why the host may then raise each resident's smallest value to that final hospital: every
 * entry he passed was rejected because capacity[h] residents h prefers to him ended at h (or
 * past it), i.e. proposed to h, so the CPU rules of smc_hr_propagate.c (proposed_cut) remove
 * him from h too. The host applies these removals and lets the CPU rules finish the
 * fixpoint; the rules are monotone, so the fixpoint is the CPU path's (tests/test_smc_hr_accel.c
 * compares the domains after every propagation). */
#ifndef BB_SMC_HR_ACCEL_STEPS_H
#define BB_SMC_HR_ACCEL_STEPS_H

#include <stdint.h>

#ifdef __CUDACC__
#define BB_SMC_HR_ACCEL_FN static __device__ __forceinline__
typedef unsigned long long bb_smc_hr_accel_u64a;
BB_SMC_HR_ACCEL_FN unsigned long long bb_smc_hr_accel_min_u64(bb_smc_hr_accel_u64a *p, unsigned long long v) {
  return atomicMin(p, v);
}
#else
#include <stdatomic.h>
#define BB_SMC_HR_ACCEL_FN static inline
typedef _Atomic uint64_t bb_smc_hr_accel_u64a;
/* C11 has no fetch-min: a compare-and-swap loop that gives up once the word is small enough. */
BB_SMC_HR_ACCEL_FN uint64_t bb_smc_hr_accel_min_u64(bb_smc_hr_accel_u64a *p, uint64_t v) {
  uint64_t old = atomic_load_explicit(p, memory_order_relaxed);
  while (old > v && !atomic_compare_exchange_weak_explicit(p, &old, v, memory_order_acq_rel, memory_order_relaxed)) {}
  return old;
}
#endif

#define BB_SMC_HR_ACCEL_EMPTY 0xffffffffffffffffULL

/* The state of one proposal run. Pointers are device pointers on the GPU. */
typedef struct bb_smc_hr_accel_view {
  int nr;
  const uint32_t *res_start, *res_hosp, *res_pos; /* smc_hr_internal.h's resident lists */
  const uint32_t *hosp_start, *hosp_rank;         /* and the hospitals' */
  const uint32_t *slot_start;                     /* h's slots: slot_start[h] .. slot_start[h + 1] */
  const uint32_t *alive;                          /* one bit per resident entry: still possible */
  const uint32_t *start;                          /* each resident's smallest value */
  bb_smc_hr_accel_u64a *slot;                     /* every slot, EMPTY before the run */
} bb_smc_hr_accel_view;

/* One thread's work: resident r's proposals and the chain of residents they reject. */
BB_SMC_HR_ACCEL_FN void bb_smc_hr_accel_propose(const bb_smc_hr_accel_view *v, int r) {
  uint32_t s = (uint32_t)r, k = v->start[r];
  for (;;) {
    uint32_t first = v->res_start[s], len = v->res_start[s + 1] - first;
    while (k < len && !(v->alive[(first + k) >> 5] >> ((first + k) & 31) & 1u)) k++;
    if (k >= len) return; /* s has no hospital left: unassigned */
    uint32_t h = v->res_hosp[first + k];
    unsigned long long w = (unsigned long long)v->res_pos[first + k] << 32 | s;
    for (uint32_t q = v->slot_start[h]; q < v->slot_start[h + 1] && w != BB_SMC_HR_ACCEL_EMPTY; q++) {
      unsigned long long old = bb_smc_hr_accel_min_u64(&v->slot[q], w);
      if (old > w) w = old; /* w took the slot; carry on the one it held (or stop at EMPTY) */
    }
    if (w == BB_SMC_HR_ACCEL_EMPTY) return;
    /* w fell off h's last slot: that resident is rejected by h, and goes on from his next entry. */
    s = (uint32_t)(w & 0xffffffffu);
    k = v->hosp_rank[v->hosp_start[h] + (uint32_t)(w >> 32)] + 1;
  }
}

#endif
