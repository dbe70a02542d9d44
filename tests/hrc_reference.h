/* Header-only references for HRC tests, written apart from the library's checker and as
 * plainly as possible: random tiny instances (couples at one hospital, capacities 0..3,
 * one-sided entries), the blocking pairs of a matching counted straight from the wording of
 * Manlove, McBride & Trimble 2017, Definition 1 (docs/hrc.md), and brute force over every
 * matching. Ranks are linear scans; sets are loops over all residents. */
#ifndef BB_HRC_REFERENCE_H
#define BB_HRC_REFERENCE_H

#include <stdbool.h>

#include "hrc.h"
#include "test_util.h"

/* A random instance: nc couples of distinct random residents; singles list a random subset
 * of hospitals, couples a random subset of all pairs (h, h) included, hospitals a random
 * subset of residents (mostly all), all in random order; capacities 0..max_cap. */
static inline bb_hrc *hrc_ref_random(int nr, int nh, int nc, int max_cap, uint64_t *rng) {
  bb_hrc *inst = bb_hrc_new(nr, nh, nc, (uint64_t)nr * nh, (uint64_t)nc * nh * nh, (uint64_t)nr * nh, NULL);
  bb_id ids[64];
  tu_shuffle(ids, nr, rng);
  for (int c = 0; c < nc; c++)
    for (int m = 0; m < 2; m++) {
      inst->couple_member[2 * c + m] = (int32_t)ids[2 * c + m];
      inst->couple_of[ids[2 * c + m]] = c;
    }
  uint32_t len = 0;
  for (int r = 0; r < nr; r++) {
    inst->single_start[r] = len;
    if (inst->couple_of[r] != BB_HRC_SINGLE) continue;
    tu_shuffle(ids, nh, rng);
    int take = (int)(tu_rand(rng) % (uint64_t)(nh + 1));
    for (int k = 0; k < take; k++) inst->single_list[len++] = ids[k];
  }
  inst->single_start[nr] = len;
  len = 0;
  for (int c = 0; c < nc; c++) {
    inst->couple_start[c] = len;
    tu_shuffle(ids, nh * nh, rng);
    int take = (int)(tu_rand(rng) % (uint64_t)(nh * nh + 1));
    for (int k = 0; k < take; k++) {
      inst->couple_list[2 * len] = ids[k] / (bb_id)nh;
      inst->couple_list[2 * len + 1] = ids[k] % (bb_id)nh;
      len++;
    }
  }
  inst->couple_start[nc] = len;
  len = 0;
  for (int h = 0; h < nh; h++) {
    inst->hosp_start[h] = len;
    tu_shuffle(ids, nr, rng);
    int take = (int)(tu_rand(rng) % 4 == 0 ? tu_rand(rng) % (uint64_t)(nr + 1) : (uint64_t)nr);
    for (int k = 0; k < take; k++) inst->hosp_list[len++] = ids[k];
    inst->capacity[h] = (int32_t)(tu_rand(rng) % (uint64_t)(max_cap + 1));
  }
  inst->hosp_start[nh] = len;
  return inst;
}

/* Where h ranks r (0 = best), or -1 if h does not list r. */
static inline int hrc_ref_hrank(const bb_hrc *in, int h, int r) {
  for (uint32_t e = in->hosp_start[h]; e < in->hosp_start[h + 1]; e++)
    if ((int)in->hosp_list[e] == r) return (int)(e - in->hosp_start[h]);
  return -1;
}

/* Where single r lists h, or -1. */
static inline int hrc_ref_spos(const bb_hrc *in, int r, int h) {
  for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++)
    if ((int)in->single_list[e] == h) return (int)(e - in->single_start[r]);
  return -1;
}

/* Where couple c lists (h1, h2), or -1. */
static inline int hrc_ref_cpos(const bb_hrc *in, int c, int h1, int h2) {
  for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++)
    if ((int)in->couple_list[2 * e] == h1 && (int)in->couple_list[2 * e + 1] == h2) return (int)(e - in->couple_start[c]);
  return -1;
}

static inline int hrc_ref_assignees(const bb_hrc *in, const int32_t *M, int h) {
  int n = 0;
  for (int r = 0; r < in->n_residents; r++) n += M[r] == h;
  return n;
}

static inline bool hrc_ref_under(const bb_hrc *in, const int32_t *M, int h) {
  return hrc_ref_assignees(in, M, h) < in->capacity[h];
}

/* h prefers r to some member of M(h) other than `except` (-1: nobody excepted). */
static inline bool hrc_ref_prefers_to_some(const bb_hrc *in, const int32_t *M, int h, int r, int except) {
  for (int a = 0; a < in->n_residents; a++)
    if (M[a] == h && a != except && hrc_ref_hrank(in, h, r) < hrc_ref_hrank(in, h, a)) return true;
  return false;
}

/* Is M a matching: acceptable entries, couples together on one entry or both out, capacities. */
static inline bool hrc_ref_is_matching(const bb_hrc *in, const int32_t *M) {
  for (int r = 0; r < in->n_residents; r++) {
    if (M[r] == BB_HRC_NONE) continue;
    if (M[r] < 0 || M[r] >= in->n_hospitals) return false;
    if (hrc_ref_hrank(in, M[r], r) < 0) return false;
    if (in->couple_of[r] == BB_HRC_SINGLE && hrc_ref_spos(in, r, M[r]) < 0) return false;
  }
  for (int c = 0; c < in->n_couples; c++) {
    int r1 = in->couple_member[2 * c], r2 = in->couple_member[2 * c + 1];
    if ((M[r1] == BB_HRC_NONE) != (M[r2] == BB_HRC_NONE)) return false;
    if (M[r1] != BB_HRC_NONE && hrc_ref_cpos(in, c, M[r1], M[r2]) < 0) return false;
  }
  for (int h = 0; h < in->n_hospitals; h++)
    if (hrc_ref_assignees(in, M, h) > in->capacity[h]) return false;
  return true;
}

/* The number of blocking pairs of a matching M, by the definition's cases one by one. */
static inline int hrc_ref_blocking(const bb_hrc *in, const int32_t *M) {
  int count = 0;
  for (int r = 0; r < in->n_residents; r++) { /* 1: a single r and a hospital h */
    if (in->couple_of[r] != BB_HRC_SINGLE) continue;
    for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++) {
      int h = (int)in->single_list[e];
      if (hrc_ref_hrank(in, h, r) < 0) continue; /* not acceptable to h */
      bool r_prefers = M[r] == BB_HRC_NONE || hrc_ref_spos(in, r, h) < hrc_ref_spos(in, r, M[r]);
      if (r_prefers && (hrc_ref_under(in, M, h) || hrc_ref_prefers_to_some(in, M, h, r, -1))) count++;
    }
  }
  for (int c = 0; c < in->n_couples; c++) {
    int ri = in->couple_member[2 * c], rj = in->couple_member[2 * c + 1];
    int now = M[ri] == BB_HRC_NONE ? -1 : hrc_ref_cpos(in, c, M[ri], M[rj]);
    for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++) {
      int hk = (int)in->couple_list[2 * e], hl = (int)in->couple_list[2 * e + 1];
      if (hrc_ref_hrank(in, hk, ri) < 0 || hrc_ref_hrank(in, hl, rj) < 0) continue;
      bool couple_prefers = now < 0 || (int)(e - in->couple_start[c]) < now;
      if (!couple_prefers) continue;
      bool blocks = false;
      /* 2a: rj keeps his hospital hl; hk takes ri. */
      if (M[rj] == hl && (hrc_ref_under(in, M, hk) || hrc_ref_prefers_to_some(in, M, hk, ri, rj))) blocks = true;
      /* 2b: ri keeps his hospital hk; hl takes rj. */
      if (M[ri] == hk && (hrc_ref_under(in, M, hl) || hrc_ref_prefers_to_some(in, M, hl, rj, ri))) blocks = true;
      if (M[ri] != hk && M[rj] != hl) {
        if (hk != hl) { /* 3a: both move, to two hospitals */
          bool k_takes = hrc_ref_under(in, M, hk) || hrc_ref_prefers_to_some(in, M, hk, ri, -1);
          bool l_takes = hrc_ref_under(in, M, hl) || hrc_ref_prefers_to_some(in, M, hl, rj, -1);
          if (k_takes && l_takes) blocks = true;
        } else { /* 3b: both move, to one hospital h */
          int h = hk, free_posts = in->capacity[h] - hrc_ref_assignees(in, M, h);
          if (free_posts >= 2) blocks = true;
          if (free_posts == 1 &&
              (hrc_ref_prefers_to_some(in, M, h, ri, -1) || hrc_ref_prefers_to_some(in, M, h, rj, -1)))
            blocks = true;
          if (free_posts == 0)
            for (int s = 0; s < in->n_residents; s++)
              for (int t = 0; t < in->n_residents; t++)
                if (s != t && M[s] == h && M[t] == h && hrc_ref_hrank(in, h, ri) < hrc_ref_hrank(in, h, s) &&
                    hrc_ref_hrank(in, h, rj) < hrc_ref_hrank(in, h, t))
                  blocks = true;
        }
      }
      count += blocks;
    }
  }
  return count;
}

/* Brute force: calls visit(M, blocking, ctx) for every matching of a tiny instance. Each
 * single takes nothing or one of his entries, each couple nothing or one of its entries;
 * assignments that are not matchings are skipped. */
typedef void (*hrc_ref_visit)(const int32_t *M, int blocking, void *ctx);

static inline void hrc_ref_enumerate_from(const bb_hrc *in, int32_t *M, int agent, hrc_ref_visit visit, void *ctx) {
  int nr = in->n_residents;
  if (agent == nr + in->n_couples) {
    if (hrc_ref_is_matching(in, M)) visit(M, hrc_ref_blocking(in, M), ctx);
    return;
  }
  if (agent < nr) {
    if (in->couple_of[agent] != BB_HRC_SINGLE) {
      hrc_ref_enumerate_from(in, M, agent + 1, visit, ctx);
      return;
    }
    M[agent] = BB_HRC_NONE;
    hrc_ref_enumerate_from(in, M, agent + 1, visit, ctx);
    for (uint32_t e = in->single_start[agent]; e < in->single_start[agent + 1]; e++) {
      M[agent] = (int32_t)in->single_list[e];
      hrc_ref_enumerate_from(in, M, agent + 1, visit, ctx);
    }
    M[agent] = BB_HRC_NONE;
    return;
  }
  int c = agent - nr, r1 = in->couple_member[2 * c], r2 = in->couple_member[2 * c + 1];
  M[r1] = M[r2] = BB_HRC_NONE;
  hrc_ref_enumerate_from(in, M, agent + 1, visit, ctx);
  for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++) {
    M[r1] = (int32_t)in->couple_list[2 * e];
    M[r2] = (int32_t)in->couple_list[2 * e + 1];
    hrc_ref_enumerate_from(in, M, agent + 1, visit, ctx);
  }
  M[r1] = M[r2] = BB_HRC_NONE;
}

static inline void hrc_ref_enumerate(const bb_hrc *in, hrc_ref_visit visit, void *ctx) {
  int32_t M[64];
  for (int r = 0; r < in->n_residents; r++) M[r] = BB_HRC_NONE;
  hrc_ref_enumerate_from(in, M, 0, visit, ctx);
}

/* What brute force decides: the number of matchings, of stable ones, the fewest blocking pairs. */
typedef struct hrc_ref_summary {
  long matchings, stable;
  int min_blocking;
} hrc_ref_summary;

static inline void hrc_ref_summarise_visit(const int32_t *M, int blocking, void *ctx) {
  (void)M;
  hrc_ref_summary *s = ctx;
  s->matchings++;
  s->stable += blocking == 0;
  if (s->min_blocking < 0 || blocking < s->min_blocking) s->min_blocking = blocking;
}

static inline hrc_ref_summary hrc_ref_summarise(const bb_hrc *in) {
  hrc_ref_summary s = {0, 0, -1};
  hrc_ref_enumerate(in, hrc_ref_summarise_visit, &s);
  return s;
}

#endif
