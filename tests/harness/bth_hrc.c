/* HRC from the definition (bth_hrc.h). */
#include "bth_hrc.h"

#include "bth_solutions.h"

#include <assert.h>

bb_hrc *bth_hrc_random(int nr, int nh, int nc, int max_cap, uint64_t *rng) {
  /* ids holds the residents, the hospitals, and (couples only) every pair of hospitals. */
  assert(nr >= 0 && nr <= BTH_HRC_MAX_RESIDENTS && nh >= 0 && nh <= BTH_HRC_MAX_RESIDENTS && 2 * nc <= nr);
  assert(nc == 0 || nh * nh <= BTH_HRC_MAX_RESIDENTS);
  bb_hrc *inst = bb_hrc_new(nr, nh, nc, (uint64_t)nr * nh, (uint64_t)nc * nh * nh, (uint64_t)nr * nh, NULL);
  if (!inst) return NULL;
  int ids[BTH_HRC_MAX_RESIDENTS];
  bth_shuffle(ids, nr, rng);
  for (int c = 0; c < nc; c++)
    for (int m = 0; m < 2; m++) {
      inst->couple_member[2 * c + m] = ids[2 * c + m];
      inst->couple_of[ids[2 * c + m]] = c;
    }
  uint32_t len = 0;
  for (int r = 0; r < nr; r++) {
    inst->single_start[r] = len;
    if (inst->couple_of[r] != BB_HRC_SINGLE) continue;
    bth_shuffle(ids, nh, rng);
    int take = (int)(bth_rand(rng) % (uint64_t)(nh + 1));
    for (int k = 0; k < take; k++) inst->single_list[len++] = (bb_id)ids[k];
  }
  inst->single_start[nr] = len;
  len = 0;
  for (int c = 0; c < nc; c++) {
    inst->couple_start[c] = len;
    bth_shuffle(ids, nh * nh, rng);
    int take = (int)(bth_rand(rng) % (uint64_t)(nh * nh + 1));
    for (int k = 0; k < take; k++) {
      inst->couple_list[2 * len] = (bb_id)(ids[k] / nh);
      inst->couple_list[2 * len + 1] = (bb_id)(ids[k] % nh);
      len++;
    }
  }
  inst->couple_start[nc] = len;
  len = 0;
  for (int h = 0; h < nh; h++) {
    inst->hosp_start[h] = len;
    bth_shuffle(ids, nr, rng);
    int take = (int)(bth_rand(rng) % 4 == 0 ? bth_rand(rng) % (uint64_t)(nr + 1) : (uint64_t)nr);
    for (int k = 0; k < take; k++) inst->hosp_list[len++] = (bb_id)ids[k];
    inst->capacity[h] = (int32_t)(bth_rand(rng) % (uint64_t)(max_cap + 1));
  }
  inst->hosp_start[nh] = len;
  return inst;
}

bool bth_hrc_add_random_ties(bb_hrc *inst, uint64_t *rng) {
  if (bb_hrc_add_ranks(inst, NULL) != BB_OK) return false;
  for (int h = 0; h < inst->n_hospitals; h++)
    for (uint32_t e = inst->hosp_start[h] + 1; e < inst->hosp_start[h + 1]; e++)
      inst->hosp_rank[e] = inst->hosp_rank[e - 1] + (bth_rand(rng) % 2 ? 1u : 0u);
  return true;
}

int bth_hrc_hrank(const bb_hrc *in, int h, int r) {
  for (uint32_t e = in->hosp_start[h]; e < in->hosp_start[h + 1]; e++)
    if ((int)in->hosp_list[e] == r) return in->hosp_rank ? (int)in->hosp_rank[e] : (int)(e - in->hosp_start[h]);
  return -1;
}

int bth_hrc_spos(const bb_hrc *in, int r, int h) {
  for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++)
    if ((int)in->single_list[e] == h) return (int)(e - in->single_start[r]);
  return -1;
}

int bth_hrc_cpos(const bb_hrc *in, int c, int h1, int h2) {
  for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++)
    if ((int)in->couple_list[2 * e] == h1 && (int)in->couple_list[2 * e + 1] == h2)
      return (int)(e - in->couple_start[c]);
  return -1;
}

/* |M(h)| */
static int assignees(const bb_hrc *in, const int32_t *M, int h) {
  int n = 0;
  for (int r = 0; r < in->n_residents; r++) n += M[r] == h;
  return n;
}

static bool undersubscribed(const bb_hrc *in, const int32_t *M, int h) { return assignees(in, M, h) < in->capacity[h]; }

/* h prefers r to some member of M(h) other than `except` (-1: nobody excepted). */
static bool prefers_to_some(const bb_hrc *in, const int32_t *M, int h, int r, int except) {
  for (int a = 0; a < in->n_residents; a++)
    if (M[a] == h && a != except && bth_hrc_hrank(in, h, r) < bth_hrc_hrank(in, h, a)) return true;
  return false;
}

bool bth_hrc_is_matching(const bb_hrc *in, const int32_t *M) {
  for (int r = 0; r < in->n_residents; r++) {
    if (M[r] == BB_HRC_NONE) continue;
    if (M[r] < 0 || M[r] >= in->n_hospitals) return false;
    if (bth_hrc_hrank(in, M[r], r) < 0) return false;
    if (in->couple_of[r] == BB_HRC_SINGLE && bth_hrc_spos(in, r, M[r]) < 0) return false;
  }
  for (int c = 0; c < in->n_couples; c++) {
    int r1 = in->couple_member[2 * c], r2 = in->couple_member[2 * c + 1];
    if ((M[r1] == BB_HRC_NONE) != (M[r2] == BB_HRC_NONE)) return false;
    if (M[r1] != BB_HRC_NONE && bth_hrc_cpos(in, c, M[r1], M[r2]) < 0) return false;
  }
  for (int h = 0; h < in->n_hospitals; h++)
    if (assignees(in, M, h) > in->capacity[h]) return false;
  return true;
}

/* Type 1: single r and a hospital h on his list that he prefers to M(r), to which he is
 * acceptable, undersubscribed or preferring r to some member of M(h). */
static int single_blocking(const bb_hrc *in, const int32_t *M, int r) {
  int count = 0;
  for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++) {
    int h = (int)in->single_list[e];
    if (bth_hrc_hrank(in, h, r) < 0) continue; /* not acceptable to h */
    bool r_prefers = M[r] == BB_HRC_NONE || bth_hrc_spos(in, r, h) < bth_hrc_spos(in, r, M[r]);
    if (r_prefers && (undersubscribed(in, M, h) || prefers_to_some(in, M, h, r, -1))) count++;
  }
  return count;
}

/* Types 2 and 3: couple c = (ri, rj) and an entry (hk, hl) it prefers to M(c). */
static int couple_blocking(const bb_hrc *in, const int32_t *M, int c) {
  int count = 0;
  int ri = in->couple_member[2 * c], rj = in->couple_member[2 * c + 1];
  int now = M[ri] == BB_HRC_NONE ? -1 : bth_hrc_cpos(in, c, M[ri], M[rj]);
  for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++) {
    int hk = (int)in->couple_list[2 * e], hl = (int)in->couple_list[2 * e + 1];
    if (bth_hrc_hrank(in, hk, ri) < 0 || bth_hrc_hrank(in, hl, rj) < 0) continue;
    bool couple_prefers = now < 0 || (int)(e - in->couple_start[c]) < now;
    if (!couple_prefers) continue;
    bool blocks = false;
    /* 2a: rj keeps his hospital hl; hk takes ri. */
    if (M[rj] == hl && (undersubscribed(in, M, hk) || prefers_to_some(in, M, hk, ri, rj))) blocks = true;
    /* 2b: ri keeps his hospital hk; hl takes rj. */
    if (M[ri] == hk && (undersubscribed(in, M, hl) || prefers_to_some(in, M, hl, rj, ri))) blocks = true;
    if (M[ri] != hk && M[rj] != hl) {
      if (hk != hl) { /* 3a: both move, to two hospitals */
        bool k_takes = undersubscribed(in, M, hk) || prefers_to_some(in, M, hk, ri, -1);
        bool l_takes = undersubscribed(in, M, hl) || prefers_to_some(in, M, hl, rj, -1);
        if (k_takes && l_takes) blocks = true;
      } else { /* 3b-d: both move, to one hospital h */
        int h = hk, free_posts = in->capacity[h] - assignees(in, M, h);
        if (free_posts >= 2) blocks = true; /* 3b */
        if (free_posts == 1 && (prefers_to_some(in, M, h, ri, -1) || prefers_to_some(in, M, h, rj, -1)))
          blocks = true;     /* 3c */
        if (free_posts == 0) /* 3d: two distinct assignees, one worse than ri, the other worse than rj */
          for (int s = 0; s < in->n_residents; s++)
            for (int t = 0; t < in->n_residents; t++)
              if (s != t && M[s] == h && M[t] == h && bth_hrc_hrank(in, h, ri) < bth_hrc_hrank(in, h, s) &&
                  bth_hrc_hrank(in, h, rj) < bth_hrc_hrank(in, h, t))
                blocks = true;
      }
    }
    count += blocks;
  }
  return count;
}

int bth_hrc_blocking_of(const bb_hrc *in, const int32_t *M, int agent) {
  assert(agent >= 0 && agent < in->n_residents + in->n_couples);
  if (agent >= in->n_residents) return couple_blocking(in, M, agent - in->n_residents);
  return in->couple_of[agent] == BB_HRC_SINGLE ? single_blocking(in, M, agent) : 0;
}

int bth_hrc_blocking(const bb_hrc *in, const int32_t *M) {
  int count = 0;
  for (int a = 0; a < in->n_residents + in->n_couples; a++) count += bth_hrc_blocking_of(in, M, a);
  return count;
}

static void enumerate_from(const bb_hrc *in, int32_t *M, int agent, bth_hrc_visit visit, void *ctx) {
  int nr = in->n_residents;
  if (agent == nr + in->n_couples) {
    if (bth_hrc_is_matching(in, M)) visit(M, bth_hrc_blocking(in, M), ctx);
    return;
  }
  if (agent < nr) {
    if (in->couple_of[agent] != BB_HRC_SINGLE) {
      enumerate_from(in, M, agent + 1, visit, ctx);
      return;
    }
    M[agent] = BB_HRC_NONE;
    enumerate_from(in, M, agent + 1, visit, ctx);
    for (uint32_t e = in->single_start[agent]; e < in->single_start[agent + 1]; e++) {
      M[agent] = (int32_t)in->single_list[e];
      enumerate_from(in, M, agent + 1, visit, ctx);
    }
    M[agent] = BB_HRC_NONE;
    return;
  }
  int c = agent - nr, r1 = in->couple_member[2 * c], r2 = in->couple_member[2 * c + 1];
  M[r1] = M[r2] = BB_HRC_NONE;
  enumerate_from(in, M, agent + 1, visit, ctx);
  for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++) {
    M[r1] = (int32_t)in->couple_list[2 * e];
    M[r2] = (int32_t)in->couple_list[2 * e + 1];
    enumerate_from(in, M, agent + 1, visit, ctx);
  }
  M[r1] = M[r2] = BB_HRC_NONE;
}

void bth_hrc_enumerate(const bb_hrc *in, bth_hrc_visit visit, void *ctx) {
  assert(in->n_residents <= BTH_HRC_MAX_RESIDENTS);
  int32_t M[BTH_HRC_MAX_RESIDENTS];
  for (int r = 0; r < in->n_residents; r++) M[r] = BB_HRC_NONE;
  enumerate_from(in, M, 0, visit, ctx);
}

static void summarise_visit(const int32_t *M, int blocking, void *ctx) {
  (void)M;
  bth_hrc_summary *s = ctx;
  s->matchings++;
  s->stable += blocking == 0;
  if (s->min_blocking < 0 || blocking < s->min_blocking) s->min_blocking = blocking;
}

bth_hrc_summary bth_hrc_summarise(const bb_hrc *in) {
  bth_hrc_summary s = {0, 0, -1};
  bth_hrc_enumerate(in, summarise_visit, &s);
  return s;
}
