/* The correlated HRC generators (hrc_mallows.h): the joint lists' order against a sort by its
 * definition, valid instances whose hospitals rank exactly the residents who can propose to them,
 * the same instance for the same seed, the members' lists read back from the joint lists, the
 * agreement that a tiny phi forces on both sides (and its absence at phi = 1), capacities, the
 * NRMP 2024 preset's shape, and parameters out of range. The Mallows draws themselves:
 * test_mallows.c. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hrc.h"
#include "hrc_mallows.h"
#include "test_util.h"

/* ------------------------------------------------------ the joint lists' order ---- */

static int by_rank_sum(const void *x, const void *y) {
  const int *a = x, *b = y; /* (i, j) */
  int sa = a[0] + a[1], sb = b[0] + b[1], da = abs(a[0] - a[1]), db = abs(b[0] - b[1]);
  if (sa != sb) return sa - sb;
  if (da != db) return da - db;
  return a[0] - b[0];
}

/* The order written as a sort of every pair by (i + j, |i - j|, i). */
static int reference_order(int l1, int l2, int (*pairs)[2]) {
  int n = 0;
  for (int i = 0; i < l1; i++)
    for (int j = 0; j < l2; j++) pairs[n][0] = i, pairs[n][1] = j, n++;
  qsort(pairs, (size_t)n, sizeof pairs[0], by_rank_sum);
  return n;
}

static void joint_order(void) {
  static int want[64][2];
  uint32_t got[2 * 64];
  for (int l1 = 1; l1 <= 8; l1++)
    for (int l2 = 1; l2 <= 8; l2++) {
      int all = reference_order(l1, l2, want);
      const int keeps[] = {1, 5, all, all + 3};
      for (int t = 0; t < 4; t++) {
        int n = bb_hrc_joint_by_rank_sum(l1, l2, keeps[t], got), ok = n == (keeps[t] < all ? keeps[t] : all);
        for (int k = 0; ok && k < n; k++) ok = (int)got[2 * k] == want[k][0] && (int)got[2 * k + 1] == want[k][1];
        CHECKF(ok, "lists of %d and %d, keep %d", l1, l2, keeps[t]);
      }
    }
}

/* ---------------------------------------------------------- instances ---- */

static bool same_hrc(const bb_hrc *a, const bb_hrc *b) {
  if (a->n_residents != b->n_residents || a->n_hospitals != b->n_hospitals || a->n_couples != b->n_couples) return 0;
  int nr = a->n_residents, nh = a->n_hospitals, nc = a->n_couples;
  return !memcmp(a->single_start, b->single_start, ((size_t)nr + 1) * 4) &&
         !memcmp(a->single_list, b->single_list, a->single_start[nr] * 4ull) &&
         !memcmp(a->couple_start, b->couple_start, ((size_t)nc + 1) * 4) &&
         !memcmp(a->couple_list, b->couple_list, a->couple_start[nc] * 8ull) &&
         !memcmp(a->hosp_start, b->hosp_start, ((size_t)nh + 1) * 4) &&
         !memcmp(a->hosp_list, b->hosp_list, a->hosp_start[nh] * 4ull) &&
         !memcmp(a->capacity, b->capacity, (size_t)nh * 4);
}

/* Hospital h lists exactly the residents who name h: a single on his list, a member in his place
 * of a pair of his couple's list (each once). */
static bool lists_exactly_proposers(const bb_hrc *in) {
  int nr = in->n_residents, nh = in->n_hospitals;
  unsigned char *proposes = calloc((size_t)nr * nh, 1);
  for (int r = 0; r < nr; r++)
    for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++)
      proposes[(size_t)r * nh + in->single_list[e]] = 1;
  for (int c = 0; c < in->n_couples; c++)
    for (uint32_t k = in->couple_start[c]; k < in->couple_start[c + 1]; k++)
      for (int m = 0; m < 2; m++) proposes[(size_t)in->couple_member[2 * c + m] * nh + in->couple_list[2 * k + m]] = 1;
  bool ok = true;
  for (int h = 0; h < nh; h++)
    for (uint32_t e = in->hosp_start[h]; e < in->hosp_start[h + 1]; e++) {
      unsigned char *p = &proposes[(size_t)in->hosp_list[e] * nh + h];
      ok &= *p == 1; /* listed once, and only if he proposes */
      *p = 2;
    }
  for (size_t x = 0; x < (size_t)nr * nh; x++) ok &= proposes[x] != 1; /* every proposer listed */
  free(proposes);
  return ok;
}

/* Couple c's members' lists read back from its whole joint list: by the order, a_i first appears
 * in (a_i, b_0) and b_j in (a_0, b_j). Then the joint list must be their pairs in that order. */
static bool joint_list_of_members(const bb_hrc *in, int c, int *l1, int *l2) {
  const bb_id *pairs = in->couple_list + 2 * (size_t)in->couple_start[c];
  int n = (int)(in->couple_start[c + 1] - in->couple_start[c]);
  bb_id a[64], b[64];
  *l1 = *l2 = 0;
  for (int k = 0; k < n; k++) {
    bool seen_a = false, seen_b = false;
    for (int i = 0; i < *l1; i++) seen_a |= a[i] == pairs[2 * k];
    for (int j = 0; j < *l2; j++) seen_b |= b[j] == pairs[2 * k + 1];
    if (!seen_a && *l1 < 64) a[(*l1)++] = pairs[2 * k];
    if (!seen_b && *l2 < 64) b[(*l2)++] = pairs[2 * k + 1];
  }
  static int want[64 * 64][2];
  if (*l1 * *l2 != n || reference_order(*l1, *l2, want) != n) return false;
  for (int k = 0; k < n; k++)
    if (pairs[2 * k] != a[want[k][0]] || pairs[2 * k + 1] != b[want[k][1]]) return false;
  return true;
}

static bb_hrc *generate(const bb_hrc_mallows_params *p) {
  bb_hrc *in = NULL;
  bb_error err = {{0}};
  CHECKF(bb_hrc_generate_mallows(p, &in, &err) == BB_OK && bb_hrc_validate(in, &err) == BB_OK, "%s", err.msg);
  return in;
}

static void shapes(void) {
  bb_hrc_mallows_params p;
  bb_hrc_mallows_default(&p, 200, 30, 20);
  p.min_list = 3, p.max_list = 6, p.member_min_list = 4, p.member_max_list = 7;
  p.phi_residents = 0.6, p.phi_hospitals = 0.8, p.seed = 17;
  bb_hrc *a = generate(&p), *b = generate(&p);
  CHECK(a && b && same_hrc(a, b)); /* the seed decides */
  CHECK(a->n_residents == 200 && a->n_hospitals == 20 && a->n_couples == 30 && lists_exactly_proposers(a));
  int64_t posts = 0;
  for (int h = 0; h < 20; h++) posts += a->capacity[h];
  CHECK(posts == 200);
  for (int r = 60; r < 200; r++) {
    uint32_t len = a->single_start[r + 1] - a->single_start[r];
    CHECK(len >= 3 && len <= 6);
  }
  for (int c = 0; c < 30; c++) {
    int l1, l2;
    CHECKF(joint_list_of_members(a, c, &l1, &l2), "couple %d's joint list", c);
    CHECK(l1 >= 4 && l1 <= 7 && l2 >= 4 && l2 <= 7);
  }
  /* Keeping fewer pairs keeps a prefix of the same order (J has its own stream). */
  p.joint_min = 4, p.joint_max = 9;
  bb_hrc *t = generate(&p);
  for (int c = 0; t && c < 30; c++) {
    uint32_t n = t->couple_start[c + 1] - t->couple_start[c];
    CHECK(n >= 4 && n <= 9 && lists_exactly_proposers(t));
    CHECK(!memcmp(t->couple_list + 2 * (size_t)t->couple_start[c], a->couple_list + 2 * (size_t)a->couple_start[c],
                  n * 8ull));
  }
  p.seed++;
  bb_hrc *d = generate(&p);
  CHECK(d && !same_hrc(t, d));
  bb_hrc_free(a);
  bb_hrc_free(b);
  bb_hrc_free(t);
  bb_hrc_free(d);
}

/* Whether every single's list is the start of the longest one (everyone agrees on hospitals). */
static bool singles_agree(const bb_hrc *in) {
  int longest = 2 * in->n_couples;
  for (int r = longest; r < in->n_residents; r++)
    if (in->single_start[r + 1] - in->single_start[r] > in->single_start[longest + 1] - in->single_start[longest])
      longest = r;
  for (int r = 2 * in->n_couples; r < in->n_residents; r++)
    if (memcmp(in->single_list + in->single_start[r], in->single_list + in->single_start[longest],
               (in->single_start[r + 1] - in->single_start[r]) * 4ull))
      return false;
  return true;
}

/* Whether one ranking of all residents agrees with every hospital's list: the "r before s on some
 * list" graph has no cycle (Kahn's topological sort reaches every resident). */
static bool hospitals_agree(const bb_hrc *in) {
  int nr = in->n_residents, done = 0, top = 0;
  uint32_t edges = in->hosp_start[in->n_hospitals];
  int *indeg = calloc((size_t)nr, sizeof *indeg), *start = calloc((size_t)nr + 1, sizeof *start);
  int *to = malloc(((size_t)edges + 1) * sizeof *to), *stack = malloc(((size_t)nr + 1) * sizeof *stack);
  for (int h = 0; h < in->n_hospitals; h++)
    for (uint32_t e = in->hosp_start[h] + 1; e < in->hosp_start[h + 1]; e++) start[in->hosp_list[e - 1] + 1]++;
  for (int r = 0; r < nr; r++) start[r + 1] += start[r];
  int *fill = malloc(((size_t)nr + 1) * sizeof *fill);
  memcpy(fill, start, (size_t)nr * sizeof *fill);
  for (int h = 0; h < in->n_hospitals; h++)
    for (uint32_t e = in->hosp_start[h] + 1; e < in->hosp_start[h + 1]; e++)
      to[fill[in->hosp_list[e - 1]]++] = (int)in->hosp_list[e], indeg[in->hosp_list[e]]++;
  for (int r = 0; r < nr; r++)
    if (!indeg[r]) stack[top++] = r;
  while (top) {
    int r = stack[--top];
    done++;
    for (int k = start[r]; k < start[r + 1]; k++)
      if (!--indeg[to[k]]) stack[top++] = to[k];
  }
  free(indeg), free(start), free(to), free(stack), free(fill);
  return done == nr;
}

static void agreement(void) {
  bb_hrc_mallows_params p;
  bb_hrc_mallows_default(&p, 300, 40, 30);
  p.min_list = 2, p.max_list = 8;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    p.seed = seed;
    p.phi_residents = p.phi_hospitals = 1e-12; /* a swap has probability about 1e-12 */
    bb_hrc *tight = generate(&p);
    CHECK(tight && singles_agree(tight) && hospitals_agree(tight) && lists_exactly_proposers(tight));
    p.phi_residents = p.phi_hospitals = 1; /* uniform: the checks above can fail */
    bb_hrc *loose = generate(&p);
    CHECK(loose && !singles_agree(loose) && !hospitals_agree(loose));
    bb_hrc_free(tight);
    bb_hrc_free(loose);
  }
}

static void capacities(void) {
  bb_hrc_mallows_params p;
  bb_hrc_mallows_default(&p, 500, 50, 40);
  p.min_capacity = 7, p.posts = 280; /* --capacity 7: every hospital exactly 7 */
  bb_hrc *in = generate(&p);
  bool all7 = in != NULL;
  for (int h = 0; in && h < 40; h++) all7 &= in->capacity[h] == 7;
  CHECK(all7);
  bb_hrc_free(in);
  p.min_capacity = 1, p.posts = 600, p.uneven_capacity = true;
  in = generate(&p);
  int64_t posts = 0;
  int least = INT32_MAX;
  for (int h = 0; in && h < 40; h++)
    posts += in->capacity[h], least = in->capacity[h] < least ? in->capacity[h] : least;
  CHECK(posts == 600 && least >= 1);
  bb_hrc_free(in);
}

static void nrmp2024(void) {
  bb_hrc_mallows_params p;
  bb_hrc_mallows_nrmp2024(&p);
  bb_hrc *in = generate(&p);
  if (!in) return;
  CHECK(in->n_residents == 44900 && in->n_hospitals == 6400 && in->n_couples == 1100);
  int64_t posts = 0;
  int least = INT32_MAX, most = 0;
  for (int h = 0; h < in->n_hospitals; h++) {
    posts += in->capacity[h];
    least = in->capacity[h] < least ? in->capacity[h] : least;
    most = in->capacity[h] > most ? in->capacity[h] : most;
  }
  CHECKF(posts == 41500 && least >= 1 && most > 20, "posts %lld, capacities %d..%d", (long long)posts, least, most);
  uint32_t longest = 0, shortest = UINT32_MAX;
  for (int c = 0; c < in->n_couples; c++) {
    uint32_t n = in->couple_start[c + 1] - in->couple_start[c];
    longest = n > longest ? n : longest, shortest = n < shortest ? n : shortest;
  }
  CHECKF(shortest >= 20 && longest <= 300 && longest > 250, "joint lists of %u..%u pairs", shortest, longest);
  bool singles_ok = true;
  for (int r = 2200; r < in->n_residents; r++) {
    uint32_t len = in->single_start[r + 1] - in->single_start[r];
    singles_ok &= len >= 5 && len <= 20;
  }
  CHECK(singles_ok && lists_exactly_proposers(in));
  bb_hrc_free(in);
}

static void refused(void) {
  struct {
    const char *what, *msg;
    double phi_r, phi_h;
    int couples, max_list, member_max, joint_min, joint_max;
    int64_t posts;
  } cases[] = {
      {"phi 0", "phi", 0, 0.5, 5, 5, 0, 0, 0, 50},
      {"phi above 1", "phi", 0.5, 1.5, 5, 5, 0, 0, 0, 50},
      {"phi NaN", "phi", NAN, 0.5, 5, 5, 0, 0, 0, 50},
      {"too many couples", "couples", 0.5, 0.5, 26, 5, 0, 0, 0, 50},
      {"lists past the hospitals", "list lengths", 0.5, 0.5, 5, 11, 0, 0, 0, 50},
      {"members' lists past them", "members' list lengths", 0.5, 0.5, 5, 5, 11, 0, 0, 50},
      {"joint MIN > MAX", "joint list lengths", 0.5, 0.5, 5, 5, 0, 9, 3, 50},
      {"posts below the minimum", "posts", 0.5, 0.5, 5, 5, 0, 0, 0, 5},
  };
  for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
    bb_hrc_mallows_params p;
    bb_hrc_mallows_default(&p, 50, cases[t].couples, 10);
    p.phi_residents = cases[t].phi_r, p.phi_hospitals = cases[t].phi_h, p.max_list = cases[t].max_list;
    p.member_min_list = cases[t].member_max ? 1 : 0, p.member_max_list = cases[t].member_max;
    p.joint_min = cases[t].joint_min, p.joint_max = cases[t].joint_max;
    p.posts = cases[t].posts, p.min_capacity = 1;
    bb_hrc *in = (bb_hrc *)&p; /* must come back NULL */
    bb_error err = {{0}};
    CHECKF(bb_hrc_generate_mallows(&p, &in, &err) == BB_ERR_ARG && !in && strstr(err.msg, cases[t].msg), "%s: %s",
           cases[t].what, err.msg);
  }
}

int main(void) {
  joint_order();
  shapes();
  agreement();
  capacities();
  nrmp2024();
  refused();
  return tu_finish();
}
