/* The pair layout (smc_pairs.h) that both engines of the parallel path read: the GPU
 * (cuda/gpu_smc.cu) uploads it, the CPU emulation (smc_accel_emul.c) keeps it in host memory. */
#include "smc_internal.h"
#include <assert.h>
#include "smc_pairs.h"

int bb_smc_accel_width(const bb_smc_prefs *p) { return p->start ? p->room : p->n; }

bool bb_smc_accel_fits(const bb_smc_prefs *p, bb_error *why) {
  if (!p->start) {
    if (p->n <= BB_SMC_GPU_MAX_N) return true;
    bb_fail(why, BB_ERR_ARG, "n = %d is above the parallel path's limit of %d", p->n, BB_SMC_GPU_MAX_N);
    return false;
  }
  int men = p->men, women = p->vars - p->men;
  if (men < 65535 && women < 65535 && p->room < 65535 && (int64_t)p->vars * p->room <= INT32_MAX) return true;
  bb_fail(why, BB_ERR_ARG,
          "%d men, %d women and lists of up to %d are beyond the parallel path's limits (65534 of each, "
          "2^31 pair entries)",
          men, women, p->room - 1);
  return false;
}

void bb_smc_accel_fill_pairs(const bb_smc_prefs *p, int row0, int row1, uint32_t *out) {
  assert(out && 0 <= row0 && row0 <= row1 && row1 <= p->vars);
  size_t width = (size_t)bb_smc_accel_width(p);
  for (size_t row = (size_t)row0; row < (size_t)row1; row++) {
    uint32_t *dst = out + (row - (size_t)row0) * width;
    if (p->start) {
      int len = bb_smc_row_len(p, (int)row), other = (int)row < p->men ? p->men : 0;
      assert(len >= 0 && (size_t)len <= width);
      const int32_t *partner = p->pair_var + p->start[row], *rank = p->pair_rank + p->start[row];
      for (int k = 0; k < len; k++)
        dst[k] = partner[k] < 0 ? BB_SMC_ACCEL_NOBODY : ((uint32_t)(partner[k] - other) << 16) | (uint32_t)rank[k];
      for (size_t k = (size_t)len; k < width; k++) dst[k] = BB_SMC_ACCEL_NOBODY;
      continue;
    }
    size_t n = width;
    const int32_t *choice = row < n ? p->man_choice + row * n : p->woman_choice + (row - n) * n;
    const int32_t *rank = row < n ? p->man_partner_rank + row * n : p->woman_partner_rank + (row - n) * n;
    for (size_t k = 0; k < n; k++) dst[k] = ((uint32_t)choice[k] << 16) | (uint32_t)rank[k];
  }
}
