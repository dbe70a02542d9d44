// Stable Marriage with ties (weak stability) as one Gecode propagator, in the shape of
// StableMatchingHR (hr_propagator.hh): one advisor per variable notes what changed, propagate
// hands the notes to the C core (propagator/smc/ties), copy copies the node's memory only, the
// preference data is shared.
#ifndef BB_SMTI_PROPAGATOR_HH
#define BB_SMTI_PROPAGATOR_HH

#include "smc_ties.h"

#include "watched_propagator.hh"

#include <gecode/int.hh>

namespace bamboo {

// x: the men and the women offset by -base, so that the core sees 0-based positions, then size
// (offset 0).
class StableMatchingSMTI : public WatchedPropagator<Gecode::Int::OffsetView> {
 protected:
  bb_smc_ties *ties;            // shared, reference counted
  bb_smc_ties_node *node;       // on the space's heap, copied with it
  bb_smc_ties_scratch *scratch; // this copy's queue and matching, made on first use

  StableMatchingSMTI(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x0, bb_smc_ties *t);
  StableMatchingSMTI(Gecode::Space &home, StableMatchingSMTI &other);
  bb_smc_ties_scratch *work_space();

 public:
  // Takes over one reference to t. The views must be distinct.
  static Gecode::ExecStatus post(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x, bb_smc_ties *t);
  Gecode::Propagator *copy(Gecode::Space &home) override;
  Gecode::PropCost cost(const Gecode::Space &home, const Gecode::ModEventDelta &med) const override;
  Gecode::ExecStatus advise(Gecode::Space &home, Gecode::Advisor &a, const Gecode::Delta &d) override;
  Gecode::ExecStatus propagate(Gecode::Space &home, const Gecode::ModEventDelta &med) override;
  size_t dispose(Gecode::Space &home) override;
};

} // namespace bamboo

#endif
