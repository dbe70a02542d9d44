// Internal to shim/: the ties constraints' default brancher (ties_branch.cpp).
#ifndef BB_TIES_BRANCH_HH
#define BB_TIES_BRANCH_HH

#include "shim_internal.hh"

#include <gecode/int.hh>
#include <vector>

namespace bb_shim {
// One side's lists as stable_matching_smti / _hrt take them: row-major padded matrices of ids
// counting from base, a length per row, a rank per entry (ranks never decrease).
struct ties_side {
  int rows;
  const int *list, *len;
  int cols;
  const int *rank;
  int rank_cols;
};

// The incumbent: the larger of Kiraly's 3/2-approximation and Erdil-Ergin's stable improvement
// cycles (both weakly stable) on the instance, as the positions the constraint's variables take
// (0-based: first side's rows, then, when with_second, the second side's; len for unmatched).
// capacity NULL: SMTI (every capacity 1). Empty when the engine cannot run them.
std::vector<int> ties_incumbent(const ties_side &first, const ties_side &second, const int *capacity, int base,
                                bool with_second);

// Asks bb_branch_deferred for the default brancher over persons (0-based views' variables in
// `persons`, values[i] the incumbent's position for persons[i], base added here) and then
// size: one decision "the incumbent / not all of it", then one person at a time by conflict
// history, the incumbent's value first and then the best rank left, then size, largest first.
// Complete: the first decision's two alternatives partition the space, and the rest is plain
// x = v / x != v branching.
void ties_defer_branch(bb_space &s, std::vector<Gecode::IntVar> persons, std::vector<int> values, int base,
                       Gecode::IntVar size);
} // namespace bb_shim

#endif
