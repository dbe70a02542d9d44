// Internal to shim/: the HRC constraint's default brancher (shim/hrc_branch.cpp).
#ifndef BB_HRC_BRANCH_HH
#define BB_HRC_BRANCH_HH

#include <gecode/int.hh>
#include <vector>

namespace bb_shim {
// Branches on x (in order) trying values[i] first (when still in x[i]'s domain, else the
// smallest value). The first choice is one decision for all variables at once: alternative 0
// gives every unassigned x[i] its value, alternative k >= 1 the first k - 1 of them and
// x[k] != its value; then one variable at a time (smallest domain first), x = v / x != v (the
// HRC constraint now uses only the bulk part, then branch_conflict_guided). The alternatives partition
// the search space, so the search stays complete and finds no solution twice.
// part: the whole (as above), only the bulk decision (then done; its alternatives are then all
// of them / not all of them, a clause, so that a brancher posted after it runs in one subtree
// rather than once per variable), or only the one-by-one branching.
enum class FirstMatchingPart { whole, bulk, one_by_one };
void branch_first_matching(Gecode::Home home, const Gecode::IntVarArgs &x, const std::vector<int> &values,
                           FirstMatchingPart part = FirstMatchingPart::whole);

// Branches on x one variable at a time, x = v / x != v, values[i] first (when still in x[i]'s
// domain, else the smallest value), choosing the variable by conflict history over domain size
// (Gecode's CHB, Liang et al., "Exponential Recency Weighted Average Branching Heuristic for
// SAT Solvers", AAAI 2016): a variable whose recent prunings were soon followed by a failure
// comes first. The HRC constraint is one propagator over every resident, so failure counts
// per propagator (dom/wdeg, AFC) cannot tell the variables apart; CHB scores the variables.
void branch_conflict_guided(Gecode::Home home, const Gecode::IntVarArgs &x, const std::vector<int> &values);
} // namespace bb_shim

#endif
