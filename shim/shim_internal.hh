// Internal to shim/: the Gecode space behind the opaque `bb_space` handle, and the one
// macro that keeps C++ exceptions from crossing into C. Never included from C.
#ifndef BB_SHIM_INTERNAL_HH
#define BB_SHIM_INTERNAL_HH

#include "bb_shim.h"

#include <gecode/float.hh>
#include <gecode/int.hh>
#include <gecode/search.hh>
#include <gecode/set.hh>

#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <new>
#include <unordered_map>
#include <vector>

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
  int objective = -1;                    // index into `ints` (or `floats`), -1 for a satisfaction problem
  bool objective_is_float = false;
  double float_step = 0.0;               // a better float objective improves by more than this
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

  bb_space() = default;
  bb_space(bb_space &other)
      : Gecode::Space(other), objective(other.objective), objective_is_float(other.objective_is_float),
        float_step(other.float_step), sense(other.sense), stop(other.stop) {
    ints.update(*this, other.ints);
    bools.update(*this, other.bools);
    sets.update(*this, other.sets);
    floats.update(*this, other.floats);
  }
  Gecode::Space *copy() override { return new bb_space(*this); }
  // Branch-and-bound: every later solution must be strictly better than `best`.
  void constrain(const Gecode::Space &best) override {
    if (objective < 0 || sense == BB_SATISFY) return;
    const bb_space &b = static_cast<const bb_space &>(best);
    if (objective_is_float) {
      // As Gecode's FlatZinc front end: strictly below (above) the solution's interval,
      // moved by the step.
      Gecode::FloatVal v = b.floats[objective].val();
      if (sense == BB_MINIMIZE) Gecode::rel(*this, floats[objective], Gecode::FRT_LE, v - float_step);
      else Gecode::rel(*this, floats[objective], Gecode::FRT_GR, v + float_step);
      return;
    }
    int v = b.ints[objective].val();
    Gecode::rel(*this, ints[objective], sense == BB_MINIMIZE ? Gecode::IRT_LE : Gecode::IRT_GR, v);
  }
};

// Every extern "C" entry point runs its body inside BB_SHIM_GUARD(err) { ... }: Gecode
// exceptions, bad_alloc and anything else become a bb_status with a message.
#define BB_SHIM_GUARD_BEGIN try {
#define BB_SHIM_GUARD_END(err, fn)                                                              \
  }                                                                                             \
  catch (const Gecode::Exception &e) {                                                          \
    return bb_fail((err), BB_ERR_ARG, "%s: Gecode: %s", (fn), e.what());                        \
  }                                                                                             \
  catch (const std::bad_alloc &) {                                                              \
    return bb_fail((err), BB_ERR_NOMEM, "%s: out of memory", (fn));                             \
  }                                                                                             \
  catch (const std::exception &e) {                                                             \
    return bb_fail((err), BB_ERR_ARG, "%s: %s", (fn), e.what());                                \
  }                                                                                             \
  catch (...) {                                                                                 \
    return bb_fail((err), BB_ERR_ARG, "%s: unknown C++ exception", (fn));                       \
  }

#endif
