/* The pair matrix both engines of the constraint's parallel path read (the GPU,
 * cuda/gpu_smc.cu, and its CPU emulation, smc_accel_emul.c): one row per variable (men, then
 * women) of bb_smc_accel_width entries, (partner's index on the other side << 16) | (partner's
 * rank of the row's person), BB_SMC_ACCEL_NOBODY where nobody is (incomplete lists: the unmatched
 * rank, a one-sided entry, the padding after it). Made here, from the preference data's
 * internals, so that no engine needs them. */
#ifndef BB_SMC_PAIRS_H
#define BB_SMC_PAIRS_H

#include <stdbool.h>
#include <stdint.h>

/* Incomplete lists: nobody at this rank. It is v's unmatched rank (its list's length), or a
 * one-sided entry, which the host trims from the domain before the first propagation: either
 * way the rank is v's to take when its own domain has it, with no partner to cap. The same
 * definition as cuda/smc_accel_steps.h's, which the kernels read. */
#define BB_SMC_ACCEL_NOBODY 0xffffffffu

#include "smc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Entries per row. */
int bb_smc_accel_width(const bb_smc_prefs *p);
/* Rows [row0, row1) into out (row1 - row0 rows of bb_smc_accel_width entries). */
void bb_smc_accel_fill_pairs(const bb_smc_prefs *p, int row0, int row1, uint32_t *out);
/* Whether the engines can take this constraint (16-bit ids and ranks, 32-bit counts); if
 * not, why. */
bool bb_smc_accel_fits(const bb_smc_prefs *p, bb_error *why);

#ifdef __cplusplus
}
#endif
#endif
