// Hospitals/Residents with Couples as one Gecode propagator (the shape of StableMatching in
// smc_propagator.hh): propagate hands the rank views to the C core (propagator/smc/hrc/smc_hrc.h)
// and keeps bp and the per-variable budgets within the core's bounds; the instance data is
// shared by every copy. One advisor per rank and per budget variable notes which changed, so
// that a propagation reads and tells only those (bb_smc_hrc_propagate_changes).
#ifndef BB_HRC_PROPAGATOR_HH
#define BB_HRC_PROPAGATOR_HH

#include "smc_domains.hh"
#include "smc_hrc.h"

#include <gecode/int.hh>

namespace bamboo {

class StableMatchingHRC : public Gecode::Propagator {
 protected:
  // Offset by -base (Gecode's OffsetView): the core reads and writes 0-based ranks, and no
  // callback adds or subtracts the base. Singles, then couples.
  Gecode::ViewArray<Gecode::Int::OffsetView> x;
  Gecode::ViewArray<Gecode::Int::IntView> own; // per variable: its own blocking pairs (sum = bp, posted beside)
  Gecode::Int::IntView bp;
  // An advisor per unassigned view: var < x.size() watches x[var], else own[var - x.size()].
  Gecode::Council<VarWatch> watches;
  int open_ranks;   // the rank views not yet assigned (their advisors tell when they are)
  bb_smc_hrc *data; // shared, reference counted, read-only
  // The counts and bounds of this propagator's last propagation in this space (heap, made on first
  // use, freed by dispose): domains only shrink within a space, so the next propagation counts
  // again only what the changed variables touch. A copy of the space (Gecode clones stable
  // spaces only, and recomputes from those clones after a failure) gets a copy of both, so that
  // its propagations build on them too; a copy whose memo cannot be made starts without one.
  bb_smc_hrc_memo *memo = nullptr;
  // What the advisors saw since the memo's last propagation (heap, made with the memo): the
  // memo builds on it.
  struct Notes;
  Notes *notes = nullptr;

  StableMatchingHRC(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x0,
                    Gecode::ViewArray<Gecode::Int::IntView> &own0, Gecode::Int::IntView bp0, bb_smc_hrc *d);
  StableMatchingHRC(Gecode::Space &home, StableMatchingHRC &other);

 public:
  // Takes over one reference to d, whose path is already set (bb_smc_hrc_set_path). The views of
  // x must be distinct.
  static void post(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x,
                   Gecode::ViewArray<Gecode::Int::IntView> &own, Gecode::Int::IntView bp, bb_smc_hrc *d);
  Gecode::Actor *copy(Gecode::Space &home) override;
  Gecode::PropCost cost(const Gecode::Space &home, const Gecode::ModEventDelta &med) const override;
  Gecode::ExecStatus advise(Gecode::Space &home, Gecode::Advisor &a, const Gecode::Delta &d) override;
  void reschedule(Gecode::Space &home) override;
  Gecode::ExecStatus propagate(Gecode::Space &home, const Gecode::ModEventDelta &med) override;
  size_t dispose(Gecode::Space &home) override;
};

} // namespace bamboo

#endif
