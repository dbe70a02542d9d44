/* The GPU side of the engine for SMI/HR (cuda/gpu_hr.cu; gpu_stub.c answers BB_ERR_NO_GPU
 * without CUDA). It reads the lists of hr.h and writes the post words of hr_posts.h. */
#ifndef BB_GPU_HR_H
#define BB_GPU_HR_H

#include "hr.h"
#include "hr_posts.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_gpu_hr_input {
  const bb_hr *inst;          /* the lists, uploaded as they are */
  const uint32_t *post_start; /* n_hospitals + 1 */
  uint32_t posts;             /* post_start[n_hospitals] */
} bb_gpu_hr_input;

/* GPU initialisation (seed 000): the lists are uploaded as they are and the ranked view is
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
 * parked[0..*parked_count) the residents to finish. Times go to stats (t_transfer for the
 * uploads, t_solve, t_post for the downloads). A time limit returns BB_ERR_TIMEOUT. */
bb_status bb_gpu_hr_propose(const bb_gpu_hr_input *in, const bb_solve_opts *opts, int tail, uint64_t *posts,
                            uint64_t *cursor, uint32_t *parked, int *parked_count, bb_solve_stats *stats,
                            bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
