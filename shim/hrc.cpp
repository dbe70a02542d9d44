// The HRC constraint in Gecode (bb_hrc.h): a propagator over the rank views that hands the
// domains to the C core (propagator/smc/hrc/hrc_con.h) and keeps bp within the core's
// bounds, the poster, and the default brancher that tries the deferred acceptance's
// matching first.
#include "bb_hrc.h"
#include "hrc_branch.hh"
#include "post_args.hh"
#include "shim_internal.hh"

#include <algorithm>
#include <memory>
#include <unordered_set>

using namespace Gecode;

namespace {

struct Host {
  Space *home;
  ViewArray<Int::IntView> *x;
  int base;
};

Int::IntView &view(void *ctx, int v) { return (*static_cast<Host *>(ctx)->x)[v]; }
int base_of(void *ctx) { return static_cast<Host *>(ctx)->base; }
Space &space(void *ctx) { return *static_cast<Host *>(ctx)->home; }

int dom_min(void *ctx, int v) { return view(ctx, v).min() - base_of(ctx); }
int dom_max(void *ctx, int v) { return view(ctx, v).max() - base_of(ctx); }
int dom_size(void *ctx, int v) { return (int)view(ctx, v).size(); }
bool dom_has(void *ctx, int v, int k) { return view(ctx, v).in(k + base_of(ctx)); }
bb_smc_status outcome(ModEvent me) {
  return me_failed(me) ? BB_SMC_FAILED : me == Int::ME_INT_NONE ? BB_SMC_FIX : BB_SMC_CHANGED;
}
bb_smc_status dom_remove(void *ctx, int v, int k) { return outcome(view(ctx, v).nq(space(ctx), k + base_of(ctx))); }
bb_smc_status dom_at_most(void *ctx, int v, int k) { return outcome(view(ctx, v).lq(space(ctx), k + base_of(ctx))); }

// The path the next post gives its constraint (bb_stable_matching_hrc_set_path).
thread_local bb_smc_path posting_path = BB_SMC_PATH_CPU;

class Hrc : public Propagator {
  ViewArray<Int::IntView> x; // singles, then couples
  ViewArray<Int::IntView> own; // per variable: its own blocking pairs (sum = bp, posted beside)
  Int::IntView bp;
  bb_hrcc *data;             // shared by every copy, read-only
  int base;

 public:
  Hrc(Home home, ViewArray<Int::IntView> &x0, ViewArray<Int::IntView> &own0, Int::IntView bp0, bb_hrcc *d, int b)
      : Propagator(home), x(x0), own(own0), bp(bp0), data(d), base(b) {
    x.subscribe(home, *this, Int::PC_INT_DOM);
    own.subscribe(home, *this, Int::PC_INT_BND);
    bp.subscribe(home, *this, Int::PC_INT_BND);
    home.notice(*this, AP_DISPOSE);
  }
  Hrc(Space &home, Hrc &p) : Propagator(home, p), data(p.data), base(p.base) {
    x.update(home, p.x);
    own.update(home, p.own);
    bp.update(home, p.bp);
    bb_hrcc_retain(data);
  }
  Actor *copy(Space &home) override { return new (home) Hrc(home, *this); }
  PropCost cost(const Space &, const ModEventDelta &) const override {
    return PropCost::linear(PropCost::HI, x.size());
  }
  void reschedule(Space &home) override {
    x.reschedule(home, *this, Int::PC_INT_DOM);
    own.reschedule(home, *this, Int::PC_INT_BND);
    bp.reschedule(home, *this, Int::PC_INT_BND);
  }
  size_t dispose(Space &home) override {
    home.ignore(*this, AP_DISPOSE);
    x.cancel(home, *this, Int::PC_INT_DOM);
    own.cancel(home, *this, Int::PC_INT_BND);
    bp.cancel(home, *this, Int::PC_INT_BND);
    bb_hrcc_release(data);
    (void)Propagator::dispose(home);
    return sizeof(*this);
  }
  ExecStatus propagate(Space &home, const ModEventDelta &) override {
    Host host{&home, &x, base};
    bb_hrcc_domains dom{&host, dom_min, dom_max, dom_size, dom_has, dom_remove, dom_at_most};
    int64_t lb, ub;
    int n = x.size();
    Region region;
    int32_t *own_min = region.alloc<int32_t>(n), *own_max = region.alloc<int32_t>(n);
    int32_t *own_lb = region.alloc<int32_t>(n), *own_ub = region.alloc<int32_t>(n);
    for (int v = 0; v < n; v++) {
      own_min[v] = own[v].min();
      own_max[v] = own[v].max();
    }
    bb_hrcc_budgets budgets{own_min, own_max, own_lb, own_ub};
    bb_smc_status r = bb_hrcc_propagate_budgets(data, &dom, bp.max(), &budgets, &lb, &ub);
    if (r == BB_SMC_NOMEM) throw MemoryExhausted();
    if (r == BB_SMC_FAILED) return ES_FAILED;
    bool moved = false;
    for (int v = 0; v < n; v++) {
      ModEvent a = own[v].gq(home, own_lb[v]), b = own[v].lq(home, own_ub[v]);
      if (me_failed(a) || me_failed(b)) return ES_FAILED;
      moved = moved || a != Int::ME_INT_NONE || b != Int::ME_INT_NONE;
    }
    ModEvent m1 = bp.gq(home, bb_clamp_int(lb)), m2 = bp.lq(home, bb_clamp_int(ub));
    if (me_failed(m1) || me_failed(m2)) return ES_FAILED;
    if (r == BB_SMC_CHANGED || moved || m1 != Int::ME_INT_NONE || m2 != Int::ME_INT_NONE) return ES_NOFIX;
    if (bp.assigned() && x.assigned()) return home.ES_SUBSUMED(*this);
    return ES_FIX;
  }
  static void post(Home home, ViewArray<Int::IntView> &x, ViewArray<Int::IntView> &own, Int::IntView bp, bb_hrcc *d,
                   int base) {
    (void)new (home) Hrc(home, x, own, bp, d, base);
  }
};

using Owned = std::unique_ptr<bb_hrcc, void (*)(bb_hrcc *)>;

}  // namespace

extern "C" bb_status bb_post_stable_matching_hrc(bb_space *sp, const int *singles, int n_singles, const int *couples,
                                                 int n_couples, int bp, int base, const bb_hrcc_lists *lists,
                                                 const int32_t *first_choice, bb_error *err) {
  const char *fn = "stable_matching_hrc";
  if (!sp || !lists) return bb_fail(err, BB_ERR_ARG, "%s: no space or no lists", fn);
  if (base != 0 && base != 1) return bb_fail(err, BB_ERR_ARG, "%s: base %d; ranks count from 0 or 1", fn, base);
  BB_SHIM_GUARD_BEGIN
  bb_space &s = bb_shim::space_of(sp);
  IntVarArgs sv = bb_shim::int_vars(s, singles, n_singles, "singles");
  IntVarArgs cv = bb_shim::int_vars(s, couples, n_couples, "couples");
  IntVar bpv = bb_shim::int_vars(s, &bp, 1, "bp")[0];
  bb_hrcc *built = nullptr;
  bb_status st = bb_hrcc_new(lists, &built, err);
  Owned data(built, bb_hrcc_release);
  if (st != BB_OK) return st;
  bb_hrcc_set_path(data.get(), posting_path); // before any propagation shares the data
  if (bb_hrcc_singles(data.get()) != n_singles || bb_hrcc_couples(data.get()) != n_couples)
    return bb_fail(err, BB_ERR_INPUT, "%s: the instance has %d singles and %d couples, the constraint %d and %d", fn,
                   bb_hrcc_singles(data.get()), bb_hrcc_couples(data.get()), n_singles, n_couples);
  Space &home = s;
  int n = n_singles + n_couples;
  ViewArray<Int::IntView> x(home, n);
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
    int len = bb_hrcc_len(data.get(), v);
    dom(home, var, base, base + len);
    for (int k = 0; k < len; k++)
      if (!bb_hrcc_acceptable(data.get(), v, k)) rel(home, var, IRT_NQ, base + k);
    x[v] = Int::IntView(var);
  }
  rel(home, bpv, IRT_GQ, 0);
  // Per-variable blocking budgets (docs/hrc_constraint.md): own[v] counts v's own blocking
  // pairs; each pair is on exactly one list, so they sum to bp. The core gives each variable
  // the smaller of bp's slack and its own budget's, so a variable whose budget is used up keeps
  // every no-slack rule while bp has slack elsewhere.
  IntVarArgs own_vars(n);
  ViewArray<Int::IntView> own(home, n);
  for (int v = 0; v < n; v++) {
    own_vars[v] = IntVar(home, 0, bb_hrcc_len(data.get(), v));
    own[v] = Int::IntView(own_vars[v]);
  }
  linear(home, own_vars, IRT_EQ, bpv);
  if (home.failed()) return BB_OK; // no value left for some variable: the model is unsatisfiable
  if (first_choice) {
    std::vector<int> ranks((size_t)n);
    bool matching = true;
    for (int v = 0; v < n; v++) {
      ranks[(size_t)v] = bb_hrcc_rank_of(data.get(), v, first_choice);
      matching = matching && ranks[(size_t)v] >= 0;
    }
    std::vector<int32_t> da_own((size_t)n, 0);
    if (matching && bb_hrcc_own_counts(data.get(), ranks.data(), da_own.data()) != BB_SMC_FIX)
      std::fill(da_own.begin(), da_own.end(), 0);
    std::vector<IntVar> budget_order; // the deferred acceptance's blocking variables first
    for (int pass = 0; pass < 2; pass++)
      for (int v = pass ? 0 : n_singles; v < (pass ? n_singles : n); v++) {
        order.push_back(IntVar(x[v].varimp()));
        int k = ranks[(size_t)v];
        guess.push_back(k < 0 ? Int::Limits::min : base + k);
        if (da_own[(size_t)v] > 0) budget_order.push_back(own_vars[v]);
      }
    for (int pass = 0; pass < 2; pass++)
      for (int v = pass ? 0 : n_singles; v < (pass ? n_singles : n); v++)
        if (da_own[(size_t)v] == 0) budget_order.push_back(own_vars[v]);
    auto values = std::make_shared<std::vector<int>>(std::move(guess));
    auto vars = std::make_shared<std::vector<IntVar>>(std::move(order));
    auto budgets = std::make_shared<std::vector<IntVar>>(std::move(budget_order));
    s.deferred_branchers.push_back([values, vars, budgets, bpv](bb_space &root) {
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
        bb_shim::branch_first_matching(root, IntVarArgs(*vars), *values, bb_shim::FirstMatchingPart::bulk);
      branch(root, stable, BOOL_VAL_MAX());
      if (!matching_first)
        bb_shim::branch_first_matching(root, IntVarArgs(*vars), *values, bb_shim::FirstMatchingPart::bulk);
      branch(root, IntVarArgs(*budgets), INT_VAR_NONE(), INT_VAL_MIN());
      bb_shim::branch_conflict_guided(root, IntVarArgs(*vars), *values);
      branch(root, count, INT_VAL_MIN());
    });
  }
  Hrc::post(home, x, own, Int::IntView(bpv), data.release(), base);
  return BB_OK;
  BB_SHIM_GUARD_END(err, fn)
}

extern "C" bb_smc_path bb_stable_matching_hrc_set_path(bb_smc_path path) {
  bb_smc_path before = posting_path;
  posting_path = path;
  return before;
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
