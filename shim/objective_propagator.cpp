// The objective bounds' propagator: Gecode's side of propagator/smc/objective/smc_objective.h.
#include "objective_propagator.hh"

#include "bb_smc_objective.h"
#include "shim_internal.hh"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace Gecode;

namespace bamboo {

ObjectiveBound::ObjectiveBound(Home home, ViewArray<Int::OffsetView> &x0, Int::IntView c, bb_smo *d, int b, int k)
    : Propagator(home), x(x0), total(c), data(d), base(b), kind(k), bounded(false) {
  x.subscribe(home, *this, Int::PC_INT_DOM);
  total.subscribe(home, *this, Int::PC_INT_BND); // a new incumbent can make the bound bite
  home.notice(*this, AP_DISPOSE);
}

ObjectiveBound::ObjectiveBound(Space &home, ObjectiveBound &p)
    : Propagator(home, p), data(p.data), base(p.base), kind(p.kind), bounded(p.bounded) {
  x.update(home, p.x);
  total.update(home, p.total);
  bb_smo_retain(data);
}

void ObjectiveBound::post(Home home, ViewArray<Int::OffsetView> &x, Int::IntView c, bb_smo *d, int base, int kind) {
  (void)new (home) ObjectiveBound(home, x, c, d, base, kind);
}

Actor *ObjectiveBound::copy(Space &home) { return new (home) ObjectiveBound(home, *this); }

// O(n^2) per call: scheduled after the cheaper propagators (stability's) reach their fixpoint
PropCost ObjectiveBound::cost(const Space &, const ModEventDelta &) const {
  return PropCost::quadratic(PropCost::HI, x.size());
}

void ObjectiveBound::reschedule(Space &home) {
  x.reschedule(home, *this, Int::PC_INT_DOM);
  total.reschedule(home, *this, Int::PC_INT_BND);
}

size_t ObjectiveBound::dispose(Space &home) {
  home.ignore(*this, AP_DISPOSE);
  x.cancel(home, *this, Int::PC_INT_DOM);
  total.cancel(home, *this, Int::PC_INT_BND);
  bb_smo_release(data);
  (void)Propagator::dispose(home);
  return sizeof(*this);
}

ExecStatus ObjectiveBound::propagate(Space &home, const ModEventDelta &) {
  int n = bb_smo_n(data);
  // The most any completion of the domains can cost: while cost may still reach it, the
  // bound (never above it) cannot fail, and the O(n^2) lattice work is skipped. This keeps
  // the descent to a first solution as fast as without the bound: O(n) per call when the
  // weights grow with the rank (a domain's extreme weights at its extreme ranks).
  bool monotone = bb_smo_monotone(data);
  int64_t men_hi = 0, men_lo = 0, women_hi = 0, women_lo = 0, top_rank = 0;
  for (int v = 0; v < 2 * n; v++) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    int kmin = std::max(x[v].min(), 0), kmax = std::min(x[v].max(), n - 1);
    if (kmin > kmax) return ES_FAILED; // no rank left (cannot happen after dom() at post)
    if (monotone) {
      lo = bb_smo_weight(data, v, kmin), hi = bb_smo_weight(data, v, kmax);
    } else {
      for (Int::ViewValues<Int::OffsetView> it(x[v]); it(); ++it) {
        int k = it.val();
        if (k < 0 || k >= n) continue;
        int64_t w = bb_smo_weight(data, v, k);
        lo = w < lo ? w : lo, hi = w > hi ? w : hi;
      }
    }
    top_rank = kmax > top_rank ? kmax : top_rank;
    (v < n ? men_lo : women_lo) += lo;
    (v < n ? men_hi : women_hi) += hi;
  }
  int64_t most = kind == BB_SMO_KIND_WEIGHT      ? men_hi + women_hi
                 : kind == BB_SMO_KIND_IMBALANCE ? std::max(men_hi - women_lo, women_hi - men_lo)
                                                 : (int64_t)base + top_rank;
  // Except the first time: the bound computed at the root raises cost's minimum in every node
  // below it, so once a solution is found, branch and bound's tighter maximum empties cost's
  // domain at once in every open node. Without it, each open node of the proof recomputed the
  // lattice only to fail, most of a proof's time (docs/objectives.md).
  if (bounded && total.max() >= most && !x.assigned()) return ES_FIX;
  bounded = true;
  std::vector<uint8_t> ok(2 * (size_t)n * n, 0);
  for (int v = 0; v < 2 * n; v++)
    for (Int::ViewValues<Int::OffsetView> it(x[v]); it(); ++it) {
      int k = it.val();
      if (k >= 0 && k < n) ok[(size_t)v * n + k] = 1;
    }
  bb_smo_allowed allowed{ok.data(), ok.data() + (size_t)n * n};
  int64_t bound = 0, lo = 0, hi = 0;
  int regret = 0;
  bb_smo_result r = kind == BB_SMO_KIND_WEIGHT      ? bb_smo_min_weight(data, allowed, &bound)
                    : kind == BB_SMO_KIND_IMBALANCE ? bb_smo_difference_range(data, allowed, &lo, &hi)
                                                    : bb_smo_min_regret_bound(data, allowed, &regret);
  if (r == BB_SMO_NOMEM) throw MemoryExhausted();
  if (r == BB_SMO_NONE) return ES_FAILED;
  if (kind == BB_SMO_KIND_IMBALANCE) bound = lo > 0 ? lo : hi < 0 ? -hi : 0;
  if (kind == BB_SMO_KIND_REGRET) bound = (int64_t)base + regret;
  GECODE_ME_CHECK(total.gq(home, bb_clamp_int(bound)));
  return x.assigned() ? home.ES_SUBSUMED(*this) : ES_FIX;
}

} // namespace bamboo
