/* The row source (row_source.h: no lists on the host with solve --gen-on gpu):
 *   1. rows regenerated from a generator spec equal bb_generate's bit for bit, both sides,
 *      every row generator (perfect, solo, congested, random with g = 1, 3, 5, n, uniform), at
 *      several n and seeds, read in a scattered order through one buffer; a source over host
 *      lists hands out pointers into them; latin and irving-leather (built whole, not row by
 *      row) have no spec, and a source over their host lists works;
 *   2. bb_row_source_husbands gives the man at each partner rank, the same through regenerated
 *      rows (1 and 3 threads) as read off the lists, and with `before` touches only the women
 *      whose rank moved;
 *   3. the tail as bamboo runs it after its GPU phase: a Gale-Shapley run stopped after a
 *      budget of proposals hands over partner ranks and next[] only; the husbands are read from
 *      regenerated rows, LAProp (bb_la_propose) finishes the men left free and bb_la_extract
 *      reads the matching off husband[]: gs-seq's matching, every workload;
 *   4. bb_check_stable_rows over regenerated rows (and over a mix of lists and rows) gives
 *      bb_check_stable's verdict and message on stable matchings, on matchings with blocking
 *      pairs and on ones that are not perfect, including n = 1100 (the parallel check). */
#include "generate.h"
#include "la.h"
#include "prmatrix.h"
#include "row_source.h"
#include "solve.h"
#include "test_util.h"

typedef struct workload {
  bb_gen_kind kind;
  int group; /* random; 0: n */
} workload;

static const workload workloads[] = {
    {BB_GEN_PERFECT, 0}, {BB_GEN_SOLO, 0},   {BB_GEN_CONGESTED, 0}, {BB_GEN_RANDOM, 1},
    {BB_GEN_RANDOM, 3},  {BB_GEN_RANDOM, 5}, {BB_GEN_RANDOM, 0},    {BB_GEN_UNIFORM, 0},
};
#define WORKLOADS ((int)(sizeof workloads / sizeof workloads[0]))

/* An instance and the spec of the same (kind, n, group, seed); the spec's permutations are
 * *perms (freed by the caller). */
typedef struct pair {
  bb_instance *inst;
  bb_gen_spec spec;
  bb_id *perms;
  int group;
} pair;

static int make_pair(const workload *w, int n, uint64_t seed, pair *p) {
  bb_error err = {{0}};
  memset(p, 0, sizeof *p);
  p->group = w->group ? (w->group < n ? w->group : n) : n;
  size_t ids = bb_gen_perm_ids(w->kind, n);
  if (ids && !(p->perms = malloc(ids * sizeof *p->perms))) return 0;
  int ok = bb_gen_spec_init(&p->spec, w->kind, n, p->group, seed, p->perms, &err) == BB_OK &&
           bb_generate(w->kind, n, p->group, seed, 1, &p->inst, &err) == BB_OK;
  CHECKF(ok, "%s n=%d: %s", bb_gen_kind_name(w->kind), n, err.msg);
  return ok;
}

static void free_pair(pair *p) {
  bb_instance_free(p->inst);
  free(p->perms);
}

/* A source that regenerates both sides (no lists), as solve --gen-on gpu has. */
static bb_row_source generated_source(const pair *p) {
  bb_row_source src = {.n = p->inst->n, .spec = &p->spec};
  return src;
}

/* 1 */
static void test_rows(void) {
  const int sizes[] = {1, 2, 3, 17, 100, 257};
  const uint64_t seeds[] = {1, 99, 123456789};
  for (int w = 0; w < WORKLOADS; w++)
    for (int s = 0; s < 6; s++)
      for (int e = 0; e < 3; e++) {
        int n = sizes[s];
        pair p;
        if (!make_pair(&workloads[w], n, seeds[e], &p)) continue;
        bb_row_source gen = generated_source(&p), lists;
        bb_error err = {{0}};
        CHECK(bb_row_source_init(&lists, p.inst, NULL, &err) == BB_OK);
        bb_id *buf = malloc((size_t)n * sizeof *buf);
        int bad = 0, aliased = 0;
        for (int side = 0; side < 2 && buf; side++) {
          const bb_id *expect = side ? p.inst->women_prefs : p.inst->men_prefs;
          for (int i = 0; i < n; i++) {
            int who = (int)(((int64_t)i * 7919 + side) % n); /* scattered order, one buffer */
            const bb_id *row = bb_row_source_row(&gen, side, who, buf);
            bad += row != buf || memcmp(row, expect + (size_t)who * n, (size_t)n * sizeof *row) != 0;
            aliased += bb_row_source_row(&lists, side, who, buf) != expect + (size_t)who * n;
          }
        }
        CHECKF(buf && bad == 0, "%s g=%d n=%d seed=%llu: %d regenerated rows differ from bb_generate's",
               bb_gen_kind_name(workloads[w].kind), p.group, n, (unsigned long long)seeds[e], bad);
        CHECK(aliased == 0);
        free(buf);
        free_pair(&p);
      }

  /* Sources that cannot be: no lists and no spec; a spec for another n. */
  pair p;
  if (make_pair(&workloads[3], 10, 5, &p)) {
    bb_instance bare = {10, NULL, NULL}, men_only = {10, p.inst->men_prefs, NULL};
    bb_row_source src;
    bb_error err = {{0}};
    CHECK(bb_row_source_init(&src, &bare, NULL, &err) == BB_ERR_ARG && strstr(err.msg, "men's lists"));
    CHECK(bb_row_source_init(&src, &men_only, NULL, &err) == BB_ERR_ARG && strstr(err.msg, "women's lists"));
    bb_gen_spec other = p.spec;
    other.n = 9;
    CHECK(bb_row_source_init(&src, &bare, &other, &err) == BB_ERR_ARG && strstr(err.msg, "n (9)"));
    CHECK(bb_row_source_init(&src, &men_only, &p.spec, &err) == BB_OK && src.lists[0] && !src.lists[1]);
    CHECK(bb_row_source_generated(&src, 1) && !bb_row_source_generated(&src, 0));
    free_pair(&p);
  }
  /* The families built whole have no row generator; over their host lists a source works. */
  bb_gen_spec spec;
  bb_error err = {{0}};
  CHECK(bb_gen_spec_init(&spec, BB_GEN_LATIN, 8, 2, 1, NULL, &err) == BB_ERR_ARG);
  CHECK(bb_gen_spec_init(&spec, BB_GEN_IRVING_LEATHER, 8, 2, 1, NULL, &err) == BB_ERR_ARG);
  const bb_gen_kind families[] = {BB_GEN_LATIN, BB_GEN_IRVING_LEATHER};
  for (int f = 0; f < 2; f++) {
    bb_instance *inst = NULL;
    bb_id wife[16];
    bb_row_source src;
    bb_error a = {{0}}, b = {{0}};
    CHECK(bb_generate(families[f], 16, 4, 1, 1, &inst, &err) == BB_OK);
    if (!inst) continue;
    CHECK(bb_row_source_init(&src, inst, NULL, &err) == BB_OK);
    CHECK(bb_row_source_row(&src, 1, 5, NULL) == inst->women_prefs + 5 * 16);
    CHECK(bb_solve(inst, "gs-seq", NULL, wife, NULL, &err) == BB_OK);
    bb_id x = wife[0];
    wife[0] = wife[3], wife[3] = x;
    CHECK(bb_check_stable(inst, wife, &a) == bb_check_stable_rows(&src, wife, &b) && !strcmp(a.msg, b.msg));
    bb_instance_free(inst);
  }
}

/* 2 */
static void test_husbands(void) {
  const int sizes[] = {1, 5, 64, 300};
  for (int w = 0; w < WORKLOADS; w++)
    for (int s = 0; s < 4; s++) {
      int n = sizes[s];
      pair p;
      if (!make_pair(&workloads[w], n, 40 + (uint64_t)s, &p)) continue;
      bb_row_source gen = generated_source(&p);
      uint32_t *rank = malloc((size_t)n * 4), *before = malloc((size_t)n * 4);
      bb_id *expect = malloc((size_t)n * sizeof *expect), *got = malloc((size_t)n * sizeof *got);
      if (!rank || !before || !expect || !got) goto next;
      uint64_t state = 1000 + (uint64_t)n;
      for (int x = 0; x < n; x++) {
        rank[x] = (uint32_t)(tu_rand(&state) % (uint64_t)(n + 1)); /* n: free */
        expect[x] = rank[x] < (uint32_t)n ? p.inst->women_prefs[(size_t)x * n + rank[x]] : (bb_id)0xdead;
      }
      for (int threads = 1; threads <= 3; threads += 2) {
        for (int x = 0; x < n; x++) got[x] = (bb_id)0xdead;
        bb_error err = {{0}};
        CHECKF(bb_row_source_husbands(&gen, rank, NULL, got, threads, &err) == BB_OK, "%s", err.msg);
        CHECKF(!memcmp(got, expect, (size_t)n * sizeof *got), "%s n=%d threads=%d: husbands differ",
               bb_gen_kind_name(workloads[w].kind), n, threads);
      }
      /* `before`: only the women whose rank moved are read again. */
      memcpy(before, rank, (size_t)n * 4);
      for (int x = 0; x < n; x += 3) before[x] = rank[x] == 0 ? 1 : 0;
      for (int x = 0; x < n; x++) got[x] = (bb_id)0xbeef;
      bb_error err = {{0}};
      CHECK(bb_row_source_husbands(&gen, rank, before, got, 2, &err) == BB_OK);
      int wrong = 0;
      for (int x = 0; x < n; x++) {
        int moved = x % 3 == 0 && rank[x] < (uint32_t)n;
        wrong += got[x] != (moved ? expect[x] : (bb_id)0xbeef);
      }
      CHECKF(wrong == 0, "%s n=%d: %d husbands wrong with `before`", bb_gen_kind_name(workloads[w].kind), n, wrong);
    next:
      free(rank);
      free(before);
      free(expect);
      free(got);
      free_pair(&p);
    }
}

typedef struct pr_rows {
  const bb_prnode *pr;
  int n;
} pr_rows;

static const bb_prnode *host_row(void *ctx, bb_id m, uint32_t from, bb_error *err) {
  (void)err;
  const pr_rows *r = ctx;
  return r->pr + (size_t)m * (size_t)r->n + from;
}

/* 3: Gale-Shapley (a queue of free men, written here) stops after `budget` proposals as
 * bamboo's GPU phase does; the rest goes through the row source and LAProp. */
static void resume(const pair *p, const bb_prnode *pr, const bb_id *expect, uint64_t budget, int threads) {
  int n = p->inst->n;
  bb_la_state st;
  bb_error init_err = {{0}};
  bb_status st_ok = bb_la_state_init(&st, n, &init_err);
  bb_id *queue = malloc((size_t)n * sizeof *queue), *got = malloc((size_t)n * sizeof *got);
  if (st_ok != BB_OK || !queue || !got) goto out;
  int head = 0, queued = n;
  for (int m = 0; m < n; m++) queue[m] = (bb_id)m;
  for (uint64_t made = 0; queued > 0 && made < budget; made++) {
    bb_id m = queue[head];
    const bb_prnode *node = &pr[(size_t)m * n + st.next[m]++];
    uint32_t held = st.partner_rank[node->woman];
    if (node->man_rank > held) continue;
    st.partner_rank[node->woman] = node->man_rank;
    head = (head + 1) % n;
    queued--;
    if (held != (uint32_t)n) { /* the displaced man, from the lists: the reference side */
      queue[(head + queued) % n] = p->inst->women_prefs[(size_t)node->woman * n + held];
      queued++;
    }
  }
  for (int w = 0; w < n; w++) st.husband[w] = (bb_id)n; /* handed over: ranks only */
  bb_row_source gen = generated_source(p);
  bb_error err = {{0}};
  bb_status s = bb_row_source_husbands(&gen, st.partner_rank, NULL, st.husband, threads, &err);
  pr_rows rows = {pr, n};
  for (int i = 0; i < queued && s == BB_OK; i++) s = bb_la_propose(&st, host_row, &rows, queue[(head + i) % n], &err);
  CHECKF(s == BB_OK, "%s", err.msg);
  if (s == BB_OK) {
    bb_la_extract(&st, got);
    CHECKF(!memcmp(got, expect, (size_t)n * sizeof *got),
           "%s g=%d n=%d: resumed after %llu proposals (%d threads)"
           " differs from gs-seq",
           bb_gen_kind_name(p->spec.kind), p->group, n, (unsigned long long)budget, threads);
  }
out:
  bb_la_state_free(&st);
  free(queue);
  free(got);
}

static void test_tail(void) {
  const int sizes[] = {1, 2, 40, 300};
  for (int w = 0; w < WORKLOADS; w++)
    for (int s = 0; s < 4; s++) {
      int n = sizes[s];
      pair p;
      if (!make_pair(&workloads[w], n, 70 + (uint64_t)s, &p)) continue;
      bb_error err = {{0}};
      uint32_t *rank = NULL;
      bb_prnode *pr = NULL;
      bb_id *expect = malloc((size_t)n * sizeof *expect), *la = malloc((size_t)n * sizeof *la);
      bb_solve_stats stats = {0};
      int ok = expect && la && bb_solve(p.inst, "gs-seq", NULL, expect, &stats, &err) == BB_OK &&
               bb_rank_matrix_build(p.inst, 1, &rank, &err) == BB_OK &&
               bb_prmatrix_build(p.inst, rank, 1, &pr, &err) == BB_OK;
      CHECKF(ok, "%s", err.msg);
      if (ok) {
        uint64_t total = stats.proposals ? stats.proposals : 1;
        for (int k = 0; k <= 4; k++) resume(&p, pr, expect, total * (uint64_t)k / 4, 1 + k % 2 * 2);
        CHECK(bb_solve(p.inst, "la-seq", NULL, la, NULL, &err) == BB_OK && !memcmp(la, expect, (size_t)n * sizeof *la));
      }
      free(rank);
      free(pr);
      free(expect);
      free(la);
      free_pair(&p);
    }
}

/* 4: both checkers on one matching: the same status and the same message. */
static void same_verdict(const pair *p, const bb_id *wife_of, const char *what) {
  bb_error a = {{0}}, b = {{0}}, c = {{0}};
  bb_status sa = bb_check_stable(p->inst, wife_of, &a);
  bb_row_source gen = generated_source(p), mixed;
  bb_status sb = bb_check_stable_rows(&gen, wife_of, &b);
  bb_instance women_only = {p->inst->n, NULL, p->inst->women_prefs};
  bb_status sc = bb_row_source_init(&mixed, &women_only, &p->spec, &c);
  if (sc == BB_OK) sc = bb_check_stable_rows(&mixed, wife_of, &c);
  CHECKF(sa == sb && !strcmp(a.msg, b.msg), "%s g=%d n=%d %s: lists say %d '%s', rows say %d '%s'",
         bb_gen_kind_name(p->spec.kind), p->group, p->inst->n, what, sa, a.msg, sb, b.msg);
  CHECKF(sa == sc && !strcmp(a.msg, c.msg), "%s n=%d %s: mixed source says %d '%s'", bb_gen_kind_name(p->spec.kind),
         p->inst->n, what, sc, c.msg);
}

static void test_check(void) {
  const int sizes[] = {1, 2, 3, 30, 200, 1100};
  int blocking_seen = 0;
  for (int w = 0; w < WORKLOADS; w++)
    for (int s = 0; s < 6; s++) {
      int n = sizes[s];
      if (n == 1100 && workloads[w].kind != BB_GEN_RANDOM && workloads[w].kind != BB_GEN_SOLO) continue;
      pair p;
      if (!make_pair(&workloads[w], n, 90 + (uint64_t)s, &p)) continue;
      bb_id *wife = malloc((size_t)n * sizeof *wife);
      bb_error err = {{0}};
      if (wife && bb_solve(p.inst, "gs-seq", NULL, wife, NULL, &err) == BB_OK) {
        same_verdict(&p, wife, "stable");
        bb_error e = {{0}};
        bb_row_source gen = generated_source(&p);
        CHECK(bb_check_stable_rows(&gen, wife, &e) == BB_OK);
        uint64_t state = (uint64_t)n * 31 + (uint64_t)w;
        for (int t = 0; t < 4 && n >= 2; t++) { /* swap two wives: often a blocking pair */
          int a = (int)(tu_rand(&state) % (uint64_t)n), b = (a + 1 + (int)(tu_rand(&state) % (uint64_t)(n - 1))) % n;
          bb_id x = wife[a];
          wife[a] = wife[b];
          wife[b] = x;
          same_verdict(&p, wife, "two wives swapped");
          blocking_seen += bb_check_stable_rows(&gen, wife, &e) == BB_ERR_INPUT && strstr(e.msg, "blocking pair");
        }
        if (n >= 2) {
          wife[0] = wife[1]; /* married twice */
          same_verdict(&p, wife, "a woman married twice");
          wife[0] = (bb_id)n; /* out of range */
          same_verdict(&p, wife, "an id out of range");
        }
      }
      free(wife);
      free_pair(&p);
    }
  CHECKF(blocking_seen > 10, "only %d swapped matchings had a blocking pair", blocking_seen);
  bb_row_source none = {.n = 5};
  bb_id wife[5] = {0, 1, 2, 3, 4};
  bb_error err = {{0}};
  CHECK(bb_check_stable_rows(&none, wife, &err) == BB_ERR_ARG);
}

int main(void) {
  test_rows();
  test_husbands();
  test_tail();
  test_check();
  return tu_finish();
}
