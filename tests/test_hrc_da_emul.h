/* The GPU's run on the host (test_hrc_da_emul.c): hrc_da_core.h compiled without the host's
 * hooks, as cuda/gpu_hrc_da.cu compiles it, so its count judges every matching. */
#ifndef TEST_HRC_DA_EMUL_H
#define TEST_HRC_DA_EMUL_H

#include <stdint.h>

#include "hrc_da_core.h"

/* Run `run` of a portfolio of `seed` (run 0 deterministic) on lists L; best_assigned[nr] and
 * *best get its best matching and count, *t its rounds and proposals. false if out of memory. */
bool emul_run(const bb_hrcda_lists *L, uint64_t max_proposals, int max_rounds, int run, uint64_t seed,
              int32_t *best_assigned, uint64_t *best, bb_hrcda_totals *t);

#endif
