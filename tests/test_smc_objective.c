/* The objective bounds over the stable-matching lattice (propagator/smc/objective/) against
 * brute force: every perfect matching of small instances is enumerated, and
 *  - the minimum weight, the range of (men's - women's weight) and "no perfect stable
 *    matching" equal what the restriction's stable matchings give (exact);
 *  - they bound every matching that is stable for the full lists and uses allowed pairs
 *    only (the solutions of a model with the constraint and no side constraints: sound);
 *  - the regret bound is at most the least regret of those matchings.
 * Instances: uniformly random lists, lists drawn from a few shared orders (many stable
 * matchings), and Irving and Leather's family at n = 4, 8; weights the ranks (egalitarian)
 * or random integers of either sign; restrictions: none, or random pairs removed from
 * either side's domains. */
#include "generate.h"
#include "smc_objective.h"
#include "test_util.h"

#include <stdbool.h>

#define MAXN 8

typedef struct brute {
  int n;
  const int32_t *mc, *wc;   /* lists by rank */
  int32_t mr[MAXN * MAXN], wr[MAXN * MAXN]; /* ranks by id */
  const int64_t *mw, *ww;
  const uint8_t *man_ok, *woman_ok;
  int wife[MAXN];
  bool used[MAXN];
  /* over the restriction's perfect stable matchings (exact) and over the full instance's
   * stable matchings within the domains (the solutions) */
  long exact_count, sol_count;
  int64_t exact_min, exact_dlo, exact_dhi, sol_min, sol_dlo, sol_dhi;
  int sol_regret;
} brute;

static bool allowed(const brute *B, int m, int w) {
  return B->man_ok[m * B->n + B->mr[m * B->n + w]] && B->woman_ok[w * B->n + B->wr[w * B->n + m]];
}

/* Whether no pair blocks the matching; only allowed pairs count when `restricted`. */
static bool stable(const brute *B, bool restricted) {
  int n = B->n, husband[MAXN];
  for (int m = 0; m < n; m++) husband[B->wife[m]] = m;
  for (int m = 0; m < n; m++)
    for (int w = 0; w < n; w++) {
      if (w == B->wife[m] || (restricted && !allowed(B, m, w))) continue;
      if (B->mr[m * n + w] < B->mr[m * n + B->wife[m]] && B->wr[w * n + m] < B->wr[w * n + husband[w]]) return false;
    }
  return true;
}

static void leaf(brute *B) {
  int n = B->n, husband[MAXN], regret = 0;
  int64_t men = 0, women = 0;
  for (int m = 0; m < n; m++) husband[B->wife[m]] = m;
  for (int m = 0; m < n; m++) {
    int k = B->mr[m * n + B->wife[m]];
    men += B->mw[m * n + k];
    if (k > regret) regret = k;
  }
  for (int w = 0; w < n; w++) {
    int k = B->wr[w * n + husband[w]];
    women += B->ww[w * n + k];
    if (k > regret) regret = k;
  }
  int64_t total = men + women, diff = men - women;
  if (stable(B, true)) {
    if (!B->exact_count++) B->exact_min = total, B->exact_dlo = B->exact_dhi = diff;
    if (total < B->exact_min) B->exact_min = total;
    if (diff < B->exact_dlo) B->exact_dlo = diff;
    if (diff > B->exact_dhi) B->exact_dhi = diff;
  }
  if (stable(B, false)) {
    if (!B->sol_count++) B->sol_min = total, B->sol_dlo = B->sol_dhi = diff, B->sol_regret = regret;
    if (total < B->sol_min) B->sol_min = total;
    if (diff < B->sol_dlo) B->sol_dlo = diff;
    if (diff > B->sol_dhi) B->sol_dhi = diff;
    if (regret < B->sol_regret) B->sol_regret = regret;
  }
}

static void assign(brute *B, int m) {
  if (m == B->n) {
    leaf(B);
    return;
  }
  for (int w = 0; w < B->n; w++) {
    if (B->used[w] || !allowed(B, m, w)) continue;
    B->used[w] = true;
    B->wife[m] = w;
    assign(B, m + 1);
    B->used[w] = false;
  }
}

/* One instance, weights and restriction: bounds against brute force. */
static void check_case(int n, const int32_t *mc, const int32_t *wc, const int64_t *mw, const int64_t *ww,
                       const uint8_t *man_ok, const uint8_t *woman_ok, const char *what, uint64_t seed) {
  brute B = {0};
  B.n = n, B.mc = mc, B.wc = wc, B.mw = mw, B.ww = ww, B.man_ok = man_ok, B.woman_ok = woman_ok;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) B.mr[i * n + mc[i * n + k]] = k, B.wr[i * n + wc[i * n + k]] = k;
  assign(&B, 0);
  bb_smo *smo = NULL;
  bb_error err = {{0}};
  CHECKF(bb_smo_new(n, mc, wc, mw, ww, &smo, &err) == BB_OK, "%s", err.msg);
  if (!smo) return;
  bb_smo_allowed a = {man_ok, woman_ok};
  int64_t least = 0, lo = 0, hi = 0;
  int regret = 0;
  bb_smo_result r1 = bb_smo_min_weight(smo, a, &least), r2 = bb_smo_difference_range(smo, a, &lo, &hi);
  bb_smo_result r3 = bb_smo_min_regret_bound(smo, a, &regret);
  CHECKF(r1 == r2 && r2 == r3, "%s seed %llu: results %d %d %d", what, (unsigned long long)seed, r1, r2, r3);
  CHECKF((r1 == BB_SMO_NONE) == (B.exact_count == 0), "%s seed %llu n %d: result %d, %ld perfect stable matchings",
         what, (unsigned long long)seed, n, r1, B.exact_count);
  if (r1 == BB_SMO_OK && B.exact_count) {
    CHECKF(least == B.exact_min, "%s seed %llu n %d: min weight %lld, brute force %lld", what,
           (unsigned long long)seed, n, (long long)least, (long long)B.exact_min);
    CHECKF(lo == B.exact_dlo && hi == B.exact_dhi, "%s seed %llu n %d: range [%lld, %lld], brute force [%lld, %lld]",
           what, (unsigned long long)seed, n, (long long)lo, (long long)hi, (long long)B.exact_dlo,
           (long long)B.exact_dhi);
  }
  if (B.sol_count) { /* sound: never above what a solution reaches */
    CHECKF(r1 == BB_SMO_OK, "%s seed %llu: no bound although %ld solutions", what, (unsigned long long)seed,
           B.sol_count);
    CHECKF(least <= B.sol_min && lo <= B.sol_dlo && hi >= B.sol_dhi && regret <= B.sol_regret,
           "%s seed %llu n %d: bounds %lld [%lld, %lld] regret %d against solutions %lld [%lld, %lld] regret %d", what,
           (unsigned long long)seed, n, (long long)least, (long long)lo, (long long)hi, regret, (long long)B.sol_min,
           (long long)B.sol_dlo, (long long)B.sol_dhi, B.sol_regret);
  }
  bb_smo_release(smo);
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
