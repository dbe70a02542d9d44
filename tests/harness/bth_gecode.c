/* The harness's models in Gecode (bth_gecode.h). */
#include "bth_gecode.h"

#include <stdlib.h>
#include <string.h>

bool bth_search_all(bb_space *space, int threads, bth_on_solution on_solution, void *ctx, long *count, uint64_t *fails,
                    bb_error *err) {
  bb_search_options o;
  bb_search_options_init(&o);
  o.threads = threads;
  bb_search *s = bb_search_new(space, &o, err);
  long found = 0;
  for (bb_space *sol; s && (sol = bb_search_next(s, err)) != NULL; bb_space_free(sol)) {
    on_solution(sol, ctx);
    found++;
  }
  bb_search_statistics stats = {0};
  if (s) bb_search_stats(s, &stats);
  if (count) *count = found;
  if (fails) *fails = stats.fails;
  bb_search_free(s);
  return s != NULL;
}

int bth_read_values(const bb_space *solution, const int *vars, int count, int base, int *value) {
  int unassigned = 0;
  for (int k = 0; k < count; k++) {
    unassigned += !bb_int_assigned(solution, vars[k]);
    value[k] = bb_int_min(solution, vars[k]) - base;
  }
  return unassigned;
}

bool bth_domains_read(bth_domains *d, const bb_space *space, const int *vars, int count, int lo, int hi) {
  size_t width = (size_t)(hi - lo + 1);
  d->count = count, d->lo = lo, d->hi = hi;
  d->in = malloc((size_t)(count ? count : 1) * width);
  if (!d->in) return false;
  for (int k = 0; k < count; k++)
    for (int value = lo; value <= hi; value++)
      d->in[(size_t)k * width + (size_t)(value - lo)] = bb_int_in(space, vars[k], value);
  return true;
}

bool bth_domains_has(const bth_domains *d, int k, int value) {
  if (value < d->lo || value > d->hi) return false;
  return d->in[(size_t)k * (size_t)(d->hi - d->lo + 1) + (size_t)(value - d->lo)];
}

bool bth_same_domains(const bth_domains *a, const bth_domains *b) {
  return a->count == b->count && a->lo == b->lo && a->hi == b->hi &&
         !memcmp(a->in, b->in, (size_t)a->count * (size_t)(a->hi - a->lo + 1));
}

void bth_domains_free(bth_domains *d) {
  free(d->in);
  memset(d, 0, sizeof *d);
}

bth_model bth_model_new(int men, int women, int lo, int hi, bb_error *err) {
  bth_model m;
  m.space = bb_space_new(err);
  m.men = men, m.women = women;
  for (int v = 0; v < men + women && v < 2 * BTH_MODEL_MAX; v++) m.var[v] = bb_int_var(m.space, lo, hi, err);
  return m;
}

bb_status bth_sm_post(bth_model *m, int base, const int *pm, const int *pw, const bb_stable_matching_options *opts,
                      bb_error *err) {
  int n = m->men;
  size_t cells = (size_t)n * (size_t)n;
  int *qm = malloc((cells ? cells : 1) * sizeof *qm), *qw = malloc((cells ? cells : 1) * sizeof *qw);
  if (!qm || !qw) {
    free(qm);
    free(qw);
    return BB_ERR_NOMEM;
  }
  for (size_t c = 0; c < cells; c++) qm[c] = pm[c] + base, qw[c] = pw[c] + base;
  bb_status st =
      bb_post_stable_matching(m->space, bth_men(m), n, bth_women(m), m->women, qm, n, n, qw, n, n, opts, err);
  free(qm);
  free(qw);
  return st;
}

bb_status bth_smi_post(bb_space *space, const int *men, const int *women, const bth_smi *I, int base, int extra_cols,
                       int junk, const bb_stable_matching_options *opts, bb_error *err) {
  int cols_m = I->nw + extra_cols, cols_w = I->nm + extra_cols;
  int pm[BTH_SMI_MAX * (BTH_SMI_MAX + 4)], pw[BTH_SMI_MAX * (BTH_SMI_MAX + 4)];
  if (extra_cols < 0 || extra_cols > 4) return BB_ERR_ARG;
  for (int i = 0; i < I->nm; i++)
    for (int k = 0; k < cols_m; k++) pm[i * cols_m + k] = k < I->lm[i] ? I->pm[i][k] + base : junk;
  for (int j = 0; j < I->nw; j++)
    for (int k = 0; k < cols_w; k++) pw[j * cols_w + k] = k < I->lw[j] ? I->pw[j][k] + base : -junk;
  return bb_post_stable_matching_smi(space, men, I->nm, women, I->nw, base, pm, I->lm, cols_m, pw, I->lw, cols_w, opts,
                                     err);
}

bool bth_side_allows(const bth_side *c, const int *value) {
  switch (c->kind) {
    case BTH_SIDE_NE: return value[c->var] != c->value;
    case BTH_SIDE_EQ: return value[c->var] == c->value;
    case BTH_SIDE_IN: return value[c->var] >= 0 && value[c->var] < 32 && (c->mask >> value[c->var] & 1);
    case BTH_SIDE_LE: return value[c->var] <= value[c->other];
    case BTH_SIDE_SUM_LE: {
      int sum = 0;
      for (int k = 0; k < c->count; k++) sum += value[c->var + k];
      return sum <= c->value;
    }
  }
  return false;
}

bb_status bth_side_post(const bth_side *c, bb_space *space, const int *vars, int base, bb_error *err) {
  switch (c->kind) {
    case BTH_SIDE_NE:
    case BTH_SIDE_EQ:
      return bb_post_int_rel_const(space, vars[c->var], c->kind == BTH_SIDE_NE ? BB_NE : BB_EQ, c->value + base,
                                   bb_reif_none(), BB_IPL_DEF, err);
    case BTH_SIDE_IN: {
      int values[32], count = 0;
      for (int r = 0; r < 32; r++)
        if (c->mask >> r & 1) values[count++] = r + base;
      return bb_post_int_in_set(space, vars[c->var], values, count, bb_reif_none(), err);
    }
    case BTH_SIDE_LE:
      return bb_post_int_rel(space, vars[c->var], BB_LE, vars[c->other], bb_reif_none(), BB_IPL_DEF, err);
    case BTH_SIDE_SUM_LE: {
      int ones[2 * BTH_MODEL_MAX];
      for (int k = 0; k < c->count; k++) ones[k] = 1;
      return bb_post_int_lin(space, ones, vars + c->var, c->count, BB_LE, c->value + c->count * base, bb_reif_none(),
                             BB_IPL_DEF, err);
    }
  }
  return BB_ERR_ARG;
}
