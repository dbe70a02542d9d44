/* Incomplete lists (SMI), from the definition (bth_smi.h). */
#include "bth_smi.h"

#include <string.h>

const bth_smi_shape bth_smi_small = {5, 4, 5, 1, 25};

int bth_smi_pos(const int *list, int len, int id) {
  for (int k = 0; k < len; k++)
    if (list[k] == id) return k;
  return -1;
}

bool bth_smi_acceptable(const bth_smi *I, int m, int w) {
  return bth_smi_pos(I->pm[m], I->lm[m], w) >= 0 && bth_smi_pos(I->pw[w], I->lw[w], m) >= 0;
}

bool bth_smi_stable(const bth_smi *I, const int *wife) {
  int husband[BTH_SMI_MAX];
  for (int w = 0; w < I->nw; w++) husband[w] = BTH_NONE;
  for (int m = 0; m < I->nm; m++) {
    if (wife[m] == BTH_NONE) continue;
    if (!bth_smi_acceptable(I, m, wife[m]) || husband[wife[m]] != BTH_NONE) return false;
    husband[wife[m]] = m;
  }
  for (int m = 0; m < I->nm; m++)
    for (int w = 0; w < I->nw; w++) {
      if (wife[m] == w || !bth_smi_acceptable(I, m, w)) continue;
      bool m_prefers =
          wife[m] == BTH_NONE || bth_smi_pos(I->pm[m], I->lm[m], w) < bth_smi_pos(I->pm[m], I->lm[m], wife[m]);
      bool w_prefers =
          husband[w] == BTH_NONE || bth_smi_pos(I->pw[w], I->lw[w], m) < bth_smi_pos(I->pw[w], I->lw[w], husband[w]);
      if (m_prefers && w_prefers) return false;
    }
  return true;
}

void bth_smi_values_of(const bth_smi *I, const int *wife, int *value) {
  for (int m = 0; m < I->nm; m++) value[m] = wife[m] == BTH_NONE ? I->lm[m] : bth_smi_pos(I->pm[m], I->lm[m], wife[m]);
  for (int w = 0; w < I->nw; w++) {
    int h = bth_smi_pos(wife, I->nm, w);
    value[I->nm + w] = h < 0 ? I->lw[w] : bth_smi_pos(I->pw[w], I->lw[w], h);
  }
}

static void brute(const bth_smi *I, int m, int *wife, bth_solutions *out) {
  if (m >= I->nm) {
    if (bth_smi_stable(I, wife)) {
      int value[BTH_SMI_VARS];
      bth_smi_values_of(I, wife, value);
      bth_solutions_add(out, value);
    }
    return;
  }
  for (int w = BTH_NONE; w < I->nw; w++) {
    wife[m] = w;
    brute(I, m + 1, wife, out);
  }
}

void bth_smi_brute(const bth_smi *I, bth_solutions *out) {
  int wife[BTH_SMI_MAX];
  bth_solutions_reset(out, bth_smi_vars(I));
  brute(I, 0, wife, out);
}

void bth_smi_filter(const bth_smi *I, bth_solutions *s, const uint8_t *allowed, int stride) {
  int kept = 0;
  for (int k = 0; k < s->count; k++) {
    const int *value = bth_solution(s, k);
    bool ok = true;
    for (int v = 0; v < bth_smi_vars(I) && ok; v++) ok = allowed[v * stride + value[v]];
    if (ok) memmove(bth_solution(s, kept++), value, (size_t)s->width * sizeof(int));
  }
  s->count = kept;
}

/* A cut of 1 (+ 0..cut_extra) with probability 1/cut_one_in. */
static int cut(const bth_smi_shape *shape, uint64_t *rng) {
  if (bth_rand(rng) % (uint64_t)shape->cut_one_in != 0) return 0;
  return 1 + (shape->cut_extra ? (int)(bth_rand(rng) % (uint64_t)(shape->cut_extra + 1)) : 0);
}

void bth_smi_random(bth_smi *I, uint64_t *rng, const bth_smi_shape *shape) {
  int max_side = shape->max_side;
  memset(I, 0, sizeof *I);
  if (bth_rand(rng) % (uint64_t)shape->cyclic_one_in == 0) {
    int n = 2 + (int)(bth_rand(rng) % (uint64_t)(max_side - 1));
    I->nm = I->nw = n;
    for (int p = 0; p < n; p++) {
      for (int k = 0; k < n; k++) I->pm[p][k] = (p + k) % n, I->pw[p][k] = (p + 1 + k) % n;
      I->lm[p] = n - cut(shape, rng);
      I->lw[p] = n - cut(shape, rng);
    }
    return;
  }
  I->nm = 1 + (int)(bth_rand(rng) % (uint64_t)max_side);
  I->nw = 1 + (int)(bth_rand(rng) % (uint64_t)max_side);
  if (shape->empty_side_one_in && bth_rand(rng) % (uint64_t)shape->empty_side_one_in == 0) {
    if (bth_rand(rng) & 1)
      I->nm = 0;
    else
      I->nw = 0;
  }
  for (int side = 0; side < 2; side++) {
    int count = side ? I->nw : I->nm, others = side ? I->nm : I->nw;
    for (int p = 0; p < count; p++) {
      int ids[BTH_SMI_MAX], *len = side ? &I->lw[p] : &I->lm[p], *list = side ? I->pw[p] : I->pm[p];
      bth_shuffle(ids, others, rng);
      /* Mostly long lists (several stable matchings), sometimes short or empty ones. */
      *len = bth_rand(rng) % 3 ? others - (int)(bth_rand(rng) % 2) : (int)(bth_rand(rng) % (uint64_t)(others + 1));
      if (*len < 0) *len = 0;
      for (int k = 0; k < *len; k++) list[k] = ids[k];
    }
  }
}

bb_hr *bth_smi_to_hr(const bth_smi *I, bb_error *err) {
  bb_hr *h = bb_hr_new(true, I->nm, I->nw, (uint64_t)I->nm * I->nw, (uint64_t)I->nm * I->nw, err);
  if (!h) return NULL;
  uint32_t at = 0;
  for (int m = 0; m < I->nm; m++) {
    h->res_start[m] = at;
    for (int k = 0; k < I->lm[m]; k++) h->res_list[at++] = (bb_id)I->pm[m][k];
  }
  h->res_start[I->nm] = at;
  at = 0;
  for (int w = 0; w < I->nw; w++) {
    h->hosp_start[w] = at;
    for (int k = 0; k < I->lw[w]; k++) h->hosp_list[at++] = (bb_id)I->pw[w][k];
    h->capacity[w] = 1;
  }
  h->hosp_start[I->nw] = at;
  return h;
}
