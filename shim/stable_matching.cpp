// bb_post_stable_matching(_smi): validation, variable set-up and posting of the SMC propagator.
#include "bb_stable_matching.h"
#include "post_args.hh"
#include "shim_internal.hh"
#include "smc_propagator.hh"

#include <cstring>
#include <memory>
#include <unordered_set>
#include <utility>

using namespace Gecode;

namespace {

using OwnedPrefs = std::unique_ptr<bb_smc_prefs, void (*)(bb_smc_prefs *)>;

bb_status check_arrays(const char *fn, bb_space *space, const int *men, int n_men, const int *women, int n_women,
                       const bb_stable_matching_options *opts, bb_smc_strength *strength, bb_smc_path *path,
                       bb_error *err) {
  if (!space) return bb_fail(err, BB_ERR_ARG, "%s: no space", fn);
  if (n_men < 0 || n_women < 0 || (n_men && !men) || (n_women && !women))
    return bb_fail(err, BB_ERR_ARG, "%s: bad variable arrays", fn);
  for (int k = 0; k < n_men + n_women; k++) {
    int v = k < n_men ? men[k] : women[k - n_men];
    if (v < 0 || v >= (int)space->ints.size())
      return bb_fail(err, BB_ERR_ARG, "%s: %s[%d] is int variable %d, which does not exist", fn,
                     k < n_men ? "men" : "women", k < n_men ? k : k - n_men, v);
  }
  // A C caller may pass any int in these enum fields, and loading an out-of-range value as
  // a C++ enum is undefined: read the bytes as ints and check them before converting.
  static_assert(sizeof(bb_smc_strength) == sizeof(int) && sizeof(bb_smc_path) == sizeof(int), "enums are ints");
  int raw_strength = BB_SMC_GS_LISTS, raw_path = BB_SMC_PATH_AUTO;
  if (opts) {
    memcpy(&raw_strength, &opts->strength, sizeof raw_strength);
    memcpy(&raw_path, &opts->path, sizeof raw_path);
  }
  if (raw_strength != BB_SMC_GS_LISTS && raw_strength != BB_SMC_MEN_PROPOSING)
    return bb_fail(err, BB_ERR_ARG, "%s: unknown strength %d", fn, raw_strength);
  if (raw_path < BB_SMC_PATH_AUTO || raw_path > BB_SMC_PATH_EMULATED)
    return bb_fail(err, BB_ERR_ARG, "%s: unknown path %d", fn, raw_path);
  *strength = static_cast<bb_smc_strength>(raw_strength);
  *path = static_cast<bb_smc_path>(raw_path);
  return BB_OK;
}

// Restricts each variable to its ranks base..base+len (len - 1 for complete lists, which
// have no unmatched value) and posts the propagator over them.
bb_status post_over(bb_space *space, const int *men, int n_men, const int *women, OwnedPrefs owned,
                    bb_smc_strength strength, bb_smc_path path) {
  bb_smc_prefs *prefs = owned.get();
  int vars = bb_smc_prefs_vars(prefs), base = bb_smc_prefs_base(prefs);
  bool incomplete = bb_smc_prefs_incomplete(prefs);
  Space &home = *space;
  // The core treats its variables as distinct; a variable used twice gets a copy tied to it
  // by an equality.
  std::unordered_set<const void *> seen;
  ViewArray<bamboo::RankView> x(home, vars);
  for (int k = 0; k < vars; k++) {
    int top = base + bb_smc_prefs_len(prefs, k) - (incomplete ? 0 : 1);
    IntVar v = space->ints[k < n_men ? men[k] : women[k - n_men]];
    if (!seen.insert(v.varimp()).second) {
      IntVar copy(home, base, top);
      rel(home, copy, IRT_EQ, v);
      v = copy;
    }
    dom(home, v, base, top);
    x[k] = bamboo::RankView(Int::IntView(v), -base);
  }
  if (home.failed()) return BB_OK; // a variable had no rank in range: the model is unsatisfiable
  bb_error ignored;
  (void)bb_smc_prepare(prefs, path, &ignored); // a failure shows (with a warning) when it propagates
  bamboo::StableMatching::post(home, x, owned.release(), strength, path);
  return BB_OK;
}

} // namespace

extern "C" bb_status bb_post_stable_matching(bb_space *space, const int *men, int n_men, const int *women, int n_women,
                                             const int *pm, int pm_rows, int pm_cols, const int *pw, int pw_rows,
                                             int pw_cols, const bb_stable_matching_options *opts, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    bb_smc_strength strength = BB_SMC_GS_LISTS;
    bb_smc_path path = BB_SMC_PATH_AUTO;
    bb_status st = check_arrays(fn, space, men, n_men, women, n_women, opts, &strength, &path, err);
    if (st != BB_OK) return st;
    if (pm_rows > 0 && pm_cols > 0 && !pm) return bb_fail(err, BB_ERR_ARG, "%s: pm missing", fn);
    if (pw_rows > 0 && pw_cols > 0 && !pw) return bb_fail(err, BB_ERR_ARG, "%s: pw missing", fn);
    bb_smc_prefs *prefs = bb_smc_prefs_new(n_men, n_women, pm, pm_rows, pm_cols, pw, pw_rows, pw_cols, err);
    if (!prefs) return BB_ERR_INPUT; // or out of memory: the message says which
    return post_over(space, men, n_men, women, OwnedPrefs(prefs, bb_smc_prefs_release), strength, path);
  });
}

extern "C" bb_status bb_post_stable_matching_smi(bb_space *space, const int *men, int n_men, const int *women,
                                                 int n_women, int base, const int *pm, const int *pm_len, int pm_cols,
                                                 const int *pw, const int *pw_len, int pw_cols,
                                                 const bb_stable_matching_options *opts, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_smi";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    bb_smc_strength strength = BB_SMC_GS_LISTS;
    bb_smc_path path = BB_SMC_PATH_AUTO;
    bb_status st = check_arrays(fn, space, men, n_men, women, n_women, opts, &strength, &path, err);
    if (st != BB_OK) return st;
    bb_smc_prefs *prefs = bb_smc_prefs_new_smi(n_men, n_women, base, pm, pm_len, pm_cols, pw, pw_len, pw_cols, err);
    if (!prefs) return BB_ERR_INPUT;
    return post_over(space, men, n_men, women, OwnedPrefs(prefs, bb_smc_prefs_release), strength, path);
  });
}

extern "C" bb_status bb_post_stable_matching_smi_csr(bb_space *space, const int *men, int n_men, const int *women,
                                                     int n_women, int base, const uint32_t *m_start,
                                                     const uint32_t *m_list, const uint32_t *w_start,
                                                     const uint32_t *w_list, const bb_stable_matching_options *opts,
                                                     bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_smi_csr";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    bb_smc_strength strength = BB_SMC_GS_LISTS;
    bb_smc_path path = BB_SMC_PATH_AUTO;
    bb_status st = check_arrays(fn, space, men, n_men, women, n_women, opts, &strength, &path, err);
    if (st != BB_OK) return st;
    bb_smc_prefs *prefs = bb_smc_prefs_new_smi_csr(n_men, n_women, base, m_start, m_list, w_start, w_list, err);
    if (!prefs) return BB_ERR_INPUT;
    return post_over(space, men, n_men, women, OwnedPrefs(prefs, bb_smc_prefs_release), strength, path);
  });
}

extern "C" bb_status bb_post_stable_matching_prefs(bb_space *space, const int *men, int n_men, const int *women,
                                                   int n_women, bb_smc_prefs *prefs,
                                                   const bb_stable_matching_options *opts, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_prefs";
  OwnedPrefs owned(prefs, bb_smc_prefs_release); // released on every early return
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    bb_smc_strength strength = BB_SMC_GS_LISTS;
    bb_smc_path path = BB_SMC_PATH_AUTO;
    if (!prefs) return bb_fail(err, BB_ERR_ARG, "%s: no preference data", fn);
    bb_status st = check_arrays(fn, space, men, n_men, women, n_women, opts, &strength, &path, err);
    if (st != BB_OK) return st;
    if (n_men != bb_smc_prefs_men(prefs) || n_women != bb_smc_prefs_women(prefs))
      return bb_fail(err, BB_ERR_INPUT, "%s: the data has %d men and %d women, the constraint %d and %d", fn,
                     bb_smc_prefs_men(prefs), bb_smc_prefs_women(prefs), n_men, n_women);
    return post_over(space, men, n_men, women, std::move(owned), strength, path);
  });
}
