/* Hospitals/Residents propagated natively (propagator/smc/hr, shim/hr_propagator.cpp) inside
 * Gecode, through the shim's C API, against brute force written from the definition
 * (tests/harness/bth_hr.h):
 *   - random small instances (one-sided entries, empty lists, capacity 0, extra post columns)
 *     with random side constraints on residents and posts (a value forbidden, a value forced,
 *     a bound on the residents' rank sum), both bases, both list forms (matrices and CSR),
 *     several branchings over residents and posts, 1 and 2 threads: the solutions equal the
 *     stable matchings the side constraints allow, and every solution's posts are its
 *     hospitals' assignees, best first, then empty;
 *   - the root without side constraints: every resident's smallest value is his place in the
 *     resident-optimal matching and his largest in the hospital-optimal one (bamboo-smp's
 *     engine, bb_hr_solve), the GS-lists' bounds;
 *   - the same bounds at the root of generated instances of a few thousand residents, whose
 *     optimal matchings' posts lie within the posts' domains;
 *   - the residents' domains after random decisions equal those the cloning reduction (the
 *     SMI constraint over hospital posts) leaves, or both fail;
 *   - bad posts and their messages. */
#include "bb_gpu_device.h"
#include "bb_post.h"
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "bb_stable_matching_hr.h"
#include "bth_hr.h"
#include "hr_gen.h"
#include "smc_hr_internal.h" /* the parallel path's counts */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_R = 8, MAX_H = 4, MAX_CAP = 3, MAX_COLS = MAX_CAP + 1, ROOM = 4096 };

/* The path every post of this run uses (main sets it from the mode). */
static bb_stable_matching_hr_options run_opts = {BB_SMC_PATH_AUTO};

static int len_r(const bb_hr *I, int r) { return (int)(I->res_start[r + 1] - I->res_start[r]); }
static int len_h(const bb_hr *I, int h) { return (int)(I->hosp_start[h + 1] - I->hosp_start[h]); }

/* The variables' values of a matching (0-based): residents', then posts' row by row. */
static void values_of(const bb_hr *I, int cols, const int32_t *assigned, int *out) {
  int nr = I->n_residents;
  for (int r = 0; r < nr; r++)
    out[r] = assigned[r] == BB_HR_NONE ? len_r(I, r) : bth_hr_pos(I->res_start, I->res_list, r, assigned[r]);
  for (int h = 0; h < I->n_hospitals; h++) {
    int taken[MAX_R], n = 0;
    for (int p = 0; p < len_h(I, h); p++) { /* h's assignees in h's order */
      int r = (int)I->hosp_list[I->hosp_start[h] + (uint32_t)p];
      if (assigned[r] == h) taken[n++] = p;
    }
    for (int q = 0; q < cols; q++) out[nr + h * cols + q] = q < n ? taken[q] : len_h(I, h);
  }
}

typedef struct side {
  int count, var[6], value[6];  /* var != value */
  int forced_var, forced_value; /* -1: none */
  int budget;                   /* sum of the residents' values <= budget; < 0: none */
} side;

static int top_of(const bb_hr *I, int cols, int var) {
  return var < I->n_residents ? len_r(I, var) : len_h(I, (var - I->n_residents) / cols);
}

static void draw_side(const bb_hr *I, int cols, side *S, uint64_t *rng, int round) {
  int vars = I->n_residents + I->n_hospitals * cols;
  S->count = round % 3 == 0 ? 0 : (int)(tu_rand(rng) % 5);
  for (int c = 0; c < S->count; c++) {
    S->var[c] = (int)(tu_rand(rng) % (uint64_t)vars);
    S->value[c] = (int)(tu_rand(rng) % (uint64_t)(top_of(I, cols, S->var[c]) + 1));
  }
  S->forced_var = round % 4 == 1 ? (int)(tu_rand(rng) % (uint64_t)vars) : -1;
  S->forced_value = S->forced_var >= 0 ? (int)(tu_rand(rng) % (uint64_t)(top_of(I, cols, S->forced_var) + 1)) : 0;
  S->budget = round % 5 == 2 ? (int)(tu_rand(rng) % (uint64_t)(I->n_residents * 2 + 1)) : -1;
}

static bool side_allows(const bb_hr *I, const side *S, const int *value) {
  for (int c = 0; c < S->count; c++)
    if (value[S->var[c]] == S->value[c]) return false;
  if (S->forced_var >= 0 && value[S->forced_var] != S->forced_value) return false;
  if (S->budget >= 0) {
    int sum = 0;
    for (int r = 0; r < I->n_residents; r++) sum += value[r];
    if (sum > S->budget) return false;
  }
  return true;
}

typedef struct model {
  bb_space *space;
  int vars[MAX_R + MAX_H * MAX_COLS]; /* residents, then posts */
} model;

/* Posts the constraint (matrices padded with junk, or CSR) over variables with loose ranges. */
static bb_status model_new(model *m, const bb_hr *I, int cols, int base, bool csr, bb_error *err) {
  int nr = I->n_residents, nh = I->n_hospitals;
  m->space = bb_space_new(err);
  for (int k = 0; k < nr + nh * cols; k++) m->vars[k] = bb_int_var(m->space, -3, 20, err);
  if (csr)
    return bb_post_stable_matching_hr_csr(m->space, m->vars, nr, m->vars + nr, nh, cols, base, I->res_start,
                                          I->res_list, I->hosp_start, I->hosp_list, I->capacity, &run_opts, err);
  int rp[MAX_R * MAX_H], rl[MAX_R], hp[MAX_H * MAX_R], hl[MAX_H], cap[MAX_H];
  for (int r = 0; r < nr; r++) {
    rl[r] = len_r(I, r);
    for (int k = 0; k < nh; k++)
      rp[r * nh + k] = k < rl[r] ? (int)I->res_list[I->res_start[r] + (uint32_t)k] + base : 77;
  }
  for (int h = 0; h < nh; h++) {
    hl[h] = len_h(I, h);
    cap[h] = I->capacity[h];
    for (int k = 0; k < nr; k++)
      hp[h * nr + k] = k < hl[h] ? (int)I->hosp_list[I->hosp_start[h] + (uint32_t)k] + base : -7;
  }
  return bb_post_stable_matching_hr(m->space, m->vars, nr, m->vars + nr, nh, cols, base, rp, rl, nh, hp, hl, nr, cap,
                                    &run_opts, err);
}

static void post_side(const bb_hr *I, const side *S, model *m, int base) {
  bb_error err = {{0}};
  for (int c = 0; c < S->count; c++)
    CHECK(bb_post_int_rel_const(m->space, m->vars[S->var[c]], BB_NE, S->value[c] + base, bb_reif_none(), BB_IPL_DEF,
                                &err) == BB_OK);
  if (S->forced_var >= 0)
    CHECK(bb_post_int_rel_const(m->space, m->vars[S->forced_var], BB_EQ, S->forced_value + base, bb_reif_none(),
                                BB_IPL_DEF, &err) == BB_OK);
  if (S->budget >= 0) {
    int ones[MAX_R] = {1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(bb_post_int_lin(m->space, ones, m->vars, I->n_residents, BB_LE, S->budget + I->n_residents * base,
                          bb_reif_none(), BB_IPL_DEF, &err) == BB_OK);
  }
}

/* Instances with many stable matchings: resident r (group r % nh) ranks the hospitals from
 * his group's on, cyclically; hospital h ranks first the groups that rank it last. Some lists
 * are cut short, capacities 1..2. Or else the harness's random instance (bth_hr_random). */
static bb_hr *random_instance(int nr, int nh, uint64_t *rng) {
  if (tu_rand(rng) % 2) return bth_hr_random(false, nr, nh, MAX_CAP, rng);
  bb_hr *I = bb_hr_new(false, nr, nh, (uint64_t)nr * nh, (uint64_t)nr * nh, NULL);
  uint32_t at = 0;
  for (int r = 0; r < nr; r++) {
    I->res_start[r] = at;
    int len = nh - (tu_rand(rng) % 5 == 0);
    for (int k = 0; k < len; k++) I->res_list[at++] = (bb_id)((r % nh + k) % nh);
  }
  I->res_start[nr] = at;
  at = 0;
  for (int h = 0; h < nh; h++) {
    I->hosp_start[h] = at;
    for (int g = 1; g <= nh; g++) /* groups by how late they rank h: (h - group) mod nh, latest first */
      for (int r = 0; r < nr; r++)
        if (((h - r % nh) % nh + nh) % nh == nh - g && tu_rand(rng) % 8) I->hosp_list[at++] = (bb_id)r;
    I->capacity[h] = 1 + (int32_t)(tu_rand(rng) % 2);
  }
  I->hosp_start[nh] = at;
  return I;
}

static int32_t all_stable[ROOM * MAX_R];
static int kept[ROOM][MAX_R + MAX_H * MAX_COLS], found[ROOM][MAX_R + MAX_H * MAX_COLS];

static bool same_set(int nv, int (*a)[MAX_R + MAX_H * MAX_COLS], int na, int (*b)[MAX_R + MAX_H * MAX_COLS], int nb) {
  if (na != nb) return false;
  for (int x = 0; x < na; x++) {
    bool seen = false;
    for (int y = 0; y < nb && !seen; y++) seen = !memcmp(a[x], b[y], sizeof(int) * (size_t)nv);
    if (!seen) return false;
  }
  return true;
}

static void differential(void) {
  static const struct {
    bb_var_sel var;
    bb_val_sel val;
  } branchings[] = {{BB_VAR_INPUT_ORDER, BB_VAL_MIN},
                    {BB_VAR_FIRST_FAIL, BB_VAL_SPLIT},
                    {BB_VAR_INPUT_ORDER, BB_VAL_MEDIAN},
                    {BB_VAR_RANDOM, BB_VAL_RANDOM},
                    {BB_VAR_INPUT_ORDER, BB_VAL_MAX}};
  uint64_t rng = 20261125;
  int searches = 0, with_solutions = 0, max_solutions = 0, side_cut = 0;
  for (int round = 0; round < 700; round++) {
    int nh = 1 + (int)(tu_rand(&rng) % MAX_H), nr = 1 + (int)(tu_rand(&rng) % (nh == MAX_H ? 6 : MAX_R));
    bb_hr *I = random_instance(nr, nh, &rng);
    int max_cap = 0;
    for (int h = 0; h < nh; h++)
      if (I->capacity[h] > max_cap) max_cap = I->capacity[h];
    int cols = max_cap + (int)(tu_rand(&rng) % 2), nv = nr + nh * cols;
    side S;
    draw_side(I, cols, &S, &rng, round);
    int total = bth_hr_all_stable(I, all_stable, ROOM), n_kept = 0;
    for (int s = 0; s < total && s < ROOM; s++) {
      int v[MAX_R + MAX_H * MAX_COLS];
      values_of(I, cols, all_stable + (size_t)s * nr, v);
      if (side_allows(I, &S, v)) memcpy(kept[n_kept++], v, sizeof v);
    }
    side_cut += n_kept < total;
    int base = (int)(tu_rand(&rng) & 1);
    bb_error err = {{0}};
    model m;
    CHECKF(model_new(&m, I, cols, base, round % 2, &err) == BB_OK, "post: %s", err.msg);
    post_side(I, &S, &m, base);
    size_t b = (size_t)round % (sizeof branchings / sizeof *branchings);
    bb_branch_options bo = {(unsigned)round, 0};
    if (round % 3 == 2) { /* the posts first: their values fix the residents */
      CHECK(bb_branch_int(m.space, m.vars + nr, nh * cols, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
      CHECK(bb_branch_int(m.space, m.vars, nr, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
    } else {
      CHECK(bb_branch_int(m.space, m.vars, nr, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
      CHECK(bb_branch_int(m.space, m.vars + nr, nh * cols, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
    }
    bb_search_options o;
    bb_search_options_init(&o);
    o.threads = round % 5 == 4 ? 2 : 1;
    bb_search *s = bb_search_new(m.space, &o, &err);
    CHECKF(s != NULL, "search: %s", err.msg);
    int count = 0;
    for (bb_space *sol; s && (sol = bb_search_next(s, &err)) != NULL; bb_space_free(sol)) {
      if (count < ROOM)
        for (int k = 0; k < nv; k++) found[count][k] = bb_int_min(sol, m.vars[k]) - base;
      count++;
    }
    bb_search_free(s);
    CHECKF(
        same_set(nv, found, count, kept, n_kept),
        "round %d (%d residents, %d hospitals, %d columns, base %d, %s, branching %zu): %d solutions, brute force %d",
        round, nr, nh, cols, base, round % 2 ? "csr" : "matrices", b, count, n_kept);
    bb_space_free(m.space);
    bb_hr_free(I);
    searches++;
    with_solutions += n_kept > 0;
    if (n_kept > max_solutions) max_solutions = n_kept;
  }
  printf("differential (HR native): %d searches, %d with solutions, up to %d each, %d cut by side constraints\n",
         searches, with_solutions, max_solutions, side_cut);
  CHECK(with_solutions > searches / 2 && max_solutions >= 3 && side_cut > searches / 4); /* not trivial */
}

/* After the first propagation without side constraints: the residents' bounds are the
 * resident-optimal (smallest) and hospital-optimal (largest) matchings of the engine. */
static void root_bounds(void) {
  uint64_t rng = 4242;
  int checked = 0, spread = 0;
  for (int round = 0; round < 400; round++) {
    int nh = 1 + (int)(tu_rand(&rng) % MAX_H), nr = 1 + (int)(tu_rand(&rng) % (nh == MAX_H ? 6 : MAX_R));
    bb_hr *I = random_instance(nr, nh, &rng);
    bb_error err = {{0}};
    int32_t res_opt[MAX_R], hosp_opt[MAX_R];
    CHECKF(bb_hr_solve(I, "gs-seq", BB_HR_RESIDENT_OPTIMAL, NULL, res_opt, NULL, &err) == BB_OK, "%s", err.msg);
    CHECKF(bb_hr_solve(I, "gs-seq", BB_HR_HOSPITAL_OPTIMAL, NULL, hosp_opt, NULL, &err) == BB_OK, "%s", err.msg);
    int lo[MAX_R + MAX_H * MAX_COLS], hi[MAX_R + MAX_H * MAX_COLS];
    values_of(I, MAX_CAP, res_opt, lo);
    values_of(I, MAX_CAP, hosp_opt, hi);
    model m;
    int base = round & 1;
    CHECKF(model_new(&m, I, MAX_CAP, base, round % 2, &err) == BB_OK, "post: %s", err.msg);
    bb_space_state state;
    CHECK(bb_space_status(m.space, &state, &err) == BB_OK && state != BB_SPACE_FAILED);
    for (int r = 0; r < nr; r++) {
      int mn = bb_int_min(m.space, m.vars[r]) - base, mx = bb_int_max(m.space, m.vars[r]) - base;
      CHECKF(mn == lo[r] && mx == hi[r], "round %d resident %d: domain %d..%d, optimal matchings %d and %d", round, r,
             mn, mx, lo[r], hi[r]);
      spread += mn != mx;
    }
    checked++;
    bb_space_free(m.space);
    bb_hr_free(I);
  }
  printf("root bounds: %d instances, %d residents with more than one value\n", checked, spread);
  CHECK(spread > 20);
}

/* ---- GS-lists, written here from Gusfield & Irving (1.6) and Manlove et al. 2007 ---------- */

/* pair[r][h]: (r, h) still on both lists. Both lists are read in their original order. */
typedef struct gs {
  int nr, nh;
  bool pair[64][16];
} gs;

static int gs_rank_h(const bb_hr *I, int h, int r) { return bth_hr_pos(I->hosp_start, I->hosp_list, h, r); }

/* Resident-oriented GS with deletions: a free resident proposes to his first hospital; an
 * over-subscribed hospital rejects its worst (deleting the pair); a full one deletes every
 * resident it ranks below its worst assignee. */
static void gs_residents(const bb_hr *I, gs *G) {
  int at[64];
  for (int r = 0; r < I->n_residents; r++) at[r] = -1;
  for (bool moved = true; moved;) {
    moved = false;
    for (int r = 0; r < I->n_residents; r++) {
      if (at[r] >= 0) continue;
      int h = -1;
      for (int k = 0; k < len_r(I, r) && h < 0; k++) {
        int c = (int)I->res_list[I->res_start[r] + (uint32_t)k];
        if (G->pair[r][c]) h = c;
      }
      if (h < 0) continue;
      moved = true;
      at[r] = h;
      int taken = 0, worst = -1;
      for (int s = 0; s < I->n_residents; s++)
        if (at[s] == h) {
          taken++;
          if (worst < 0 || gs_rank_h(I, h, s) > gs_rank_h(I, h, worst)) worst = s;
        }
      if (taken > I->capacity[h]) {
        at[worst] = -1;
        G->pair[worst][h] = false;
        taken--;
        worst = -1;
        for (int s = 0; s < I->n_residents; s++)
          if (at[s] == h && (worst < 0 || gs_rank_h(I, h, s) > gs_rank_h(I, h, worst))) worst = s;
      }
      if (taken == I->capacity[h])
        for (int s = 0; s < I->n_residents; s++)
          if (G->pair[s][h] && (worst < 0 || gs_rank_h(I, h, s) > gs_rank_h(I, h, worst))) G->pair[s][h] = false;
    }
  }
}

/* Hospital-oriented GS with deletions: an under-subscribed hospital offers to the first resident
 * on its list not assigned to it; he accepts (leaving his hospital) and deletes every hospital
 * he ranks below it. */
static void gs_hospitals(const bb_hr *I, gs *G) {
  int at[64];
  for (int r = 0; r < I->n_residents; r++) at[r] = -1;
  for (bool moved = true; moved;) {
    moved = false;
    for (int h = 0; h < I->n_hospitals; h++) {
      int taken = 0;
      for (int r = 0; r < I->n_residents; r++) taken += at[r] == h;
      if (taken >= I->capacity[h]) continue;
      int r = -1;
      for (int k = 0; k < len_h(I, h) && r < 0; k++) {
        int c = (int)I->hosp_list[I->hosp_start[h] + (uint32_t)k];
        if (G->pair[c][h] && at[c] != h) r = c;
      }
      if (r < 0) continue;
      moved = true;
      at[r] = h;
      int own = bth_hr_pos(I->res_start, I->res_list, r, h);
      for (int k = own + 1; k < len_r(I, r); k++) G->pair[r][(int)I->res_list[I->res_start[r] + (uint32_t)k]] = false;
    }
  }
}

/* The residents' domains after the first propagation equal their GS-lists (the pairs both
 * algorithms keep), plus "unassigned" exactly for those whose GS-list is empty. */
static void root_is_gs_lists(void) {
  uint64_t rng = 99;
  int checked = 0, pruned = 0;
  for (int round = 0; round < 400; round++) {
    int nh = 1 + (int)(tu_rand(&rng) % 6), nr = 1 + (int)(tu_rand(&rng) % 12);
    bb_hr *I = random_instance(nr, nh, &rng);
    gs R, H;
    memset(&R, 0, sizeof R);
    for (int r = 0; r < nr; r++)
      for (int k = 0; k < len_r(I, r); k++) {
        int h = (int)I->res_list[I->res_start[r] + (uint32_t)k];
        R.pair[r][h] = gs_rank_h(I, h, r) >= 0;
      }
    H = R;
    gs_residents(I, &R);
    gs_hospitals(I, &H);
    int cols = 1;
    for (int h = 0; h < nh; h++)
      if (I->capacity[h] > cols) cols = I->capacity[h];
    bb_error err = {{0}};
    bb_space *s = bb_space_new(&err);
    int vars[12 + 6 * 8];
    for (int k = 0; k < nr + nh * cols; k++) vars[k] = bb_int_var(s, 0, 30, &err);
    CHECKF(bb_post_stable_matching_hr_csr(s, vars, nr, vars + nr, nh, cols, 0, I->res_start, I->res_list, I->hosp_start,
                                          I->hosp_list, I->capacity, &run_opts, &err) == BB_OK,
           "post: %s", err.msg);
    bb_space_state state;
    CHECK(bb_space_status(s, &state, &err) == BB_OK && state != BB_SPACE_FAILED);
    for (int r = 0; r < nr; r++) {
      bool any = false;
      for (int k = 0; k < len_r(I, r); k++) {
        int h = (int)I->res_list[I->res_start[r] + (uint32_t)k];
        bool on_lists = R.pair[r][h] && H.pair[r][h];
        any |= on_lists;
        CHECKF(bb_int_in(s, vars[r], k) == on_lists, "round %d resident %d hospital %d: in the domain %d, GS-lists %d",
               round, r, h, bb_int_in(s, vars[r], k), on_lists);
        pruned += !on_lists;
      }
      CHECKF(bb_int_in(s, vars[r], len_r(I, r)) == !any,
             "round %d resident %d: unassigned in the domain %d, GS-list %s", round, r,
             bb_int_in(s, vars[r], len_r(I, r)), any ? "not empty" : "empty");
    }
    checked++;
    bb_space_free(s);
    bb_hr_free(I);
  }
  printf("root = GS-lists: %d instances, %d pairs pruned\n", checked, pruned);
  CHECK(pruned > 100);
}

enum { MAX_SIDE_R = 11, MAX_SIDE_H = 5 };

/* The cloning reduction over the shim's SMI constraint (as post_stable_matching.c's
 * bamboo_stable_matching_hr_file_cloned): hospital h becomes capacity[h] posts with h's list,
 * residents rank posts, and res[r] is channelled to his rank over posts by an element. */
static void post_clone(bb_space *s, const bb_hr *I, const int *res) {
  int nr = I->n_residents, nh = I->n_hospitals;
  uint32_t first[MAX_SIDE_H + 1], ms[MAX_SIDE_R + 1], ml[MAX_SIDE_R * MAX_SIDE_H * MAX_CAP + 1],
      ws[MAX_SIDE_H * MAX_CAP + 1], wl[MAX_SIDE_H * MAX_CAP * MAX_SIDE_R + 1];
  first[0] = 0;
  for (int h = 0; h < nh; h++) first[h + 1] = first[h] + (uint32_t)I->capacity[h];
  uint32_t at = 0;
  for (int r = 0; r < nr; r++) {
    ms[r] = at;
    for (uint32_t e = I->res_start[r]; e < I->res_start[r + 1]; e++)
      for (uint32_t p = first[I->res_list[e]]; p < first[I->res_list[e] + 1]; p++) ml[at++] = p;
  }
  ms[nr] = at;
  at = 0;
  int np = (int)first[nh];
  for (int h = 0; h < nh; h++)
    for (uint32_t p = first[h]; p < first[h + 1]; p++) {
      ws[p] = at;
      for (uint32_t e = I->hosp_start[h]; e < I->hosp_start[h + 1]; e++) wl[at++] = I->hosp_list[e];
    }
  ws[np] = at;
  int rp[MAX_SIDE_R], pv[MAX_SIDE_H * MAX_CAP];
  bb_error err;
  for (int r = 0; r < nr; r++) rp[r] = bb_int_var(s, 0, (int)(ms[r + 1] - ms[r]), &err);
  for (int p = 0; p < np; p++) pv[p] = bb_int_var(s, 0, (int)(ws[p + 1] - ws[p]), &err);
  bb_stable_matching_options o = {BB_SMC_GS_LISTS, BB_SMC_PATH_CPU};
  CHECKF(bb_post_stable_matching_smi_csr(s, rp, nr, pv, np, 0, ms, ml, ws, wl, &o, &err) == BB_OK, "post: %s", err.msg);
  for (int r = 0; r < nr; r++) {
    int table[MAX_SIDE_H * MAX_CAP + 1], k = 0;
    for (uint32_t e = I->res_start[r]; e < I->res_start[r + 1]; e++)
      for (int q = 0; q < I->capacity[I->res_list[e]]; q++) table[k++] = (int)(e - I->res_start[r]);
    table[k] = len_r(I, r);
    CHECK(bb_post_array_int_element(s, rp[r], table, k + 1, 0, res[r], BB_IPL_DOM, &err) == BB_OK);
  }
}

/* After random decisions (a resident's value forced or forbidden, up to three), the native
 * constraint and the cloning reduction leave the residents exactly the same domains, or both
 * fail: the native propagation is as strong on the residents as the SMI constraint's GS-lists
 * over the clone. */
static void same_as_cloning(void) {
  uint64_t rng = 5;
  int compared = 0, narrowed = 0;
  for (int round = 0; round < 1500; round++) {
    int nh = 2 + (int)(tu_rand(&rng) % (MAX_SIDE_H - 1)), nr = 2 + (int)(tu_rand(&rng) % (MAX_SIDE_R - 1));
    bb_hr *I = random_instance(nr, nh, &rng);
    int cols = MAX_CAP;
    bb_error err = {{0}};
    bb_space *a = bb_space_new(&err), *b = bb_space_new(&err);
    int va[MAX_SIDE_R + MAX_SIDE_H * MAX_CAP], vb[MAX_SIDE_R];
    for (int k = 0; k < nr + nh * cols; k++) va[k] = bb_int_var(a, 0, 40, &err);
    for (int k = 0; k < nr; k++) vb[k] = bb_int_var(b, 0, 40, &err);
    CHECKF(bb_post_stable_matching_hr_csr(a, va, nr, va + nr, nh, cols, 0, I->res_start, I->res_list, I->hosp_start,
                                          I->hosp_list, I->capacity, &run_opts, &err) == BB_OK,
           "post: %s", err.msg);
    post_clone(b, I, vb);
    int decisions = 1 + (int)(tu_rand(&rng) % 3);
    for (int d = 0; d < decisions; d++) {
      int r = (int)(tu_rand(&rng) % (uint64_t)nr), v = (int)(tu_rand(&rng) % (uint64_t)(len_r(I, r) + 1));
      bb_rel rel = tu_rand(&rng) % 2 ? BB_EQ : BB_NE;
      bb_post_int_rel_const(a, va[r], rel, v, bb_reif_none(), BB_IPL_DEF, &err);
      bb_post_int_rel_const(b, vb[r], rel, v, bb_reif_none(), BB_IPL_DEF, &err);
    }
    bb_space_state sa, sb;
    bb_space_status(a, &sa, &err);
    bb_space_status(b, &sb, &err);
    CHECKF((sa == BB_SPACE_FAILED) == (sb == BB_SPACE_FAILED), "round %d: native %s, cloning %s", round,
           sa == BB_SPACE_FAILED ? "failed" : "not failed", sb == BB_SPACE_FAILED ? "failed" : "not failed");
    if (sa != BB_SPACE_FAILED && sb != BB_SPACE_FAILED) {
      compared++;
      for (int r = 0; r < nr; r++) {
        narrowed += (int)bb_int_size(a, va[r]) < len_r(I, r) + 1;
        for (int v = 0; v <= len_r(I, r); v++)
          CHECKF(bb_int_in(a, va[r], v) == bb_int_in(b, vb[r], v),
                 "round %d resident %d value %d: native %d, cloning %d", round, r, v, bb_int_in(a, va[r], v),
                 bb_int_in(b, vb[r], v));
      }
    }
    bb_space_free(a);
    bb_space_free(b);
    bb_hr_free(I);
  }
  printf("same as cloning: %d propagated models compared, %d domains narrowed\n", compared, narrowed);
  CHECK(compared > 300 && narrowed > 1000);
}

/* Generated instances of a few thousand residents (bamboo-smp's generator, popularity skew,
 * random capacities): after the first propagation every resident's smallest value is his place
 * in the engine's resident-optimal matching and his largest in its hospital-optimal one, and
 * both matchings' posts lie within the posts' domains. */
static void root_at_scale(void) {
  static const struct {
    int residents, hospitals, k;
    double skew;
  } shapes[] = {{3000, 150, 8, 0.5}, {4000, 400, 12, 0.0}, {2000, 40, 5, 1.0}};
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    bb_hr_gen_params gp;
    bb_hr_gen_defaults(&gp);
    gp.smi = false, gp.n_residents = shapes[i].residents, gp.n_hospitals = shapes[i].hospitals;
    gp.list_length = shapes[i].k, gp.skew = shapes[i].skew, gp.seed = 7 + i, gp.threads = 1;
    bb_error err = {{0}};
    bb_hr *I = NULL;
    CHECKF(bb_hr_generate(&gp, &I, &err) == BB_OK, "generate: %s", err.msg);
    if (!I) continue;
    int nr = I->n_residents, nh = I->n_hospitals, cols = 0;
    for (int h = 0; h < nh; h++)
      if (I->capacity[h] > cols) cols = I->capacity[h];
    int32_t *lo = malloc((size_t)nr * sizeof *lo), *hi = malloc((size_t)nr * sizeof *hi);
    int *vars = malloc(((size_t)nr + (size_t)nh * (size_t)cols) * sizeof *vars);
    CHECKF(bb_hr_solve(I, "gs-seq", BB_HR_RESIDENT_OPTIMAL, NULL, lo, NULL, &err) == BB_OK, "%s", err.msg);
    CHECKF(bb_hr_solve(I, "gs-seq", BB_HR_HOSPITAL_OPTIMAL, NULL, hi, NULL, &err) == BB_OK, "%s", err.msg);
    bb_space *s = bb_space_new(&err);
    for (int k = 0; k < nr + nh * cols; k++) vars[k] = bb_int_var(s, 1, 1 << 20, &err);
    CHECKF(bb_post_stable_matching_hr_csr(s, vars, nr, vars + nr, nh, cols, 1, I->res_start, I->res_list, I->hosp_start,
                                          I->hosp_list, I->capacity, &run_opts, &err) == BB_OK,
           "post: %s", err.msg);
    bb_space_state state;
    CHECK(bb_space_status(s, &state, &err) == BB_OK && state != BB_SPACE_FAILED);
    int bad = 0, spread = 0;
    for (int r = 0; r < nr; r++) {
      int want_lo = lo[r] == BB_HR_NONE ? len_r(I, r) : bth_hr_pos(I->res_start, I->res_list, r, lo[r]);
      int want_hi = hi[r] == BB_HR_NONE ? len_r(I, r) : bth_hr_pos(I->res_start, I->res_list, r, hi[r]);
      bad += bb_int_min(s, vars[r]) - 1 != want_lo || bb_int_max(s, vars[r]) - 1 != want_hi;
      spread += want_lo != want_hi;
    }
    /* Each optimal matching's posts, from the hospitals' side, within the posts' domains. */
    for (int which = 0; which < 2; which++) {
      const int32_t *m = which ? hi : lo;
      for (int h = 0; h < nh; h++) {
        int q = 0;
        for (uint32_t f = I->hosp_start[h]; f < I->hosp_start[h + 1]; f++)
          if (m[I->hosp_list[f]] == h) bad += !bb_int_in(s, vars[nr + h * cols + q++], 1 + (int)(f - I->hosp_start[h]));
        for (; q < cols; q++) bad += !bb_int_in(s, vars[nr + h * cols + q], 1 + len_h(I, h));
      }
    }
    CHECKF(bad == 0, "shape %zu: %d residents or posts disagree with the optimal matchings", i, bad);
    printf("root at scale: %d residents, %d hospitals: %d residents between two optimal places\n", nr, nh, spread);
    bb_space_free(s);
    free(lo), free(hi), free(vars);
    bb_hr_free(I);
  }
}

static void bad_posts(void) {
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  int v[4];
  for (int k = 0; k < 4; k++) v[k] = bb_int_var(s, 0, 9, &err);
  int rp[2] = {1, 5}, rl[1] = {2}, hp[1] = {1}, hl[1] = {1}, cap[1] = {1};
  CHECK(bb_post_stable_matching_hr(s, v, 1, v + 1, 1, 1, 1, rp, rl, 2, hp, hl, 1, cap, NULL, &err) == BB_ERR_INPUT &&
        strstr(err.msg, "resident 1's list names 5"));
  rp[1] = 1;
  CHECK(bb_post_stable_matching_hr(s, v, 1, v + 1, 1, 1, 1, rp, rl, 2, hp, hl, 1, cap, NULL, &err) == BB_ERR_INPUT &&
        strstr(err.msg, "twice"));
  rl[0] = 1, cap[0] = 2;
  CHECK(bb_post_stable_matching_hr(s, v, 1, v + 1, 1, 1, 1, rp, rl, 2, hp, hl, 1, cap, NULL, &err) == BB_ERR_INPUT &&
        strstr(err.msg, "capacity 2, more than the 1 columns"));
  cap[0] = 1;
  CHECK(bb_post_stable_matching_hr(s, v, 1, v + 1, 1, 1, 2, rp, rl, 2, hp, hl, 1, cap, NULL, &err) == BB_ERR_ARG &&
        strstr(err.msg, "base 2"));
  v[1] = 99;
  CHECK(bb_post_stable_matching_hr(s, v, 1, v + 1, 1, 1, 1, rp, rl, 2, hp, hl, 1, cap, NULL, &err) == BB_ERR_ARG &&
        strstr(err.msg, "posts[0] is int variable 99"));
  bb_space_free(s);
}

/* `emulated` and `gpu` run every check above with the constraints on the parallel path
 * (smc_hr_accel.c; gpu exits 77 without a GPU) and check that it ran. */
int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "cpu";
  if (!strcmp(mode, "gpu")) {
    char why[256];
    if (!bb_gpu_probe(0, why, sizeof why)) return printf("no usable GPU (%s): skipped\n", why), 77;
    run_opts.path = BB_SMC_PATH_GPU;
  } else if (!strcmp(mode, "emulated")) {
    run_opts.path = BB_SMC_PATH_EMULATED;
  }
  bb_smc_hr_accel_reset_counts();
  differential();
  root_bounds();
  root_is_gs_lists();
  same_as_cloning();
  root_at_scale();
  bad_posts();
  long long runs = 0, raised = 0;
  bb_smc_hr_accel_total_counts(&runs, &raised);
  if (strcmp(mode, "cpu")) {
    CHECKF(runs > 1000 && raised > 1000, "the %s path ran %lld times, raised %lld values", mode, runs, raised);
    printf("%s path: %lld parallel runs, %lld smallest values raised by them\n", mode, runs, raised);
  } else {
    CHECKF(runs == 0, "the CPU path ran the parallel engine %lld times", runs);
  }
  return tu_finish();
}
