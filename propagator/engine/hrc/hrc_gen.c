/* HRC generators (hrc_gen.h, docs/generators.md "Couples").
 *
 *   individual lists  Resident r draws his list length and his hospitals from his own stream
 *                     (seed, 0, r): distinct hospitals, uniformly or by popularity weight
 *                     1 / (h + 1)^s (a binary search in the cumulative weights), repeats redrawn;
 *                     the draw order is his ranking.
 *   joint lists       Couple c's members' lists a[0..L1) and b[0..L2) give the pairs (a_i, b_j)
 *                     in shells k = max(i, j) = 0, 1, ...: in shell k, for t = 0..k-1 the two
 *                     pairs (a_t, b_k) and (a_k, b_t) in an order drawn from (seed, 3, c), then
 *                     (a_k, b_k). The first J pairs are kept (J from the same stream).
 *   hospitals' lists  The residents who can propose to h, in resident order, shuffled from
 *                     (seed, 1, h).
 *   scores            With score_classes L > 0, resident r's class is uniform in 0..L-1 from
 *                     (seed, 4, r), one master list for every hospital; a hospital's shuffled
 *                     list is then stably sorted by class and equal classes are tied.
 *   capacities        min_capacity each, then the remaining posts one at a time to uniformly
 *                     random hospitals from (seed, 2, 0).
 * Sequential: 47,000 residents take well under a second. */
#include "hrc_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hrc_gen_lists.h"

void bb_hrc_gen_mmt2017(bb_hrc_gen_params *p, int n_residents, int n_couples, int n_hospitals) {
  memset(p, 0, sizeof *p);
  p->n_residents = n_residents;
  p->n_couples = n_couples;
  p->n_hospitals = n_hospitals;
  p->min_list = 3;
  p->max_list = 5;
  p->posts = n_residents;
  p->seed = 1;
}

void bb_hrc_gen_nrmp(bb_hrc_gen_params *p, int n_couples) {
  memset(p, 0, sizeof *p);
  p->n_residents = 47000;
  p->n_couples = n_couples > 0 ? n_couples : 1000;
  p->n_hospitals = 6600;
  p->min_list = 10;
  p->max_list = 15;
  p->couple_min = 10;
  p->couple_max = 15;
  p->skew = 0.5;
  p->posts = 43000;
  p->min_capacity = 1;
  p->seed = 1;
}

void bb_hrc_gen_sfas(bb_hrc_gen_params *p, int n_couples) {
  memset(p, 0, sizeof *p);
  p->n_residents = 700;
  p->n_couples = n_couples;
  p->n_hospitals = 50;
  p->min_list = p->max_list = 6;
  p->skew = 0.5;
  p->posts = 700;
  p->min_capacity = 14;
  p->score_classes = 40;
  p->seed = 1;
}

typedef struct gen {
  const bb_hrc_gen_params *p;
  double *cumulative; /* skew > 0: cumulative popularity weights */
  bb_id *own;         /* individual lists, max_list a resident */
  int *own_len;
} gen;

static uint32_t draw_hospital(const gen *g, bb_rng *rng) {
  int nh = g->p->n_hospitals;
  return g->cumulative ? bb_hrc_gen_weighted(rng, g->cumulative, nh) : bb_rng_below(rng, (uint64_t)nh);
}

static void individual_list(gen *g, int r) {
  const bb_hrc_gen_params *p = g->p;
  bb_rng rng;
  bb_rng_seed_stream(&rng, p->seed, (uint64_t)r);
  int len = bb_hrc_gen_between(&rng, p->min_list, p->max_list);
  bb_id *list = g->own + (size_t)r * p->max_list;
  for (int k = 0; k < len; k++) {
    uint32_t h;
    bool fresh;
    do { /* lists are short beside NH, or NH is tiny: redraws are few */
      h = draw_hospital(g, &rng);
      fresh = true;
      for (int j = 0; j < k; j++) fresh &= list[j] != h;
    } while (!fresh);
    list[k] = h;
  }
  g->own_len[r] = len;
}

/* The couple's pairs in shell order, as indices (i, j) into its members' lists; returns J. */
static int joint_list(const gen *g, int c, uint32_t *pairs) {
  const bb_hrc_gen_params *p = g->p;
  int l1 = g->own_len[2 * c], l2 = g->own_len[2 * c + 1], n = 0, shells = l1 > l2 ? l1 : l2;
  bb_rng rng;
  bb_rng_seed_stream(&rng, p->seed, ((uint64_t)3 << 40) | (uint64_t)c);
  for (int k = 0; k < shells; k++) {
    for (int t = 0; t < k; t++) {
      uint32_t a[2][2] = {{(uint32_t)t, (uint32_t)k}, {(uint32_t)k, (uint32_t)t}};
      int first = (int)bb_rng_below(&rng, 2);
      for (int s = 0; s < 2; s++) {
        const uint32_t *q = a[s ^ first];
        if ((int)q[0] < l1 && (int)q[1] < l2) pairs[2 * n] = q[0], pairs[2 * n + 1] = q[1], n++;
      }
    }
    if (k < l1 && k < l2) pairs[2 * n] = (uint32_t)k, pairs[2 * n + 1] = (uint32_t)k, n++;
  }
  if (p->couple_max > 0) {
    int keep = bb_hrc_gen_between(&rng, p->couple_min, p->couple_max);
    if (keep < n) n = keep;
  }
  return n;
}

static bb_status check_params(const bb_hrc_gen_params *p, bb_error *err) {
  bb_status st = bb_hrc_gen_check_sizes(p->n_residents, p->n_couples, p->n_hospitals, err);
  if (st != BB_OK) return st;
  if (p->min_list < 1 || p->max_list < p->min_list || p->max_list > p->n_hospitals || p->max_list > 1000)
    return bb_fail(err, BB_ERR_ARG, "list lengths %d..%d: need 1 <= min <= max <= min(hospitals %d, 1000)", p->min_list,
                   p->max_list, p->n_hospitals);
  if (p->couple_max != 0 && (p->couple_min < 1 || p->couple_max < p->couple_min))
    return bb_fail(err, BB_ERR_ARG, "joint list lengths %d..%d: need 1 <= min <= max (or both 0: the full product)",
                   p->couple_min, p->couple_max);
  if (p->score_classes < 0 || p->score_classes > 1000000)
    return bb_fail(err, BB_ERR_ARG, "%d score classes: expected 0 (no ties) .. 1000000", p->score_classes);
  if (!(p->skew >= 0 && p->skew <= 10)) return bb_fail(err, BB_ERR_ARG, "skew %g: expected 0..10", p->skew);
  return bb_hrc_gen_check_posts(p->posts, p->min_capacity, p->n_hospitals, err);
}

static int joint_pairs(void *g, int c, uint32_t *pairs) { return joint_list(g, c, pairs); }

/* Every hospital's list sorted by the residents' score classes (stable: the shuffled order
 * stays within a class), equal classes tied. */
static bb_status rank_by_scores(const bb_hrc_gen_params *p, bb_hrc *inst, bb_error *err) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  uint32_t *score = malloc(((size_t)nr + 1) * sizeof *score);
  uint32_t *at = calloc((size_t)p->score_classes + 1, sizeof *at);
  bb_id *sorted = malloc(((size_t)inst->hosp_start[nh] + 1) * sizeof *sorted);
  bb_status st = score && at && sorted ? bb_hrc_add_ranks(inst, err)
                                       : bb_fail(err, BB_ERR_NOMEM, "bb_hrc_generate: out of memory");
  for (int r = 0; st == BB_OK && r < nr; r++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, p->seed, ((uint64_t)4 << 40) | (uint64_t)r);
    score[r] = (uint32_t)bb_rng_below(&rng, (uint64_t)p->score_classes);
  }
  for (int h = 0; st == BB_OK && h < nh; h++) { /* a counting sort by class */
    uint32_t first = inst->hosp_start[h], last = inst->hosp_start[h + 1];
    memset(at, 0, ((size_t)p->score_classes + 1) * sizeof *at);
    for (uint32_t e = first; e < last; e++) at[score[inst->hosp_list[e]] + 1]++;
    for (int c = 0; c < p->score_classes; c++) at[c + 1] += at[c];
    for (uint32_t e = first; e < last; e++) sorted[first + at[score[inst->hosp_list[e]]]++] = inst->hosp_list[e];
    for (uint32_t e = first; e < last; e++) {
      inst->hosp_list[e] = sorted[e];
      bool same = e > first && score[sorted[e]] == score[sorted[e - 1]];
      inst->hosp_rank[e] = e == first ? 0 : inst->hosp_rank[e - 1] + (same ? 0 : 1);
    }
  }
  free(score);
  free(at);
  free(sorted);
  return st;
}

bb_status bb_hrc_generate(const bb_hrc_gen_params *p, bb_hrc **out, bb_error *err) {
  if (!p || !out) return bb_fail(err, BB_ERR_ARG, "bb_hrc_generate: NULL argument");
  *out = NULL;
  bb_status st = check_params(p, err);
  if (st != BB_OK) return st;
  int nr = p->n_residents, nh = p->n_hospitals, nc = p->n_couples, members = 2 * nc;
  gen g = {p, NULL, malloc(((size_t)nr + 1) * (size_t)p->max_list * sizeof(bb_id)),
           malloc(((size_t)nr + 1) * sizeof(int))};
  size_t most_pairs = (size_t)p->max_list * (size_t)p->max_list;
  uint32_t *pairs = malloc((most_pairs + 1) * 2 * sizeof *pairs);
  uint32_t *count = calloc((size_t)nh + 1, sizeof *count);
  uint8_t *uses = calloc((size_t)nr * p->max_list + 1, 1); /* per individual entry: used */
  bb_hrc *inst = NULL;
  if (p->skew > 0 && (g.cumulative = malloc((size_t)nh * sizeof *g.cumulative)) != NULL) {
    double total = 0;
    for (int h = 0; h < nh; h++) g.cumulative[h] = total += pow(h + 1.0, -p->skew);
  }
  if (!g.own || !g.own_len || !pairs || !count || !uses || (p->skew > 0 && !g.cumulative)) {
    st = bb_fail(err, BB_ERR_NOMEM, "bb_hrc_generate: out of memory");
    goto done;
  }
  uint64_t singles = 0, joint = 0;
  for (int r = 0; r < nr; r++) {
    individual_list(&g, r);
    if (r >= members) singles += (uint64_t)g.own_len[r];
  }
  for (int c = 0; c < nc; c++) joint += (uint64_t)joint_list(&g, c, pairs);
  /* A hospital lists each resident once: at most his list's length entries a resident. */
  uint64_t hosp_bound = 0;
  for (int r = 0; r < nr; r++) hosp_bound += (uint64_t)g.own_len[r];
  if (!(inst = bb_hrc_new(nr, nh, nc, singles, joint, hosp_bound, err))) {
    st = BB_ERR_NOMEM;
    goto done;
  }
  /* Who can propose to h: a single listing it, a member whose hospital appears in a kept pair. */
  bb_hrc_own_lists L = {g.own, g.own_len, p->max_list, uses};
  bb_hrc_gen_resident_lists(inst, &L, joint_pairs, &g, pairs);
  bb_hrc_gen_hospital_lists(inst, &L, NULL, count);
  for (int h = 0; h < nh; h++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, p->seed, ((uint64_t)1 << 40) | (uint64_t)h);
    bb_rng_shuffle(&rng, inst->hosp_list + inst->hosp_start[h], inst->hosp_start[h + 1] - inst->hosp_start[h]);
    inst->capacity[h] = p->min_capacity;
  }
  if (p->score_classes > 0 && (st = rank_by_scores(p, inst, err)) != BB_OK) goto done;
  bb_rng rng;
  bb_rng_seed_stream(&rng, p->seed, (uint64_t)2 << 40);
  for (int64_t k = (int64_t)p->min_capacity * nh; k < p->posts; k++) inst->capacity[bb_rng_below(&rng, (uint64_t)nh)]++;
done:
  free(g.cumulative);
  free(g.own);
  free(g.own_len);
  free(pairs);
  free(count);
  free(uses);
  if (st != BB_OK) {
    bb_hrc_free(inst);
    return st;
  }
  *out = inst;
  return BB_OK;
}
