// Boolean builtins: relations, connectives, clauses, pseudo-Boolean sums, bool2int, element.
#include "post_args.hh"

using namespace Gecode;
using namespace bb_shim;

namespace {

BoolOpType bool_op_type(c_enum<bb_bool_op> op) {
  switch (op.raw) {
    case BB_BOOL_AND: return BOT_AND;
    case BB_BOOL_OR: return BOT_OR;
    case BB_BOOL_XOR: return BOT_XOR;
    case BB_BOOL_IMP: return BOT_IMP;
    case BB_BOOL_EQV: return BOT_EQV;
  }
  arg_fail("unknown Boolean operator %d", op.raw);
}

int check_01(int v, const char *what) {
  if (v != 0 && v != 1) arg_fail("%s: %d is not a Boolean (0 or 1)", what, v);
  return v;
}

BoolVarArgs padded(bb_space &s, const BoolVarArgs &x, int offset) {
  int pad = pad_count(offset);
  BoolVarArgs a(pad + x.size());
  for (int i = 0; i < pad; i++) a[i] = BoolVar(s, 0, 0); // never selected: idx excludes them
  for (int i = 0; i < x.size(); i++) a[pad + i] = x[i];
  return a;
}

} // namespace

extern "C" {

bb_status bb_post_bool_rel(bb_space *sp, int a, bb_rel cmp, int b, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp), [&](bb_space &s, auto cmp) -> bb_status {
    BoolVar x = bool_var(s, a, "a"), y = bool_var(s, b, "b");
    IntRelType r = int_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    if (ra.none)
      rel(s, x, r, y);
    else
      rel(s, x, r, y, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_bool_rel_const(bb_space *sp, int a, bb_rel cmp, int c, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp), [&](bb_space &s, auto cmp) -> bb_status {
    BoolVar x = bool_var(s, a, "a");
    IntRelType r = int_rel(cmp, "rel");
    check_01(c, "c");
    reif_arg ra = reif_of(s, reif);
    if (ra.none)
      rel(s, x, r, c);
    else
      rel(s, x, r, c, ra.reify());
    return BB_OK;
  });
}

// Gecode reifies connectives only by equivalence; the half-reified forms, which MiniZinc
// emits for every _imp builtin, are posted as the clauses they stand for.
bb_status bb_post_bool_op(bb_space *sp, bb_bool_op op, int a, int b, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(op), [&](bb_space &s, auto op) -> bb_status {
    BoolOpType bot = bool_op_type(op);
    BoolVar x = bool_var(s, a, "a"), y = bool_var(s, b, "b");
    reif_arg ra = reif_of(s, reif);
    if (ra.none) {
      rel(s, x, bot, y, 1);
    } else if (ra.mode == BB_REIF_EQV) {
      rel(s, x, bot, y, ra.b);
    } else if (ra.mode == BB_REIF_IMP) { // r -> (x op y)
      switch (op.raw) {
        case BB_BOOL_AND:
          rel(s, ra.b, BOT_IMP, x, 1);
          rel(s, ra.b, BOT_IMP, y, 1);
          break;
        case BB_BOOL_OR: clause(s, BOT_OR, BoolVarArgs({x, y}), BoolVarArgs({ra.b}), 1); break;
        case BB_BOOL_IMP: clause(s, BOT_OR, BoolVarArgs({y}), BoolVarArgs({x, ra.b}), 1); break;
        case BB_BOOL_XOR: rel(s, x, IRT_NQ, y, ra.reify()); break;
        case BB_BOOL_EQV: rel(s, x, IRT_EQ, y, ra.reify()); break;
      }
    } else { // (x op y) -> r
      switch (op.raw) {
        case BB_BOOL_AND: clause(s, BOT_OR, BoolVarArgs({ra.b}), BoolVarArgs({x, y}), 1); break;
        case BB_BOOL_OR:
          rel(s, x, BOT_IMP, ra.b, 1);
          rel(s, y, BOT_IMP, ra.b, 1);
          break;
        case BB_BOOL_IMP: // (not x or y) -> r
          rel(s, x, BOT_OR, ra.b, 1);
          rel(s, y, BOT_IMP, ra.b, 1);
          break;
        case BB_BOOL_XOR: rel(s, x, IRT_NQ, y, ra.reify()); break;
        case BB_BOOL_EQV: rel(s, x, IRT_EQ, y, ra.reify()); break;
      }
    }
    return BB_OK;
  });
}

bb_status bb_post_bool_not(bb_space *sp, int a, int b, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    BoolVar x = bool_var(s, a, "a"), y = bool_var(s, b, "b");
    rel(s, x, IRT_NQ, y);
    return BB_OK;
  });
}

bb_status bb_post_array_bool_op(bb_space *sp, bb_bool_op op, const int *bools, int count, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(op), [&](bb_space &s, auto op) -> bb_status {
    int raw_op = op.raw;
    if (raw_op != BB_BOOL_AND && raw_op != BB_BOOL_OR && raw_op != BB_BOOL_XOR)
      arg_fail("operator %d: arrays take AND, OR or XOR", raw_op);
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    reif_arg ra = reif_of(s, reif);
    BoolOpType bot = bool_op_type(op);
    if (ra.none) {
      rel(s, bot, x, 1);
    } else if (ra.mode == BB_REIF_EQV) {
      rel(s, bot, x, ra.b);
    } else if (op.raw == BB_BOOL_AND && ra.mode == BB_REIF_IMP) { // r -> each x[i]
      for (int i = 0; i < x.size(); i++) rel(s, ra.b, BOT_IMP, x[i], 1);
    } else if (op.raw == BB_BOOL_AND) { // all x -> r
      clause(s, BOT_OR, BoolVarArgs({ra.b}), x, 1);
    } else if (op.raw == BB_BOOL_OR && ra.mode == BB_REIF_IMP) { // r -> some x[i]
      clause(s, BOT_OR, x, BoolVarArgs({ra.b}), 1);
    } else if (op.raw == BB_BOOL_OR) { // each x[i] -> r
      for (int i = 0; i < x.size(); i++) rel(s, x[i], BOT_IMP, ra.b, 1);
    } else { // parity has no clausal half-reification: reify a copy, then imply
      BoolVar t(s, 0, 1);
      rel(s, BOT_XOR, x, t);
      link_reif(s, ra, t);
    }
    return BB_OK;
  });
}

bb_status bb_post_bool_clause(bb_space *sp, const int *pos, int pos_count, const int *neg, int neg_count, bb_reif reif,
                              bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    BoolVarArgs p = bool_vars(s, pos, pos_count, "pos"), n = bool_vars(s, neg, neg_count, "neg");
    reif_arg ra = reif_of(s, reif);
    if (ra.none) {
      clause(s, BOT_OR, p, n, 1);
    } else if (ra.mode == BB_REIF_EQV) {
      clause(s, BOT_OR, p, n, ra.b);
    } else if (ra.mode == BB_REIF_IMP) { // not r or the clause
      clause(s, BOT_OR, p, n + BoolVarArgs({ra.b}), 1);
    } else { // every literal of the clause implies r
      for (int i = 0; i < p.size(); i++) rel(s, p[i], BOT_IMP, ra.b, 1);
      for (int i = 0; i < n.size(); i++) rel(s, n[i], BOT_OR, ra.b, 1);
    }
    return BB_OK;
  });
}

bb_status bb_post_bool_lin(bb_space *sp, const int *coeffs, const int *bools, int count, bb_rel cmp, int y,
                           bb_reif reif, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
    IntArgs a = int_args(coeffs, count, "coeffs");
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    IntVar rhs = int_var(s, y, "y");
    IntRelType r = int_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    IntPropLevel l = ipl_of(ipl);
    if (ra.none)
      linear(s, a, x, r, rhs, l);
    else
      linear(s, a, x, r, rhs, ra.reify(), l);
    return BB_OK;
  });
}

bb_status bb_post_bool_lin_const(bb_space *sp, const int *coeffs, const int *bools, int count, bb_rel cmp, int c,
                                 bb_reif reif, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
    IntArgs a = int_args(coeffs, count, "coeffs");
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    IntRelType r = int_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    IntPropLevel l = ipl_of(ipl);
    if (ra.none)
      linear(s, a, x, r, c, l);
    else
      linear(s, a, x, r, c, ra.reify(), l);
    return BB_OK;
  });
}

bb_status bb_post_bool2int(bb_space *sp, int b, int x, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    BoolVar from = bool_var(s, b, "b");
    IntVar to = int_var(s, x, "x");
    channel(s, from, to);
    return BB_OK;
  });
}

bb_status bb_post_array_bool_element(bb_space *sp, int idx, const int *vals, int count, int offset, int z,
                                     bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar index = int_var(s, idx, "idx");
    BoolVar value = bool_var(s, z, "z");
    check_count(vals, count, "vals");
    int pad = pad_count(offset);
    IntArgs a(pad + count);
    for (int i = 0; i < pad; i++) a[i] = 0;
    for (int i = 0; i < count; i++) a[pad + i] = check_01(vals[i], "vals");
    IntVar i0 = zero_based(s, index, offset, count);
    element(s, a, i0, value);
    return BB_OK;
  });
}

bb_status bb_post_array_var_bool_element(bb_space *sp, int idx, const int *bools, int count, int offset, int z,
                                         bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar index = int_var(s, idx, "idx");
    BoolVar value = bool_var(s, z, "z");
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    IntVar i0 = zero_based(s, index, offset, count);
    element(s, padded(s, x, offset), i0, value);
    return BB_OK;
  });
}

bb_status bb_post_array_var_bool_element2d(bb_space *sp, int row, int col, const int *bools, int rows, int cols,
                                           int row_offset, int col_offset, int z, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar r = int_var(s, row, "row"), c = int_var(s, col, "col");
    BoolVar value = bool_var(s, z, "z");
    int cells = checked_cells(rows, cols);
    BoolVarArgs a = bool_vars(s, bools, cells, "bools");
    IntVar r0 = zero_based_unpadded(s, r, row_offset, rows);
    IntVar c0 = zero_based_unpadded(s, c, col_offset, cols);
    // Gecode reads a[x + w*y] with x in 0..w-1: x is the column, y the row.
    if (cells > 0) element(s, a, c0, cols, r0, rows, value);
    return BB_OK;
  });
}

} // extern "C"
