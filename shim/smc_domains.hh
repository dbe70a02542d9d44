// What the stable-matching propagators share on Gecode's side: the one adapter from views to
// the cores' host contract (propagator/smc/smc_domains.h), the advisor that knows which
// variable it watches, and the guard that marks the propagator's own writes.
#ifndef BB_SHIM_SMC_DOMAINS_HH
#define BB_SHIM_SMC_DOMAINS_HH

#include "smc_domains.h"

#include <gecode/int.hh>

namespace bamboo {

// What a table's callbacks read: the propagator's space and views. The views give ranks
// from 0 (Int::OffsetView absorbs the model's base once, so no callback subtracts it).
struct SmcHost {
  Gecode::Space *home;
  Gecode::ViewArray<Gecode::Int::OffsetView> *x;
};

// Every callback of the contract over `host` (which must outlive the table's use), but
// keep_ranges and remove_ranges, left NULL so that the SM core writes by values: narrow_r /
// minus_r from an iterator over the core's runs measured slower than narrow_v / minus_v on
// the root's write-backs, on the CPU and the GPU path (docs/constraint.md). The domains are
// GS-lists of nearly single values, and Gecode's narrow_v already is narrow_r over its own
// values-to-ranges iterator: building the runs first only adds a pass.
bb_smc_domains smc_domains(SmcHost &host);

// An advisor on one variable (its number in the core's numbering): a change it sees is told
// to the core as that variable's event.
class VarWatch : public Gecode::Advisor {
 public:
  int var;
  VarWatch(Gecode::Space &home, Gecode::Propagator &p, Gecode::Council<VarWatch> &c, int var0)
      : Gecode::Advisor(home, p, c), var(var0) {}
  VarWatch(Gecode::Space &home, VarWatch &other) : Gecode::Advisor(home, other), var(other.var) {}
};

// Set while a core writes the domains, however propagate() is left (an exception included):
// the advisors then ignore the changes, which the core follows itself.
struct Propagating {
  bool &flag;
  explicit Propagating(bool &f) : flag(f) { flag = true; }
  ~Propagating() { flag = false; }
};

} // namespace bamboo

#endif
