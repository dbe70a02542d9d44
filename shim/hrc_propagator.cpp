// The HRC propagator: Gecode's side of propagator/smc/hrc/smc_hrc.h.
#include "hrc_propagator.hh"

#include "shim_internal.hh"

#include <vector>

using namespace Gecode;

namespace bamboo {

typedef Int::OffsetView View;

namespace {

// What a propagation works in, one per thread and kept between propagations: the core's
// instance-sized scratch and the budgets' four arrays. Allocated anew at every propagation,
// they cost fresh pages at every search node. Told what changed, the core reads the budgets
// and writes their bounds only at the variables it names, so these hold another
// propagator's numbers elsewhere.
struct HrcScratch {
  bb_smc_hrc_scratch *core = bb_smc_hrc_scratch_new(); // NULL: the core allocates per call
  std::vector<int32_t> own_min, own_max, own_lb, own_ub;
  HrcScratch() = default;
  HrcScratch(const HrcScratch &) = delete;
  HrcScratch &operator=(const HrcScratch &) = delete;
  ~HrcScratch() { bb_smc_hrc_scratch_free(core); }
  void fit(int n) {
    if (own_min.size() >= (size_t)n) return;
    own_min.resize((size_t)n), own_max.resize((size_t)n), own_lb.resize((size_t)n), own_ub.resize((size_t)n);
  }
};
thread_local HrcScratch scratch;

} // namespace

// The variables (ranks) and budgets whose views changed, each once, in the order seen; taken
// whole by a propagation, whose own changes then start the next list.
struct StableMatchingHRC::Notes {
  std::vector<int32_t> vars, budgets, taken_vars, taken_budgets;
  std::vector<uint8_t> noted; // per rank view, then per budget view
  explicit Notes(int n) : noted(2 * (size_t)n, 0) { vars.reserve((size_t)n), budgets.reserve((size_t)n); }
  void note(int i, int n) {
    if (noted[(size_t)i]) return;
    noted[(size_t)i] = 1;
    (i < n ? vars : budgets).push_back(i < n ? i : i - n);
  }
  void take(int n) {
    taken_vars.swap(vars), taken_budgets.swap(budgets);
    vars.clear(), budgets.clear();
    for (int32_t v : taken_vars) noted[(size_t)v] = 0;
    for (int32_t v : taken_budgets) noted[(size_t)(n + v)] = 0;
  }
};

StableMatchingHRC::StableMatchingHRC(Home home, ViewArray<View> &x0, ViewArray<Int::IntView> &own0, Int::IntView bp0,
                                     bb_smc_hrc *d)
    : Propagator(home), x(x0), own(own0), bp(bp0), watches(home), open_ranks(0), data(d) {
  int n = x.size();
  for (int v = 0; v < n; v++)
    if (!x[v].assigned()) {
      x[v].subscribe(home, *new (home) VarWatch(home, *this, watches, v));
      open_ranks++;
    }
  for (int v = 0; v < n; v++)
    if (!own[v].assigned()) own[v].subscribe(home, *new (home) VarWatch(home, *this, watches, n + v));
  bp.subscribe(home, *this, Int::PC_INT_BND);
  home.notice(*this, AP_DISPOSE);
  View::schedule(home, *this, Int::ME_INT_DOM);
}

StableMatchingHRC::StableMatchingHRC(Space &home, StableMatchingHRC &other)
    : Propagator(home, other), open_ranks(other.open_ranks), data(other.data) {
  x.update(home, other.x);
  own.update(home, other.own);
  bp.update(home, other.bp);
  watches.update(home, other.watches);
  bb_smc_hrc_retain(data);
  if (other.notes && bb_smc_hrc_memo_ready(other.memo, data)) {
    memo = bb_smc_hrc_memo_copy(other.memo); // NULL: this copy counts everything once
    try {
      notes = memo ? new Notes(*other.notes) : nullptr;
    } catch (...) {
      bb_smc_hrc_memo_free(memo);
      memo = nullptr;
    }
  }
}

void StableMatchingHRC::post(Home home, ViewArray<View> &x, ViewArray<Int::IntView> &own, Int::IntView bp,
                             bb_smc_hrc *d) {
  (void)new (home) StableMatchingHRC(home, x, own, bp, d);
}

Actor *StableMatchingHRC::copy(Space &home) { return new (home) StableMatchingHRC(home, *this); }

PropCost StableMatchingHRC::cost(const Space &, const ModEventDelta &) const {
  return PropCost::linear(PropCost::HI, x.size());
}

void StableMatchingHRC::reschedule(Space &home) {
  View::schedule(home, *this, Int::ME_INT_DOM);
  bp.reschedule(home, *this, Int::PC_INT_BND);
}

// Scheduled as the subscriptions it stands for would (ranks on any change, budgets on their
// bounds), the propagator's own changes included: the core counts those again too.
ExecStatus StableMatchingHRC::advise(Space &home, Advisor &a, const Delta &d) {
  VarWatch &w = static_cast<VarWatch &>(a);
  int n = x.size();
  bool done;
  if (w.var < n) {
    done = x[w.var].assigned();
    open_ranks -= done;
  } else {
    if (Int::IntView::modevent(d) == Int::ME_INT_DOM) return ES_FIX; // a hole: budgets are read by bounds
    done = own[w.var - n].assigned();
  }
  if (notes) notes->note(w.var, n);
  return done ? home.ES_NOFIX_DISPOSE(watches, w) : ES_NOFIX;
}

size_t StableMatchingHRC::dispose(Space &home) {
  home.ignore(*this, AP_DISPOSE);
  // A space being deleted is failed first, and its subscriptions die with it (as
  // WatchedPropagator::unwatch).
  if (!home.failed()) {
    int n = x.size();
    for (Advisors<VarWatch> as(watches); as(); ++as) {
      int v = as.advisor().var;
      if (v < n)
        x[v].cancel(home, as.advisor());
      else
        own[v - n].cancel(home, as.advisor());
    }
  }
  watches.dispose(home);
  bp.cancel(home, *this, Int::PC_INT_BND);
  bb_smc_hrc_release(data);
  bb_smc_hrc_memo_free(memo);
  delete notes;
  (void)Propagator::dispose(home);
  return sizeof(*this);
}

ExecStatus StableMatchingHRC::propagate(Space &home, const ModEventDelta &) {
  SmcHost host{&home, &x};
  const bb_smc_domains dom = smc_domains(host);
  int64_t lb, ub;
  int n = x.size();
  scratch.fit(n);
  int32_t *own_min = scratch.own_min.data(), *own_max = scratch.own_max.data();
  int32_t *own_lb = scratch.own_lb.data(), *own_ub = scratch.own_ub.data();
  if (!memo) memo = bb_smc_hrc_memo_new(); // NULL: every propagation counts everything
  if (memo && !notes) notes = new Notes(n);
  // Told what changed only when the memo holds a whole propagation to build on; else the core
  // compares every variable and reads every budget.
  bool told = notes && bb_smc_hrc_memo_ready(memo, data);
  if (notes) notes->take(n);
  if (told) {
    for (int32_t v : notes->taken_budgets) own_min[v] = own[v].min(), own_max[v] = own[v].max();
  } else {
    for (int v = 0; v < n; v++) own_min[v] = own[v].min(), own_max[v] = own[v].max();
  }
  bb_smc_hrc_budgets budgets{own_min, own_max, own_lb, own_ub};
  bb_smc_hrc_changes changes{};
  if (told)
    changes = {notes->taken_vars.data(), (int)notes->taken_vars.size(), notes->taken_budgets.data(),
               (int)notes->taken_budgets.size()};
  bb_smc_status r = bb_smc_hrc_propagate_changes(data, &dom, bp.max(), &budgets, scratch.core, memo,
                                                 told ? &changes : nullptr, &lb, &ub);
  if (r == BB_SMC_NOMEM) throw MemoryExhausted();
  if (r == BB_SMC_FAILED) return ES_FAILED;
  // the budgets' bounds where they may have moved (elsewhere they were told before), ascending
  const int32_t *moved = nullptr;
  int n_moved = memo ? bb_smc_hrc_memo_moved(memo, &moved) : -1;
  bool changed = false;
  for (int i = 0; i < (n_moved < 0 ? n : n_moved); i++) {
    int v = n_moved < 0 ? i : moved[i];
    ModEvent a = own[v].gq(home, own_lb[v]), b = own[v].lq(home, own_ub[v]);
    if (me_failed(a) || me_failed(b)) return ES_FAILED;
    changed = changed || a != Int::ME_INT_NONE || b != Int::ME_INT_NONE;
  }
  ModEvent m1 = bp.gq(home, bb_clamp_int(lb)), m2 = bp.lq(home, bb_clamp_int(ub));
  if (me_failed(m1) || me_failed(m2)) return ES_FAILED;
  if (r == BB_SMC_CHANGED || changed || m1 != Int::ME_INT_NONE || m2 != Int::ME_INT_NONE) return ES_NOFIX;
  if (bp.assigned() && open_ranks == 0) return home.ES_SUBSUMED(*this);
  return ES_FIX;
}

} // namespace bamboo
