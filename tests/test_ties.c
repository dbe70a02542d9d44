/* SMTI/HRT in the engine: the checker against the harness's brute force (harness/bth_ties.h)
 * on every matching of hundreds of random small instances and every stability notion,
 * validation, and the text and binary formats (round trips, sniffing, malformed input). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bth_ties.h"
#include "instance_any.h"
#include "test_util.h"
#include "ties.h"
#include "ties_io.h"

/* ------------------------------------------------------------ the checker ---- */

typedef struct visit_ctx {
  const bb_ties *inst;
  long compared, blocking_seen;
} visit_ctx;

static void compare_visit(const int32_t *M, void *arg) {
  visit_ctx *v = arg;
  for (int k = 0; k < 3; k++) {
    bb_ties_stability kind = (bb_ties_stability)k;
    int want = bth_ties_blocking(v->inst, M, kind);
    bb_ties_blocking got;
    bb_error err = {{0}};
    bb_status st = bb_ties_count_blocking(v->inst, M, kind, &got, &err);
    CHECKF(st == BB_OK && got.count == (uint64_t)want, "%s: count %llu (status %d: %s), reference %d",
           bb_ties_stability_name(kind), (unsigned long long)got.count, st, err.msg, want);
    if (want) {
      /* the pair it names blocks: one blocking pair fewer once it is not counted is hard to
       * state, so check the named pair against the definition directly */
      int r = got.first_resident, h = got.first_hospital;
      CHECK(r >= 0 && h >= 0 && M[r] != h && bth_ties_rrank(v->inst, r, h) >= 0 && bth_ties_hrank(v->inst, h, r) >= 0);
      v->blocking_seen++;
    }
    st = bb_ties_check_stable(v->inst, M, kind, &err);
    CHECKF((st == BB_OK) == (want == 0), "check_stable %d (%s), reference %d", st, err.msg, want);
    if (want) CHECK(strstr(err.msg, "blocking pair") != NULL);
  }
  v->compared++;
}

static void checker_against_reference(uint64_t *rng, int instances) {
  visit_ctx v = {0};
  long strong_exists = 0, super_exists = 0;
  for (int k = 0; k < instances; k++) {
    bool smti = k % 2 == 0;
    int nr = 1 + (int)(tu_rand(rng) % 5), nh = 1 + (int)(tu_rand(rng) % 4);
    bb_ties *in = bth_ties_random(nr, nh, 2, smti, (int)(tu_rand(rng) % 80), rng);
    bb_error err = {{0}};
    CHECKF(bb_ties_validate(in, &err) == BB_OK, "%s", err.msg);
    v.inst = in;
    bth_ties_enumerate(in, compare_visit, &v);
    bth_ties_summary s = bth_ties_summarise(in);
    CHECK(s.weak > 0 && s.super <= s.strong && s.strong <= s.weak);
    strong_exists += s.strong > 0;
    super_exists += s.super > 0;
    bb_ties_free(in);
  }
  printf(
      "checker: %ld matchings of %d instances, %ld with blocking pairs, strongly stable matchings in %ld, "
      "super-stable in %ld\n",
      v.compared, instances, v.blocking_seen, strong_exists, super_exists);
  CHECK(v.compared > 5000 && v.blocking_seen > 1000);
}

/* Not matchings: an unacceptable pair and a hospital over capacity are named. */
static void not_matchings(void) {
  bb_ties *in = bb_ties_new(false, 2, 1, 2, 2, NULL); /* room for the second hospital entry below */
  in->res_start[1] = 1, in->res_start[2] = 2;
  in->res_list[0] = 0, in->res_list[1] = 0, in->res_rank[0] = 0, in->res_rank[1] = 0;
  in->hosp_start[1] = 1, in->hosp_list[0] = 0, in->hosp_rank[0] = 0, in->capacity[0] = 1;
  bb_error err = {{0}};
  bb_ties_blocking b;
  int32_t M[2] = {BB_TIES_NONE, 0};
  CHECK(bb_ties_count_blocking(in, M, BB_TIES_WEAK, &b, &err) == BB_ERR_INPUT && strstr(err.msg, "not an acceptable"));
  in->hosp_start[1] = 2, in->hosp_list[1] = 1, in->hosp_rank[1] = 0;
  int32_t both[2] = {0, 0};
  CHECK(bb_ties_count_blocking(in, both, BB_TIES_WEAK, &b, &err) == BB_ERR_INPUT && strstr(err.msg, "capacity"));
  /* a tie on the hospital side: residents 0 and 1 equal, capacity 1 */
  CHECK(bb_ties_count_blocking(in, M, BB_TIES_WEAK, &b, &err) == BB_OK && b.count == 0);
  CHECK(bb_ties_count_blocking(in, M, BB_TIES_STRONG, &b, &err) == BB_OK && b.count == 1 && b.first_resident == 0);
  CHECK(bb_ties_check_stable(in, M, BB_TIES_SUPER, &err) == BB_ERR_INPUT && strstr(err.msg, "not super-stable"));
  in->res_rank[1] = 1; /* a bad rank: the first entry must have rank 0 */
  CHECK(bb_ties_validate(in, &err) == BB_ERR_INPUT && strstr(err.msg, "rank 1"));
  in->res_rank[1] = 0, in->capacity[0] = 2, in->smti = true;
  CHECK(bb_ties_validate(in, &err) == BB_ERR_INPUT && strstr(err.msg, "SMTI"));
  bb_ties_free(in);
}

/* ---------------------------------------------------------------- formats ---- */

static bool same(const bb_ties *a, const bb_ties *b) {
  if (a->smti != b->smti || a->n_residents != b->n_residents || a->n_hospitals != b->n_hospitals) return false;
  uint64_t er = a->res_start[a->n_residents], eh = a->hosp_start[a->n_hospitals];
  return !memcmp(a->res_start, b->res_start, ((size_t)a->n_residents + 1) * 4) &&
         !memcmp(a->hosp_start, b->hosp_start, ((size_t)a->n_hospitals + 1) * 4) &&
         !memcmp(a->res_list, b->res_list, er * 4) && !memcmp(a->res_rank, b->res_rank, er * 4) &&
         !memcmp(a->hosp_list, b->hosp_list, eh * 4) && !memcmp(a->hosp_rank, b->hosp_rank, eh * 4) &&
         !memcmp(a->capacity, b->capacity, (size_t)a->n_hospitals * 4);
}

static void write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  fwrite(text, 1, len, f);
  fclose(f);
}

#define TEXT(s) s, sizeof(s) - 1

/* A malformed file: reading fails with `want` in the message, at `line` (0: no line). */
static void bad_file(const char *dir, const char *name, const char *text, size_t len, const char *want, int line) {
  char path[600], where[700];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  write_file(path, text, len);
  bb_ties *in = NULL;
  bb_error err = {{0}};
  bb_status st = bb_ties_read(path, &in, &err);
  CHECKF(st == BB_ERR_INPUT && !in && strstr(err.msg, want), "%s: status %d, message '%s', wanted '%s'", name, st,
         err.msg, want);
  if (line) {
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    CHECKF(strstr(err.msg, where) == err.msg, "%s: '%s' does not start with '%s'", name, err.msg, where);
  }
  bb_ties_free(in);
  remove(path);
}

static void files(const char *dir, uint64_t *rng) {
  char text[600], bin[600];
  snprintf(text, sizeof text, "%s/ties_round.txt", dir);
  snprintf(bin, sizeof bin, "%s/ties_round.bin", dir);
  for (int k = 0; k < 200; k++) {
    bb_ties *in = bth_ties_random(1 + (int)(tu_rand(rng) % 9), (int)(tu_rand(rng) % 7), 4, k % 3 == 0,
                                  (int)(tu_rand(rng) % 90), rng);
    bb_ties *a = NULL, *b = NULL, *c = NULL;
    bb_instance *complete = NULL;
    bb_hr *hr = NULL;
    bb_hrc *hrc = NULL;
    bb_error err = {{0}};
    CHECKF(bb_ties_write_text(in, text, &err) == BB_OK && bb_ties_read(text, &a, &err) == BB_OK, "%s", err.msg);
    CHECKF(bb_ties_write_binary(in, bin, &err) == BB_OK && bb_ties_read(bin, &b, &err) == BB_OK, "%s", err.msg);
    CHECK(a && same(in, a) && b && same(in, b));
    /* the sniffing reader sends both to *ties */
    CHECKF(bb_read_any_with_ties(k % 2 ? text : bin, 0, &complete, &hr, &hrc, &c, &err) == BB_OK && c && same(in, c) &&
               !complete && !hr && !hrc,
           "%s", err.msg);
    bb_ties_free(in), bb_ties_free(a), bb_ties_free(b), bb_ties_free(c);
  }
  { /* the readers without ties name the kind instead of misreading it */
    bb_instance *complete = NULL;
    bb_hr *hr = NULL;
    bb_error err = {{0}};
    CHECK(bb_read_any_instance(text, &complete, &hr, &err) == BB_ERR_INPUT && strstr(err.msg, "SMTI/HRT"));
  }
  remove(text);
  remove(bin);
  { /* the example of docs/formats.md */
    snprintf(text, sizeof text, "%s/ties_doc.txt", dir);
    write_file(text, TEXT("# HRT\nhrt 3 2\n1 0\n[0 1]\n-\n1: [2 0] 1\n2:1 [0 2]  # a note\n"));
    bb_ties *in = NULL;
    bb_error err = {{0}};
    CHECKF(bb_ties_read(text, &in, &err) == BB_OK, "%s", err.msg);
    if (in) {
      CHECK(!in->smti && in->n_residents == 3 && in->n_hospitals == 2 && in->capacity[0] == 1 && in->capacity[1] == 2);
      CHECK(in->res_rank[0] == 0 && in->res_rank[1] == 1 && in->res_rank[2] == 0 && in->res_rank[3] == 0);
      CHECK(in->res_start[3] == 4 && in->hosp_rank[0] == 0 && in->hosp_rank[1] == 0 && in->hosp_rank[2] == 1);
      CHECK(in->hosp_list[3] == 1 && in->hosp_rank[3] == 0 && in->hosp_rank[4] == 1 && in->hosp_rank[5] == 1);
    }
    bb_ties_free(in);
    remove(text);
  }
  bad_file(dir, "t1.txt", TEXT("smti 2 2\n[0 1\n0\n0\n1\n"), "'[' is never closed", 2);
  bad_file(dir, "t2.txt", TEXT("smti 2 2\n0\n[0 [1]]\n0\n1\n"), "ties do not nest", 3);
  bad_file(dir, "t3.txt", TEXT("smti 2 2\n0\n1\n[]\n1\n"), "an empty tie", 4);
  bad_file(dir, "t4.txt", TEXT("smti 2 2\n0 ]\n1\n0\n1\n"), "']' without '['", 2);
  bad_file(dir, "t5.txt", TEXT("hrt 2 2\n0\n[1 1]\n1: 0\n1: 1\n"), "id 1 appears twice", 3);
  bad_file(dir, "t6.txt", TEXT("hrt 2 2\n0\n1\n1: 0\n1: [1 2]\n"), "id 2 is out of range 0..1", 5);
  bad_file(dir, "t7.txt", TEXT("hrt 2 2\n0\n1\n0 1\n1: 1\n"), "has no capacity", 4);
  bad_file(dir, "t8.txt", TEXT("hrt 2 2\n0\n1\n1: 0\n"), "file ends after 3 of 4 lists", 4);
  bad_file(dir, "t9.txt", TEXT("smti 2\n"), "the header lacks a count", 1);
  bad_file(dir, "t10.txt", TEXT("smti 1 1\n0\nx\n"), "not a number: 'x'", 3);
  bad_file(dir, "t11.txt", TEXT("smti 1 1\n0\n0\n0\n"), "extra data", 4);
  bad_file(dir, "t12.txt", TEXT("hr 1 1\n0\n1: 0\n"), "not an SMTI/HRT instance", 0);
  bad_file(dir, "t13.bin", TEXT("BBTIESL1\x02\0\0\0"), "truncated file", 0);
  {
    char head[40] = "BBTIESL1";
    head[8] = 9;
    bad_file(dir, "t14.bin", head, sizeof head, "unsupported version 9", 0);
  }
}

/* ------------------------------------------------------------- algorithms ---- */

static bool weakly_stable_both_ways(const bb_ties *in, const int32_t *M) {
  bb_error err = {{0}};
  bool checker = bb_ties_check_stable(in, M, BB_TIES_WEAK, &err) == BB_OK;
  bool reference = bth_ties_is_matching(in, M) && bth_ties_blocking(in, M, BB_TIES_WEAK) == 0;
  CHECKF(checker == reference, "checker %d, reference %d (%s)", checker, reference, err.msg);
  return checker && reference;
}

static int place(const bb_ties *in, const int32_t *M, int r) {
  return M[r] == BB_TIES_NONE ? 1 << 30 : bth_ties_rrank(in, r, M[r]);
}

static void algorithms_against_reference(uint64_t *rng, int instances) {
  const char *const *names = bb_ties_algorithm_names();
  long below_max[4] = {0}, sic_improved = 0, pareto_checked = 0;
  for (int k = 0; k < instances; k++) {
    bool smti = k % 2 == 0;
    int nr = 1 + (int)(tu_rand(rng) % 7), nh = 1 + (int)(tu_rand(rng) % (smti ? 7 : 4));
    bb_ties *in = bth_ties_random(nr, nh, 3, smti, (int)(tu_rand(rng) % 90), rng);
    bool strict_residents = k % 3 == 0; /* Erdil-Ergin's efficiency needs strict residents' lists */
    if (strict_residents)
      for (int r = 0; r < nr; r++)
        for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1]; e++) in->res_rank[e] = e - in->res_start[r];
    bth_ties_summary s = bth_ties_summarise(in);
    uint64_t seed = tu_rand(rng);
    int32_t M[4][BTH_TIES_MAX_RESIDENTS];
    for (int a = 0; a < 4; a++) {
      bb_error err = {{0}};
      bb_status st = bb_ties_solve(in, names[a], seed, M[a], &err);
      CHECKF(st == BB_OK, "%s: %s", names[a], err.msg);
      CHECKF(weakly_stable_both_ways(in, M[a]), "%s: not weakly stable", names[a]);
      int size = bth_ties_size(in, M[a]);
      CHECK(size <= s.max_weak_size);
      below_max[a] += size < s.max_weak_size;
      if (!strcmp(names[a], "kiraly"))
        CHECKF(3 * size >= 2 * s.max_weak_size, "kiraly: size %d, maximum %d", size, s.max_weak_size);
    }
    /* sic starts from da-stb with the same seed: nobody worse off */
    bool better = false;
    for (int r = 0; r < nr; r++) {
      CHECK(place(in, M[2], r) <= place(in, M[0], r));
      better |= place(in, M[2], r) < place(in, M[0], r);
    }
    sic_improved += better;
    if (strict_residents) {
      CHECK(!bth_ties_weak_pareto_dominated(in, M[2]));
      pareto_checked++;
    }
    bb_ties_free(in);
  }
  printf(
      "algorithms: %d instances; below the maximum: da-stb %ld, da-mtb %ld, sic %ld, kiraly %ld; sic improved on "
      "da-stb in %ld; Pareto efficiency checked on %ld\n",
      instances, below_max[0], below_max[1], below_max[2], below_max[3], sic_improved, pareto_checked);
  CHECK(below_max[0] > 0 && sic_improved > 0); /* the instances exercise what is tested */
  bb_error err = {{0}};
  int32_t M[1];
  CHECK(bb_ties_solve(NULL, "sic", 1, M, &err) == BB_ERR_ARG);
}

/* Regression: offsets that rise past the entries' count and come back (a binary file can say
 * so) were followed before the last one was checked: a read past the lists. */
static void offsets_beyond_the_entries(void) {
  bb_error err = {{0}};
  bb_ties *inst = bb_ties_new(true, 2, 2, 2, 0, &err);
  CHECK(inst != NULL);
  if (!inst) return;
  inst->res_start[0] = 0, inst->res_start[1] = 1000, inst->res_start[2] = 2;
  inst->res_list[0] = inst->res_list[1] = 0;
  inst->res_rank[0] = inst->res_rank[1] = 0;
  inst->capacity[0] = inst->capacity[1] = 1;
  CHECK(bb_ties_validate(inst, &err) == BB_ERR_INPUT && strstr(err.msg, "offsets decrease"));
  bb_ties_free(inst);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  uint64_t rng = 1994;
  checker_against_reference(&rng, 600);
  not_matchings();
  offsets_beyond_the_entries();
  files(dir, &rng);
  algorithms_against_reference(&rng, 3000);
  return tu_finish();
}
