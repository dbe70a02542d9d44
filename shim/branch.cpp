// Branchings: FlatZinc's variable / value selections mapped onto Gecode's branchers, the
// way Gecode's own FlatZinc front end maps them.
#include "bb_float.h"
#include "bb_search.h"
#include "branch_intbool.hh"
#include "post_args.hh"

#include <cstring>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

using namespace Gecode;
using namespace bb_shim;

namespace {

struct branch_params {
  unsigned seed;
  Rnd rnd;
  double decay = 0.99;
  explicit branch_params(const bb_branch_options *o) : seed(o ? o->seed : 0U), rnd(seed) {
    if (o && o->decay > 0.0 && o->decay <= 1.0) decay = o->decay;
  }
};

const char *const var_names[] = {
    "input_order",      "first_fail",   "anti_first_fail", "smallest",        "largest",         "occurrence",
    "most_constrained", "max_regret",   "dom_w_deg",       "afc_min",         "afc_max",         "afc_size_min",
    "afc_size_max",     "action_min",   "action_max",      "action_size_min", "action_size_max", "chb_min",
    "chb_max",          "chb_size_min", "chb_size_max",    "random"};
const char *const val_names[] = {"indomain_min",    "indomain_max",   "indomain_median",        "indomain_middle",
                                 "indomain_random", "indomain_split", "indomain_reverse_split", "indomain_interval",
                                 "outdomain_min",   "outdomain_max"};

const char *var_name(bb_var_sel v) {
  unsigned i = (unsigned)raw_enum(v);
  return i < sizeof var_names / sizeof *var_names ? var_names[i] : "unknown";
}
const char *val_name(bb_val_sel v) {
  unsigned i = (unsigned)raw_enum(v);
  return i < sizeof val_names / sizeof *val_names ? val_names[i] : "unknown";
}

// Random variable selection as the largest random merit. Gecode 6.2's own INT_VAR_RND /
// BOOL_VAR_RND / SET_VAR_RND never release their generator (the view selector does not
// ask to be disposed), leaking it once per posted brancher; merit functions are disposed.
// The merits come from one splitmix64 stream shared by every copy of the brancher: an
// atomic counter, so parallel workers may draw from it too.
template <class Var>
std::function<double(const Space &, Var, int)> random_merit(unsigned seed) {
  const uint64_t golden = 0x9e3779b97f4a7c15ULL;
  auto state = std::make_shared<std::atomic<uint64_t>>(seed * golden);
  return [state, golden](const Space &, Var, int) {
    uint64_t z = state->fetch_add(golden) + golden;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11);
  };
}

TieBreak<IntVarBranch> int_var_branch(bb_var_sel v, const branch_params &p) {
  switch (raw_enum(v)) {
    case BB_VAR_INPUT_ORDER: return INT_VAR_NONE();
    case BB_VAR_FIRST_FAIL: return INT_VAR_SIZE_MIN();
    case BB_VAR_ANTI_FIRST_FAIL: return INT_VAR_SIZE_MAX();
    case BB_VAR_SMALLEST: return INT_VAR_MIN_MIN();
    case BB_VAR_LARGEST: return INT_VAR_MAX_MAX();
    case BB_VAR_OCCURRENCE: return INT_VAR_DEGREE_MAX();
    case BB_VAR_MOST_CONSTRAINED: return tiebreak(INT_VAR_SIZE_MIN(), INT_VAR_DEGREE_MAX());
    case BB_VAR_MAX_REGRET: return INT_VAR_REGRET_MIN_MAX();
    case BB_VAR_DOM_W_DEG: return INT_VAR_AFC_SIZE_MAX(p.decay);
    case BB_VAR_AFC_MIN: return INT_VAR_AFC_MIN(p.decay);
    case BB_VAR_AFC_MAX: return INT_VAR_AFC_MAX(p.decay);
    case BB_VAR_AFC_SIZE_MIN: return INT_VAR_AFC_SIZE_MIN(p.decay);
    case BB_VAR_AFC_SIZE_MAX: return INT_VAR_AFC_SIZE_MAX(p.decay);
    case BB_VAR_ACTION_MIN: return INT_VAR_ACTION_MIN(p.decay);
    case BB_VAR_ACTION_MAX: return INT_VAR_ACTION_MAX(p.decay);
    case BB_VAR_ACTION_SIZE_MIN: return INT_VAR_ACTION_SIZE_MIN(p.decay);
    case BB_VAR_ACTION_SIZE_MAX: return INT_VAR_ACTION_SIZE_MAX(p.decay);
    case BB_VAR_CHB_MIN: return INT_VAR_CHB_MIN();
    case BB_VAR_CHB_MAX: return INT_VAR_CHB_MAX();
    case BB_VAR_CHB_SIZE_MIN: return INT_VAR_CHB_SIZE_MIN();
    case BB_VAR_CHB_SIZE_MAX: return INT_VAR_CHB_SIZE_MAX();
    case BB_VAR_RANDOM: return INT_VAR_MERIT_MAX(random_merit<IntVar>(p.seed));
  }
  arg_fail("unknown variable selection %d", raw_enum(v));
}

// The domain value nearest the middle of the bounds (the smaller one on a tie).
int middle_value(const Space &, IntVar x, int) {
  long long mid = ((long long)x.min() + x.max()) / 2;
  long long best = x.min(), best_gap = -1;
  for (IntVarRanges r(x); r(); ++r) {
    long long v = mid < r.min() ? r.min() : mid > r.max() ? r.max() : mid;
    long long gap = v > mid ? v - mid : mid - v;
    if (best_gap < 0 || gap < best_gap) best = v, best_gap = gap;
  }
  return (int)best;
}
int min_value(const Space &, IntVar x, int) { return x.min(); }
int max_value(const Space &, IntVar x, int) { return x.max(); }
// outdomain_*: the first alternative excludes the value, the second assigns it.
void exclude_first(Space &home, unsigned int alternative, IntVar x, int, int value) {
  if (alternative == 0)
    rel(home, x, IRT_NQ, value);
  else
    rel(home, x, IRT_EQ, value);
}

IntValBranch int_val_branch(bb_val_sel v, const branch_params &p) {
  switch (raw_enum(v)) {
    case BB_VAL_MIN: return INT_VAL_MIN();
    case BB_VAL_MAX: return INT_VAL_MAX();
    case BB_VAL_MEDIAN: return INT_VAL_MED();
    case BB_VAL_MIDDLE: return INT_VAL(middle_value);
    case BB_VAL_RANDOM: return INT_VAL_RND(p.rnd);
    case BB_VAL_SPLIT: return INT_VAL_SPLIT_MIN();
    case BB_VAL_REVERSE_SPLIT: return INT_VAL_SPLIT_MAX();
    case BB_VAL_INTERVAL: return INT_VAL_RANGE_MIN();
    case BB_VAL_OUT_MIN: return INT_VAL(min_value, exclude_first);
    case BB_VAL_OUT_MAX: return INT_VAL(max_value, exclude_first);
  }
  arg_fail("unknown value selection %d", raw_enum(v));
}

// All unassigned Booleans have the same size, bounds and regret, so those criteria
// degenerate to input order, and the size-weighted ones to their unweighted forms.
BoolVarBranch bool_var_branch(bb_var_sel v, const branch_params &p) {
  switch (raw_enum(v)) {
    case BB_VAR_INPUT_ORDER:
    case BB_VAR_FIRST_FAIL:
    case BB_VAR_ANTI_FIRST_FAIL:
    case BB_VAR_SMALLEST:
    case BB_VAR_LARGEST:
    case BB_VAR_MAX_REGRET: return BOOL_VAR_NONE();
    case BB_VAR_OCCURRENCE:
    case BB_VAR_MOST_CONSTRAINED: return BOOL_VAR_DEGREE_MAX();
    case BB_VAR_DOM_W_DEG:
    case BB_VAR_AFC_MAX:
    case BB_VAR_AFC_SIZE_MAX: return BOOL_VAR_AFC_MAX(p.decay);
    case BB_VAR_AFC_MIN:
    case BB_VAR_AFC_SIZE_MIN: return BOOL_VAR_AFC_MIN(p.decay);
    case BB_VAR_ACTION_MIN:
    case BB_VAR_ACTION_SIZE_MIN: return BOOL_VAR_ACTION_MIN(p.decay);
    case BB_VAR_ACTION_MAX:
    case BB_VAR_ACTION_SIZE_MAX: return BOOL_VAR_ACTION_MAX(p.decay);
    case BB_VAR_CHB_MIN:
    case BB_VAR_CHB_SIZE_MIN: return BOOL_VAR_CHB_MIN();
    case BB_VAR_CHB_MAX:
    case BB_VAR_CHB_SIZE_MAX: return BOOL_VAR_CHB_MAX();
    case BB_VAR_RANDOM: return BOOL_VAR_MERIT_MAX(random_merit<BoolVar>(p.seed));
  }
  arg_fail("unknown variable selection %d", raw_enum(v));
}

BoolValBranch bool_val_branch(bb_val_sel v, const branch_params &p) {
  switch (raw_enum(v)) {
    case BB_VAL_MIN:
    case BB_VAL_MEDIAN:
    case BB_VAL_MIDDLE:
    case BB_VAL_SPLIT:
    case BB_VAL_INTERVAL:
    case BB_VAL_OUT_MAX: return BOOL_VAL_MIN(); // x != 1 first is x = 0 first
    case BB_VAL_MAX:
    case BB_VAL_REVERSE_SPLIT:
    case BB_VAL_OUT_MIN: return BOOL_VAL_MAX();
    case BB_VAL_RANDOM: return BOOL_VAL_RND(p.rnd);
  }
  arg_fail("unknown value selection %d", raw_enum(v));
}

TieBreak<SetVarBranch> set_var_branch(bb_var_sel v, const branch_params &p) {
  switch (raw_enum(v)) {
    case BB_VAR_INPUT_ORDER: return SET_VAR_NONE();
    case BB_VAR_FIRST_FAIL: return SET_VAR_SIZE_MIN();
    case BB_VAR_ANTI_FIRST_FAIL: return SET_VAR_SIZE_MAX();
    case BB_VAR_SMALLEST: return SET_VAR_MIN_MIN();
    case BB_VAR_LARGEST: return SET_VAR_MAX_MAX();
    case BB_VAR_OCCURRENCE: return SET_VAR_DEGREE_MAX();
    case BB_VAR_MOST_CONSTRAINED: return tiebreak(SET_VAR_SIZE_MIN(), SET_VAR_DEGREE_MAX());
    case BB_VAR_DOM_W_DEG: return SET_VAR_AFC_SIZE_MAX(p.decay);
    case BB_VAR_AFC_MIN: return SET_VAR_AFC_MIN(p.decay);
    case BB_VAR_AFC_MAX: return SET_VAR_AFC_MAX(p.decay);
    case BB_VAR_AFC_SIZE_MIN: return SET_VAR_AFC_SIZE_MIN(p.decay);
    case BB_VAR_AFC_SIZE_MAX: return SET_VAR_AFC_SIZE_MAX(p.decay);
    case BB_VAR_ACTION_MIN: return SET_VAR_ACTION_MIN(p.decay);
    case BB_VAR_ACTION_MAX: return SET_VAR_ACTION_MAX(p.decay);
    case BB_VAR_ACTION_SIZE_MIN: return SET_VAR_ACTION_SIZE_MIN(p.decay);
    case BB_VAR_ACTION_SIZE_MAX: return SET_VAR_ACTION_SIZE_MAX(p.decay);
    case BB_VAR_CHB_MIN: return SET_VAR_CHB_MIN();
    case BB_VAR_CHB_MAX: return SET_VAR_CHB_MAX();
    case BB_VAR_CHB_SIZE_MIN: return SET_VAR_CHB_SIZE_MIN();
    case BB_VAR_CHB_SIZE_MAX: return SET_VAR_CHB_SIZE_MAX();
    case BB_VAR_RANDOM: return SET_VAR_MERIT_MAX(random_merit<SetVar>(p.seed));
    case BB_VAR_MAX_REGRET: break;
  }
  arg_fail("variable selection %s does not apply to set variables", var_name(v));
}

SetValBranch set_val_branch(bb_val_sel v, const branch_params &p) {
  switch (raw_enum(v)) {
    case BB_VAL_MIN: return SET_VAL_MIN_INC();
    case BB_VAL_MAX: return SET_VAL_MAX_INC();
    case BB_VAL_MEDIAN: return SET_VAL_MED_INC();
    case BB_VAL_RANDOM: return SET_VAL_RND_INC(p.rnd);
    case BB_VAL_OUT_MIN: return SET_VAL_MIN_EXC();
    case BB_VAL_OUT_MAX: return SET_VAL_MAX_EXC();
    case BB_VAL_MIDDLE:
    case BB_VAL_SPLIT:
    case BB_VAL_REVERSE_SPLIT:
    case BB_VAL_INTERVAL: break;
  }
  arg_fail("value selection %s does not apply to set variables", val_name(v));
}

TieBreak<FloatVarBranch> float_var_branch(bb_var_sel v, const branch_params &p) {
  switch (raw_enum(v)) {
    case BB_VAR_INPUT_ORDER: return FLOAT_VAR_NONE();
    case BB_VAR_FIRST_FAIL: return FLOAT_VAR_SIZE_MIN();
    case BB_VAR_ANTI_FIRST_FAIL: return FLOAT_VAR_SIZE_MAX();
    case BB_VAR_SMALLEST: return FLOAT_VAR_MIN_MIN();
    case BB_VAR_LARGEST: return FLOAT_VAR_MAX_MAX();
    case BB_VAR_OCCURRENCE: return FLOAT_VAR_DEGREE_MAX();
    case BB_VAR_MOST_CONSTRAINED: return tiebreak(FLOAT_VAR_SIZE_MIN(), FLOAT_VAR_DEGREE_MAX());
    case BB_VAR_DOM_W_DEG: return FLOAT_VAR_AFC_SIZE_MAX(p.decay);
    case BB_VAR_AFC_MIN: return FLOAT_VAR_AFC_MIN(p.decay);
    case BB_VAR_AFC_MAX: return FLOAT_VAR_AFC_MAX(p.decay);
    case BB_VAR_AFC_SIZE_MIN: return FLOAT_VAR_AFC_SIZE_MIN(p.decay);
    case BB_VAR_AFC_SIZE_MAX: return FLOAT_VAR_AFC_SIZE_MAX(p.decay);
    case BB_VAR_ACTION_MIN: return FLOAT_VAR_ACTION_MIN(p.decay);
    case BB_VAR_ACTION_MAX: return FLOAT_VAR_ACTION_MAX(p.decay);
    case BB_VAR_ACTION_SIZE_MIN: return FLOAT_VAR_ACTION_SIZE_MIN(p.decay);
    case BB_VAR_ACTION_SIZE_MAX: return FLOAT_VAR_ACTION_SIZE_MAX(p.decay);
    case BB_VAR_CHB_MIN: return FLOAT_VAR_CHB_MIN();
    case BB_VAR_CHB_MAX: return FLOAT_VAR_CHB_MAX();
    case BB_VAR_CHB_SIZE_MIN: return FLOAT_VAR_CHB_SIZE_MIN();
    case BB_VAR_CHB_SIZE_MAX: return FLOAT_VAR_CHB_SIZE_MAX();
    case BB_VAR_RANDOM: return FLOAT_VAR_MERIT_MAX(random_merit<FloatVar>(p.seed));
    case BB_VAR_MAX_REGRET: break;
  }
  arg_fail("variable selection %s does not apply to float variables", var_name(v));
}

// Floats are split, never enumerated: indomain_split (the default) and its reverse.
FloatValBranch float_val_branch(bb_val_sel v) {
  switch (raw_enum(v)) {
    case BB_VAL_SPLIT: return FLOAT_VAL_SPLIT_MIN();
    case BB_VAL_REVERSE_SPLIT: return FLOAT_VAL_SPLIT_MAX();
    default: break;
  }
  arg_fail("value selection %s does not apply to float variables (use indomain_split or indomain_reverse_split)",
           val_name(v));
}

// Floats as Gecode's FlatZinc front end branches them by default, smallest interval first,
// lower half first; those a float_search covers are left to it, to keep its precision.
void branch_unsearched_floats(bb_space &s, const std::vector<int> &floats) {
  FloatVarArgs unsearched;
  for (int v : floats)
    if ((size_t)v >= s.float_searched.size() || !s.float_searched[(size_t)v]) unsearched << s.floats[(size_t)v];
  if (unsearched.size() > 0) branch(s, unsearched, FLOAT_VAR_SIZE_MIN(), FLOAT_VAL_SPLIT_MIN());
}

} // namespace

extern "C" {

bool bb_var_sel_parse(const char *name, bb_var_sel *sel) {
  if (!name || !sel) return false;
  // Gecode's mznlib calls action "activity"; both names are accepted.
  const char *alias = !strncmp(name, "activity_", 9) ? name + 9 : nullptr;
  for (unsigned i = 0; i < sizeof var_names / sizeof *var_names; i++) {
    const char *n = var_names[i];
    if (!strcmp(name, n) || (alias && !strncmp(n, "action_", 7) && !strcmp(alias, n + 7))) {
      *sel = (bb_var_sel)i;
      return true;
    }
  }
  return false;
}

bool bb_val_sel_parse(const char *name, bb_val_sel *sel) {
  if (!name || !sel) return false;
  if (!strcmp(name, "indomain")) { // "assign values in ascending order"
    *sel = BB_VAL_MIN;
    return true;
  }
  for (unsigned i = 0; i < sizeof val_names / sizeof *val_names; i++)
    if (!strcmp(name, val_names[i])) {
      *sel = (bb_val_sel)i;
      return true;
    }
  return false;
}

bb_status bb_branch_int(bb_space *sp, const int *vars, int count, bb_var_sel var, bb_val_sel val,
                        const bb_branch_options *options, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  branch_params p(options);
  TieBreak<IntVarBranch> vb = int_var_branch(var, p);
  IntValBranch wb = int_val_branch(val, p);
  if (count > 0) branch(s, x, vb, wb);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_int")
}

bb_status bb_branch_bool(bb_space *sp, const int *vars, int count, bb_var_sel var, bb_val_sel val,
                         const bb_branch_options *options, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  BoolVarArgs x = bool_vars(s, vars, count, "vars");
  branch_params p(options);
  BoolVarBranch vb = bool_var_branch(var, p);
  BoolValBranch wb = bool_val_branch(val, p);
  if (count > 0) branch(s, x, vb, wb);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_bool")
}

bb_status bb_branch_set(bb_space *sp, const int *vars, int count, bb_var_sel var, bb_val_sel val,
                        const bb_branch_options *options, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  SetVarArgs x = set_vars(s, vars, count, "vars");
  branch_params p(options);
  TieBreak<SetVarBranch> vb = set_var_branch(var, p);
  SetValBranch wb = set_val_branch(val, p);
  if (count > 0) branch(s, x, vb, wb);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_set")
}

bb_status bb_branch_float(bb_space *sp, const int *vars, int count, double precision, bb_var_sel var, bb_val_sel val,
                          const bb_branch_options *options, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  FloatVarArgs x = float_vars(s, vars, count, "vars");
  if (precision != precision) arg_fail("precision is NaN");
  branch_params p(options);
  TieBreak<FloatVarBranch> vb = float_var_branch(var, p);
  FloatValBranch wb = float_val_branch(val);
  if (count == 0) return BB_OK;
  if (precision > 0.0) {
    // Only variables wider than the precision are split (a variable of infinite width
    // always is: max - min overflows to +inf).
    branch(s, x, vb, wb, [precision](const Space &, FloatVar v, int) { return v.max() - v.min() > precision; });
  } else {
    branch(s, x, vb, wb);
  }
  if (s.float_searched.size() < s.floats.size()) s.float_searched.resize(s.floats.size(), false);
  for (int i = 0; i < count; i++) s.float_searched[(size_t)vars[i]] = true;
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_float")
}

bb_status bb_branch_gecode_default(bb_space *sp, bool together, const int *ints, int n_ints, const int *bools,
                                   int n_bools, const int *floats, int n_floats, const int *sets, int n_sets,
                                   bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, ints, n_ints, "ints");
  BoolVarArgs y = bool_vars(s, bools, n_bools, "bools");
  float_vars(s, floats, n_floats, "floats"); // validated here, posted below
  SetVarArgs sx = set_vars(s, sets, n_sets, "sets");
  const double decay = 0.99;
  if (together && x.size() > 0 && y.size() > 0) {
    bb_shim::branch_intbool_afc_size(s, x, y, decay);
  } else {
    if (x.size() > 0) branch(s, x, INT_VAR_AFC_SIZE_MAX(decay), INT_VAL_MIN());
    if (y.size() > 0) branch(s, y, BOOL_VAR_AFC_MAX(decay), BOOL_VAL_MIN());
  }
  branch_unsearched_floats(s, std::vector<int>(floats, floats + n_floats));
  if (sx.size() > 0) branch(s, sx, SET_VAR_AFC_SIZE_MAX(decay), SET_VAL_MIN_INC());
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_gecode_default")
}

bb_status bb_branch_default(bb_space *sp, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  if (!s.ints.empty())
    branch(s, IntVarArgs(std::vector<IntVar>(s.ints.begin(), s.ints.end())), INT_VAR_SIZE_MIN(), INT_VAL_MIN());
  if (!s.bools.empty())
    branch(s, BoolVarArgs(std::vector<BoolVar>(s.bools.begin(), s.bools.end())), BOOL_VAR_NONE(), BOOL_VAL_MIN());
  std::vector<int> every_float(s.floats.size());
  for (size_t i = 0; i < every_float.size(); i++) every_float[i] = (int)i;
  branch_unsearched_floats(s, every_float);
  if (!s.sets.empty())
    branch(s, SetVarArgs(std::vector<SetVar>(s.sets.begin(), s.sets.end())), SET_VAR_NONE(), SET_VAL_MIN_INC());
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_branch_default")
}

} // extern "C"
