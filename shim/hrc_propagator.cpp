// The HRC propagator: Gecode's side of propagator/smc/hrc/smc_hrc.h.
#include "hrc_propagator.hh"

#include "shim_internal.hh"
#include "smc_domains.hh"

#include <vector>

using namespace Gecode;

namespace bamboo {

typedef Int::OffsetView View;

namespace {

// What a propagation works in, one per thread and kept between propagations: the core's
// instance-sized scratch and the budgets' four arrays. Allocated anew at every propagation,
// they cost fresh pages at every search node.
struct HrcScratch {
  bb_smc_hrc_scratch *core = bb_smc_hrc_scratch_new(); // NULL: the core allocates per call
  std::vector<int32_t> own_min, own_max, own_lb, own_ub;
  HrcScratch() = default;
  HrcScratch(const HrcScratch &) = delete;
  HrcScratch &operator=(const HrcScratch &) = delete;
  ~HrcScratch() { bb_smc_hrc_scratch_free(core); }
  void fit(int n) {
    if (own_min.size() >= (size_t)n) return;
    own_min.resize((size_t)n), own_max.resize((size_t)n), own_lb.resize((size_t)n), own_ub.resize((size_t)n);
  }
};
thread_local HrcScratch scratch;

} // namespace

StableMatchingHRC::StableMatchingHRC(Home home, ViewArray<View> &x0, ViewArray<Int::IntView> &own0, Int::IntView bp0,
                                     bb_smc_hrc *d)
    : Propagator(home), x(x0), own(own0), bp(bp0), data(d) {
  x.subscribe(home, *this, Int::PC_INT_DOM);
  own.subscribe(home, *this, Int::PC_INT_BND);
  bp.subscribe(home, *this, Int::PC_INT_BND);
  home.notice(*this, AP_DISPOSE);
}

StableMatchingHRC::StableMatchingHRC(Space &home, StableMatchingHRC &other)
    : Propagator(home, other), data(other.data) {
  x.update(home, other.x);
  own.update(home, other.own);
  bp.update(home, other.bp);
  bb_smc_hrc_retain(data);
}

void StableMatchingHRC::post(Home home, ViewArray<View> &x, ViewArray<Int::IntView> &own, Int::IntView bp,
                             bb_smc_hrc *d) {
  (void)new (home) StableMatchingHRC(home, x, own, bp, d);
}

Actor *StableMatchingHRC::copy(Space &home) { return new (home) StableMatchingHRC(home, *this); }

PropCost StableMatchingHRC::cost(const Space &, const ModEventDelta &) const {
  return PropCost::linear(PropCost::HI, x.size());
}

void StableMatchingHRC::reschedule(Space &home) {
  x.reschedule(home, *this, Int::PC_INT_DOM);
  own.reschedule(home, *this, Int::PC_INT_BND);
  bp.reschedule(home, *this, Int::PC_INT_BND);
}

size_t StableMatchingHRC::dispose(Space &home) {
  home.ignore(*this, AP_DISPOSE);
  x.cancel(home, *this, Int::PC_INT_DOM);
  own.cancel(home, *this, Int::PC_INT_BND);
  bp.cancel(home, *this, Int::PC_INT_BND);
  bb_smc_hrc_release(data);
  bb_smc_hrc_memo_free(memo);
  (void)Propagator::dispose(home);
  return sizeof(*this);
}

ExecStatus StableMatchingHRC::propagate(Space &home, const ModEventDelta &) {
  SmcHost host{&home, &x};
  const bb_smc_domains dom = smc_domains(host);
  int64_t lb, ub;
  int n = x.size();
  scratch.fit(n);
  int32_t *own_min = scratch.own_min.data(), *own_max = scratch.own_max.data();
  int32_t *own_lb = scratch.own_lb.data(), *own_ub = scratch.own_ub.data();
  for (int v = 0; v < n; v++) {
    own_min[v] = own[v].min();
    own_max[v] = own[v].max();
  }
  bb_smc_hrc_budgets budgets{own_min, own_max, own_lb, own_ub};
  if (!memo) memo = bb_smc_hrc_memo_new(); // NULL: every propagation counts everything
  bb_smc_status r = bb_smc_hrc_propagate_memo(data, &dom, bp.max(), &budgets, scratch.core, memo, &lb, &ub);
  if (r == BB_SMC_NOMEM) throw MemoryExhausted();
  if (r == BB_SMC_FAILED) return ES_FAILED;
  bool moved = false;
  for (int v = 0; v < n; v++) {
    ModEvent a = own[v].gq(home, own_lb[v]), b = own[v].lq(home, own_ub[v]);
    if (me_failed(a) || me_failed(b)) return ES_FAILED;
    moved = moved || a != Int::ME_INT_NONE || b != Int::ME_INT_NONE;
  }
  ModEvent m1 = bp.gq(home, bb_clamp_int(lb)), m2 = bp.lq(home, bb_clamp_int(ub));
  if (me_failed(m1) || me_failed(m2)) return ES_FAILED;
  if (r == BB_SMC_CHANGED || moved || m1 != Int::ME_INT_NONE || m2 != Int::ME_INT_NONE) return ES_NOFIX;
  if (bp.assigned() && x.assigned()) return home.ES_SUBSUMED(*this);
  return ES_FIX;
}

} // namespace bamboo
