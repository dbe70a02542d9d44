/* The GPU side of the engine for SMI/HR (cuda/gpu_hr.cu; gpu_stub.c answers BB_ERR_NO_GPU
 * without CUDA). It reads the CSR lists of engine/hr/hr.h, passed in as plain arrays, and
 * writes post words in the format of hr_posts.h (rank << 32 | resident, all ones when free):
 * it includes neither. */
#ifndef BB_GPU_HR_H
#define BB_GPU_HR_H

#include "bb_common.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A free post's word (hr_posts.h's BB_HR_EMPTY_POST). */
#define BB_GPU_HR_EMPTY_POST UINT64_MAX

/* The lists, uploaded as they are (bb_hr's arrays), and every hospital's first post. */
typedef struct bb_gpu_hr_input {
  int n_residents, n_hospitals;
  const uint32_t *res_start; /* n_residents + 1 offsets into res_list */
  const bb_id *res_list;
  const uint32_t *hosp_start; /* n_hospitals + 1 offsets into hosp_list */
  const bb_id *hosp_list;
  const uint32_t *post_start; /* n_hospitals + 1 */
  uint32_t posts;             /* post_start[n_hospitals] */
  double time_limit_s;        /* from the call; 0: none */
} bb_gpu_hr_input;

/* Seconds spent, added to what the fields hold (the caller's bb_solve_stats takes them). */
typedef struct bb_gpu_hr_times {
  double transfer, init, solve, post;
} bb_gpu_hr_times;

/* GPU initialisation ([Bamboo-SMP]): the lists are uploaded as they are and the ranked view is
 * built on the device: each hospital's list is sorted by resident id (carrying the ranks) with
 * CUB's segmented sort, then every resident entry finds its rank by binary search in its
 * hospital's sorted list (t_init). No ranking on the host.
 *
 * Resident-optimal proposals on the GPU: one thread per resident runs his chain (hr_par.c's
 * algorithm with atomicMin on the post words instead of compare-and-swap) while this thread
 * watches how many chains are still running. Once at most `tail` are (0: never), the kernel
 * is told to stop and each running thread parks its resident, so the CPU can finish the
 * chains (bb_hr_finish_chains). On return posts[] (posts words) and cursor[] (n_residents:
 * entry << 32 | post where each parked resident resumes) hold the GPU's state, and
 * parked[0..*parked_count) the residents to finish. Times go to `times` (may be NULL: transfer for the
 * uploads, solve, post for the downloads). A time limit returns BB_ERR_TIMEOUT. */
bb_status bb_gpu_hr_propose(const bb_gpu_hr_input *in, int tail, uint64_t *posts, uint64_t *cursor, uint32_t *parked,
                            int *parked_count, bb_gpu_hr_times *times, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
