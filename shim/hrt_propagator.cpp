// The native HRT propagator (weak stability): Gecode's side of propagator/smc/ties/smc_hrt.h.
#include "hrt_propagator.hh"

#include "shim_internal.hh"
#include "smc_domains.hh"

#include <cstring>
#include <new>

using namespace Gecode;

namespace bamboo {

typedef Int::OffsetView View;

StableMatchingHRT::StableMatchingHRT(Home home, ViewArray<View> &x0, bb_smc_ties_hrt *t)
    : WatchedPropagator(home, x0), ties(t), node(nullptr), scratch(nullptr) {
  Space &s = home;
  node = reinterpret_cast<bb_smc_ties_hrt_node *>(s.alloc<char>(bb_smc_ties_hrt_node_bytes(ties)));
  bb_smc_ties_hrt_node_init(node, ties);
  watch(home);
}

// As StableMatchingHR's copy: nothing outside the space's heap until the last step.
StableMatchingHRT::StableMatchingHRT(Space &home, StableMatchingHRT &other)
    : WatchedPropagator(home, other), ties(nullptr), node(nullptr), scratch(nullptr) {
  size_t bytes = bb_smc_ties_hrt_node_bytes(other.ties);
  node = reinterpret_cast<bb_smc_ties_hrt_node *>(home.alloc<char>(bytes));
  memcpy(node, other.node, bytes);
  ties = bb_smc_ties_hrt_retain(other.ties);
}

ExecStatus StableMatchingHRT::post(Home home, ViewArray<View> &x, bb_smc_ties_hrt *t) {
  try {
    (void)new (home) StableMatchingHRT(home, x, t);
  } catch (...) {
    bb_smc_ties_hrt_release(t);
    throw;
  }
  return ES_OK;
}

Propagator *StableMatchingHRT::copy(Space &home) { return new (home) StableMatchingHRT(home, *this); }

// Linear in the lists plus the matching's augmentations: after the cheaper propagators.
PropCost StableMatchingHRT::cost(const Space &, const ModEventDelta &) const {
  return PropCost::linear(PropCost::HI, x.size());
}

bb_smc_ties_hrt_scratch *StableMatchingHRT::work_space() {
  if (!scratch) {
    bb_error err;
    scratch = bb_smc_ties_hrt_scratch_new(ties, &err);
    if (!scratch) throw std::bad_alloc();
  }
  return scratch;
}

ExecStatus StableMatchingHRT::advise(Space &home, Advisor &a, const Delta &) {
  Watch &w = static_cast<Watch &>(a);
  bool done = x[w.var].assigned();
  if (propagating) return done ? home.ES_FIX_DISPOSE(watches, w) : ES_FIX;
  bb_smc_ties_hrt_note(work_space(), ties, w.var);
  return done ? home.ES_NOFIX_DISPOSE(watches, w) : ES_NOFIX;
}

ExecStatus StableMatchingHRT::propagate(Space &home, const ModEventDelta &) {
  bb_smc_ties_hrt_scratch *s = work_space();
  SmcHost host = {&home, &x};
  const bb_smc_domains domains = smc_domains(host);
  bb_smc_status result;
  {
    Propagating guard(propagating);
    result = bb_smc_ties_hrt_propagate(ties, node, s, &domains);
  }
  // The rules run to their fixpoint; once every variable is fixed no advisor is left to wake us.
  return result == BB_SMC_FAILED ? ES_FAILED : ES_FIX;
}

size_t StableMatchingHRT::dispose(Space &home) {
  unwatch(home);
  home.free<char>(reinterpret_cast<char *>(node), bb_smc_ties_hrt_node_bytes(ties));
  bb_smc_ties_hrt_release(ties);
  bb_smc_ties_hrt_scratch_free(scratch);
  (void)Propagator::dispose(home);
  return sizeof(*this);
}

} // namespace bamboo
