// Hospitals/Residents with ties (weak stability) as one Gecode propagator, a copy of
// StableMatchingSMTI (smti_propagator.hh) over the HRT core (propagator/smc/ties/smc_hrt.h).
#ifndef BB_HRT_PROPAGATOR_HH
#define BB_HRT_PROPAGATOR_HH

#include "smc_hrt.h"

#include "watched_propagator.hh"

#include <gecode/int.hh>

namespace bamboo {

// x: the residents offset by -base, so that the core sees 0-based positions, then the loads and
// size (offset 0).
class StableMatchingHRT : public WatchedPropagator<Gecode::Int::OffsetView> {
 protected:
  bb_smc_ties_hrt *ties;            // shared, reference counted
  bb_smc_ties_hrt_node *node;       // on the space's heap, copied with it
  bb_smc_ties_hrt_scratch *scratch; // this copy's queue and matching, made on first use

  StableMatchingHRT(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x0, bb_smc_ties_hrt *t);
  StableMatchingHRT(Gecode::Space &home, StableMatchingHRT &other);
  bb_smc_ties_hrt_scratch *work_space();

 public:
  // Takes over one reference to t. The views must be distinct.
  static Gecode::ExecStatus post(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x, bb_smc_ties_hrt *t);
  Gecode::Propagator *copy(Gecode::Space &home) override;
  Gecode::PropCost cost(const Gecode::Space &home, const Gecode::ModEventDelta &med) const override;
  Gecode::ExecStatus advise(Gecode::Space &home, Gecode::Advisor &a, const Gecode::Delta &d) override;
  Gecode::ExecStatus propagate(Gecode::Space &home, const Gecode::ModEventDelta &med) override;
  size_t dispose(Gecode::Space &home) override;
};

} // namespace bamboo

#endif
