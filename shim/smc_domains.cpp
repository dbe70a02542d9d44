// The host contract of the stable-matching cores on Gecode's views (smc_domains.hh).
#include "smc_domains.hh"

#include "shim_internal.hh"

#include <climits>

using namespace Gecode;

namespace bamboo {

namespace {

typedef Int::OffsetView View;

View &view(void *ctx, int var) { return (*static_cast<SmcHost *>(ctx)->x)[var]; }
Space &space(void *ctx) { return *static_cast<SmcHost *>(ctx)->home; }
using bb_shim::smc_status_of;

int dom_min(void *ctx, int var) { return view(ctx, var).min(); }
int dom_max(void *ctx, int var) { return view(ctx, var).max(); }
int dom_size(void *ctx, int var) { return (int)view(ctx, var).size(); }
bool dom_contains(void *ctx, int var, int value) { return view(ctx, var).in(value); }
int dom_values(void *ctx, int var, int *out) {
  int k = 0;
  for (Int::ViewValues<View> it(view(ctx, var)); it(); ++it) out[k++] = it.val();
  return k;
}
bb_smc_status dom_remove(void *ctx, int var, int value) { return smc_status_of(view(ctx, var).nq(space(ctx), value)); }
bb_smc_status dom_lower_max(void *ctx, int var, int value) {
  return smc_status_of(view(ctx, var).lq(space(ctx), value));
}
bb_smc_status dom_raise_min(void *ctx, int var, int value) {
  return smc_status_of(view(ctx, var).gq(space(ctx), value));
}
bb_smc_status dom_assign(void *ctx, int var, int value) { return smc_status_of(view(ctx, var).eq(space(ctx), value)); }
bb_smc_status dom_remove_range(void *ctx, int var, int lo, int hi) {
  Iter::Ranges::Singleton gone(lo, hi);
  return smc_status_of(view(ctx, var).minus_r(space(ctx), gone, false));
}
bb_smc_status dom_remove_values(void *ctx, int var, const int *values, int count) {
  Iter::Values::Array it(const_cast<int *>(values), count);
  return smc_status_of(view(ctx, var).minus_v(space(ctx), it, false));
}
bb_smc_status dom_keep_values(void *ctx, int var, const int *values, int count) {
  Iter::Values::Array it(const_cast<int *>(values), count);
  return smc_status_of(view(ctx, var).narrow_v(space(ctx), it, false));
}
// Gecode keeps a domain as a list of ranges, so this reads it a range at a time, where
// dom_values goes value by value (the parallel path's gather, the scans).
int dom_ranges(void *ctx, int var, int *out) {
  int k = 0;
  for (Int::ViewRanges<View> it(view(ctx, var)); it(); ++it) {
    out[2 * k] = it.min();
    out[2 * k + 1] = it.max();
    k++;
  }
  return k;
}
// A walk from the smallest range, which stops at once for the values just above a domain's
// minimum (a proposer's next rank, smc_delta.c).
int dom_next(void *ctx, int var, int value) {
  for (Int::ViewRanges<View> it(view(ctx, var)); it(); ++it)
    if (it.max() > value) return it.min() > value ? it.min() : value + 1;
  return INT_MAX;
}

} // namespace

bb_smc_domains smc_domains(SmcHost &host) {
  bb_smc_domains d = {};
  d.ctx = &host;
  d.min = dom_min;
  d.max = dom_max;
  d.size = dom_size;
  d.contains = dom_contains;
  d.values = dom_values;
  d.remove = dom_remove;
  d.lower_max = dom_lower_max;
  d.raise_min = dom_raise_min;
  d.assign = dom_assign;
  d.remove_range = dom_remove_range;
  d.remove_values = dom_remove_values;
  d.keep_values = dom_keep_values;
  d.ranges = dom_ranges;
  d.keep_ranges = nullptr;
  d.remove_ranges = nullptr;
  d.next = dom_next;
  return d;
}

} // namespace bamboo
