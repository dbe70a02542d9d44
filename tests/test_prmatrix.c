/* Unit test: the rank matrix and PRMatrix equal a naive reference for every thread
 * count, and LAProp (la.h) asks for rows at the right positions and can be resumed
 * from any state, as bamboo's CPU tail does. */
#include "la.h"
#include "row_source.h"
#include "test_util.h"

static void check_matrices(const bb_instance *inst, int threads) {
  size_t n = (size_t)inst->n;
  bb_error err = {{0}};
  uint32_t *rank = NULL;
  bb_prnode *pr = NULL;
  CHECKF(bb_rank_matrix_build(inst, threads, &rank, &err) == BB_OK, "rank: %s", err.msg);
  if (rank) CHECKF(bb_prmatrix_build(inst, rank, threads, &pr, &err) == BB_OK, "pr: %s", err.msg);
  if (!rank || !pr) goto out;
  size_t bad_rank = 0, bad_pr = 0;
  for (size_t w = 0; w < n; w++)
    for (size_t m = 0; m < n; m++) {
      size_t k = 0; /* naive: find m in w's list */
      while (inst->women_prefs[w * n + k] != m) k++;
      bad_rank += rank[w * n + m] != k;
    }
  for (size_t m = 0; m < n; m++)
    for (size_t k = 0; k < n; k++) {
      bb_id w = inst->men_prefs[m * n + k];
      size_t r = 0;
      while (inst->women_prefs[w * n + r] != m) r++;
      bad_pr += pr[m * n + k].woman != w || pr[m * n + k].man_rank != r;
    }
  CHECKF(bad_rank == 0, "n=%zu threads=%d: %zu wrong rank entries", n, threads, bad_rank);
  CHECKF(bad_pr == 0, "n=%zu threads=%d: %zu wrong PRMatrix entries", n, threads, bad_pr);
out:
  free(rank);
  free(pr);
}

typedef struct row_ctx {
  const bb_prnode *pr;
  const bb_la_state *st;
  int calls, bad_from, fail_after;
} row_ctx;

static const bb_prnode *row(void *arg, bb_id m, uint32_t from, bb_error *err) {
  row_ctx *c = arg;
  c->bad_from += from != c->st->next[m];
  if (c->fail_after >= 0 && c->calls >= c->fail_after) {
    bb_fail(err, BB_ERR_GPU, "row source failed on purpose");
    return NULL;
  }
  c->calls++;
  return c->pr + (size_t)m * (size_t)c->st->n + from;
}

/* LAProp over all men equals the brute-force man-optimal matching, and finishing a
 * partial Gale-Shapley run from its state gives the same matching. */
static void check_la(const bb_instance *inst) {
  int n = inst->n;
  bb_error err = {{0}};
  uint32_t *rank = NULL;
  bb_prnode *pr = NULL;
  bb_rank_matrix_build(inst, 1, &rank, &err);
  if (rank) bb_prmatrix_build(inst, rank, 1, &pr, &err);
  bb_la_state st;
  bb_status st_ok = bb_la_state_init(&st, n, &err);
  bb_id *wife = malloc((size_t)n * sizeof *wife), *brute = malloc((size_t)n * sizeof *brute);
  CHECK(rank && pr && st_ok == BB_OK && wife && brute);
  if (!rank || !pr || st_ok != BB_OK || !wife || !brute) goto out;
  row_ctx ctx = {pr, &st, 0, 0, -1};
  for (int m = 0; m < n; m++) CHECKF(bb_la_propose(&st, row, &ctx, (bb_id)m, &err) == BB_OK, "%s", err.msg);
  CHECK(ctx.bad_from == 0);
  CHECK(ctx.calls >= n);
  bb_la_extract(&st, wife);
  if (n <= 8 && tu_brute_man_optimal(inst, brute) > 0)
    CHECKF(!memcmp(wife, brute, (size_t)n * sizeof *wife), "n=%d: la differs from brute force", n);
  char why[128];
  CHECKF(tu_stable(inst, wife, why, sizeof why), "n=%d: %s", n, why);
  uint64_t total = 0;
  for (int m = 0; m < n; m++) total += st.next[m];
  CHECKF(st.proposals == total, "proposals %llu, sum of next[] %llu", (unsigned long long)st.proposals,
         (unsigned long long)total);

  /* Resume: queue Gale-Shapley (written here) stops after `budget` proposals, as the
   * GPU phase of bamboo does; LAProp then finishes the men left free. */
  bb_id *queue = malloc((size_t)n * sizeof *queue), *resumed = malloc((size_t)n * sizeof *resumed);
  for (uint64_t budget = 0; queue && resumed && budget <= total; budget += 1 + total / 7) {
    for (int w = 0; w < n; w++) st.partner_rank[w] = (uint32_t)n;
    memset(st.next, 0, (size_t)n * 4);
    st.proposals = 0;
    int head = 0, queued = n;
    for (int m = 0; m < n; m++) queue[m] = (bb_id)m;
    for (uint64_t made = 0; queued > 0 && made < budget; made++) {
      bb_id m = queue[head];
      const bb_prnode *p = &pr[(size_t)m * n + st.next[m]++];
      uint32_t held = st.partner_rank[p->woman];
      if (p->man_rank > held) continue; /* rejected; m stays at the head */
      st.partner_rank[p->woman] = p->man_rank;
      head = (head + 1) % n;
      queued--;
      if (held != (uint32_t)n) {
        queue[(head + queued) % n] = inst->women_prefs[(size_t)p->woman * n + held];
        queued++;
      }
    }
    /* The GPU phase hands over partner ranks alone; the husbands come from the women's rows. */
    for (int w = 0; w < n; w++) st.husband[w] = (bb_id)n;
    bb_row_source src;
    CHECK(bb_row_source_init(&src, inst, NULL, &err) == BB_OK);
    CHECK(bb_row_source_husbands(&src, st.partner_rank, NULL, st.husband, 2, &err) == BB_OK);
    row_ctx tail = {pr, &st, 0, 0, -1};
    for (int i = 0; i < queued; i++)
      CHECKF(bb_la_propose(&st, row, &tail, queue[(head + i) % n], &err) == BB_OK, "%s", err.msg);
    CHECK(tail.bad_from == 0);
    bb_la_extract(&st, resumed);
    CHECKF(!memcmp(wife, resumed, (size_t)n * sizeof *wife), "n=%d: resumed after %llu proposals differs", n,
           (unsigned long long)budget);
  }
  free(queue);
  free(resumed);

  /* A failing row source stops the chain with BB_ERR_GPU and its message. */
  if (n >= 2) {
    for (int w = 0; w < n; w++) st.partner_rank[w] = (uint32_t)n;
    memset(st.next, 0, (size_t)n * 4);
    row_ctx failing = {pr, &st, 0, 0, 0};
    err.msg[0] = '\0';
    CHECK(bb_la_propose(&st, row, &failing, 0, &err) == BB_ERR_GPU);
    CHECK(strstr(err.msg, "on purpose") != NULL);
  }
out:
  free(rank);
  free(pr);
  bb_la_state_free(&st);
  free(wife);
  free(brute);
}

int main(void) {
  static const int sizes[] = {1, 2, 3, 7, 8, 50, 513, 700};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    bb_instance *inst = tu_random_instance(sizes[i], 77 + i);
    CHECK(inst != NULL);
    if (!inst) continue;
    for (int threads = 0; threads <= 3; threads++) check_matrices(inst, threads);
    check_matrices(inst, 8);
    check_la(inst);
    bb_instance_free(inst);
  }
  for (uint64_t seed = 0; seed < 30; seed++) {
    bb_instance *inst = tu_random_instance(1 + (int)(seed % 8), seed);
    if (inst) check_la(inst);
    bb_instance_free(inst);
  }
  return tu_finish();
}
