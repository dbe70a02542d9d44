// Internal to shim/: one brancher over int and Boolean variables together, as fzn-gecode
// branches a model's own variables by default (branch.cpp, bb_branch_gecode_default).
#ifndef BB_BRANCH_INTBOOL_HH
#define BB_BRANCH_INTBOOL_HH

#include <gecode/int.hh>

namespace bb_shim {

// Picks, among the unassigned variables of x (ints) and y (Booleans), the one with the
// largest accumulated failure count over domain size (a Boolean's size counts as 2), the
// first one on a tie, ints before Booleans; tries its smallest value first, then excludes
// it. The failure counts decay by `decay`.
void branch_intbool_afc_size(Gecode::Home home, const Gecode::IntVarArgs &x, const Gecode::BoolVarArgs &y,
                             double decay);

} // namespace bb_shim

#endif
