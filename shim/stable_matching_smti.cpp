// bb_post_stable_matching_smti: validation, variable set-up and posting of the native SMTI
// propagator (smti_propagator.cpp), in the shape of stable_matching_hr.cpp.
#include "bb_stable_matching_smti.h"
#include "post_args.hh"
#include "shim_internal.hh"
#include "smti_propagator.hh"

#include <climits>
#include <memory>
#include <unordered_set>

using namespace Gecode;

namespace {

using OwnedTies = std::unique_ptr<bb_smc_ties, void (*)(bb_smc_ties *)>;

bb_status check_vars(const char *fn, bb_space *space, const int *men, int n1, const int *women, int n2, int size,
                     int base, bb_error *err) {
  if (base != 0 && base != 1) return bb_fail(err, BB_ERR_ARG, "%s: base %d; it must be 0 or 1", fn, base);
  if (n1 < 0 || n2 < 0 || (n1 && !men) || (n2 && !women) || (long long)n1 + n2 >= INT_MAX)
    return bb_fail(err, BB_ERR_ARG, "%s: bad variable arrays", fn);
  long long total = (long long)n1 + n2 + 1;
  for (long long k = 0; k < total; k++) {
    int v = k < n1 ? men[k] : k < n1 + n2 ? women[k - n1] : size;
    if (v < 0 || v >= (int)space->ints.size())
      return bb_fail(err, BB_ERR_ARG, "%s: %s is int variable %d, which does not exist", fn,
                     k < n1        ? "a man"
                     : k < n1 + n2 ? "a woman"
                                   : "size",
                     v);
  }
  return BB_OK;
}

bb_status post_over(bb_space *space, const int *men, const int *women, int size, int base, OwnedTies owned) {
  bb_smc_ties *t = owned.get();
  int n1 = bb_smc_ties_men(t), n2 = bb_smc_ties_women(t), vars = bb_smc_ties_vars(t);
  Space &home = *space;
  // The core treats its variables as distinct; a variable passed twice gets a copy tied to it.
  std::unordered_set<const void *> seen;
  ViewArray<Int::OffsetView> x(home, vars);
  for (int k = 0; k < vars; k++) {
    int lo = k < n1 + n2 ? base : 0, top = lo + bb_smc_ties_top(t, k);
    IntVar v = space->ints[k < n1 ? men[k] : k < n1 + n2 ? women[k - n1] : size];
    if (!seen.insert(v.varimp()).second) {
      IntVar copy(home, lo, top);
      rel(home, copy, IRT_EQ, v);
      v = copy;
    }
    dom(home, v, lo, top);
    x[k] = Int::OffsetView(Int::IntView(v), -lo);
  }
  if (home.failed()) return BB_OK; // a variable had no value in range: the model is unsatisfiable
  bamboo::StableMatchingSMTI::post(home, x, owned.release());
  return BB_OK;
}

} // namespace

extern "C" bb_status bb_post_stable_matching_smti(bb_space *space, const int *men, int n1, const int *women, int n2,
                                                  int size, int base, const int *pm, const int *pm_len, int pm_cols,
                                                  const int *pm_rank, int pm_rank_cols, const int *pw,
                                                  const int *pw_len, int pw_cols, const int *pw_rank, int pw_rank_cols,
                                                  bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_smti";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    bb_status st = check_vars(fn, space, men, n1, women, n2, size, base, err);
    if (st != BB_OK) return st;
    bb_smc_ties *t = bb_smc_ties_new(n1, n2, base, pm, pm_len, pm_cols, pm_rank, pm_rank_cols, pw, pw_len, pw_cols,
                                     pw_rank, pw_rank_cols, err);
    if (!t) return BB_ERR_INPUT; // or out of memory: the message says which
    return post_over(space, men, women, size, base, OwnedTies(t, bb_smc_ties_release));
  });
}
