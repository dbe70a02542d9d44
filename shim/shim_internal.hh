// Internal to shim/: the Gecode space behind the opaque `bb_space` handle, and the one
// macro that keeps C++ exceptions from crossing into C. Never included from C.
#ifndef BB_SHIM_INTERNAL_HH
#define BB_SHIM_INTERNAL_HH

#include "bb_shim.h"

#include <gecode/int.hh>
#include <gecode/set.hh>

#include <exception>
#include <new>
#include <vector>

// A model and, during search, one search node. Variables are addressed from C by their
// index in `ints`, `bools` or `sets`; copying a space updates every variable, which is
// O(number of variables), never O(domain sizes).
struct bb_space : public Gecode::Space {
  std::vector<Gecode::IntVar> ints;
  std::vector<Gecode::BoolVar> bools;
  std::vector<Gecode::SetVar> sets;
  int objective = -1;                    // index into `ints`, -1 for a satisfaction problem
  bb_objective_sense sense = BB_SATISFY;

  bb_space() = default;
  bb_space(bb_space &other) : Gecode::Space(other), objective(other.objective), sense(other.sense) {
    ints.resize(other.ints.size());
    for (size_t i = 0; i < ints.size(); i++) ints[i].update(*this, other.ints[i]);
    bools.resize(other.bools.size());
    for (size_t i = 0; i < bools.size(); i++) bools[i].update(*this, other.bools[i]);
    sets.resize(other.sets.size());
    for (size_t i = 0; i < sets.size(); i++) sets[i].update(*this, other.sets[i]);
  }
  Gecode::Space *copy() override { return new bb_space(*this); }
  // Branch-and-bound: every later solution must be strictly better than `best`.
  void constrain(const Gecode::Space &best) override {
    if (objective < 0 || sense == BB_SATISFY) return;
    const bb_space &b = static_cast<const bb_space &>(best);
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
