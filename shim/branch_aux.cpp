// The brancher for the variables MiniZinc introduced and no constraint defines, in a
// satisfaction search (bb_branch_aux_first, bb_search.h). Such a variable is only a means
// to an end: two solutions that differ in it alone are the same solution of the model.
// So, as fzn-gecode's AuxVarBrancher does, the brancher has one alternative: the values
// the first solution of a private search over these variables gives them. Without it,
// `-a` printed one solution per value of the auxiliaries, and `-n N` counted those.
#include "bb_search.h"
#include "post_args.hh"

#include <gecode/search.hh>

#include <memory>
#include <vector>

using namespace Gecode;
using namespace bb_shim;

namespace {

struct aux_values : public Choice {
  bool fail; // the auxiliaries cannot be completed: this node has no solution
  // The private search hit the running search's limit: nothing is fixed here, the last
  // default brancher branches on the auxiliaries instead, and the search stops at its
  // next node (a stop must never pass for "no solution").
  bool gave_up = false;
  std::vector<int> ints, bools;
  std::vector<FloatNum> floats; // min, max pairs
  std::vector<std::vector<int>> sets;
  aux_values(const Brancher &b, bool fail0) : Choice(b, 1), fail(fail0) {}
  void archive(Archive &e) const override {
    Choice::archive(e);
    e << (fail ? 1 : 0) << (gave_up ? 1 : 0) << (int)ints.size() << (int)bools.size() << (int)floats.size()
      << (int)sets.size();
    for (int v : ints) e << v;
    for (int v : bools) e << v;
    for (FloatNum v : floats) e << v;
    for (const auto &s : sets) {
      e << (int)s.size();
      for (int v : s) e << v;
    }
  }
};

// The auxiliaries, as indexes into the space's variable lists (bb_space), the same in
// every copy.
struct aux_vars {
  std::vector<int> ints, bools, floats, sets;
};

class AuxFirst : public Brancher {
  // Shared by every copy of the brancher. The root asks to be disposed (Gecode runs no
  // actor destructors otherwise); copies inherit that notice with the space, and each drops
  // its reference when disposed.
  std::shared_ptr<const aux_vars> vars;
  bool done = false;

  AuxFirst(Home home, std::shared_ptr<const aux_vars> v) : Brancher(home), vars(std::move(v)) {
    home.notice(*this, AP_DISPOSE);
  }
  AuxFirst(Space &home, AuxFirst &a) : Brancher(home, a), vars(a.vars), done(a.done) {}

  bool all_assigned(const bb_space &s) const {
    for (int v : vars->ints)
      if (!s.ints[(size_t)v].assigned()) return false;
    for (int v : vars->bools)
      if (!s.bools[(size_t)v].assigned()) return false;
    for (int v : vars->floats)
      if (!s.floats[(size_t)v].assigned()) return false;
    for (int v : vars->sets)
      if (!s.sets[(size_t)v].assigned()) return false;
    return true;
  }

 public:
  static void post(Home home, std::shared_ptr<const aux_vars> v) { (void)new (home) AuxFirst(home, std::move(v)); }
  Actor *copy(Space &home) override { return new (home) AuxFirst(home, *this); }
  bool status(const Space &home) const override { return !done && !all_assigned(static_cast<const bb_space &>(home)); }
  const Choice *choice(Space &home) override {
    done = true; // in this space and every copy made from now on, the private search included
    bb_space *probe = static_cast<bb_space *>(home.clone());
    auto vars_of = [](const auto &list, const std::vector<int> &idx) {
      std::vector<typename std::decay<decltype(list[0])>::type> out;
      for (int v : idx) out.push_back(list[(size_t)v]);
      return out;
    };
    // fzn-gecode's choices for introduced variables (its createBranchers).
    if (!vars->ints.empty())
      branch(*probe, IntVarArgs(vars_of(probe->ints, vars->ints)), INT_VAR_AFC_SIZE_MAX(0.99), INT_VAL_MIN());
    if (!vars->bools.empty())
      branch(*probe, BoolVarArgs(vars_of(probe->bools, vars->bools)), BOOL_VAR_AFC_MAX(0.99), BOOL_VAL_MIN());
    if (!vars->floats.empty())
      branch(*probe, FloatVarArgs(vars_of(probe->floats, vars->floats)), FLOAT_VAR_SIZE_MIN(), FLOAT_VAL_SPLIT_MIN());
    if (!vars->sets.empty())
      branch(*probe, SetVarArgs(vars_of(probe->sets, vars->sets)), SET_VAR_AFC_SIZE_MAX(0.99), SET_VAL_MIN_INC());
    Search::Options o;
    o.clone = false;      // the engine owns probe
    o.stop = probe->stop; // the running search's time and node limits bound this one too
    DFS<bb_space> engine(probe, o);
    bb_space *first = engine.next();
    if (!first && engine.stopped()) {
      auto *c = new aux_values(*this, false);
      c->gave_up = true;
      return c;
    }
    if (!first) return new aux_values(*this, true);
    auto *c = new aux_values(*this, false);
    for (int v : vars->ints) c->ints.push_back(first->ints[(size_t)v].val());
    for (int v : vars->bools) c->bools.push_back(first->bools[(size_t)v].val());
    for (int v : vars->floats)
      c->floats.push_back(first->floats[(size_t)v].min()), c->floats.push_back(first->floats[(size_t)v].max());
    for (int v : vars->sets) {
      std::vector<int> glb;
      for (SetVarGlbValues g(first->sets[(size_t)v]); g(); ++g) glb.push_back(g.val());
      c->sets.push_back(glb);
    }
    delete first;
    return c;
  }
  const Choice *choice(const Space &, Archive &e) override {
    int fail, gave_up, ni, nb, nf, ns;
    e >> fail >> gave_up >> ni >> nb >> nf >> ns;
    auto *c = new aux_values(*this, fail != 0);
    c->gave_up = gave_up != 0;
    for (int k = 0; k < ni; k++) c->ints.push_back(e.get());
    for (int k = 0; k < nb; k++) c->bools.push_back(e.get());
    for (int k = 0; k < nf; k++) {
      FloatNum v;
      e >> v;
      c->floats.push_back(v);
    }
    for (int k = 0; k < ns; k++) {
      int n = e.get();
      std::vector<int> s;
      for (int j = 0; j < n; j++) s.push_back(e.get());
      c->sets.push_back(s);
    }
    return c;
  }
  ExecStatus commit(Space &home, const Choice &choice, unsigned int) override {
    const auto &c = static_cast<const aux_values &>(choice);
    if (c.fail) return ES_FAILED;
    if (c.gave_up) return ES_OK;
    bb_space &s = static_cast<bb_space &>(home);
    for (size_t k = 0; k < vars->ints.size(); k++) rel(s, s.ints[(size_t)vars->ints[k]], IRT_EQ, c.ints[k]);
    for (size_t k = 0; k < vars->bools.size(); k++) rel(s, s.bools[(size_t)vars->bools[k]], IRT_EQ, c.bools[k]);
    for (size_t k = 0; k < vars->floats.size(); k++)
      dom(s, s.floats[(size_t)vars->floats[k]], c.floats[2 * k], c.floats[2 * k + 1]);
    for (size_t k = 0; k < vars->sets.size(); k++) {
      const std::vector<int> &v = c.sets[k];
      IntSet value = v.empty() ? IntSet::empty : IntSet(v.data(), (int)v.size());
      dom(s, s.sets[(size_t)vars->sets[k]], SRT_EQ, value);
    }
    return s.failed() ? ES_FAILED : ES_OK;
  }
  void print(const Space &, const Choice &, unsigned int, std::ostream &o) const override {
    o << "introduced variables = their first solution";
  }
  size_t dispose(Space &home) override {
    home.ignore(*this, AP_DISPOSE);
    vars.~shared_ptr();
    (void)Brancher::dispose(home);
    return sizeof(*this);
  }
};

} // namespace

extern "C" bb_status bb_branch_aux_first(bb_space *sp, const int *ints, int n_ints, const int *bools, int n_bools,
                                         const int *floats, int n_floats, const int *sets, int n_sets, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  // Validated before anything is posted.
  int_vars(s, ints, n_ints, "ints");
  bool_vars(s, bools, n_bools, "bools");
  float_vars(s, floats, n_floats, "floats");
  set_vars(s, sets, n_sets, "sets");
  if (n_ints + n_bools + n_floats + n_sets == 0) return BB_OK;
  auto v = std::make_shared<aux_vars>();
  v->ints.assign(ints, ints + n_ints);
  v->bools.assign(bools, bools + n_bools);
  v->floats.assign(floats, floats + n_floats);
  v->sets.assign(sets, sets + n_sets);
  AuxFirst::post(s, std::move(v));
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_aux_first")
}
