/* The HRC propagation's counting pass (smc_hrc_count.h): who may be where, and prefix counts down
 * each hospital's list. The host's version; smc_hrc_accel.c runs the same pass on an engine. */
#include "smc_hrc_count.h"
#include "smc_hrc_path.h"

#include <string.h>

static void count_on_host(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_hrc_counts *c) {
  memset(c->poss, 0, ((size_t)d->hosp_start[d->n_hospitals] + 1) * sizeof *c->poss);
  for (int v = 0; v < d->n_vars; v++) {
    int runs = bb_smc_hrc_read_var(dom, c, v), len = bb_smc_hrc_len(d, v);
    for (int r = 0; r < runs; r++)
      for (int k = c->runs[2 * r]; k <= c->runs[2 * r + 1] && k < len; k++) {
        uint32_t e = d->var_start[v] + (uint32_t)k;
        if (d->e_s1[e] < 0) continue; /* not acceptable */
        c->poss[d->e_s1[e]]++;
        if (v >= d->n_singles) c->poss[d->e_s2[e]]++;
      }
  }
  for (int h = 0; h < d->n_hospitals; h++) {
    int32_t may = 0, must = 0;
    for (uint32_t t = d->hosp_start[h]; t < d->hosp_start[h + 1]; t++) {
      c->poss_before[t] = may;
      c->sure_before[t] = must;
      may += c->poss[t] > 0;
      must += bb_smc_hrc_sure(d, c->poss, c->asize, (int32_t)t);
    }
    c->sure_total[h] = must;
  }
}

/* With ties, "before slot t" is every resident the hospital ranks at or above t's, t aside:
 * the count through the end of t's tie, less t's own. */
static void with_ties(const bb_smc_hrc *d, bb_smc_hrc_counts *c) {
  for (int32_t t = 0, slots = (int32_t)d->hosp_start[d->n_hospitals]; t < slots;) {
    int32_t end = d->tie_end[t], last = end - 1;
    int32_t may = c->poss_before[last] + (c->poss[last] > 0);
    int32_t must = c->sure_before[last] + bb_smc_hrc_sure(d, c->poss, c->asize, last);
    for (; t < end; t++) {
      c->poss_before[t] = may - (c->poss[t] > 0);
      c->sure_before[t] = must - bb_smc_hrc_sure(d, c->poss, c->asize, t);
    }
  }
}

void bb_smc_hrc_set_path(bb_smc_hrc *d, bb_smc_path path) { d->path = (int)path; }

bool bb_smc_hrc_count(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_counts *c) {
  bool parallel = path == BB_SMC_PATH_GPU || path == BB_SMC_PATH_EMULATED;
  if (!parallel || !bb_smc_hrc_accel_count(d, dom, path, c)) count_on_host(d, dom, c);
  if (d->tie_end) with_ties(d, c);
  for (int h = 0; h < d->n_hospitals; h++)
    if (c->sure_total[h] > d->capacity[h]) return false;
  return true;
}
