// Internal to shim/: the Gecode space behind the opaque `bb_space` handle, and the one
// macro that keeps C++ exceptions from crossing into C. Never included from C.
#ifndef BB_SHIM_INTERNAL_HH
#define BB_SHIM_INTERNAL_HH

#include "bb_shim.h"
#include "smc_status.h"

#include <gecode/float.hh>
#include <gecode/int.hh>
#include <gecode/search.hh>
#include <gecode/set.hh>

#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <new>
#include <unordered_map>
#include <vector>

// A 64-bit count or bound as a value an IntVar can take (Gecode's limits), for propagators
// whose C cores count in 64 bits (the HRC constraint's bp, the objective bounds).
inline int bb_clamp_int(int64_t v) {
  return v > Gecode::Int::Limits::max   ? Gecode::Int::Limits::max
         : v < Gecode::Int::Limits::min ? Gecode::Int::Limits::min
                                        : (int)v;
}

// Large neighbourhood search (MiniZinc's relax_and_reconstruct): at each restart after the
// first solution, every listed int variable keeps its value in the last solution with
// probability percentage / 100, and the rest of the problem is searched again. One
// generator for the whole search, shared by every copy: Gecode calls slave() from the
// restart engine's own thread, one restart at a time, so the lock is never contended.
struct lns_config {
  std::vector<int> vars;    // indices into bb_space::ints
  std::vector<int> initial; // empty, or the values that stand for a last solution until one is found
  int percentage = 0;       // 0..100: the chance that a variable is fixed
  std::mutex lock;
  std::mt19937 random;
};

// The variables of one kind. The root (the model being built) grows its list on the C
// heap; every copy made during search keeps a fixed array on the copy's own space heap,
// which Gecode frees with the space: no malloc/free per search node (this was 5-8% of
// fzn-bamboo's time on a Boolean model against fzn-gecode).
template <class Var>
class VarList {
  Var *data_ = nullptr;
  size_t size_ = 0, cap_ = 0;
  bool owns_ = true; // data_ is malloc'd (root) rather than on a space heap (copy)

 public:
  VarList() = default;
  VarList(const VarList &) = delete;
  VarList &operator=(const VarList &) = delete;
  ~VarList() {
    if (owns_) {
      for (size_t i = 0; i < size_; i++) data_[i].~Var();
      std::free(data_);
    }
  }
  // The copy in `home` of `other`'s variables (Gecode's update protocol).
  void update(Gecode::Space &home, VarList &other) {
    size_ = cap_ = other.size_;
    owns_ = false;
    data_ = size_ ? home.alloc<Var>(size_) : nullptr;
    for (size_t i = 0; i < size_; i++) {
      new (&data_[i]) Var();
      data_[i].update(home, other.data_[i]);
    }
  }
  void push_back(const Var &v) {
    if (!owns_) throw std::logic_error("variables can only be added to the model, not to a search copy");
    if (size_ == cap_) {
      size_t cap = cap_ ? 2 * cap_ : 64;
      Var *grown = static_cast<Var *>(std::malloc(cap * sizeof(Var)));
      if (!grown) throw std::bad_alloc();
      for (size_t i = 0; i < size_; i++) {
        new (&grown[i]) Var(data_[i]);
        data_[i].~Var();
      }
      std::free(data_);
      data_ = grown;
      cap_ = cap;
    }
    new (&data_[size_++]) Var(v);
  }
  Var &operator[](size_t i) { return data_[i]; }
  const Var &operator[](size_t i) const { return data_[i]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Var *begin() const { return data_; }
  const Var *end() const { return data_ + size_; }
};

// A model and, during search, one search node. Variables are addressed from C by their
// index in `ints`, `bools` or `sets`; copying a space updates every variable, which is
// O(number of variables), never O(domain sizes).
struct bb_space : public Gecode::Space {
  VarList<Gecode::IntVar> ints;
  VarList<Gecode::BoolVar> bools;
  VarList<Gecode::SetVar> sets;
  VarList<Gecode::FloatVar> floats;
  int objective = -1; // index into `ints` (or `floats`), -1 for a satisfaction problem
  bool objective_is_float = false;
  double float_step = 0.0; // a better float objective improves by more than this
  bb_objective_sense sense = BB_SATISFY;
  // The running search's limits (bb_search_new sets it on the engine's copy; every later
  // copy shares it), for searches made inside a node: the brancher of branch_aux.cpp.
  Gecode::Search::Stop *stop = nullptr;
  // Root only (not copied): the float variables a float_search already branches on, which
  // the default branching leaves alone so that the search's precision is kept.
  std::vector<bool> float_searched;
  // Root only (not copied): every tuple set posted so far, by content, so that identical
  // tables share one (as Gecode's FlatZinc front end does): a TupleSet holds the supports
  // of every value, the bulk of a table's memory, and copies share it by reference.
  struct tuple_set_entry {
    int arity;
    std::vector<int> tuples; // the rows as posted, row-major
    Gecode::TupleSet set;
  };
  std::unordered_multimap<std::size_t, tuple_set_entry> tuple_sets;
  long tuple_sets_built = 0; // TupleSets made (not reused): what tests count
  // Root only (not copied): branchers a constraint asks for by default (HRC's deferred-
  // acceptance order), posted by bb_branch_deferred after the model's own search annotations.
  std::vector<std::function<void(bb_space &)>> deferred_branchers;
  // Root only (not copied): the recomputation commit distance the search uses when the caller
  // gives none (0: Gecode's 8). A constraint over many variables raises it: every copy the
  // search keeps copies all of them (bb_search_options' commit_distance).
  unsigned commit_distance = 0;
  bool incomplete = false;         // a copy whose variables could not all be copied (out of memory)
  std::shared_ptr<lns_config> lns; // null without relax_and_reconstruct

  bb_space() = default;
  // Memory may run out in the variable arrays, after Gecode::Space's own copy: see copy().
  bb_space(bb_space &other)
      : Gecode::Space(other),
        objective(other.objective),
        objective_is_float(other.objective_is_float),
        float_step(other.float_step),
        sense(other.sense),
        stop(other.stop),
        lns(other.lns) {
    try {
      ints.update(*this, other.ints);
      bools.update(*this, other.bools);
      sets.update(*this, other.sets);
      floats.update(*this, other.floats);
    } catch (const Gecode::MemoryExhausted &) { incomplete = true; } catch (const std::bad_alloc &) {
      incomplete = true;
    }
  }
  // An exception out of the constructor's body would run ~Space on a copy whose disposal
  // list Gecode 6.2 fills in only after copy() returns (uninitialised until then): the
  // incomplete copy is left unreleased instead (memory has run out; the process ends soon).
  Gecode::Space *copy() override {
    bb_space *c = new bb_space(*this);
    if (c->incomplete) throw Gecode::MemoryExhausted();
    return c;
  }
  // A restart of restart-based search: with LNS and a solution found, the next search
  // explores the neighbourhood of that solution. Returns whether the restarted search is
  // complete (then its exhaustion proves the last solution optimal); a neighbourhood is not.
  bool slave(const Gecode::MetaInfo &mi) override {
    if (!lns || mi.type() != Gecode::MetaInfo::RESTART) return true;
    // The first search (restart 0, nothing found yet) is the whole problem.
    const bb_space *last = static_cast<const bb_space *>(mi.last());
    if (!last && (lns->initial.empty() || mi.restart() == 0)) return true;
    std::lock_guard<std::mutex> hold(lns->lock);
    std::uniform_int_distribution<int> percent(0, 99);
    for (size_t k = 0; k < lns->vars.size(); k++) {
      if (percent(lns->random) >= lns->percentage) continue;
      size_t v = (size_t)lns->vars[k];
      if (!last)
        Gecode::rel(*this, ints[v], Gecode::IRT_EQ, lns->initial[k]);
      else if (last->ints[v].assigned())
        Gecode::rel(*this, ints[v], Gecode::IRT_EQ, last->ints[v].val());
    }
    return false;
  }
  // Branch-and-bound: every later solution must be strictly better than `best`.
  void constrain(const Gecode::Space &best) override {
    if (objective < 0 || sense == BB_SATISFY) return;
    const bb_space &b = static_cast<const bb_space &>(best);
    if (objective_is_float) {
      // As Gecode's FlatZinc front end: strictly below (above) the solution's interval,
      // moved by the step.
      Gecode::FloatVal v = b.floats[objective].val();
      if (sense == BB_MINIMIZE)
        Gecode::rel(*this, floats[objective], Gecode::FRT_LE, v - float_step);
      else
        Gecode::rel(*this, floats[objective], Gecode::FRT_GR, v + float_step);
      return;
    }
    int v = b.ints[objective].val();
    Gecode::rel(*this, ints[objective], sense == BB_MINIMIZE ? Gecode::IRT_LE : Gecode::IRT_GR, v);
  }
};

namespace bb_shim {
// A view's modification as a stable-matching core's host contract answers it (smc_status.h).
inline bb_smc_status smc_status_of(Gecode::ModEvent me) {
  return Gecode::me_failed(me) ? BB_SMC_FAILED : me == Gecode::ME_GEN_NONE ? BB_SMC_FIX : BB_SMC_CHANGED;
}
// Gecode 6.2 cannot undo a clone that runs out of memory half-way: the space being cloned
// is left with forwarding pointers in its variables and actors, and destroying it (or the
// search engine that holds it) crashes; the partial copy is lost (later Gecode releases
// recover both). So once memory has run out inside Gecode, bb_space_free and
// bb_search_free leave spaces and searches to the end of the process instead.
void note_gecode_out_of_memory();
bool gecode_out_of_memory();
// While one lives, the parallel engine is starting its threads: a std::terminate then
// (Gecode 6.2 destroys a held mutex when pthread_create fails) is a resource that ran out.
struct starting_search_threads {
  starting_search_threads();
  ~starting_search_threads();
  starting_search_threads(const starting_search_threads &) = delete;
  starting_search_threads &operator=(const starting_search_threads &) = delete;
};
} // namespace bb_shim

// Every extern "C" entry point runs its body between BB_SHIM_GUARD_BEGIN and
// BB_SHIM_GUARD_END(err, fn): Gecode exceptions, bad_alloc and anything else become a
// bb_status with a message; memory running out (Gecode's MemoryExhausted or bad_alloc) is
// BB_ERR_NOMEM. The posters use it through posting() (post_args.hh), other entry points
// directly or through guarded().
#define BB_SHIM_GUARD_BEGIN try {
#define BB_SHIM_GUARD_END(err, fn)                                                  \
  }                                                                                 \
  catch (const Gecode::MemoryExhausted &) {                                         \
    bb_shim::note_gecode_out_of_memory();                                           \
    return bb_fail((err), BB_ERR_NOMEM, "%s: out of memory (Gecode's heap)", (fn)); \
  }                                                                                 \
  catch (const Gecode::Exception &e) {                                              \
    return bb_fail((err), BB_ERR_ARG, "%s: Gecode: %s", (fn), e.what());            \
  }                                                                                 \
  catch (const std::bad_alloc &) {                                                  \
    bb_shim::note_gecode_out_of_memory();                                           \
    return bb_fail((err), BB_ERR_NOMEM, "%s: out of memory", (fn));                 \
  }                                                                                 \
  catch (const std::exception &e) {                                                 \
    return bb_fail((err), BB_ERR_ARG, "%s: %s", (fn), e.what());                    \
  }                                                                                 \
  catch (...) {                                                                     \
    return bb_fail((err), BB_ERR_ARG, "%s: unknown C++ exception", (fn));           \
  }

#endif
