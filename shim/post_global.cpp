// Global constraints: Gecode's native propagators where their meaning matches MiniZinc's,
// small decompositions where Gecode has none (subcircuit) or differs (zero-length tasks
// in cumulative, zero-sized rectangles in diffn_nonstrict).
#include "post_args.hh"

#include <algorithm>
#include <set>
#include <vector>

using namespace Gecode;
using namespace bb_shim;

namespace {

// Gecode's distinct, circuit, gcc, sorted, extensional, ... reject an unassigned variable
// that occurs twice; unshare replaces repeats by fresh copies constrained equal.
IntVarArgs unshared(bb_space &s, IntVarArgs x) {
  unshare(s, x);
  return x;
}

void check_same_length(int a, int b, const char *what) {
  if (a != b) arg_fail("%s: lengths %d and %d differ", what, a, b);
}

} // namespace

extern "C" {

bb_status bb_post_all_different(bb_space *sp, const int *vars, int count, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntPropLevel l = ipl_of(ipl);
  if (count > 1) distinct(s, unshared(s, x), l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_all_different")
}

bb_status bb_post_all_equal(bb_space *sp, const int *vars, int count, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  if (count > 1) rel(s, x, IRT_EQ);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_all_equal")
}

bb_status bb_post_circuit(bb_space *sp, const int *vars, int count, int offset, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntPropLevel l = ipl_of(ipl);
  if (count == 1) s.fail(); // MiniZinc's circuit forbids x[i] = i, even for one node
  else if (count > 1) circuit(s, offset, unshared(s, x), l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_circuit")
}

// Decomposition, in terms of 0-based nodes (value offset + j is node j):
//  - x is a permutation; node i is "in" iff x[i] != i;
//  - root is the smallest in-node (count when there is none);
//  - pos numbers the cycle through root from 0 at root, stepping by one along every
//    edge except the one back into root; out-nodes have pos 0.
// A second cycle of in-nodes would need pos to grow around it forever, so it fails; and
// every auxiliary variable is determined by x, so solutions map one-to-one.
bb_status bb_post_subcircuit(bb_space *sp, const int *vars, int count, int offset, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntPropLevel l = ipl_of(ipl);
  check_int_value((long long)offset + count, "subcircuit node range");
  if (count == 0) return BB_OK;
  const int n = count;
  dom(s, x, offset, offset + n - 1);
  x = unshared(s, x);
  distinct(s, x, l);
  BoolVarArgs in(n);
  IntVarArgs pos(n);
  IntVar root(s, 0, n);
  for (int i = 0; i < n; i++) {
    in[i] = BoolVar(s, 0, 1);
    rel(s, x[i], IRT_NQ, offset + i, in[i]);
    rel(s, root, IRT_LQ, i, Reify(in[i], RM_IMP));
    pos[i] = IntVar(s, 0, n - 1);
    rel(s, pos[i], IRT_NQ, 0, Reify(in[i], RM_PMI)); // out-nodes sit at 0
    BoolVar is_root(s, 0, 1);
    rel(s, root, IRT_EQ, i, is_root);
    rel(s, pos[i], IRT_EQ, 0, Reify(is_root, RM_IMP));
  }
  BoolVar always(s, 1, 1);
  element(s, in + BoolVarArgs({always}), root, 1); // root < n is an in-node
  IntVarArgs pos_by_value = pos; // indexed like zero_based's result: padded for small offsets
  if (pad_count(offset) == offset && offset > 0) {
    IntVarArgs pad(offset);
    for (int k = 0; k < offset; k++) pad[k] = IntVar(s, 0, 0);
    pos_by_value = pad + pos;
  }
  for (int i = 0; i < n; i++) {
    IntVar next_pos(s, 0, n - 1);
    element(s, pos_by_value, zero_based(s, x[i], offset, n), next_pos);
    BoolVar not_into_root(s, 0, 1), step(s, 0, 1);
    linear(s, IntArgs({1, -1}), IntVarArgs({x[i], root}), IRT_NQ, offset, not_into_root);
    rel(s, in[i], BOT_AND, not_into_root, step);
    linear(s, IntArgs({1, -1}), IntVarArgs({next_pos, pos[i]}), IRT_EQ, 1, Reify(step, RM_IMP));
  }
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_subcircuit")
}

} // extern "C"

namespace {

// Task decomposition of cumulative (the load peaks at some task's start): at the start of
// every task j, the tasks running then use at most the capacity. Exact for any variable
// durations and uses, at O(n^2) reified constraints; only used where Gecode's propagators
// cannot express the task set.
void cumulative_by_tasks(bb_space &s, const IntVarArgs &start, const IntVarArgs &dur, const IntVarArgs &use,
                         IntVar cap) {
  const int n = start.size();
  IntVar zero(s, 0, 0);
  for (int j = 0; j < n; j++) {
    IntVarArgs load(n);
    for (int i = 0; i < n; i++) {
      BoolVar running(s, 0, 1);
      if (i == j) {
        rel(s, dur[j], IRT_GR, 0, running);
      } else {
        BoolVar started(s, 0, 1), not_ended(s, 0, 1);
        rel(s, start[i], IRT_LQ, start[j], started);
        linear(s, IntArgs({1, -1, -1}), IntVarArgs({start[j], start[i], dur[i]}), IRT_LE, 0, not_ended);
        rel(s, started, BOT_AND, not_ended, running);
      }
      load[i] = IntVar(s, std::min(0, use[i].min()), std::max(0, use[i].max()));
      ite(s, running, use[i], zero, load[i]);
    }
    linear(s, load, IRT_LQ, cap);
  }
}

// Whether no two tasks can run at once: all take time, and the two smallest uses exceed
// the capacity (Gecode's FlatZinc library then posts cumulatives as unary). std's
// cumulative() already makes the fixed-use cases a disjunctive; this catches variable uses.
bool disjoint_tasks(const IntVarArgs &dur, const IntVarArgs &use, IntVar cap) {
  if (use.size() < 2) return false;
  long long low1 = Int::Limits::max, low2 = Int::Limits::max;
  for (int i = 0; i < use.size(); i++) {
    if (dur[i].min() <= 0) return false;
    long long u = use[i].min();
    if (u < low1) low2 = low1, low1 = u;
    else if (u < low2) low2 = u;
  }
  return low1 + low2 > cap.max();
}

// Gecode's unary resource over tasks that all take time (durations > 0).
void post_unary(bb_space &s, IntVarArgs start, const IntVarArgs &dur, IntPropLevel l) {
  start = unshared(s, start);
  if (dur.assigned()) {
    IntArgs p(dur.size());
    for (int i = 0; i < dur.size(); i++) p[i] = dur[i].val();
    unary(s, start, p, l);
    return;
  }
  IntVarArgs end(dur.size());
  for (int i = 0; i < dur.size(); i++) {
    end[i] = IntVar(s, Int::Limits::min, Int::Limits::max);
    linear(s, IntArgs({1, 1, -1}), IntVarArgs({start[i], dur[i], end[i]}), IRT_EQ, 0);
  }
  unary(s, start, dur, end, l);
}

} // namespace

extern "C" {

// MiniZinc ignores tasks of zero duration or use; Gecode's cumulative lets a zero-length
// task block a busy instant. So such tasks are dropped when fixed, and made optional
// (mandatory iff duration > 0) when their duration varies.
bb_status bb_post_cumulative(bb_space *sp, const int *starts, const int *durations, const int *usages, int count,
                             int capacity, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs start = int_vars(s, starts, count, "starts");
  IntVarArgs dur = int_vars(s, durations, count, "durations");
  IntVarArgs use = int_vars(s, usages, count, "usages");
  IntVar cap = int_var(s, capacity, "capacity");
  IntPropLevel l = ipl_of(ipl);
  if (count == 0) return BB_OK;
  rel(s, dur, IRT_GQ, 0);
  rel(s, use, IRT_GQ, 0);
  rel(s, cap, IRT_GQ, 0);
  IntVarArgs ts, td, tu;
  bool fixed_use = true, fixed_dur = true;
  for (int i = 0; i < count; i++) {
    if (dur[i].max() <= 0 || use[i].max() <= 0) continue; // never uses the resource
    ts << start[i];
    td << dur[i];
    tu << use[i];
    fixed_use = fixed_use && use[i].assigned();
    fixed_dur = fixed_dur && dur[i].assigned();
  }
  if (ts.size() == 0) return BB_OK;
  if (disjoint_tasks(td, tu, cap)) {
    for (int i = 0; i < ts.size(); i++) rel(s, cap, IRT_GQ, tu[i]);
    post_unary(s, ts, td, l);
    return BB_OK;
  }
  if (!fixed_use) {
    cumulative_by_tasks(s, ts, td, tu, cap);
    return BB_OK;
  }
  IntArgs u(ts.size());
  for (int i = 0; i < ts.size(); i++) u[i] = tu[i].val();
  if (fixed_dur) {
    IntArgs p(ts.size());
    for (int i = 0; i < ts.size(); i++) p[i] = td[i].val();
    cumulative(s, cap, unshared(s, ts), p, u, l);
    return BB_OK;
  }
  IntVarArgs end(ts.size());
  BoolVarArgs mandatory(ts.size());
  for (int i = 0; i < ts.size(); i++) {
    end[i] = IntVar(s, Int::Limits::min, Int::Limits::max);
    linear(s, IntArgs({1, 1, -1}), IntVarArgs({ts[i], td[i], end[i]}), IRT_EQ, 0);
    mandatory[i] = BoolVar(s, 0, 1);
    rel(s, td[i], IRT_GR, 0, mandatory[i]);
  }
  cumulative(s, cap, ts, td, end, u, mandatory, l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_cumulative")
}

bb_status bb_post_cumulative_const(bb_space *sp, const int *starts, const int *durations, const int *usages,
                                   int count, int capacity, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs start = int_vars(s, starts, count, "starts");
  IntArgs dur = int_args(durations, count, "durations"), use = int_args(usages, count, "usages");
  IntPropLevel l = ipl_of(ipl);
  IntVarArgs ts;
  IntArgs td, tu;
  for (int i = 0; i < count; i++) {
    if (dur[i] < 0 || use[i] < 0) arg_fail("task %d: negative duration %d or use %d", i, dur[i], use[i]);
    if (dur[i] == 0 || use[i] == 0) continue;
    ts << start[i];
    td << dur[i];
    tu << use[i];
  }
  if (count > 0 && capacity < 0) s.fail();
  else if (ts.size() > 0) cumulative(s, capacity, unshared(s, ts), td, tu, l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_cumulative_const")
}

} // extern "C"

namespace {

// With fixed sizes, Gecode's FlatZinc library (gecode_nooverlap in registry.cpp) adds
// two cumulatives to nooverlap: the rectangles stacked over any x (y) are disjoint in the
// other dimension, so their heights (widths) fit in the span their y (x) can reach. That
// projection is what proves optima in a few nodes where nooverlap alone searches
// millions (MiniZinc Challenge 2010 filters). Only rectangles of positive width and height
// are projected: a zero-sized one constrains nothing in diffn_nonstrict, and in diffn two
// zero-width rectangles at one x may share a y, which a zero-length task of a cumulative
// need not allow (leaving them out only weakens the redundant projections).
void diffn_projections(bb_space &s, const IntVarArgs &x0, const IntVarArgs &w, const IntVarArgs &y0,
                       const IntVarArgs &h) {
  IntVarArgs xs, ys;
  IntArgs ws, hs;
  long long xlo = Int::Limits::max, xhi = Int::Limits::min, ylo = Int::Limits::max, yhi = Int::Limits::min;
  for (int i = 0; i < x0.size(); i++) {
    if (!w[i].assigned() || !h[i].assigned()) return;
    if (w[i].val() == 0 || h[i].val() == 0) continue;
    xs << x0[i];
    ys << y0[i];
    ws << w[i].val();
    hs << h[i].val();
    xlo = std::min(xlo, (long long)x0[i].min());
    xhi = std::max(xhi, (long long)x0[i].max() + w[i].val());
    ylo = std::min(ylo, (long long)y0[i].min());
    yhi = std::max(yhi, (long long)y0[i].max() + h[i].val());
  }
  if (xs.size() < 2) return;
  // The spans bound the capacity; a span Gecode's int cannot hold (an unbounded
  // coordinate) would bound nothing.
  if (yhi - ylo <= Int::Limits::max) cumulative(s, (int)(yhi - ylo), xs, ws, hs);
  if (xhi - xlo <= Int::Limits::max) cumulative(s, (int)(xhi - xlo), ys, hs, ws);
}

} // namespace

extern "C" {

// Tasks that can take time go to Gecode's unary resource (as Gecode's FlatZinc library
// posts disjunctive_strict), optional (present iff d > 0) where a duration may be zero:
// disjunctive lets a zero-length task run anywhere, and an absent task is one Gecode's
// unary ignores, whatever it makes of zero lengths. disjunctive_strict also forbids a
// zero-length task strictly inside another: each pair with a possibly zero-length task
// gets std's clause s[i] + d[i] <= s[j] \/ s[j] + d[j] <= s[i] (unary covers the others).
bb_status bb_post_disjunctive(bb_space *sp, const int *starts, const int *durations, int count, bool strict,
                              bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs start = int_vars(s, starts, count, "starts");
  IntVarArgs dur = int_vars(s, durations, count, "durations");
  IntPropLevel l = ipl_of(ipl);
  if (count == 0) return BB_OK;
  rel(s, dur, IRT_GQ, 0);
  IntVarArgs ts, td;
  bool optional = false;
  for (int i = 0; i < count; i++) {
    if (dur[i].max() == 0) continue; // occupies no time
    ts << start[i];
    td << dur[i];
    optional = optional || dur[i].min() == 0;
  }
  if (ts.size() > 1 && !optional) {
    post_unary(s, ts, td, l);
  } else if (ts.size() > 1) {
    ts = unshared(s, ts);
    IntVarArgs end(ts.size());
    BoolVarArgs present(ts.size());
    for (int i = 0; i < ts.size(); i++) {
      end[i] = IntVar(s, Int::Limits::min, Int::Limits::max);
      linear(s, IntArgs({1, 1, -1}), IntVarArgs({ts[i], td[i], end[i]}), IRT_EQ, 0);
      present[i] = BoolVar(s, 0, 1);
      rel(s, td[i], IRT_GR, 0, present[i]);
    }
    unary(s, ts, td, end, present, l);
  }
  if (!strict) return BB_OK;
  for (int i = 0; i < count; i++)
    for (int j = i + 1; j < count; j++) {
      if (dur[i].min() > 0 && dur[j].min() > 0) continue;  // both take time: unary
      if (dur[i].max() == 0 && dur[j].max() == 0) continue; // two instants never overlap
      BoolVar before(s, 0, 1), after(s, 0, 1);
      linear(s, IntArgs({1, 1, -1}), IntVarArgs({start[i], dur[i], start[j]}), IRT_LQ, 0, before);
      linear(s, IntArgs({1, 1, -1}), IntVarArgs({start[j], dur[j], start[i]}), IRT_LQ, 0, after);
      rel(s, before, BOT_OR, after, 1);
    }
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_disjunctive")
}

// Gecode's nooverlap is diffn's strict reading; the non-strict one makes every rectangle
// optional, present iff it has a positive width and height.
bb_status bb_post_diffn(bb_space *sp, const int *x, const int *y, const int *dx, const int *dy, int count,
                        bool strict, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x0 = int_vars(s, x, count, "x"), y0 = int_vars(s, y, count, "y");
  IntVarArgs w = int_vars(s, dx, count, "dx"), h = int_vars(s, dy, count, "dy");
  if (count < 2) return BB_OK;
  rel(s, w, IRT_GQ, 0);
  rel(s, h, IRT_GQ, 0);
  IntVarArgs x1(count), y1(count);
  for (int i = 0; i < count; i++) {
    x1[i] = IntVar(s, Int::Limits::min, Int::Limits::max);
    y1[i] = IntVar(s, Int::Limits::min, Int::Limits::max);
    linear(s, IntArgs({1, 1, -1}), IntVarArgs({x0[i], w[i], x1[i]}), IRT_EQ, 0);
    linear(s, IntArgs({1, 1, -1}), IntVarArgs({y0[i], h[i], y1[i]}), IRT_EQ, 0);
  }
  if (strict) {
    nooverlap(s, x0, w, x1, y0, h, y1);
  } else {
    BoolVarArgs present(count);
    for (int i = 0; i < count; i++) {
      BoolVar wide(s, 0, 1), high(s, 0, 1);
      rel(s, w[i], IRT_GR, 0, wide);
      rel(s, h[i], IRT_GR, 0, high);
      present[i] = BoolVar(s, 0, 1);
      rel(s, wide, BOT_AND, high, present[i]);
    }
    nooverlap(s, x0, w, x1, y0, h, y1, present);
  }
  diffn_projections(s, x0, w, y0, h);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_diffn")
}

} // extern "C"

namespace {

// The TupleSet of the rows, shared with every earlier table of the same rows (by content:
// MiniZinc writes one FlatZinc array per distinct table, but a caller may pass copies).
// Gecode's FlatZinc front end shares them the same way; without it, Challenge models that
// post a few big tables once per person (2017 groupsplitter) held a copy per constraint:
// 1.17 GB, 257 MB shared (bench/results/natives-2026-11-25.md).
TupleSet tuple_set(bb_space &s, const int *tuples, int tuple_count, int arity, bool booleans) {
  if (tuple_count < 0) arg_fail("negative tuple count %d", tuple_count);
  long long cells = (long long)tuple_count * arity;
  if (cells > 0x7fffffffLL) arg_fail("%d tuples of %d values do not fit an int", tuple_count, arity);
  check_count(tuples, (int)cells, "tuples");
  std::size_t key = 14695981039346656037ull ^ (std::size_t)arity; // FNV-1a over the values
  for (long long k = 0; k < cells; k++) {
    int v = tuples[k];
    if (booleans && v != 0 && v != 1) arg_fail("tuple %lld: %d is not a Boolean (0 or 1)", k / arity, v);
    check_int_value(v, "tuples");
    key = (key ^ (std::size_t)(unsigned)v) * 1099511628211ull;
  }
  auto range = s.tuple_sets.equal_range(key);
  for (auto it = range.first; it != range.second; ++it) {
    const bb_space::tuple_set_entry &e = it->second;
    if (e.arity == arity && (long long)e.tuples.size() == cells &&
        std::equal(e.tuples.begin(), e.tuples.end(), tuples))
      return e.set;
  }
  TupleSet ts(arity);
  IntArgs row(arity);
  for (int t = 0; t < tuple_count; t++) {
    for (int i = 0; i < arity; i++) row[i] = tuples[(size_t)t * arity + i];
    ts.add(row);
  }
  ts.finalize();
  s.tuple_sets.emplace(key, bb_space::tuple_set_entry{arity, std::vector<int>(tuples, tuples + cells), ts});
  s.tuple_sets_built++;
  return ts;
}

template <class VarArgs>
void post_table(bb_space &s, VarArgs x, const int *tuples, int tuple_count, bool positive, const reif_arg &ra,
                IntPropLevel l, bool booleans) {
  if (x.size() == 0) { // only the empty tuple exists: in the table iff there is a row
    if (tuple_count < 0) arg_fail("negative tuple count %d", tuple_count);
    post_truth(s, ra, (tuple_count > 0) == positive);
    return;
  }
  TupleSet ts = tuple_set(s, tuples, tuple_count, x.size(), booleans);
  unshare(s, x);
  if (ra.none) extensional(s, x, ts, positive, l);
  else extensional(s, x, ts, positive, ra.reify(), l);
}

} // namespace

extern "C" {

bb_status bb_post_table_int(bb_space *sp, const int *vars, int count, const int *tuples, int tuple_count,
                            bool positive, bb_reif reif, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  reif_arg ra = reif_of(s, reif);
  post_table(s, x, tuples, tuple_count, positive, ra, ipl_of(ipl), false);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_table_int")
}

bb_status bb_post_table_bool(bb_space *sp, const int *bools, int count, const int *tuples, int tuple_count,
                             bool positive, bb_reif reif, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  BoolVarArgs x = bool_vars(s, bools, count, "bools");
  reif_arg ra = reif_of(s, reif);
  post_table(s, x, tuples, tuple_count, positive, ra, ipl_of(ipl), true);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_table_bool")
}

bb_status bb_post_regular(bb_space *sp, const int *vars, int count, int Q, int S, const int *transition, int q0,
                          const int *finals, int final_count, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  if (Q < 1 || S < 1) arg_fail("need at least one state and one symbol (Q = %d, S = %d)", Q, S);
  if ((long long)Q * S > 0x7fffffffLL) arg_fail("%d x %d transitions do not fit an int", Q, S);
  check_count(transition, Q * S, "transition");
  check_count(finals, final_count, "finals");
  if (q0 < 1 || q0 > Q) arg_fail("start state %d is not in 1..%d", q0, Q);
  std::vector<DFA::Transition> t;
  for (int q = 1; q <= Q; q++)
    for (int a = 1; a <= S; a++) {
      int next = transition[(size_t)(q - 1) * S + (a - 1)];
      if (next < 0 || next > Q) arg_fail("transition from %d on %d: state %d is not in 0..%d", q, a, next, Q);
      if (next != 0) t.push_back(DFA::Transition(q, a, next));
    }
  std::vector<int> f;
  bool start_accepts = false;
  for (int k = 0; k < final_count; k++) {
    if (finals[k] < 1 || finals[k] > Q) arg_fail("final state %d is not in 1..%d", finals[k], Q);
    f.push_back(finals[k]);
    start_accepts = start_accepts || finals[k] == q0;
  }
  if (count == 0) { // the empty word
    if (!start_accepts) s.fail();
    return BB_OK;
  }
  if (t.empty() || f.empty()) { // no non-empty word is accepted
    s.fail();
    return BB_OK;
  }
  t.push_back(DFA::Transition(-1, 0, 0));
  f.push_back(-1);
  DFA dfa(q0, t.data(), f.data());
  extensional(s, unshared(s, x), dfa);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_regular")
}

bb_status bb_post_inverse(bb_space *sp, const int *f, int f_count, int f_offset, const int *invf, int invf_count,
                          int invf_offset, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, f, f_count, "f"), y = int_vars(s, invf, invf_count, "invf");
  check_same_length(f_count, invf_count, "f and invf");
  IntPropLevel l = ipl_of(ipl);
  if (f_count == 0) return BB_OK;
  // Gecode takes only non-negative offsets: a negative one goes into 0-based copies.
  if (f_offset < 0) {
    for (int i = 0; i < f_count; i++) x[i] = zero_based_unpadded(s, x[i], f_offset, f_count);
    f_offset = 0;
  }
  if (invf_offset < 0) {
    for (int j = 0; j < invf_count; j++) y[j] = zero_based_unpadded(s, y[j], invf_offset, invf_count);
    invf_offset = 0;
  }
  IntVarArgs all = unshared(s, x + y);
  channel(s, all.slice(0, 1, f_count), f_offset, all.slice(f_count, 1, f_count), invf_offset, l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_inverse")
}

} // extern "C"

namespace {

bool has_duplicates(const IntArgs &v) {
  std::set<int> seen;
  for (int i = 0; i < v.size(); i++)
    if (!seen.insert(v[i]).second) return true;
  return false;
}

// The values x may take beyond `cover`, for an open cardinality constraint (Gecode's
// counting propagator is closed: it confines x to the values it counts). Empty with
// `too_many` set when there are more than `limit`.
IntArgs values_beyond(const IntVarArgs &x, const IntArgs &cover, int limit, bool &too_many) {
  std::set<int> covered(cover.begin(), cover.end()), extra;
  too_many = false;
  for (int i = 0; i < x.size(); i++)
    for (IntVarValues v(x[i]); v(); ++v)
      if (!covered.count(v.val())) {
        extra.insert(v.val());
        if ((int)extra.size() > limit) {
          too_many = true;
          return IntArgs();
        }
      }
  if (extra.empty()) return IntArgs(); // IntArgs of an empty vector would bind a null reference
  return IntArgs(std::vector<int>(extra.begin(), extra.end()));
}

const int MAX_EXTRA_VALUES = 256;

IntSet value_set(const IntArgs &v) {
  std::vector<int> values(v.begin(), v.end());
  return values.empty() ? IntSet::empty : IntSet(values.data(), (int)values.size());
}

} // namespace

extern "C" {

bb_status bb_post_global_cardinality(bb_space *sp, const int *vars, int count, const int *cover,
                                     const int *counts, int cover_count, bool closed, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntArgs v = int_args(cover, cover_count, "cover");
  IntVarArgs c = int_vars(s, counts, cover_count, "counts");
  IntPropLevel l = ipl_of(ipl);
  bool too_many = false;
  IntArgs extra = closed ? IntArgs() : values_beyond(x, v, MAX_EXTRA_VALUES, too_many);
  if (has_duplicates(v) || too_many) { // one counter per value (weaker, but exact)
    for (int k = 0; k < v.size(); k++) Gecode::count(s, x, v[k], IRT_EQ, c[k], l);
    if (closed) dom(s, x, value_set(v));
    return BB_OK;
  }
  IntVarArgs cards = c;
  for (int k = 0; k < extra.size(); k++) cards << IntVar(s, 0, count);
  IntVarArgs all = unshared(s, x + cards);
  Gecode::count(s, all.slice(0, 1, count), all.slice(count, 1, cards.size()), v + extra, l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_global_cardinality")
}

bb_status bb_post_global_cardinality_low_up(bb_space *sp, const int *vars, int count, const int *cover,
                                            const int *low, const int *up, int cover_count, bool closed,
                                            bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntArgs v = int_args(cover, cover_count, "cover");
  IntArgs lo = int_args(low, cover_count, "low"), hi = int_args(up, cover_count, "up");
  IntPropLevel l = ipl_of(ipl);
  bool too_many = false;
  IntArgs extra = closed ? IntArgs() : values_beyond(x, v, MAX_EXTRA_VALUES, too_many);
  for (int k = 0; k < v.size(); k++)
    if (lo[k] > hi[k] || hi[k] < 0 || lo[k] > count) { // no count can satisfy it
      s.fail();
      return BB_OK;
    }
  if (has_duplicates(v) || too_many) {
    for (int k = 0; k < v.size(); k++) {
      Gecode::count(s, x, v[k], IRT_GQ, lo[k], l);
      Gecode::count(s, x, v[k], IRT_LQ, hi[k], l);
    }
    if (closed) dom(s, x, value_set(v));
    return BB_OK;
  }
  IntSetArgs cards(v.size() + extra.size());
  for (int k = 0; k < v.size(); k++) cards[k] = IntSet(std::max(lo[k], 0), std::min(hi[k], count));
  for (int k = 0; k < extra.size(); k++) cards[v.size() + k] = IntSet(0, count);
  Gecode::count(s, unshared(s, x), cards, v + extra, l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_global_cardinality_low_up")
}

bb_status bb_post_count(bb_space *sp, const int *vars, int count, int y, bb_rel cmp, int c, bb_reif reif,
                        bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntVar value = int_var(s, y, "y"), n = int_var(s, c, "c");
  IntRelType r = int_rel(cmp, "rel");
  reif_arg ra = reif_of(s, reif);
  IntPropLevel l = ipl_of(ipl);
  if (ra.none) {
    Gecode::count(s, x, value, int_rel(swapped(cmp), "rel"), n, l); // c rel #  ==  # swapped(rel) c
  } else {
    IntVar occurrences(s, 0, count);
    Gecode::count(s, x, value, IRT_EQ, occurrences, l);
    rel(s, n, r, occurrences, ra.reify(), l);
  }
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_count")
}

bb_status bb_post_count_const(bb_space *sp, const int *vars, int count, int y, bb_rel cmp, int c, bb_reif reif,
                              bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  int_rel(cmp, "rel"); // validates before swapping
  IntRelType r = int_rel(swapped(cmp), "rel");
  reif_arg ra = reif_of(s, reif);
  IntPropLevel l = ipl_of(ipl);
  if (ra.none) {
    Gecode::count(s, x, y, r, c, l);
  } else {
    IntVar occurrences(s, 0, count);
    Gecode::count(s, x, y, IRT_EQ, occurrences, l);
    rel(s, occurrences, r, c, ra.reify(), l);
  }
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_count_const")
}

bb_status bb_post_at_most(bb_space *sp, int n, const int *vars, int count, int v, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  Gecode::count(s, x, v, IRT_LQ, n);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_at_most")
}

bb_status bb_post_at_least(bb_space *sp, int n, const int *vars, int count, int v, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  Gecode::count(s, x, v, IRT_GQ, n);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_at_least")
}

bb_status bb_post_exactly(bb_space *sp, int n, const int *vars, int count, int v, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  Gecode::count(s, x, v, IRT_EQ, n);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_exactly")
}

bb_status bb_post_among(bb_space *sp, int n, const int *vars, int count, const int *values, int value_count,
                        bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVar occurrences = int_var(s, n, "n");
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntSet set = int_set(values, value_count, "values");
  Gecode::count(s, x, set, IRT_EQ, occurrences);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_among")
}

bb_status bb_post_nvalue(bb_space *sp, int n, const int *vars, int count, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVar distinct_values = int_var(s, n, "n");
  IntVarArgs x = int_vars(s, vars, count, "vars");
  if (count == 0) rel(s, distinct_values, IRT_EQ, 0);
  else nvalues(s, x, IRT_EQ, distinct_values);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_nvalue")
}

bb_status bb_post_lex_int(bb_space *sp, const int *x, int x_count, const int *y, int y_count, bool strict,
                          bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs a = int_vars(s, x, x_count, "x"), b = int_vars(s, y, y_count, "y");
  rel(s, a, strict ? IRT_LE : IRT_LQ, b);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_lex_int")
}

bb_status bb_post_lex_bool(bb_space *sp, const int *x, int x_count, const int *y, int y_count, bool strict,
                           bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  BoolVarArgs a = bool_vars(s, x, x_count, "x"), b = bool_vars(s, y, y_count, "y");
  rel(s, a, strict ? IRT_LE : IRT_LQ, b);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_lex_bool")
}

bb_status bb_post_increasing_int(bb_space *sp, const int *vars, int count, bool decreasing, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  rel(s, x, decreasing ? IRT_GQ : IRT_LQ);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_increasing_int")
}

bb_status bb_post_increasing_bool(bb_space *sp, const int *bools, int count, bool decreasing, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  BoolVarArgs x = bool_vars(s, bools, count, "bools");
  rel(s, x, decreasing ? IRT_GQ : IRT_LQ);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_increasing_bool")
}

bb_status bb_post_sort(bb_space *sp, const int *x, const int *y, int count, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs a = int_vars(s, x, count, "x"), b = int_vars(s, y, count, "y");
  IntPropLevel l = ipl_of(ipl);
  if (count == 0) return BB_OK;
  IntVarArgs all = unshared(s, a + b);
  sorted(s, all.slice(0, 1, count), all.slice(count, 1, count), l);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_sort")
}

bb_status bb_post_member_int(bb_space *sp, const int *vars, int count, int y, bb_reif reif, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  IntVar e = int_var(s, y, "y");
  reif_arg ra = reif_of(s, reif);
  if (count == 0) post_truth(s, ra, false);
  else if (ra.none) member(s, x, e);
  else member(s, x, e, ra.reify());
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_member_int")
}

bb_status bb_post_member_bool(bb_space *sp, const int *bools, int count, int y, bb_reif reif, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  BoolVarArgs x = bool_vars(s, bools, count, "bools");
  BoolVar e = bool_var(s, y, "y");
  reif_arg ra = reif_of(s, reif);
  if (count == 0) post_truth(s, ra, false);
  else if (ra.none) member(s, x, e);
  else member(s, x, e, ra.reify());
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_member_bool")
}

bb_status bb_post_bin_packing_load(bb_space *sp, const int *load, int bins, int offset, const int *bin,
                                   const int *weights, int items, bb_ipl ipl, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs l = int_vars(s, load, bins, "load"), b = int_vars(s, bin, items, "bin");
  IntArgs w = int_args(weights, items, "weights");
  IntPropLevel level = ipl_of(ipl);
  for (int i = 0; i < items; i++)
    if (w[i] < 0) arg_fail("weights[%d]: negative weight %d", i, w[i]);
  if (bins == 0) {
    if (items > 0) s.fail(); // nowhere to put an item
    return BB_OK;
  }
  // Gecode numbers bins from 0: bin b of the model is Gecode bin b - offset.
  IntVarArgs b0(items);
  for (int i = 0; i < items; i++) b0[i] = zero_based(s, b[i], offset, bins);
  IntVarArgs l0 = l;
  if (pad_count(offset) == offset && offset > 0) { // zero_based kept b[i]: empty bins in front
    IntVarArgs pad(offset);
    for (int k = 0; k < offset; k++) pad[k] = IntVar(s, 0, 0);
    l0 = pad + l;
  }
  IntVarArgs all = unshared(s, l0 + b0);
  binpacking(s, all.slice(0, 1, l0.size()), all.slice(l0.size(), 1, items), w, level);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_bin_packing_load")
}

bb_status bb_post_value_precede(bb_space *sp, int s_value, int t_value, const int *vars, int count,
                                bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntVarArgs x = int_vars(s, vars, count, "vars");
  // "every t has an s before it": with s = t, the first s would need an earlier one.
  if (s_value == t_value) rel(s, x, IRT_NQ, s_value);
  else if (count > 0) precede(s, x, s_value, t_value);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_value_precede")
}

bb_status bb_post_value_precede_chain(bb_space *sp, const int *values, int value_count, const int *vars,
                                      int count, bb_error *err) {
  BB_SHIM_GUARD_BEGIN
  bb_space &s = space_of(sp);
  IntArgs c = int_args(values, value_count, "values");
  IntVarArgs x = int_vars(s, vars, count, "vars");
  std::set<int> distinct_values(c.begin(), c.end());
  if ((int)distinct_values.size() != value_count) arg_fail("values: a value occurs twice in the chain");
  if (count > 0 && value_count > 1) precede(s, x, c);
  return BB_OK;
  BB_SHIM_GUARD_END(err, "bb_post_value_precede_chain")
}

} // extern "C"
