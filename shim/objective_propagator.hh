// The objective bounds of bb_smc_objective.h as one Gecode propagator: it hands the rank
// domains of the men and women to the C core (propagator/smc/objective/smc_objective.h) and
// raises cost's minimum; the instance data is shared by every copy.
#ifndef BB_OBJECTIVE_PROPAGATOR_HH
#define BB_OBJECTIVE_PROPAGATOR_HH

#include "smc_objective.h"

#include <gecode/int.hh>

namespace bamboo {

class ObjectiveBound : public Gecode::Propagator {
 protected:
  // Men, then women, as ranks from 0: the offset view absorbs the model's base once.
  Gecode::ViewArray<Gecode::Int::OffsetView> x;
  Gecode::Int::IntView total;
  bb_smo *data;   // shared, reference counted, read-only
  int base, kind; // base: the regret bound is a rank in the model's units
  // Whether the bound was computed once (at the root): see propagate().
  bool bounded;

  ObjectiveBound(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x0, Gecode::Int::IntView c, bb_smo *d,
                 int b, int k);
  ObjectiveBound(Gecode::Space &home, ObjectiveBound &p);

 public:
  // Takes over one reference to d. kind is a bb_smo_kind (bb_smc_objective.h).
  static void post(Gecode::Home home, Gecode::ViewArray<Gecode::Int::OffsetView> &x, Gecode::Int::IntView c, bb_smo *d,
                   int base, int kind);
  Gecode::Actor *copy(Gecode::Space &home) override;
  Gecode::PropCost cost(const Gecode::Space &home, const Gecode::ModEventDelta &med) const override;
  void reschedule(Gecode::Space &home) override;
  Gecode::ExecStatus propagate(Gecode::Space &home, const Gecode::ModEventDelta &med) override;
  size_t dispose(Gecode::Space &home) override;
};

} // namespace bamboo

#endif
