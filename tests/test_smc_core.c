/* The SMC core (propagator/smc.c) driven by a toy host: bitset domains and a small DFS,
 * no Gecode. Checks, against the independent references of the harness (tests/harness/bth_sm.h):
 *   - solution sets equal brute force for n <= 7, with and without side constraints,
 *     for both strengths, under several event styles (bounds, precise inner ranges,
 *     unknown deltas);
 *   - the root fixpoint equals the MGS-lists / GS-lists; a second propagation changes
 *     nothing (idempotence);
 *   - gs-lists enumerates every stable matching without a failure (n up to 200);
 *   - [Travasci 2025]'s Table 1 instance has exactly its two stable matchings;
 *   - every validation error of bb_smc_prefs_new. */
#include "smc.h"
#include "smc_tuning.h"
#include "bth_sm.h"
#include "smc_toy.h"
#include "test_util.h"

#include <stdio.h>

/* How the toy search reports its decisions to the core. */
typedef enum event_style { EV_PRECISE, EV_UNKNOWN, EV_CHANGED_ONLY_BOUNDS } event_style;

typedef struct search {
  const bb_smc_prefs *prefs;
  bb_smc_strength strength;
  bb_smc_scratch *scratch;
  event_style style;
  const int *pm; /* 0-based, for decoding solutions */
  int n;
  long solutions, failures;
  int *found; /* wife[] rows */
  int found_cap;
  bool keep_found;
  uint64_t rng;
} search;

static long lockstep_checks;

/* A later propagation (the batches of smc_delta.c, or the event rules) against the event
 * rules on a copy of the node that re-examine every variable: the fixpoint is unique, so both
 * must leave the same domains and say the same. */
static bb_smc_status propagate(search *s, toy_node *t) {
  bb_smc_domains d = toy_domains(&t->dom);
  bool later = !bb_smc_node_fresh(t->smc) && s->n <= 60; /* larger: the reference costs O(n^2) a node */
  toy_node ref = {{0, 0, NULL}, NULL, 0};
  if (later) ref = node_copy(t);
  bb_smc_status r = bb_smc_propagate(s->prefs, s->strength, t->smc, s->scratch, &d, NULL);
  if (!later) return r;
  bb_smc_scratch *all = bb_smc_scratch_new(s->n, NULL);
  for (int v = 0; v < 2 * s->n; v++) bb_smc_note_unknown(all, v);
  bb_smc_domains rd = toy_domains(&ref.dom);
  bool batch = bb_smc_delta_batch();
  bb_smc_set_delta_batch(false);
  bb_smc_status rr = bb_smc_propagate(s->prefs, s->strength, ref.smc, all, &rd, NULL);
  bb_smc_set_delta_batch(batch);
  CHECKF(r == rr, "n=%d: this propagation says %d, the event rules over every variable %d", s->n, (int)r, (int)rr);
  if (r != BB_SMC_FAILED && rr != BB_SMC_FAILED)
    CHECKF(memcmp(ref.dom.in, t->dom.in, (size_t)2 * s->n * s->n) == 0,
           "n=%d %s: the domains differ from the event rules' over every variable", s->n,
           bb_smc_strength_name(s->strength));
  lockstep_checks++;
  bb_smc_scratch_free(all);
  node_free(&ref);
  return r;
}

/* Records a removal of `value` from var as the host's advisor would. */
static void note_removal(search *s, toy_node *t, int var, int value) {
  bool inner = value > toy_min(&t->dom, var) && value < toy_max(&t->dom, var);
  if (!inner || s->style == EV_CHANGED_ONLY_BOUNDS)
    bb_smc_note_changed(s->scratch, var);
  else if (s->style == EV_UNKNOWN)
    bb_smc_note_unknown(s->scratch, var);
  else
    bb_smc_note_removed(s->scratch, var, value, value);
}

static void record_solution(search *s, toy_node *t) {
  s->solutions++;
  if (!s->keep_found) return;
  if (s->solutions > s->found_cap) {
    s->found_cap = s->found_cap ? 2 * s->found_cap : 16;
    s->found = realloc(s->found, (size_t)s->found_cap * s->n * sizeof(int));
  }
  for (int i = 0; i < s->n; i++) s->found[(s->solutions - 1) * s->n + i] = s->pm[i * s->n + toy_min(&t->dom, i)];
}

/* Binary DFS: var = v, then var != v, on the first unassigned variable (men then women). */
static void dfs(search *s, toy_node *t) {
  for (int v = 0; v < 2 * s->n; v++)
    if (!toy_nonempty(&t->dom, v)) { /* a side constraint emptied a domain: the host fails */
      s->failures++;
      return;
    }
  bb_smc_status r = propagate(s, t);
  if (r == BB_SMC_FAILED) {
    s->failures++;
    return;
  }
  int n = s->n, var = -1;
  for (int v = 0; v < 2 * n && var < 0; v++)
    if (toy_min(&t->dom, v) != toy_max(&t->dom, v)) var = v;
  if (var < 0) {
    CHECKF(r == BB_SMC_SOLVED, "all assigned but the core said %d", (int)r);
    record_solution(s, t);
    return;
  }
  CHECK(r == BB_SMC_FIX);
  int lo = toy_min(&t->dom, var), hi = toy_max(&t->dom, var);
  /* Branch on the minimum, or (to exercise inner removals) on a middle value. */
  int value = lo;
  if (s->style != EV_CHANGED_ONLY_BOUNDS && hi - lo >= 2 && (tu_rand(&s->rng) & 1)) {
    for (int v = lo + 1; v < hi; v++)
      if (toy_contains(&t->dom, var, v)) {
        value = v;
        break;
      }
  }
  toy_node left = node_copy(t);
  toy_assign(&left.dom, var, value);
  bb_smc_note_changed(s->scratch, var);
  dfs(s, &left);
  node_free(&left);
  toy_node right = node_copy(t);
  note_removal(s, &right, var, value);
  toy_remove(&right.dom, var, value);
  dfs(s, &right);
  node_free(&right);
}

/* Side constraints as pair restrictions, applied both to the toy domains (as the model's
 * other constraints would) and to brute force's allowed[] table. Holes are put on either
 * side's domain; a man's hole forbids that pair exactly like a woman's would. */
static void side_constraints(int n, uint64_t *seed, const int *pm, const int *pw, toy_node *t, bool *allowed,
                             bool ranked_holes) {
  for (int q = 0; q < n * n; q++) allowed[q] = true;
  int holes = (int)(tu_rand(seed) % (uint64_t)(n + 2));
  for (int h = 0; h < holes; h++) {
    int i = (int)(tu_rand(seed) % (uint64_t)n), j = (int)(tu_rand(seed) % (uint64_t)n);
    allowed[i * n + j] = false;
    if (tu_rand(seed) & 1)
      toy_remove(&t->dom, i, bth_sm_rank(pm, n, i, j));
    else
      toy_remove(&t->dom, n + j, bth_sm_rank(pw, n, j, i));
  }
  if (tu_rand(seed) % 3 == 0) { /* a forced pair */
    int i = (int)(tu_rand(seed) % (uint64_t)n), j = (int)(tu_rand(seed) % (uint64_t)n);
    for (int q = 0; q < n; q++) {
      if (q != j) allowed[i * n + q] = false;
      if (q != i) allowed[q * n + j] = false;
    }
    toy_assign(&t->dom, i, bth_sm_rank(pm, n, i, j));
  }
  if (ranked_holes && (tu_rand(seed) & 1)) { /* a bound on ranks: man 0 gets his top half */
    int cut = n / 2;
    for (int k = cut + 1; k < n; k++) allowed[0 * n + pm[k]] = false;
    toy_lower_max(&t->dom, 0, cut);
  }
}

static void differential(void) {
  const bb_smc_strength strengths[] = {BB_SMC_GS_LISTS, BB_SMC_MEN_PROPOSING};
  int instances = 0, with_solutions = 0;
  uint64_t seed = 20261122;
  for (int n = 1; n <= 7; n++) {
    int rounds = n <= 3 ? 30 : n <= 5 ? 80 : 40;
    for (int round = 0; round < rounds; round++) {
      int pm[49], pw[49];
      bool allowed[49];
      bth_sm_random(n, &seed, pm, pw);
      bb_smc_prefs *prefs = bb_smc_prefs_new(n, n, pm, n, n, pw, n, n, NULL);
      CHECK(prefs != NULL);
      bool sides = round % 2 == 1;
      uint64_t side_seed = seed;
      for (int si = 0; si < 2; si++)
        for (int style = EV_PRECISE; style <= EV_CHANGED_ONLY_BOUNDS; style++) {
          toy_node root = node_new(n);
          uint64_t ss = side_seed;
          if (sides)
            side_constraints(n, &ss, pm, pw, &root, allowed, true);
          else
            for (int q = 0; q < n * n; q++) allowed[q] = true;
          bth_solutions ref = {0};
          bth_sm_brute(pm, pw, n, allowed, &ref);
          search s = {prefs, strengths[si], bb_smc_scratch_new(n, NULL), (event_style)style, pm, n, 0, 0, NULL,
                      0,     true,          seed + (uint64_t)style};
          dfs(&s, &root);
          /* Compare as sets of wife[] rows. */
          CHECKF(s.solutions == ref.count, "n=%d round %d strength %s style %d: %ld solutions, brute force %d", n,
                 round, bb_smc_strength_name(s.strength), style, s.solutions, ref.count);
          if (s.solutions == ref.count)
            for (int a = 0; a < ref.count; a++) {
              bool seen = false;
              for (int b = 0; b < ref.count && !seen; b++)
                seen = memcmp(bth_solution(&ref, a), s.found + b * n, (size_t)n * sizeof(int)) == 0;
              CHECKF(seen, "n=%d round %d: a brute-force matching is missing", n, round);
            }
          if (!sides && s.strength == BB_SMC_GS_LISTS && style == EV_CHANGED_ONLY_BOUNDS) /* min-value branching */
            CHECKF(s.failures == 0, "n=%d: gs-lists failed %ld times without side constraints", n, s.failures);
          with_solutions += ref.count > 0;
          instances++;
          bth_solutions_free(&ref);
          free(s.found);
          bb_smc_scratch_free(s.scratch);
          node_free(&root);
        }
      bb_smc_prefs_release(prefs);
    }
  }
  printf("differential: %d searches (%d with solutions)\n", instances, with_solutions);
}

/* Root fixpoint = reference lists; a second full propagation changes nothing. */
static void consistency(void) {
  uint64_t seed = 99;
  int cases = 0, marriage_cases = 0;
  for (int n = 1; n <= 60; n += (n < 10 ? 1 : 7)) {
    for (int round = 0; round < 6; round++) {
      int *pm = malloc(sizeof(int) * n * n), *pw = malloc(sizeof(int) * n * n);
      bool *allowed = malloc((size_t)n * n);
      bth_sm_random(n, &seed, pm, pw);
      bb_smc_prefs *prefs = bb_smc_prefs_new(n, n, pm, n, n, pw, n, n, NULL);
      for (int si = 0; si < 2; si++) {
        bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
        toy_node t = node_new(n);
        search s = {prefs, strength, bb_smc_scratch_new(n, NULL), EV_PRECISE, pm, n, 0, 0, NULL, 0, false, 1};
        bb_smc_status r = propagate(&s, &t);
        CHECK(r != BB_SMC_FAILED);
        /* gs-lists: exactly the GS-lists (Gale-Shapley both ways, intersected). Men-proposing:
         * the MGS-lists whenever nobody's MGS-list is a single partner; otherwise the paper's
         * inst() (marriage) prunes further, and the naive fixpoint of the rules is the reference. */
        bth_sm_gs_lists(pm, pw, n, strength == BB_SMC_GS_LISTS, allowed);
        bool single = false;
        for (int p = 0; p < n; p++) {
          int mc = 0, wc = 0;
          for (int q = 0; q < n; q++) mc += allowed[p * n + q], wc += allowed[q * n + p];
          single = single || mc == 1 || wc == 1;
        }
        if (strength == BB_SMC_MEN_PROPOSING && single) {
          bool *naive = malloc((size_t)n * n);
          for (int q = 0; q < n * n; q++) naive[q] = true;
          CHECK(bth_sm_rule_fixpoint(pm, pw, n, false, naive));
          for (int q = 0; q < n * n; q++) {
            CHECKF(!naive[q] || allowed[q], "n=%d: the rule fixpoint is not within the MGS-lists", n);
            allowed[q] = naive[q];
          }
          free(naive);
          marriage_cases++;
        }
        if (strength == BB_SMC_GS_LISTS) { /* the naive rule fixpoint agrees with Gale-Shapley */
          bool *naive = malloc((size_t)n * n);
          for (int q = 0; q < n * n; q++) naive[q] = true;
          CHECK(bth_sm_rule_fixpoint(pm, pw, n, true, naive));
          CHECKF(memcmp(naive, allowed, (size_t)n * n) == 0, "n=%d: naive gs-lists fixpoint != GS-lists", n);
          free(naive);
        }
        bool same = true;
        for (int i = 0; i < n; i++)
          for (int j = 0; j < n; j++) {
            bool man_has = toy_contains(&t.dom, i, bth_sm_rank(pm, n, i, j));
            bool woman_has = toy_contains(&t.dom, n + j, bth_sm_rank(pw, n, j, i));
            if (man_has != allowed[i * n + j] || woman_has != allowed[i * n + j]) same = false;
          }
        CHECKF(same, "n=%d round %d %s: root domains differ from the reference lists", n, round,
               bb_smc_strength_name(strength));
        uint8_t *before = malloc((size_t)2 * n * n);
        memcpy(before, t.dom.in, (size_t)2 * n * n);
        for (int v = 0; v < 2 * n; v++) bb_smc_note_unknown(s.scratch, v);
        r = propagate(&s, &t);
        CHECK(r != BB_SMC_FAILED);
        CHECKF(memcmp(before, t.dom.in, (size_t)2 * n * n) == 0, "n=%d: second propagation changed domains", n);
        free(before);
        bb_smc_scratch_free(s.scratch);
        node_free(&t);
        cases++;
      }
      bb_smc_prefs_release(prefs);
      free(pm);
      free(pw);
      free(allowed);
    }
  }
  printf("consistency: %d root fixpoints checked (%d men-proposing ones pruned by marriage)\n", cases, marriage_cases);
}

/* gs-lists: every stable matching, zero failures, up to n = 200, branching x = min | x > min
 * (Gent et al., CP 2001). Each solution found is
 * checked stable by the reference; the men-proposing count must agree. */
static void failure_free(void) {
  uint64_t seed = 7;
  const int sizes[] = {10, 25, 50, 100, 150, 200};
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
    int n = sizes[z];
    int *pm = malloc(sizeof(int) * n * n), *pw = malloc(sizeof(int) * n * n);
    for (int round = 0; round < 3; round++) {
      bth_sm_random(n, &seed, pm, pw);
      bb_smc_prefs *prefs = bb_smc_prefs_new(n, n, pm, n, n, pw, n, n, NULL);
      long counts[2];
      for (int si = 0; si < 2; si++) {
        toy_node t = node_new(n);
        search s = {prefs,
                    si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS,
                    bb_smc_scratch_new(n, NULL),
                    EV_CHANGED_ONLY_BOUNDS /* branches on the minimum */,
                    pm,
                    n,
                    0,
                    0,
                    NULL,
                    0,
                    true,
                    5};
        dfs(&s, &t);
        counts[si] = s.solutions;
        if (si == 0) CHECKF(s.failures == 0, "n=%d: gs-lists enumeration failed %ld times", n, s.failures);
        if (n <= 16) { /* wife[] decoded from ranks: stable against the full lists */
          for (long k = 0; k < s.solutions; k++) CHECK(bth_sm_stable(pm, pw, n, s.found + k * n));
        }
        if (si == 0 && round == 0)
          printf("failure-free: n=%d %ld stable matchings, %ld failures\n", n, s.solutions, s.failures);
        free(s.found);
        bb_smc_scratch_free(s.scratch);
        node_free(&t);
      }
      CHECKF(counts[0] == counts[1] && counts[0] >= 1, "n=%d: %ld vs %ld matchings", n, counts[0], counts[1]);
      bb_smc_prefs_release(prefs);
    }
    free(pm);
    free(pw);
  }
}

/* [Travasci 2025], Table 1 / Figure 1 (0-based). */
static void seed_table1(void) {
  const int pm[25] = {3, 4, 1, 2, 0, 0, 1, 3, 2, 4, 0, 4, 3, 2, 1, 2, 1, 4, 3, 0, 0, 1, 4, 2, 3};
  const int pw[25] = {1, 3, 4, 0, 2, 2, 3, 0, 4, 1, 0, 2, 1, 4, 3, 0, 3, 2, 1, 4, 1, 4, 0, 3, 2};
  bb_smc_prefs *prefs = bb_smc_prefs_new(5, 5, pm, 5, 5, pw, 5, 5, NULL);
  CHECK(prefs && bb_smc_prefs_base(prefs) == 0);
  for (int si = 0; si < 2; si++) {
    toy_node t = node_new(5);
    search s = {prefs,
                si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS,
                bb_smc_scratch_new(5, NULL),
                EV_PRECISE,
                pm,
                5,
                0,
                0,
                NULL,
                0,
                true,
                3};
    dfs(&s, &t);
    CHECKF(s.solutions == 2, "Table 1: %ld stable matchings", s.solutions);
    const int a[5] = {3, 0, 2, 1, 4}, b[5] = {3, 0, 4, 2, 1};
    int hits = 0;
    for (long k = 0; k < s.solutions; k++)
      hits += !memcmp(s.found + k * 5, a, sizeof a) || !memcmp(s.found + k * 5, b, sizeof b);
    CHECK(hits == 2);
    free(s.found);
    bb_smc_scratch_free(s.scratch);
    node_free(&t);
  }
  /* The paper's caption calls this one stable; (m0, w3) blocks it. */
  const int caption[5] = {4, 2, 0, 1, 3};
  CHECK(!bth_sm_stable(pm, pw, 5, caption));
  bb_smc_prefs_release(prefs);
}

static void expect_error(const char *what, int nm, int nw, const int *pm, int pr, int pc, const int *pw, int wr, int wc,
                         const char *needle) {
  bb_error err = {{0}};
  bb_smc_prefs *p = bb_smc_prefs_new(nm, nw, pm, pr, pc, pw, wr, wc, &err);
  CHECKF(p == NULL, "%s: accepted", what);
  CHECKF(strstr(err.msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, err.msg, needle);
  bb_smc_prefs_release(p);
}

static void validation(void) {
  const int ok0[9] = {0, 1, 2, 2, 1, 0, 1, 0, 2};
  const int ok1[9] = {1, 2, 3, 3, 2, 1, 2, 1, 3};
  bb_error err;
  bb_smc_prefs *p = bb_smc_prefs_new(3, 3, ok1, 3, 3, ok1, 3, 3, &err);
  CHECK(p && bb_smc_prefs_base(p) == 1 && bb_smc_man_choice(p, 0, 0) == 0 && bb_smc_woman_rank(p, 1, 0) == 2);
  bb_smc_prefs_release(p);
  const int dup[9] = {0, 1, 2, 2, 2, 0, 1, 0, 2};
  const int range[9] = {0, 1, 2, 2, 1, 0, 1, 0, 3};
  const int neg[9] = {0, 1, 2, 2, 1, -1, 1, 0, 2};
  expect_error("lengths", 3, 4, ok0, 3, 3, ok0, 3, 3, "3 men but 4 women");
  expect_error("pm rows", 3, 3, ok0, 2, 3, ok0, 3, 3, "pm is 2 x 3");
  expect_error("pw cols", 3, 3, ok0, 3, 3, ok0, 3, 2, "pw is 3 x 2");
  expect_error("duplicate", 3, 3, ok0, 3, 3, dup, 3, 3,
               "pw row 1 (woman 1's list) is not a permutation of 0..2: 2 appears at columns 0 and 1");
  expect_error("range", 3, 3, range, 3, 3, ok0, 3, 3, "pm row 2 (man 2's list): value 3 at column 2 is outside 0..2");
  expect_error("base", 3, 3, neg, 3, 3, ok0, 3, 3, "smallest value is -1");
  expect_error("mixed", 3, 3, ok0, 3, 3, ok1, 3, 3, "mixed bases");
  expect_error("empty", 0, 0, ok0, 0, 0, ok0, 0, 0, "need 1..");
  bb_smc_strength st;
  CHECK(bb_smc_strength_parse("men-proposing", &st) && st == BB_SMC_MEN_PROPOSING);
  CHECK(bb_smc_strength_parse("gs-lists", &st) && st == BB_SMC_GS_LISTS);
  CHECK(!bb_smc_strength_parse("gs", &st));
}

/* A copy of pm/pw in base `base`, in malloc'd memory that bb_smc_prefs_take may own. */
static int32_t *based_copy(const int *m, size_t cells, int base) {
  int32_t *c = malloc(cells * sizeof *c);
  for (size_t k = 0; k < cells; k++) c[k] = m[k] + base;
  return c;
}

/* The threaded build (n >= 1024) and bb_smc_prefs_take: the same data as bb_smc_prefs_new
 * from every entry point, in both bases, and the same message for a bad row wherever it is
 * (the threads check every row before any is rewritten). */
static void large_build(void) {
  const int n = 1100;
  size_t cells = (size_t)n * n;
  uint64_t seed = 77;
  int *pm = malloc(cells * sizeof *pm), *pw = malloc(cells * sizeof *pw);
  bb_id *row = malloc((size_t)n * sizeof *row); /* bth_sm_random stops at 256 */
  for (int p = 0; p < 2 * n; p++) {
    tu_shuffle(row, n, &seed);
    for (int k = 0; k < n; k++) (p < n ? pm : pw)[(size_t)(p % n) * n + k] = (int)row[k];
  }
  free(row);
  bb_error err = {{0}};
  bb_smc_prefs *ref = bb_smc_prefs_new(n, n, pm, n, n, pw, n, n, &err);
  CHECKF(ref != NULL, "n = %d: %s", n, err.msg);
  for (int base = 0; base <= 1 && ref; base++) {
    bb_smc_prefs *taken =
        bb_smc_prefs_take(n, n, based_copy(pm, cells, base), n, n, based_copy(pw, cells, base), n, n, &err);
    CHECKF(taken != NULL, "take, base %d: %s", base, err.msg);
    if (!taken) continue;
    CHECK(bb_smc_prefs_base(taken) == base);
    long wrong = 0;
    for (int p = 0; p < n; p++)
      for (int q = 0; q < n; q++)
        wrong += bb_smc_man_choice(taken, p, q) != bb_smc_man_choice(ref, p, q) ||
                 bb_smc_woman_choice(taken, p, q) != bb_smc_woman_choice(ref, p, q);
    for (int k = 0; k < 3000; k++) { /* the rank look-ups scan a row: a sample */
      int p = (int)(tu_rand(&seed) % (uint64_t)n), q = (int)(tu_rand(&seed) % (uint64_t)n);
      wrong += bb_smc_man_rank(taken, p, q) != bb_smc_man_rank(ref, p, q) ||
               bb_smc_woman_rank(taken, p, q) != bb_smc_woman_rank(ref, p, q);
    }
    CHECKF(wrong == 0, "take, base %d: %ld entries differ from bb_smc_prefs_new", base, wrong);
    bb_smc_prefs_release(taken);
  }
  bb_smc_prefs_release(ref);
  /* Bad rows late in pm and in pw: one message, the sequential one, from every entry point. */
  struct {
    int *m, row, col, value;
    const char *want;
  } bad[] = {
      {pm, 900, 5, -1, "stable_matching: pm row 900 (man 900's list) is not a permutation of 0..1099: "},
      {pw, 1050, 7, 1100,
       "stable_matching: pw row 1050 (woman 1050's list): value 1100 at column 7 is outside 0..1099"},
  };
  for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
    int *bad_row = bad[b].m + (size_t)bad[b].row * n;
    int saved = bad_row[bad[b].col];
    bad_row[bad[b].col] = bad[b].value < 0 ? bad_row[bad[b].col + 1] : bad[b].value; /* a duplicate, or out of range */
    bb_error e1 = {{0}}, e2 = {{0}};
    bb_smc_prefs *p1 = bb_smc_prefs_new(n, n, pm, n, n, pw, n, n, &e1);
    bb_smc_prefs *p2 = bb_smc_prefs_take(n, n, based_copy(pm, cells, 0), n, n, based_copy(pw, cells, 0), n, n, &e2);
    CHECK(p1 == NULL && p2 == NULL);
    CHECKF(strstr(e1.msg, bad[b].want) == e1.msg, "new: '%s'", e1.msg);
    CHECKF(strcmp(e1.msg, e2.msg) == 0, "take: '%s', new: '%s'", e2.msg, e1.msg);
    bad_row[bad[b].col] = saved;
  }
  free(pm);
  free(pw);
}

/* The delta batch reads a variable's row from the host at most once a round, also when its lower
 * bound is far from 0: the row's offset into the pool is then negative, which must not read as
 * "no row yet". The cyclic instance keeps every pair stable (n shifts), so the root leaves the
 * domains full; man 0 then loses his first 40 ranks and two inner ones, told as two ranges. */
static int row_reads_var, row_reads;
static int counting_ranges(void *c, int var, int *out) {
  if (var == row_reads_var) row_reads++;
  return toy_ranges(c, var, out);
}

static void row_read_once(void) {
  enum { N = 64 };
  int *pm = malloc(sizeof(int) * N * N), *pw = malloc(sizeof(int) * N * N);
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) pm[i * N + k] = (i + k) % N, pw[i * N + k] = (i + 1 + k) % N;
  bb_smc_prefs *prefs = bb_smc_prefs_new(N, N, pm, N, N, pw, N, N, NULL);
  CHECK(prefs != NULL);
  bool batch = bb_smc_delta_batch();
  bb_smc_set_delta_batch(true);
  toy_node t = node_new(N);
  bb_smc_scratch *scratch = bb_smc_scratch_new(N, NULL);
  bb_smc_domains d = toy_domains(&t.dom);
  d.ranges = counting_ranges;
  CHECK(bb_smc_propagate(prefs, BB_SMC_GS_LISTS, t.smc, scratch, &d, NULL) != BB_SMC_FAILED);
  CHECKF(toy_min(&t.dom, 0) == 0 && toy_max(&t.dom, 0) == N - 1, "man 0's domain after the root: %d..%d",
         toy_min(&t.dom, 0), toy_max(&t.dom, 0));
  for (int k = 0; k < 40; k++) toy_remove(&t.dom, 0, k);
  toy_remove(&t.dom, 0, 45);
  toy_remove(&t.dom, 0, 50);
  bb_smc_note_changed(scratch, 0);
  bb_smc_note_removed(scratch, 0, 45, 45);
  bb_smc_note_removed(scratch, 0, 50, 50);
  row_reads_var = 0;
  row_reads = 0;
  bb_smc_counters c = {0};
  bb_smc_propagate(prefs, BB_SMC_GS_LISTS, t.smc, scratch, &d, &c);
  CHECKF(c.rounds >= 1 && (uint64_t)row_reads <= c.rounds, "man 0's row read %d times in %llu rounds", row_reads,
         (unsigned long long)c.rounds);
  bb_smc_set_delta_batch(batch);
  bb_smc_scratch_free(scratch);
  node_free(&t);
  bb_smc_prefs_release(prefs);
  free(pm);
  free(pw);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  /* `threads`: the threaded part alone, for the TSan run (tests/sanitize.sh tsan), where
   * the whole test takes minutes. */
  if (argc > 1 && !strcmp(argv[1], "threads")) {
    large_build();
    return tu_finish();
  }
  validation();
  large_build();
  row_read_once();
  /* Everything twice: the first propagation as one batch (smc_root.c) and through the
   * event rules; the references are the same, so the two paths agree. */
  for (int batch = 3; batch >= 0; batch--) {
    printf("root propagation %s, later ones %s:\n", batch & 1 ? "as a batch" : "through the event rules",
           batch & 2 ? "as batches" : "through the event rules");
    bb_smc_set_root_batch(batch & 1);
    bb_smc_set_delta_batch(batch & 2);
    seed_table1();
    consistency();
    differential();
    failure_free();
    printf("lockstep: %ld later propagations equal to the event rules over every variable\n", lockstep_checks);
    lockstep_checks = 0;
  }
  return tu_finish();
}
