/* The HRC propagation's running sums (smc_hrc_count.h's memo): the budgets as last read, each
 * variable's max(share, own_min), their sum and the variables' slacks, brought up to date from
 * the variables whose share or budget moved instead of made again over every variable. */
#include "smc_hrc_count.h"

#include <stdlib.h>
#include <string.h>

/* Budget-less propagations read as budgets that bind nothing: own_min 0 and own_max above any
 * count give every rule of slacks (smc_hrc_propagate.c) the same outcome. */
#define NO_BUDGET_MAX INT32_MAX

void bb_smc_hrc_add_cand(bb_smc_hrc_memo *m, int v) {
  if (m->vmark[v] & 4) return;
  m->vmark[v] |= 4;
  m->cand[m->n_cand++] = v;
}

void bb_smc_hrc_sync_budgets(bb_smc_hrc_memo *m, const bb_smc_hrc *d, const bb_smc_hrc_budgets *b,
                             const bb_smc_hrc_changes *ch, bool ready) {
  if (!b) {
    for (int v = 0; v < d->n_vars; v++) m->omin[v] = 0, m->omax[v] = NO_BUDGET_MAX;
    return;
  }
  if (!ready) {
    for (int v = 0; v < d->n_vars; v++) m->omin[v] = b->own_min[v], m->omax[v] = b->own_max[v];
    return;
  }
  int n = ch ? ch->n_budgets : d->n_vars;
  for (int i = 0; i < n; i++) {
    int v = ch ? ch->budgets[i] : i;
    if (b->own_min[v] == m->omin[v] && b->own_max[v] == m->omax[v]) continue;
    m->omin[v] = b->own_min[v], m->omax[v] = b->own_max[v];
    bb_smc_hrc_add_cand(m, v);
  }
}

static int32_t at_least(const bb_smc_hrc_slack_arrays *a, int v) {
  return a->omin && a->omin[v] > a->vlb[v] ? a->omin[v] : a->vlb[v];
}

/* bp's slack (gap), counting v at its share rather than its floor, or v's own budget's. */
static int64_t slack(const bb_smc_hrc_slack_arrays *a, int v, int64_t gap) {
  int64_t s = gap + (at_least(a, v) - a->vlb[v]);
  if (a->omax && (int64_t)a->omax[v] - a->vlb[v] < s) s = (int64_t)a->omax[v] - a->vlb[v];
  return s;
}

static bool cannot_meet(const bb_smc_hrc_slack_arrays *a, int v) {
  return a->omin && (a->omin[v] > a->vub[v] || a->omax[v] < a->vlb[v]);
}

bool bb_smc_hrc_slacks_whole(int n, const bb_smc_hrc_slack_arrays *a, int64_t bp_max, int64_t *low) {
  bool met = true;
  *low = 0;
  for (int v = 0; v < n; v++) {
    int32_t floor = at_least(a, v);
    if (cannot_meet(a, v)) met = false;
    if (a->at_least) a->at_least[v] = floor;
    *low += floor;
  }
  if (!met || *low > bp_max) return false;
  for (int v = 0; v < n; v++) a->vslack[v] = slack(a, v, bp_max - *low);
  return true;
}

bool bb_smc_hrc_memo_slacks(bb_smc_hrc_memo *m, const bb_smc_hrc *d, int64_t bp_max, bool listed, bool *all) {
  bb_smc_hrc_slack_arrays a = {m->vlb, m->vub, m->omin, m->omax, m->at_least, m->vslack};
  *all = true;
  if (!listed) {
    bool ok = bb_smc_hrc_slacks_whole(d->n_vars, &a, bp_max, &m->sum_at_least);
    m->gap = bp_max - m->sum_at_least;
    return ok;
  }
  bool met = true;
  for (int i = 0; i < m->n_cand; i++) {
    int v = m->cand[i];
    if (cannot_meet(&a, v)) met = false;
    int32_t floor = at_least(&a, v);
    m->sum_at_least += floor - m->at_least[v];
    m->at_least[v] = floor;
  }
  int64_t gap = bp_max - m->sum_at_least;
  if (!met || gap < 0) return false;
  *all = gap != m->gap;
  m->gap = gap;
  if (*all) {
    for (int v = 0; v < d->n_vars; v++) m->vslack[v] = slack(&a, v, gap);
  } else {
    for (int i = 0; i < m->n_cand; i++) m->vslack[m->cand[i]] = slack(&a, m->cand[i], gap);
  }
  return true;
}

void bb_smc_hrc_memo_clear_cand(bb_smc_hrc_memo *m) {
  for (int i = 0; i < m->n_cand; i++) m->vmark[m->cand[i]] &= (uint8_t)~4u;
  m->n_cand = 0;
}

void bb_smc_hrc_sort_ids(int32_t *a, int n, int32_t *tmp) {
  if (n < 48) {
    for (int i = 1; i < n; i++) {
      int32_t x = a[i];
      int j = i;
      for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
      a[j] = x;
    }
    return;
  }
  int32_t most = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > most) most = a[i];
  int32_t *from = a, *to = tmp;
  for (int shift = 0; shift == 0 || (shift < 32 && (most >> shift) > 0); shift += 8) {
    int at[257] = {0};
    for (int i = 0; i < n; i++) at[((from[i] >> shift) & 255) + 1]++;
    for (int k = 0; k < 256; k++) at[k + 1] += at[k];
    for (int i = 0; i < n; i++) to[at[(from[i] >> shift) & 255]++] = from[i];
    int32_t *t = from;
    from = to, to = t;
  }
  if (from != a) memcpy(a, from, (size_t)n * sizeof *a);
}
