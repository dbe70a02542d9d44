// bb_post_stable_matching_smti and _hrt: validation, variable set-up and posting of the native
// SMTI and HRT propagators (ties_propagator.cpp), in the shape of
// stable_matching_hr.cpp.
#include "bb_stable_matching_ties.h"
#include "post_args.hh"
#include "shim_internal.hh"
#include "ties_propagator.hh"
#include "ties_branch.hh"

#include <climits>
#include <memory>
#include <unordered_set>
#include <vector>

using namespace Gecode;

namespace {

using OwnedTies = std::unique_ptr<bb_smc_ties, void (*)(bb_smc_ties *)>;
using OwnedHRT = std::unique_ptr<bb_smc_ties_hrt, void (*)(bb_smc_ties_hrt *)>;

// men and women, or residents and loads (who names them in messages).
bb_status check_vars(const char *fn, const char *const who[2], bb_space *space, const int *men, int n1,
                     const int *women, int n2, int size, int base, bb_error *err) {
  if (base != 0 && base != 1) return bb_fail(err, BB_ERR_ARG, "%s: base %d; it must be 0 or 1", fn, base);
  if (n1 < 0 || n2 < 0 || (n1 && !men) || (n2 && !women) || (long long)n1 + n2 >= INT_MAX)
    return bb_fail(err, BB_ERR_ARG, "%s: bad variable arrays", fn);
  long long total = (long long)n1 + n2 + 1;
  for (long long k = 0; k < total; k++) {
    int v = k < n1 ? men[k] : k < n1 + n2 ? women[k - n1] : size;
    if (v < 0 || v >= (int)space->ints.size())
      return bb_fail(err, BB_ERR_ARG, "%s: %s is int variable %d, which does not exist", fn,
                     k < n1        ? who[0]
                     : k < n1 + n2 ? who[1]
                                   : "size",
                     v);
  }
  return BB_OK;
}

// The default brancher over the first `persons` variables (ties_branch.hh), when the engine
// gave an incumbent.
void defer_branch(bb_space *space, const ViewArray<Int::OffsetView> &x, int persons, std::vector<int> values,
                  int base) {
  if (values.size() != (size_t)persons) return;
  std::vector<IntVar> vars;
  for (int k = 0; k < persons; k++) vars.push_back(IntVar(x[k].varimp()));
  bb_shim::ties_defer_branch(*space, std::move(vars), std::move(values), base, IntVar(x[x.size() - 1].varimp()));
}

bb_status post_over(bb_space *space, const int *men, const int *women, int size, int base, OwnedTies owned,
                    std::vector<int> incumbent) {
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
  defer_branch(space, x, n1 + n2, std::move(incumbent), base);
  bamboo::StableMatchingSMTI::post(home, x, owned.release());
  return BB_OK;
}

// The residents with the base, the loads and size without: the views absorb it where it is.
bb_status post_over_hrt(bb_space *space, const int *residents, const int *load, int size, int base, OwnedHRT owned,
                        std::vector<int> incumbent) {
  bb_smc_ties_hrt *t = owned.get();
  int nr = bb_smc_ties_hrt_residents(t), nh = bb_smc_ties_hrt_hospitals(t), vars = bb_smc_ties_hrt_vars(t);
  Space &home = *space;
  std::unordered_set<const void *> seen;
  ViewArray<Int::OffsetView> x(home, vars);
  for (int k = 0; k < vars; k++) {
    int lo = bb_smc_ties_hrt_based(t, k) ? base : 0, top = lo + bb_smc_ties_hrt_top(t, k);
    IntVar v = space->ints[k < nr ? residents[k] : k < nr + nh ? load[k - nr] : size];
    if (!seen.insert(v.varimp()).second) {
      IntVar copy(home, lo, top);
      rel(home, copy, IRT_EQ, v);
      v = copy;
    }
    dom(home, v, lo, top);
    x[k] = Int::OffsetView(Int::IntView(v), -lo);
  }
  if (home.failed()) return BB_OK;
  defer_branch(space, x, nr, std::move(incumbent), base);
  bamboo::StableMatchingHRT::post(home, x, owned.release());
  return BB_OK;
}

// The shim's and the core's numbering agree.
static_assert((int)BB_STABILITY_WEAK == (int)BB_SMC_WEAK && (int)BB_STABILITY_STRONG == (int)BB_SMC_STRONG &&
                  (int)BB_STABILITY_SUPER == (int)BB_SMC_SUPER,
              "stability numbering");
bb_smc_stability core_stability(bb_stability s) { return static_cast<bb_smc_stability>(s); }

bb_status check_stability(const char *fn, bb_stability s, bb_error *err) {
  int v = static_cast<int>(s);
  if (v < BB_STABILITY_WEAK || v > BB_STABILITY_SUPER)
    return bb_fail(err, BB_ERR_ARG, "%s: stability %d; it must be weak, strong or super", fn, v);
  return BB_OK;
}

} // namespace

extern "C" bb_status bb_post_stable_matching_smti(bb_space *space, const int *men, int n1, const int *women, int n2,
                                                  int size, int base, const int *pm, const int *pm_len, int pm_cols,
                                                  const int *pm_rank, int pm_rank_cols, const int *pw,
                                                  const int *pw_len, int pw_cols, const int *pw_rank, int pw_rank_cols,
                                                  bb_stability stability, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_smti";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    static const char *const who[2] = {"a man", "a woman"};
    bb_status st = check_stability(fn, stability, err);
    if (st == BB_OK) st = check_vars(fn, who, space, men, n1, women, n2, size, base, err);
    if (st != BB_OK) return st;
    bb_smc_ties *t = bb_smc_ties_new(n1, n2, base, pm, pm_len, pm_cols, pm_rank, pm_rank_cols, pw, pw_len, pw_cols,
                                     pw_rank, pw_rank_cols, core_stability(stability), err);
    if (!t) return BB_ERR_INPUT; // or out of memory: the message says which
    std::vector<int> incumbent =
        bb_shim::ties_incumbent({n1, pm, pm_len, pm_cols, pm_rank, pm_rank_cols},
                                {n2, pw, pw_len, pw_cols, pw_rank, pw_rank_cols}, nullptr, base, true);
    return post_over(space, men, women, size, base, OwnedTies(t, bb_smc_ties_release), std::move(incumbent));
  });
}

extern "C" bb_status bb_post_stable_matching_hrt(bb_space *space, const int *residents, int nr, const int *load, int nh,
                                                 int size, int base, const int *rp, const int *rp_len, int rp_cols,
                                                 const int *rp_rank, int rp_rank_cols, const int *hp, const int *hp_len,
                                                 int hp_cols, const int *hp_rank, int hp_rank_cols, const int *capacity,
                                                 bb_stability stability, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_hrt";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    static const char *const who[2] = {"a resident", "a load"};
    bb_status st = check_stability(fn, stability, err);
    if (st == BB_OK) st = check_vars(fn, who, space, residents, nr, load, nh, size, base, err);
    if (st != BB_OK) return st;
    bb_smc_ties_hrt *t = bb_smc_ties_hrt_new(nr, nh, base, rp, rp_len, rp_cols, rp_rank, rp_rank_cols, hp, hp_len,
                                             hp_cols, hp_rank, hp_rank_cols, capacity, core_stability(stability), err);
    if (!t) return BB_ERR_INPUT;
    std::vector<int> incumbent =
        bb_shim::ties_incumbent({nr, rp, rp_len, rp_cols, rp_rank, rp_rank_cols},
                                {nh, hp, hp_len, hp_cols, hp_rank, hp_rank_cols}, capacity, base, false);
    return post_over_hrt(space, residents, load, size, base, OwnedHRT(t, bb_smc_ties_hrt_release),
                         std::move(incumbent));
  });
}
