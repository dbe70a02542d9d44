// The native Hospitals/Residents propagator: Gecode's side of propagator/smc/hr/smc_hr.h.
#include "hr_propagator.hh"

#include "shim_internal.hh"
#include "smc_domains.hh"

#include <cstring>
#include <new>

using namespace Gecode;

namespace bamboo {

typedef Int::OffsetView View;

StableMatchingHR::StableMatchingHR(Home home, ViewArray<View> &x0, bb_smc_hr *hr0, bb_smc_path path0)
    : WatchedPropagator(home, x0), hr(hr0), node(nullptr), scratch(nullptr), path(path0) {
  Space &s = home;
  node = reinterpret_cast<bb_smc_hr_node *>(s.alloc<char>(bb_smc_hr_node_bytes(hr)));
  bb_smc_hr_node_init(node, hr);
  watch(home);
}

// As StableMatching's copy: nothing outside the space's heap until the last step.
StableMatchingHR::StableMatchingHR(Space &home, StableMatchingHR &other)
    : WatchedPropagator(home, other), hr(nullptr), node(nullptr), scratch(nullptr), path(other.path) {
  size_t bytes = bb_smc_hr_node_bytes(other.hr);
  node = reinterpret_cast<bb_smc_hr_node *>(home.alloc<char>(bytes));
  memcpy(node, other.node, bytes);
  hr = bb_smc_hr_retain(other.hr);
}

ExecStatus StableMatchingHR::post(Home home, ViewArray<View> &x, bb_smc_hr *hr, bb_smc_path path) {
  try {
    (void)new (home) StableMatchingHR(home, x, hr, path);
  } catch (...) {
    bb_smc_hr_release(hr);
    throw;
  }
  return ES_OK;
}

Propagator *StableMatchingHR::copy(Space &home) { return new (home) StableMatchingHR(home, *this); }

PropCost StableMatchingHR::cost(const Space &, const ModEventDelta &) const {
  return PropCost::linear(PropCost::HI, x.size());
}

bb_smc_hr_scratch *StableMatchingHR::work_space() {
  if (!scratch) {
    bb_error err;
    scratch = bb_smc_hr_scratch_new(hr, &err);
    if (!scratch) throw std::bad_alloc();
  }
  return scratch;
}

ExecStatus StableMatchingHR::advise(Space &home, Advisor &a, const Delta &) {
  Watch &w = static_cast<Watch &>(a);
  bool done = x[w.var].assigned();
  if (propagating) return done ? home.ES_FIX_DISPOSE(watches, w) : ES_FIX;
  bb_smc_hr_note(work_space(), hr, w.var);
  return done ? home.ES_NOFIX_DISPOSE(watches, w) : ES_NOFIX;
}

ExecStatus StableMatchingHR::propagate(Space &home, const ModEventDelta &) {
  bb_smc_hr_scratch *s = work_space();
  SmcHost host = {&home, &x};
  const bb_smc_domains domains = smc_domains(host);
  bb_smc_status result;
  {
    Propagating guard(propagating);
    result = bb_smc_hr_propagate_on(hr, path, node, s, &domains);
  }
  // The rules run to their fixpoint; once every variable is fixed no advisor is left to wake us.
  return result == BB_SMC_FAILED ? ES_FAILED : ES_FIX;
}

size_t StableMatchingHR::dispose(Space &home) {
  unwatch(home);
  home.free<char>(reinterpret_cast<char *>(node), bb_smc_hr_node_bytes(hr));
  bb_smc_hr_release(hr);
  bb_smc_hr_scratch_free(scratch);
  (void)Propagator::dispose(home);
  return sizeof(*this);
}

} // namespace bamboo
