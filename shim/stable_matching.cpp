// bb_post_stable_matching: validation, variable set-up and posting of the SMC propagator.
#include "bb_stable_matching.h"
#include "shim_internal.hh"
#include "smc_propagator.hh"

#include <memory>
#include <unordered_set>

using namespace Gecode;

extern "C" bb_status bb_post_stable_matching(bb_space *space, const int *men, int n_men, const int *women,
                                             int n_women, const int *pm, int pm_rows, int pm_cols,
                                             const int *pw, int pw_rows, int pw_cols,
                                             const bb_stable_matching_options *opts, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching";
  if (!space) return bb_fail(err, BB_ERR_ARG, "%s: no space", fn);
  if (n_men < 0 || n_women < 0 || (n_men && !men) || (n_women && !women))
    return bb_fail(err, BB_ERR_ARG, "%s: bad variable arrays", fn);
  for (int k = 0; k < n_men + n_women; k++) {
    int v = k < n_men ? men[k] : women[k - n_men];
    if (v < 0 || v >= (int)space->ints.size())
      return bb_fail(err, BB_ERR_ARG, "%s: %s[%d] is int variable %d, which does not exist", fn,
                     k < n_men ? "men" : "women", k < n_men ? k : k - n_men, v);
  }
  if (pm_rows > 0 && pm_cols > 0 && !pm) return bb_fail(err, BB_ERR_ARG, "%s: pm missing", fn);
  if (pw_rows > 0 && pw_cols > 0 && !pw) return bb_fail(err, BB_ERR_ARG, "%s: pw missing", fn);
  bb_smc_strength strength = opts ? opts->strength : BB_SMC_GS_LISTS;
  if (strength != BB_SMC_GS_LISTS && strength != BB_SMC_MEN_PROPOSING)
    return bb_fail(err, BB_ERR_ARG, "%s: unknown strength %d", fn, (int)strength);
  bb_smc_path path = opts ? opts->path : BB_SMC_PATH_AUTO;
  if (path < BB_SMC_PATH_AUTO || path > BB_SMC_PATH_EMULATED)
    return bb_fail(err, BB_ERR_ARG, "%s: unknown path %d", fn, (int)path);
  bb_smc_prefs *prefs = bb_smc_prefs_new(n_men, n_women, pm, pm_rows, pm_cols, pw, pw_rows, pw_cols, err);
  if (!prefs) return BB_ERR_INPUT;  // or BB_ERR_NOMEM: the message says which
  std::unique_ptr<bb_smc_prefs, void (*)(bb_smc_prefs *)> owned(prefs, bb_smc_prefs_release);
  BB_SHIM_GUARD_BEGIN
  int n = n_men, base = bb_smc_prefs_base(prefs);
  Space &home = *space;
  // The core treats the 2n variables as distinct; a variable used twice gets a copy
  // tied to it by an equality.
  std::unordered_set<const void *> seen;
  ViewArray<bamboo::RankView> x(home, 2 * n);
  for (int k = 0; k < 2 * n; k++) {
    IntVar v = space->ints[k < n ? men[k] : women[k - n]];
    if (!seen.insert(v.varimp()).second) {
      IntVar copy(home, base, base + n - 1);
      rel(home, copy, IRT_EQ, v);
      v = copy;
    }
    dom(home, v, base, base + n - 1);
    x[k] = bamboo::RankView(Int::IntView(v), -base);
  }
  if (home.failed()) return BB_OK;  // a variable had no rank in range: the model is unsatisfiable
  bb_error ignored;
  (void)bb_smc_prepare(prefs, path, &ignored);  // a failure shows (with a warning) when it propagates
  bamboo::StableMatching::post(home, x, owned.release(), strength, path);
  return BB_OK;
  BB_SHIM_GUARD_END(err, fn)
}
