// bb_post_stable_matching_hr(_csr): validation, variable set-up and posting of the native HR
// propagator (hr_propagator.cpp).
#include "bb_stable_matching_hr.h"
#include "hr_propagator.hh"
#include "post_args.hh"
#include "shim_internal.hh"

#include <climits>
#include <memory>
#include <unordered_set>
#include <utility>

using namespace Gecode;

namespace {

using OwnedHR = std::unique_ptr<bb_smc_hr, void (*)(bb_smc_hr *)>;

bb_status check_vars(const char *fn, bb_space *space, const int *residents, int nr, const int *posts, int nh, int cols,
                     int base, bb_error *err) {
  if (!space) return bb_fail(err, BB_ERR_ARG, "%s: no space", fn);
  if (base != 0 && base != 1) return bb_fail(err, BB_ERR_ARG, "%s: base %d; it must be 0 or 1", fn, base);
  if (nr < 0 || nh < 0 || cols < 0 || (nr && !residents) || ((long long)nh * cols > 0 && !posts) ||
      nr + (long long)nh * cols > INT_MAX)
    return bb_fail(err, BB_ERR_ARG, "%s: bad variable arrays", fn);
  long long total = nr + (long long)nh * cols;
  for (long long k = 0; k < total; k++) {
    int v = k < nr ? residents[k] : posts[k - nr];
    if (v < 0 || v >= (int)space->ints.size())
      return bb_fail(err, BB_ERR_ARG, "%s: %s[%lld] is int variable %d, which does not exist", fn,
                     k < nr ? "residents" : "posts", k < nr ? k : k - nr, v);
  }
  return BB_OK;
}

bb_status post_over(bb_space *space, const int *residents, const int *posts, int base, bb_smc_path path,
                    OwnedHR owned) {
  bb_smc_hr *hr = owned.get();
  int nr = bb_smc_hr_residents(hr), vars = bb_smc_hr_vars(hr);
  Space &home = *space;
  // The core treats its variables as distinct; a variable passed twice gets a copy tied to it.
  std::unordered_set<const void *> seen;
  ViewArray<Int::OffsetView> x(home, vars);
  for (int k = 0; k < vars; k++) {
    int top = base + bb_smc_hr_top(hr, k);
    IntVar v = space->ints[k < nr ? residents[k] : posts[k - nr]];
    if (!seen.insert(v.varimp()).second) {
      IntVar copy(home, base, top);
      rel(home, copy, IRT_EQ, v);
      v = copy;
    }
    dom(home, v, base, top);
    x[k] = Int::OffsetView(Int::IntView(v), -base);
  }
  if (home.failed()) return BB_OK; // a variable had no value in range: the model is unsatisfiable
  bamboo::StableMatchingHR::post(home, x, owned.release(), path);
  return BB_OK;
}

} // namespace

extern "C" bb_status bb_post_stable_matching_hr(bb_space *space, const int *residents, int nr, const int *posts, int nh,
                                                int cols, int base, const int *rp, const int *rp_len, int rp_cols,
                                                const int *hp, const int *hp_len, int hp_cols, const int *capacity,
                                                const bb_stable_matching_hr_options *opts, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_hr";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    bb_status st = check_vars(fn, space, residents, nr, posts, nh, cols, base, err);
    if (st != BB_OK) return st;
    bb_smc_path path = bb_shim::path_option(opts ? &opts->path : nullptr, BB_SMC_PATH_AUTO);
    static_assert(sizeof(int) == sizeof(int32_t), "capacities are 32-bit");
    bb_smc_hr *hr = bb_smc_hr_new(nr, nh, cols, base, rp, rp_len, rp_cols, hp, hp_len, hp_cols,
                                  reinterpret_cast<const int32_t *>(capacity), err);
    if (!hr) return BB_ERR_INPUT; // or out of memory: the message says which
    return post_over(space, residents, posts, base, path, OwnedHR(hr, bb_smc_hr_release));
  });
}

extern "C" bb_status bb_post_stable_matching_hr_csr(bb_space *space, const int *residents, int nr, const int *posts,
                                                    int nh, int cols, int base, const uint32_t *res_start,
                                                    const uint32_t *res_list, const uint32_t *hosp_start,
                                                    const uint32_t *hosp_list, const int32_t *capacity,
                                                    const bb_stable_matching_hr_options *opts, bb_error *err) {
  static const char fn[] = "bb_post_stable_matching_hr_csr";
  return bb_shim::posting(space, err, fn, [&](bb_space &) -> bb_status {
    bb_status st = check_vars(fn, space, residents, nr, posts, nh, cols, base, err);
    if (st != BB_OK) return st;
    bb_smc_path path = bb_shim::path_option(opts ? &opts->path : nullptr, BB_SMC_PATH_AUTO);
    bb_smc_hr *hr = bb_smc_hr_new_csr(nr, nh, cols, base, res_start, res_list, hosp_start, hosp_list, capacity, err);
    if (!hr) return BB_ERR_INPUT;
    return post_over(space, residents, posts, base, path, OwnedHR(hr, bb_smc_hr_release));
  });
}
