/* The [Bamboo-SMP] workloads' rows on the host (generate.h): the row code itself is
 * base/gen_row.h, which cuda/gpu_gen.cu compiles too, so host and device give the same rows
 * bit for bit (docs/generators.md, "On the GPU"). Only the permutations (sigma for perfect,
 * the relabellings for solo) are drawn sequentially, once, on the host: bb_gen_spec_init. */
#ifndef BB_GEN_ROWS_H
#define BB_GEN_ROWS_H

#include "gen_row.h" /* bb_gen_spec and the row functions, shared with cuda/gpu_gen.cu */
#include "generate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks the arguments as bb_generate does and draws the permutations into `perms`
 * (4n ids, owned by the caller; NULL allowed for congested, random and uniform). */
bb_status bb_gen_spec_init(bb_gen_spec *spec, bb_gen_kind kind, int n, int group, uint64_t seed, bb_id *perms,
                           bb_error *err);

/* Rows first .. first + count - 1 of side `women` (0 men, 1 women) into out[count * n]. */
void bb_gen_rows(const bb_gen_spec *spec, int women, int first, int count, bb_id *out);

/* Every row of side `women` into out[n * n], on `threads` threads (0: all CPUs). solve
 * --gen-on gpu no longer holds a side on the host (it reads rows one at a time through
 * row_source.h); this stays for callers that want a whole side. */
void bb_generate_side(const bb_gen_spec *spec, int women, int threads, bb_id *out);

#ifdef __cplusplus
}
#endif
#endif
