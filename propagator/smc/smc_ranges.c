/* Domains by ranges. The constraint's domains after the first propagation are
 * GS-lists: an interval of ranks with holes. Gecode stores a domain as a list of ranges, so
 * reading one value by value (a value iterator over the ranges) and writing one from a value
 * array (which Gecode turns back into ranges) costs a step per value on each side. Where the
 * host offers the optional range operations of bb_smc_domains, the core reads and writes
 * ranges directly; otherwise these fall back to the value operations, with the same result. */
#include "smc_internal.h"

#include <assert.h>

/* The maximal runs of ascending distinct values, as lo, hi pairs; returns how many. */
static int runs_of(const int *values, int count, int *pairs) {
  int runs = 0;
  for (int k = 0; k < count; k++) {
    assert(k == 0 || values[k] > values[k - 1]); /* ascending and distinct */
    if (runs > 0 && values[k] == pairs[2 * runs - 1] + 1) {
      pairs[2 * runs - 1] = values[k];
    } else {
      pairs[2 * runs] = pairs[2 * runs + 1] = values[k];
      runs++;
    }
  }
  return runs;
}

int bb_smc_read_ranges(const bb_smc_domains *d, bb_smc_scratch *s, int var) {
  if (d->ranges) return d->ranges(d->ctx, var, s->w->pairs);
  int count = d->values(d->ctx, var, s->w->values);
  return runs_of(s->w->values, count, s->w->pairs);
}

bool bb_smc_keep(const bb_smc_domains *d, bb_smc_scratch *s, int var, const int *values, int count) {
  if (!d->keep_ranges || count == 0) return d->keep_values(d->ctx, var, values, count) != BB_SMC_FAILED;
  return d->keep_ranges(d->ctx, var, s->w->pairs, runs_of(values, count, s->w->pairs)) != BB_SMC_FAILED;
}

bool bb_smc_remove(const bb_smc_domains *d, bb_smc_scratch *s, int var, const int *values, int count) {
  if (count == 1) return d->remove(d->ctx, var, values[0]) != BB_SMC_FAILED;
  if (!d->remove_ranges || count == 0) return d->remove_values(d->ctx, var, values, count) != BB_SMC_FAILED;
  return d->remove_ranges(d->ctx, var, s->w->pairs, runs_of(values, count, s->w->pairs)) != BB_SMC_FAILED;
}
