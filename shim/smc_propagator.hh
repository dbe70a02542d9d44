// The Stable Marriage constraint as a Gecode propagator (the shape of Gecode's
// Precede::Single): post validates, one advisor per variable records what changed,
// propagate hands the events to the C core (propagator/smc.c), copy copies the O(n) node
// state only, dispose releases everything. Preference data is shared, never copied.
#ifndef BB_SMC_PROPAGATOR_HH
#define BB_SMC_PROPAGATOR_HH

#include "smc.h"

#include "watched_propagator.hh"

#include <gecode/int.hh>

namespace bamboo {

// Views are offset by -base so that the core always sees 0-based ranks.
typedef Gecode::Int::OffsetView RankView;

// x: men 0..n-1, then women n..2n-1 (the number a Watch knows).
class StableMatching : public WatchedPropagator<RankView> {
 protected:
  bb_smc_prefs *prefs; // shared, reference counted
  bb_smc_strength strength;
  bb_smc_path path;        // CPU, GPU, emulated, or AUTO (the hybrid decides each time)
  bb_smc_node *node;       // O(n) ints on the space's heap
  bb_smc_scratch *scratch; // this copy's work space, created on first use

  StableMatching(Gecode::Home home, Gecode::ViewArray<RankView> &x0, bb_smc_prefs *prefs0, bb_smc_strength strength0,
                 bb_smc_path path0);
  StableMatching(Gecode::Space &home, StableMatching &other);
  bb_smc_scratch *work_space();

 public:
  // Takes over one reference to prefs. The views must be distinct.
  static Gecode::ExecStatus post(Gecode::Home home, Gecode::ViewArray<RankView> &x, bb_smc_prefs *prefs,
                                 bb_smc_strength strength, bb_smc_path path);
  Gecode::Propagator *copy(Gecode::Space &home) override;
  Gecode::PropCost cost(const Gecode::Space &home, const Gecode::ModEventDelta &med) const override;
  Gecode::ExecStatus advise(Gecode::Space &home, Gecode::Advisor &a, const Gecode::Delta &d) override;
  Gecode::ExecStatus propagate(Gecode::Space &home, const Gecode::ModEventDelta &med) override;
  size_t dispose(Gecode::Space &home) override;
};

void add_counters(const bb_smc_counters &c);

} // namespace bamboo

#endif
