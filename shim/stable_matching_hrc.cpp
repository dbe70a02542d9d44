// bb_post_stable_matching_hrc: validation, variable set-up and posting of the HRC propagator
// (hrc_propagator.cpp), with the default brancher that tries the deferred acceptance's matching
// first (hrc_branch.cpp).
#include "bb_hrc.h"
#include "hrc_branch.hh"
#include "hrc_propagator.hh"
#include "post_args.hh"
#include "shim_internal.hh"

#include <algorithm>
#include <memory>
#include <unordered_set>

using namespace Gecode;

namespace {

using Owned = std::unique_ptr<bb_smc_hrc, void (*)(bb_smc_hrc *)>;

} // namespace

extern "C" bb_status bb_post_stable_matching_hrc(bb_space *sp, const int *singles, int n_singles, const int *couples,
                                                 int n_couples, int bp, int base, const bb_smc_hrc_lists *lists,
                                                 const int32_t *first_choice,
                                                 const bb_stable_matching_hrc_options *opts, bb_error *err) {
  static const char fn[] = "stable_matching_hrc";
  return bb_shim::posting(sp, err, fn, [&](bb_space &s) -> bb_status {
    if (!lists) return bb_fail(err, BB_ERR_ARG, "%s: no space or no lists", fn);
    if (base != 0 && base != 1) return bb_fail(err, BB_ERR_ARG, "%s: base %d; ranks count from 0 or 1", fn, base);
    bb_smc_path path = bb_shim::path_option(opts ? &opts->path : nullptr, BB_SMC_PATH_CPU);
    IntVarArgs sv = bb_shim::int_vars(s, singles, n_singles, "singles");
    IntVarArgs cv = bb_shim::int_vars(s, couples, n_couples, "couples");
    IntVar bpv = bb_shim::int_vars(s, &bp, 1, "bp")[0];
    bb_smc_hrc *built = nullptr;
    bb_status st = bb_smc_hrc_new(lists, &built, err);
    Owned data(built, bb_smc_hrc_release);
    if (st != BB_OK) return st;
    bb_smc_hrc_set_path(data.get(), path); // before any propagation shares the data
    if (bb_smc_hrc_singles(data.get()) != n_singles || bb_smc_hrc_couples(data.get()) != n_couples)
      return bb_fail(err, BB_ERR_INPUT, "%s: the instance has %d singles and %d couples, the constraint %d and %d", fn,
                     bb_smc_hrc_singles(data.get()), bb_smc_hrc_couples(data.get()), n_singles, n_couples);
    Space &home = s;
    int n = n_singles + n_couples;
    ViewArray<Int::OffsetView> x(home, n); // 0-based ranks for the core
    std::unordered_set<const void *> seen;
    std::vector<IntVar> order; // couples first, for the default brancher
    std::vector<int> guess;
    for (int v = 0; v < n; v++) {
      IntVar var = v < n_singles ? sv[v] : cv[v - n_singles];
      if (!seen.insert(var.varimp()).second) { // the core's variables must be distinct
        IntVar copy(home, Int::Limits::min, Int::Limits::max);
        rel(home, copy, IRT_EQ, var);
        var = copy;
      }
      int len = bb_smc_hrc_len(data.get(), v);
      dom(home, var, base, base + len);
      for (int k = 0; k < len; k++)
        if (!bb_smc_hrc_acceptable(data.get(), v, k)) rel(home, var, IRT_NQ, base + k);
      x[v] = Int::OffsetView(Int::IntView(var), -base);
    }
    rel(home, bpv, IRT_GQ, 0);
    // Per-variable blocking budgets (docs/hrc_constraint.md): own[v] counts v's own blocking
    // pairs; each pair is on exactly one list, so they sum to bp. The core gives each variable
    // the smaller of bp's slack and its own budget's, so a variable whose budget is used up keeps
    // every no-slack rule while bp has slack elsewhere.
    IntVarArgs own_vars(n);
    ViewArray<Int::IntView> own(home, n);
    for (int v = 0; v < n; v++) {
      own_vars[v] = IntVar(home, 0, bb_smc_hrc_len(data.get(), v));
      own[v] = Int::IntView(own_vars[v]);
    }
    linear(home, own_vars, IRT_EQ, bpv);
    // Each copy the search keeps holds every rank and budget variable (about 240 bytes a
    // resident or couple), and a deep search over them keeps one every commit distance: one
    // copy per 64 variables' levels keeps that near 4 bytes per variable and level. A
    // recomputation commits its choices and propagates once, from a copy whose propagator has
    // no memo (one whole pass) whatever the distance, so a longer one costs little more here.
    s.commit_distance = std::max(s.commit_distance, (unsigned)(n / 64));
    if (home.failed()) return BB_OK; // no value left for some variable: the model is unsatisfiable
    if (first_choice) {
      const int32_t *order_of = opts && opts->value_order ? opts->value_order : first_choice;
      // The ranks a matching gives (-1 where it is not on the lists).
      auto ranks_of = [&](const int32_t *matching) {
        std::vector<int> ranks((size_t)n);
        for (int v = 0; v < n; v++) ranks[(size_t)v] = bb_smc_hrc_rank_of(data.get(), v, matching);
        return ranks;
      };
      std::vector<int> ranks = ranks_of(order_of), first_ranks = ranks_of(first_choice);
      // The value order's blocking pairs per variable (all 0 when it is not a matching).
      std::vector<int32_t> da_own((size_t)n, 0);
      if (std::all_of(ranks.begin(), ranks.end(), [](int k) { return k >= 0; }) &&
          bb_smc_hrc_own_counts(data.get(), ranks.data(), da_own.data()) != BB_SMC_FIX)
        std::fill(da_own.begin(), da_own.end(), 0);
      std::vector<int> first_guess;
      std::vector<IntVar> budget_order; // the value order's blocking variables first
      for (int pass = 0; pass < 2; pass++)
        for (int v = pass ? 0 : n_singles; v < (pass ? n_singles : n); v++) {
          order.push_back(IntVar(x[v].varimp()));
          int k = ranks[(size_t)v], f = first_ranks[(size_t)v];
          guess.push_back(k < 0 ? Int::Limits::min : base + k);
          first_guess.push_back(f < 0 ? Int::Limits::min : base + f);
          if (da_own[(size_t)v] > 0) budget_order.push_back(own_vars[v]);
        }
      for (int pass = 0; pass < 2; pass++)
        for (int v = pass ? 0 : n_singles; v < (pass ? n_singles : n); v++)
          if (da_own[(size_t)v] == 0) budget_order.push_back(own_vars[v]);
      auto first_values = std::make_shared<std::vector<int>>(std::move(first_guess));
      auto values = std::make_shared<std::vector<int>>(std::move(guess));
      auto vars = std::make_shared<std::vector<IntVar>>(std::move(order));
      auto budgets = std::make_shared<std::vector<IntVar>>(std::move(budget_order));
      s.deferred_branchers.push_back([values, first_values, vars, budgets, bpv](bb_space &root) {
        // First bp = 0 (under satisfy, and any objective but bp's minimum): a stable matching
        // is looked for before any other (with no slack the propagation prunes hardest). Then
        // bp >= 1 with the deferred acceptance's matching first: when no stable matching
        // exists, that is a matching found in a few nodes. Under `solve minimize bp` the
        // deferred acceptance's matching goes first instead: the first solution reported (an
        // incumbent at once, even where the refutation of bp = 0 is long, so a timeout still
        // reports a matching), after which branch and bound asks for fewer pairs, bp = 0 first
        // among them; the tree left after the incumbent is the same refutation either way.
        // Complete: the alternatives partition, and bp is fixed by propagation once the
        // matching is.
        // Between the deferred acceptance's decision and the residents: the budgets, own[v] =
        // its minimum / above it, the deferred acceptance's blocking variables first. Under
        // bp <= 1, own[v] >= 1 leaves every other variable at budget 0 (full strength), and
        // own[v] = 0 puts v at full strength for the rest of the proof. Then the residents by
        // conflict history (branch_conflict_guided: the proofs hang on local conflicts).
        IntVar count = bpv;
        BoolVar stable(root, 0, 1);
        rel(root, count, IRT_EQ, 0, stable);
        bool matching_first = root.sense == BB_MINIMIZE && root.objective >= 0 && !root.objective_is_float &&
                              root.ints[(size_t)root.objective].varimp() == count.varimp();
        if (matching_first)
          bb_shim::branch_first_matching(root, IntVarArgs(*vars), *first_values, bb_shim::FirstMatchingPart::bulk);
        branch(root, stable, BOOL_VAL_MAX());
        if (!matching_first)
          bb_shim::branch_first_matching(root, IntVarArgs(*vars), *first_values, bb_shim::FirstMatchingPart::bulk);
        branch(root, IntVarArgs(*budgets), INT_VAR_NONE(), INT_VAL_MIN());
        bb_shim::branch_conflict_guided(root, IntVarArgs(*vars), *values);
        branch(root, count, INT_VAL_MIN());
      });
    }
    bamboo::StableMatchingHRC::post(home, x, own, Int::IntView(bpv), data.release());
    return BB_OK;
  });
}

extern "C" bb_status bb_branch_deferred(bb_space *sp, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = bb_shim::space_of(sp);
  auto pending = std::move(s.deferred_branchers);
  s.deferred_branchers.clear();
  for (auto &post : pending) post(s);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_deferred")
}
