/* The objective bounds over the stable-matching lattice (propagator/smc/objective/) against
 * the harness's brute force (bth_sm.h, bth_objective.h): every perfect matching of small
 * instances is enumerated, and
 *  - the minimum weight, the range of (men's - women's weight) and "no perfect stable
 *    matching" equal what the restriction's stable matchings give (exact);
 *  - they bound every matching that is stable for the full lists and uses allowed pairs
 *    only (the solutions of a model with the constraint and no side constraints: sound);
 *  - the regret bound is at most the least regret of those matchings.
 * Instances: uniformly random lists, lists drawn from a few shared orders (many stable
 * matchings), and Irving and Leather's family at n = 4, 8; weights the ranks (egalitarian)
 * or random integers of either sign; restrictions: none, or random pairs removed from
 * either side's domains. */
#include "bth_objective.h"
#include "bth_sm.h"
#include "generate.h"
#include "smc_objective.h"
#include "test_util.h"

#include <stdbool.h>

#define MAXN 8

/* The definition's side (the harness, bth_sm.h and bth_objective.h): over every perfect
 * matching of the allowed pairs (the restriction keeps man_ok[m*n + rank] and woman_ok[w*n +
 * rank]), the extremes of the objectives over the restriction's stable matchings (exact) and
 * over the matchings stable for the full lists (the constraint's solutions: sound). */
static void solution(int n, const int32_t *mc, const int32_t *wc, const int64_t *mw, const int64_t *ww,
                     const uint8_t *man_ok, const uint8_t *woman_ok, bth_sm_extremes *exact, bth_sm_extremes *sol) {
  bool allowed[MAXN * MAXN];
  for (int m = 0; m < n; m++)
    for (int w = 0; w < n; w++)
      allowed[m * n + w] = man_ok[m * n + bth_sm_rank(mc, n, m, w)] && woman_ok[w * n + bth_sm_rank(wc, n, w, m)];
  bth_solutions found = {0};
  bth_sm_brute_within(mc, wc, n, allowed, &found);
  *exact = bth_sm_objective_extremes(mc, wc, n, mw, ww, &found);
  bth_sm_brute(mc, wc, n, allowed, &found);
  *sol = bth_sm_objective_extremes(mc, wc, n, mw, ww, &found);
  bth_solutions_free(&found);
}

/* The code under test: the three bounds of bb_smo over the same restriction. */
typedef struct bounds {
  bb_smo_result weight, difference, regret_bound;
  int64_t least, lo, hi;
  int regret;
} bounds;

static bool post(int n, const int32_t *mc, const int32_t *wc, const int64_t *mw, const int64_t *ww,
                 const uint8_t *man_ok, const uint8_t *woman_ok, bounds *b) {
  bb_smo *smo = NULL;
  bb_error err = {{0}};
  CHECKF(bb_smo_new(n, mc, wc, mw, ww, &smo, &err) == BB_OK, "%s", err.msg);
  if (!smo) return false;
  bb_smo_allowed a = {man_ok, woman_ok};
  *b = (bounds){0};
  b->weight = bb_smo_min_weight(smo, a, &b->least);
  b->difference = bb_smo_difference_range(smo, a, &b->lo, &b->hi);
  b->regret_bound = bb_smo_min_regret_bound(smo, a, &b->regret);
  bb_smo_release(smo);
  return true;
}

/* One instance, weights and restriction: bounds against brute force. */
static void check_case(int n, const int32_t *mc, const int32_t *wc, const int64_t *mw, const int64_t *ww,
                       const uint8_t *man_ok, const uint8_t *woman_ok, const char *what, uint64_t seed) {
  bth_sm_extremes exact, sol;
  solution(n, mc, wc, mw, ww, man_ok, woman_ok, &exact, &sol);
  bounds b;
  if (!post(n, mc, wc, mw, ww, man_ok, woman_ok, &b)) return;
  bb_smo_result r1 = b.weight, r2 = b.difference, r3 = b.regret_bound;
  CHECKF(r1 == r2 && r2 == r3, "%s seed %llu: results %d %d %d", what, (unsigned long long)seed, r1, r2, r3);
  CHECKF((r1 == BB_SMO_NONE) == (exact.count == 0), "%s seed %llu n %d: result %d, %ld perfect stable matchings", what,
         (unsigned long long)seed, n, r1, exact.count);
  if (r1 == BB_SMO_OK && exact.count) {
    CHECKF(b.least == exact.min_weight, "%s seed %llu n %d: min weight %lld, brute force %lld", what,
           (unsigned long long)seed, n, (long long)b.least, (long long)exact.min_weight);
    CHECKF(b.lo == exact.min_difference && b.hi == exact.max_difference,
           "%s seed %llu n %d: range [%lld, %lld], brute force [%lld, %lld]", what, (unsigned long long)seed, n,
           (long long)b.lo, (long long)b.hi, (long long)exact.min_difference, (long long)exact.max_difference);
  }
  if (sol.count) { /* sound: never above what a solution reaches */
    CHECKF(r1 == BB_SMO_OK, "%s seed %llu: no bound although %ld solutions", what, (unsigned long long)seed, sol.count);
    CHECKF(b.least <= sol.min_weight && b.lo <= sol.min_difference && b.hi >= sol.max_difference &&
               b.regret <= sol.min_regret,
           "%s seed %llu n %d: bounds %lld [%lld, %lld] regret %d against solutions %lld [%lld, %lld] regret %d", what,
           (unsigned long long)seed, n, (long long)b.least, (long long)b.lo, (long long)b.hi, b.regret,
           (long long)sol.min_weight, (long long)sol.min_difference, (long long)sol.max_difference, sol.min_regret);
  }
}

static void shuffle32(int32_t *row, int n, uint64_t *st) {
  for (int i = 0; i < n; i++) row[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(tu_rand(st) % (uint64_t)(i + 1));
    int32_t t = row[i];
    row[i] = row[j];
    row[j] = t;
  }
}

/* kind 0: uniform lists; 1: each row one of three shared orders (many stable matchings) */
static void random_lists(int n, int kind, uint64_t *st, int32_t *mc, int32_t *wc) {
  int32_t orders[6][MAXN];
  for (int o = 0; o < 6; o++) shuffle32(orders[o], n, st);
  for (int i = 0; i < n; i++) {
    if (kind == 0) {
      shuffle32(mc + i * n, n, st);
      shuffle32(wc + i * n, n, st);
    } else {
      memcpy(mc + i * n, orders[tu_rand(st) % 3], (size_t)n * sizeof *mc);
      memcpy(wc + i * n, orders[3 + tu_rand(st) % 3], (size_t)n * sizeof *wc);
    }
  }
}

/* Weights: mode 0 the ranks, 1 random in -5..9. Restriction: density percent kept. */
static void run_case(int n, const int32_t *mc, const int32_t *wc, uint64_t *st, uint64_t seed, const char *what) {
  int64_t mw[MAXN * MAXN], ww[MAXN * MAXN];
  uint8_t mo[MAXN * MAXN], wo[MAXN * MAXN];
  for (int mode = 0; mode < 2; mode++) {
    for (int i = 0; i < n * n; i++) {
      mw[i] = mode ? (int64_t)(tu_rand(st) % 15) - 5 : i % n;
      ww[i] = mode ? (int64_t)(tu_rand(st) % 15) - 5 : i % n;
    }
    for (int density = 100; density >= 70; density -= 15) {
      for (int i = 0; i < n * n; i++) {
        mo[i] = density == 100 || tu_rand(st) % 100 < (uint64_t)density;
        wo[i] = density == 100 || tu_rand(st) % 100 < (uint64_t)density;
      }
      check_case(n, mc, wc, mw, ww, mo, wo, what, seed);
    }
  }
}

int main(void) {
  int32_t mc[MAXN * MAXN], wc[MAXN * MAXN];
  for (uint64_t seed = 1; seed <= 400; seed++) {
    uint64_t st = seed * 7919;
    int n = 2 + (int)(seed % 6); /* 2..7 */
    int kind = (int)(seed / 6 % 2);
    random_lists(n, kind, &st, mc, wc);
    run_case(n, mc, wc, &st, seed, kind ? "shared orders" : "uniform");
  }
  for (int n = 4; n <= 8; n *= 2) { /* 10 and 268 stable matchings */
    bb_instance *inst = NULL;
    bb_error err = {{0}};
    CHECKF(bb_generate(BB_GEN_IRVING_LEATHER, n, 2, 1, 1, &inst, &err) == BB_OK, "%s", err.msg);
    if (!inst) continue;
    for (int i = 0; i < n * n; i++) mc[i] = (int32_t)inst->men_prefs[i], wc[i] = (int32_t)inst->women_prefs[i];
    bb_instance_free(inst);
    for (uint64_t seed = 1; seed <= (n == 4 ? 20u : 6u); seed++) {
      uint64_t st = seed;
      run_case(n, mc, wc, &st, seed, "irving-leather");
    }
  }
  return tu_finish();
}
