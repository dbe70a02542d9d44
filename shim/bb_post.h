/* Posting constraints on a bb_space: one typed C entry point per family of FlatZinc
 * builtins (MiniZinc 2.6.4 std + Gecode's own mznlib natives).
 *
 * Conventions, shared by every poster:
 *  - `bb_status bb_post_xxx(bb_space *s, ..., bb_error *err)`; BB_OK, or BB_ERR_ARG with a
 *    message naming the function and the problem (bad variable index, mismatched lengths,
 *    a value Gecode cannot represent), or BB_ERR_NOMEM. Arguments are validated before
 *    anything is posted, so a rejected call leaves the space unchanged.
 *  - A constraint that is unsatisfiable is not an error: it fails the space, which
 *    bb_space_status / search then report.
 *  - Variables are indexes returned by bb_int_var / bb_bool_var / bb_set_var. Arrays are
 *    (const int *vars, int count); constant arrays are (const int *vals, int count).
 *  - Indexes into model arrays (element, inverse, circuit, argmin, bin_packing_load) take
 *    an explicit `offset`: the model index of the array's first entry (1 for FlatZinc
 *    arrays, which are 1-based).
 *  - `bb_reif` attaches a Boolean variable b: EQV posts b <-> c (FlatZinc `_reif`), IMP
 *    b -> c (FlatZinc `_imp`), PMI b <- c; NONE posts c itself.
 *  - `bb_ipl` is the consistency level (FlatZinc ::domain -> DOM, ::bounds -> BND); Gecode
 *    uses it where it implements more than one, and ignores it elsewhere.
 *  - Posters may create auxiliary Gecode variables that are not visible from C; each is
 *    functionally defined by the posted variables, so branching on the visible variables
 *    is enough.
 *
 * Float variables and the float builtins have their own header, bb_float.h. */
#ifndef BB_POST_H
#define BB_POST_H

#include "bb_shim.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_rel { BB_EQ = 0, BB_NE = 1, BB_LE = 2, BB_LT = 3, BB_GE = 4, BB_GT = 5 } bb_rel;

typedef enum bb_reif_mode {
  BB_REIF_NONE = 0, /* post the constraint c itself; bool_var is ignored */
  BB_REIF_EQV = 1,  /* b <-> c */
  BB_REIF_IMP = 2,  /* b -> c */
  BB_REIF_PMI = 3   /* b <- c */
} bb_reif_mode;

typedef struct bb_reif {
  int bool_var; /* a Boolean variable index (unused for BB_REIF_NONE) */
  bb_reif_mode mode;
} bb_reif;

static inline bb_reif bb_reif_none(void) {
  bb_reif r = {-1, BB_REIF_NONE};
  return r;
}
static inline bb_reif bb_reif_eqv(int b) {
  bb_reif r = {b, BB_REIF_EQV};
  return r;
}
static inline bb_reif bb_reif_imp(int b) {
  bb_reif r = {b, BB_REIF_IMP};
  return r;
}
static inline bb_reif bb_reif_pmi(int b) {
  bb_reif r = {b, BB_REIF_PMI};
  return r;
}

typedef enum bb_ipl { BB_IPL_DEF = 0, BB_IPL_VAL = 1, BB_IPL_BND = 2, BB_IPL_DOM = 3 } bb_ipl;

/* ---- Integers (post_int.cpp) ------------------------------------------------------- */

/* int_eq/ne/le/lt (+_reif/_imp; ge/gt too): x rel y, and x rel c. */
bb_status bb_post_int_rel(bb_space *s, int x, bb_rel rel, int y, bb_reif reif, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_rel_const(bb_space *s, int x, bb_rel rel, int c, bb_reif reif, bb_ipl ipl, bb_error *err);
/* int_lin_eq/ne/le/... (+_reif/_imp): sum coeffs[i]*vars[i] rel c (or rel the variable y). */
bb_status bb_post_int_lin(bb_space *s, const int *coeffs, const int *vars, int count, bb_rel rel, int c, bb_reif reif,
                          bb_ipl ipl, bb_error *err);
bb_status bb_post_int_lin_var(bb_space *s, const int *coeffs, const int *vars, int count, bb_rel rel, int y,
                              bb_reif reif, bb_ipl ipl, bb_error *err);
/* set_in(var int, set of int) (+_reif/_imp): x in S, S given by its values (any order,
 * duplicates allowed) or as `range_count` closed ranges [bounds[2k], bounds[2k+1]]. */
bb_status bb_post_int_in_set(bb_space *s, int x, const int *values, int count, bb_reif reif, bb_error *err);
bb_status bb_post_int_in_ranges(bb_space *s, int x, const int *bounds, int range_count, bb_reif reif, bb_error *err);

/* Arithmetic, z the result: int_plus x+y=z, int_minus x-y=z, int_times x*y=z, int_div
 * x/y=z and int_mod x%y=z (both truncate towards zero, y != 0, as MiniZinc), int_abs
 * |x|=z, int_negate -x=z, int_min/int_max. */
bb_status bb_post_int_plus(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_minus(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_times(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_div(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_mod(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_abs(bb_space *s, int x, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_negate(bb_space *s, int x, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_min(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_max(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
/* int_pow: x^y = z; for y < 0, z = 1 div x^|y| (undefined, so false, for x = 0), as
 * MiniZinc defines it. _const takes a fixed exponent (int_pow_fixed, gecode_int_pow). */
bb_status bb_post_int_pow(bb_space *s, int x, int y, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_pow_const(bb_space *s, int x, int exponent, int z, bb_ipl ipl, bb_error *err);

/* array_int_element / array_var_int_element: array[idx - offset] = z (idx is restricted
 * to offset..offset+count-1). The 2d forms (array_*_element2d_nonshifted) read a
 * row-major rows x cols array at [row - row_offset][col - col_offset]. */
bb_status bb_post_array_int_element(bb_space *s, int idx, const int *vals, int count, int offset, int z, bb_ipl ipl,
                                    bb_error *err);
bb_status bb_post_array_var_int_element(bb_space *s, int idx, const int *vars, int count, int offset, int z, bb_ipl ipl,
                                        bb_error *err);
bb_status bb_post_array_int_element2d(bb_space *s, int row, int col, const int *vals, int rows, int cols,
                                      int row_offset, int col_offset, int z, bb_ipl ipl, bb_error *err);
bb_status bb_post_array_var_int_element2d(bb_space *s, int row, int col, const int *vars, int rows, int cols,
                                          int row_offset, int col_offset, int z, bb_ipl ipl, bb_error *err);
/* array_int_maximum / array_int_minimum: m = max / min of vars (count >= 1). */
bb_status bb_post_array_int_maximum(bb_space *s, int m, const int *vars, int count, bb_ipl ipl, bb_error *err);
bb_status bb_post_array_int_minimum(bb_space *s, int m, const int *vars, int count, bb_ipl ipl, bb_error *err);
/* arg_max / arg_min (int and bool arrays): idx = offset + the first position of a
 * maximum / minimum (MiniZinc's tie break: the smallest index). count >= 1. */
bb_status bb_post_int_argmax(bb_space *s, const int *vars, int count, int offset, int idx, bb_ipl ipl, bb_error *err);
bb_status bb_post_int_argmin(bb_space *s, const int *vars, int count, int offset, int idx, bb_ipl ipl, bb_error *err);
bb_status bb_post_bool_argmax(bb_space *s, const int *bools, int count, int offset, int idx, bb_ipl ipl, bb_error *err);
bb_status bb_post_bool_argmin(bb_space *s, const int *bools, int count, int offset, int idx, bb_ipl ipl, bb_error *err);

/* ---- Booleans (post_bool.cpp) ------------------------------------------------------ */

/* bool_eq/ne/le/lt (+_reif/_imp; ge/gt too), with 0 < 1: a rel b, and a rel c (c 0/1). */
bb_status bb_post_bool_rel(bb_space *s, int a, bb_rel rel, int b, bb_reif reif, bb_error *err);
bb_status bb_post_bool_rel_const(bb_space *s, int a, bb_rel rel, int c, bb_reif reif, bb_error *err);

typedef enum bb_bool_op {
  BB_BOOL_AND = 0,
  BB_BOOL_OR = 1,
  BB_BOOL_XOR = 2,
  BB_BOOL_IMP = 3, /* a -> b */
  BB_BOOL_EQV = 4  /* a <-> b */
} bb_bool_op;
/* The formula (a op b), reified by `reif`: bool_and(a,b,r) is (AND, a, b, eqv(r)),
 * bool_and_imp(a,b,r) is imp(r), bool_xor(a,b) is (XOR, a, b, none). */
bb_status bb_post_bool_op(bb_space *s, bb_bool_op op, int a, int b, bb_reif reif, bb_error *err);
/* bool_not: b = not a. */
bb_status bb_post_bool_not(bb_space *s, int a, int b, bb_error *err);
/* array_bool_and/or/xor (+_imp): the formula op(bools), op one of AND, OR, XOR (XOR: an
 * odd number are true; the empty AND is true, the empty OR and XOR false). */
bb_status bb_post_array_bool_op(bb_space *s, bb_bool_op op, const int *bools, int count, bb_reif reif, bb_error *err);
/* bool_clause (+_reif/_imp): (pos[0] or ... or not neg[0] or ...). */
bb_status bb_post_bool_clause(bb_space *s, const int *pos, int pos_count, const int *neg, int neg_count, bb_reif reif,
                              bb_error *err);
/* bool_lin_eq/le/... (+_reif/_imp): sum coeffs[i]*bools[i] rel y (an int variable), or
 * rel the constant c. */
bb_status bb_post_bool_lin(bb_space *s, const int *coeffs, const int *bools, int count, bb_rel rel, int y, bb_reif reif,
                           bb_ipl ipl, bb_error *err);
bb_status bb_post_bool_lin_const(bb_space *s, const int *coeffs, const int *bools, int count, bb_rel rel, int c,
                                 bb_reif reif, bb_ipl ipl, bb_error *err);
/* bool2int: x = b (x an int variable). */
bb_status bb_post_bool2int(bb_space *s, int b, int x, bb_error *err);
/* array_bool_element / array_var_bool_element (vals are 0/1), as the int forms. */
bb_status bb_post_array_bool_element(bb_space *s, int idx, const int *vals, int count, int offset, int z,
                                     bb_error *err);
bb_status bb_post_array_var_bool_element(bb_space *s, int idx, const int *bools, int count, int offset, int z,
                                         bb_error *err);
bb_status bb_post_array_var_bool_element2d(bb_space *s, int row, int col, const int *bools, int rows, int cols,
                                           int row_offset, int col_offset, int z, bb_error *err);

/* ---- Sets (post_set.cpp) ----------------------------------------------------------- */

/* set_in (+_reif/_imp): the int variable x is an element of the set variable S. */
bb_status bb_post_set_in(bb_space *s, int x, int set, bb_reif reif, bb_error *err);
/* set_card: |set| = x. */
bb_status bb_post_set_card(bb_space *s, int set, int x, bb_error *err);

typedef enum bb_set_op { BB_SET_UNION = 0, BB_SET_INTERSECT = 1, BB_SET_DIFF = 2, BB_SET_SYMDIFF = 3 } bb_set_op;
/* set_union/intersect/diff/symdiff: z = x op y. */
bb_status bb_post_set_op(bb_space *s, int x, bb_set_op op, int y, int z, bb_error *err);

typedef enum bb_set_rel {
  BB_SET_EQ = 0,
  BB_SET_NE = 1,
  BB_SET_SUBSET = 2,   /* x is a subset of y (not necessarily strict) */
  BB_SET_SUPERSET = 3, /* x is a superset of y */
  BB_SET_LE = 4,       /* MiniZinc's set order: lexicographic on the sorted element lists */
  BB_SET_LT = 5,
  BB_SET_DISJOINT = 6
} bb_set_rel;
/* set_eq/ne/subset/superset/le/lt (+_reif/_imp), disjoint: x rel y. LE/LT are not
 * Gecode's set order (there {3} < {2,3}); they are decomposed over the union of the upper
 * bounds, O(|lub x| + |lub y|) auxiliary Booleans. */
bb_status bb_post_set_rel(bb_space *s, int x, bb_set_rel rel, int y, bb_reif reif, bb_error *err);
/* array_set_element: a constant array of `count` sets, set k holding sizes[k] values,
 * all concatenated in `values`; z = array[idx - offset]. */
bb_status bb_post_array_set_element(bb_space *s, int idx, const int *values, const int *sizes, int count, int offset,
                                    int z, bb_error *err);
/* array_var_set_element: z = sets[idx - offset]. */
bb_status bb_post_array_var_set_element(bb_space *s, int idx, const int *sets, int count, int offset, int z,
                                        bb_error *err);

/* ---- Global constraints (post_global.cpp) ------------------------------------------ */

/* all_different_int (IPL_DOM: domain consistent, BND: bounds, DEF/VAL: value). */
bb_status bb_post_all_different(bb_space *s, const int *vars, int count, bb_ipl ipl, bb_error *err);
/* all_equal_int. */
bb_status bb_post_all_equal(bb_space *s, const int *vars, int count, bb_error *err);
/* circuit: vars[i] = offset + j means node i is followed by node j, one Hamiltonian cycle
 * (as MiniZinc's definition forbids vars[i] = offset + i, a single node has no circuit). */
bb_status bb_post_circuit(bb_space *s, const int *vars, int count, int offset, bb_ipl ipl, bb_error *err);
/* subcircuit: the nodes with vars[i] != offset + i form one cycle (or none); Gecode 6.2
 * has no propagator for it, so this posts a decomposition (all_different + positions). */
bb_status bb_post_subcircuit(bb_space *s, const int *vars, int count, int offset, bb_ipl ipl, bb_error *err);
/* ---- Scheduling: cumulative, disjunctive, diffn (post_scheduling.cpp) ------------- */

/* cumulative: tasks with start s[i], duration d[i] >= 0, resource use r[i] >= 0 never use
 * more than capacity b at any time; tasks of zero duration or use are ignored, and b >= 0
 * whenever there is a task (MiniZinc's reading). The var form takes variables (it posts
 * d, r >= 0; fixed ones are detected and get Gecode's stronger propagator); the _const
 * form has fixed durations, uses and capacity (negative durations or uses: BB_ERR_ARG). */
bb_status bb_post_cumulative(bb_space *s, const int *starts, const int *durations, const int *usages, int count,
                             int capacity, bb_ipl ipl, bb_error *err);
bb_status bb_post_cumulative_const(bb_space *s, const int *starts, const int *durations, const int *usages, int count,
                                   int capacity, bb_ipl ipl, bb_error *err);
/* disjunctive (strict = false: tasks of zero duration may run anywhere) and
 * disjunctive_strict (a zero-duration task must not lie strictly inside another task):
 * tasks with start s[i] and duration d[i] never overlap; durations are constrained to be
 * >= 0. Gecode's unary propagator, optional where a duration may be zero. */
bb_status bb_post_disjunctive(bb_space *s, const int *starts, const int *durations, int count, bool strict, bb_ipl ipl,
                              bb_error *err);
/* diffn (strict: zero-sized rectangles must not lie inside others) and diffn_nonstrict
 * (zero-sized rectangles are ignored): rectangle i at (x[i], y[i]) of size dx[i] x dy[i].
 * Sizes are constrained to be >= 0. */
bb_status bb_post_diffn(bb_space *s, const int *x, const int *y, const int *dx, const int *dy, int count, bool strict,
                        bb_error *err);
/* ---- Extensional: table, regular (post_table.cpp) ----------------------------------- */

/* table_int / table_bool (+_reif/_imp): the tuple of vars is (positive) / is not
 * (positive = false) one of the `tuple_count` rows of the row-major `tuples`
 * (tuple_count x count values). */
bb_status bb_post_table_int(bb_space *s, const int *vars, int count, const int *tuples, int tuple_count, bool positive,
                            bb_reif reif, bb_ipl ipl, bb_error *err);
bb_status bb_post_table_bool(bb_space *s, const int *bools, int count, const int *tuples, int tuple_count,
                             bool positive, bb_reif reif, bb_ipl ipl, bb_error *err);
/* regular (MiniZinc form): a DFA with states 1..Q, symbols 1..S, transition[(q-1)*S + (a-1)]
 * the state after reading a in q (0: reject), start q0, accepting states `finals`. */
bb_status bb_post_regular(bb_space *s, const int *vars, int count, int Q, int S, const int *transition, int q0,
                          const int *finals, int final_count, bb_error *err);
/* ---- Global constraints, continued (post_global.cpp) --------------------------------- */

/* inverse: f[i] - f_offset = j  <->  invf[j] - invf_offset = i (equal lengths). For
 * MiniZinc's inverse(f, invf): f_offset = min(index_set(invf)), invf_offset = min(index_set(f)). */
bb_status bb_post_inverse(bb_space *s, const int *f, int f_count, int f_offset, const int *invf, int invf_count,
                          int invf_offset, bb_ipl ipl, bb_error *err);
/* global_cardinality: counts[k] = #{i | vars[i] = cover[k]}; closed: every vars[i] is in
 * cover. _low_up: low[k] <= #{...} <= up[k]. Gecode's counting propagator is used unless a
 * cover value repeats or an open constraint leaves more than 256 uncovered values (then
 * one count per value). */
bb_status bb_post_global_cardinality(bb_space *s, const int *vars, int count, const int *cover, const int *counts,
                                     int cover_count, bool closed, bb_ipl ipl, bb_error *err);
bb_status bb_post_global_cardinality_low_up(bb_space *s, const int *vars, int count, const int *cover, const int *low,
                                            const int *up, int cover_count, bool closed, bb_ipl ipl, bb_error *err);
/* count_eq/ne/lt/le/gt/ge (+_reif/_imp), exactly as MiniZinc reads them:
 * c rel #{i | vars[i] = y}. So count_geq(x, y, c), "c >= count", is rel = BB_GE.
 * _const: y and c are constants. */
bb_status bb_post_count(bb_space *s, const int *vars, int count, int y, bb_rel rel, int c, bb_reif reif, bb_ipl ipl,
                        bb_error *err);
bb_status bb_post_count_const(bb_space *s, const int *vars, int count, int y, bb_rel rel, int c, bb_reif reif,
                              bb_ipl ipl, bb_error *err);
/* at_most(n, x, v): #{x[i] = v} <= n; at_least: >= n; exactly: = n. */
bb_status bb_post_at_most(bb_space *s, int n, const int *vars, int count, int v, bb_error *err);
bb_status bb_post_at_least(bb_space *s, int n, const int *vars, int count, int v, bb_error *err);
bb_status bb_post_exactly(bb_space *s, int n, const int *vars, int count, int v, bb_error *err);
/* among(n, x, S): n = #{i | x[i] in S} (S given by its values). */
bb_status bb_post_among(bb_space *s, int n, const int *vars, int count, const int *values, int value_count,
                        bb_error *err);
/* nvalue(n, x): n = number of distinct values in x. */
bb_status bb_post_nvalue(bb_space *s, int n, const int *vars, int count, bb_error *err);
/* lex_less / lex_lesseq (int and bool arrays, lengths may differ): x < y (strict) or
 * x <= y in the lexicographic order, a proper prefix being smaller. */
bb_status bb_post_lex_int(bb_space *s, const int *x, int x_count, const int *y, int y_count, bool strict,
                          bb_error *err);
bb_status bb_post_lex_bool(bb_space *s, const int *x, int x_count, const int *y, int y_count, bool strict,
                           bb_error *err);
/* increasing / decreasing (int and bool arrays): non-strict order of consecutive entries. */
bb_status bb_post_increasing_int(bb_space *s, const int *vars, int count, bool decreasing, bb_error *err);
bb_status bb_post_increasing_bool(bb_space *s, const int *bools, int count, bool decreasing, bb_error *err);
/* sort(x, y): y is x sorted ascending (equal lengths). */
bb_status bb_post_sort(bb_space *s, const int *x, const int *y, int count, bb_ipl ipl, bb_error *err);
/* member_int / member_bool (+_reif/_imp): y occurs in x. */
bb_status bb_post_member_int(bb_space *s, const int *vars, int count, int y, bb_reif reif, bb_error *err);
bb_status bb_post_member_bool(bb_space *s, const int *bools, int count, int y, bb_reif reif, bb_error *err);
/* bin_packing_load: item i (weight w[i] >= 0) goes to bin bin[i] in offset..offset+bins-1
 * and load[b - offset] is the total weight in bin b. */
bb_status bb_post_bin_packing_load(bb_space *s, const int *load, int bins, int offset, const int *bin,
                                   const int *weights, int items, bb_ipl ipl, bb_error *err);
/* value_precede_int(s, t, x): every t in x has an s before it (so s = t means s does not
 * occur, as in MiniZinc's definition). value_precede_chain_int(c, x): c[k] precedes
 * c[k+1] for all k; the values of c must be distinct (else BB_ERR_ARG). */
bb_status bb_post_value_precede(bb_space *s, int s_value, int t_value, const int *vars, int count, bb_error *err);
bb_status bb_post_value_precede_chain(bb_space *s, const int *values, int value_count, const int *vars, int count,
                                      bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
