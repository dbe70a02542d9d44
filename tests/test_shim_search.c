/* The shim's spaces, search and branchings (shim/space.cpp, search.cpp, branch*.cpp):
 * branch and bound optima, restarts, limits, threads, every branching selection, and
 * argument errors of every family. */
#include "shim_model.h"

/* ---- Search: optimisation, threads, restarts, limits ---------------------------------- */

/* x, y, z in 0..4: x + y + z <= 7, x != y, o = 3x + 2y - z. */
static int p_opt_model(const int *v) {
  return v[0] + v[1] + v[2] <= 7 && v[0] != v[1] && v[3] == 3 * v[0] + 2 * v[1] - v[2];
}
static model opt_model(void) {
  model m = m_new();
  int x = m_int(&m, 0, 4), y = m_int(&m, 0, 4), z = m_int(&m, 0, 4), o = m_int(&m, -20, 30);
  int c3[3] = {1, 1, 1}, v3[3] = {m.idx[x], m.idx[y], m.idx[z]};
  int c4[4] = {3, 2, -1, -1}, v4[4] = {m.idx[x], m.idx[y], m.idx[z], m.idx[o]};
  OK(bb_post_int_lin(m.s, c3, v3, 3, BB_LE, 7, bb_reif_none(), BB_IPL_DEF, NULL));
  OK(bb_post_int_rel(m.s, m.idx[x], BB_NE, m.idx[y], bb_reif_none(), BB_IPL_DEF, NULL));
  OK(bb_post_int_lin(m.s, c4, v4, 4, BB_EQ, 0, bb_reif_none(), BB_IPL_DEF, NULL));
  return m;
}

static void test_optimisation(void) {
  int best_max = INT_MIN, best_min = INT_MAX;
  for (int x = 0; x <= 4; x++)
    for (int y = 0; y <= 4; y++)
      for (int z = 0; z <= 4; z++) {
        int v[4] = {x, y, z, 3 * x + 2 * y - z};
        if (!p_opt_model(v)) continue;
        if (v[3] > best_max) best_max = v[3];
        if (v[3] < best_min) best_min = v[3];
      }
  for (int config = 0; config < 5; config++)
    for (int maximize = 0; maximize < 2; maximize++) {
      bb_search_options o;
      bb_search_options_init(&o);
      o.threads = config == 1 || config == 4 ? 2 : 1;
      o.restart = config == 2   ? BB_RESTART_LUBY
                  : config == 3 ? BB_RESTART_GEOMETRIC
                  : config == 4 ? BB_RESTART_CONSTANT
                                : BB_RESTART_NONE;
      o.restart_scale = 1;
      model m = opt_model();
      OK(bb_space_set_objective(m.s, maximize ? BB_MAXIMIZE : BB_MINIMIZE, m.idx[3], NULL));
      OK(bb_branch_int(m.s, m.idx, 3, BB_VAR_INPUT_ORDER, maximize ? BB_VAL_MIN : BB_VAL_MAX, NULL, NULL));
      bb_error err = {{0}};
      bb_search *search = bb_search_new(m.s, &o, &err);
      CHECKF(search != NULL, "bb_search_new: %s", err.msg);
      bb_space_free(m.s); /* the search works on its own clone */
      int last = 0, count = 0, monotone = 1, valid = 1;
      bb_space *sol;
      while (search && (sol = bb_search_next(search, &err))) {
        int v[4] = {bb_int_min(sol, 0), bb_int_min(sol, 1), bb_int_min(sol, 2), bb_int_min(sol, 3)};
        valid &= p_opt_model(v) && bb_int_assigned(sol, 3);
        if (count++ > 0) monotone &= maximize ? v[3] > last : v[3] < last;
        last = v[3];
        bb_space_free(sol);
      }
      CHECKF(count > 0 && valid && monotone && last == (maximize ? best_max : best_min),
             "BAB config %d maximize %d: %d solutions, last %d, optimum %d, valid %d monotone %d", config, maximize,
             count, last, maximize ? best_max : best_min, valid, monotone);
      CHECK(!bb_search_stopped(search));
      bb_search_statistics st;
      bb_search_stats(search, &st);
      CHECK(st.solutions == (uint64_t)count && st.nodes > 0);
      if (config >= 2) CHECKF(st.restarts > 0, "config %d: %llu restarts", config, (unsigned long long)st.restarts);
      bb_search_free(search);
    }
}

static int p_perm(const int *v) { return p_all_different(v) && v[0] < v[1]; }
static model perm_model(int n) {
  model m = m_new();
  int xs[8];
  for (int i = 0; i < n; i++) xs[i] = m.idx[m_int(&m, 0, n - 1)];
  OK(bb_post_all_different(m.s, xs, n, BB_IPL_DEF, NULL));
  OK(bb_post_int_rel(m.s, xs[0], BB_LT, xs[1], bb_reif_none(), BB_IPL_DEF, NULL));
  return m;
}

static void test_threads_restarts(void) {
  G.n = 5;
  for (int threads = 0; threads <= 4; threads += 2) {
    bb_search_options o;
    bb_search_options_init(&o);
    o.threads = threads;
    model m = perm_model(5);
    long bad, brute = brute_count(&m, p_perm), got = solve_count(&m, &o, p_perm, &bad);
    CHECKF(got == brute && bad == 0, "threads %d: %ld solutions, brute force %ld, %ld wrong", threads, got, brute, bad);
    bb_space_free(m.s);
  }
  /* Restarts without an objective: the first solution is a solution. */
  bb_search_options o;
  bb_search_options_init(&o);
  o.restart = BB_RESTART_LINEAR;
  o.restart_scale = 2;
  model m = perm_model(5);
  OK(bb_branch_int(m.s, m.idx, 5, BB_VAR_RANDOM, BB_VAL_RANDOM, &(bb_branch_options){7, 0}, NULL));
  bb_search *search = bb_search_new(m.s, &o, NULL);
  bb_space *sol = search ? bb_search_next(search, NULL) : NULL;
  int v[5], unassigned = 0;
  if (sol) read_solution(&m, sol, v, &unassigned);
  CHECK(sol != NULL && unassigned == 0 && p_perm(v));
  bb_space_free(sol);
  bb_search_free(search);
  bb_space_free(m.s);
}

static void test_limits(void) {
  for (int which = 0; which < 3; which++) {
    bb_search_options o;
    bb_search_options_init(&o);
    model m = m_new();
    int xs[12];
    if (which == 1) { /* pigeonhole: 7 pigeons, 6 holes, value consistency fails late */
      for (int i = 0; i < 7; i++) xs[i] = m.idx[m_int(&m, 0, 5)];
      OK(bb_post_all_different(m.s, xs, 7, BB_IPL_VAL, NULL));
      o.fail_limit = 20;
    } else { /* 10^12 solutions */
      for (int i = 0; i < 12; i++) xs[i] = m.idx[m_int(&m, 0, 9)];
      if (which == 0)
        o.node_limit = 50;
      else
        o.time_limit_ms = 100;
    }
    o.threads = which == 2 ? 2 : 1;
    OK(bb_branch_default(m.s, NULL));
    double t0 = bb_now();
    bb_search *search = bb_search_new(m.s, &o, NULL);
    long solutions = 0;
    bb_space *sol;
    while ((sol = bb_search_next(search, NULL))) {
      bb_space_free(sol);
      if (++solutions > 100000000) break;
    }
    double elapsed = bb_now() - t0;
    bb_search_statistics st;
    bb_search_stats(search, &st);
    CHECKF(bb_search_stopped(search), "limit %d: not stopped after %ld solutions", which, solutions);
    if (which == 0) CHECKF(st.nodes <= 60 && solutions > 0, "node limit: %llu nodes", (unsigned long long)st.nodes);
    if (which == 1) CHECKF(st.fails <= 22 && solutions == 0, "fail limit: %llu fails", (unsigned long long)st.fails);
    if (which == 2) CHECKF(elapsed < 5.0, "time limit: ran %.2f s", elapsed);
    CHECK(bb_search_next(search, NULL) == NULL); /* stays stopped */
    bb_search_free(search);
    bb_space_free(m.s);
  }
  /* A root that fails at once: no solution, not "stopped". */
  model m = m_new();
  int x = m_int(&m, 0, 3);
  OK(bb_post_int_rel_const(m.s, m.idx[x], BB_GT, 5, bb_reif_none(), BB_IPL_DEF, NULL));
  bb_search *search = bb_search_new(m.s, NULL, NULL);
  CHECK(search && bb_search_next(search, NULL) == NULL && !bb_search_stopped(search));
  bb_search_free(search);
  bb_space_free(m.s);
}

/* ---- Branchings: every selection finds every solution --------------------------------- */

static int p_branch_int(const int *v) { /* domains {0, 2, 3, 5} */
  for (int i = 0; i < 3; i++)
    if (v[i] == 1 || v[i] == 4) return 0;
  return p_all_different(v) && v[0] + v[1] >= v[2];
}
static int p_branch_bool(const int *v) { return (v[0] || v[1]) && (v[1] + v[2] + v[3]) % 2 == 1; }
static int p_branch_set(const int *v) { return v[0] != v[1] && (v[0] & v[1]) == 0; }

static void test_branchings(void) {
  const int domain[] = {5, 0, 3, 2};
  for (int var = BB_VAR_INPUT_ORDER; var <= BB_VAR_RANDOM; var++)
    for (int val = BB_VAL_MIN; val <= BB_VAL_OUT_MAX; val++) {
      bb_branch_options bo = {(unsigned)(var * 31 + val), var % 2 ? 0.9 : 0.0};
      G.n = 3;
      model m = m_new();
      for (int i = 0; i < 3; i++) m_add(&m, K_INT, bb_int_var_values(m.s, domain, 4, NULL), 0, 5, 0);
      OK(bb_post_all_different(m.s, m.idx, 3, BB_IPL_DEF, NULL));
      int c[3] = {1, 1, -1};
      OK(bb_post_int_lin(m.s, c, m.idx, 3, BB_GE, 0, bb_reif_none(), BB_IPL_DEF, NULL));
      OK(bb_branch_int(m.s, m.idx, 3, (bb_var_sel)var, (bb_val_sel)val, &bo, NULL));
      expect_model(&m, p_branch_int, "bb_branch_int", var * 100 + val);

      m = m_new();
      for (int i = 0; i < 4; i++) m_bool(&m);
      int pos[2] = {m.idx[0], m.idx[1]};
      OK(bb_post_bool_clause(m.s, pos, 2, NULL, 0, bb_reif_none(), NULL));
      OK(bb_post_array_bool_op(m.s, BB_BOOL_XOR, m.idx + 1, 3, bb_reif_none(), NULL));
      OK(bb_branch_bool(m.s, m.idx, 4, (bb_var_sel)var, (bb_val_sel)val, var % 3 ? &bo : NULL, NULL));
      expect_model(&m, p_branch_bool, "bb_branch_bool", var * 100 + val);

      m = m_new();
      m_set(&m, 0, 3), m_set(&m, 0, 3);
      OK(bb_post_set_rel(m.s, m.idx[0], BB_SET_DISJOINT, m.idx[1], bb_reif_none(), NULL));
      OK(bb_post_set_rel(m.s, m.idx[0], BB_SET_NE, m.idx[1], bb_reif_none(), NULL));
      bb_error err = {{0}};
      bb_status st = bb_branch_set(m.s, m.idx, 2, (bb_var_sel)var, (bb_val_sel)val, &bo, &err);
      int applies = var != BB_VAR_MAX_REGRET && val != BB_VAL_MIDDLE && val != BB_VAL_SPLIT &&
                    val != BB_VAL_REVERSE_SPLIT && val != BB_VAL_INTERVAL;
      CHECKF(applies ? st == BB_OK : st == BB_ERR_ARG && strstr(err.msg, "bb_branch_set"), "set %d/%d: %s", var, val,
             err.msg);
      expect_model(&m, p_branch_set, "bb_branch_set", var * 100 + val);
    }

  const char *var_names[] = {
      "input_order",      "first_fail",   "anti_first_fail", "smallest",        "largest",         "occurrence",
      "most_constrained", "max_regret",   "dom_w_deg",       "afc_min",         "afc_max",         "afc_size_min",
      "afc_size_max",     "action_min",   "action_max",      "action_size_min", "action_size_max", "chb_min",
      "chb_max",          "chb_size_min", "chb_size_max",    "random"};
  for (int i = 0; i <= BB_VAR_RANDOM; i++) {
    bb_var_sel sel = BB_VAR_INPUT_ORDER;
    CHECKF(bb_var_sel_parse(var_names[i], &sel) && sel == (bb_var_sel)i, "%s", var_names[i]);
  }
  const char *val_names[] = {"indomain_min",    "indomain_max",   "indomain_median",        "indomain_middle",
                             "indomain_random", "indomain_split", "indomain_reverse_split", "indomain_interval",
                             "outdomain_min",   "outdomain_max"};
  for (int i = 0; i <= BB_VAL_OUT_MAX; i++) {
    bb_val_sel sel = BB_VAL_MAX;
    CHECKF(bb_val_sel_parse(val_names[i], &sel) && sel == (bb_val_sel)i, "%s", val_names[i]);
  }
  bb_var_sel vs;
  bb_val_sel ws;
  CHECK(bb_var_sel_parse("activity_size_max", &vs) && vs == BB_VAR_ACTION_SIZE_MAX);
  CHECK(bb_val_sel_parse("indomain", &ws) && ws == BB_VAL_MIN);
  CHECK(!bb_var_sel_parse("fist_fail", &vs) && !bb_val_sel_parse("indomain_best", &ws));
  CHECK(!bb_var_sel_parse(NULL, &vs) && !bb_val_sel_parse("indomain_min", NULL));
}

/* ---- Spaces, variables, and errors ---------------------------------------------------- */

static void test_space(void) {
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  int values[] = {7, -2, 4, 4, 9};
  int x = bb_int_var_values(s, values, 5, &err), b = bb_bool_var(s, 1, 1, &err);
  int glb[] = {2}, lub[] = {1, 2, 5};
  int set = bb_set_var(s, glb, 1, lub, 3, 1, 2, &err);
  CHECK(x == 0 && b == 0 && set == 0);
  CHECK(bb_int_var_count(s) == 1 && bb_bool_var_count(s) == 1 && bb_set_var_count(s) == 1);
  bb_space_state state = BB_SPACE_FAILED;
  OK(bb_space_status(s, &state, &err));
  CHECK(state == BB_SPACE_SOLVED); /* Gecode: no brancher left to run */
  int out[8];
  CHECK(bb_int_min(s, x) == -2 && bb_int_max(s, x) == 9 && bb_int_size(s, x) == 4);
  CHECK(bb_int_values(s, x, out) == 4 && out[0] == -2 && out[1] == 4 && out[2] == 7 && out[3] == 9);
  CHECK(bb_int_in(s, x, 7) && !bb_int_in(s, x, 5) && !bb_int_assigned(s, x));
  CHECK(bb_bool_assigned(s, b) && bb_bool_min(s, b) == 1 && bb_bool_max(s, b) == 1);
  CHECK(bb_set_glb(s, set, out, 8) == 1 && out[0] == 2 && bb_set_lub(s, set, out, 8) == 3 && out[2] == 5);
  CHECK(bb_set_lub(s, set, out, 1) == 3 && !bb_set_assigned(s, set));
  bb_space *copy = bb_space_clone(s, &err);
  CHECK(copy && bb_int_size(copy, x) == 4);
  OK(bb_post_int_rel_const(copy, x, BB_GE, 8, bb_reif_none(), BB_IPL_DEF, &err));
  OK(bb_space_status(copy, &state, &err));
  CHECK(state == BB_SPACE_SOLVED && bb_int_assigned(copy, x) && bb_int_min(copy, x) == 9 && bb_int_size(s, x) == 4);
  OK(bb_branch_default(s, &err));
  OK(bb_space_status(s, &state, &err));
  CHECK(state == BB_SPACE_BRANCH);
  OK(bb_post_int_rel_const(copy, x, BB_LT, 0, bb_reif_none(), BB_IPL_DEF, &err));
  CHECK(bb_space_failed(copy) && !bb_space_failed(s));
  CHECK(bb_space_clone(copy, &err) == NULL && strstr(err.msg, "bb_space_clone"));
  bb_space_free(copy);
  bb_space_free(s);
  bb_space_free(NULL);
  bb_search_free(NULL);
}

/* An error must be BB_ERR_ARG, name the function and say something about the cause. */
#define EXPECT_ARG(call, fn, fragment)                                                                                \
  do {                                                                                                                \
    bb_status st_ = (call);                                                                                           \
    CHECKF(st_ == BB_ERR_ARG && strstr(err.msg, fn) && strstr(err.msg, fragment), "%s -> %d \"%s\"", #call, (int)st_, \
           err.msg);                                                                                                  \
    memset(&err, 0, sizeof err);                                                                                      \
  } while (0)

static void test_errors(void) {
  bb_error err = {{0}};
  model m = m_new();
  int x = m_int(&m, 0, 3), y = m_int(&m, 0, 3), b = m_bool(&m), S = m_set(&m, 0, 2);
  int X = m.idx[x], Y = m.idx[y], B = m.idx[b], SV = m.idx[S];
  int xs[2] = {X, Y}, bad[2] = {X, 99}, c2[2] = {1, 1};

  CHECK(bb_int_var(m.s, 3, 1, &err) == -1 && strstr(err.msg, "bb_int_var"));
  CHECK(bb_int_var(m.s, INT_MIN, INT_MAX, &err) == -1 && strstr(err.msg, "Gecode")); /* Gecode's exception */
  CHECK(bb_bool_var(m.s, 0, 2, &err) == -1 && strstr(err.msg, "bb_bool_var"));
  CHECK(bb_int_var_values(m.s, NULL, 0, &err) == -1 && strstr(err.msg, "bb_int_var_values"));
  int glb[] = {7}, lub[] = {1, 2};
  CHECK(bb_set_var(m.s, glb, 1, lub, 2, 0, 2, &err) == -1 && strstr(err.msg, "bb_set_var"));
  CHECK(bb_int_var(NULL, 0, 1, &err) == -1 && strstr(err.msg, "NULL"));
  CHECK(bb_int_var_count(m.s) == 2 && bb_bool_var_count(m.s) == 1 && bb_set_var_count(m.s) == 1);

  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, 99, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_rel", "99");
  EXPECT_ARG(bb_post_int_rel(m.s, X, (bb_rel)17, Y, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_rel", "relation");
  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, Y, bb_reif_eqv(42), BB_IPL_DEF, &err), "bb_post_int_rel", "42");
  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, Y, (bb_reif){B, (bb_reif_mode)9}, BB_IPL_DEF, &err), "bb_post_int_rel",
             "reification");
  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, Y, bb_reif_none(), (bb_ipl)9, &err), "bb_post_int_rel", "consistency");
  EXPECT_ARG(bb_post_int_rel(NULL, X, BB_EQ, Y, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_rel", "NULL");
  EXPECT_ARG(bb_post_int_lin(m.s, c2, bad, 2, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin",
             "vars[1]");
  EXPECT_ARG(bb_post_int_lin(m.s, NULL, xs, 2, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin", "NULL");
  EXPECT_ARG(bb_post_int_lin(m.s, c2, xs, -1, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin",
             "negative");
  int huge[2] = {INT_MAX, INT_MAX};
  EXPECT_ARG(bb_post_int_lin(m.s, huge, xs, 2, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin",
             "Gecode");
  EXPECT_ARG(bb_post_bool_op(m.s, BB_BOOL_AND, X, 5, bb_reif_none(), &err), "bb_post_bool_op", "bool variable 5");
  EXPECT_ARG(bb_post_bool_rel_const(m.s, B, BB_EQ, 2, bb_reif_none(), &err), "bb_post_bool_rel_const", "Boolean");
  EXPECT_ARG(bb_post_array_bool_op(m.s, BB_BOOL_IMP, &B, 1, bb_reif_none(), &err), "bb_post_array_bool_op", "AND");
  EXPECT_ARG(bb_post_set_rel(m.s, SV, (bb_set_rel)40, SV, bb_reif_none(), &err), "bb_post_set_rel", "relation");
  EXPECT_ARG(bb_post_set_card(m.s, 3, X, &err), "bb_post_set_card", "set variable 3");
  EXPECT_ARG(bb_search_relax_and_reconstruct(m.s, xs, 2, 101, NULL, 1, &err), "bb_search_relax_and_reconstruct",
             "101 is outside 0..100");
  EXPECT_ARG(bb_search_relax_and_reconstruct(m.s, bad, 2, 50, NULL, 1, &err), "bb_search_relax_and_reconstruct",
             "int variable 99");
  EXPECT_ARG(bb_search_relax_and_reconstruct(m.s, NULL, 2, 50, NULL, 1, &err), "bb_search_relax_and_reconstruct",
             "variable list");
  CHECK(bb_search_relax_and_reconstruct(m.s, xs, 2, 50, NULL, 1, &err) == BB_OK);
  EXPECT_ARG(bb_post_inverse(m.s, xs, 2, 0, xs, 1, 0, BB_IPL_DEF, &err), "bb_post_inverse", "differ");
  int tup[4] = {0, 1, 2, 0}, bools[2] = {B, B};
  EXPECT_ARG(bb_post_table_bool(m.s, bools, 2, tup, 2, true, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_table_bool",
             "Boolean");
  int trans[2] = {1, 1}, fin[1] = {1};
  EXPECT_ARG(bb_post_regular(m.s, xs, 2, 1, 2, trans, 3, fin, 1, &err), "bb_post_regular", "start state");
  trans[1] = 4;
  EXPECT_ARG(bb_post_regular(m.s, xs, 2, 1, 2, trans, 1, fin, 1, &err), "bb_post_regular", "transition");
  EXPECT_ARG(bb_post_array_int_maximum(m.s, X, xs, 0, BB_IPL_DEF, &err), "bb_post_array_int_maximum", "empty");
  int wide = bb_int_var(m.s, -600, 600, NULL);
  EXPECT_ARG(bb_post_int_pow(m.s, X, wide, Y, BB_IPL_DEF, &err), "bb_post_int_pow", "exponent");
  int w[2] = {1, -1};
  EXPECT_ARG(bb_post_bin_packing_load(m.s, xs, 1, 0, xs, w, 2, BB_IPL_DEF, &err), "bb_post_bin_packing_load",
             "negative");
  int dup[3] = {1, 2, 1};
  EXPECT_ARG(bb_post_value_precede_chain(m.s, dup, 3, xs, 2, &err), "bb_post_value_precede_chain", "twice");
  EXPECT_ARG(bb_space_set_objective(m.s, BB_MINIMIZE, 77, &err), "bb_space_set_objective", "77");
  EXPECT_ARG(bb_space_set_objective(m.s, (bb_objective_sense)5, X, &err), "bb_space_set_objective", "sense");
  EXPECT_ARG(bb_branch_int(m.s, xs, 2, (bb_var_sel)99, BB_VAL_MIN, NULL, &err), "bb_branch_int", "selection");
  EXPECT_ARG(bb_branch_bool(m.s, bad, 2, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err), "bb_branch_bool", "vars[1]");
  bb_search_options o;
  bb_search_options_init(&o);
  o.restart = (bb_restart_kind)12;
  CHECK(bb_search_new(m.s, &o, &err) == NULL && strstr(err.msg, "restart"));
  o.restart = BB_RESTART_NONE, o.threads = -3;
  CHECK(bb_search_new(m.s, &o, &err) == NULL && strstr(err.msg, "thread"));
  CHECK(bb_search_new(NULL, NULL, &err) == NULL && strstr(err.msg, "bb_search_new"));
  CHECK(bb_search_next(NULL, &err) == NULL && strstr(err.msg, "bb_search_next"));
  CHECK(bb_post_int_rel(m.s, X, BB_EQ, 99, bb_reif_none(), BB_IPL_DEF, NULL) == BB_ERR_ARG); /* err may be NULL */

  /* None of the rejected calls changed the model: x, y free, b free, S free, wide free. */
  long count = 0, bad_solutions = 0;
  G.n = 0;
  count = solve_count(&m, NULL, p_any, &bad_solutions);
  CHECKF(count == 4 * 4 * 2 * 4 * 1201L && bad_solutions == 0, "model after rejected calls: %ld solutions", count);
  bb_space_free(m.s);
}

int main(void) {
  test_space();
  test_optimisation();
  test_threads_restarts();
  test_limits();
  test_branchings();
  test_errors();
  return tu_finish();
}
