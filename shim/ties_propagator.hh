// Stable matching with ties (weak, strong or super-stability) as one Gecode propagator, in the shape of
// StableMatchingHR (hr_propagator.hh): one advisor per variable notes what changed, propagate
// hands the notes to the C core (propagator/smc/ties), copy copies the node's memory only, the
// preference data is shared. One template serves SMTI and HRT: the two cores have the same
// calls on their own types, which a Core names (SmtiCore, HrtCore below).
#ifndef BB_TIES_PROPAGATOR_HH
#define BB_TIES_PROPAGATOR_HH

#include "smc_hrt.h"
#include "smc_ties.h"

#include "watched_propagator.hh"

#include <gecode/int.hh>

namespace bamboo {

// x: the core's variables offset by -base, so that the core sees 0-based positions (SMTI: the
// men and the women; HRT: the residents, then the loads), then size (offset 0).
template <class Core>
class TiesPropagator : public WatchedPropagator<Gecode::Int::OffsetView> {
 protected:
  typename Core::data *ties;       // shared, reference counted
  typename Core::node *node;       // on the space's heap, copied with it
  typename Core::scratch *scratch; // this copy's queue and matching, made on first use

  TiesPropagator(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x0, typename Core::data *t);
  TiesPropagator(Gecode::Space &home, TiesPropagator &other);
  typename Core::scratch *work_space();

 public:
  // Takes over one reference to t. The views must be distinct.
  static Gecode::ExecStatus post(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x,
                                 typename Core::data *t);
  Gecode::Propagator *copy(Gecode::Space &home) override;
  Gecode::PropCost cost(const Gecode::Space &home, const Gecode::ModEventDelta &med) const override;
  Gecode::ExecStatus advise(Gecode::Space &home, Gecode::Advisor &a, const Gecode::Delta &d) override;
  Gecode::ExecStatus propagate(Gecode::Space &home, const Gecode::ModEventDelta &med) override;
  size_t dispose(Gecode::Space &home) override;
};

struct SmtiCore { // propagator/smc/ties/smc_ties.h
  typedef bb_smc_ties data;
  typedef bb_smc_ties_node node;
  typedef bb_smc_ties_scratch scratch;
  static size_t node_bytes(const data *t) { return bb_smc_ties_node_bytes(t); }
  static void node_init(node *n, const data *t) { bb_smc_ties_node_init(n, t); }
  static data *retain(data *t) { return bb_smc_ties_retain(t); }
  static void release(data *t) { bb_smc_ties_release(t); }
  static scratch *scratch_new(const data *t, bb_error *err) { return bb_smc_ties_scratch_new(t, err); }
  static void scratch_free(scratch *s) { bb_smc_ties_scratch_free(s); }
  static void note(scratch *s, const data *t, int var) { bb_smc_ties_note(s, t, var); }
  static bb_smc_status propagate(const data *t, node *n, scratch *s, const bb_smc_domains *d) {
    return bb_smc_ties_propagate(t, n, s, d);
  }
};

struct HrtCore { // propagator/smc/ties/smc_hrt.h
  typedef bb_smc_ties_hrt data;
  typedef bb_smc_ties_hrt_node node;
  typedef bb_smc_ties_hrt_scratch scratch;
  static size_t node_bytes(const data *t) { return bb_smc_ties_hrt_node_bytes(t); }
  static void node_init(node *n, const data *t) { bb_smc_ties_hrt_node_init(n, t); }
  static data *retain(data *t) { return bb_smc_ties_hrt_retain(t); }
  static void release(data *t) { bb_smc_ties_hrt_release(t); }
  static scratch *scratch_new(const data *t, bb_error *err) { return bb_smc_ties_hrt_scratch_new(t, err); }
  static void scratch_free(scratch *s) { bb_smc_ties_hrt_scratch_free(s); }
  static void note(scratch *s, const data *t, int var) { bb_smc_ties_hrt_note(s, t, var); }
  static bb_smc_status propagate(const data *t, node *n, scratch *s, const bb_smc_domains *d) {
    return bb_smc_ties_hrt_propagate(t, n, s, d);
  }
};

typedef TiesPropagator<SmtiCore> StableMatchingSMTI;
typedef TiesPropagator<HrtCore> StableMatchingHRT;

} // namespace bamboo

#endif
