/* One propagation of the HRC constraint (smc_hrc.h): capacities, bounds on the number of
 * blocking pairs, and the pruning that keeps it within bp's maximum.
 *
 * Blocking, as in Manlove, McBride & Trimble (Constraints 22, 2017), Definition 1, read per
 * entry of a list. For a hospital h and a resident r it ranks at slot s, "h wants r" means
 * fewer than capacity(h) of h's assignees are ranked above r (h is under-subscribed or prefers
 * r to its worst assignee). A single's entry j blocks when he is unassigned or holds a worse
 * entry and h_j wants him (type 1). A couple's entry j = (h1, h2), preferred to its current
 * pair p = (P1, P2) (or unassigned), blocks when
 *   2a  P2 == h2 and h1 wants the first member, counting h1's assignees other than the
 *       second member (who stays; if h1 == h2 he holds one of its posts),
 *   2b  P1 == h1, the same for the second member at h2,
 *   3a  h1 != h2 (neither equal to the member's current hospital) and h1 wants the first,
 *       h2 the second, counting every assignee (the partner included, as the definition
 *       is written),
 *   3b-d h1 == h2 == h (neither member there): h wants the better-ranked member with one post
 *       to spare (fewer than capacity - 1 assignees above him) and the other (fewer than
 *       capacity above him): two free posts, or one and a worse assignee, or two worse ones.
 *
 * Under domains, "certainly" uses the most residents that may be above r (every resident
 * possibly at h) and "possibly" the fewest (those surely there); the couple's own members
 * are placed exactly, value by value. */
#include "smc_hrc_count.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct scratch {
  int32_t *poss;                /* per slot: domain values that place the slot's resident there */
  int32_t *poss_before;         /* per slot: residents possibly at the hospital, ranked above */
  int32_t *sure_before;         /* per slot: residents surely there, ranked above */
  int32_t *sure_total;          /* per hospital */
  int32_t *fill;                /* per hospital: it must be full of residents above this slot */
  int32_t *amin, *amax, *asize; /* per variable, at entry */
  uint8_t *counted;             /* per entry: blocks under every value of its variable */
  int32_t *vlb;                 /* per variable: its share of the lower bound (see bounds) */
  int32_t *vub;                 /* per variable: its pairs that may block (its part of the upper bound) */
  int64_t *vslack;              /* per variable: how many of its pairs beyond vlb may still block */
  int32_t *vcert;               /* per couple value (at var_start[v] + v + p): its pairs certain under p */
  int32_t *values;              /* one variable's domain */
  int *runs;                    /* one variable's domain as runs (the counting pass) */
} scratch;

typedef struct prop {
  const bb_smc_hrc *d;
  const bb_smc_domains *dom;
  const bb_smc_hrc_budgets *b; /* NULL or without own_min/own_max: no budgets */
  scratch s;
  bool failed, changed;
  bb_smc_hrc_memo *m;           /* NULL: nothing kept */
  const bb_smc_hrc_changes *ch; /* NULL: every variable compared */
} prop;

static void apply(prop *P, bb_smc_status r) {
  if (r == BB_SMC_FAILED) P->failed = true;
  if (r == BB_SMC_CHANGED) P->changed = true;
}

static bool sure(const prop *P, int32_t slot) { return bb_smc_hrc_sure(P->d, P->s.poss, P->s.asize, slot); }

/* Whether the residue counted at `slot` in the certain (max) or possible (min) count. */
static bool counted_in(const prop *P, int32_t slot, bool certain) {
  return certain ? P->s.poss[slot] > 0 : sure(P, slot);
}

static int32_t before(const prop *P, int32_t slot, bool certain) {
  return certain ? P->s.poss_before[slot] : P->s.sure_before[slot];
}

/* Whether couple variable v's entry j blocks when the couple holds value p (> j), with the
 * other residents counted at their most (certain) or fewest (!certain). */
static bool couple_blocks(const prop *P, int v, int j, int p, bool certain) {
  const bb_smc_hrc *d = P->d;
  uint32_t e = d->var_start[v] + (uint32_t)j;
  int len = bb_smc_hrc_len(d, v);
  int h1 = d->e_h1[e], h2 = d->e_h2[e];
  int32_t s1 = d->e_s1[e], s2 = d->e_s2[e], x21 = d->e_x21[e], x12 = d->e_x12[e];
  /* assignees at or above each member (before the end of his tie, himself aside), the
   * couple's own members left out */
  int32_t end1 = bb_smc_hrc_tie_end(d, s1), end2 = bb_smc_hrc_tie_end(d, s2);
  int32_t others1 = before(P, s1, certain) - (x21 >= 0 && x21 < end1 && counted_in(P, x21, certain));
  int32_t others2 = before(P, s2, certain) - (x12 >= 0 && x12 < end2 && counted_in(P, x12, certain));
  int cap1 = d->capacity[h1], cap2 = d->capacity[h2];
  int P1 = -1, P2 = -1;
  int32_t ps1 = -1, ps2 = -1;
  if (p < len) {
    uint32_t f = d->var_start[v] + (uint32_t)p;
    P1 = d->e_h1[f];
    P2 = d->e_h2[f];
    ps1 = d->e_s1[f];
    ps2 = d->e_s2[f];
  }
  if (p < len && P2 == h2) return others1 + (h1 == h2) < cap1; /* 2a */
  if (p < len && P1 == h1) return others2 + (h1 == h2) < cap2; /* 2b */
  if (h1 != h2)                                                /* 3a */
    return others1 + (P2 == h1 && ps2 < end1) < cap1 && others2 + (P1 == h2 && ps1 < end2) < cap2;
  /* tied members count the same residents: either order gives the same test */
  int32_t above_better = s1 < s2 ? others1 : others2, above_worse = s1 < s2 ? others2 : others1;
  return above_better < cap1 - 1 && above_worse < cap1; /* 3b-d */
}

/* The resident at `slot` leaves its hospital, or is placed there. */
static void remove_at(prop *P, int32_t slot) {
  const bb_smc_hrc *d = P->d;
  assert(slot >= 0);
  int v = d->slot_var[slot];
  assert(v < d->n_vars);
  if (v < 0) return;
  if (v < d->n_singles) {
    if (d->slot_entry[slot] >= 0) apply(P, P->dom->remove(P->dom->ctx, v, d->slot_entry[slot]));
    return;
  }
  const int32_t *member_slot = d->slot_member[slot] ? d->e_s2 : d->e_s1;
  int len = bb_smc_hrc_len(d, v);
  for (int k = 0; k < len && !P->failed; k++)
    if (member_slot[d->var_start[v] + (uint32_t)k] == slot && P->dom->contains(P->dom->ctx, v, k))
      apply(P, P->dom->remove(P->dom->ctx, v, k));
}

static void force_at(prop *P, int32_t slot) {
  const bb_smc_hrc *d = P->d;
  assert(slot >= 0);
  int v = d->slot_var[slot];
  assert(v < d->n_vars);
  if (v < 0) {
    P->failed = true;
    return;
  }
  int len = bb_smc_hrc_len(d, v);
  const int32_t *member_slot = v < d->n_singles ? d->e_s1 : d->slot_member[slot] ? d->e_s2 : d->e_s1;
  for (int k = 0; k <= len && !P->failed; k++)
    if ((k == len || member_slot[d->var_start[v] + (uint32_t)k] != slot) && P->dom->contains(P->dom->ctx, v, k))
      apply(P, P->dom->remove(P->dom->ctx, v, k));
}

/* Several requests at one hospital: the first slot's implies the others' (or, within one
 * tie, is one of them: keeping one is sound). */
static void request_fill(prop *P, int h, int32_t slot) {
  if (slot < P->s.fill[h]) P->s.fill[h] = slot;
  bb_smc_hrc_memo *m = P->m;
  if (!m || m->request[slot]) return;
  m->request[slot] = 1;
  m->requests[h]++;
  m->asks[P->d->slot_var[slot]]++;
  if (!m->hmark[h]) m->hlist[m->n_hlist++] = h;
  m->hmark[h] |= 1;
}

/* Hospital h must hold capacity(h) residents it ranks at or above `slot`'s (before the end of
 * his tie, himself aside): nobody below that tie, nor at the slot, and, when exactly that many
 * may be there, all of them. */
static void fill(prop *P, int h) {
  const bb_smc_hrc *d = P->d;
  int32_t s = P->s.fill[h], end = bb_smc_hrc_tie_end(d, s);
  if (P->s.poss_before[s] < d->capacity[h]) {
    P->failed = true;
    return;
  }
  for (uint32_t t = (uint32_t)s; t < d->hosp_start[h + 1] && !P->failed; t++)
    if (P->s.poss[t] > 0 && (t == (uint32_t)s || t >= (uint32_t)end)) {
      if (sure(P, (int32_t)t))
        P->failed = true;
      else
        remove_at(P, (int32_t)t);
    }
  if (P->s.poss_before[s] == d->capacity[h])
    for (uint32_t t = d->hosp_start[h]; t < (uint32_t)end && !P->failed; t++)
      if (t != (uint32_t)s && P->s.poss[t] > 0 && !sure(P, (int32_t)t)) force_at(P, (int32_t)t);
}

static void free_scratch(scratch *s) {
  free(s->poss);
  free(s->poss_before);
  free(s->sure_before);
  free(s->sure_total);
  free(s->fill);
  free(s->amin);
  free(s->amax);
  free(s->asize);
  free(s->counted);
  free(s->vlb);
  free(s->vub);
  free(s->vslack);
  free(s->vcert);
  free(s->values);
  free(s->runs);
}

/* A propagation's arrays, kept between propagations (smc_hrc.h): each holds at least the
 * counts below, so a constraint no larger than the biggest served allocates nothing. */
struct bb_smc_hrc_scratch {
  scratch s;
  size_t slots, hosp, vars, entries, longest;
};

bb_smc_hrc_scratch *bb_smc_hrc_scratch_new(void) { return calloc(1, sizeof(bb_smc_hrc_scratch)); }

void bb_smc_hrc_scratch_free(bb_smc_hrc_scratch *x) {
  if (!x) return;
  free_scratch(&x->s);
  free(x);
}

static size_t at_least(size_t have, size_t need) { return have > need ? have : need; }

/* Makes x's arrays fit d (reallocated only when d needs more than they hold) and, with clear
 * (without a memo, whose own arrays the passes then use), clears what the passes only add to or
 * set: vlb, vub and counted. Every other array is written before it is read (poss by the
 * counting pass). False when out of memory (x then holds nothing). */
static bool fit_scratch(const bb_smc_hrc *d, bb_smc_hrc_scratch *x, bool clear) {
  size_t slots = d->hosp_start[d->n_hospitals] + 1, hosp = (size_t)d->n_hospitals + 1, vars = (size_t)d->n_vars + 1;
  size_t entries = d->var_start[d->n_vars] + 1, longest = (size_t)d->longest + 1;
  if (slots > x->slots || hosp > x->hosp || vars > x->vars || entries > x->entries || longest > x->longest) {
    free_scratch(&x->s);
    scratch *s = &x->s;
    x->slots = at_least(x->slots, slots), x->hosp = at_least(x->hosp, hosp), x->vars = at_least(x->vars, vars);
    x->entries = at_least(x->entries, entries), x->longest = at_least(x->longest, longest);
    s->poss = malloc(x->slots * sizeof *s->poss);
    s->poss_before = malloc(x->slots * sizeof *s->poss_before);
    s->sure_before = malloc(x->slots * sizeof *s->sure_before);
    s->sure_total = malloc(x->hosp * sizeof *s->sure_total);
    s->fill = malloc(x->hosp * sizeof *s->fill);
    s->amin = malloc(x->vars * sizeof *s->amin);
    s->amax = malloc(x->vars * sizeof *s->amax);
    s->asize = malloc(x->vars * sizeof *s->asize);
    s->counted = malloc(x->entries);
    s->vlb = malloc(x->vars * sizeof *s->vlb);
    s->vub = malloc(x->vars * sizeof *s->vub);
    s->vslack = malloc(x->vars * sizeof *s->vslack);
    s->vcert = malloc((x->entries + x->vars) * sizeof *s->vcert);
    s->values = malloc(x->longest * sizeof *s->values);
    s->runs = malloc((x->longest + 1) * sizeof *s->runs);
    if (!(s->poss && s->poss_before && s->sure_before && s->sure_total && s->fill && s->amin && s->amax && s->asize &&
          s->counted && s->vlb && s->vub && s->vslack && s->vcert && s->values && s->runs)) {
      free_scratch(s);
      memset(x, 0, sizeof *x);
      return false;
    }
  }
  if (!clear) return true;
  memset(x->s.counted, 0, entries);
  memset(x->s.vlb, 0, vars * sizeof *x->s.vlb);
  memset(x->s.vub, 0, vars * sizeof *x->s.vub);
  return true;
}

/* The values of v in its domain (at most its list length + 1), ascending. A host's `values`
 * reads them in one pass (Gecode: over the ranges), where asking `contains` for each rank of
 * the bounds walks the ranges once per rank; the domain only shrank since the counting pass,
 * so both give the same values. */
static int domain_values(prop *P, int v) {
  int n = 0;
  assert(P->s.amin[v] >= 0 && P->s.amax[v] <= bb_smc_hrc_len(P->d, v)); /* ranks 0..len */
  if (P->dom->values) return P->dom->values(P->dom->ctx, v, P->s.values);
  for (int k = P->s.amin[v]; k <= P->s.amax[v]; k++)
    if (P->dom->contains(P->dom->ctx, v, k)) P->s.values[n++] = k;
  return n;
}

/* Pass 0: who may be where, and prefix counts down each hospital's list (smc_hrc_count.c: on the
 * host, or on the path's engine), in the scratch or, with a memo, in the memo's arrays, which
 * the passes then read (none of them writes the counts). False when out of memory. */
static bool census(prop *P, bb_smc_hrc_memo *m) {
  bb_smc_hrc_counts c = {P->s.poss, P->s.poss_before, P->s.sure_before, P->s.sure_total,
                         P->s.amin, P->s.amax,        P->s.asize,       P->s.runs};
  bool nomem = false, fits;
  if (m) {
    fits = bb_smc_hrc_count_memo(P->d, P->dom, (bb_smc_path)P->d->path, m, P->ch, &nomem);
    c = m->c;
    P->s.poss = c.poss, P->s.poss_before = c.poss_before, P->s.sure_before = c.sure_before;
    P->s.sure_total = c.sure_total, P->s.amin = c.amin, P->s.amax = c.amax, P->s.asize = c.asize;
    P->s.vlb = m->vlb, P->s.vub = m->vub, P->s.vcert = m->vcert, P->s.counted = m->counted;
    P->s.vslack = m->vslack;
  } else {
    fits = bb_smc_hrc_count(P->d, P->dom, (bb_smc_path)P->d->path, &c);
  }
  if (!fits) P->failed = true;
  return !nomem;
}

/* Capacities: a full hospital takes nobody new; a couple's pair must fit both members. */
static void capacity_full(prop *P, int h) {
  const bb_smc_hrc *d = P->d;
  if (P->s.sure_total[h] == d->capacity[h])
    for (uint32_t t = d->hosp_start[h]; t < d->hosp_start[h + 1] && !P->failed; t++)
      if (P->s.poss[t] > 0 && !sure(P, (int32_t)t)) remove_at(P, (int32_t)t);
}

static void capacity_couple(prop *P, int v) {
  const bb_smc_hrc *d = P->d;
  int n = domain_values(P, v), len = bb_smc_hrc_len(d, v);
  for (int i = 0; i < n && !P->failed; i++) {
    int k = P->s.values[i];
    if (k >= len) continue;
    uint32_t e = d->var_start[v] + (uint32_t)k;
    int h1 = d->e_h1[e], h2 = d->e_h2[e], new1 = !sure(P, d->e_s1[e]), new2 = !sure(P, d->e_s2[e]);
    bool over = h1 == h2 ? P->s.sure_total[h1] + new1 + new2 > d->capacity[h1]
                         : P->s.sure_total[h1] + new1 > d->capacity[h1] || P->s.sure_total[h2] + new2 > d->capacity[h2];
    if (over) apply(P, P->dom->remove(P->dom->ctx, v, k));
  }
}

/* Every hospital and couple (whole), or, with the memo, only the hospitals recounted and the
 * couples that list one of them (a couple that changed lists the hospitals it made recounted):
 * the others read the same counts and the same domain as at the last propagation, which removed
 * nothing for them (a removal changes the counts). */

static void capacities(prop *P, bool whole) {
  const bb_smc_hrc *d = P->d;
  bb_smc_hrc_memo *m = P->m;
  if (!whole) /* in the whole pass's order: the same modifications in the same order (CHB counts them) */
    bb_smc_hrc_sort_ids(m->dirty_list, m->n_dirty, m->sort_tmp);
  if (whole) {
    for (int i = 0; m && i < m->n_couples; i++) m->vmark[m->couples[i]] &= (uint8_t)~2u;
    if (m) m->n_couples = 0;
    for (int h = 0; h < d->n_hospitals && !P->failed; h++) capacity_full(P, h);
    for (int v = d->n_singles; v < d->n_vars && !P->failed; v++) capacity_couple(P, v);
    return;
  }
  /* the couples whose domain or a hospital's sure total moved (recount marked them): the others
   * read what they read at the last propagation */
  for (int i = 0; i < m->n_dirty; i++) capacity_full(P, m->dirty_list[i]);
  bb_smc_hrc_sort_ids(m->couples, m->n_couples, m->sort_tmp);
  for (int i = 0; i < m->n_couples; i++) {
    int v = m->couples[i];
    m->vmark[v] &= (uint8_t)~2u;
    if (!P->failed) capacity_couple(P, v);
  }
  m->n_couples = 0;
}

/* v's pairs that block in every completion where v takes value p (> j for each entry j
 * counted; everybody else at their most). */
static int32_t couple_certain(const prop *P, int v, int p) {
  const bb_smc_hrc *d = P->d;
  int len = bb_smc_hrc_len(d, v);
  int32_t certain = 0;
  for (int j = 0; j < p && j < len; j++)
    if (d->e_s1[d->var_start[v] + (uint32_t)j] >= 0 && couple_blocks(P, v, j, p, true)) certain++;
  return certain;
}

/* Pass A: the bounds. Each pair belongs to one variable's list, so the lower bound is a sum
 * over variables of the fewest of its own pairs that surely block, whatever value it takes:
 * min over p in D(v) of the pairs certain under p. For a single that is the entries above
 * his minimum that surely want him (certainty only grows with p); for a couple the case
 * (2a/2b/3) changes with p, so the minimum over values can exceed the count of entries
 * certain under every value (counted[]), e.g. a couple whose every remaining pair leaves a
 * different better pair blocking contributes 1 where no single entry is certain. */
static void bound_single(prop *P, int v) {
  const bb_smc_hrc *d = P->d;
  int len = bb_smc_hrc_len(d, v);
  P->s.vlb[v] = P->s.vub[v] = 0;
  memset(P->s.counted + d->var_start[v], 0, (size_t)len);
  for (int j = 0; j < len && j < P->s.amax[v]; j++) {
    uint32_t e = d->var_start[v] + (uint32_t)j;
    int32_t s = d->e_s1[e];
    if (s < 0) continue;
    int cap = d->capacity[d->e_h1[e]];
    if (P->s.amin[v] > j && P->s.poss_before[s] < cap) {
      P->s.vlb[v]++;
      P->s.counted[e] = 1;
    }
    if (P->s.sure_before[s] < cap) P->s.vub[v]++;
  }
}

static void bound_couple(prop *P, int v) {
  const bb_smc_hrc *d = P->d;
  int n = domain_values(P, v), len = bb_smc_hrc_len(d, v);
  P->s.vub[v] = 0;
  memset(P->s.counted + d->var_start[v], 0, (size_t)len);
  for (int j = 0; j < len && j < P->s.amax[v]; j++) {
    uint32_t e = d->var_start[v] + (uint32_t)j;
    if (d->e_s1[e] < 0) continue;
    bool all = P->s.amin[v] > j, any = false;
    for (int i = 0; i < n; i++) {
      int p = P->s.values[i];
      if (p <= j) continue;
      if (all && !couple_blocks(P, v, j, p, true)) all = false;
      if (!any && couple_blocks(P, v, j, p, false)) any = true;
    }
    P->s.counted[e] = all;
    P->s.vub[v] += any;
  }
  int32_t fewest = INT32_MAX;
  for (int i = 0; i < n; i++) { /* every value: prune reads vcert */
    int32_t c = couple_certain(P, v, P->s.values[i]);
    P->s.vcert[d->var_start[v] + (uint32_t)v + (uint32_t)P->s.values[i]] = c;
    if (c < fewest) fewest = c;
  }
  P->s.vlb[v] = n > 0 ? fewest : 0;
}

/* Every variable's part, or (listed) only those the memo's redo marks (clearing the marks): a
 * variable's part reads only its own domain and the counts at the hospitals of its list, so
 * the others' parts, kept from the last pass on the same counts, stand, and the sums of the
 * parts move by the difference of those made again. Those are the memo's touched, ascending. */
static void bounds(prop *P, bool listed, int64_t *lb, int64_t *ub) {
  const bb_smc_hrc *d = P->d;
  bb_smc_hrc_memo *m = P->m;
  if (listed) {
    for (int i = 0; i < m->n_redo; i++) {
      int v = m->redo_list[i];
      m->sum_lb -= P->s.vlb[v], m->sum_ub -= P->s.vub[v];
      (v < d->n_singles ? bound_single : bound_couple)(P, v);
      m->sum_lb += P->s.vlb[v], m->sum_ub += P->s.vub[v];
      m->redo[v] = 0;
      m->touched[m->n_touched++] = v;
    }
    m->n_redo = 0;
    *lb = m->sum_lb;
    *ub = m->sum_ub;
    return;
  }
  int64_t low = 0, high = 0;
  for (int v = 0; v < d->n_vars; v++) {
    (v < d->n_singles ? bound_single : bound_couple)(P, v);
    low += P->s.vlb[v];
    high += P->s.vub[v];
  }
  if (m) m->sum_lb = low, m->sum_ub = high;
  *lb = low;
  *ub = high;
}

/* Each variable's slack: how many of its own pairs beyond its share may still block. bp's
 * slack, counting every other variable u at max(share(u), own_min[u]) (own[u] is at least
 * both in every completion), and v's own budget own_max[v] - share(v), whichever is smaller.
 * Fails when a budget cannot be met. */
static void slacks(prop *P, int64_t bp_max, bool listed, bool *all) {
  const bb_smc_hrc *d = P->d;
  if (P->m) {
    if (!bb_smc_hrc_memo_slacks(P->m, d, bp_max, listed, all)) P->failed = true;
    return;
  }
  *all = true;
  bb_smc_hrc_slack_arrays a = {P->s.vlb, P->s.vub,   P->b ? P->b->own_min : NULL, P->b ? P->b->own_max : NULL,
                               NULL,     P->s.vslack};
  int64_t low;
  if (!bb_smc_hrc_slacks_whole(d->n_vars, &a, bp_max, &low)) P->failed = true;
}

/* Pass B, cost-based: fixing variable v to p makes certain the pairs of v's own list that
 * block for sure under p (hospitals' counts from everybody else at their most); the pairs
 * counted in lb for other variables stay certain. So p goes when lb - (v's pairs counted) +
 * (v's pairs certain under p) > bp_max, or when v's pairs certain under p exceed its budget:
 * (v's pairs certain under p) - (v's pairs counted) > v's slack (slacks). With no slack for v
 * no pair of v's beyond those counted may block: a hospital that a single (or a fixed couple) surely prefers, and whose
 * wanting him is the only condition left, must be full of residents it ranks higher. */
static void prune_single(prop *P, int v) {
  const bb_smc_hrc *d = P->d;
  int len = bb_smc_hrc_len(d, v);
  int64_t counted = P->s.vlb[v], certain = 0, slack = P->s.vslack[v];
  for (int j = 0; j < len && j < P->s.amax[v]; j++) {
    uint32_t e = d->var_start[v] + (uint32_t)j;
    int32_t s = d->e_s1[e];
    if (s < 0) continue;
    int h = d->e_h1[e];
    if (P->s.poss_before[s] < d->capacity[h]) { /* h surely wants him: every value past j pays */
      if (++certain - counted > slack) {
        apply(P, P->dom->lower_max(P->dom->ctx, v, j));
        return;
      }
    } else if (slack == 0 && P->s.amin[v] > j && !P->s.counted[e]) {
      request_fill(P, h, s); /* he surely prefers h: h is full of better */
    }
  }
}

static void prune_couple(prop *P, int v) {
  const bb_smc_hrc *d = P->d;
  int n = domain_values(P, v), len = bb_smc_hrc_len(d, v);
  int64_t counted = P->s.vlb[v], slack = P->s.vslack[v];
  for (int i = 0; i < n && !P->failed; i++) {
    int p = P->s.values[i];
    /* the domain only shrank since bounds: vcert holds every value left */
    if (P->s.vcert[d->var_start[v] + (uint32_t)v + (uint32_t)p] - counted > slack)
      apply(P, P->dom->remove(P->dom->ctx, v, p));
  }
  /* Fixed at entry (asize, not n): counted[] and the share were computed from the entry
   * domains, and only for a couple fixed then are the counted entries exactly its pairs
   * certain under its value. A couple fixed by this pass's pruning may owe its share to an
   * entry certain under its one remaining value but not counted (the share is a minimum
   * over values), and demanding that entry not block would lose solutions. */
  if (slack > 0 || P->s.asize[v] != 1 || n != 1 || P->failed) return;
  /* A fixed couple that prefers entry j: where exactly one hospital decides whether j
   * blocks, that hospital must be full of residents it ranks above the member. */
  int p = P->s.values[0];
  for (int j = 0; j < len && j < p; j++) {
    uint32_t e = d->var_start[v] + (uint32_t)j;
    if (d->e_s1[e] < 0 || P->s.counted[e]) continue;
    int h1 = d->e_h1[e], h2 = d->e_h2[e];
    uint32_t f = d->var_start[v] + (uint32_t)p;
    bool two_a = p < len && d->e_h2[f] == h2, two_b = p < len && d->e_h1[f] == h1;
    /* 2a/2b at one hospital h (the stayer at h holds one of its posts): j blocks unless h holds
     * capacity - 1 others at or above the mover besides the stayer; with the stayer himself at or
     * above the mover (before the end of his tie) that is the fill at the mover's slot. */
    int32_t mover = two_a ? d->e_s1[e] : d->e_s2[e], stayer = two_a ? d->e_s2[e] : d->e_s1[e];
    if (h1 == h2) {
      if ((two_a || two_b) && stayer < bb_smc_hrc_tie_end(d, mover)) request_fill(P, h1, mover);
    } else if (two_a || two_b)
      request_fill(P, two_a ? h1 : h2, mover);
    else if (P->s.poss_before[d->e_s1[e]] < d->capacity[h1])
      request_fill(P, h2, d->e_s2[e]); /* 3a */
    else if (P->s.poss_before[d->e_s2[e]] < d->capacity[h2])
      request_fill(P, h1, d->e_s1[e]);
  }
}

/* Withdraws a slot's request (kept in the memo) before its variable's pruning is made again. */
static void unask(bb_smc_hrc_memo *m, const bb_smc_hrc *d, int32_t slot) {
  if (slot < 0 || !m->request[slot]) return;
  int h = d->slot_hosp[slot];
  m->request[slot] = 0;
  m->requests[h]--;
  m->asks[d->slot_var[slot]]--;
  if (!m->hmark[h]) m->hlist[m->n_hlist++] = h;
  m->hmark[h] |= 1;
}

static void withdraw(prop *P, int v) {
  const bb_smc_hrc *d = P->d;
  for (uint32_t e = d->var_start[v]; e < d->var_start[v + 1] && P->m->asks[v] > 0; e++) {
    unask(P->m, d, d->e_s1[e]);
    if (v >= d->n_singles) unask(P->m, d, d->e_s2[e]);
  }
}

/* The memo's hospitals whose requests changed or whose counts were made again: fill runs for
 * the first slot asked where that slot or the counts moved; elsewhere it would do what it did
 * at the last propagation, which removed nothing (a removal changes the counts). */
static void fill_marked(prop *P) {
  const bb_smc_hrc *d = P->d;
  bb_smc_hrc_memo *m = P->m;
  for (int i = 0; i < m->n_dirty; i++) {
    int h = m->dirty_list[i];
    if (!m->hmark[h]) m->hlist[m->n_hlist++] = h;
    m->hmark[h] |= 2;
  }
  bb_smc_hrc_sort_ids(m->hlist, m->n_hlist, m->sort_tmp); /* the whole pass's order */
  for (int i = 0; i < m->n_hlist; i++) {
    int h = m->hlist[i];
    int32_t first = INT32_MAX;
    for (uint32_t t = d->hosp_start[h]; m->requests[h] > 0 && t < d->hosp_start[h + 1]; t++)
      if (m->request[t]) {
        first = (int32_t)t;
        break;
      }
    if (first != INT32_MAX && !P->failed && (first != m->filled[h] || (m->hmark[h] & 2))) {
      P->s.fill[h] = first;
      fill(P, h);
    }
    m->filled[h] = first;
    m->hmark[h] = 0;
  }
  m->n_hlist = 0;
}

/* Every variable (whole), or, with the memo, those whose bounds were made again or whose slack
 * moved: the others' pruning reads what it read at the last propagation, which changed nothing
 * of their domains (a change is seen by the counts), and their requests stand. */
/* Whether single v's pruning does nothing with this slack: it removes values only past share +
 * slack certain pairs, of which there are at most vub, and asks for fills only at slack 0. */
static bool inert(const prop *P, int v, int64_t slack) {
  return v < P->d->n_singles && slack > 0 && slack >= (int64_t)P->s.vub[v] - P->s.vlb[v];
}

static void prune_again(prop *P, int v) {
  bb_smc_hrc_memo *m = P->m;
  bool touched = m->vmark[v] & 1, again = touched || P->s.vslack[v] != m->pslack[v];
  m->vmark[v] &= (uint8_t)~1u;
  if (!again || P->failed) return;
  if (!touched && inert(P, v, P->s.vslack[v]) && inert(P, v, m->pslack[v])) { /* bounds unchanged since */
    m->pslack[v] = P->s.vslack[v];
    return;
  }
  withdraw(P, v);
  m->pslack[v] = P->s.vslack[v];
  (v < P->d->n_singles ? prune_single : prune_couple)(P, v);
}

/* all: every variable's slack may have moved; else only those of the memo's candidates (which
 * hold the touched variables), which are then the only ones to look at, in ascending order. */
static void prune(prop *P, bool whole, bool all) {
  const bb_smc_hrc *d = P->d;
  bb_smc_hrc_memo *m = P->m;
  if (whole) {
    for (int h = 0; h < d->n_hospitals; h++) P->s.fill[h] = INT32_MAX;
    if (m) {
      memset(m->request, 0, d->hosp_start[d->n_hospitals]);
      memset(m->requests, 0, (size_t)d->n_hospitals * sizeof *m->requests);
      memset(m->asks, 0, (size_t)d->n_vars * sizeof *m->asks);
    }
    for (int v = 0; v < d->n_singles && !P->failed; v++) prune_single(P, v);
    for (int v = d->n_singles; v < d->n_vars && !P->failed; v++) prune_couple(P, v);
    for (int h = 0; h < d->n_hospitals && !P->failed; h++)
      if (P->s.fill[h] != INT32_MAX) fill(P, h);
    if (!m) return;
    for (int v = 0; v < d->n_vars; v++) m->pslack[v] = P->s.vslack[v];
    for (int h = 0; h < d->n_hospitals; h++) m->filled[h] = P->s.fill[h];
    for (int i = 0; i < m->n_hlist; i++) m->hmark[m->hlist[i]] = 0;
    m->n_hlist = 0;
    return;
  }
  for (int i = 0; i < m->n_touched; i++) m->vmark[m->touched[i]] |= 1;
  if (all) {
    for (int v = 0; v < d->n_vars; v++) prune_again(P, v);
  } else {
    for (int i = 0; i < m->n_cand; i++) prune_again(P, m->cand[i]);
  }
  fill_marked(P);
}

bb_smc_status bb_smc_hrc_propagate_changes(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                           const bb_smc_hrc_budgets *b, bb_smc_hrc_scratch *x, bb_smc_hrc_memo *m,
                                           const bb_smc_hrc_changes *ch, int64_t *lb, int64_t *ub) {
  prop P = {d, dom, b && b->own_min && b->own_max ? b : NULL, {0}, false, false, m, m ? ch : NULL};
  /* budget-less propagations make the slacks whole: no copies of budgets to build on */
  bool ready = P.b && bb_smc_hrc_memo_ready(m, d), all = true;
  if (m) {
    m->sums_valid = false; /* until this propagation ends */
    if (m->d == d)         /* the last propagation's candidates (its moved list until now) */
      bb_smc_hrc_memo_clear_cand(m);
    else
      m->n_cand = 0; /* its arrays are made anew for d */
  }
  bb_smc_hrc_scratch *own = x ? NULL : bb_smc_hrc_scratch_new();
  *lb = 0;
  *ub = 0;
  if (!x) x = own;
  if (!x || !fit_scratch(d, x, !m)) {
    bb_smc_hrc_scratch_free(own);
    bb_note_out_of_memory();
    return BB_SMC_NOMEM;
  }
  P.s = x->s;
  if (!census(&P, m)) {
    bb_smc_hrc_scratch_free(own);
    bb_note_out_of_memory();
    return BB_SMC_NOMEM;
  }
  bool listed = m && m->bounds_valid;
  /* the pruning made again only where it may differ: with the bounds and the pruning of the last
   * propagation kept, and the hospitals recounted known */
  bool whole = !(listed && m->prune_valid && m->n_dirty >= 0);
  if (m) {
    m->prune_valid = false;
    m->n_touched = 0;
    if (!listed) memset(m->redo, 0, (size_t)d->n_vars), m->n_redo = 0; /* every part is made below */
    m->bounds_valid = false;                                           /* until they are */
    bb_smc_hrc_sync_budgets(m, d, P.b, P.ch, ready);
  }
  if (!P.failed) {
    bounds(&P, listed, lb, ub);
    if (m) m->bounds_valid = true;
  }
  if (m && !P.failed) { /* the candidates: budgets moved (sync_budgets) and bounds made again */
    for (int i = 0; i < m->n_touched; i++) bb_smc_hrc_add_cand(m, m->touched[i]);
    bb_smc_hrc_sort_ids(m->cand, m->n_cand, m->sort_tmp);
  }
  if (!P.failed && *lb > bp_max) P.failed = true;
  /* the bounds at entry: every completion's own[v] lies within them; told what changed, only
   * where they were made again (the others' stand from the last propagation) */
  bool moved_only = P.ch && listed;
  if (m) m->moved_all = !moved_only;
  if (!P.failed && b) {
    int n = moved_only ? m->n_cand : d->n_vars;
    for (int i = 0; i < n; i++) {
      int v = moved_only ? m->cand[i] : i;
      if (b->own_lb) b->own_lb[v] = P.s.vlb[v];
      if (b->own_ub) b->own_ub[v] = P.s.vub[v];
    }
  }
  if (!P.failed) slacks(&P, bp_max, ready && !whole, &all);
  if (!P.failed) capacities(&P, whole);
  if (!P.failed) prune(&P, whole, all);
  if (m && !P.failed) m->prune_valid = m->sums_valid = true;
  bb_smc_hrc_scratch_free(own);
  return P.failed ? BB_SMC_FAILED : P.changed ? BB_SMC_CHANGED : BB_SMC_FIX;
}

int64_t bb_smc_hrc_share(const bb_smc_hrc *d, const bb_smc_domains *dom, int v) {
  prop P = {d, dom, NULL, {0}, false, false, NULL, NULL};
  int64_t lb = -1, ub, share = -1;
  bb_smc_hrc_scratch *x = v < 0 || v >= d->n_vars ? NULL : bb_smc_hrc_scratch_new();
  if (!x || !fit_scratch(d, x, true)) {
    bb_smc_hrc_scratch_free(x);
    return -1;
  }
  P.s = x->s;
  (void)census(&P, NULL); /* no memo: nothing to allocate */
  if (!P.failed) {
    bounds(&P, false, &lb, &ub);
    share = P.s.vlb[v];
  }
  bb_smc_hrc_scratch_free(x);
  return share;
}
