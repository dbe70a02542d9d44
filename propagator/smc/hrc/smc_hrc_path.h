/* Where the HRC constraint's propagation (smc_hrc.h's bb_smc_hrc_propagate) runs its counting
 * pass. Every propagation starts with that pass, O(total list length): for every slot
 * of every hospital's list, how many domain values place that resident there, and how many
 * residents the hospital ranks above him are possibly / surely there. The rules then read
 * these counts.
 *   BB_SMC_PATH_CPU (and AUTO)  the counting pass on the host;
 *   BB_SMC_PATH_GPU             the domains gathered into one bit per list entry and the
 *                               counting pass on the GPU (cuda/gpu_hrc.cu), the rules on the
 *                               host: without a usable GPU, or when a CUDA call fails, one
 *                               warning per constraint on stderr and the host's pass from then on;
 *   BB_SMC_PATH_EMULATED        the GPU's steps (cuda/hrc_accel_steps.h) on host threads with
 *                               atomics: how CI, which has no GPU, tests the GPU's arithmetic.
 * The counts are the same on every path, and so are the domains and bp's bounds. */
#ifndef BB_SMC_HRC_PATH_H
#define BB_SMC_HRC_PATH_H

#include "smc_hrc.h"
#include "smc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The constraint's path, for every propagation from now on (the CPU after bb_smc_hrc_new). Set it
 * before the data is shared (between posting and the first propagation):
 * it is a property of the constraint, not of one call. */
void bb_smc_hrc_set_path(bb_smc_hrc *d, bb_smc_path path);

/* For tests and benchmarks: counting passes run on this constraint's engines, and the times an
 * engine could not run (the host's pass ran instead). */
void bb_smc_hrc_accel_counts(const bb_smc_hrc *d, long long *runs, long long *fallbacks);

#ifdef __cplusplus
}
#endif
#endif
