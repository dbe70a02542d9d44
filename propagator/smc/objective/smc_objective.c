/* The objective bounds of smc_objective.h: the instance, and each bound as a lattice build
 * followed by minimum cuts. */
#include "smo_internal.h"

#include <stdlib.h>
#include <string.h>

static void smo_free(bb_smo *smo) {
  if (!smo) return;
  free(smo->man_choice);
  free(smo->woman_choice);
  free(smo->man_rank);
  free(smo->woman_rank);
  free(smo->man_weight);
  free(smo->woman_weight);
  free(smo);
}

/* rank[i * n + choice[i * n + k]] = k; false (naming the row) if a row is no permutation. */
static bool ranks_of(int n, const int32_t *choice, int32_t *rank, const char *side, bb_error *err) {
  for (size_t i = 0; i < (size_t)n * n; i++) rank[i] = -1;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      int32_t id = choice[(size_t)i * n + k];
      if (id < 0 || id >= n || rank[(size_t)i * n + id] >= 0) {
        bb_fail(err, BB_ERR_INPUT, "stable matching objective: %s %d's list is not a permutation of 0..%d", side, i,
                n - 1);
        return false;
      }
      rank[(size_t)i * n + id] = k;
    }
  return true;
}

bb_status bb_smo_new(int n, const int32_t *man_choice, const int32_t *woman_choice, const int64_t *man_weight,
                     const int64_t *woman_weight, bb_smo **out, bb_error *err) {
  *out = NULL;
  if (n < 1 || n > 46340 || !man_choice || !woman_choice || !man_weight || !woman_weight)
    return bb_fail(err, BB_ERR_ARG, "stable matching objective: n = %d (need 1..46340) or a NULL array", n);
  size_t nn = (size_t)n * n;
  bb_smo *smo = calloc(1, sizeof *smo);
  if (smo) {
    smo->man_choice = malloc(nn * sizeof *smo->man_choice);
    smo->woman_choice = malloc(nn * sizeof *smo->woman_choice);
    smo->man_rank = malloc(nn * sizeof *smo->man_rank);
    smo->woman_rank = malloc(nn * sizeof *smo->woman_rank);
    smo->man_weight = malloc(nn * sizeof *smo->man_weight);
    smo->woman_weight = malloc(nn * sizeof *smo->woman_weight);
  }
  if (!smo || !smo->man_choice || !smo->woman_choice || !smo->man_rank || !smo->woman_rank || !smo->man_weight ||
      !smo->woman_weight) {
    smo_free(smo);
    bb_note_out_of_memory();
    return bb_fail(err, BB_ERR_NOMEM, "stable matching objective: out of memory for n = %d", n);
  }
  atomic_init(&smo->refs, 1);
  smo->n = n;
  memcpy(smo->man_choice, man_choice, nn * sizeof *man_choice);
  memcpy(smo->woman_choice, woman_choice, nn * sizeof *woman_choice);
  memcpy(smo->man_weight, man_weight, nn * sizeof *man_weight);
  memcpy(smo->woman_weight, woman_weight, nn * sizeof *woman_weight);
  if (!ranks_of(n, man_choice, smo->man_rank, "man", err) ||
      !ranks_of(n, woman_choice, smo->woman_rank, "woman", err)) {
    smo_free(smo);
    return BB_ERR_INPUT;
  }
  smo->monotone = true;
  for (size_t i = 0; i < nn; i++)
    if (i % (size_t)n && (man_weight[i] < man_weight[i - 1] || woman_weight[i] < woman_weight[i - 1]))
      smo->monotone = false;
  *out = smo;
  return BB_OK;
}

bb_smo *bb_smo_retain(bb_smo *smo) {
  atomic_fetch_add_explicit(&smo->refs, 1, memory_order_relaxed);
  return smo;
}

void bb_smo_release(bb_smo *smo) {
  if (smo && atomic_fetch_sub_explicit(&smo->refs, 1, memory_order_acq_rel) == 1) smo_free(smo);
}

int bb_smo_n(const bb_smo *smo) { return smo->n; }
int bb_smo_man_rank(const bb_smo *smo, int m, int w) { return smo->man_rank[(size_t)m * smo->n + w]; }
int bb_smo_woman_rank(const bb_smo *smo, int w, int m) { return smo->woman_rank[(size_t)w * smo->n + m]; }
bool bb_smo_monotone(const bb_smo *smo) { return smo->monotone; }
int64_t bb_smo_weight(const bb_smo *smo, int a, int k) {
  int n = smo->n;
  return a < n ? smo->man_weight[(size_t)a * n + k] : smo->woman_weight[(size_t)(a - n) * n + k];
}

/* The least sum of (man_sign * man weight + woman_sign * woman weight) over the stable
 * matchings of the lattice's restriction. */
static bool least(const bb_smo *smo, const smo_lattice *lat, int man_sign, int woman_sign, int64_t *out) {
  int64_t *delta = malloc(((size_t)lat->n_rot + 1) * sizeof *delta), best = 0;
  if (!delta) return false;
  smo_rotation_deltas(smo, lat, man_sign, woman_sign, delta);
  bool ok = smo_min_closure(lat, delta, &best);
  free(delta);
  *out = smo_first_weight(smo, lat, man_sign, woman_sign) + best;
  return ok;
}

bb_smo_result bb_smo_min_weight(const bb_smo *smo, bb_smo_allowed allowed, int64_t *out) {
  smo_lattice lat;
  bb_smo_result r = smo_lattice_build(smo, allowed, &lat);
  if (r == BB_SMO_OK && !least(smo, &lat, 1, 1, out)) r = BB_SMO_NOMEM;
  smo_lattice_free(&lat);
  return r;
}

bb_smo_result bb_smo_difference_range(const bb_smo *smo, bb_smo_allowed allowed, int64_t *lo, int64_t *hi) {
  smo_lattice lat;
  int64_t neg = 0;
  if (smo->monotone) {
    /* Every man does best and every woman worst in the man-optimal matching, the reverse in
     * the woman-optimal one: with weights that grow with the rank these are the two ends of
     * the range, no rotations needed (Gusfield & Irving, Theorem 1.2.2 for SMI). */
    bb_smo_result r = smo_extremes_build(smo, allowed, &lat);
    if (r == BB_SMO_OK) {
      *lo = smo_first_weight(smo, &lat, 1, -1);
      memcpy(lat.first_pos, lat.last_pos, (size_t)smo->n * sizeof *lat.first_pos);
      *hi = smo_first_weight(smo, &lat, 1, -1);
    }
    smo_lattice_free(&lat);
    return r;
  }
  bb_smo_result r = smo_lattice_build(smo, allowed, &lat);
  if (r == BB_SMO_OK && (!least(smo, &lat, 1, -1, lo) || !least(smo, &lat, -1, 1, &neg))) r = BB_SMO_NOMEM;
  *hi = -neg;
  smo_lattice_free(&lat);
  return r;
}

bb_smo_result bb_smo_min_regret_bound(const bb_smo *smo, bb_smo_allowed allowed, int *out) {
  smo_lattice lat;
  bb_smo_result r = smo_extremes_build(smo, allowed, &lat);
  if (r == BB_SMO_OK) {
    int n = smo->n, worst = 0;
    for (int m = 0; m < n; m++) {
      int first = lat.first_pos[m], last = lat.last_pos[m];
      int w = smo->man_choice[(size_t)m * n + last]; /* her best stable husband */
      if (first > worst) worst = first;
      if (smo->woman_rank[(size_t)w * n + m] > worst) worst = smo->woman_rank[(size_t)w * n + m];
    }
    *out = worst;
  }
  smo_lattice_free(&lat);
  return r;
}
