/* The SMC core on incomplete lists (SMI) driven by the toy host of smc_toy.h (bitset domains
 * of width longest list + 1, a DFS that copies nodes with memcpy), no Gecode, against brute
 * force from the definition (the harness, tests/harness/bth_smi.h). Random instances: 0..5 people a side,
 * one-sided entries, empty lists, padded rows, 0- and 1-based input. Checks:
 *   - the shape functions (men, women, vars, len, partner, node and scratch sizes);
 *   - gs-lists at the root is arc consistency (Gent et al., CP 2001): each domain is exactly
 *     the ranks some stable matching uses; men-proposing keeps every stable matching, with
 *     each man's minimum his man-optimal rank and each woman's maximum her rank there; both
 *     drop one-sided ranks; a second propagation changes nothing;
 *   - the root as a batch and through the event rules give the same domains;
 *   - search (n-ary, x = min | x > min, and x = v | x != v with the removal told precisely
 *     or as unknown) enumerates exactly the stable matchings, without a failure for
 *     gs-lists; with side constraints (values removed before the root, a forced value, a
 *     rank bound) exactly the stable matchings they allow, forbidden pairs still blocking;
 *     after removals told to the core between propagations, exactly those the domains allow;
 *   - every validation error of bb_smc_prefs_new_smi, with the row in the user's base. */
#include "smc.h"
#include "smc_tuning.h"
#include "smc_toy.h"
#include "bth_smi.h"
#include "test_util.h"

#include <stdio.h>

enum { CAP = 512 }; /* more stable matchings than an instance of this family has */

/* The preference input in `base`: rows of `cols` >= the other side's size, junk past each
 * length (which the core must ignore). */
static bb_smc_prefs *prefs_of(const bth_smi *I, int base, uint64_t *rng, bb_error *err) {
  int cols_m = I->nw + (int)(tu_rand(rng) % 3), cols_w = I->nm + (int)(tu_rand(rng) % 3);
  int pm[BTH_SMI_MAX * (BTH_SMI_MAX + 2)], pw[BTH_SMI_MAX * (BTH_SMI_MAX + 2)];
  for (int i = 0; i < I->nm; i++)
    for (int k = 0; k < cols_m; k++) pm[i * cols_m + k] = k < I->lm[i] ? I->pm[i][k] + base : 1000 + k;
  for (int j = 0; j < I->nw; j++)
    for (int k = 0; k < cols_w; k++) pw[j * cols_w + k] = k < I->lw[j] ? I->pw[j][k] + base : -7 - k;
  return bb_smc_prefs_new_smi(I->nm, I->nw, base, pm, I->lm, cols_m, pw, I->lw, cols_w, err);
}

/* --- Shape. --- */

static void check_shape(const bth_smi *I, const bb_smc_prefs *p, int base, int round) {
  CHECKF(bb_smc_prefs_men(p) == I->nm && bb_smc_prefs_women(p) == I->nw && bb_smc_prefs_vars(p) == bth_smi_vars(I),
         "round %d: %d men, %d women, %d vars; want %d, %d", round, bb_smc_prefs_men(p), bb_smc_prefs_women(p),
         bb_smc_prefs_vars(p), I->nm, I->nw);
  CHECK(bb_smc_prefs_incomplete(p));
  CHECKF(bb_smc_prefs_base(p) == base, "round %d: base %d, want %d", round, bb_smc_prefs_base(p), base);
  CHECK(bb_smc_node_bytes_for(p) > 0);
  for (int v = 0; v < bth_smi_vars(I); v++) {
    int len = bth_smi_len(I, v);
    CHECKF(bb_smc_prefs_len(p, v) == len, "round %d: var %d has length %d, want %d", round, v, bb_smc_prefs_len(p, v),
           len);
    for (int k = 0; k <= len; k++) {
      int want = -1;
      if (k < len && v < I->nm && bth_smi_acceptable(I, v, I->pm[v][k])) want = I->nm + I->pm[v][k];
      if (k < len && v >= I->nm && bth_smi_acceptable(I, I->pw[v - I->nm][k], v - I->nm)) want = I->pw[v - I->nm][k];
      CHECKF(bb_smc_partner(p, v, k) == want, "round %d: partner of var %d at rank %d is %d, want %d", round, v, k,
             bb_smc_partner(p, v, k), want);
    }
  }
}

/* The complete form answers the same questions: len n, no unmatched rank. */
static void check_complete_shape(void) {
  const int pm[9] = {1, 2, 0, 0, 1, 2, 2, 0, 1}, pw[9] = {2, 1, 0, 0, 2, 1, 1, 0, 2};
  bb_smc_prefs *p = bb_smc_prefs_new(3, 3, pm, 3, 3, pw, 3, 3, NULL);
  CHECK(p != NULL);
  if (!p) return;
  CHECK(bb_smc_prefs_men(p) == 3 && bb_smc_prefs_women(p) == 3 && bb_smc_prefs_vars(p) == 6);
  CHECK(!bb_smc_prefs_incomplete(p));
  for (int v = 0; v < 6; v++) {
    CHECK(bb_smc_prefs_len(p, v) == 3);
    for (int k = 0; k < 3; k++)
      CHECKF(bb_smc_partner(p, v, k) == (v < 3 ? 3 + pm[v * 3 + k] : pw[(v - 3) * 3 + k]),
             "complete form: partner of var %d at rank %d is %d", v, k, bb_smc_partner(p, v, k));
  }
  CHECK(bb_smc_node_bytes_for(p) == bb_smc_node_bytes(3));
  bb_smc_prefs_release(p);
}

/* --- The toy search. --- */

typedef enum branching {
  BR_NARY,    /* x = v for every v in the domain */
  BR_MIN,     /* x = min | x > min: only bounds move */
  BR_PRECISE, /* x = v | x != v, v often inner; the removal told as a range */
  BR_UNKNOWN, /* the same, told as an unknown removal */
  BR_COUNT
} branching;
static const char *const branching_name[BR_COUNT] = {"n-ary", "min", "inner/precise", "inner/unknown"};

typedef struct search {
  const bth_smi *I;
  const bb_smc_prefs *prefs;
  bb_smc_strength strength;
  branching br;
  bb_smc_scratch *scratch;
  uint64_t rng;
  long failures, nodes;
  bth_solutions found;
} search;

static bb_smc_status propagate(search *s, toy_node *t) {
  bb_smc_domains d = toy_domains(&t->dom);
  bb_smc_status r = bb_smc_propagate(s->prefs, s->strength, t->smc, s->scratch, &d, NULL);
  CHECKF(r != BB_SMC_NOMEM, "%s", "propagation ran out of memory");
  return r;
}

/* A removal of `value` from var, told as the host's advisor would tell it. */
static void note_removal(bb_smc_scratch *scratch, toy_node *t, int var, int value, bool unknown) {
  bool inner = value > toy_min(&t->dom, var) && value < toy_max(&t->dom, var);
  if (!inner)
    bb_smc_note_changed(scratch, var);
  else if (unknown)
    bb_smc_note_unknown(scratch, var);
  else
    bb_smc_note_removed(scratch, var, value, value);
}

static void dfs(search *s, toy_node *t) {
  int vars = bth_smi_vars(s->I);
  s->nodes++;
  for (int v = 0; v < vars; v++)
    if (!toy_nonempty(&t->dom, v)) { /* a side constraint emptied a domain: the host fails */
      bb_smc_scratch_clear(s->scratch);
      s->failures++;
      return;
    }
  bb_smc_status r = propagate(s, t);
  if (r == BB_SMC_FAILED || r == BB_SMC_NOMEM) {
    s->failures++;
    return;
  }
  int var = -1;
  for (int v = 0; v < vars && var < 0; v++)
    if (toy_size(&t->dom, v) > 1) var = v;
  if (var < 0) {
    CHECKF(r == BB_SMC_SOLVED, "every variable assigned but the core said %d", (int)r);
    int value[BTH_SMI_VARS];
    for (int v = 0; v < vars; v++) value[v] = toy_min(&t->dom, v);
    bth_solutions_add(&s->found, value);
    return;
  }
  CHECKF(r == BB_SMC_FIX, "var %d unassigned but the core said %d", var, (int)r);
  int lo = toy_min(&t->dom, var), hi = toy_max(&t->dom, var);
  if (s->br == BR_NARY) {
    for (int value = lo; value <= hi; value++) {
      if (!toy_contains(&t->dom, var, value)) continue;
      toy_node child = node_copy(t);
      toy_assign(&child.dom, var, value);
      bb_smc_note_changed(s->scratch, var);
      dfs(s, &child);
      node_free(&child);
    }
    return;
  }
  int value = lo;
  if (s->br != BR_MIN && (tu_rand(&s->rng) % 3)) { /* mostly a random value, often an inner one */
    int values[BTH_SMI_MAX + 1], count = toy_values(&t->dom, var, values);
    value = values[tu_rand(&s->rng) % (uint64_t)count];
  }
  toy_node left = node_copy(t);
  toy_assign(&left.dom, var, value);
  bb_smc_note_changed(s->scratch, var);
  dfs(s, &left);
  node_free(&left);
  toy_node right = node_copy(t);
  note_removal(s->scratch, &right, var, value, s->br == BR_UNKNOWN);
  toy_remove(&right.dom, var, value);
  dfs(s, &right);
  node_free(&right);
}

/* Runs a search from `root` (not modified) and compares with `want`. */
static void search_and_compare(const bth_smi *I, const bb_smc_prefs *prefs, bb_smc_strength strength, branching br,
                               const toy_node *root, const bth_solutions *want, bool expect_no_failure, int round,
                               const char *what) {
  static search s;
  bb_error err = {{0}};
  memset(&s, 0, sizeof s);
  bth_solutions_reset(&s.found, bth_smi_vars(I));
  s.I = I;
  s.prefs = prefs;
  s.strength = strength;
  s.br = br;
  s.scratch = bb_smc_scratch_for(prefs, &err);
  s.rng = (uint64_t)round * 31 + (uint64_t)br;
  CHECKF(s.scratch != NULL, "scratch: %s", err.msg);
  if (!s.scratch) return;
  toy_node t = node_copy(root);
  dfs(&s, &t);
  node_free(&t);
  CHECKF(bth_same_solutions(&s.found, want),
         "round %d (%d men, %d women) %s, %s, %s branching: %d solutions, brute force %d", round, I->nm, I->nw, what,
         bb_smc_strength_name(strength), branching_name[br], s.found.count, want->count);
  if (expect_no_failure)
    CHECKF(s.failures == 0, "round %d (%d men, %d women) %s, %s branching: %ld failures in %ld nodes", round, I->nm,
           I->nw, what, branching_name[br], s.failures, s.nodes);
  bth_solutions_free(&s.found);
  bb_smc_scratch_free(s.scratch);
}

/* --- Root propagation. --- */

static int first_failed_round = -1;

/* The root fixpoint of `strength` from full domains into *t (a fresh node). */
static bb_smc_status root(const bb_smc_prefs *prefs, bb_smc_strength strength, toy_node *t) {
  bb_error err = {{0}};
  bb_smc_scratch *scratch = bb_smc_scratch_for(prefs, &err);
  CHECKF(scratch != NULL, "scratch: %s", err.msg);
  *t = node_new_for(prefs);
  bb_smc_domains d = toy_domains(&t->dom);
  bb_smc_status r = scratch ? bb_smc_propagate(prefs, strength, t->smc, scratch, &d, NULL) : BB_SMC_NOMEM;
  if (r == BB_SMC_FIX || r == BB_SMC_SOLVED) { /* idempotent: a full re-scan changes nothing */
    size_t cells = (size_t)t->dom.vars * (size_t)t->dom.n;
    uint8_t before[BTH_SMI_VARS * (BTH_SMI_MAX + 1)];
    memcpy(before, t->dom.in, cells);
    for (int v = 0; v < t->dom.vars; v++) bb_smc_note_unknown(scratch, v);
    bb_smc_status again = bb_smc_propagate(prefs, strength, t->smc, scratch, &d, NULL);
    CHECKF(again == r && !memcmp(before, t->dom.in, cells), "a second propagation changed the root (%d -> %d)", (int)r,
           (int)again);
  }
  bb_smc_scratch_free(scratch);
  return r;
}

static void check_root(const bth_smi *I, const bb_smc_prefs *prefs, const bth_solutions *all, int round) {
  int vars = bth_smi_vars(I);
  for (int si = 0; si < 2; si++) {
    bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
    toy_node t;
    bb_smc_status r = root(prefs, strength, &t);
    CHECKF(r == BB_SMC_FIX || r == BB_SMC_SOLVED, "round %d %s: root said %d (SMI always has a stable matching)", round,
           bb_smc_strength_name(strength), (int)r);
    bool all_assigned = true;
    for (int v = 0; v < vars; v++) all_assigned = all_assigned && toy_size(&t.dom, v) == 1;
    CHECKF((r == BB_SMC_SOLVED) == all_assigned, "round %d %s: root said %d with every variable %sassigned", round,
           bb_smc_strength_name(strength), (int)r, all_assigned ? "" : "not ");
    bool ok = true;
    for (int v = 0; v < vars; v++) {
      int len = bth_smi_len(I, v), best = len + 1, worst = -1;
      for (int value = 0; value <= len; value++) {
        bool used = false;
        for (int k = 0; k < all->count && !used; k++) used = bth_solution(all, k)[v] == value;
        bool in = toy_contains(&t.dom, v, value);
        bool one_sided = value < len && bb_smc_partner(prefs, v, value) < 0;
        if (used && value < best) best = value;
        if (used) worst = value;
        /* gs-lists: exactly the used values; men-proposing: at least those, never a one-sided rank */
        bool good = strength == BB_SMC_GS_LISTS ? in == used : (!used || in) && !(in && one_sided);
        CHECKF(good,
               "round %d (%d men, %d women) %s: var %d value %d is %s the root domain and %s by a stable matching%s",
               round, I->nm, I->nw, bb_smc_strength_name(strength), v, value, in ? "in" : "not in",
               used ? "used" : "not used", one_sided ? " (one-sided)" : "");
        ok = ok && good;
      }
      for (int value = len + 1; value < t.dom.n; value++) CHECK(!toy_contains(&t.dom, v, value));
      if (strength == BB_SMC_MEN_PROPOSING && all->count > 0) {
        /* The man-optimal matching is the woman-pessimal one (the lattice of stable matchings). */
        if (v < I->nm) {
          CHECKF(toy_min(&t.dom, v) == best, "round %d men-proposing: man %d's minimum %d, man-optimal rank %d", round,
                 v, toy_min(&t.dom, v), best);
          ok = ok && toy_min(&t.dom, v) == best;
        } else {
          CHECKF(toy_max(&t.dom, v) == worst, "round %d men-proposing: woman %d's maximum %d, woman-pessimal rank %d",
                 round, v - I->nm, toy_max(&t.dom, v), worst);
          ok = ok && toy_max(&t.dom, v) == worst;
        }
      }
    }
    if (!ok && first_failed_round < 0) first_failed_round = round;
    node_free(&t);
  }
}

/* The batch root (smc_root.c) and the event rules' root give the same domains. */
static void check_root_paths_agree(const bth_smi *I, const bb_smc_prefs *prefs, int round, bool batch_now) {
  for (int si = 0; si < 2; si++) {
    bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
    toy_node a, b;
    bb_smc_set_root_batch(true);
    bb_smc_status ra = root(prefs, strength, &a);
    bb_smc_set_root_batch(false);
    bb_smc_status rb = root(prefs, strength, &b);
    bb_smc_set_root_batch(batch_now);
    size_t cells = (size_t)a.dom.vars * (size_t)a.dom.n;
    CHECKF(ra == rb && !memcmp(a.dom.in, b.dom.in, cells),
           "round %d (%d men, %d women) %s: batch root (%d) and event-rule root (%d) differ", round, I->nm, I->nw,
           bb_smc_strength_name(strength), (int)ra, (int)rb);
    node_free(&a);
    node_free(&b);
  }
}

/* --- Side constraints and events. --- */

/* Values removed before the first propagation, as other constraints of a model would:
 * ranks (acceptable, one-sided or unmatched) on either side, maybe a forced value, maybe a
 * bound on a man's rank. The brute-force solutions are filtered by what is left. */
static void apply_side_constraints(const bth_smi *I, toy_node *t, uint64_t *rng) {
  int vars = bth_smi_vars(I), holes = (int)(tu_rand(rng) % 5);
  if (vars == 0) return;
  for (int h = 0; h < holes; h++) {
    int v = (int)(tu_rand(rng) % (uint64_t)vars);
    toy_remove(&t->dom, v, (int)(tu_rand(rng) % (uint64_t)(bth_smi_len(I, v) + 1)));
  }
  if (tu_rand(rng) % 4 == 0) {
    int v = (int)(tu_rand(rng) % (uint64_t)vars);
    toy_assign(&t->dom, v, (int)(tu_rand(rng) % (uint64_t)(bth_smi_len(I, v) + 1)));
  }
  if (I->nm > 0 && tu_rand(rng) % 4 == 0) {
    int m = (int)(tu_rand(rng) % (uint64_t)I->nm);
    toy_lower_max(&t->dom, m, (int)(tu_rand(rng) % (uint64_t)(I->lm[m] + 1)));
  }
}

/* After the root: a few values removed (or a variable assigned) and told to the core as a
 * host would, precisely, as unknown, or as a bound change; never emptying a domain. */
static void apply_events(const bth_smi *I, toy_node *t, bb_smc_scratch *scratch, uint64_t *rng) {
  int vars = bth_smi_vars(I), moves = 1 + (int)(tu_rand(rng) % 4);
  for (int e = 0; e < moves && vars > 0; e++) {
    int v = (int)(tu_rand(rng) % (uint64_t)vars);
    int values[BTH_SMI_MAX + 1], count = toy_values(&t->dom, v, values);
    if (count < 2) continue;
    int value = values[tu_rand(rng) % (uint64_t)count];
    switch (tu_rand(rng) % 4) {
      case 0:
        toy_assign(&t->dom, v, value);
        bb_smc_note_changed(scratch, v);
        break;
      case 1:
        note_removal(scratch, t, v, value, true);
        toy_remove(&t->dom, v, value);
        break;
      default:
        note_removal(scratch, t, v, value, false);
        toy_remove(&t->dom, v, value);
        break;
    }
  }
}

static long searches;

static void differential(int rounds, uint64_t rng, bool batch) {
  int with_solutions = 0, max_solutions = 0, one_sided = 0, empty_lists = 0;
  for (int round = 0; round < rounds; round++) {
    bth_smi I;
    bth_smi_random(&I, &rng, &bth_smi_small);
    int base = (int)(tu_rand(&rng) & 1), vars = bth_smi_vars(&I);
    bb_error err = {{0}};
    bb_smc_prefs *prefs = prefs_of(&I, base, &rng, &err);
    CHECKF(prefs != NULL, "round %d: %s", round, err.msg);
    if (!prefs) continue;
    static bth_solutions all, want;
    bth_smi_brute(&I, &all);
    CHECKF(all.count >= 1 && all.count < CAP, "round %d: brute force found %d stable matchings", round, all.count);
    with_solutions += all.count > 0;
    if (all.count > max_solutions) max_solutions = all.count;
    for (int v = 0; v < vars; v++) {
      empty_lists += bth_smi_len(&I, v) == 0;
      for (int k = 0; k < bth_smi_len(&I, v); k++) one_sided += bb_smc_partner(prefs, v, k) < 0;
    }
    check_shape(&I, prefs, base, round);
    check_root(&I, prefs, &all, round);
    if (round % 4 == 0) check_root_paths_agree(&I, prefs, round, batch);

    /* (b) Full domains: exactly the stable matchings; gs-lists without a failure when the
     * branching only assigns or raises minimums. */
    toy_node fresh = node_new_for(prefs);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      for (int br = 0; br < BR_COUNT; br++) {
        bool failure_free = strength == BB_SMC_GS_LISTS && (br == BR_NARY || br == BR_MIN);
        search_and_compare(&I, prefs, strength, (branching)br, &fresh, &all, failure_free, round, "full domains");
        searches++;
      }
    }
    node_free(&fresh);

    /* (c) Side constraints before the root. */
    toy_node sided = node_new_for(prefs);
    apply_side_constraints(&I, &sided, &rng);
    bth_solutions_copy(&want, &all);
    bth_smi_filter(&I, &want, sided.dom.in, sided.dom.n);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      branching br = (branching)((round + si) % BR_COUNT);
      search_and_compare(&I, prefs, strength, br, &sided, &want, false, round, "side constraints");
      searches++;
    }
    node_free(&sided);

    /* (d) Removals after the root, told as events. */
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      toy_node t = node_new_for(prefs);
      bb_smc_scratch *scratch = bb_smc_scratch_for(prefs, &err);
      CHECKF(scratch != NULL, "scratch: %s", err.msg);
      bb_smc_domains d = toy_domains(&t.dom);
      bb_smc_status r = scratch ? bb_smc_propagate(prefs, strength, t.smc, scratch, &d, NULL) : BB_SMC_NOMEM;
      if (r == BB_SMC_FIX) {
        apply_events(&I, &t, scratch, &rng);
        bth_solutions_copy(&want, &all);
        bth_smi_filter(&I, &want, t.dom.in, t.dom.n);
        /* The events stay in the scratch; the search's first propagation must read them. */
        static search s;
        memset(&s, 0, sizeof s);
        bth_solutions_reset(&s.found, vars);
        s.I = &I;
        s.prefs = prefs;
        s.strength = strength;
        s.br = (branching)((round + 2 * si) % BR_COUNT);
        s.scratch = scratch;
        s.rng = (uint64_t)round;
        dfs(&s, &t);
        CHECKF(bth_same_solutions(&s.found, &want),
               "round %d (%d men, %d women) events after the root, %s, %s branching: %d solutions, brute force %d",
               round, I.nm, I.nw, bb_smc_strength_name(strength), branching_name[s.br], s.found.count, want.count);
        bth_solutions_free(&s.found);
        searches++;
      }
      bb_smc_scratch_free(scratch);
      node_free(&t);
    }
    bb_smc_prefs_release(prefs);
  }
  printf(
      "differential (root %s): %d instances, %d with a stable matching, up to %d each, %d one-sided entries, "
      "%d empty lists; %ld searches so far\n",
      batch ? "as a batch" : "through the event rules", rounds, with_solutions, max_solutions, one_sided, empty_lists,
      searches);
  CHECK(max_solutions >= 3 && one_sided > rounds / 2 && empty_lists > 0); /* the instances are not trivial */
}

/* --- Validation. --- */

static void expect_error(const char *what, const char *needle, int nm, int nw, int base, const int *pm, const int *lm,
                         int pm_cols, const int *pw, const int *lw, int pw_cols) {
  bb_error err = {{0}};
  bb_smc_prefs *p = bb_smc_prefs_new_smi(nm, nw, base, pm, lm, pm_cols, pw, lw, pw_cols, &err);
  CHECKF(p == NULL, "%s: accepted", what);
  CHECKF(!strncmp(err.msg, "stable_matching_smi:", 20), "%s: message '%s' lacks the prefix", what, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, err.msg, needle);
  bb_smc_prefs_release(p);
  CHECK(bb_smc_prefs_new_smi(nm, nw, base, pm, lm, pm_cols, pw, lw, pw_cols, NULL) == NULL); /* err may be NULL */
}

static void validation(void) {
  /* 3 men, 2 women; rows of 3 columns (one of padding for the men). */
  const int pm0[9] = {0, 1, 9, 1, 9, 9, 0, 1, 9}, lm[3] = {2, 1, 2};
  const int pw0[9] = {2, 0, 1, 1, 9, 9, 0, 0, 0}, lw[2] = {3, 1};
  int pm1[9], pw1[9];
  for (int c = 0; c < 9; c++) pm1[c] = pm0[c] + 1, pw1[c] = pw0[c] + 1;
  bb_error err = {{0}};
  for (int base = 0; base <= 1; base++) {
    bb_smc_prefs *p = bb_smc_prefs_new_smi(3, 2, base, base ? pm1 : pm0, lm, 3, base ? pw1 : pw0, lw, 3, &err);
    CHECKF(p != NULL, "valid input (base %d): %s", base, err.msg);
    if (p) {
      CHECK(bb_smc_prefs_base(p) == base && bb_smc_prefs_len(p, 1) == 1 && bb_smc_prefs_len(p, 4) == 1);
      /* Acceptable: (m0, w0), (m1, w1), (m2, w0); men 0..2 are variables 0..2, women 3 and 4. */
      CHECK(bb_smc_partner(p, 0, 0) == 3 && bb_smc_partner(p, 0, 1) == -1 && bb_smc_partner(p, 1, 0) == 4);
      CHECK(bb_smc_partner(p, 2, 0) == 3 && bb_smc_partner(p, 2, 1) == -1 && bb_smc_partner(p, 2, 2) == -1);
      CHECK(bb_smc_partner(p, 3, 0) == 2 && bb_smc_partner(p, 3, 1) == 0 && bb_smc_partner(p, 3, 2) == -1);
      CHECK(bb_smc_partner(p, 3, 3) == -1 && bb_smc_partner(p, 4, 0) == 1 && bb_smc_partner(p, 4, 1) == -1);
    }
    bb_smc_prefs_release(p);
  }
  bb_smc_prefs_release(NULL);
  /* Lengths: past the columns, negative; the row named in the user's base. */
  const int long0[3] = {2, 3, 0}, neg1[2] = {3, -1};
  expect_error("length past the columns (base 0)", "pm_len[1] (man 1's list length) is 3; a row has 2 columns", 3, 2, 0,
               pm0, long0, 2, pw0, lw, 3);
  expect_error("length past the columns (base 1)", "pm_len[2] (man 2's list length) is 3; a row has 2 columns", 3, 2, 1,
               pm1, long0, 2, pw1, lw, 3);
  expect_error("negative length", "pw_len[2] (woman 2's list length) is -1", 3, 2, 1, pm1, lm, 3, pw1, neg1, 3);
  /* Ids out of range: past the other side, below the base, with nobody on the other side. */
  int bad[9];
  memcpy(bad, pm0, sizeof bad);
  bad[7] = 2; /* man 2, column 1 */
  expect_error("id past the women (base 0)", "pm row 2 (man 2's list) names woman 2 at column 1; the women are 0..1", 3,
               2, 0, bad, lm, 3, pw0, lw, 3);
  memcpy(bad, pw1, sizeof bad);
  bad[1] = 4; /* woman 1 (base 1), column 2 */
  expect_error("id past the men (base 1)", "pw row 1 (woman 1's list) names man 4 at column 2; the men are 1..3", 3, 2,
               1, pm1, lm, 3, bad, lw, 3);
  expect_error("0-based ids with base 1", "pm row 1 (man 1's list) names woman 0 at column 1", 3, 2, 1, pm0, lm, 3, pw1,
               lw, 3);
  memcpy(bad, pm0, sizeof bad);
  bad[0] = -1;
  expect_error("negative id", "names woman -1", 3, 2, 0, bad, lm, 3, pw0, lw, 3);
  const int one_len[1] = {1}, one_row[1] = {0};
  expect_error("a list with nobody to name", "names woman 0, but there are no women", 1, 0, 0, one_row, one_len, 1,
               NULL, NULL, 0);
  /* Duplicates: the columns in the user's base. */
  memcpy(bad, pw0, sizeof bad);
  bad[2] = 2; /* woman 0 lists man 2 at columns 0 and 2 */
  expect_error("duplicate (base 0)", "pw row 0 (woman 0's list) names man 2 twice (columns 0 and 2)", 3, 2, 0, pm0, lm,
               3, bad, lw, 3);
  memcpy(bad, pm1, sizeof bad);
  bad[1] = 1; /* man 1 (base 1) lists woman 1 at columns 1 and 2 */
  expect_error("duplicate (base 1)", "pm row 1 (man 1's list) names woman 1 twice (columns 1 and 2)", 3, 2, 1, bad, lm,
               3, pw1, lw, 3);
  /* The base, the sizes, missing arrays. */
  expect_error("base 2", "base 2", 3, 2, 2, pm1, lm, 3, pw1, lw, 3);
  expect_error("base -1", "base -1", 3, 2, -1, pm0, lm, 3, pw0, lw, 3);
  expect_error("nobody at all", "0 men and 0 women", 0, 0, 0, pm0, lm, 3, pw0, lw, 3);
  expect_error("negative size", "-1 men", -1, 2, 0, pm0, lm, 3, pw0, lw, 3);
  expect_error("lengths missing", "missing", 3, 2, 0, pm0, NULL, 3, pw0, lw, 3);
  /* Padding past a length is never read: junk there is fine, and so is a padded empty list. */
  const int junk[6] = {1, -50, 77, 0, 1000, 1000}, junk_len[2] = {1, 0}, w_rows[2] = {0, 1}, w_len[2] = {1, 0};
  bb_smc_prefs *p = bb_smc_prefs_new_smi(2, 2, 0, junk, junk_len, 3, w_rows, w_len, 1, &err);
  CHECKF(p != NULL, "junk past the lengths: %s", err.msg);
  if (p) CHECK(bb_smc_partner(p, 0, 0) == -1 && bb_smc_prefs_len(p, 1) == 0 && bb_smc_prefs_len(p, 3) == 0);
  bb_smc_prefs_release(p);
  /* One side empty: the others are all unmatched, which is the one solution. */
  const int none_len[3] = {0, 0, 0};
  p = bb_smc_prefs_new_smi(0, 3, 1, NULL, NULL, 0, NULL, none_len, 0, &err);
  CHECKF(p != NULL, "no men: %s", err.msg);
  if (p) {
    toy_node t;
    bb_smc_status r = root(p, BB_SMC_GS_LISTS, &t);
    CHECK(r == BB_SMC_SOLVED && toy_size(&t.dom, 0) == 1 && toy_min(&t.dom, 2) == 0);
    node_free(&t);
  }
  bb_smc_prefs_release(p);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  validation();
  check_complete_shape();
  for (int batch = 1; batch >= 0; batch--) {
    bb_smc_set_root_batch(batch);
    differential(batch ? 3000 : 1500, batch ? 20261124 : 77, batch);
  }
  if (first_failed_round >= 0) printf("first root check failure in round %d\n", first_failed_round);
  return tu_finish();
}
