// Internal to shim/: turning C arguments (indexes, plain arrays, enums) into Gecode
// arguments, validating them on the way. Every check throws bb_arg_error, which the
// entry point's guard (posting() or guarded() below) turns into BB_ERR_ARG
// "<function>: <message>". Posters build all their Gecode arguments before posting
// anything, so a rejected call leaves the space untouched.
#ifndef BB_POST_ARGS_HH
#define BB_POST_ARGS_HH

#include "bb_post.h"
#include "shim_internal.hh"
#include "smc.h" /* bb_smc_path */

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <tuple>

namespace bb_shim {

// A std::exception, so the existing guard reports it as BB_ERR_ARG with its message.
struct arg_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

[[noreturn]] inline void arg_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
[[noreturn]] inline void arg_fail(const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  throw arg_error(msg);
}

// Runs `body` (returning bb_status) under the guard; for entry points whose C result is
// not a bb_status (an index, a pointer, a flag).
template <class Body>
bb_status guarded(bb_error *err, const char *fn, Body &&body) {
  BB_SHIM_GUARD_BEGIN
  return body();
  BB_SHIM_GUARD_END(err, fn)
}

// The int a C caller passed where an enum is declared, read without an enum load: C lets
// any int through, while in C++ loading an out-of-range enum value is undefined.
template <class E>
inline int raw_enum(const E &e) {
  static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

inline bb_space &space_of(bb_space *s) {
  if (!s) arg_fail("space is NULL");
  return *s;
}

// An enum argument of a C caller, held as the int it passed. C lets any int through an
// enum parameter, while C++ may not load an out-of-range enum value (UBSan's
// -fsanitize=enum stops the program there). A lambda that captured the enum parameter by
// reference would load it from memory as the enum, so the wrappers turn every enum
// argument into a c_enum with enums(...) (raw_enum: a copy of the bytes, no enum load)
// before any lambda sees it, and only the converters below (int_rel, ipl_of, ...) read
// `raw`, rejecting a value outside the enum with the shim's normal BB_ERR_ARG.
template <class E>
struct c_enum {
  int raw;
};
template <class... E>
inline std::tuple<c_enum<E>...> enums(const E &...e) {
  return std::tuple<c_enum<E>...>{c_enum<E>{raw_enum(e)}...};
}

// The shape of every posting entry point (post_*.cpp), written once: the space checked,
// then body(space), both under the guard, so that an error in either, a Gecode exception
// or memory running out becomes a bb_status with fn's name. body returns BB_OK, or
// returns early (BB_OK too) where there is nothing to post.
template <class Body>
bb_status posting(bb_space *sp, bb_error *err, const char *fn, Body &&body) {
  return guarded(err, fn, [&]() -> bb_status { return body(space_of(sp)); });
}
// The same for an entry point with enum arguments: body(space, c_enum...) gets them
// already read as ints, in the order of enums(...). Its parameters take the names of the
// C arguments on purpose: they hide the enum parameters, so that the body cannot read one.
//   return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) { ... });
template <class... E, class Body>
bb_status posting(bb_space *sp, bb_error *err, const char *fn, std::tuple<c_enum<E>...> args, Body &&body) {
  return guarded(err, fn, [&]() -> bb_status {
    return std::apply([&](c_enum<E>... a) -> bb_status { return body(space_of(sp), a...); }, args);
  });
}

// A constraint's path option (bb_smc_path, smc.h): dflt when the caller passed no options,
// BB_ERR_ARG for an int outside the enum.
inline bb_smc_path path_option(const bb_smc_path *field, bb_smc_path dflt) {
  if (!field) return dflt;
  int raw = raw_enum(*field);
  if (raw < BB_SMC_PATH_AUTO || raw > BB_SMC_PATH_EMULATED) arg_fail("unknown path %d", raw);
  return static_cast<bb_smc_path>(raw);
}

inline void check_count(const void *array, int count, const char *what) {
  if (count < 0) arg_fail("%s: negative length %d", what, count);
  if (count > 0 && !array) arg_fail("%s: NULL array of length %d", what, count);
}

inline Gecode::IntVar int_var(bb_space &s, int v, const char *what) {
  if (v < 0 || (size_t)v >= s.ints.size())
    arg_fail("%s: no int variable %d (the space has %zu)", what, v, s.ints.size());
  return s.ints[(size_t)v];
}
inline Gecode::BoolVar bool_var(bb_space &s, int v, const char *what) {
  if (v < 0 || (size_t)v >= s.bools.size())
    arg_fail("%s: no bool variable %d (the space has %zu)", what, v, s.bools.size());
  return s.bools[(size_t)v];
}
inline Gecode::SetVar set_var(bb_space &s, int v, const char *what) {
  if (v < 0 || (size_t)v >= s.sets.size())
    arg_fail("%s: no set variable %d (the space has %zu)", what, v, s.sets.size());
  return s.sets[(size_t)v];
}

inline Gecode::FloatVar float_var(bb_space &s, int v, const char *what) {
  if (v < 0 || (size_t)v >= s.floats.size())
    arg_fail("%s: no float variable %d (the space has %zu)", what, v, s.floats.size());
  return s.floats[(size_t)v];
}
inline Gecode::FloatVarArgs float_vars(bb_space &s, const int *vars, int count, const char *what) {
  check_count(vars, count, what);
  Gecode::FloatVarArgs a(count);
  for (int i = 0; i < count; i++) {
    if (vars[i] < 0 || (size_t)vars[i] >= s.floats.size())
      arg_fail("%s[%d]: no float variable %d (the space has %zu)", what, i, vars[i], s.floats.size());
    a[i] = s.floats[(size_t)vars[i]];
  }
  return a;
}

inline Gecode::IntVarArgs int_vars(bb_space &s, const int *vars, int count, const char *what) {
  check_count(vars, count, what);
  Gecode::IntVarArgs a(count);
  for (int i = 0; i < count; i++) {
    if (vars[i] < 0 || (size_t)vars[i] >= s.ints.size())
      arg_fail("%s[%d]: no int variable %d (the space has %zu)", what, i, vars[i], s.ints.size());
    a[i] = s.ints[(size_t)vars[i]];
  }
  return a;
}
inline Gecode::BoolVarArgs bool_vars(bb_space &s, const int *vars, int count, const char *what) {
  check_count(vars, count, what);
  Gecode::BoolVarArgs a(count);
  for (int i = 0; i < count; i++) {
    if (vars[i] < 0 || (size_t)vars[i] >= s.bools.size())
      arg_fail("%s[%d]: no bool variable %d (the space has %zu)", what, i, vars[i], s.bools.size());
    a[i] = s.bools[(size_t)vars[i]];
  }
  return a;
}
inline Gecode::SetVarArgs set_vars(bb_space &s, const int *vars, int count, const char *what) {
  check_count(vars, count, what);
  Gecode::SetVarArgs a(count);
  for (int i = 0; i < count; i++) {
    if (vars[i] < 0 || (size_t)vars[i] >= s.sets.size())
      arg_fail("%s[%d]: no set variable %d (the space has %zu)", what, i, vars[i], s.sets.size());
    a[i] = s.sets[(size_t)vars[i]];
  }
  return a;
}

inline Gecode::IntArgs int_args(const int *vals, int count, const char *what) {
  check_count(vals, count, what);
  Gecode::IntArgs a(count);
  for (int i = 0; i < count; i++) a[i] = vals[i];
  return a;
}
// A constant set given by its values (any order, duplicates allowed).
inline Gecode::IntSet int_set(const int *values, int count, const char *what) {
  check_count(values, count, what);
  return count > 0 ? Gecode::IntSet(values, count) : Gecode::IntSet::empty;
}

// Constants that Gecode stores in variable domains must lie within its limits.
inline void check_int_value(long long v, const char *what) {
  if (v < Gecode::Int::Limits::min || v > Gecode::Int::Limits::max)
    arg_fail("%s: value %lld is outside Gecode's integer limits [%d, %d]", what, v, Gecode::Int::Limits::min,
             Gecode::Int::Limits::max);
}

inline Gecode::IntRelType int_rel(c_enum<bb_rel> r, const char *what) {
  switch (r.raw) {
    case BB_EQ: return Gecode::IRT_EQ;
    case BB_NE: return Gecode::IRT_NQ;
    case BB_LE: return Gecode::IRT_LQ;
    case BB_LT: return Gecode::IRT_LE;
    case BB_GE: return Gecode::IRT_GQ;
    case BB_GT: return Gecode::IRT_GR;
  }
  arg_fail("%s: unknown relation %d", what, r.raw);
}
// The relation with its operands swapped: (a rel b) == (b swapped(rel) a); anything else
// is left for int_rel to accept or reject.
inline c_enum<bb_rel> swapped(c_enum<bb_rel> r) {
  switch (r.raw) {
    case BB_LE: return {BB_GE};
    case BB_LT: return {BB_GT};
    case BB_GE: return {BB_LE};
    case BB_GT: return {BB_LT};
    default: return r;
  }
}

inline Gecode::IntPropLevel ipl_of(c_enum<bb_ipl> l) {
  switch (l.raw) {
    case BB_IPL_DEF: return Gecode::IPL_DEF;
    case BB_IPL_VAL: return Gecode::IPL_VAL;
    case BB_IPL_BND: return Gecode::IPL_BND;
    case BB_IPL_DOM: return Gecode::IPL_DOM;
  }
  arg_fail("unknown consistency level %d", l.raw);
}

// A validated reification: `none` for BB_REIF_NONE, else the Boolean and the mode.
struct reif_arg {
  bool none = true;
  bb_reif_mode mode = BB_REIF_NONE;
  Gecode::BoolVar b;
  Gecode::Reify reify() const {
    return Gecode::Reify(b, mode == BB_REIF_EQV   ? Gecode::RM_EQV
                            : mode == BB_REIF_IMP ? Gecode::RM_IMP
                                                  : Gecode::RM_PMI);
  }
};
inline reif_arg reif_of(bb_space &s, bb_reif r) {
  reif_arg a;
  int mode = raw_enum(r.mode);
  if (mode == BB_REIF_NONE) return a;
  if (mode != BB_REIF_EQV && mode != BB_REIF_IMP && mode != BB_REIF_PMI) arg_fail("unknown reification mode %d", mode);
  a.none = false;
  a.mode = r.mode;
  a.b = bool_var(s, r.bool_var, "reification variable");
  return a;
}

// Links the reification variable to `t`, a Boolean that is true exactly when the
// constraint holds: used where Gecode only reifies by equivalence (or not at all) and the
// poster has built t <-> c itself.
inline void link_reif(bb_space &s, const reif_arg &r, Gecode::BoolVar t) {
  using namespace Gecode;
  if (r.none)
    rel(s, t, IRT_EQ, 1);
  else if (r.mode == BB_REIF_EQV)
    rel(s, r.b, IRT_EQ, t);
  else if (r.mode == BB_REIF_IMP)
    rel(s, r.b, BOT_IMP, t, 1);
  else
    rel(s, t, BOT_IMP, r.b, 1);
}

// A constraint known at post time to be `truth`, reified as asked.
inline void post_truth(bb_space &s, const reif_arg &r, bool truth) {
  using namespace Gecode;
  if (r.none) {
    if (!truth) s.fail();
  } else if (r.mode == BB_REIF_EQV) {
    rel(s, r.b, IRT_EQ, truth ? 1 : 0);
  } else if (r.mode == BB_REIF_IMP) {
    if (!truth) rel(s, r.b, IRT_EQ, 0);
  } else if (truth) {
    rel(s, r.b, IRT_EQ, 1);
  }
}

// Arrays indexed from `offset` in the model, 0-based in Gecode: restricts idx to the
// array's index range and returns the 0-based index. Small non-negative offsets are
// handled by padding the array instead (see pad_count), which needs no new variable.
inline int pad_count(int offset) { return offset >= 0 && offset <= 8 ? offset : 0; }
inline Gecode::IntVar zero_based(bb_space &s, Gecode::IntVar idx, int offset, int count) {
  using namespace Gecode;
  long long hi = (long long)offset + count - 1;
  if (count == 0 || hi > Int::Limits::max || offset < Int::Limits::min) {
    s.fail(); // no index is valid: element of an empty array, or an unrepresentable range
    return idx;
  }
  dom(s, idx, offset, (int)hi);
  int pad = pad_count(offset);
  if (pad == offset) return idx;
  IntVar i0(s, 0, count - 1);
  // i0 = idx - offset; binary unit-coefficient linear at IPL_DOM keeps the domains equal.
  linear(s, IntArgs({1, -1}), IntVarArgs({i0, idx}), IRT_EQ, -offset, IPL_DOM);
  return i0;
}

// The 0-based index of a 2d access, without padding (it would break the row layout).
inline Gecode::IntVar zero_based_unpadded(bb_space &s, Gecode::IntVar idx, int offset, int count) {
  if (count == 0) {
    s.fail();
    return idx;
  }
  long long hi = (long long)offset + count - 1;
  check_int_value(hi, "index range");
  Gecode::dom(s, idx, offset, (int)hi);
  if (offset == 0) return idx;
  Gecode::IntVar i0(s, 0, count - 1);
  Gecode::linear(s, Gecode::IntArgs({1, -1}), Gecode::IntVarArgs({i0, idx}), Gecode::IRT_EQ, -offset, Gecode::IPL_DOM);
  return i0;
}

inline int checked_cells(int rows, int cols) {
  if (rows < 0 || cols < 0) arg_fail("negative dimensions %d x %d", rows, cols);
  long long cells = (long long)rows * cols;
  if (cells > 0x7fffffffLL) arg_fail("%d x %d cells do not fit an int", rows, cols);
  return (int)cells;
}

// Gecode's distinct, circuit, gcc, sorted, extensional, cumulative, ... reject an unassigned
// variable that occurs twice; unshared replaces repeats by fresh copies constrained equal.
inline Gecode::IntVarArgs unshared(bb_space &s, Gecode::IntVarArgs x) {
  Gecode::unshare(s, x);
  return x;
}

inline void check_same_length(int a, int b, const char *what) {
  if (a != b) arg_fail("%s: lengths %d and %d differ", what, a, b);
}

} // namespace bb_shim

#endif
