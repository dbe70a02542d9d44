// Extensional constraints: table (int and bool) and regular. The TupleSets of table rows
// are shared per space (bb_space::tuple_sets), so a model that posts one table many times
// holds it once.
#include "post_args.hh"

#include <algorithm>
#include <vector>

using namespace Gecode;
using namespace bb_shim;

namespace {

// The TupleSet of the rows, shared with every earlier table of the same rows (by content:
// MiniZinc writes one FlatZinc array per distinct table, but a caller may pass copies).
// Gecode's FlatZinc front end shares them the same way; without it, Challenge models that
// post a few big tables once per person (2017 groupsplitter) held a copy per constraint,
// several times the memory of the shared tables (docs/minizinc.md).
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
    if (e.arity == arity && (long long)e.tuples.size() == cells && std::equal(e.tuples.begin(), e.tuples.end(), tuples))
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
  if (ra.none)
    extensional(s, x, ts, positive, l);
  else
    extensional(s, x, ts, positive, ra.reify(), l);
}

} // namespace

extern "C" {

bb_status bb_post_table_int(bb_space *sp, const int *vars, int count, const int *tuples, int tuple_count, bool positive,
                            bb_reif reif, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    reif_arg ra = reif_of(s, reif);
    post_table(s, x, tuples, tuple_count, positive, ra, ipl_of(ipl), false);
    return BB_OK;
  });
}

bb_status bb_post_table_bool(bb_space *sp, const int *bools, int count, const int *tuples, int tuple_count,
                             bool positive, bb_reif reif, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    reif_arg ra = reif_of(s, reif);
    post_table(s, x, tuples, tuple_count, positive, ra, ipl_of(ipl), true);
    return BB_OK;
  });
}

bb_status bb_post_regular(bb_space *sp, const int *vars, int count, int Q, int S, const int *transition, int q0,
                          const int *finals, int final_count, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
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
  });
}

} // extern "C"
