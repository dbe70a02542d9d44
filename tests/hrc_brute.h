/* An independent HRC reference for the constraint's tests: tiny random instances, and the
 * blocking pairs of a matching counted straight from the wording of Manlove, McBride &
 * Trimble, Constraints 22 (2017), Definition 1, with sets and loops rather than counts. It
 * shares nothing with propagator/smc/hrc or with the engine's checker. */
#ifndef BB_HRC_BRUTE_H
#define BB_HRC_BRUTE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HB_MAX_R 10
#define HB_MAX_H 4
#define HB_MAX_L 6

typedef struct hb_inst {
  int nR, nH, nC;
  int member[2 * HB_MAX_R];              /* couple c = residents member[2c], member[2c+1] */
  int couple_of[HB_MAX_R];               /* -1 single */
  int slen[HB_MAX_R], slist[HB_MAX_R][HB_MAX_L];        /* singles' lists */
  int clen[HB_MAX_R], clist[HB_MAX_R][HB_MAX_L][2];     /* couples' joint lists */
  int hlen[HB_MAX_H], hlist[HB_MAX_H][HB_MAX_R];        /* hospitals' lists */
  int cap[HB_MAX_H];
} hb_inst;

static uint64_t hb_rng = 88172645463325252ull;
static inline unsigned hb_rand(unsigned n) {
  hb_rng ^= hb_rng << 13;
  hb_rng ^= hb_rng >> 7;
  hb_rng ^= hb_rng << 17;
  return (unsigned)(hb_rng % n);
}

/* The rank h gives r, -1 if h does not list r. */
static inline int hb_hrank(const hb_inst *I, int h, int r) {
  for (int k = 0; k < I->hlen[h]; k++)
    if (I->hlist[h][k] == r) return k;
  return -1;
}

static inline void hb_random(hb_inst *I, int nR, int nH, int nC, int maxlen) {
  memset(I, 0, sizeof *I);
  I->nR = nR;
  I->nH = nH;
  I->nC = nC;
  int perm[HB_MAX_R];
  for (int r = 0; r < nR; r++) perm[r] = r;
  for (int r = nR - 1; r > 0; r--) {
    int j = (int)hb_rand((unsigned)r + 1), t = perm[r];
    perm[r] = perm[j];
    perm[j] = t;
  }
  for (int r = 0; r < nR; r++) I->couple_of[r] = -1;
  for (int k = 0; k < 2 * nC; k++) {
    I->member[k] = perm[k];
    I->couple_of[perm[k]] = k / 2;
  }
  for (int h = 0; h < nH; h++) I->cap[h] = 1 + (int)hb_rand(2);
  for (int r = 0; r < nR; r++) {
    if (I->couple_of[r] >= 0) continue;
    int len = (int)hb_rand((unsigned)(nH < maxlen ? nH : maxlen) + 1), hs[HB_MAX_H];
    for (int h = 0; h < nH; h++) hs[h] = h;
    for (int k = 0; k < len; k++) {
      int j = k + (int)hb_rand((unsigned)(nH - k)), t = hs[k];
      hs[k] = hs[j];
      hs[j] = t;
      I->slist[r][k] = hs[k];
    }
    I->slen[r] = len;
  }
  for (int c = 0; c < nC; c++) {
    int len = (int)hb_rand((unsigned)maxlen + 1);
    for (int k = 0; k < len; k++) {
      int h1, h2, tries = 0;
      bool dup;
      do {
        h1 = (int)hb_rand((unsigned)nH);
        h2 = (int)hb_rand((unsigned)nH);
        dup = false;
        for (int f = 0; f < I->clen[c]; f++) dup |= I->clist[c][f][0] == h1 && I->clist[c][f][1] == h2;
      } while (dup && ++tries < 50);
      if (dup) break;
      I->clist[c][I->clen[c]][0] = h1;
      I->clist[c][I->clen[c]][1] = h2;
      I->clen[c]++;
    }
  }
  /* hospitals list most residents (some not: unacceptable entries), in random order */
  for (int h = 0; h < nH; h++) {
    int rs[HB_MAX_R];
    for (int r = 0; r < nR; r++) rs[r] = r;
    for (int r = nR - 1; r > 0; r--) {
      int j = (int)hb_rand((unsigned)r + 1), t = rs[r];
      rs[r] = rs[j];
      rs[j] = t;
    }
    I->hlen[h] = 0;
    for (int r = 0; r < nR; r++)
      if (hb_rand(6) != 0) I->hlist[h][I->hlen[h]++] = rs[r];
  }
}

/* M[r] = hospital or -1. Whether M is a matching (acceptable, couples together, capacities). */
static inline bool hb_is_matching(const hb_inst *I, const int *M) {
  int load[HB_MAX_H] = {0};
  for (int r = 0; r < I->nR; r++) {
    if (M[r] < 0) continue;
    load[M[r]]++;
    if (hb_hrank(I, M[r], r) < 0) return false;
    if (I->couple_of[r] < 0) {
      bool listed = false;
      for (int k = 0; k < I->slen[r]; k++) listed |= I->slist[r][k] == M[r];
      if (!listed) return false;
    }
  }
  for (int c = 0; c < I->nC; c++) {
    int a = M[I->member[2 * c]], b = M[I->member[2 * c + 1]];
    if ((a < 0) != (b < 0)) return false;
    if (a < 0) continue;
    bool listed = false;
    for (int k = 0; k < I->clen[c]; k++) listed |= I->clist[c][k][0] == a && I->clist[c][k][1] == b;
    if (!listed) return false;
  }
  for (int h = 0; h < I->nH; h++)
    if (load[h] > I->cap[h]) return false;
  return true;
}

/* h undersubscribed, or h prefers r to some member of M(h) other than `except` (-1: none). */
static inline bool hb_wants(const hb_inst *I, const int *M, int h, int r, int except) {
  int load = 0;
  bool worse = false;
  for (int s = 0; s < I->nR; s++)
    if (M[s] == h) {
      load++;
      if (s != except && hb_hrank(I, h, r) < hb_hrank(I, h, s)) worse = true;
    }
  return load < I->cap[h] || worse;
}

static inline int hb_blocking(const hb_inst *I, const int *M) {
  int count = 0;
  for (int r = 0; r < I->nR; r++) {
    if (I->couple_of[r] >= 0) continue;
    int cur = I->slen[r];
    for (int k = 0; k < I->slen[r]; k++)
      if (I->slist[r][k] == M[r]) cur = k;
    for (int k = 0; k < cur; k++) {
      int h = I->slist[r][k];
      if (hb_hrank(I, h, r) >= 0 && hb_wants(I, M, h, r, -1)) count++; /* type 1 */
    }
  }
  for (int c = 0; c < I->nC; c++) {
    int r1 = I->member[2 * c], r2 = I->member[2 * c + 1], cur = I->clen[c];
    for (int k = 0; k < I->clen[c]; k++)
      if (I->clist[c][k][0] == M[r1] && I->clist[c][k][1] == M[r2]) cur = k;
    for (int k = 0; k < cur; k++) {
      int hk = I->clist[c][k][0], hl = I->clist[c][k][1];
      if (hb_hrank(I, hk, r1) < 0 || hb_hrank(I, hl, r2) < 0) continue; /* not acceptable */
      bool blocks;
      if (M[r1] >= 0 && hl == M[r2]) blocks = hb_wants(I, M, hk, r1, r2);        /* 2a */
      else if (M[r1] >= 0 && hk == M[r1]) blocks = hb_wants(I, M, hl, r2, r1);   /* 2b */
      else if (hk != hl) blocks = hb_wants(I, M, hk, r1, -1) && hb_wants(I, M, hl, r2, -1); /* 3a */
      else {
        int load = 0, h = hk;
        for (int s = 0; s < I->nR; s++) load += M[s] == h;
        int free_posts = I->cap[h] - load;
        if (free_posts >= 2) blocks = true; /* 3b */
        else if (free_posts == 1) { /* 3c: h prefers r1 or r2 to some assignee */
          blocks = false;
          for (int s = 0; s < I->nR; s++)
            if (M[s] == h && (hb_hrank(I, h, r1) < hb_hrank(I, h, s) || hb_hrank(I, h, r2) < hb_hrank(I, h, s)))
              blocks = true;
        } else { /* 3d: two distinct assignees, one worse than r1, the other worse than r2 */
          blocks = false;
          for (int s = 0; s < I->nR; s++)
            for (int t = 0; t < I->nR; t++)
              if (s != t && M[s] == h && M[t] == h && hb_hrank(I, h, r1) < hb_hrank(I, h, s) &&
                  hb_hrank(I, h, r2) < hb_hrank(I, h, t))
                blocks = true;
        }
      }
      count += blocks;
    }
  }
  return count;
}

#endif
