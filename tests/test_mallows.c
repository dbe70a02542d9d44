/* The Mallows samplers (propagator/base/mallows.h) against the Mallows pmf computed by brute
 * force from its definition (phi^d / sum over all rankings of phi^d, d the Kendall tau distance
 * counted pair by pair): for small m, the empirical distribution of many samples passes a
 * chi-square test and lies close in total variation, the sampled first places match the pmf's
 * marginals, phi = 1 is uniform, and the same statistic refuses samples of another phi (so the
 * test can fail). The seeds are fixed; the bounds are wide enough for any seed (p < 1e-5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mallows.h"
#include "rng.h"
#include "test_util.h"

#define MAX_M 5
#define MAX_CELLS 3125 /* MAX_M^MAX_M: a ranking's code in base m */

/* Kendall tau distance of ranking `perm` to `centre`: the pairs the two order differently. */
static int kendall(const bb_id *perm, const bb_id *centre, int m) {
  int pos[MAX_M], d = 0;
  for (int i = 0; i < m; i++) pos[centre[i]] = i;
  for (int i = 0; i < m; i++)
    for (int j = i + 1; j < m; j++) d += pos[perm[i]] > pos[perm[j]];
  return d;
}

static int code_of(const bb_id *perm, int len, int m) {
  int code = 0;
  for (int i = 0; i < len; i++) code = code * m + (int)perm[i];
  return code;
}

/* pmf[code of the first len places] for every ranking of 0..m-1, by enumerating them. */
static void brute_pmf(double phi, const bb_id *centre, int m, int len, double *pmf) {
  int cells = 1;
  for (int i = 0; i < len; i++) cells *= m;
  memset(pmf, 0, (size_t)cells * sizeof *pmf);
  bb_id perm[MAX_M];
  for (int i = 0; i < m; i++) perm[i] = (bb_id)i;
  double z = 0;
  for (;;) { /* lexicographic order: every permutation once */
    double w = pow(phi, kendall(perm, centre, m));
    pmf[code_of(perm, len, m)] += w, z += w;
    int i = m - 2;
    while (i >= 0 && perm[i] > perm[i + 1]) i--;
    if (i < 0) break;
    int j = m - 1;
    while (perm[j] < perm[i]) j--;
    bb_id t = perm[i];
    perm[i] = perm[j], perm[j] = t;
    for (int a = i + 1, b = m - 1; a < b; a++, b--) t = perm[a], perm[a] = perm[b], perm[b] = t;
  }
  for (int c = 0; c < cells; c++) pmf[c] /= z;
}

typedef struct fit {
  double chi2, tv;
  int df;
} fit;

static fit compare(const long *count, long samples, const double *pmf, int cells) {
  fit f = {0, 0, -1};
  for (int c = 0; c < cells; c++) {
    if (pmf[c] == 0) {
      if (count[c]) f.chi2 = INFINITY; /* a ranking the distribution never gives */
      continue;
    }
    double expect = pmf[c] * (double)samples;
    f.chi2 += (count[c] - expect) * (count[c] - expect) / expect;
    f.tv += fabs((double)count[c] / (double)samples - pmf[c]) / 2;
    f.df++;
  }
  return f;
}

/* A chi-square value this far above its degrees of freedom has p < 1e-5 for df >= 5. */
static int chi2_fits(fit f) { return f.chi2 < f.df + 6 * sqrt(2.0 * f.df) + 10; }

/* Draws `samples` rankings (the first len places: bb_mallows_prefix; all m: either sampler). */
static void sample(int rim, double phi, const bb_id *centre, int m, int len, long samples, uint64_t seed, long *count) {
  int cells = 1;
  for (int i = 0; i < len; i++) cells *= m;
  memset(count, 0, (size_t)cells * sizeof *count);
  bb_rng rng;
  bb_rng_seed(&rng, seed);
  bb_id out[MAX_M];
  uint32_t work[2 * MAX_M + 1];
  for (long s = 0; s < samples; s++) {
    if (rim)
      bb_mallows_rim(&rng, phi, centre, (uint32_t)m, out, work);
    else
      bb_mallows_prefix(&rng, phi, centre, (uint32_t)m, out, (uint32_t)len, work);
    count[code_of(out, len, m)]++;
  }
}

static void distribution(int rim, double phi, const bb_id *centre, int m, int len, long samples, uint64_t seed) {
  static double pmf[MAX_CELLS], other[MAX_CELLS];
  static long count[MAX_CELLS];
  int cells = 1;
  for (int i = 0; i < len; i++) cells *= m;
  brute_pmf(phi, centre, m, len, pmf);
  sample(rim, phi, centre, m, len, samples, seed, count);
  fit f = compare(count, samples, pmf, cells);
  double tv_bound = 0.6 * sqrt((double)f.df / (double)samples) + 0.005; /* a few times its expectation */
  CHECKF(chi2_fits(f) && f.tv < tv_bound, "%s phi %g m %d len %d: chi2 %.1f on %d df, tv %.4f (bound %.4f)",
         rim ? "rim" : "prefix", phi, m, len, f.chi2, f.df, f.tv, tv_bound);
  printf("%-6s phi %.2f m %d len %d: chi2 %6.1f on %3d df, tv %.4f\n", rim ? "rim" : "prefix", phi, m, len, f.chi2,
         f.df, f.tv);
  /* Power: the same samples against another phi's pmf are refused. */
  brute_pmf(phi < 0.75 ? phi + 0.2 : phi - 0.2, centre, m, len, other);
  f = compare(count, samples, other, cells);
  CHECKF(!chi2_fits(f), "%s phi %g: samples also fit phi %g (chi2 %.1f)", rim ? "rim" : "prefix", phi,
         phi < 0.75 ? phi + 0.2 : phi - 0.2, f.chi2);
}

/* phi = 1: every ranking equally likely (the flat pmf written down, not computed). */
static void uniform(int rim) {
  static long count[MAX_CELLS];
  static double flat[256];
  const bb_id centre[4] = {0, 1, 2, 3};
  for (int c = 0; c < 256; c++) { /* codes whose four digits differ are the 24 rankings */
    int d[4] = {c / 64, c / 16 % 4, c / 4 % 4, c % 4}, distinct = 1;
    for (int i = 0; i < 4; i++)
      for (int j = i + 1; j < 4; j++) distinct &= d[i] != d[j];
    flat[c] = distinct ? 1.0 / 24 : 0;
  }
  sample(rim, 1.0, centre, 4, 4, 24000, 11, count);
  fit f = compare(count, 24000, flat, 256);
  CHECKF(f.df == 23 && chi2_fits(f), "%s phi 1: chi2 %.1f on %d df", rim ? "rim" : "prefix", f.chi2, f.df);
}

static void geometric(void) {
  bb_rng rng;
  bb_rng_seed(&rng, 5);
  const double phis[] = {0.2, 0.6, 1.0};
  for (int t = 0; t < 3; t++) {
    long count[6] = {0};
    double pmf[6], z = 0;
    for (int k = 0; k < 6; k++) z += pmf[k] = pow(phis[t], k);
    for (int k = 0; k < 6; k++) pmf[k] /= z;
    for (int s = 0; s < 60000; s++) {
      uint32_t k = bb_mallows_geometric(&rng, phis[t], 6);
      CHECK(k < 6);
      count[k < 6 ? k : 5]++;
    }
    fit f = compare(count, 60000, pmf, 6);
    CHECKF(chi2_fits(f), "geometric phi %g: chi2 %.1f", phis[t], f.chi2);
  }
  /* One place left, and extreme dispersions over many places, stay in range. */
  for (int s = 0; s < 1000; s++) {
    CHECK(bb_mallows_geometric(&rng, 0.5, 1) == 0);
    CHECK(bb_mallows_geometric(&rng, 1e-300, 1000000) == 0);
    CHECK(bb_mallows_geometric(&rng, 1 - 1e-15, 3000000) < 3000000);
  }
}

/* Large m: a ranking is a permutation of the centre's items, and the prefix is its own start. */
static void permutations(void) {
  enum { M = 5000 };
  bb_id *centre = malloc(M * sizeof *centre), *out = malloc(M * sizeof *out);
  uint32_t *work = malloc((2 * M + 1) * sizeof *work);
  unsigned char *seen = calloc(M, 1);
  bb_rng rng;
  bb_rng_seed(&rng, 9);
  for (int i = 0; i < M; i++) centre[i] = (bb_id)(M - 1 - i);
  bb_mallows_rim(&rng, 0.99, centre, M, out, work);
  int ok = 1;
  for (int i = 0; i < M; i++) ok &= out[i] < M && !seen[out[i]]++;
  CHECK(ok);
  bb_mallows_prefix(&rng, 0.999, centre, M, out, 300, work);
  memset(seen, 0, M);
  ok = 1;
  for (int i = 0; i < 300; i++) ok &= out[i] < M && !seen[out[i]]++;
  CHECK(ok);
  free(centre);
  free(out);
  free(work);
  free(seen);
}

int main(void) {
  const bb_id ident4[4] = {0, 1, 2, 3}, mixed4[4] = {2, 0, 3, 1}, ident5[5] = {0, 1, 2, 3, 4};
  const double phis[] = {0.3, 0.5, 0.8};
  for (int t = 0; t < 3; t++) {
    distribution(1, phis[t], ident4, 4, 4, 30000, 100 + (uint64_t)t);
    distribution(0, phis[t], ident4, 4, 4, 30000, 200 + (uint64_t)t);
  }
  distribution(1, 0.5, mixed4, 4, 4, 30000, 301); /* the centre's order, not the ids', counts */
  distribution(0, 0.5, mixed4, 4, 4, 30000, 302);
  distribution(1, 0.7, ident5, 5, 5, 60000, 303); /* 120 rankings */
  distribution(0, 0.7, ident5, 5, 5, 60000, 304);
  distribution(0, 0.5, ident5, 5, 2, 30000, 305); /* the first two places of five: 20 pairs */
  distribution(0, 0.6, mixed4, 4, 1, 20000, 306); /* the first place */
  uniform(1);
  uniform(0);
  geometric();
  permutations();
  return tu_finish();
}
