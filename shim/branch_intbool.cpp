// The int-and-Boolean brancher of branch_intbool.hh. Gecode's own branchers take one
// variable kind each; fzn-gecode's default (in its FlatZinc library, which bamboo does not
// link: it drags in Gist and Qt) ranks both kinds in one brancher, and bamboo follows it so
// that an unannotated model gets the same first solution from both.
#include "branch_intbool.hh"

#include <gecode/kernel.hh>

using namespace Gecode;

namespace {

class IntBoolAfcSize : public Brancher {
  ViewArray<Int::IntView> x;
  ViewArray<Int::BoolView> y;
  int start = 0; // every variable before start (ints, then Booleans) is assigned

  IntBoolAfcSize(Home home, ViewArray<Int::IntView> &x0, ViewArray<Int::BoolView> &y0) : Brancher(home), x(x0), y(y0) {}
  IntBoolAfcSize(Space &home, IntBoolAfcSize &b) : Brancher(home, b), start(b.start) {
    x.update(home, b.x);
    y.update(home, b.y);
  }

  bool assigned_at(int p) const { return p < x.size() ? x[p].assigned() : y[p - x.size()].assigned(); }
  double merit(int p) const {
    if (p < x.size()) return x[p].afc() / static_cast<double>(x[p].size());
    return y[p - x.size()].afc() / 2.0;
  }

 public:
  static void post(Home home, ViewArray<Int::IntView> &x, ViewArray<Int::BoolView> &y) {
    (void)new (home) IntBoolAfcSize(home, x, y);
  }
  Actor *copy(Space &home) override { return new (home) IntBoolAfcSize(home, *this); }
  bool status(const Space &) const override {
    int n = x.size() + y.size();
    for (int p = start; p < n; p++)
      if (!assigned_at(p)) {
        const_cast<IntBoolAfcSize *>(this)->start = p;
        return true;
      }
    const_cast<IntBoolAfcSize *>(this)->start = n;
    return false;
  }
  const Choice *choice(Space &) override {
    int n = x.size() + y.size(), best = start;
    double best_merit = merit(start);
    for (int p = start + 1; p < n; p++)
      if (!assigned_at(p)) {
        double m = merit(p);
        if (m > best_merit) best = p, best_merit = m;
      }
    int value = best < x.size() ? x[best].min() : 0;
    return new PosValChoice<int>(*this, 2, best, value);
  }
  const Choice *choice(const Space &, Archive &e) override {
    int p, v;
    e >> p >> v;
    return new PosValChoice<int>(*this, 2, p, v);
  }
  ExecStatus commit(Space &home, const Choice &c, unsigned int alternative) override {
    const auto &pv = static_cast<const PosValChoice<int> &>(c);
    int p = pv.pos().pos, v = pv.val();
    ModEvent me;
    if (p < x.size())
      me = alternative == 0 ? x[p].eq(home, v) : x[p].nq(home, v);
    else
      me = alternative == 0 ? y[p - x.size()].eq(home, v) : y[p - x.size()].nq(home, v);
    return me_failed(me) ? ES_FAILED : ES_OK;
  }
  void print(const Space &, const Choice &c, unsigned int alternative, std::ostream &o) const override {
    const auto &pv = static_cast<const PosValChoice<int> &>(c);
    o << "var[" << pv.pos().pos << "] " << (alternative == 0 ? "=" : "!=") << " " << pv.val();
  }
  size_t dispose(Space &home) override {
    (void)Brancher::dispose(home);
    return sizeof(*this);
  }
};

} // namespace

namespace bb_shim {

void branch_intbool_afc_size(Home home, const IntVarArgs &xs, const BoolVarArgs &ys, double decay) {
  if (home.failed()) return;
  // These set the space's failure-count decay, as Gecode's own AFC branchers do.
  IntAFC int_afc(home, xs, decay);
  BoolAFC bool_afc(home, ys, decay);
  ViewArray<Int::IntView> x(home, xs);
  ViewArray<Int::BoolView> y(home, ys);
  IntBoolAfcSize::post(home, x, y);
}

} // namespace bb_shim
