/* The HRC propagation's counting pass (smc_hrc_count.h): who may be where, and prefix counts down
 * each hospital's list. The host's version, whole or for the variables whose domains changed
 * since the counts a memo keeps; smc_hrc_accel.c runs the whole pass on an engine. */
#include "smc_hrc_count.h"
#include "smc_hrc_path.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Reads variable v's domain into c (bb_smc_hrc_read_var) and adds it to its slots' poss. */
static void add_var(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_hrc_counts *c, int v) {
  int runs = bb_smc_hrc_read_var(dom, c, v), len = bb_smc_hrc_len(d, v);
  for (int r = 0; r < runs; r++)
    for (int k = c->runs[2 * r]; k <= c->runs[2 * r + 1] && k < len; k++) {
      uint32_t e = d->var_start[v] + (uint32_t)k;
      if (d->e_s1[e] < 0) continue; /* not acceptable */
      c->poss[d->e_s1[e]]++;
      if (v >= d->n_singles) c->poss[d->e_s2[e]]++;
    }
}

/* With ties, "before slot t" is every resident the hospital ranks at or above t's, t aside: the
 * count through the end of t's tie, less t's own. Corrects hospital h's strict prefix counts
 * so (a tie lies within one hospital's list). */
static void ties(const bb_smc_hrc *d, bb_smc_hrc_counts *c, int h) {
  for (int32_t t = (int32_t)d->hosp_start[h], end_h = (int32_t)d->hosp_start[h + 1]; t < end_h;) {
    int32_t end = d->tie_end[t], last = end - 1;
    int32_t may = c->poss_before[last] + (c->poss[last] > 0);
    int32_t must = c->sure_before[last] + bb_smc_hrc_sure(d, c->poss, c->asize, last);
    for (; t < end; t++) {
      c->poss_before[t] = may - (c->poss[t] > 0);
      c->sure_before[t] = must - bb_smc_hrc_sure(d, c->poss, c->asize, t);
    }
  }
}

/* Hospital h's prefix counts from its slots' poss. */
static void prefix(const bb_smc_hrc *d, bb_smc_hrc_counts *c, int h) {
  int32_t may = 0, must = 0;
  for (int32_t t = (int32_t)d->hosp_start[h]; t < (int32_t)d->hosp_start[h + 1]; t++) {
    c->poss_before[t] = may;
    c->sure_before[t] = must;
    may += c->poss[t] > 0;
    must += bb_smc_hrc_sure(d, c->poss, c->asize, t);
  }
  c->sure_total[h] = must;
  if (d->tie_end) ties(d, c, h);
}

static void count_on_host(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_hrc_counts *c) {
  memset(c->poss, 0, ((size_t)d->hosp_start[d->n_hospitals] + 1) * sizeof *c->poss);
  for (int v = 0; v < d->n_vars; v++) add_var(d, dom, c, v);
  for (int h = 0; h < d->n_hospitals; h++) prefix(d, c, h);
}

void bb_smc_hrc_set_path(bb_smc_hrc *d, bb_smc_path path) { d->path = (int)path; }

static bool within_capacity(const bb_smc_hrc *d, const bb_smc_hrc_counts *c) {
  for (int h = 0; h < d->n_hospitals; h++)
    if (c->sure_total[h] > d->capacity[h]) return false;
  return true;
}

bool bb_smc_hrc_count(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_counts *c) {
  bool parallel = path == BB_SMC_PATH_GPU || path == BB_SMC_PATH_EMULATED;
  if (parallel && bb_smc_hrc_accel_count(d, dom, path, c)) {
    if (d->tie_end) /* the engine's prefix counts are strict */
      for (int h = 0; h < d->n_hospitals; h++) ties(d, c, h);
  } else {
    count_on_host(d, dom, c);
  }
  return within_capacity(d, c);
}

/* ---- The counts kept between propagations (smc_hrc.h's bb_smc_hrc_memo) ----------------------- */

bb_smc_hrc_memo *bb_smc_hrc_memo_new(void) { return calloc(1, sizeof(bb_smc_hrc_memo)); }

static void memo_release(bb_smc_hrc_memo *m) {
  bb_smc_hrc_counts *c = &m->c;
  free(c->poss), free(c->poss_before), free(c->sure_before), free(c->sure_total);
  free(c->amin), free(c->amax), free(c->asize), free(c->runs), free(m->dirty), free(m->dirty_list);
  free(m->redo), free(m->vlb), free(m->vub), free(m->vcert), free(m->counted), free(m->was);
  free(m->pslack), free(m->request), free(m->requests), free(m->asks), free(m->filled), free(m->touched),
      free(m->vmark);
  free(m->hmark), free(m->hlist), free(m->redo_list), free(m->couples);
  free(m->omin), free(m->omax), free(m->at_least), free(m->vslack), free(m->cand), free(m->sort_tmp);
  free(m->old_poss);
  bb_smc_hrc_release((bb_smc_hrc *)m->d);
  memset(m, 0, sizeof *m);
}

void bb_smc_hrc_memo_free(bb_smc_hrc_memo *m) {
  if (!m) return;
  memo_release(m);
  free(m);
}

void bb_smc_hrc_memo_forget(bb_smc_hrc_memo *m) {
  if (m) m->valid = m->sums_valid = false;
}

bool bb_smc_hrc_memo_ready(const bb_smc_hrc_memo *m, const bb_smc_hrc *d) {
  return m && m->d == d && m->valid && m->sums_valid;
}

int bb_smc_hrc_memo_moved(const bb_smc_hrc_memo *m, const int32_t **vars) {
  *vars = m->cand;
  return m->moved_all ? -1 : m->n_cand;
}

/* Makes m's arrays d's (forgetting the counts of another constraint); false when out of
 * memory (m then holds nothing). */
/* One of a memo's arrays: where its pointer lives, its size for d, and whether it starts zeroed. */
typedef struct memo_array {
  void **at;
  size_t bytes;
  bool zeroed;
} memo_array;

#define MEMO_ARRAYS 40

/* Every array of m, sized for d (memo_fit allocates them, bb_smc_hrc_memo_copy copies them). */
static int memo_arrays(const bb_smc_hrc *d, bb_smc_hrc_memo *m, memo_array *a) {
  size_t slots = (size_t)d->hosp_start[d->n_hospitals] + 1, hosp = (size_t)d->n_hospitals + 1;
  size_t vars = (size_t)d->n_vars + 1, longest = (size_t)d->longest, longest_h = 0;
  size_t entries = (size_t)d->var_start[d->n_vars] + 1, i4 = sizeof(int32_t);
  for (int h = 0; h < d->n_hospitals; h++)
    if (d->hosp_start[h + 1] - d->hosp_start[h] > longest_h) longest_h = d->hosp_start[h + 1] - d->hosp_start[h];
  bb_smc_hrc_counts *c = &m->c;
  int n = 0;
#define ARRAY(p, b, z) (a[n++] = (memo_array){(void **)&(p), (b), (z)})
  ARRAY(c->poss, slots * i4, false), ARRAY(c->poss_before, slots * i4, false);
  ARRAY(c->sure_before, slots * i4, false), ARRAY(c->sure_total, hosp * i4, false);
  ARRAY(c->amin, vars * i4, false), ARRAY(c->amax, vars * i4, false), ARRAY(c->asize, vars * i4, false);
  ARRAY(c->runs, (longest + 2) * sizeof *c->runs, false);
  ARRAY(m->dirty, hosp, true), ARRAY(m->dirty_list, hosp * i4, false), ARRAY(m->redo, vars, true);
  ARRAY(m->vlb, vars * i4, false), ARRAY(m->vub, vars * i4, false), ARRAY(m->vcert, (entries + vars) * i4, false);
  ARRAY(m->counted, entries, false), ARRAY(m->was, (2 * longest_h + 1) * i4, false);
  ARRAY(m->pslack, vars * sizeof *m->pslack, false), ARRAY(m->request, slots, false);
  ARRAY(m->requests, hosp * i4, false), ARRAY(m->asks, vars * i4, false), ARRAY(m->filled, hosp * i4, false);
  ARRAY(m->touched, vars * i4, false), ARRAY(m->vmark, vars, true), ARRAY(m->hmark, hosp, true);
  ARRAY(m->hlist, hosp * i4, false), ARRAY(m->redo_list, vars * i4, false), ARRAY(m->couples, vars * i4, false);
  ARRAY(m->omin, vars * i4, false), ARRAY(m->omax, vars * i4, false), ARRAY(m->at_least, vars * i4, false);
  ARRAY(m->vslack, vars * sizeof *m->vslack, false), ARRAY(m->cand, vars * i4, false);
  ARRAY(m->sort_tmp, (vars > hosp ? vars : hosp) * i4, false), ARRAY(m->old_poss, 2 * (longest + 1) * i4, false);
#undef ARRAY
  return n;
}

/* Makes m's arrays d's (forgetting the counts of another constraint); false when out of
 * memory (m then holds nothing). */
static bool memo_fit(const bb_smc_hrc *d, bb_smc_hrc_memo *m) {
  if (m->d == d) return true;
  memo_release(m);
  memo_array a[MEMO_ARRAYS];
  int n = memo_arrays(d, m, a);
  assert(n <= MEMO_ARRAYS);
  bool all = true;
  for (int i = 0; i < n; i++) {
    *a[i].at = a[i].zeroed ? calloc(a[i].bytes, 1) : malloc(a[i].bytes);
    all = all && *a[i].at;
  }
  if (!all) {
    memo_release(m);
    return false;
  }
  bb_smc_hrc_retain((bb_smc_hrc *)d); /* held, so that no other constraint takes its address */
  m->d = d;
  return true;
}

bb_smc_hrc_memo *bb_smc_hrc_memo_copy(const bb_smc_hrc_memo *from) {
  bb_smc_hrc_memo *m = bb_smc_hrc_memo_new();
  if (!m || !from->d) return m;
  if (!memo_fit(from->d, m)) {
    free(m);
    return NULL;
  }
  memo_array a[MEMO_ARRAYS], b[MEMO_ARRAYS];
  int n = memo_arrays(from->d, m, a);
  (void)memo_arrays(from->d, (bb_smc_hrc_memo *)from, b);
  bb_smc_hrc_memo arrays = *m;
  *m = *from; /* every count and flag, then m's own arrays back */
  for (int i = 0; i < n; i++) {
    void **mine = (void **)((char *)&arrays + ((char *)a[i].at - (char *)m));
    memcpy(*mine, *b[i].at, a[i].bytes);
    *a[i].at = *mine;
  }
  return m; /* memo_fit took m's hold on d */
}

/* Couple v's capacities (smc_hrc_propagate.c's capacity_couple) to check: they read its domain
 * and the sure totals of its hospitals only. */
static void mark_couple(bb_smc_hrc_memo *m, int v) {
  if (!(m->vmark[v] & 2)) m->vmark[v] |= 2, m->couples[m->n_couples++] = v;
}

static void mark(const bb_smc_hrc *d, bb_smc_hrc_memo *m, int32_t slot, int *n_dirty) {
  int h = d->slot_hosp[slot];
  if (!m->dirty[h]) m->dirty[h] = 1, m->dirty_list[(*n_dirty)++] = h;
}

/* Whether a slot reads differently: every pass reads a slot's poss only as "possibly there"
 * (> 0) and "surely there" (== its variable's size), so a hospital where neither moved at any
 * slot keeps its prefix counts, and its capacities and fills do what they did. */
static bool slot_moved(int32_t poss0, int32_t size0, int32_t poss1, int32_t size1) {
  return (poss0 > 0) != (poss1 > 0) || (poss0 > 0 && poss0 == size0) != (poss1 > 0 && poss1 == size1);
}

/* Counts v's domain again: its slots cleared and counted anew (no other variable places its
 * residents), the hospitals where one of them reads differently marked dirty. */
static void recount_var(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_hrc_memo *m, int v, int *n_dirty) {
  bb_smc_hrc_counts *c = &m->c;
  int len = bb_smc_hrc_len(d, v);
  bool couple = v >= d->n_singles;
  int32_t size0 = c->asize[v], *old = m->old_poss;
  const uint32_t first = d->var_start[v];
  for (int k = 0; k < len; k++) {
    if (d->e_s1[first + (uint32_t)k] < 0) continue;
    old[2 * k] = c->poss[d->e_s1[first + (uint32_t)k]];
    if (couple) old[2 * k + 1] = c->poss[d->e_s2[first + (uint32_t)k]];
  }
  for (int k = 0; k < len; k++) {
    if (d->e_s1[first + (uint32_t)k] < 0) continue;
    c->poss[d->e_s1[first + (uint32_t)k]] = 0;
    if (couple) c->poss[d->e_s2[first + (uint32_t)k]] = 0;
  }
  add_var(d, dom, c, v);
  for (int k = 0; k < len; k++) {
    int32_t s1 = d->e_s1[first + (uint32_t)k];
    if (s1 < 0) continue;
    if (slot_moved(old[2 * k], size0, c->poss[s1], c->asize[v])) mark(d, m, s1, n_dirty);
    int32_t s2 = couple ? d->e_s2[first + (uint32_t)k] : -1;
    if (s2 >= 0 && slot_moved(old[2 * k + 1], size0, c->poss[s2], c->asize[v])) mark(d, m, s2, n_dirty);
  }
}

/* The counts of the memo's last pass, brought to the domains now: a variable whose size is
 * unchanged has, the domains having only shrunk since, the same domain, and its slots keep
 * their counts; a changed one's slots (the slots of its residents, which no other variable
 * places) are cleared and counted again, and the hospitals they lie in get their prefix
 * counts again. The same numbers as a whole pass. */
static void recount(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_hrc_memo *m, const bb_smc_hrc_changes *ch) {
  bb_smc_hrc_counts *c = &m->c;
  int n_dirty = 0, listed = ch ? ch->n_vars : d->n_vars;
  for (int i = 0; i < m->n_couples; i++) m->vmark[m->couples[i]] &= (uint8_t)~2u; /* a failed one's */
  m->n_couples = 0;
  for (int i = 0; i < listed; i++) {
    int v = ch ? ch->vars[i] : i;
    if (dom->size(dom->ctx, v) == c->asize[v]) continue; /* unchanged, or listed twice */
    recount_var(d, dom, m, v, &n_dirty);
    bb_smc_hrc_mark_redo(m, v);
    if (v >= d->n_singles) mark_couple(m, v);
  }
  for (int i = 0; i < n_dirty; i++) {
    int h = m->dirty_list[i];
    uint32_t first = d->hosp_start[h], n = d->hosp_start[h + 1] - first;
    memcpy(m->was, c->poss_before + first, n * sizeof *m->was);
    memcpy(m->was + n, c->sure_before + first, n * sizeof *m->was);
    int32_t sure_was = c->sure_total[h];
    prefix(d, c, h);
    if (c->sure_total[h] != sure_was)
      for (uint32_t t = first; t < first + n; t++)
        if (d->slot_var[t] >= d->n_singles) mark_couple(m, d->slot_var[t]);
    m->dirty[h] = 0;
    /* a variable's part of the bounds reads the counts only at its own slots (poss, and at the
     * others' hospitals their prefix counts): made again where those moved. A single reads a
     * prefix count only against the capacity (bound_single, prune_single), so only a count that
     * crossed it moves his part; a couple's cases read it with offsets (couple_blocks). */
    int32_t cap = d->capacity[h];
    for (uint32_t k = 0; k < n; k++) {
      int v = d->slot_var[first + k];
      int32_t may = c->poss_before[first + k], must = c->sure_before[first + k];
      if (v < 0 || (m->was[k] == may && m->was[n + k] == must)) continue;
      if (v < d->n_singles && (m->was[k] < cap) == (may < cap) && (m->was[n + k] < cap) == (must < cap)) continue;
      bb_smc_hrc_mark_redo(m, v);
    }
  }
  m->n_dirty = n_dirty;
}

bool bb_smc_hrc_count_memo(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_memo *m,
                           const bb_smc_hrc_changes *ch, bool *nomem) {
  *nomem = false;
  if (!memo_fit(d, m)) {
    *nomem = true;
    return false;
  }
  bool parallel = path == BB_SMC_PATH_GPU || path == BB_SMC_PATH_EMULATED;
  if (!m->valid || parallel) {
    m->valid = m->bounds_valid = false; /* until the pass is whole; the bounds, all again */
    bool fits = bb_smc_hrc_count(d, dom, path, &m->c);
    m->valid = true;
    m->n_dirty = -1;
    return fits;
  }
  recount(d, dom, m, ch);
  return within_capacity(d, &m->c);
}
