// Global constraints other than scheduling (post_scheduling.cpp) and tables (post_table.cpp):
// Gecode's native propagators where their meaning matches MiniZinc's, small decompositions
// where Gecode has none (subcircuit).
#include "post_args.hh"

#include <algorithm>
#include <set>
#include <vector>

using namespace Gecode;
using namespace bb_shim;

extern "C" {

bb_status bb_post_all_different(bb_space *sp, const int *vars, int count, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntPropLevel l = ipl_of(ipl);
    if (count > 1) distinct(s, unshared(s, x), l);
    return BB_OK;
  });
}

bb_status bb_post_all_equal(bb_space *sp, const int *vars, int count, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    if (count > 1) rel(s, x, IRT_EQ);
    return BB_OK;
  });
}

bb_status bb_post_circuit(bb_space *sp, const int *vars, int count, int offset, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntPropLevel l = ipl_of(ipl);
    if (count == 1)
      s.fail(); // MiniZinc's circuit forbids x[i] = i, even for one node
    else if (count > 1)
      circuit(s, offset, unshared(s, x), l);
    return BB_OK;
  });
}

// Decomposition, in terms of 0-based nodes (value offset + j is node j):
//  - x is a permutation; node i is "in" iff x[i] != i;
//  - root is the smallest in-node (count when there is none);
//  - pos numbers the cycle through root from 0 at root, stepping by one along every
//    edge except the one back into root; out-nodes have pos 0.
// A second cycle of in-nodes would need pos to grow around it forever, so it fails; and
// every auxiliary variable is determined by x, so solutions map one-to-one.
bb_status bb_post_subcircuit(bb_space *sp, const int *vars, int count, int offset, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
    IntVarArgs pos_by_value = pos;                   // indexed like zero_based's result: padded for small offsets
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
  });
}

bb_status bb_post_inverse(bb_space *sp, const int *f, int f_count, int f_offset, const int *invf, int invf_count,
                          int invf_offset, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
  });
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

bb_status bb_post_global_cardinality(bb_space *sp, const int *vars, int count, const int *cover, const int *counts,
                                     int cover_count, bool closed, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
  });
}

bb_status bb_post_global_cardinality_low_up(bb_space *sp, const int *vars, int count, const int *cover, const int *low,
                                            const int *up, int cover_count, bool closed, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
  });
}

bb_status bb_post_count(bb_space *sp, const int *vars, int count, int y, bb_rel cmp, int c, bb_reif reif, bb_ipl ipl,
                        bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
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
  });
}

bb_status bb_post_count_const(bb_space *sp, const int *vars, int count, int y, bb_rel cmp, int c, bb_reif reif,
                              bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
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
  });
}

bb_status bb_post_at_most(bb_space *sp, int n, const int *vars, int count, int v, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    Gecode::count(s, x, v, IRT_LQ, n);
    return BB_OK;
  });
}

bb_status bb_post_at_least(bb_space *sp, int n, const int *vars, int count, int v, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    Gecode::count(s, x, v, IRT_GQ, n);
    return BB_OK;
  });
}

bb_status bb_post_exactly(bb_space *sp, int n, const int *vars, int count, int v, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    Gecode::count(s, x, v, IRT_EQ, n);
    return BB_OK;
  });
}

bb_status bb_post_among(bb_space *sp, int n, const int *vars, int count, const int *values, int value_count,
                        bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar occurrences = int_var(s, n, "n");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntSet set = int_set(values, value_count, "values");
    Gecode::count(s, x, set, IRT_EQ, occurrences);
    return BB_OK;
  });
}

bb_status bb_post_nvalue(bb_space *sp, int n, const int *vars, int count, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar distinct_values = int_var(s, n, "n");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    if (count == 0)
      rel(s, distinct_values, IRT_EQ, 0);
    else
      nvalues(s, x, IRT_EQ, distinct_values);
    return BB_OK;
  });
}

bb_status bb_post_lex_int(bb_space *sp, const int *x, int x_count, const int *y, int y_count, bool strict,
                          bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs a = int_vars(s, x, x_count, "x"), b = int_vars(s, y, y_count, "y");
    rel(s, a, strict ? IRT_LE : IRT_LQ, b);
    return BB_OK;
  });
}

bb_status bb_post_lex_bool(bb_space *sp, const int *x, int x_count, const int *y, int y_count, bool strict,
                           bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    BoolVarArgs a = bool_vars(s, x, x_count, "x"), b = bool_vars(s, y, y_count, "y");
    rel(s, a, strict ? IRT_LE : IRT_LQ, b);
    return BB_OK;
  });
}

bb_status bb_post_increasing_int(bb_space *sp, const int *vars, int count, bool decreasing, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    rel(s, x, decreasing ? IRT_GQ : IRT_LQ);
    return BB_OK;
  });
}

bb_status bb_post_increasing_bool(bb_space *sp, const int *bools, int count, bool decreasing, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    rel(s, x, decreasing ? IRT_GQ : IRT_LQ);
    return BB_OK;
  });
}

bb_status bb_post_sort(bb_space *sp, const int *x, const int *y, int count, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs a = int_vars(s, x, count, "x"), b = int_vars(s, y, count, "y");
    IntPropLevel l = ipl_of(ipl);
    if (count == 0) return BB_OK;
    IntVarArgs all = unshared(s, a + b);
    sorted(s, all.slice(0, 1, count), all.slice(count, 1, count), l);
    return BB_OK;
  });
}

bb_status bb_post_member_int(bb_space *sp, const int *vars, int count, int y, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntVar e = int_var(s, y, "y");
    reif_arg ra = reif_of(s, reif);
    if (count == 0)
      post_truth(s, ra, false);
    else if (ra.none)
      member(s, x, e);
    else
      member(s, x, e, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_member_bool(bb_space *sp, const int *bools, int count, int y, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    BoolVar e = bool_var(s, y, "y");
    reif_arg ra = reif_of(s, reif);
    if (count == 0)
      post_truth(s, ra, false);
    else if (ra.none)
      member(s, x, e);
    else
      member(s, x, e, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_bin_packing_load(bb_space *sp, const int *load, int bins, int offset, const int *bin,
                                   const int *weights, int items, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
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
  });
}

bb_status bb_post_value_precede(bb_space *sp, int s_value, int t_value, const int *vars, int count, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    // "every t has an s before it": with s = t, the first s would need an earlier one.
    if (s_value == t_value)
      rel(s, x, IRT_NQ, s_value);
    else if (count > 0)
      precede(s, x, s_value, t_value);
    return BB_OK;
  });
}

bb_status bb_post_value_precede_chain(bb_space *sp, const int *values, int value_count, const int *vars, int count,
                                      bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntArgs c = int_args(values, value_count, "values");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    std::set<int> distinct_values(c.begin(), c.end());
    if ((int)distinct_values.size() != value_count) arg_fail("values: a value occurs twice in the chain");
    if (count > 0 && value_count > 1) precede(s, x, c);
    return BB_OK;
  });
}

} // extern "C"
