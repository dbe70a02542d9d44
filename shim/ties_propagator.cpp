// The native SMTI and HRT propagators (weak, strong or super-stability): Gecode's side of
// propagator/smc/ties/smc_ties.h and smc_hrt.h, one template (ties_propagator.hh).
#include "ties_propagator.hh"

#include "shim_internal.hh"
#include "smc_domains.hh"

#include <cstring>
#include <new>

using namespace Gecode;

namespace bamboo {

typedef Int::OffsetView View;

template <class Core>
TiesPropagator<Core>::TiesPropagator(Home home, ViewArray<View> &x0, typename Core::data *t)
    : WatchedPropagator(home, x0), ties(t), node(nullptr), scratch(nullptr) {
  Space &s = home;
  node = reinterpret_cast<typename Core::node *>(s.alloc<char>(Core::node_bytes(ties)));
  Core::node_init(node, ties);
  watch(home);
}

// As StableMatchingHR's copy: nothing outside the space's heap until the last step.
template <class Core>
TiesPropagator<Core>::TiesPropagator(Space &home, TiesPropagator &other)
    : WatchedPropagator(home, other), ties(nullptr), node(nullptr), scratch(nullptr) {
  size_t bytes = Core::node_bytes(other.ties);
  node = reinterpret_cast<typename Core::node *>(home.alloc<char>(bytes));
  memcpy(node, other.node, bytes);
  ties = Core::retain(other.ties);
}

template <class Core>
ExecStatus TiesPropagator<Core>::post(Home home, ViewArray<View> &x, typename Core::data *t) {
  try {
    (void)new (home) TiesPropagator(home, x, t);
  } catch (...) {
    Core::release(t);
    throw;
  }
  return ES_OK;
}

template <class Core>
Propagator *TiesPropagator<Core>::copy(Space &home) {
  return new (home) TiesPropagator(home, *this);
}

// Linear in the lists plus the matching's augmentations: after the cheaper propagators.
template <class Core>
PropCost TiesPropagator<Core>::cost(const Space &, const ModEventDelta &) const {
  return PropCost::linear(PropCost::HI, x.size());
}

template <class Core>
typename Core::scratch *TiesPropagator<Core>::work_space() {
  if (!scratch) {
    bb_error err;
    scratch = Core::scratch_new(ties, &err);
    if (!scratch) throw std::bad_alloc();
  }
  return scratch;
}

template <class Core>
ExecStatus TiesPropagator<Core>::advise(Space &home, Advisor &a, const Delta &) {
  Watch &w = static_cast<Watch &>(a);
  bool done = x[w.var].assigned();
  if (propagating) return done ? home.ES_FIX_DISPOSE(watches, w) : ES_FIX;
  Core::note(work_space(), ties, w.var);
  return done ? home.ES_NOFIX_DISPOSE(watches, w) : ES_NOFIX;
}

template <class Core>
ExecStatus TiesPropagator<Core>::propagate(Space &home, const ModEventDelta &) {
  typename Core::scratch *s = work_space();
  SmcHost host = {&home, &x};
  const bb_smc_domains domains = smc_domains(host);
  bb_smc_status result;
  {
    Propagating guard(propagating);
    result = Core::propagate(ties, node, s, &domains);
  }
  // The rules run to their fixpoint; once every variable is fixed no advisor is left to wake us.
  return result == BB_SMC_FAILED ? ES_FAILED : ES_FIX;
}

template <class Core>
size_t TiesPropagator<Core>::dispose(Space &home) {
  unwatch(home);
  home.free<char>(reinterpret_cast<char *>(node), Core::node_bytes(ties));
  Core::release(ties);
  Core::scratch_free(scratch);
  (void)Propagator::dispose(home);
  return sizeof(*this);
}

template class TiesPropagator<SmtiCore>;
template class TiesPropagator<HrtCore>;

} // namespace bamboo
