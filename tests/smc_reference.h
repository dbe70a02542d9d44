/* Independent references for the Stable Marriage constraint tests: brute-force enumeration
 * of the stable matchings a set of domains allows, and the extended Gale-Shapley lists
 * (MGS-lists, GS-lists) computed the textbook way on plain lists. Nothing here calls the
 * code under test. Preferences are 0-based: pm[i*n+k] = man i's k-th choice. */
#ifndef BB_SMC_REFERENCE_H
#define BB_SMC_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Uniformly random complete lists (n <= 256), from the test's own generator. */
static inline void ref_random_prefs(int n, uint64_t *seed, int *pm, int *pw) {
  bb_id row[256];
  for (int p = 0; p < n; p++) {
    tu_shuffle(row, n, seed);
    for (int k = 0; k < n; k++) pm[p * n + k] = (int)row[k];
    tu_shuffle(row, n, seed);
    for (int k = 0; k < n; k++) pw[p * n + k] = (int)row[k];
  }
}

/* allowed[i*n+j]: the domains still allow man i with woman j (both sides must allow it). */
typedef struct ref_matchings {
  int n, count;
  int *wife; /* count rows of n: wife[s*n+i] = woman of man i in solution s */
} ref_matchings;

static inline int ref_rank(const int *prefs, int n, int p, int q) {
  for (int k = 0; k < n; k++)
    if (prefs[p * n + k] == q) return k;
  return -1;
}

/* Stability against the FULL lists: a forbidden pair can still block. */
static inline bool ref_is_stable(const int *pm, const int *pw, int n, const int *wife) {
  int husband[16];
  for (int i = 0; i < n; i++) husband[wife[i]] = i;
  for (int i = 0; i < n; i++)
    for (int k = 0; pm[i * n + k] != wife[i]; k++) {
      int j = pm[i * n + k];
      if (ref_rank(pw, n, j, i) < ref_rank(pw, n, j, husband[j])) return false;
    }
  return true;
}

static inline void ref_permute(const int *pm, const int *pw, int n, const bool *allowed, int *wife,
                               bool *used, int i, ref_matchings *out) {
  if (i == n) {
    if (ref_is_stable(pm, pw, n, wife)) {
      out->wife = realloc(out->wife, (size_t)(out->count + 1) * n * sizeof(int));
      memcpy(out->wife + (size_t)out->count * n, wife, (size_t)n * sizeof(int));
      out->count++;
    }
    return;
  }
  for (int j = 0; j < n; j++)
    if (!used[j] && allowed[i * n + j]) {
      used[j] = true;
      wife[i] = j;
      ref_permute(pm, pw, n, allowed, wife, used, i + 1, out);
      used[j] = false;
    }
}

/* All stable matchings using only allowed pairs, in lexicographic order of wife[]. n <= 10. */
static inline ref_matchings ref_enumerate(const int *pm, const int *pw, int n, const bool *allowed) {
  ref_matchings out = {n, 0, NULL};
  int wife[16];
  bool used[16] = {false};
  ref_permute(pm, pw, n, allowed, wife, used, 0, &out);
  return out;
}

/* Extended Gale-Shapley (seed 003 Algorithm 1) with `proposers` proposing, on plain lists:
 * on return keep[p*n+q] says whether q is still on p's list (p a proposer), and
 * keep_other[q*n+p] the same from the receivers' side. */
static inline void ref_extended_gs(const int *prop_prefs, const int *recv_prefs, int n, bool *keep,
                                   bool *keep_other) {
  int *fiance = malloc((size_t)n * sizeof(int)); /* receiver -> proposer or -1 */
  int *engaged = malloc((size_t)n * sizeof(int)); /* proposer -> receiver or -1 */
  for (int q = 0; q < n * n; q++) keep[q] = keep_other[q] = true;
  for (int p = 0; p < n; p++) fiance[p] = engaged[p] = -1;
  for (;;) {
    int m = -1;
    for (int p = 0; p < n && m < 0; p++)
      if (engaged[p] < 0) m = p;
    if (m < 0) break;
    int w = -1;
    for (int k = 0; k < n && w < 0; k++)
      if (keep[m * n + prop_prefs[m * n + k]]) w = prop_prefs[m * n + k];
    if (w < 0) break; /* cannot happen with complete lists */
    if (fiance[w] >= 0) engaged[fiance[w]] = -1;
    fiance[w] = m;
    engaged[m] = w;
    int rank_m = ref_rank(recv_prefs, n, w, m);
    for (int k = rank_m + 1; k < n; k++) {
      int succ = recv_prefs[w * n + k];
      keep_other[w * n + succ] = false;
      keep[succ * n + w] = false;
    }
  }
  free(fiance);
  free(engaged);
}

/* The lists after the root propagation, as allowed pairs: MGS-lists (men propose) or their
 * intersection with the WGS-lists (gs_lists). allowed[i*n+j] for man i and woman j. */
static inline void ref_gs_lists(const int *pm, const int *pw, int n, bool gs_lists, bool *allowed) {
  size_t cells = (size_t)n * n;
  bool *men_keep = malloc(cells), *women_keep = malloc(cells);
  ref_extended_gs(pm, pw, n, men_keep, women_keep);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) allowed[i * n + j] = men_keep[i * n + j] && women_keep[j * n + i];
  if (gs_lists) {
    ref_extended_gs(pw, pm, n, women_keep, men_keep);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        allowed[i * n + j] = allowed[i * n + j] && men_keep[i * n + j] && women_keep[j * n + i];
  }
  free(men_keep);
  free(women_keep);
}

/* The fixpoint of the constraint's three rules (smc.h), computed naively on a pair matrix
 * (O(n^4), for small n): stability (men's; women's too when gs_lists), marriage, and
 * channelling (implicit: one matrix for both sides). Returns false if someone's list
 * empties. */
static inline bool ref_rule_fixpoint(const int *pm, const int *pw, int n, bool gs_lists, bool *allowed) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int side = 0; side < (gs_lists ? 2 : 1); side++) {
      const int *own = side ? pw : pm, *other = side ? pm : pw;
      for (int p = 0; p < n; p++) {
        int first = -1;
        for (int k = 0; k < n && first < 0; k++) {
          int q = own[p * n + k];
          if (side ? allowed[q * n + p] : allowed[p * n + q]) first = k;
        }
        if (first < 0) return false;
        for (int k = 0; k <= first; k++) { /* q must end with someone it ranks above p (or p at `first`) */
          int q = own[p * n + k], rank_p = ref_rank(other, n, q, p);
          for (int r = rank_p + (k == first ? 1 : 0); r < n; r++) {
            int o = other[q * n + r];
            bool *cell = side ? &allowed[q * n + o] : &allowed[o * n + q];
            if (*cell) *cell = false, changed = true;
          }
        }
      }
    }
    for (int side = 0; side < 2; side++) /* marriage */
      for (int p = 0; p < n; p++) {
        int count = 0, only = -1;
        for (int q = 0; q < n; q++)
          if (side ? allowed[q * n + p] : allowed[p * n + q]) count++, only = q;
        if (count == 0) return false;
        if (count != 1) continue;
        for (int o = 0; o < n; o++) {
          if (o == p) continue;
          bool *cell = side ? &allowed[only * n + o] : &allowed[o * n + only];
          if (*cell) *cell = false, changed = true;
        }
      }
  }
  return true;
}

#endif
