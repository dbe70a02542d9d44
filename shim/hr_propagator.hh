// Hospitals/Residents as one Gecode propagator (the shape of StableMatching in
// smc_propagator.hh): one advisor per variable notes what changed, propagate hands the notes
// to the C core (propagator/smc/hr), copy copies the node's memory only, the preference data
// is shared.
#ifndef BB_HR_PROPAGATOR_HH
#define BB_HR_PROPAGATOR_HH

#include "smc_hr.h"

#include "watched_propagator.hh"

#include <gecode/int.hh>

namespace bamboo {

// x: offset by -base, so that the core sees 0-based ranks. Residents, then the posts row by row.
class StableMatchingHR : public WatchedPropagator<Gecode::Int::OffsetView> {
 protected:
  bb_smc_hr *hr;              // shared, reference counted
  bb_smc_hr_node *node;       // on the space's heap, copied with it
  bb_smc_hr_scratch *scratch; // this copy's queues, made on first use
  bb_smc_path path;           // where it propagates (bb_smc_hr_propagate_on)

  StableMatchingHR(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x0, bb_smc_hr *hr0,
                   bb_smc_path path0);
  StableMatchingHR(Gecode::Space &home, StableMatchingHR &other);
  bb_smc_hr_scratch *work_space();

 public:
  // Takes over one reference to hr. The views must be distinct.
  static Gecode::ExecStatus post(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x, bb_smc_hr *hr,
                                 bb_smc_path path = BB_SMC_PATH_AUTO);
  Gecode::Propagator *copy(Gecode::Space &home) override;
  Gecode::PropCost cost(const Gecode::Space &home, const Gecode::ModEventDelta &med) const override;
  Gecode::ExecStatus advise(Gecode::Space &home, Gecode::Advisor &a, const Gecode::Delta &d) override;
  Gecode::ExecStatus propagate(Gecode::Space &home, const Gecode::ModEventDelta &med) override;
  size_t dispose(Gecode::Space &home) override;
};

} // namespace bamboo

#endif
