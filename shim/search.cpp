// Search: DFS / BAB / restarts over either, sequential or parallel, with node, failure
// and time limits.
#include "bb_search.h"
#include "post_args.hh"

#include <gecode/search.hh>

#include <chrono>
#include <csignal>
#include <cstring>
#include <memory>

using namespace Gecode;
using bb_shim::arg_fail;
using bb_shim::guarded;

namespace {

using clock_type = std::chrono::steady_clock;

// All limits in one Stop object. Parallel workers call stop() concurrently: it only
// reads its fields and the clock.
struct limit_stop : public Search::Stop {
  uint64_t node_limit = 0, fail_limit = 0;
  bool has_deadline = false;
  clock_type::time_point deadline;
  const volatile sig_atomic_t *interrupt = nullptr;
  bool stop(const Search::Statistics &s, const Search::Options &) override {
    if (interrupt && *interrupt) return true;
    if (node_limit && s.node > node_limit) return true;
    if (fail_limit && s.fail > fail_limit) return true;
    return has_deadline && clock_type::now() >= deadline;
  }
};

// LNS needs restarts; a constant budget per neighbourhood is the usual choice.
Search::Cutoff *cutoff_for(const bb_search_options &o, bool lns) {
  unsigned long scale = o.restart_scale ? o.restart_scale : 250;
  if (lns && o.restart == BB_RESTART_NONE) return Search::Cutoff::constant(scale);
  switch (bb_shim::raw_enum(o.restart)) {
    case BB_RESTART_CONSTANT: return Search::Cutoff::constant(scale);
    case BB_RESTART_LINEAR: return Search::Cutoff::linear(scale);
    case BB_RESTART_LUBY: return Search::Cutoff::luby(scale);
    case BB_RESTART_GEOMETRIC: return Search::Cutoff::geometric(scale, o.restart_base > 1.0 ? o.restart_base : 1.5);
    case BB_RESTART_NONE: return nullptr;
  }
  arg_fail("unknown restart kind %d", bb_shim::raw_enum(o.restart));
}

} // namespace

struct bb_search {
  limit_stop *stop = nullptr;               // outlives the engine, which points to it
  Search::Base<bb_space> *engine = nullptr; // null when the root failed
  uint64_t solutions = 0;
  bool stopped = false;
  bool exhausted = false;
  ~bb_search() {
    delete engine;
    delete stop;
  }
};

extern "C" {

void bb_search_options_init(bb_search_options *options) {
  if (options) memset(options, 0, sizeof *options);
}

bb_search *bb_search_new(bb_space *root, const bb_search_options *opts, bb_error *err) {
  bb_search *result = nullptr;
  guarded(err, "bb_search_new", [&] {
    bb_space &r = bb_shim::space_of(root);
    bb_search_options o;
    bb_search_options_init(&o);
    if (opts) o = *opts;
    if (o.threads < 0) arg_fail("negative thread count %d", o.threads);
    bool optimize_root = r.objective >= 0 && r.sense != BB_SATISFY;
    // validated before anything is allocated
    Search::Cutoff *cutoff = cutoff_for(o, r.lns && optimize_root);
    std::unique_ptr<bb_search> search(new bb_search());
    if (r.status() == SS_FAILED) {
      delete cutoff;
      search->exhausted = true;
      result = search.release();
      return BB_OK;
    }
    search->stop = new limit_stop();
    search->stop->node_limit = o.node_limit;
    search->stop->fail_limit = o.fail_limit;
    search->stop->interrupt = o.interrupt;
    if (o.time_limit_ms) {
      search->stop->has_deadline = true;
      search->stop->deadline = clock_type::now() + std::chrono::milliseconds(o.time_limit_ms);
    }
    bb_space *copy = static_cast<bb_space *>(r.clone());
    copy->stop = search->stop;
    if (!optimize_root) copy->lns.reset(); // a neighbourhood needs an objective to improve
    bool optimize = copy->objective >= 0 && copy->sense != BB_SATISFY;
    // constrain() reads the objective's value: make sure it gets one
    if (optimize && copy->objective_is_float)
      branch(*copy, copy->floats[(size_t)copy->objective],
             copy->sense == BB_MINIMIZE ? FLOAT_VAL_SPLIT_MIN() : FLOAT_VAL_SPLIT_MAX());
    else if (optimize)
      branch(*copy, copy->ints[(size_t)copy->objective], copy->sense == BB_MINIMIZE ? INT_VAL_MIN() : INT_VAL_MAX());
    Search::Options so;
    so.clone = false; // the engine takes `copy`
    so.threads = o.threads > 1 ? o.threads : 1;
    so.stop = search->stop;
    if (o.commit_distance)
      so.c_d = o.commit_distance;
    else if (r.commit_distance > so.c_d)
      so.c_d = r.commit_distance;
    if (o.adaptive_distance) so.a_d = o.adaptive_distance;
    so.cutoff = cutoff; // owned by the restart engine
    so.nogoods_limit = cutoff && o.nogoods ? (o.nogoods_limit ? o.nogoods_limit : 128) : 0;
    bb_shim::starting_search_threads starting;
    if (cutoff && optimize)
      search->engine = new RBS<bb_space, BAB>(copy, so);
    else if (cutoff)
      search->engine = new RBS<bb_space, DFS>(copy, so);
    else if (optimize)
      search->engine = new BAB<bb_space>(copy, so);
    else
      search->engine = new DFS<bb_space>(copy, so);
    result = search.release();
    return BB_OK;
  });
  return result;
}

bb_space *bb_search_next(bb_search *search, bb_error *err) {
  bb_space *solution = nullptr;
  guarded(err, "bb_search_next", [&] {
    if (!search) arg_fail("search is NULL");
    // A limit is final: Gecode would resume after a stop (the parallel engine may even
    // hand out a solution a worker found just before it), so a stopped search stays so.
    if (search->exhausted || search->stopped || !search->engine) return BB_OK;
    solution = search->engine->next();
    if (solution) {
      search->solutions++;
    } else {
      search->stopped = search->engine->stopped();
      search->exhausted = !search->stopped;
    }
    return BB_OK;
  });
  return solution;
}

bb_status bb_search_relax_and_reconstruct(bb_space *s, const int *vars, int count, int percentage, const int *initial,
                                          unsigned seed, bb_error *err) {
  return guarded(err, "bb_search_relax_and_reconstruct", [&] {
    bb_space &r = bb_shim::space_of(s);
    if (count < 0 || (count > 0 && !vars)) arg_fail("bad variable list (count %d)", count);
    if (percentage < 0 || percentage > 100) arg_fail("percentage %d is outside 0..100", percentage);
    auto config = std::make_shared<lns_config>();
    config->vars.reserve((size_t)count);
    for (int k = 0; k < count; k++) {
      if (vars[k] < 0 || (size_t)vars[k] >= r.ints.size()) arg_fail("int variable %d does not exist", vars[k]);
      config->vars.push_back(vars[k]);
    }
    if (initial) config->initial.assign(initial, initial + count);
    config->percentage = percentage;
    config->random.seed(seed);
    r.lns = std::move(config);
    return BB_OK;
  });
}

bool bb_search_stopped(const bb_search *search) { return search && search->stopped; }

void bb_search_stats(const bb_search *search, bb_search_statistics *stats) {
  if (!stats) return;
  memset(stats, 0, sizeof *stats);
  if (!search) return;
  stats->solutions = search->solutions;
  if (!search->engine) return;
  Search::Statistics st = search->engine->statistics();
  stats->nodes = st.node;
  stats->fails = st.fail;
  stats->restarts = st.restart;
  stats->propagations = st.propagate;
  stats->depth = st.depth;
}

void bb_search_free(bb_search *search) {
  if (!bb_shim::gecode_out_of_memory()) delete search;
}

} // extern "C"
