// Float variables: creation, domain queries and the float objective (bb_float.h).
#include "bb_float.h"
#include "post_args.hh"

#include <cassert>
#include <cmath>

using namespace Gecode;
using bb_shim::arg_fail;
using bb_shim::guarded;

namespace {

// -HUGE_VAL / HUGE_VAL (FlatZinc's `var float`) become Gecode's float limits, which are
// the largest finite doubles.
FloatNum clamp_limit(double v) {
  if (v < Float::Limits::min) return Float::Limits::min;
  if (v > Float::Limits::max) return Float::Limits::max;
  return v;
}

const FloatVar &float_at(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->floats.size());
  return space->floats[(size_t)var];
}

} // namespace

extern "C" {

int bb_float_var(bb_space *space, double lo, double hi, bb_error *err) {
  int index = -1;
  guarded(err, "bb_float_var", [&] {
    bb_space &s = bb_shim::space_of(space);
    if (std::isnan(lo) || std::isnan(hi)) arg_fail("domain bound is NaN");
    if (lo > hi) arg_fail("empty domain %g..%g", lo, hi);
    if (lo == HUGE_VAL || hi == -HUGE_VAL) arg_fail("domain %g..%g holds no finite value", lo, hi);
    s.floats.push_back(FloatVar(s, clamp_limit(lo), clamp_limit(hi)));
    index = (int)s.floats.size() - 1;
    return BB_OK;
  });
  return index;
}

int bb_float_var_count(const bb_space *space) { return space ? (int)space->floats.size() : 0; }
double bb_float_min(const bb_space *space, int var) { return float_at(space, var).min(); }
double bb_float_max(const bb_space *space, int var) { return float_at(space, var).max(); }
bool bb_float_assigned(const bb_space *space, int var) { return float_at(space, var).assigned(); }

double bb_float_value(const bb_space *space, int var) {
  const FloatVar &x = float_at(space, var);
  if (!x.assigned()) return x.med();
  FloatVal v = x.val();
  if (v.singleton()) return v.min();
  return v < 0.0 ? v.max() : v.min(); // fzn-gecode's choice: the bound nearer zero
}

bb_status bb_space_set_float_objective(bb_space *space, bb_objective_sense sense, int float_var, double step,
                                       bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = bb_shim::space_of(space);
  int raw_sense = bb_shim::raw_enum(sense);
  if (raw_sense != BB_MINIMIZE && raw_sense != BB_MAXIMIZE) arg_fail("unknown objective sense %d", raw_sense);
  if (!(step >= 0.0) || std::isinf(step)) arg_fail("step %g is not a finite non-negative number", step);
  bb_shim::float_var(s, float_var, "objective");
  s.objective = float_var;
  s.objective_is_float = true;
  s.float_step = step;
  s.sense = sense;
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_space_set_float_objective")
}

bb_status bb_branch_float_objective_first(bb_space *space, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = bb_shim::space_of(space);
  if (s.objective < 0 || !s.objective_is_float) arg_fail("the space has no float objective");
  branch(s, s.floats[(size_t)s.objective], s.sense == BB_MINIMIZE ? FLOAT_VAL_SPLIT_MIN() : FLOAT_VAL_SPLIT_MAX());
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_float_objective_first")
}

} // extern "C"
