/* Internal to the HRC constraint's core: the counting pass every propagation starts with
 * (O(total list length)), apart from the rules that read it (smc_hrc_propagate.c), so that it can run
 * on a parallel engine (smc_hrc_accel.c) while the rules stay on the host. */
#ifndef BB_SMC_HRC_COUNT_H
#define BB_SMC_HRC_COUNT_H

#include "smc_hrc_data.h"
#include "smc.h" /* bb_smc_path */

/* What the rules read off the domains. Arrays of the propagation's scratch, sized for the
 * constraint: slots, hospitals, variables. */
typedef struct bb_smc_hrc_counts {
  int32_t *poss;                /* per slot: domain values that place the slot's resident there */
  int32_t *poss_before;         /* per slot: residents possibly at the hospital, ranked above */
  int32_t *sure_before;         /* per slot: residents surely there, ranked above */
  int32_t *sure_total;          /* per hospital */
  int32_t *amin, *amax, *asize; /* per variable, at entry */
} bb_smc_hrc_counts;

/* Whether the resident counted at `slot` is surely there: every value of his variable places
 * him at the slot (poss and asize from the counts). */
static inline bool bb_smc_hrc_sure(const bb_smc_hrc *d, const int32_t *poss, const int32_t *asize, int32_t slot) {
  int v = d->slot_var[slot];
  return v >= 0 && poss[slot] > 0 && poss[slot] == asize[v];
}

/* Reads variable v's bounds and size into c (amin, amax, asize) and returns whether its domain
 * has no holes: then every value within the bounds is there and need not be asked for. The one
 * read of the domains both the host's pass and the engines' gather (smc_hrc_accel.c) make. */
static inline bool bb_smc_hrc_read_var(const bb_smc_domains *dom, bb_smc_hrc_counts *c, int v) {
  c->amin[v] = dom->min(dom->ctx, v);
  c->amax[v] = dom->max(dom->ctx, v);
  c->asize[v] = dom->size(dom->ctx, v);
  return c->asize[v] == c->amax[v] - c->amin[v] + 1;
}

/* Whether v's entry k (within its bounds) is acceptable and still in its domain. */
static inline bool bb_smc_hrc_entry_alive(const bb_smc_hrc *d, const bb_smc_domains *dom, int v, int k, bool interval) {
  return d->e_s1[d->var_start[v] + (uint32_t)k] >= 0 && (interval || dom->contains(dom->ctx, v, k));
}

/* Fills *c from the domains: on the host for BB_SMC_PATH_CPU (and AUTO), on the engine of the
 * GPU or EMULATED path otherwise (the host's counts when that engine cannot run: one warning
 * per constraint). The same numbers on every path. Returns false when a hospital is surely
 * over capacity. */
bool bb_smc_hrc_count(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_counts *c);

/* smc_hrc_accel.c: the counts on the path's engine; false (nothing to undo) when it cannot run. */
bool bb_smc_hrc_accel_count(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_counts *c);

#endif
