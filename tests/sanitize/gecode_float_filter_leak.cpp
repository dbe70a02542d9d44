// Gecode 6.2 leaks 48 bytes for every float brancher posted with a branch filter
// (Gecode::branch(Home, FloatVarArgs, FloatVarBranch, FloatValBranch, FloatBranchFilter)),
// whatever the search does afterwards: this program uses no Bamboo code. fzn-bamboo posts
// such a brancher once per float_search with a precision (shim/branch.cpp,
// bb_branch_float), so the leak is bounded by the number of annotations. Run in the ASan
// tree (test sanitize.gecode_float_filter_leak), it shows that the entry of
// tests/sanitize/lsan.supp that names it still matches. See docs/sanitizers.md.
#include <gecode/float.hh>
#include <gecode/search.hh>

using namespace Gecode;

namespace {

struct Model : Space {
  FloatVarArray x;
  Model() : x(*this, 2, 0.0, 4.0) {
    mult(*this, x[0], x[1], FloatVar(*this, 2.0, 2.0));
    branch(*this, x, FLOAT_VAR_NONE(), FLOAT_VAL_SPLIT_MIN(),
           [](const Space &, FloatVar v, int) { return v.max() - v.min() > 0.01; });
  }
  Model(Model &m) : Space(m) { x.update(*this, m.x); }
  Space *copy() override { return new Model(*this); }
};

} // namespace

int main() {
  Model *root = new Model();
  DFS<Model> engine(root);
  delete root;
  Model *solution = engine.next();
  bool found = solution != nullptr;
  delete solution;
  return found ? 0 : 1;
}
