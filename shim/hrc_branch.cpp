// The HRC default brancher (hrc_branch.hh): the deferred acceptance's matching as one
// decision, so that a 47,000-resident matching costs one propagation instead of 47,000 (and
// the search tree one level instead of 47,000 copies deep), then plain value branching.
#include "hrc_branch.hh"

#include <memory>

using namespace Gecode;

namespace {

class FirstMatchingChoice : public Choice {
 public:
  bool bulk;
  std::vector<int> pos, val; // bulk: the pairs; single: one pair
  FirstMatchingChoice(const Brancher &b, unsigned alternatives, bool bulk0, std::vector<int> p, std::vector<int> v)
      : Choice(b, alternatives), bulk(bulk0), pos(std::move(p)), val(std::move(v)) {}
  void archive(Archive &e) const override {
    Choice::archive(e);
    e << (bulk ? 1 : 0) << (int)pos.size();
    for (size_t i = 0; i < pos.size(); i++) e << pos[i] << val[i];
  }
};

class FirstMatching : public Brancher {
  ViewArray<Int::IntView> x;
  int *values;           // one per variable, on the space's heap
  mutable int start = 0; // every variable before it is assigned
  bool bulk_done = false;

 public:
  FirstMatching(Home home, ViewArray<Int::IntView> &x0, const std::vector<int> &v)
      : Brancher(home), x(x0), values(static_cast<Space &>(home).alloc<int>(x0.size())) {
    for (int i = 0; i < x.size(); i++) values[i] = v[(size_t)i];
  }
  FirstMatching(Space &home, FirstMatching &b)
      : Brancher(home, b), values(home.alloc<int>(b.x.size())), start(b.start), bulk_done(b.bulk_done) {
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
    for (int i = start; i < x.size(); i++)
      if (!x[i].assigned()) {
        start = i;
        return true;
      }
    return false;
  }
  int value(int i) const { return x[i].in(values[i]) ? values[i] : x[i].min(); }
  const Choice *choice(Space &) override {
    if (!bulk_done) {
      bulk_done = true;
      std::vector<int> p, v;
      for (int i = start; i < x.size(); i++)
        if (!x[i].assigned() && x[i].in(values[i])) {
          p.push_back(i);
          v.push_back(values[i]);
        }
      if (p.size() > 1) return new FirstMatchingChoice(*this, (unsigned)p.size() + 1, true, p, v);
    }
    int best = start; // smallest domain first (first fail), input order among equals
    for (int i = start + 1; i < x.size() && x[best].size() > 2; i++)
      if (!x[i].assigned() && x[i].size() < x[best].size()) best = i;
    return new FirstMatchingChoice(*this, 2, false, {best}, {value(best)});
  }
  const Choice *choice(const Space &, Archive &e) override {
    int bulk, n;
    e >> bulk >> n;
    std::vector<int> p((size_t)n), v((size_t)n);
    for (int i = 0; i < n; i++) e >> p[(size_t)i] >> v[(size_t)i];
    return new FirstMatchingChoice(*this, bulk ? (unsigned)n + 1 : 2u, bulk != 0, p, v);
  }
  ExecStatus commit(Space &home, const Choice &c, unsigned a) override {
    const auto &ch = static_cast<const FirstMatchingChoice &>(c);
    if (!ch.bulk) {
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
    if (ch.bulk) o << "first matching, alternative " << a;
    else o << "x[" << ch.pos[0] << "] " << (a == 0 ? "= " : "!= ") << ch.val[0];
  }
};

} // namespace

namespace bb_shim {
void branch_first_matching(Home home, const IntVarArgs &x, const std::vector<int> &values) {
  if (home.failed()) return;
  ViewArray<Int::IntView> v(home, x);
  (void)new (home) FirstMatching(home, v, values);
}
} // namespace bb_shim
