// Spaces and variables: the bb_shim.h half of the C API.
#include "post_args.hh"

#include <cassert>

using namespace Gecode;
using bb_shim::arg_fail;
using bb_shim::guarded;

extern "C" {

bb_space *bb_space_new(bb_error *err) {
  bb_space *s = nullptr;
  guarded(err, "bb_space_new", [&] {
    s = new bb_space();
    return BB_OK;
  });
  return s;
}

// After memory ran out inside Gecode, any space may be the half-cloned source of a failed
// clone, whose destruction would crash: left to the process's exit (shim_internal.hh).
void bb_space_free(bb_space *space) {
  if (!bb_shim::gecode_out_of_memory()) delete space;
}

void bb_space_fail(bb_space *space) {
  if (space) space->fail();
}

bb_space *bb_space_clone(bb_space *space, bb_error *err) {
  bb_space *copy = nullptr;
  guarded(err, "bb_space_clone", [&] {
    bb_space &s = bb_shim::space_of(space);
    // Gecode clones only stable spaces: propagate first (a no-op when already stable).
    if (s.status() == SS_FAILED) arg_fail("the space is failed");
    copy = static_cast<bb_space *>(s.clone());
    return BB_OK;
  });
  return copy;
}

// Each creator returns the new index or -1; the guard fills err from Gecode's exception
// (empty domain, bounds beyond Int::Limits / Set::Limits, values other than 0/1).
int bb_int_var(bb_space *space, int lo, int hi, bb_error *err) {
  int index = -1;
  guarded(err, "bb_int_var", [&] {
    bb_space &s = bb_shim::space_of(space);
    if (lo > hi) arg_fail("empty domain %d..%d", lo, hi);
    s.ints.push_back(IntVar(s, lo, hi));
    index = (int)s.ints.size() - 1;
    return BB_OK;
  });
  return index;
}

int bb_int_var_values(bb_space *space, const int *values, int count, bb_error *err) {
  int index = -1;
  guarded(err, "bb_int_var_values", [&] {
    bb_space &s = bb_shim::space_of(space);
    if (count == 0) arg_fail("empty domain (no values)");
    s.ints.push_back(IntVar(s, bb_shim::int_set(values, count, "values")));
    index = (int)s.ints.size() - 1;
    return BB_OK;
  });
  return index;
}

int bb_bool_var(bb_space *space, int lo, int hi, bb_error *err) {
  int index = -1;
  guarded(err, "bb_bool_var", [&] {
    bb_space &s = bb_shim::space_of(space);
    if (lo < 0 || hi > 1 || lo > hi) arg_fail("domain %d..%d is not a non-empty part of 0..1", lo, hi);
    s.bools.push_back(BoolVar(s, lo, hi));
    index = (int)s.bools.size() - 1;
    return BB_OK;
  });
  return index;
}

int bb_set_var(bb_space *space, const int *glb, int glb_count, const int *lub, int lub_count, int card_min,
               int card_max, bb_error *err) {
  int index = -1;
  guarded(err, "bb_set_var", [&] {
    bb_space &s = bb_shim::space_of(space);
    IntSet lower = bb_shim::int_set(glb, glb_count, "glb");
    IntSet upper = bb_shim::int_set(lub, lub_count, "lub");
    if (card_min < 0 || card_max < card_min)
      arg_fail("cardinality bounds %d..%d are not a non-empty range of naturals", card_min, card_max);
    unsigned cmax = (unsigned)card_max > Set::Limits::card ? Set::Limits::card : (unsigned)card_max;
    s.sets.push_back(SetVar(s, lower, upper, (unsigned)card_min, cmax));
    index = (int)s.sets.size() - 1;
    return BB_OK;
  });
  return index;
}

int bb_set_var_universe(bb_space *space, bb_error *err) {
  int index = -1;
  guarded(err, "bb_set_var_universe", [&] {
    bb_space &s = bb_shim::space_of(space);
    s.sets.push_back(SetVar(s, IntSet::empty, Set::Limits::min, Set::Limits::max));
    index = (int)s.sets.size() - 1;
    return BB_OK;
  });
  return index;
}

int bb_int_var_count(const bb_space *space) { return space ? (int)space->ints.size() : 0; }
int bb_bool_var_count(const bb_space *space) { return space ? (int)space->bools.size() : 0; }
int bb_set_var_count(const bb_space *space) { return space ? (int)space->sets.size() : 0; }
long bb_space_tuple_sets(const bb_space *space) { return space ? space->tuple_sets_built : 0; }

bb_status bb_space_set_objective(bb_space *space, bb_objective_sense sense, int int_var, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = bb_shim::space_of(space);
  int raw_sense = bb_shim::raw_enum(sense);
  if (raw_sense == BB_SATISFY) {
    s.objective = -1;
    s.objective_is_float = false;
    s.sense = BB_SATISFY;
    return BB_OK;
  }
  if (raw_sense != BB_MINIMIZE && raw_sense != BB_MAXIMIZE) arg_fail("unknown objective sense %d", raw_sense);
  bb_shim::int_var(s, int_var, "objective");
  s.objective = int_var;
  s.objective_is_float = false;
  s.sense = sense;
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_space_set_objective")
}

bb_status bb_space_status(bb_space *space, bb_space_state *state, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = bb_shim::space_of(space);
  SpaceStatus st = s.status();
  if (state) *state = st == SS_FAILED ? BB_SPACE_FAILED : st == SS_SOLVED ? BB_SPACE_SOLVED : BB_SPACE_BRANCH;
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_space_status")
}

// Propagates first, so that "failed" means the constraints posted so far are
// inconsistent as far as propagation can tell, not only that a post detected it.
bool bb_space_failed(bb_space *space) {
  if (!space) return true;
  bool failed = true;
  guarded(nullptr, "bb_space_failed", [&] {
    failed = space->status() == SS_FAILED;
    return BB_OK;
  });
  return failed;
}

int bb_int_min(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->ints.size());
  return space->ints[(size_t)var].min();
}
int bb_int_max(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->ints.size());
  return space->ints[(size_t)var].max();
}
unsigned bb_int_size(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->ints.size());
  return space->ints[(size_t)var].size();
}
bool bb_int_in(const bb_space *space, int var, int value) {
  assert(space && var >= 0 && (size_t)var < space->ints.size());
  return space->ints[(size_t)var].in(value);
}
bool bb_int_assigned(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->ints.size());
  return space->ints[(size_t)var].assigned();
}
int bb_int_values(const bb_space *space, int var, int *out) {
  assert(space && var >= 0 && (size_t)var < space->ints.size());
  int n = 0;
  for (IntVarValues v(space->ints[(size_t)var]); v(); ++v) out[n++] = v.val();
  return n;
}

int bb_bool_min(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->bools.size());
  return space->bools[(size_t)var].min();
}
int bb_bool_max(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->bools.size());
  return space->bools[(size_t)var].max();
}
bool bb_bool_assigned(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->bools.size());
  return space->bools[(size_t)var].assigned();
}

bool bb_set_assigned(const bb_space *space, int var) {
  assert(space && var >= 0 && (size_t)var < space->sets.size());
  return space->sets[(size_t)var].assigned();
}
int bb_set_glb(const bb_space *space, int var, int *out, int cap) {
  assert(space && var >= 0 && (size_t)var < space->sets.size());
  int n = 0;
  for (SetVarGlbValues v(space->sets[(size_t)var]); v(); ++v, n++)
    if (n < cap) out[n] = v.val();
  return n;
}
int bb_set_lub(const bb_space *space, int var, int *out, int cap) {
  assert(space && var >= 0 && (size_t)var < space->sets.size());
  int n = 0;
  for (SetVarLubValues v(space->sets[(size_t)var]); v(); ++v, n++)
    if (n < cap) out[n] = v.val();
  return n;
}

} // extern "C"
