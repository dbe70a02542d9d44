// bb_post_stable_matching_objective: validation, variable set-up and posting of the objective
// bounds' propagator (objective_propagator.cpp).
#include "bb_smc_objective.h"
#include "objective_propagator.hh"
#include "post_args.hh"
#include "shim_internal.hh"

#include <memory>
#include <vector>

using namespace Gecode;

extern "C" bb_status bb_post_stable_matching_objective(bb_space *sp, const int *men, const int *women, int n, int base,
                                                       const int *pm, const int *pw, const int *wm, const int *ww,
                                                       int cost, int kind, bb_error *err) {
  static const char fn[] = "stable_matching_objective";
  return bb_shim::posting(sp, err, fn, [&](bb_space &s) -> bb_status {
    if (!men || !women || !pm || !pw || n < 1) return bb_fail(err, BB_ERR_ARG, "%s: no space, arrays or n", fn);
    if (base != 0 && base != 1) return bb_fail(err, BB_ERR_ARG, "%s: base %d; ranks count from 0 or 1", fn, base);
    if (kind < BB_SMO_KIND_WEIGHT || kind > BB_SMO_KIND_REGRET)
      return bb_fail(err, BB_ERR_ARG, "%s: kind %d", fn, kind);
    if (!wm != !ww) return bb_fail(err, BB_ERR_ARG, "%s: both weight matrices or neither", fn);
    IntVarArgs mv = bb_shim::int_vars(s, men, n, "men");
    IntVarArgs wv = bb_shim::int_vars(s, women, n, "women");
    IntVar cv = bb_shim::int_vars(s, &cost, 1, "cost")[0];
    size_t nn = (size_t)n * n;
    std::vector<int32_t> mc(nn), wc(nn);
    std::vector<int64_t> mw(nn), ww64(nn);
    for (size_t i = 0; i < nn; i++) {
      mc[i] = pm[i] - base, wc[i] = pw[i] - base;
      mw[i] = wm ? wm[i] : base + (int64_t)(i % (size_t)n);
      ww64[i] = ww ? ww[i] : base + (int64_t)(i % (size_t)n);
    }
    bb_smo *built = nullptr;
    bb_status st = bb_smo_new(n, mc.data(), wc.data(), mw.data(), ww64.data(), &built, err);
    std::unique_ptr<bb_smo, void (*)(bb_smo *)> data(built, bb_smo_release);
    if (st != BB_OK) return st;
    Space &home = s;
    ViewArray<Int::OffsetView> x(home, 2 * n); // ranks from 0
    for (int v = 0; v < 2 * n; v++) {
      IntVar var = v < n ? mv[v] : wv[v - n];
      dom(home, var, base, base + n - 1);
      x[v] = Int::OffsetView(var, -base);
    }
    if (home.failed()) return BB_OK; // a variable with no rank left: the model is unsatisfiable
    bamboo::ObjectiveBound::post(home, x, Int::IntView(cv), data.release(), base, kind);
    return BB_OK;
  });
}
