// The ties constraints' default brancher (ties_branch.hh): the engine's best weakly stable
// matching as the first dive, so that `maximize size` starts from a 3/2-approximate incumbent.
#include "ties_branch.hh"

#include "hrc_branch.hh"
#include "ties.h"

#include <memory>

using namespace Gecode;

namespace {

using OwnedInstance = std::unique_ptr<bb_ties, void (*)(bb_ties *)>;

// Copies one side into the engine's CSR form: ids to 0-based, ranks to tie-group indices
// (0, then +1 at every change), as bb_ties_validate wants them.
void fill_side(const bb_shim::ties_side &side, int base, uint32_t *start, bb_id *list, uint32_t *rank) {
  uint32_t at = 0;
  for (int r = 0; r < side.rows; r++) {
    start[r] = at;
    uint32_t group = 0;
    for (int k = 0; k < side.len[r]; k++, at++) {
      if (k > 0 && side.rank[(size_t)r * side.rank_cols + k] != side.rank[(size_t)r * side.rank_cols + k - 1]) group++;
      list[at] = (bb_id)(side.list[(size_t)r * side.cols + k] - base);
      rank[at] = group;
    }
  }
  start[side.rows] = at;
}

int position(const bb_shim::ties_side &side, int base, int row, int id) {
  for (int k = 0; k < side.len[row]; k++)
    if (side.list[(size_t)row * side.cols + k] - base == id) return k;
  return side.len[row];
}

} // namespace

namespace bb_shim {

std::vector<int> ties_incumbent(const ties_side &first, const ties_side &second, const int *capacity, int base,
                                bool with_second) {
  uint64_t e1 = 0, e2 = 0;
  for (int r = 0; r < first.rows; r++) e1 += (uint64_t)first.len[r];
  for (int h = 0; h < second.rows; h++) e2 += (uint64_t)second.len[h];
  bb_error err;
  OwnedInstance inst(bb_ties_new(capacity == nullptr, first.rows, second.rows, e1, e2, &err), bb_ties_free);
  if (!inst) return {};
  fill_side(first, base, inst->res_start, inst->res_list, inst->res_rank);
  fill_side(second, base, inst->hosp_start, inst->hosp_list, inst->hosp_rank);
  for (int h = 0; h < second.rows; h++) inst->capacity[h] = capacity ? capacity[h] : 1;
  if (bb_ties_validate(inst.get(), &err) != BB_OK) return {};
  std::vector<int32_t> best, got((size_t)first.rows);
  long best_size = -1;
  for (const char *algo : {"kiraly", "sic"}) {
    if (bb_ties_solve(inst.get(), algo, 1, got.data(), &err) != BB_OK) continue;
    long size = 0;
    for (int32_t h : got) size += h != BB_TIES_NONE;
    if (size > best_size) best = got, best_size = size;
  }
  if (best_size < 0) return {};
  std::vector<int> values((size_t)first.rows + (with_second ? (size_t)second.rows : 0));
  std::vector<int> partner((size_t)second.rows, -1); // SMTI only: every capacity is 1
  for (int r = 0; r < first.rows; r++) {
    int h = best[(size_t)r];
    values[(size_t)r] = h == BB_TIES_NONE ? first.len[r] : position(first, base, r, h);
    if (h != BB_TIES_NONE) partner[(size_t)h] = r;
  }
  if (with_second)
    for (int h = 0; h < second.rows; h++) {
      int r = partner[(size_t)h];
      values[(size_t)first.rows + h] = r < 0 ? second.len[h] : position(second, base, h, r);
    }
  return values;
}

void ties_defer_branch(bb_space &s, std::vector<IntVar> persons, std::vector<int> values, int base, IntVar size) {
  for (int &v : values) v += base;
  auto vars = std::make_shared<std::vector<IntVar>>(std::move(persons));
  auto vals = std::make_shared<std::vector<int>>(std::move(values));
  s.deferred_branchers.push_back([vars, vals, size](bb_space &root) {
    bb_shim::branch_first_matching(root, IntVarArgs(*vars), *vals, bb_shim::FirstMatchingPart::bulk);
    bb_shim::branch_conflict_guided(root, IntVarArgs(*vars), *vals);
    branch(root, size, INT_VAL_MAX());
  });
}

} // namespace bb_shim
