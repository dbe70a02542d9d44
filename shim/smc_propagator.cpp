// The Stable Marriage propagator: Gecode's side of the C core's contract (smc.h).
#include "smc_propagator.hh"
#include "bb_stable_matching.h"
#include "shim_internal.hh"
#include "smc_domains.hh"

#include <atomic>
#include <climits>
#include <cstring>
#include <new>

using namespace Gecode;

namespace bamboo {

namespace {

std::atomic<bb_stable_matching_observer> observer{nullptr};
std::atomic<void *> observer_ctx{nullptr};

std::atomic<uint64_t> total_propagations{0}, total_rounds{0}, total_channel{0}, total_bounds{0}, total_scans{0};

} // namespace

void add_counters(const bb_smc_counters &c) {
  total_propagations += c.propagations;
  total_rounds += c.rounds;
  total_channel += c.channel_removals;
  total_bounds += c.bound_updates;
  total_scans += c.scans;
}

StableMatching::StableMatching(Home home, ViewArray<RankView> &x0, bb_smc_prefs *prefs0, bb_smc_strength strength0,
                               bb_smc_path path0)
    : WatchedPropagator(home, x0), prefs(prefs0), strength(strength0), path(path0), node(nullptr), scratch(nullptr) {
  Space &s = home;
  node = reinterpret_cast<bb_smc_node *>(s.alloc<char>(bb_smc_node_bytes_for(prefs)));
  bb_smc_node_init_for(node, prefs);
  watch(home); // the first propagation: init()
}

// Any allocation here may throw (Gecode's MemoryExhausted) with the copy half made. The
// copy is then never linked into the new space nor disposed, so it must own nothing
// outside the space's heap until the end: the shared preferences are retained last.
StableMatching::StableMatching(Space &home, StableMatching &other)
    : WatchedPropagator(home, other),
      prefs(nullptr),
      strength(other.strength),
      path(other.path),
      node(nullptr),
      scratch(nullptr) {
  size_t bytes = bb_smc_node_bytes_for(other.prefs);
  node = reinterpret_cast<bb_smc_node *>(home.alloc<char>(bytes));
  memcpy(node, other.node, bytes);
  prefs = bb_smc_prefs_retain(other.prefs);
}

ExecStatus StableMatching::post(Home home, ViewArray<RankView> &x, bb_smc_prefs *prefs, bb_smc_strength strength,
                                bb_smc_path path) {
  // Memory can only run out before the constructor's last step registers dispose(), so a
  // propagator that fails half-built is never disposed: the reference is given back here.
  try {
    (void)new (home) StableMatching(home, x, prefs, strength, path);
  } catch (...) {
    bb_smc_prefs_release(prefs);
    throw;
  }
  return ES_OK;
}

Propagator *StableMatching::copy(Space &home) { return new (home) StableMatching(home, *this); }

PropCost StableMatching::cost(const Space &, const ModEventDelta &) const {
  return PropCost::quadratic(PropCost::LO, x.size());
}

bb_smc_scratch *StableMatching::work_space() {
  if (!scratch) {
    bb_error err;
    scratch = bb_smc_scratch_for(prefs, &err);
    if (!scratch) throw std::bad_alloc();
  }
  return scratch;
}

ExecStatus StableMatching::advise(Space &home, Advisor &a, const Delta &d) {
  if (propagating) return ES_FIX;
  Watch &w = static_cast<Watch &>(a);
  RankView v = x[w.var];
  // Before its first propagation the constraint reads every domain anyway: a second constraint
  // on the same variables is told nothing of the first one's root write-back (4800 changes at
  // n = 2400), only scheduled.
  if (bb_smc_node_fresh(node)) return v.assigned() ? home.ES_NOFIX_DISPOSE(watches, w) : ES_NOFIX;
  bb_smc_scratch *s = work_space();
  if (v.any(d)) {
    bb_smc_note_unknown(s, w.var);
  } else if (v.min(d) > v.min() && v.max(d) < v.max()) {
    bb_smc_note_removed(s, w.var, v.min(d), v.max(d)); // a hole strictly inside the bounds
  } else {
    bb_smc_note_changed(s, w.var);
  }
  return v.assigned() ? home.ES_NOFIX_DISPOSE(watches, w) : ES_NOFIX;
}

ExecStatus StableMatching::propagate(Space &home, const ModEventDelta &) {
  bb_smc_scratch *s = work_space();
  SmcHost host = {&home, &x};
  const bb_smc_domains domains = smc_domains(host);
  bb_smc_counters counters = {0, 0, 0, 0, 0};
  bb_smc_run_info info;
  bb_stable_matching_observer watch = observer.load(std::memory_order_acquire);
  bb_smc_status result;
  {
    Propagating guard(propagating);
    result = bb_smc_propagate_on(prefs, strength, path, node, s, &domains, &counters, watch ? &info : nullptr);
  }
  add_counters(counters);
  if (watch) watch(observer_ctx.load(std::memory_order_acquire), &info);
  switch (result) {
    case BB_SMC_FAILED: return ES_FAILED;
    case BB_SMC_SOLVED: return home.ES_SUBSUMED(*this);
    case BB_SMC_NOMEM: throw std::bad_alloc();
    case BB_SMC_CHANGED: return ES_NOFIX; // not returned by this core (it runs to its fixpoint)
    case BB_SMC_FIX: break;
  }
  return ES_FIX;
}

size_t StableMatching::dispose(Space &home) {
  unwatch(home);
  home.free<char>(reinterpret_cast<char *>(node), bb_smc_node_bytes_for(prefs));
  bb_smc_prefs_release(prefs);
  bb_smc_scratch_free(scratch);
  (void)Propagator::dispose(home);
  return sizeof(*this);
}

} // namespace bamboo

extern "C" void bb_stable_matching_counters(bb_smc_counters *out) {
  out->propagations = bamboo::total_propagations;
  out->rounds = bamboo::total_rounds;
  out->channel_removals = bamboo::total_channel;
  out->bound_updates = bamboo::total_bounds;
  out->scans = bamboo::total_scans;
}

extern "C" void bb_stable_matching_observe(bb_stable_matching_observer fn, void *ctx) {
  bamboo::observer_ctx.store(ctx, std::memory_order_release);
  bamboo::observer.store(fn, std::memory_order_release);
}
