/* HRC with Mallows preferences (hrc_mallows.h, docs/generators.md "Mallows").
 *
 * Streams of the seed: (r) resident r's list, (1 << 40 | h) hospital h's ranking, (2 << 40) the
 * posts, (3 << 40 | c) couple c's joint list length, (4 << 40) and (4 << 40 | 1) the hospitals'
 * and the residents' centres, (5 << 40) the uneven capacities' weights. Sequential: the NRMP
 * shape takes well under a second. */
#include "hrc_mallows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hrc_gen_lists.h"
#include "mallows.h"

#define MAX_LIST 1000

void bb_hrc_mallows_default(bb_hrc_mallows_params *p, int n_residents, int n_couples, int n_hospitals) {
  memset(p, 0, sizeof *p);
  p->n_residents = n_residents;
  p->n_couples = n_couples;
  p->n_hospitals = n_hospitals;
  p->min_list = 3;
  p->max_list = 5;
  p->phi_residents = p->phi_hospitals = 0.5;
  p->posts = n_residents;
  p->seed = 1;
}

void bb_hrc_mallows_nrmp2024(bb_hrc_mallows_params *p) {
  bb_hrc_mallows_default(p, 44900, 1100, 6400);
  p->min_list = 5;
  p->max_list = 20;
  p->member_min_list = 10;
  p->member_max_list = 25;
  p->joint_min = 20;
  p->joint_max = 300;
  p->phi_residents = 0.9995;
  p->phi_hospitals = 0.7;
  p->posts = 41500;
  p->min_capacity = 1;
  p->uneven_capacity = true;
}

int bb_hrc_joint_by_rank_sum(int l1, int l2, int keep, uint32_t *pairs) {
  int n = 0;
  /* i + j = s; |i - j| = d has the parity of s; i = (s - d) / 2 before i = (s + d) / 2. */
  for (int s = 0; s <= l1 + l2 - 2 && n < keep; s++)
    for (int d = s % 2; d <= s && n < keep; d += 2)
      for (int side = 0; side < (d ? 2 : 1) && n < keep; side++) {
        int i = side ? (s + d) / 2 : (s - d) / 2, j = s - i;
        if (i < l1 && j < l2) pairs[2 * n] = (uint32_t)i, pairs[2 * n + 1] = (uint32_t)j, n++;
      }
  return n;
}

static bb_status check_params(const bb_hrc_mallows_params *p, bb_error *err) {
  bb_status st = bb_hrc_gen_check_sizes(p->n_residents, p->n_couples, p->n_hospitals, err);
  if (st != BB_OK) return st;
  int cap = p->n_hospitals < MAX_LIST ? p->n_hospitals : MAX_LIST;
  if (p->min_list < 1 || p->max_list < p->min_list || p->max_list > cap)
    return bb_fail(err, BB_ERR_ARG, "list lengths %d..%d: need 1 <= min <= max <= %d (hospitals %d, at most %d)",
                   p->min_list, p->max_list, cap, p->n_hospitals, MAX_LIST);
  if ((p->member_min_list || p->member_max_list) &&
      (p->member_min_list < 1 || p->member_max_list < p->member_min_list || p->member_max_list > cap))
    return bb_fail(err, BB_ERR_ARG, "couple members' list lengths %d..%d: need 1 <= min <= max <= %d (or both 0)",
                   p->member_min_list, p->member_max_list, cap);
  if ((p->joint_min || p->joint_max) && (p->joint_min < 1 || p->joint_max < p->joint_min))
    return bb_fail(err, BB_ERR_ARG, "joint list lengths %d..%d: need 1 <= min <= max (or both 0: all pairs)",
                   p->joint_min, p->joint_max);
  if (!(p->phi_residents > 0 && p->phi_residents <= 1) || !(p->phi_hospitals > 0 && p->phi_hospitals <= 1))
    return bb_fail(err, BB_ERR_ARG, "phi %g (residents) and %g (hospitals): each must be in (0, 1]", p->phi_residents,
                   p->phi_hospitals);
  return bb_hrc_gen_check_posts(p->posts, p->min_capacity, p->n_hospitals, err);
}

typedef struct gen {
  const bb_hrc_mallows_params *p;
  int width;           /* room for one individual list */
  bb_id *own;          /* individual lists, width a resident */
  int *own_len, *keep; /* list lengths; pairs each couple keeps */
  bb_id *res_centre;   /* the residents' common ranking */
} gen;

static void identity_shuffled(bb_id *ids, int n, uint64_t seed, uint64_t stream) {
  bb_rng rng;
  bb_rng_seed_stream(&rng, seed, stream);
  for (int i = 0; i < n; i++) ids[i] = (bb_id)i;
  bb_rng_shuffle(&rng, ids, (size_t)n);
}

static void individual_lists(gen *g, const bb_id *hosp_centre, uint32_t *work) {
  const bb_hrc_mallows_params *p = g->p;
  bool members_own = p->member_min_list > 0;
  for (int r = 0; r < p->n_residents; r++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, p->seed, (uint64_t)r);
    bool member = r < 2 * p->n_couples && members_own;
    int len = member ? bb_hrc_gen_between(&rng, p->member_min_list, p->member_max_list)
                     : bb_hrc_gen_between(&rng, p->min_list, p->max_list);
    bb_mallows_prefix(&rng, p->phi_residents, hosp_centre, (uint32_t)p->n_hospitals, g->own + (size_t)r * g->width,
                      (uint32_t)len, work);
    g->own_len[r] = len;
  }
  for (int c = 0; c < p->n_couples; c++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, p->seed, ((uint64_t)3 << 40) | (uint64_t)c);
    int all = g->own_len[2 * c] * g->own_len[2 * c + 1];
    int keep = p->joint_max ? bb_hrc_gen_between(&rng, p->joint_min, p->joint_max) : all;
    g->keep[c] = keep < all ? keep : all;
  }
}

/* Who can propose to h, in the residents' centre order, then ranked by a Mallows draw around it. */
static bb_status hospital_lists(const gen *g, bb_hrc *inst, const bb_hrc_own_lists *L, bb_error *err) {
  const bb_hrc_mallows_params *p = g->p;
  int nh = p->n_hospitals;
  uint32_t *fill = calloc((size_t)nh + 1, sizeof *fill), most = 0;
  if (!fill) return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_generate_mallows: out of memory");
  bb_hrc_gen_hospital_lists(inst, L, g->res_centre, fill);
  free(fill);
  for (int h = 0; h < nh; h++)
    if (inst->hosp_start[h + 1] - inst->hosp_start[h] > most) most = inst->hosp_start[h + 1] - inst->hosp_start[h];
  bb_id *centre = malloc(((size_t)most + 1) * sizeof *centre);
  uint32_t *work = malloc((2 * (size_t)most + 1) * sizeof *work);
  if (!centre || !work) {
    free(centre);
    free(work);
    return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_generate_mallows: out of memory");
  }
  for (int h = 0; h < nh; h++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, p->seed, ((uint64_t)1 << 40) | (uint64_t)h);
    uint32_t m = inst->hosp_start[h + 1] - inst->hosp_start[h];
    bb_id *list = inst->hosp_list + inst->hosp_start[h];
    memcpy(centre, list, (size_t)m * sizeof *centre);
    bb_mallows_rim(&rng, p->phi_hospitals, centre, m, list, work);
  }
  free(centre);
  free(work);
  return BB_OK;
}

static bb_status capacities(const bb_hrc_mallows_params *p, int32_t *capacity, bb_error *err) {
  int nh = p->n_hospitals;
  double *cumulative = NULL;
  bb_rng rng;
  if (p->uneven_capacity) {
    if (!(cumulative = malloc((size_t)nh * sizeof *cumulative)))
      return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_generate_mallows: out of memory");
    bb_rng_seed_stream(&rng, p->seed, (uint64_t)5 << 40);
    double total = 0;
    for (int h = 0; h < nh; h++)
      cumulative[h] = total += -log1p(-(double)(bb_rng_next(&rng) >> 11) * 0x1.0p-53); /* Exp(1) */
  }
  for (int h = 0; h < nh; h++) capacity[h] = p->min_capacity;
  bb_rng_seed_stream(&rng, p->seed, (uint64_t)2 << 40);
  for (int64_t k = (int64_t)p->min_capacity * nh; k < p->posts; k++) {
    if (!cumulative) {
      capacity[bb_rng_below(&rng, (uint64_t)nh)]++;
      continue;
    }
    capacity[bb_hrc_gen_weighted(&rng, cumulative, nh)]++;
  }
  free(cumulative);
  return BB_OK;
}

/* Couple c's pairs by the sum of their ranks, the first keep[c]. */
static int joint_pairs(void *ctx, int c, uint32_t *pairs) {
  const gen *g = ctx;
  return bb_hrc_joint_by_rank_sum(g->own_len[2 * c], g->own_len[2 * c + 1], g->keep[c], pairs);
}

bb_status bb_hrc_generate_mallows(const bb_hrc_mallows_params *p, bb_hrc **out, bb_error *err) {
  if (!p || !out) return bb_fail(err, BB_ERR_ARG, "bb_hrc_generate_mallows: NULL argument");
  *out = NULL;
  bb_status st = check_params(p, err);
  if (st != BB_OK) return st;
  int nr = p->n_residents, nh = p->n_hospitals, nc = p->n_couples, members = 2 * nc;
  int width = p->max_list > p->member_max_list ? p->max_list : p->member_max_list;
  gen g = {p,
           width,
           malloc(((size_t)nr + 1) * (size_t)width * sizeof(bb_id)),
           malloc(((size_t)nr + 1) * sizeof(int)),
           malloc(((size_t)nc + 1) * sizeof(int)),
           malloc(((size_t)nr + 1) * sizeof(bb_id))};
  bb_id *hosp_centre = malloc((size_t)nh * sizeof *hosp_centre);
  uint32_t *work = malloc((size_t)width * sizeof *work);
  uint32_t *pairs = malloc(((size_t)width * (size_t)width + 1) * 2 * sizeof *pairs);
  uint8_t *uses = calloc((size_t)nr * (size_t)width + 1, 1); /* per individual entry: someone proposes with it */
  bb_hrc *inst = NULL;
  if (!g.own || !g.own_len || !g.keep || !g.res_centre || !hosp_centre || !work || !pairs || !uses) {
    st = bb_fail(err, BB_ERR_NOMEM, "bb_hrc_generate_mallows: out of memory");
    goto done;
  }
  identity_shuffled(hosp_centre, nh, p->seed, (uint64_t)4 << 40);
  identity_shuffled(g.res_centre, nr, p->seed, ((uint64_t)4 << 40) | 1);
  individual_lists(&g, hosp_centre, work);
  uint64_t singles = 0, joint = 0, hosp_bound = 0;
  for (int r = 0; r < nr; r++) {
    hosp_bound += (uint64_t)g.own_len[r];
    if (r >= members) singles += (uint64_t)g.own_len[r];
  }
  for (int c = 0; c < nc; c++) joint += (uint64_t)g.keep[c];
  if (!(inst = bb_hrc_new(nr, nh, nc, singles, joint, hosp_bound, err))) {
    st = BB_ERR_NOMEM;
    goto done;
  }
  bb_hrc_own_lists L = {g.own, g.own_len, width, uses};
  bb_hrc_gen_resident_lists(inst, &L, joint_pairs, &g, pairs);
  if ((st = hospital_lists(&g, inst, &L, err)) == BB_OK) st = capacities(p, inst->capacity, err);
done:
  free(g.own);
  free(g.own_len);
  free(g.keep);
  free(g.res_centre);
  free(hosp_centre);
  free(work);
  free(pairs);
  free(uses);
  if (st != BB_OK) {
    bb_hrc_free(inst);
    return st;
  }
  *out = inst;
  return BB_OK;
}
