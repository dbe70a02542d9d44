/* Hospitals/Residents from the definition (bth_hr.h). */
#include "bth_hr.h"

#include <string.h>

bb_hr *bth_hr_random(bool smi, int nr, int nh, int max_cap, uint64_t *rng) {
  bb_hr *inst = bb_hr_new(smi, nr, nh, (uint64_t)nr * nh, (uint64_t)nr * nh, NULL);
  int ids[64];
  uint32_t len = 0;
  for (int r = 0; r < nr; r++) {
    bth_shuffle(ids, nh, rng);
    int take = (int)(bth_rand(rng) % (uint64_t)(nh + 1));
    inst->res_start[r] = len;
    for (int k = 0; k < take; k++) inst->res_list[len++] = (bb_id)ids[k];
  }
  inst->res_start[nr] = len;
  len = 0;
  for (int h = 0; h < nh; h++) {
    bth_shuffle(ids, nr, rng);
    /* Mostly long lists, so most pairs are acceptable. */
    int take = (int)(bth_rand(rng) % 4 == 0 ? bth_rand(rng) % (uint64_t)(nr + 1) : (uint64_t)nr);
    inst->hosp_start[h] = len;
    for (int k = 0; k < take; k++) inst->hosp_list[len++] = (bb_id)ids[k];
    inst->capacity[h] = smi ? 1 : (int32_t)(bth_rand(rng) % (uint64_t)(max_cap + 1));
  }
  inst->hosp_start[nh] = len;
  return inst;
}

int bth_hr_pos(const uint32_t *start, const bb_id *list, int who, int id) {
  for (uint32_t e = start[who]; e < start[who + 1]; e++)
    if (list[e] == (bb_id)id) return (int)(e - start[who]);
  return -1;
}

int bth_hr_stable(const bb_hr *inst, const int32_t *assigned) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  for (int h = 0; h < nh; h++) {
    int taken = 0;
    for (int r = 0; r < nr; r++) taken += assigned[r] == h;
    if (taken > inst->capacity[h]) return 0;
  }
  for (int r = 0; r < nr; r++) {
    int h = assigned[r];
    if (h == BB_HR_NONE) continue;
    if (h < 0 || h >= nh || bth_hr_pos(inst->res_start, inst->res_list, r, h) < 0 ||
        bth_hr_pos(inst->hosp_start, inst->hosp_list, h, r) < 0)
      return 0;
  }
  for (int r = 0; r < nr; r++)
    for (int h = 0; h < nh; h++) {
      int rh = bth_hr_pos(inst->res_start, inst->res_list, r, h),
          hr = bth_hr_pos(inst->hosp_start, inst->hosp_list, h, r);
      if (rh < 0 || hr < 0 || assigned[r] == h) continue;
      int own = assigned[r] == BB_HR_NONE ? 1 << 30 : bth_hr_pos(inst->res_start, inst->res_list, r, assigned[r]);
      if (rh > own) continue; /* r prefers his own */
      int taken = 0, worst = -1;
      for (int s = 0; s < nr; s++)
        if (assigned[s] == h) {
          taken++;
          int p = bth_hr_pos(inst->hosp_start, inst->hosp_list, h, s);
          if (p > worst) worst = p;
        }
      if (taken < inst->capacity[h] || hr < worst) return 0;
    }
  return 1;
}

int bth_hr_all_stable(const bb_hr *inst, int32_t *out, int max) {
  int nr = inst->n_residents, count = 0;
  int32_t cur[BTH_HR_BRUTE_MAX];
  int choice[BTH_HR_BRUTE_MAX];
  for (int r = 0; r < nr; r++) choice[r] = -1;
  for (;;) {
    for (int r = 0; r < nr; r++)
      cur[r] = choice[r] < 0 ? BB_HR_NONE : (int32_t)inst->res_list[inst->res_start[r] + (uint32_t)choice[r]];
    if (bth_hr_stable(inst, cur)) {
      if (count < max) memcpy(out + (size_t)count * nr, cur, (size_t)nr * sizeof *cur);
      count++;
    }
    int r = 0;
    while (r < nr) {
      int len = (int)(inst->res_start[r + 1] - inst->res_start[r]);
      if (++choice[r] < len) break;
      choice[r] = -1;
      r++;
    }
    if (r == nr) return count;
  }
}
