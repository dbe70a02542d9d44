/* HRC with ties on the hospitals' side (SFAS; docs/hrc.md "Ties on the hospitals' side"): the
 * checker against the brute-force reference (harness/bth_hrc.h) on every matching of random
 * tiny instances with ties, the text and binary formats with ties (round trips, every error
 * at its FILE:LINE, the files of tests/data/bad/), deferred acceptance after tie-breaking
 * (weak stability against brute force) and the SFAS-shaped generator.
 * usage: test_hrc_ties WORK_DIR DATA_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bth_hrc.h"
#include "hrc.h"
#include "hrc_gen.h"
#include "hrc_io.h"
#include "hrc_testlib.h"
#include "hrc_ties.h"
#include "test_util.h"

/* ------------------------------------------------------------ the checker ---- */

typedef struct visit_ctx {
  const bb_hrc *inst;
  long compared, blocked;
} visit_ctx;

static void compare_visit(const int32_t *M, int blocking, void *arg) {
  visit_ctx *v = arg;
  bb_error err = {{0}};
  ht_check_checker(v->inst, M, blocking, &err);
  v->compared++;
  v->blocked += blocking > 0;
}

/* Random tiny instances with ties: the checker's count is the reference's on every matching. */
static void checker_against_reference(uint64_t *rng) {
  long compared = 0, tied = 0;
  for (int k = 0; k < 3000; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 4), nr = 1 + (int)(tu_rand(rng) % 6);
    int nc = (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1));
    bb_hrc *inst = bth_hrc_random(nr, nh, nc, 3, rng);
    CHECK(bth_hrc_add_random_ties(inst, rng));
    bb_error err = {{0}};
    CHECKF(bb_hrc_validate(inst, &err) == BB_OK, "%s", err.msg);
    tied += bb_hrc_has_ties(inst);
    visit_ctx v = {inst, 0, 0};
    bth_hrc_enumerate(inst, compare_visit, &v);
    compared += v.compared;
    bb_hrc_free(inst);
  }
  printf("checker with ties: %ld matchings of 3000 instances (%ld with a tie) compared\n", compared, tied);
  CHECK(compared > 30000 && tied > 1000);
}

/* ------------------------------------------------------------- the formats ---- */

static void round_trip(const bb_hrc *inst, const char *dir) {
  char path[600];
  bb_error err = {{0}};
  for (int binary = 0; binary < 2; binary++) {
    snprintf(path, sizeof path, "%s/hrc_ties_round_trip.%s", dir, binary ? "bin" : "txt");
    bb_status st = binary ? bb_hrc_write_binary(inst, path, &err) : bb_hrc_write_text(inst, path, &err);
    CHECKF(st == BB_OK, "%s", err.msg);
    FILE *f = fopen(path, "rb");
    char head[16] = {0};
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    /* A strict instance is written as before ties: version 1, no bracket. */
    if (binary && got >= 12) CHECK(head[8] == (bb_hrc_has_ties(inst) ? 2 : 1));
    bb_hrc *back = NULL;
    st = bb_hrc_read(path, &back, &err);
    CHECKF(st == BB_OK && back && ht_same_hrc(inst, back), "%s round trip: %s", binary ? "binary" : "text", err.msg);
    if (back)
      CHECK(bb_hrc_has_ties(back) == bb_hrc_has_ties(inst) && (back->hosp_rank != NULL) == bb_hrc_has_ties(inst));
    bb_hrc_free(back);
    remove(path);
  }
}

static bb_hrc *read_text(const char *dir, const char *name, const char *text, bb_error *err) {
  char path[600];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  fputs(text, f);
  fclose(f);
  bb_hrc *inst = NULL;
  bb_hrc_read(path, &inst, err);
  remove(path);
  return inst;
}

/* tests/data/bad/NAME: refused with "PATH:LINE: " and `expect` in the message. */
static void bad_file(const char *data, const char *name, int line, const char *expect) {
  char path[600], prefix[700];
  snprintf(path, sizeof path, "%s/bad/%s", data, name);
  snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_hrc_read(path, &inst, &err);
  CHECKF(st == BB_ERR_INPUT && !inst && strncmp(err.msg, prefix, strlen(prefix)) == 0 && strstr(err.msg, expect),
         "%s: status %d, message '%s', expected '%s...%s'", name, st, err.msg, prefix, expect);
  bb_hrc_free(inst);
}

static void files(const char *dir, const char *data, uint64_t *rng) {
  for (int k = 0; k < 200; k++) {
    int nr = k % 7, nh = k % 4;
    bb_hrc *inst = bth_hrc_random(nr, nh, nh ? (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1)) : 0, 3, rng);
    if (k % 5) CHECK(bth_hrc_add_random_ties(inst, rng));
    round_trip(inst, dir);
    bb_hrc_free(inst);
  }
  /* The documented example: hospital 1 ties residents 0 and 1, below resident 2. */
  bb_error err = {{0}};
  bb_hrc *doc = read_text(dir, "doc.txt", "hrc 3 2 1\n0 1: 0 1  1 1\n-\n-\n0 1\n1: 2 0\n2: 1 [0 2]# tie\n", &err);
  CHECKF(doc && doc->hosp_rank && bb_hrc_has_ties(doc), "%s", err.msg);
  if (doc) {
    uint32_t want[] = {0, 1, 0, 1, 1};
    for (uint32_t e = 0; e < 5; e++) CHECK(doc->hosp_rank[e] == want[e]);
    round_trip(doc, dir);
  }
  bb_hrc_free(doc);
  /* No bracket, or groups of one only: strict, hosp_rank NULL as before ties were read. */
  bb_hrc *strict = read_text(dir, "strict.txt", "hrc 3 2 1\n0 1: 0 1  1 1\n-\n-\n0 1\n1: [2] 0\n2: 1 0 2\n", &err);
  CHECKF(strict && !strict->hosp_rank, "%s", err.msg);
  bb_hrc_free(strict);
  bad_file(data, "hrc_tie_unclosed.txt", 6, "hospital 0's list: '[' is never closed");
  bad_file(data, "hrc_tie_nested.txt", 7, "hospital 1's list: '[' inside a tie (ties do not nest)");
  bad_file(data, "hrc_tie_empty.txt", 6, "hospital 0's list: an empty tie '[]'");
  bad_file(data, "hrc_tie_stray.txt", 7, "hospital 1's list: ']' without '['");
  bad_file(data, "hrc_tie_single.txt", 5, "resident 2's line has '[': ties are allowed only in hospitals' lists");
  bad_file(data, "hrc_tie_couple.txt", 2, "couple 0's line has '[': ties are allowed only in hospitals' lists");
  /* Binary version 2: its ranks are validated like the text's. */
  bb_hrc *inst = bth_hrc_random(5, 3, 1, 3, rng);
  CHECK(bth_hrc_add_random_ties(inst, rng));
  inst->hosp_rank[inst->hosp_start[1]] = 1; /* the first rank of hospital 1: must be 0 */
  char path[600];
  snprintf(path, sizeof path, "%s/hrc_ties_bad.bin", dir);
  if (inst->hosp_start[2] > inst->hosp_start[1]) {
    CHECK(bb_hrc_write_binary(inst, path, &err) == BB_OK);
    bb_hrc *back = NULL;
    CHECKF(
        bb_hrc_read(path, &back, &err) == BB_ERR_INPUT && !back && strstr(err.msg, "hospital 1's list: the first rank"),
        "%s", err.msg);
    remove(path);
  }
  bb_hrc_free(inst);
}

/* ------------------------------------------------ tie-breaking and solving ---- */

/* The strict copy refines the tied lists: the same residents, ranks never falling along the
 * list; with stb two residents tied at two hospitals come in the same order at both. */
static void check_broken(const bb_hrc *tied, const bb_hrc *strict, bb_hrc_tie_break kind) {
  CHECK(!strict->hosp_rank && strict->hosp_start[tied->n_hospitals] == tied->hosp_start[tied->n_hospitals]);
  int nr = tied->n_residents;
  for (int h = 0; h < tied->n_hospitals; h++) {
    uint32_t first = tied->hosp_start[h], last = tied->hosp_start[h + 1];
    int prev = -1;
    for (uint32_t e = first; e < last; e++) {
      int r = (int)strict->hosp_list[e], q = bth_hrc_hrank(tied, h, r);
      CHECKF(q >= prev, "hospital %d: resident %d of rank %d after rank %d", h, r, q, prev);
      prev = q;
    }
    if (kind != BB_HRC_STB) continue;
    for (int g = 0; g < h; g++)
      for (int a = 0; a < nr; a++)
        for (int b = 0; b < nr; b++) {
          int qa = bth_hrc_hrank(tied, h, a), qb = bth_hrc_hrank(tied, h, b);
          if (a == b || qa < 0 || qa != qb || bth_hrc_hrank(tied, g, a) < 0 ||
              bth_hrc_hrank(tied, g, a) != bth_hrc_hrank(tied, g, b))
            continue;
          bool a_first_h = bth_hrc_hrank(strict, h, a) < bth_hrc_hrank(strict, h, b);
          bool a_first_g = bth_hrc_hrank(strict, g, a) < bth_hrc_hrank(strict, g, b);
          CHECKF(a_first_h == a_first_g, "stb orders residents %d, %d differently at hospitals %d and %d", a, b, g, h);
        }
  }
}

typedef struct find_ctx {
  const int32_t *want;
  int nr;
  bool found;
} find_ctx;

static void find_visit(const int32_t *M, int blocking, void *arg) {
  find_ctx *f = arg;
  if (blocking == 0 && !memcmp(M, f->want, (size_t)f->nr * sizeof *M)) f->found = true;
}

/* Deferred acceptance after stb and mtb on random tiny tied instances: a matching of the tied
 * instance, its counts on both instances the reference's, never more blocking pairs in the
 * tied one than in the broken one, and when stable on the broken instance, weakly stable in
 * the tied one: the checker says so, and brute force lists it among the stable matchings. */
static void da_after_tie_breaking(uint64_t *rng) {
  int runs = 0, stable_broken = 0, fewer = 0;
  for (int k = 0; k < 1500; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 4), nr = 1 + (int)(tu_rand(rng) % 7);
    int nc = (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1));
    bb_hrc *inst = bth_hrc_random(nr, nh, nc, 3, rng);
    CHECK(bth_hrc_add_random_ties(inst, rng));
    for (int kind = BB_HRC_STB; kind <= BB_HRC_MTB; kind++) {
      uint64_t seed = tu_rand(rng);
      bb_error err = {{0}};
      bb_hrc *strict = NULL, *again = NULL;
      CHECKF(bb_hrc_break_ties(inst, kind, seed, &strict, &err) == BB_OK, "%s", err.msg);
      CHECK(bb_hrc_break_ties(inst, kind, seed, &again, &err) == BB_OK &&
            !memcmp(strict->hosp_list, again->hosp_list, inst->hosp_start[nh] * sizeof(bb_id)));
      CHECKF(bb_hrc_validate(strict, &err) == BB_OK, "%s", err.msg);
      check_broken(inst, strict, kind);
      int32_t M[8];
      bb_hrc_ties_result res;
      CHECKF(bb_hrc_da_ties(inst, kind, seed, NULL, M, &res, &err) == BB_OK, "%s", err.msg);
      CHECK(bth_hrc_is_matching(inst, M) && bth_hrc_is_matching(strict, M));
      int tied_count = bth_hrc_blocking(inst, M), broken_count = bth_hrc_blocking(strict, M);
      CHECKF(res.blocking == (uint64_t)tied_count && res.blocking_broken == (uint64_t)broken_count,
             "counts %llu / %llu, the reference %d / %d", (unsigned long long)res.blocking,
             (unsigned long long)res.blocking_broken, tied_count, broken_count);
      CHECK(tied_count <= broken_count && res.stable == (tied_count == 0));
      fewer += tied_count < broken_count;
      if (res.stable_broken) {
        stable_broken++;
        CHECKF(bb_hrc_check_stable(inst, M, &err) == BB_OK, "stable when broken, not when tied: %s", err.msg);
        find_ctx f = {M, nr, false};
        bth_hrc_enumerate(inst, find_visit, &f);
        CHECK(f.found);
      }
      runs++;
      bb_hrc_free(strict);
      bb_hrc_free(again);
    }
    bb_hrc_free(inst);
  }
  printf("da after tie-breaking: %d runs, stable on the broken instance in %d, fewer blocking pairs tied in %d\n", runs,
         stable_broken, fewer);
  CHECK(stable_broken > runs / 2 && fewer > 0);
  /* The seed decides, and mtb differs from stb somewhere. */
  bb_hrc *inst = bth_hrc_random(40, 6, 0, 3, rng);
  CHECK(bth_hrc_add_random_ties(inst, rng));
  bb_hrc *a = NULL, *b = NULL, *c = NULL;
  bb_error err = {{0}};
  CHECK(bb_hrc_break_ties(inst, BB_HRC_STB, 1, &a, &err) == BB_OK &&
        bb_hrc_break_ties(inst, BB_HRC_STB, 2, &b, &err) == BB_OK &&
        bb_hrc_break_ties(inst, BB_HRC_MTB, 1, &c, &err) == BB_OK);
  size_t bytes = inst->hosp_start[6] * sizeof(bb_id);
  CHECK(memcmp(a->hosp_list, b->hosp_list, bytes) && memcmp(a->hosp_list, c->hosp_list, bytes));
  CHECK(!strcmp(bb_hrc_tie_break_name(BB_HRC_STB), "stb") && !strcmp(bb_hrc_tie_break_name(BB_HRC_MTB), "mtb"));
  bb_hrc_free(a), bb_hrc_free(b), bb_hrc_free(c), bb_hrc_free(inst);
}

/* ------------------------------------------------------------ the generator ---- */

/* gen sfas: the seed decides; valid; SFAS's shape (lists of 6, 14 posts a hospital); ties
 * present; every hospital ranks by one master list (two residents compare alike wherever
 * both are ranked); hospitals rank exactly who can propose to them. */
static void generator(const char *dir) {
  bb_error err = {{0}};
  for (int couples = 0; couples <= 40; couples += 20) {
    bb_hrc_gen_params p;
    bb_hrc_gen_sfas(&p, couples);
    p.seed = (uint64_t)couples + 3;
    bb_hrc *a = NULL, *b = NULL;
    CHECKF(bb_hrc_generate(&p, &a, &err) == BB_OK && bb_hrc_validate(a, &err) == BB_OK, "%s", err.msg);
    CHECK(bb_hrc_generate(&p, &b, &err) == BB_OK && ht_same_hrc(a, b));
    CHECK(a->n_residents == 700 && a->n_hospitals == 50 && a->n_couples == couples && bb_hrc_has_ties(a));
    for (int h = 0; h < 50; h++) CHECK(a->capacity[h] == 14);
    for (int r = 2 * couples; r < 700; r++) CHECK(a->single_start[r + 1] - a->single_start[r] == 6);
    for (int c = 0; c < couples; c++) CHECK(a->couple_start[c + 1] - a->couple_start[c] == 36);
    int *seen_at = malloc(700 * sizeof *seen_at); /* the first hospital ranking r: compared with the others */
    for (int r = 0; r < 700; r++) seen_at[r] = -1;
    long compared = 0;
    for (int h = 0; h < 50; h++)
      for (uint32_t e = a->hosp_start[h]; e < a->hosp_start[h + 1]; e++) {
        int r = (int)a->hosp_list[e];
        if (seen_at[r] < 0) seen_at[r] = h;
      }
    for (int h = 0; h < 50; h++)
      for (uint32_t e = a->hosp_start[h]; e < a->hosp_start[h + 1]; e++)
        for (uint32_t f = a->hosp_start[h]; f < e; f++) {
          int x = (int)a->hosp_list[f], y = (int)a->hosp_list[e];
          if (seen_at[x] != seen_at[y]) continue;
          int g = seen_at[x];
          int here = (a->hosp_rank[f] > a->hosp_rank[e]) - (a->hosp_rank[f] < a->hosp_rank[e]);
          int there =
              (bth_hrc_hrank(a, g, x) > bth_hrc_hrank(a, g, y)) - (bth_hrc_hrank(a, g, x) < bth_hrc_hrank(a, g, y));
          CHECKF(here == there, "residents %d, %d: hospital %d and hospital %d rank them differently", x, y, h, g);
          compared++;
        }
    CHECK(compared > 1000);
    free(seen_at);
    for (int r = 0; r < 700; r++) { /* acceptability both ways */
      int c = a->couple_of[r];
      for (int h = 0; h < 50; h++) {
        bool proposes = false;
        if (c == BB_HRC_SINGLE)
          proposes = bth_hrc_spos(a, r, h) >= 0;
        else
          for (uint32_t e = a->couple_start[c]; e < a->couple_start[c + 1]; e++)
            proposes |= (int)a->couple_list[2 * e + (a->couple_member[2 * c + 1] == r)] == h;
        CHECK(proposes == (bth_hrc_hrank(a, h, r) >= 0));
      }
    }
    round_trip(a, dir);
    p.seed++;
    bb_hrc_free(b);
    CHECK(bb_hrc_generate(&p, &b, &err) == BB_OK && !ht_same_hrc(a, b));
    int32_t *M = malloc(700 * sizeof *M);
    bb_hrc_ties_result res;
    CHECKF(bb_hrc_da_ties(a, BB_HRC_STB, 1, NULL, M, &res, &err) == BB_OK, "%s", err.msg);
    uint64_t again = 0;
    CHECK(bb_hrc_count_blocking(a, M, &again, &err) == BB_OK && again == res.blocking);
    free(M);
    bb_hrc_free(a);
    bb_hrc_free(b);
  }
  bb_hrc_gen_params p;
  bb_hrc_gen_sfas(&p, 0);
  p.score_classes = 1; /* one class: every hospital ties all its applicants */
  bb_hrc *one = NULL;
  CHECK(bb_hrc_generate(&p, &one, &err) == BB_OK);
  for (uint32_t e = 0; e < one->hosp_start[50]; e++) CHECK(one->hosp_rank[e] == 0);
  bb_hrc_free(one);
  p.score_classes = -1;
  CHECK(bb_hrc_generate(&p, &one, &err) == BB_ERR_ARG && !one && strstr(err.msg, "score classes"));
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".", *data = argc > 2 ? argv[2] : "data";
  uint64_t rng = 2014;
  checker_against_reference(&rng);
  files(dir, data, &rng);
  da_after_tie_breaking(&rng);
  generator(dir);
  return tu_finish();
}
