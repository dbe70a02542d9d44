/* HRC in the engine: the checker against the harness's brute-force reference (harness/bth_hrc.h) on
 * every matching of thousands of random tiny instances, the worked examples of docs/hrc.md,
 * validation, and the text and binary formats (round trips and every malformed input). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bth_hrc.h"
#include "hr.h"
#include "hrc.h"
#include "hrc_gen.h"
#include "hrc_io.h"
#include "hrc_testlib.h"
#include "instance_any.h"
#include "test_util.h"

/* ------------------------------------------------------------ the checker ---- */

typedef struct visit_ctx {
  const bb_hrc *inst;
  long compared;
} visit_ctx;

/* Every matching brute force visits: the checker's count is the reference's. */
static void compare_visit(const int32_t *M, int blocking, void *arg) {
  visit_ctx *v = arg;
  bb_error err = {{0}};
  ht_check_checker(v->inst, M, blocking, &err);
  if (blocking) CHECK(strstr(err.msg, "blocking pair") != NULL);
  v->compared++;
}

static long checker_against_reference(uint64_t *rng, int instances) {
  long compared = 0;
  for (int k = 0; k < instances; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 4), nr = 1 + (int)(tu_rand(rng) % 6);
    int nc = (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1));
    bb_hrc *inst = bth_hrc_random(nr, nh, nc, 3, rng);
    bb_error err = {{0}};
    CHECKF(bb_hrc_validate(inst, &err) == BB_OK, "%s", err.msg);
    visit_ctx v = {inst, 0};
    bth_hrc_enumerate(inst, compare_visit, &v);
    compared += v.compared;
    /* Assignments that are mostly not matchings: the checker refuses exactly those. */
    for (int t = 0; t < 20; t++) {
      int32_t M[16];
      for (int r = 0; r < nr; r++) M[r] = (int32_t)(tu_rand(rng) % (uint64_t)(nh + 1)) - 1;
      uint64_t got = 0;
      bb_status st = bb_hrc_count_blocking(inst, M, &got, &err);
      bool ok = bth_hrc_is_matching(inst, M);
      CHECKF((st == BB_OK) == ok, "status %d (%s), reference says %s", st, err.msg, ok ? "a matching" : "none");
      if (ok) CHECK(got == (uint64_t)bth_hrc_blocking(inst, M));
    }
    bb_hrc_free(inst);
  }
  return compared;
}

/* A small instance written by hand: lists as strings, "-" empty. */
static bb_hrc *build(int nr, int nh, int nc, const int *members, const char *const *singles, const char *const *couples,
                     const char *const *hosps, const int *cap) {
  bb_hrc *in = bb_hrc_new(nr, nh, nc, 64, 64, 64, NULL);
  uint32_t len = 0;
  for (int c = 0; c < nc; c++)
    for (int m = 0; m < 2; m++)
      in->couple_member[2 * c + m] = members[2 * c + m], in->couple_of[members[2 * c + m]] = c;
  for (int r = 0; r < nr; r++) {
    in->single_start[r] = len;
    for (const char *p = singles[r]; *p; p++)
      if (*p >= '0' && *p <= '9') in->single_list[len++] = (bb_id)(*p - '0');
  }
  in->single_start[nr] = len;
  len = 0;
  for (int c = 0; c < nc; c++) {
    in->couple_start[c] = len;
    int half = 0;
    for (const char *p = couples[c]; *p; p++)
      if (*p >= '0' && *p <= '9') {
        in->couple_list[2 * len + half] = (bb_id)(*p - '0');
        if (half) len++;
        half ^= 1;
      }
  }
  in->couple_start[nc] = len;
  len = 0;
  for (int h = 0; h < nh; h++) {
    in->hosp_start[h] = len;
    in->capacity[h] = cap[h];
    for (const char *p = hosps[h]; *p; p++)
      if (*p >= '0' && *p <= '9') in->hosp_list[len++] = (bb_id)(*p - '0');
  }
  in->hosp_start[nh] = len;
  return in;
}

static uint64_t count_of(const bb_hrc *in, const int32_t *M) {
  uint64_t n = UINT64_MAX;
  bb_error err = {{0}};
  CHECKF(bb_hrc_count_blocking(in, M, &n, &err) == BB_OK, "%s", err.msg);
  CHECK(n == (uint64_t)bth_hrc_blocking(in, M));
  return n;
}

/* The worked examples of docs/hrc.md, "Examples": each blocks by exactly the case it shows. */
static void worked_examples(void) {
  bb_error err = {{0}};
  /* Example 1 (case 2a): couple (0, 1) lists (0, 1) then (1, 1); single 2 lists 0. Hospital
     0 (capacity 1) ranks 0 before 2; hospital 1 (capacity 2) ranks 1, 0. M: couple at (1, 1),
     2 at 0. Resident 1 keeps hospital 1, resident 0 would move to 0, which prefers him to 2. */
  {
    int members[] = {0, 1}, cap[] = {1, 2};
    const char *singles[] = {"-", "-", "0"}, *couples[] = {"0 1  1 1"}, *hosps[] = {"0 2", "1 0"};
    bb_hrc *in = build(3, 2, 1, members, singles, couples, hosps, cap);
    CHECKF(bb_hrc_validate(in, &err) == BB_OK, "%s", err.msg);
    int32_t M[] = {1, 1, 0};
    CHECK(count_of(in, M) == 1);
    CHECK(bb_hrc_check_stable(in, M, &err) == BB_ERR_INPUT && strstr(err.msg, "2a"));
    int32_t stable[] = {0, 1, BB_HRC_NONE}; /* the couple at its first choice: nothing blocks */
    CHECK(count_of(in, stable) == 0);
    bb_hrc_free(in);
  }
  /* Example 2 (case 3a): couple (0, 1) lists (0, 1) then (2, 2); hospitals 0, 1 capacity 1
     each, held by singles 2 and 3 whom they rank below the couple's members. */
  {
    int members[] = {0, 1}, cap[] = {1, 1, 2};
    const char *singles[] = {"-", "-", "0", "1"}, *couples[] = {"0 1  2 2"}, *hosps[] = {"0 2", "1 3", "0 1"};
    bb_hrc *in = build(4, 3, 1, members, singles, couples, hosps, cap);
    int32_t M[] = {2, 2, 0, 1};
    CHECK(count_of(in, M) == 1);
    CHECK(bb_hrc_check_stable(in, M, &err) == BB_ERR_INPUT && strstr(err.msg, "3a"));
    /* If hospital 1 ranked 3 first, only one hospital would take its member: no block. */
    in->hosp_list[2] = 3, in->hosp_list[3] = 1;
    CHECK(count_of(in, M) == 0);
    bb_hrc_free(in);
  }
  /* Example 3 (case 3b): couple (0, 1) lists (0, 0) only; hospital 0 (capacity 2) ranks
     0, 2, 1, 3 and holds singles 2 and 3. Full: it needs r_s below 0 and r_t below 1, r_s !=
     r_t; 3 is below both, 2 only below 0: (s, t) = (2, 3) works. */
  {
    int members[] = {0, 1}, cap[] = {2};
    const char *singles[] = {"-", "-", "0", "0"}, *couples[] = {"0 0"}, *hosps[] = {"0 2 1 3"};
    bb_hrc *in = build(4, 1, 1, members, singles, couples, hosps, cap);
    int32_t M[] = {BB_HRC_NONE, BB_HRC_NONE, 0, 0};
    CHECK(count_of(in, M) == 1);
    CHECK(bb_hrc_check_stable(in, M, &err) == BB_ERR_INPUT && strstr(err.msg, "3b"));
    /* Ranking 0, 1, 2, 3 the same; ranking 2, 0, 1, 3: only 3 is below either member, and one
       assignee cannot make room for two: no block. */
    in->hosp_list[0] = 2, in->hosp_list[1] = 0, in->hosp_list[2] = 1;
    CHECK(count_of(in, M) == 0);
    /* Capacity 3 (one free post): it prefers 0 to 3, so it blocks again. */
    in->capacity[0] = 3;
    CHECK(count_of(in, M) == 1);
    bb_hrc_free(in);
  }
  /* Example 4 (case 1 alongside a couple): single 2 lists 0; hospital 0 (capacity 1) holds
     couple member 0 and ranks 2 first: (2, 0) blocks; the couple's entry does not. */
  {
    int members[] = {0, 1}, cap[] = {1, 1};
    const char *singles[] = {"-", "-", "0"}, *couples[] = {"0 1"}, *hosps[] = {"2 0", "1"};
    bb_hrc *in = build(3, 2, 1, members, singles, couples, hosps, cap);
    int32_t M[] = {0, 1, BB_HRC_NONE};
    CHECK(count_of(in, M) == 1);
    CHECK(bb_hrc_check_stable(in, M, &err) == BB_ERR_INPUT && strstr(err.msg, "case 1"));
    bb_hrc_free(in);
  }
}

static void validation(void) {
  int members[] = {0, 1}, cap[] = {1, 1};
  const char *singles[] = {"-", "-", "0"}, *couples[] = {"0 1  1 0"}, *hosps[] = {"0 1 2", "1 0"};
  bb_error err = {{0}};
  struct {
    const char *what, *expect;
  } cases[] = {{"member twice", "both members"},          {"member in a 2nd couple", "couple_of"},
               {"member with own list", "own list"},      {"pair twice", "appears twice"},
               {"hospital out of range", "out of range"}, {"negative capacity", "negative"},
               {"resident twice", "appears twice"}};
  for (int k = 0; k < (int)(sizeof cases / sizeof *cases); k++) {
    bb_hrc *in = build(3, 2, 1, members, singles, couples, hosps, cap);
    CHECK(bb_hrc_validate(in, &err) == BB_OK);
    switch (k) {
      case 0: in->couple_member[1] = 0; break;
      case 1: in->couple_of[1] = BB_HRC_SINGLE; break;
      case 2: in->single_start[1] = 0, in->single_start[2] = 1, in->single_list[0] = 1, in->single_list[1] = 0; break;
      case 3: in->couple_list[2] = 0, in->couple_list[3] = 1; break;
      case 4: in->couple_list[3] = 7; break;
      case 5: in->capacity[1] = -1; break;
      case 6: in->hosp_list[1] = 0; break;
    }
    CHECKF(bb_hrc_validate(in, &err) == BB_ERR_INPUT && strstr(err.msg, cases[k].expect), "%s: %s", cases[k].what,
           err.msg);
    bb_hrc_free(in);
  }
  CHECK(bb_hrc_new(3, 1, 2, 0, 0, 0, &err) == NULL); /* two couples need four residents */
}

/* ------------------------------------------------------------- the formats ---- */

static void round_trip(const bb_hrc *inst, const char *dir) {
  char path[600];
  bb_error err = {{0}};
  for (int binary = 0; binary < 2; binary++) {
    snprintf(path, sizeof path, "%s/hrc_round_trip.%s", dir, binary ? "bin" : "txt");
    bb_status st = binary ? bb_hrc_write_binary(inst, path, &err) : bb_hrc_write_text(inst, path, &err);
    CHECKF(st == BB_OK, "%s", err.msg);
    bb_hrc *back = NULL;
    st = bb_hrc_read(path, &back, &err);
    CHECKF(st == BB_OK && back && ht_same_hrc(inst, back), "%s round trip: %s", binary ? "binary" : "text", err.msg);
    bb_hrc_free(back);
    remove(path);
  }
}

/* Writes `text` (length len, may hold NULs) to a file, reads it back, expects `expect` in the
 * message (a FILE:LINE prefix included where `line` > 0). */
static void bad_file(const char *dir, const char *name, const char *text, size_t len, const char *expect, int line) {
  char path[600], prefix[700];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  fwrite(text, 1, len, f);
  fclose(f);
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_hrc_read(path, &inst, &err);
  if (line > 0)
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
  else
    snprintf(prefix, sizeof prefix, "%s: ", path);
  CHECKF(st == BB_ERR_INPUT && !inst && strstr(err.msg, expect) && strncmp(err.msg, prefix, strlen(prefix)) == 0,
         "%s: status %d, message '%s', expected '%s%s...'", name, st, err.msg, prefix, expect);
  bb_hrc_free(inst);
  remove(path);
}

static void good_file(const char *dir, const char *name, const char *text, size_t len, const bb_hrc *expect) {
  char path[600];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  fwrite(text, 1, len, f);
  fclose(f);
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  CHECKF(bb_hrc_read(path, &inst, &err) == BB_OK && inst && ht_same_hrc(inst, expect), "%s: %s", name, err.msg);
  bb_hrc_free(inst);
  remove(path);
}

#define TEXT(s) s, sizeof s - 1

static void files(const char *dir, uint64_t *rng) {
  for (int k = 0; k < 60; k++) {
    int nr = k % 7, nh = k % 4;
    bb_hrc *inst = bth_hrc_random(nr, nh, nh ? (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1)) : 0, 3, rng);
    round_trip(inst, dir);
    bb_hrc_free(inst);
  }
  /* The documented example (docs/formats.md), with CRLF, a BOM, comments and '-' lines. */
  int members[] = {0, 1}, cap[] = {1, 2};
  const char *singles[] = {"-", "-", "0 1"}, *couples[] = {"0 1  1 1"}, *hosps[] = {"2 0", "1 0 2"};
  bb_hrc *doc = build(3, 2, 1, members, singles, couples, hosps, cap);
  const char doc_text[] = "# one couple, one single\nhrc 3 2 1\n0 1: 0 1  1 1\n-\n\n0 1\n1: 2 0\n2: 1 0 2\n";
  good_file(dir, "doc.txt", TEXT(doc_text), doc);
  good_file(dir, "crlf.txt", TEXT("hrc 3 2 1\r\n0 1: 0 1 1 1\r\n-\r\n-\r\n0 1\r\n1: 2 0\r\n2: 1 0 2\r\n"), doc);
  good_file(dir, "bom.txt", TEXT("\xEF\xBB\xBFhrc 3 2 1\n0 1:0 1 1 1 # comment\n#c\n\n-\n0 1\n1 :2 0\n2: 1 0 2\n"),
            doc);
  bb_hrc_free(doc);
  { /* the other families' sniffing reader names an HRC file instead of misreading it */
    char path[600];
    snprintf(path, sizeof path, "%s/any.txt", dir);
    FILE *f = fopen(path, "wb");
    fwrite(doc_text, 1, sizeof doc_text - 1, f);
    fclose(f);
    bb_instance *complete = NULL;
    bb_hr *hr = NULL;
    bb_error err = {{0}};
    CHECK(bb_read_any_instance(path, &complete, &hr, &err) == BB_ERR_INPUT && !complete && !hr &&
          strstr(err.msg, "an HRC instance (couples)"));
    remove(path);
  }
  bad_file(dir, "header.txt", TEXT("hr 3 2\n"), "not an HRC instance", 0);
  bad_file(dir, "header2.txt", TEXT("hrc 3 2\n"), "the header lacks NC (couples)", 1);
  bad_file(dir, "header3.txt", TEXT("hrc 3 x 0\n"), "NH (hospitals) = 'x' is not a count", 1);
  bad_file(dir, "header4.txt", TEXT("hrc 3 2 2\n"), "2 couples need 4 residents", 1);
  bad_file(dir, "header5.txt", TEXT("hrc 3 2 1 9\n"), "unexpected '9' after the header", 1);
  bad_file(dir, "empty.txt", TEXT("# nothing\n\n"), "not an HRC instance", 0);
  bad_file(dir, "truncated.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\n"),
           "file ends after 3 of 6 lines (truncated?): resident 2", 4);
  bad_file(dir, "odd.txt", TEXT("hrc 3 2 1\n0 1: 0 1 1\n"), "odd number of hospital ids", 2);
  bad_file(dir, "nocolon.txt", TEXT("hrc 3 2 1\n0 1 0 1\n"), "couple 0's line has no ':'", 2);
  bad_file(dir, "onemember.txt", TEXT("hrc 3 2 1\n0: 0 1\n"), "second member is missing", 2);
  bad_file(dir, "threemembers.txt", TEXT("hrc 4 2 1\n0 1 2: 0 1\n"), "unexpected '2' before ':'", 2);
  bad_file(dir, "sameperson.txt", TEXT("hrc 3 2 1\n1 1: 0 1\n"), "resident 1 is both members", 2);
  bad_file(dir, "twocouples.txt", TEXT("hrc 4 2 2\n0 1: 0 1\n2 1: 1 1\n"), "resident 1 is already in couple 0 (line 2)",
           3);
  bad_file(dir, "memberrange.txt", TEXT("hrc 3 2 1\n0 3: 0 1\n"), "id 3 is out of range 0..2", 2);
  bad_file(dir, "pairrange.txt", TEXT("hrc 3 2 1\n0 1: 0 2\n"), "couple 0's list, pair 0: id 2 is out of range 0..1",
           2);
  bad_file(dir, "pairtwice.txt", TEXT("hrc 3 2 1\n0 1: 0 1  1 1  0 1\n"), "pair 2: the pair (0, 1) appears twice", 2);
  bad_file(dir, "memberlist.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n1\n"), "resident 1 is in couple 0 (line 2)", 4);
  bad_file(dir, "resrange.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\n0 5\n"),
           "resident 2's list, position 1: id 5 is out of range 0..1", 5);
  bad_file(dir, "restwice.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\n0 0\n"), "id 0 appears twice", 5);
  bad_file(dir, "junk.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\nx\n"), "not a number: 'x'", 5);
  bad_file(dir, "nocap.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\n0\n2 0\n"), "hospital 0's line has no capacity", 6);
  bad_file(dir, "negcap.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\n0\n-1: 2 0\n"), "capacity -1 is negative", 6);
  bad_file(dir, "hosprange.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\n0\n1: 3\n"), "hospital 0's list, position 0: id 3",
           6);
  bad_file(dir, "extra.txt", TEXT("hrc 3 2 1\n0 1: 0 1\n-\n-\n0\n1: 2\n1: 1\n5\n"), "extra data after the hospitals'",
           8);
  bad_file(dir, "utf16.txt", TEXT("\xFF\xFEh\0r\0c\0"), "UTF-16", 0);
  /* Binary: a good file, then each way to break one. */
  bb_hrc *inst = bth_hrc_random(5, 3, 2, 3, rng);
  char path[600];
  snprintf(path, sizeof path, "%s/hrc_bin.bin", dir);
  bb_error err = {{0}};
  CHECK(bb_hrc_write_binary(inst, path, &err) == BB_OK);
  FILE *f = fopen(path, "rb");
  char bytes[4096];
  size_t n = fread(bytes, 1, sizeof bytes, f);
  fclose(f);
  remove(path);
  good_file(dir, "good.bin", bytes, n, inst);
  bad_file(dir, "short.bin", bytes, 20, "truncated file: the header needs 48 bytes", 0);
  bad_file(dir, "cut.bin", bytes, n - 4, "truncated file", 0);
  char copy[4096];
  memcpy(copy, bytes, n);
  copy[8] = 3;
  bad_file(dir, "version.bin", copy, n, "unsupported version 3 (this build reads 1..2)", 0);
  copy[8] = 2; /* version 2 needs the hospitals' ranks after the capacities */
  bad_file(dir, "version2.bin", copy, n, "truncated file", 0);
  memcpy(copy, bytes, n);
  copy[n] = 0;
  bad_file(dir, "long.bin", copy, n + 1, "extra data", 0);
  memcpy(copy, bytes, n);
  copy[20] = 3; /* three couples in five residents */
  bad_file(dir, "couples.bin", copy, n, "bad header", 0);
  memcpy(copy, bytes, n);
  copy[48] = copy[52]; /* couple 0's first member = its second */
  bad_file(dir, "member.bin", copy, n, "both members", 0);
  memcpy(copy, bytes, n);
  copy[48] = 9; /* out of range */
  bad_file(dir, "memberrange.bin", copy, n, "member 9 is out of range", 0);
  memcpy(copy, bytes, n);
  copy[n - 4] = (char)0xFF, copy[n - 3] = copy[n - 2] = copy[n - 1] = (char)0xFF; /* capacity -1 */
  bad_file(dir, "cap.bin", copy, n, "negative", 0);
  bb_hrc_free(inst);
}

/* --------------------------------------------------- the deferred acceptance ---- */

typedef struct da_tally {
  int instances, stable_exists, da_stable, da_min; /* da_min: DA reached brute force's minimum */
} da_tally;

/* On tiny instances: the result is a matching, its reported count is the reference's count of
 * it, it never claims stability where brute force finds no stable matching, and it is never
 * below brute force's minimum; the same input gives the same output. */
static void da_against_reference(uint64_t *rng, int instances, da_tally *t) {
  for (int k = 0; k < instances; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 4), nr = 1 + (int)(tu_rand(rng) % 6);
    int nc = (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1));
    bb_hrc *inst = bth_hrc_random(nr, nh, nc, 3, rng);
    bth_hrc_summary s = bth_hrc_summarise(inst);
    int32_t M[16], again[16];
    bool stable = false;
    uint64_t blocking = UINT64_MAX, blocking2 = 0;
    bb_error err = {{0}};
    bb_hrc_da_stats stats;
    CHECKF(bb_hrc_da(inst, NULL, M, &stable, &blocking, &stats, &err) == BB_OK, "%s", err.msg);
    CHECK(bth_hrc_is_matching(inst, M));
    CHECKF(blocking == (uint64_t)bth_hrc_blocking(inst, M), "DA reports %llu, the reference counts %d",
           (unsigned long long)blocking, bth_hrc_blocking(inst, M));
    CHECK(stable == (blocking == 0));
    CHECK(stable || stats.bounded); /* it stops unstable only at its bounds */
    CHECK(!stable || s.stable > 0);
    CHECK((int)blocking >= s.min_blocking);
    CHECK(bb_hrc_da(inst, NULL, again, NULL, &blocking2, NULL, &err) == BB_OK && !memcmp(M, again, (size_t)nr * 4) &&
          blocking2 == blocking);
    t->instances++;
    t->stable_exists += s.stable > 0;
    t->da_stable += stable;
    t->da_min += (int)blocking == s.min_blocking;
    bb_hrc_free(inst);
  }
}

/* Without couples the first pass is resident-proposing deferred acceptance: the resident-optimal
 * stable matching, which the SMI/HR engine computes on the same lists. */
static void da_without_couples(uint64_t *rng) {
  for (int k = 0; k < 300; k++) {
    int nr = 1 + k % 40, nh = 1 + k % 13;
    bb_hrc *inst = bth_hrc_random(nr, nh, 0, 4, rng);
    bb_hr *hr = bb_hr_new(false, nr, nh, inst->single_start[nr], inst->hosp_start[nh], NULL);
    memcpy(hr->res_start, inst->single_start, ((size_t)nr + 1) * 4);
    memcpy(hr->res_list, inst->single_list, (size_t)inst->single_start[nr] * 4);
    memcpy(hr->hosp_start, inst->hosp_start, ((size_t)nh + 1) * 4);
    memcpy(hr->hosp_list, inst->hosp_list, (size_t)inst->hosp_start[nh] * 4);
    memcpy(hr->capacity, inst->capacity, (size_t)nh * 4);
    int32_t *a = malloc((size_t)nr * 4), *b = malloc((size_t)nr * 4);
    bool stable = false;
    bb_error err = {{0}};
    CHECK(bb_hrc_da(inst, NULL, a, &stable, NULL, NULL, &err) == BB_OK && stable);
    CHECKF(bb_hr_solve(hr, "gs-seq", BB_HR_RESIDENT_OPTIMAL, NULL, b, NULL, &err) == BB_OK, "%s", err.msg);
    CHECKF(!memcmp(a, b, (size_t)nr * 4), "instance %d: not the resident-optimal matching", k);
    free(a);
    free(b);
    bb_hr_free(hr);
    bb_hrc_free(inst);
  }
}

/* ------------------------------------------------------------ the generators ---- */

/* Every entry of a generated instance is acceptable: h lists r exactly when r can propose to h. */
static bool all_acceptable(const bb_hrc *in) {
  for (int h = 0; h < in->n_hospitals; h++)
    for (uint32_t e = in->hosp_start[h]; e < in->hosp_start[h + 1]; e++) {
      int r = (int)in->hosp_list[e], c = in->couple_of[r];
      bool proposes = false;
      if (c == BB_HRC_SINGLE)
        proposes = bth_hrc_spos(in, r, h) >= 0;
      else
        for (uint32_t k = in->couple_start[c]; k < in->couple_start[c + 1]; k++)
          proposes |= (int)in->couple_list[2 * k + (in->couple_member[2 * c + 1] == r)] == h;
      if (!proposes) return false;
    }
  for (int r = 0; r < in->n_residents; r++)
    for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++)
      if (bth_hrc_hrank(in, (int)in->single_list[e], r) < 0) return false;
  for (int c = 0; c < in->n_couples; c++)
    for (uint32_t k = in->couple_start[c]; k < in->couple_start[c + 1]; k++)
      for (int m = 0; m < 2; m++)
        if (bth_hrc_hrank(in, (int)in->couple_list[2 * k + m], in->couple_member[2 * c + m]) < 0) return false;
  return true;
}

static void generators(const char *dir) {
  bb_error err = {{0}};
  for (int couples = 0; couples <= 30; couples += 10) {
    bb_hrc_gen_params p;
    bb_hrc_gen_mmt2017(&p, 100, couples, 10);
    p.seed = (uint64_t)couples + 7;
    bb_hrc *a = NULL, *b = NULL;
    CHECKF(bb_hrc_generate(&p, &a, &err) == BB_OK && bb_hrc_validate(a, &err) == BB_OK, "%s", err.msg);
    CHECK(bb_hrc_generate(&p, &b, &err) == BB_OK && ht_same_hrc(a, b)); /* the seed decides */
    int64_t posts = 0;
    for (int h = 0; h < 10; h++) posts += a->capacity[h];
    CHECK(posts == 100 && a->n_couples == couples && all_acceptable(a));
    for (int r = 2 * couples; r < 100; r++) {
      uint32_t len = a->single_start[r + 1] - a->single_start[r];
      CHECK(len >= 3 && len <= 5);
    }
    for (int c = 0; c < couples; c++) { /* the full product of two lists of 3..5 */
      uint32_t len = a->couple_start[c + 1] - a->couple_start[c];
      CHECK(len >= 9 && len <= 25);
    }
    round_trip(a, dir);
    p.seed++;
    bb_hrc_free(b);
    CHECK(bb_hrc_generate(&p, &b, &err) == BB_OK && !ht_same_hrc(a, b));
    bb_hrc_free(a);
    bb_hrc_free(b);
  }
  /* The NRMP preset, scaled down: its shape, and the DA on it ends stable or at its bounds. */
  for (uint64_t seed = 1; seed <= 4; seed++) {
    bb_hrc_gen_params p;
    bb_hrc_gen_nrmp(&p, 150);
    p.n_residents = 4000, p.n_hospitals = 560, p.posts = 3660, p.seed = seed;
    bb_hrc *in = NULL;
    CHECKF(bb_hrc_generate(&p, &in, &err) == BB_OK && bb_hrc_validate(in, &err) == BB_OK, "%s", err.msg);
    CHECK(all_acceptable(in));
    int64_t posts = 0, min_cap = INT32_MAX;
    for (int h = 0; h < in->n_hospitals; h++)
      posts += in->capacity[h], min_cap = in->capacity[h] < min_cap ? in->capacity[h] : min_cap;
    CHECK(posts == 3660 && min_cap >= 1);
    for (int c = 0; c < in->n_couples; c++) {
      uint32_t len = in->couple_start[c + 1] - in->couple_start[c];
      CHECK(len >= 10 && len <= 15);
    }
    int32_t *M = malloc((size_t)in->n_residents * 4);
    bool stable = false;
    uint64_t blocking = 0, again = 1;
    bb_hrc_da_stats stats;
    CHECKF(bb_hrc_da(in, NULL, M, &stable, &blocking, &stats, &err) == BB_OK, "%s", err.msg);
    CHECK(bb_hrc_count_blocking(in, M, &again, &err) == BB_OK && again == blocking);
    CHECK(stable || stats.bounded);
    free(M);
    bb_hrc_free(in);
  }
  bb_hrc_gen_params p;
  bb_hrc_gen_mmt2017(&p, 10, 6, 2);
  bb_hrc *none = NULL;
  CHECK(bb_hrc_generate(&p, &none, &err) == BB_ERR_ARG && !none); /* 6 couples need 12 residents */
  bb_hrc_gen_mmt2017(&p, 10, 1, 2);
  CHECK(bb_hrc_generate(&p, &none, &err) == BB_ERR_ARG &&
        strstr(err.msg, "list lengths")); /* lists of 3 > 2 hospitals */
}

/* A deadline already past stops hrc-da with BB_ERR_TIMEOUT before it judges any matching; a
 * distant one changes nothing. */
static void da_deadline(uint64_t *rng) {
  bb_hrc *inst = bth_hrc_random(30, 6, 5, 4, rng);
  int32_t *a = malloc(30 * 4), *b = malloc(30 * 4);
  bb_error err = {{0}};
  bb_hrc_da_opts past = {.deadline = bb_now() - 1}, far = {.deadline = bb_now() + 3600};
  CHECKF(bb_hrc_da(inst, &past, a, NULL, NULL, NULL, &err) == BB_ERR_TIMEOUT && strstr(err.msg, "time limit"), "%s",
         err.msg);
  CHECK(bb_hrc_da(inst, NULL, a, NULL, NULL, NULL, &err) == BB_OK);
  CHECK(bb_hrc_da(inst, &far, b, NULL, NULL, NULL, &err) == BB_OK && !memcmp(a, b, 30 * 4));
  free(a);
  free(b);
  bb_hrc_free(inst);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  uint64_t rng = 20170;
  long compared = checker_against_reference(&rng, 3000);
  printf("checker: %ld matchings of 3000 random instances compared with the reference\n", compared);
  CHECK(compared > 30000);
  worked_examples();
  validation();
  files(dir, &rng);
  da_tally t = {0, 0, 0, 0};
  da_against_reference(&rng, 3000, &t);
  printf(
      "deferred acceptance: %d instances, a stable matching exists in %d, DA finds one in %d, DA reaches the "
      "minimum number of blocking pairs in %d\n",
      t.instances, t.stable_exists, t.da_stable, t.da_min);
  CHECK(t.da_stable > t.stable_exists / 2); /* a heuristic, but not a useless one */
  da_without_couples(&rng);
  da_deadline(&rng);
  generators(dir);
  return tu_finish();
}
