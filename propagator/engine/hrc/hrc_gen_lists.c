/* What the HRC generators share (hrc_gen_lists.h). */
#include "hrc_gen_lists.h"

#include <string.h>

bb_status bb_hrc_gen_check_sizes(int n_residents, int n_couples, int n_hospitals, bb_error *err) {
  if (n_residents < 0 || n_residents > BB_MAX_N || n_hospitals < 1 || n_hospitals > BB_MAX_N)
    return bb_fail(err, BB_ERR_ARG, "%d residents and %d hospitals: residents 0..%d, hospitals 1..%d", n_residents,
                   n_hospitals, BB_MAX_N, BB_MAX_N);
  if (n_couples < 0 || (int64_t)n_couples * 2 > n_residents)
    return bb_fail(err, BB_ERR_ARG, "%d couples: at most half of the %d residents", n_couples, n_residents);
  return BB_OK;
}

bb_status bb_hrc_gen_check_posts(int64_t posts, int min_capacity, int n_hospitals, bb_error *err) {
  if (posts < 0 || posts > INT32_MAX || min_capacity < 0 || (int64_t)min_capacity * n_hospitals > posts)
    return bb_fail(err, BB_ERR_ARG, "%lld posts with at least %d at each of %d hospitals: impossible", (long long)posts,
                   min_capacity, n_hospitals);
  return BB_OK;
}

uint32_t bb_hrc_gen_weighted(bb_rng *rng, const double *cumulative, int n) {
  double u = (double)(bb_rng_next(rng) >> 11) * 0x1.0p-53 * cumulative[n - 1];
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (cumulative[mid] <= u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (uint32_t)lo;
}

void bb_hrc_gen_resident_lists(bb_hrc *inst, const bb_hrc_own_lists *L, int (*joint)(void *ctx, int c, uint32_t *pairs),
                               void *ctx, uint32_t *pairs) {
  int nr = inst->n_residents, nc = inst->n_couples, members = 2 * nc;
  size_t width = (size_t)L->width;
  uint32_t len = 0;
  for (int r = 0; r < nr; r++) {
    inst->single_start[r] = len;
    if (r < members) continue;
    memcpy(inst->single_list + len, L->own + (size_t)r * width, (size_t)L->own_len[r] * sizeof(bb_id));
    memset(L->uses + (size_t)r * width, 1, (size_t)L->own_len[r]);
    len += (uint32_t)L->own_len[r];
  }
  inst->single_start[nr] = len;
  len = 0;
  for (int c = 0; c < nc; c++) {
    inst->couple_member[2 * c] = 2 * c, inst->couple_member[2 * c + 1] = 2 * c + 1;
    inst->couple_of[2 * c] = inst->couple_of[2 * c + 1] = c;
    inst->couple_start[c] = len;
    int n = joint(ctx, c, pairs);
    for (int k = 0; k < n; k++, len++)
      for (int m = 0; m < 2; m++) {
        size_t entry = (size_t)(2 * c + m) * width + pairs[2 * k + m];
        inst->couple_list[2 * (size_t)len + m] = L->own[entry];
        L->uses[entry] = 1;
      }
  }
  inst->couple_start[nc] = len;
}

void bb_hrc_gen_hospital_lists(bb_hrc *inst, const bb_hrc_own_lists *L, const bb_id *order, uint32_t *fill) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  size_t width = (size_t)L->width;
  for (int r = 0; r < nr; r++)
    for (int k = 0; k < L->own_len[r]; k++)
      if (L->uses[(size_t)r * width + k]) fill[L->own[(size_t)r * width + k]]++;
  inst->hosp_start[0] = 0;
  for (int h = 0; h < nh; h++) inst->hosp_start[h + 1] = inst->hosp_start[h] + fill[h], fill[h] = inst->hosp_start[h];
  for (int t = 0; t < nr; t++) {
    bb_id r = order ? order[t] : (bb_id)t;
    for (int k = 0; k < L->own_len[r]; k++)
      if (L->uses[(size_t)r * width + k]) inst->hosp_list[fill[L->own[(size_t)r * width + k]]++] = r;
  }
}
