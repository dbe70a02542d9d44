// The one adapter from Gecode's views to the stable-matching cores' host contract
// (propagator/smc/smc_domains.h): the SM, HR and HRC propagators fill their tables here.
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

}  // namespace bamboo

#endif
