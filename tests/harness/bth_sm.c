/* Stable Marriage on complete lists, from the definition (bth_sm.h). */
#include "bth_sm.h"

#include <stdlib.h>
#include <string.h>

void bth_sm_random(int n, uint64_t *rng, int *pm, int *pw) {
  int row[256];
  for (int p = 0; p < n; p++) {
    bth_shuffle(row, n, rng);
    for (int k = 0; k < n; k++) pm[p * n + k] = row[k];
    bth_shuffle(row, n, rng);
    for (int k = 0; k < n; k++) pw[p * n + k] = row[k];
  }
}

int bth_sm_rank(const int *prefs, int n, int p, int q) {
  for (int k = 0; k < n; k++)
    if (prefs[p * n + k] == q) return k;
  return -1;
}

bool bth_sm_stable(const int *pm, const int *pw, int n, const int *wife) {
  int husband[256];
  for (int i = 0; i < n; i++) husband[wife[i]] = i;
  for (int i = 0; i < n; i++)
    for (int k = 0; pm[i * n + k] != wife[i]; k++) {
      int j = pm[i * n + k];
      if (bth_sm_rank(pw, n, j, i) < bth_sm_rank(pw, n, j, husband[j])) return false;
    }
  return true;
}

bool bth_sm_stable_within(const int *pm, const int *pw, int n, const bool *allowed, const int *wife) {
  int husband[256];
  for (int i = 0; i < n; i++) husband[wife[i]] = i;
  for (int i = 0; i < n; i++)
    for (int k = 0; pm[i * n + k] != wife[i]; k++) {
      int j = pm[i * n + k];
      if (allowed[i * n + j] && bth_sm_rank(pw, n, j, i) < bth_sm_rank(pw, n, j, husband[j])) return false;
    }
  return true;
}

/* Every perfect matching of allowed pairs, kept if stable against the full lists or, with
 * within, against the allowed pairs only. */
static void permute(const int *pm, const int *pw, int n, const bool *allowed, bool within, int *wife, bool *used, int i,
                    bth_solutions *out) {
  if (i == n) {
    if (within ? bth_sm_stable_within(pm, pw, n, allowed, wife) : bth_sm_stable(pm, pw, n, wife))
      bth_solutions_add(out, wife);
    return;
  }
  for (int j = 0; j < n; j++)
    if (!used[j] && allowed[i * n + j]) {
      used[j] = true;
      wife[i] = j;
      permute(pm, pw, n, allowed, within, wife, used, i + 1, out);
      used[j] = false;
    }
}

void bth_sm_brute(const int *pm, const int *pw, int n, const bool *allowed, bth_solutions *out) {
  int wife[BTH_SM_BRUTE_MAX];
  bool used[BTH_SM_BRUTE_MAX] = {false};
  bth_solutions_reset(out, n);
  if (n <= BTH_SM_BRUTE_MAX) permute(pm, pw, n, allowed, false, wife, used, 0, out);
}

void bth_sm_brute_within(const int *pm, const int *pw, int n, const bool *allowed, bth_solutions *out) {
  int wife[BTH_SM_BRUTE_MAX];
  bool used[BTH_SM_BRUTE_MAX] = {false};
  bth_solutions_reset(out, n);
  if (n <= BTH_SM_BRUTE_MAX) permute(pm, pw, n, allowed, true, wife, used, 0, out);
}

void bth_sm_extended_gs(const int *prop_prefs, const int *recv_prefs, int n, bool *keep, bool *keep_other) {
  int *fiance = malloc((size_t)n * sizeof(int));  /* receiver -> proposer or -1 */
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
    int rank_m = bth_sm_rank(recv_prefs, n, w, m);
    for (int k = rank_m + 1; k < n; k++) {
      int succ = recv_prefs[w * n + k];
      keep_other[w * n + succ] = false;
      keep[succ * n + w] = false;
    }
  }
  free(fiance);
  free(engaged);
}

void bth_sm_gs_lists(const int *pm, const int *pw, int n, bool gs_lists, bool *allowed) {
  size_t cells = (size_t)n * n;
  bool *men_keep = malloc(cells), *women_keep = malloc(cells);
  bth_sm_extended_gs(pm, pw, n, men_keep, women_keep);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) allowed[i * n + j] = men_keep[i * n + j] && women_keep[j * n + i];
  if (gs_lists) {
    bth_sm_extended_gs(pw, pm, n, women_keep, men_keep);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        allowed[i * n + j] = allowed[i * n + j] && men_keep[i * n + j] && women_keep[j * n + i];
  }
  free(men_keep);
  free(women_keep);
}

bool bth_sm_rule_fixpoint(const int *pm, const int *pw, int n, bool gs_lists, bool *allowed) {
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
          int q = own[p * n + k], rank_p = bth_sm_rank(other, n, q, p);
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
