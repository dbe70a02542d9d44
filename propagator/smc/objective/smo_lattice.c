/* One restriction's rotations and their poset (Gusfield & Irving 1989, sections 2.5 and
 * 3.3), over the pairs the domains allow (smc_objective.h). */
#include "smo_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
  const bb_smo *smo;
  bb_smo_allowed allowed;
  int n;
  int32_t *pos;     /* each man's wife, as a position in his list */
  int32_t *husband; /* each woman's husband */
  int32_t *next;    /* each man's next candidate position: s_M(m) is at or after it */
} walk;

static bool acceptable(const walk *W, int m, int k) {
  int n = W->n, w = W->smo->man_choice[(size_t)m * n + k];
  return W->allowed.man_ok[(size_t)m * n + k] &&
         W->allowed.woman_ok[(size_t)w * n + W->smo->woman_rank[(size_t)w * n + m]];
}

static bool prefers(const walk *W, int w, int a, int b) { /* woman w prefers man a to man b */
  const int32_t *r = W->smo->woman_rank + (size_t)w * W->n;
  return r[a] < r[b];
}

/* Man-proposing Gale-Shapley over the acceptable pairs; false if some man stays single. */
static bool man_optimal(walk *W, int32_t *free_men) {
  int n = W->n, top = 0;
  for (int m = 0; m < n; m++) W->next[m] = 0, free_men[top++] = n - 1 - m;
  for (int w = 0; w < n; w++) W->husband[w] = -1;
  while (top > 0) {
    int m = free_men[--top];
    for (;;) {
      if (W->next[m] >= n) return false;
      int k = W->next[m]++;
      if (!acceptable(W, m, k)) continue;
      int w = W->smo->man_choice[(size_t)m * n + k], h = W->husband[w];
      if (h >= 0 && !prefers(W, w, m, h)) continue;
      W->husband[w] = m;
      W->pos[m] = k;
      if (h >= 0) free_men[top++] = h;
      break;
    }
  }
  return true;
}

/* Woman-proposing Gale-Shapley: each man's wife in the woman-optimal matching, as a
 * position in his list (his worst stable wife). Called after man_optimal succeeded, so
 * everybody is matched here too (Rural Hospitals). */
static void woman_optimal(walk *W, int32_t *target, int32_t *free_women, int32_t *next_w) {
  int n = W->n, top = 0;
  for (int w = 0; w < n; w++) next_w[w] = 0, free_women[top++] = n - 1 - w;
  for (int m = 0; m < n; m++) target[m] = -1;
  while (top > 0) {
    int w = free_women[--top];
    while (next_w[w] < n) {
      int m = W->smo->woman_choice[(size_t)w * n + next_w[w]++], k = W->smo->man_rank[(size_t)m * n + w];
      if (!acceptable(W, m, k) || (target[m] >= 0 && target[m] < k)) continue;
      if (target[m] >= 0) free_women[top++] = W->smo->man_choice[(size_t)m * n + target[m]];
      target[m] = k;
      break;
    }
  }
}

/* s_M(m): the first woman after m's wife who would rather have m than her husband, as a
 * position in m's list, or -1. Women's husbands only improve, so the scan never goes back. */
static int successor(walk *W, int m) {
  int n = W->n;
  for (; W->next[m] < n; W->next[m]++) {
    int k = W->next[m];
    if (!acceptable(W, m, k)) continue;
    int w = W->smo->man_choice[(size_t)m * n + k];
    if (prefers(W, w, m, W->husband[w])) return k;
  }
  return -1;
}

static bool grow(int32_t **a, int *cap, int need) {
  if (need <= *cap) return true;
  int c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  int32_t *p = realloc(*a, (size_t)c * sizeof *p);
  if (!p) return false;
  *a = p;
  *cap = c;
  return true;
}

static bool add_moves(smo_lattice *L, int count) {
  int cap = L->cap_moves, need = L->n_moves + count;
  bool ok = grow(&L->move_man, &cap, need);
  cap = L->cap_moves;
  ok = ok && grow(&L->move_from, &cap, need);
  cap = L->cap_moves;
  ok = ok && grow(&L->move_to, &cap, need);
  if (ok) L->cap_moves = cap;
  return ok;
}

static bool add_edge(smo_lattice *L, int before, int after) {
  int cap = L->cap_edges;
  bool ok = grow(&L->edge_before, &cap, L->n_edges + 1);
  cap = L->cap_edges;
  ok = ok && grow(&L->edge_after, &cap, L->n_edges + 1);
  if (!ok) return false;
  L->cap_edges = cap;
  L->edge_before[L->n_edges] = before;
  L->edge_after[L->n_edges++] = after;
  return true;
}

/* Eliminates exposed rotations until the woman-optimal matching: the walk follows
 * m -> husband of s_M(m) on a stack; a man met twice closes a rotation (section 2.5.2). */
static bool find_rotations(walk *W, smo_lattice *L, const int32_t *target, int32_t *stack, int32_t *at) {
  int n = W->n, rot_cap = 0;
  for (int m = 0; m < n; m++) at[m] = -1, W->next[m] = W->pos[m] + 1;
  if (!grow(&L->rot_start, &rot_cap, 1)) return false;
  L->rot_start[0] = 0;
  for (int start = 0; start < n; start++) {
    /* Only men not yet at their woman-optimal wife: for them s_M(m) exists and leads to
     * another such man (Gusfield & Irving, Lemma 2.5.1), so every walk closes a cycle. */
    while (W->pos[start] != target[start] && successor(W, start) >= 0) {
      int top = 0;
      stack[top++] = start;
      at[start] = 0;
      while (top > 0) {
        int m = stack[top - 1], k = successor(W, m);
        if (k < 0 || W->pos[m] == target[m]) { /* impossible by the lemma */
          assert(!"a rotation walk reached a man at his woman-optimal wife");
          return false;
        }
        int m2 = W->husband[W->smo->man_choice[(size_t)m * n + k]];
        if (at[m2] < 0) {
          at[m2] = top;
          stack[top++] = m2;
          continue;
        }
        int from = at[m2], len = top - from;
        if (!add_moves(L, len) || !grow(&L->rot_start, &rot_cap, L->n_rot + 2)) return false;
        for (int i = from; i < top; i++) { /* each man's successor is still valid */
          int x = stack[i], j = L->n_moves++;
          L->move_man[j] = x;
          L->move_from[j] = W->pos[x];
          L->move_to[j] = W->next[x];
        }
        for (int i = from; i < top; i++) {
          int x = stack[i];
          W->pos[x] = W->next[x];
          W->husband[W->smo->man_choice[(size_t)x * n + W->pos[x]]] = x;
          W->next[x]++;
          at[x] = -1;
        }
        L->rot_start[++L->n_rot] = L->n_moves;
        top = from;
      }
    }
  }
  return true;
}

/* The generating edges: (1) the rotations that move one man, in the order they move him;
 * (2) if rotation r gives woman w a husband she prefers to man m' (acceptable to her) while
 * her previous one was worse, then r precedes the rotation that moves m' past w. */
static bool poset_edges(const bb_smo *smo, walk *W, smo_lattice *L) {
  int n = W->n;
  int32_t *last = malloc((size_t)n * sizeof *last);
  int32_t *mover = malloc((size_t)n * n * sizeof *mover); /* rotation moving man m past position p */
  int32_t *old_man = malloc((size_t)n * sizeof *old_man);
  bool ok = last && mover && old_man;
  if (ok) {
    memset(mover, 0xff, (size_t)n * n * sizeof *mover);
    for (int m = 0; m < n; m++) last[m] = -1;
    for (int r = 0; r < L->n_rot && ok; r++)
      for (int i = L->rot_start[r]; i < L->rot_start[r + 1] && ok; i++) {
        int m = L->move_man[i];
        if (last[m] >= 0) ok = add_edge(L, last[m], r);
        last[m] = r;
        for (int p = L->move_from[i] + 1; p < L->move_to[i]; p++) mover[(size_t)m * n + p] = r;
      }
  }
  for (int r = 0; r < L->n_rot && ok; r++) {
    int a = L->rot_start[r], b = L->rot_start[r + 1];
    for (int i = a; i < b; i++) { /* who had the woman that move i's man takes */
      int m = L->move_man[i], w = smo->man_choice[(size_t)m * n + L->move_from[i]];
      old_man[w] = m;
    }
    for (int i = a; i < b && ok; i++) {
      int m = L->move_man[i], w = smo->man_choice[(size_t)m * n + L->move_to[i]];
      const int32_t *wr = smo->woman_rank + (size_t)w * n;
      for (int q = wr[m] + 1; q < wr[old_man[w]] && ok; q++) {
        int m2 = smo->woman_choice[(size_t)w * n + q], p = smo->man_rank[(size_t)m2 * n + w];
        if (!acceptable(W, m2, p)) continue;
        int r2 = mover[(size_t)m2 * n + p];
        if (r2 >= 0 && r2 != r) ok = add_edge(L, r, r2);
      }
    }
  }
  free(last);
  free(mover);
  free(old_man);
  return ok;
}

static bb_smo_result build(const bb_smo *smo, bb_smo_allowed allowed, smo_lattice *L, bool rotations) {
  int n = smo->n;
  memset(L, 0, sizeof *L);
  L->n = n;
  walk W = {smo, allowed, n, NULL, NULL, NULL};
  W.husband = malloc((size_t)n * sizeof *W.husband);
  W.next = malloc((size_t)n * sizeof *W.next);
  int32_t *stack = malloc((size_t)n * sizeof *stack), *at = malloc((size_t)n * sizeof *at);
  L->first_pos = malloc((size_t)n * sizeof *L->first_pos);
  L->last_pos = malloc((size_t)n * sizeof *L->last_pos);
  W.pos = L->last_pos;
  bb_smo_result res = BB_SMO_NOMEM;
  if (W.husband && W.next && stack && at && L->first_pos && L->last_pos) {
    if (!man_optimal(&W, stack)) {
      res = BB_SMO_NONE;
    } else {
      memcpy(L->first_pos, W.pos, (size_t)n * sizeof *W.pos);
      int32_t *target = malloc((size_t)n * sizeof *target);
      if (target) {
        woman_optimal(&W, target, stack, at);
        if (!rotations) {
          memcpy(L->last_pos, target, (size_t)n * sizeof *target);
          res = BB_SMO_OK;
        } else if (find_rotations(&W, L, target, stack, at) && poset_edges(smo, &W, L)) {
          res = BB_SMO_OK;
        }
      }
      free(target);
    }
  }
  free(W.husband);
  free(W.next);
  free(stack);
  free(at);
  return res;
}

bb_smo_result smo_lattice_build(const bb_smo *smo, bb_smo_allowed allowed, smo_lattice *L) {
  return build(smo, allowed, L, true);
}

bb_smo_result smo_extremes_build(const bb_smo *smo, bb_smo_allowed allowed, smo_lattice *L) {
  return build(smo, allowed, L, false);
}

void smo_lattice_free(smo_lattice *L) {
  free(L->first_pos);
  free(L->last_pos);
  free(L->rot_start);
  free(L->move_man);
  free(L->move_from);
  free(L->move_to);
  free(L->edge_before);
  free(L->edge_after);
  memset(L, 0, sizeof *L);
}

int64_t smo_first_weight(const bb_smo *smo, const smo_lattice *L, int man_sign, int woman_sign) {
  int n = smo->n;
  int64_t sum = 0;
  for (int m = 0; m < n; m++) {
    int k = L->first_pos[m], w = smo->man_choice[(size_t)m * n + k];
    sum += man_sign * smo->man_weight[(size_t)m * n + k] +
           woman_sign * smo->woman_weight[(size_t)w * n + smo->woman_rank[(size_t)w * n + m]];
  }
  return sum;
}

void smo_rotation_deltas(const bb_smo *smo, const smo_lattice *L, int man_sign, int woman_sign, int64_t *delta) {
  int n = smo->n;
  for (int r = 0; r < L->n_rot; r++) {
    int64_t d = 0;
    for (int i = L->rot_start[r]; i < L->rot_start[r + 1]; i++) {
      int m = L->move_man[i];
      const int64_t *mw = smo->man_weight + (size_t)m * n;
      int w_old = smo->man_choice[(size_t)m * n + L->move_from[i]],
          w_new = smo->man_choice[(size_t)m * n + L->move_to[i]];
      /* man m changes wives; w_new gains m and w_old loses him (each woman once each way) */
      d += man_sign * (mw[L->move_to[i]] - mw[L->move_from[i]]);
      d += woman_sign * (smo->woman_weight[(size_t)w_new * n + smo->woman_rank[(size_t)w_new * n + m]] -
                         smo->woman_weight[(size_t)w_old * n + smo->woman_rank[(size_t)w_old * n + m]]);
    }
    delta[r] = d;
  }
}
