// The HRC default brancher (hrc_branch.hh): the deferred acceptance's matching as one
// decision, so that a 47,000-resident matching costs one propagation instead of 47,000 (and
// the search tree one level instead of 47,000 copies deep), then plain value branching.
#include "hrc_branch.hh"

#include <memory>

using namespace Gecode;

namespace {

// single: x = v / x != v; partition: all / the first k - 1 and not the k-th; nogood: all / not
// all (one clause), so that what follows the decision is one subtree, not one per variable.
enum Kind { single = 0, partition = 1, nogood = 2 };

class FirstMatchingChoice : public Choice {
 public:
  int kind;
  std::vector<int> pos, val; // bulk: the pairs; single: one pair
  FirstMatchingChoice(const Brancher &b, unsigned alternatives, int kind0, std::vector<int> p, std::vector<int> v)
      : Choice(b, alternatives), kind(kind0), pos(std::move(p)), val(std::move(v)) {}
  void archive(Archive &e) const override {
    Choice::archive(e);
    e << kind << (int)pos.size();
    for (size_t i = 0; i < pos.size(); i++) e << pos[i] << val[i];
  }
};

// Not every y[i] = val[i] (the nogood alternative): fails when all are, and removes val[i]
// from the last y[i] that still may differ. O(n) per run, scanning from the first y[i] that
// may still differ (kept as `at`: the ones before it are assigned to their value).
class NotAll : public Propagator {
  ViewArray<Int::IntView> y;
  int *val;
  int at = 0;

 public:
  NotAll(Home home, ViewArray<Int::IntView> &y0, const std::vector<int> &v)
      : Propagator(home), y(y0), val(static_cast<Space &>(home).alloc<int>(y0.size())) {
    for (int i = 0; i < y.size(); i++) val[i] = v[(size_t)i];
    y.subscribe(home, *this, Int::PC_INT_DOM);
  }
  NotAll(Space &home, NotAll &p) : Propagator(home, p), val(home.alloc<int>(p.y.size())), at(p.at) {
    y.update(home, p.y);
    for (int i = 0; i < y.size(); i++) val[i] = p.val[i];
  }
  Actor *copy(Space &home) override { return new (home) NotAll(home, *this); }
  PropCost cost(const Space &, const ModEventDelta &) const override {
    return PropCost::linear(PropCost::LO, y.size());
  }
  void reschedule(Space &home) override { y.reschedule(home, *this, Int::PC_INT_DOM); }
  size_t dispose(Space &home) override {
    y.cancel(home, *this, Int::PC_INT_DOM);
    home.free<int>(val, y.size());
    (void)Propagator::dispose(home);
    return sizeof(*this);
  }
  ExecStatus propagate(Space &home, const ModEventDelta &) override {
    while (at < y.size() && y[at].assigned() && y[at].val() == val[at]) at++;
    if (at == y.size()) return ES_FAILED;
    if (!y[at].in(val[at])) return home.ES_SUBSUMED(*this);
    for (int i = at + 1; i < y.size(); i++)
      if (!y[i].assigned() || y[i].val() != val[i]) {
        if (!y[i].in(val[i])) return home.ES_SUBSUMED(*this);
        return ES_FIX; // two may differ: nothing to do
      }
    GECODE_ME_CHECK(y[at].nq(home, val[at])); // the only one left
    return home.ES_SUBSUMED(*this);
  }
  static ExecStatus post(Home home, ViewArray<Int::IntView> &y, const std::vector<int> &v) {
    if (y.size() == 0) return ES_FAILED;
    (void)new (home) NotAll(home, y, v);
    return ES_OK;
  }
};

class FirstMatching : public Brancher {
  ViewArray<Int::IntView> x;
  int *values;           // one per variable, on the space's heap
  mutable int start = 0; // every variable before it is assigned
  bool bulk_done = false;
  bool bulk_only = false; // done after the bulk decision

 public:
  FirstMatching(Home home, ViewArray<Int::IntView> &x0, const std::vector<int> &v, bb_shim::FirstMatchingPart part)
      : Brancher(home),
        x(x0),
        values(static_cast<Space &>(home).alloc<int>(x0.size())),
        bulk_done(part == bb_shim::FirstMatchingPart::one_by_one),
        bulk_only(part == bb_shim::FirstMatchingPart::bulk) {
    for (int i = 0; i < x.size(); i++) values[i] = v[(size_t)i];
  }
  FirstMatching(Space &home, FirstMatching &b)
      : Brancher(home, b),
        values(home.alloc<int>(b.x.size())),
        start(b.start),
        bulk_done(b.bulk_done),
        bulk_only(b.bulk_only) {
    x.update(home, b.x);
    for (int i = 0; i < x.size(); i++) values[i] = b.values[i];
  }
  Actor *copy(Space &home) override { return new (home) FirstMatching(home, *this); }
  size_t dispose(Space &home) override {
    home.free<int>(values, x.size());
    (void)Brancher::dispose(home);
    return sizeof(*this);
  }
  bool status(const Space &) const override {
    if (bulk_only && bulk_done) return false;
    for (int i = start; i < x.size(); i++)
      if (!x[i].assigned()) {
        start = i;
        return true;
      }
    return false;
  }
  int value(int i) const { return x[i].in(values[i]) ? values[i] : x[i].min(); }
  const Choice *choice(Space &) override {
    if (!bulk_done) { // set in commit: a clone taken before this choice takes its other alternatives
      std::vector<int> p, v;
      for (int i = start; i < x.size(); i++)
        if (!x[i].assigned() && x[i].in(values[i])) {
          p.push_back(i);
          v.push_back(values[i]);
        }
      if (bulk_only) return new FirstMatchingChoice(*this, p.empty() ? 1u : 2u, nogood, p, v);
      if (p.size() > 1) return new FirstMatchingChoice(*this, (unsigned)p.size() + 1, partition, p, v);
    }
    int best = start; // smallest domain first (first fail), input order among equals
    for (int i = start + 1; i < x.size() && x[best].size() > 2; i++)
      if (!x[i].assigned() && x[i].size() < x[best].size()) best = i;
    return new FirstMatchingChoice(*this, 2, single, {best}, {value(best)});
  }
  const Choice *choice(const Space &, Archive &e) override {
    int kind, n;
    e >> kind >> n;
    std::vector<int> p((size_t)n), v((size_t)n);
    for (int i = 0; i < n; i++) e >> p[(size_t)i] >> v[(size_t)i];
    unsigned alternatives = kind == partition ? (unsigned)n + 1 : kind == nogood && n == 0 ? 1u : 2u;
    return new FirstMatchingChoice(*this, alternatives, kind, p, v);
  }
  ExecStatus commit(Space &home, const Choice &c, unsigned a) override {
    const auto &ch = static_cast<const FirstMatchingChoice &>(c);
    if (ch.kind != single) bulk_done = true;
    if (ch.kind == nogood && a == 1) { // not all of them: some x[pos[i]] != val[i]
      ViewArray<Int::IntView> y(home, (int)ch.pos.size());
      for (size_t i = 0; i < ch.pos.size(); i++) y[(int)i] = x[ch.pos[i]];
      return NotAll::post(home, y, ch.val);
    }
    if (ch.kind == single) {
      ModEvent me = a == 0 ? x[ch.pos[0]].eq(home, ch.val[0]) : x[ch.pos[0]].nq(home, ch.val[0]);
      return me_failed(me) ? ES_FAILED : ES_OK;
    }
    // 0: all pairs; k >= 1: the first k - 1 pairs, and not the k-th
    size_t equal = a == 0 ? ch.pos.size() : a - 1;
    for (size_t i = 0; i < equal; i++)
      if (me_failed(x[ch.pos[i]].eq(home, ch.val[i]))) return ES_FAILED;
    if (a > 0 && me_failed(x[ch.pos[a - 1]].nq(home, ch.val[a - 1]))) return ES_FAILED;
    return ES_OK;
  }
  void print(const Space &, const Choice &c, unsigned a, std::ostream &o) const override {
    const auto &ch = static_cast<const FirstMatchingChoice &>(c);
    if (ch.kind != single)
      o << "first matching, alternative " << a;
    else
      o << "x[" << ch.pos[0] << "] " << (a == 0 ? "= " : "!= ") << ch.val[0];
  }
};

} // namespace

namespace bb_shim {
void branch_first_matching(Home home, const IntVarArgs &x, const std::vector<int> &values, FirstMatchingPart part) {
  if (home.failed()) return;
  ViewArray<Int::IntView> v(home, x);
  (void)new (home) FirstMatching(home, v, values, part);
}

void branch_conflict_guided(Home home, const IntVarArgs &x, const std::vector<int> &values) {
  if (home.failed() || x.size() == 0) return;
  auto first = std::make_shared<std::vector<int>>(values);
  IntBranchVal value = [first](const Space &, IntVar y, int i) {
    int v = (*first)[(size_t)i];
    return y.in(v) ? v : y.min();
  };
  branch(home, x, INT_VAR_CHB_SIZE_MAX(), INT_VAL(value));
}
} // namespace bb_shim
