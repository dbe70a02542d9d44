/* Header-only reference for tests of the Stable Marriage constraint on incomplete lists
 * (SMI), written from the definition and independent of the library: small random
 * instances (0..5 people a side, one-sided entries, empty lists), the stable matchings by
 * brute force over every assignment, and matchings as the constraint's variables hold them.
 * A pair is acceptable iff each lists the other; a matching of acceptable pairs is stable
 * iff no acceptable pair (m, w) has m unmatched or preferring w to his wife and w unmatched
 * or preferring m to her husband. */
#ifndef BB_SMI_REFERENCE_H
#define BB_SMI_REFERENCE_H

#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { MAX_SIDE = 5, MAX_VARS = 2 * MAX_SIDE, NONE = -1, CAP = 512 };

/* An instance, 0-based: man i lists pm[i][0 .. lm[i]), woman j lists pw[j][0 .. lw[j]). */
typedef struct smi {
  int nm, nw;
  int pm[MAX_SIDE][MAX_SIDE], lm[MAX_SIDE];
  int pw[MAX_SIDE][MAX_SIDE], lw[MAX_SIDE];
} smi;

/* --- The reference, from the definition. --- */

static inline int smi_pos(const int *list, int len, int id) {
  for (int k = 0; k < len; k++)
    if (list[k] == id) return k;
  return -1;
}

static inline bool smi_acceptable(const smi *I, int m, int w) {
  return smi_pos(I->pm[m], I->lm[m], w) >= 0 && smi_pos(I->pw[w], I->lw[w], m) >= 0;
}

static inline bool smi_stable(const smi *I, const int *wife) {
  int husband[MAX_SIDE];
  for (int w = 0; w < I->nw; w++) husband[w] = NONE;
  for (int m = 0; m < I->nm; m++) {
    if (wife[m] == NONE) continue;
    if (!smi_acceptable(I, m, wife[m]) || husband[wife[m]] != NONE) return false;
    husband[wife[m]] = m;
  }
  for (int m = 0; m < I->nm; m++)
    for (int w = 0; w < I->nw; w++) {
      if (wife[m] == w || !smi_acceptable(I, m, w)) continue;
      bool m_prefers = wife[m] == NONE || smi_pos(I->pm[m], I->lm[m], w) < smi_pos(I->pm[m], I->lm[m], wife[m]);
      bool w_prefers =
          husband[w] == NONE || smi_pos(I->pw[w], I->lw[w], m) < smi_pos(I->pw[w], I->lw[w], husband[w]);
      if (m_prefers && w_prefers) return false;
    }
  return true;
}

/* A matching as the constraint's variables hold it: man i's value is his wife's position in
 * his list (lm[i] when unmatched), woman j's likewise; variables 0..nm-1 men, then women. */
static inline void smi_values_of(const smi *I, const int *wife, int *value) {
  for (int m = 0; m < I->nm; m++) value[m] = wife[m] == NONE ? I->lm[m] : smi_pos(I->pm[m], I->lm[m], wife[m]);
  for (int w = 0; w < I->nw; w++) {
    int h = smi_pos(wife, I->nm, w);
    value[I->nm + w] = h < 0 ? I->lw[w] : smi_pos(I->pw[w], I->lw[w], h);
  }
}

typedef struct smi_solutions {
  int count;
  int value[CAP][MAX_VARS];
} smi_solutions;

/* Every stable matching: each man takes a woman or nobody, in every combination. */
static inline void smi_brute_rec(const smi *I, int m, int *wife, smi_solutions *out) {
  if (m >= I->nm || m >= MAX_SIDE) {
    if (smi_stable(I, wife)) {
      if (out->count < CAP) smi_values_of(I, wife, out->value[out->count]);
      out->count++;
    }
    return;
  }
  for (int w = NONE; w < I->nw; w++) {
    wife[m] = w;
    smi_brute_rec(I, m + 1, wife, out);
  }
}

static inline void smi_brute(const smi *I, smi_solutions *out) {
  int wife[MAX_SIDE];
  out->count = 0;
  smi_brute_rec(I, 0, wife, out);
}

static inline int smi_vars(const smi *I) { return I->nm + I->nw; }
static inline int smi_len(const smi *I, int v) { return v < I->nm ? I->lm[v] : I->lw[v - I->nm]; }

/* Keeps the solutions whose every value is allowed (allowed[v * stride + value]). */
static inline void smi_filter(const smi *I, smi_solutions *s, const uint8_t *allowed, int stride) {
  int kept = 0;
  for (int k = 0; k < s->count && k < CAP; k++) {
    bool ok = true;
    for (int v = 0; v < smi_vars(I) && ok; v++) ok = allowed[v * stride + s->value[k][v]];
    if (ok) memmove(s->value[kept++], s->value[k], sizeof s->value[k]);
  }
  s->count = kept;
}

static inline bool smi_same(const smi *I, const smi_solutions *a, const smi_solutions *b) {
  if (a->count != b->count || a->count > CAP) return false;
  for (int x = 0; x < a->count; x++) {
    bool seen = false;
    for (int y = 0; y < b->count && !seen; y++) seen = !memcmp(a->value[x], b->value[y], sizeof(int) * (size_t)smi_vars(I));
    if (!seen) return false;
  }
  return true;
}

/* --- Random instances. --- */

static inline void smi_shuffle(int *ids, int count, uint64_t *rng) {
  for (int q = 0; q < count; q++) ids[q] = q;
  for (int q = count - 1; q > 0; q--) {
    int r = (int)(tu_rand(rng) % (uint64_t)(q + 1)), t = ids[q];
    ids[q] = ids[r];
    ids[r] = t;
  }
}

static inline void smi_random(smi *I, uint64_t *rng) {
  memset(I, 0, sizeof *I);
  if (tu_rand(rng) % 4 == 0) { /* cyclic lists (many stable matchings), a few cut short or dropped */
    int n = 2 + (int)(tu_rand(rng) % (MAX_SIDE - 1));
    I->nm = I->nw = n;
    for (int p = 0; p < n; p++) {
      for (int k = 0; k < n; k++) I->pm[p][k] = (p + k) % n, I->pw[p][k] = (p + 1 + k) % n;
      I->lm[p] = tu_rand(rng) % 5 == 0 ? n - 1 - (int)(tu_rand(rng) % 2) : n;
      I->lw[p] = tu_rand(rng) % 5 == 0 ? n - 1 - (int)(tu_rand(rng) % 2) : n;
    }
    return;
  }
  I->nm = 1 + (int)(tu_rand(rng) % MAX_SIDE);
  I->nw = 1 + (int)(tu_rand(rng) % MAX_SIDE);
  if (tu_rand(rng) % 25 == 0) { /* nobody on one side */
    if (tu_rand(rng) & 1) I->nm = 0;
    else I->nw = 0;
  }
  for (int side = 0; side < 2; side++) {
    int count = side ? I->nw : I->nm, others = side ? I->nm : I->nw;
    for (int p = 0; p < count; p++) {
      int ids[MAX_SIDE], *len = side ? &I->lw[p] : &I->lm[p], *list = side ? I->pw[p] : I->pm[p];
      smi_shuffle(ids, others, rng);
      /* Mostly long lists (several stable matchings), sometimes short or empty ones. */
      *len = tu_rand(rng) % 3 ? others - (int)(tu_rand(rng) % 2) : (int)(tu_rand(rng) % (uint64_t)(others + 1));
      if (*len < 0) *len = 0;
      for (int k = 0; k < *len; k++) list[k] = ids[k];
    }
  }
}

#endif
