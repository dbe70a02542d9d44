// Scheduling and packing in space and time: cumulative, disjunctive, diffn. Gecode's
// native propagators where their meaning matches MiniZinc's, small decompositions where it
// differs (zero-length tasks in cumulative, zero-sized rectangles in diffn_nonstrict).
#include "post_args.hh"

#include <algorithm>

using namespace Gecode;
using namespace bb_shim;

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
    if (u < low1)
      low2 = low1, low1 = u;
    else if (u < low2)
      low2 = u;
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
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
  });
}

bb_status bb_post_cumulative_const(bb_space *sp, const int *starts, const int *durations, const int *usages, int count,
                                   int capacity, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
    if (count > 0 && capacity < 0)
      s.fail();
    else if (ts.size() > 0)
      cumulative(s, capacity, unshared(s, ts), td, tu, l);
    return BB_OK;
  });
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
bb_status bb_post_disjunctive(bb_space *sp, const int *starts, const int *durations, int count, bool strict, bb_ipl ipl,
                              bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
        if (dur[i].min() > 0 && dur[j].min() > 0) continue;   // both take time: unary
        if (dur[i].max() == 0 && dur[j].max() == 0) continue; // two instants never overlap
        BoolVar before(s, 0, 1), after(s, 0, 1);
        linear(s, IntArgs({1, 1, -1}), IntVarArgs({start[i], dur[i], start[j]}), IRT_LQ, 0, before);
        linear(s, IntArgs({1, 1, -1}), IntVarArgs({start[j], dur[j], start[i]}), IRT_LQ, 0, after);
        rel(s, before, BOT_OR, after, 1);
      }
    return BB_OK;
  });
}

// Gecode's nooverlap is diffn's strict reading; the non-strict one makes every rectangle
// optional, present iff it has a positive width and height.
bb_status bb_post_diffn(bb_space *sp, const int *x, const int *y, const int *dx, const int *dy, int count, bool strict,
                        bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
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
  });
}

} // extern "C"
