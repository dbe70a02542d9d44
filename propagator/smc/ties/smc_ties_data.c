/* The native SMTI constraint's shared data (both sides' lists with their twins and tie extents,
 * built and checked once), a search node's memory and a propagator's work space. */
#include "smc_ties_internal.h"

#include <stdlib.h>
#include <string.h>

static const char WHO[] = "stable_matching_smti";

void bb_smc_ties_side_free(bb_smc_ties_side *s) {
  free(s->start);
  free(s->other);
  free(s->twin);
  free(s->first);
  free(s->last);
}

static void data_free(bb_smc_ties *t) {
  bb_smc_ties_side_free(&t->side[0]);
  bb_smc_ties_side_free(&t->side[1]);
  free(t);
}

bool bb_smc_ties_side_build(bb_smc_ties_side *s, const char *fn, const char *who, const char *mat, const char *rank_mat,
                            int n, int other, int base, const int *m, const int *len, int cols, const int *rank,
                            int rank_cols, int32_t *stamp, bb_error *err) {
  uint64_t total = 0;
  for (int i = 0; i < n; i++) {
    if (len[i] < 0 || len[i] > cols || len[i] > rank_cols || len[i] > other)
      return bb_fail(err, BB_ERR_INPUT, "%s: %s %d's list length is %d; %s has %d columns, %s %d, and there are %d ids",
                     fn, who, base + i, len[i], mat, cols, rank_mat, rank_cols, other),
             false;
    total += (uint64_t)len[i];
  }
  s->n = n;
  s->start = malloc(((size_t)n + 1) * sizeof *s->start);
  s->other = malloc((size_t)(total + 1) * sizeof *s->other);
  s->twin = malloc((size_t)(total + 1) * sizeof *s->twin);
  s->first = malloc((size_t)(total + 1) * sizeof *s->first);
  s->last = malloc((size_t)(total + 1) * sizeof *s->last);
  if (!s->start || !s->other || !s->twin || !s->first || !s->last)
    return bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the preference data", fn), false;
  for (int i = 0; i < other; i++) stamp[i] = -1;
  uint32_t at = 0;
  for (int i = 0; i < n; i++) {
    s->start[i] = at;
    const int *row = m + (size_t)i * (size_t)cols, *r = rank + (size_t)i * (size_t)rank_cols;
    for (int k = 0; k < len[i]; k++) {
      int id = row[k] - base;
      if (id < 0 || id >= other)
        return bb_fail(err, BB_ERR_INPUT, "%s: %s %d's list names %d, which is no id (%d..%d)", fn, who, base + i,
                       row[k], base, base + other - 1),
               false;
      if (stamp[id] == i)
        return bb_fail(err, BB_ERR_INPUT, "%s: %s %d's list names %d twice", fn, who, base + i, row[k]), false;
      if (k > 0 && r[k] < r[k - 1])
        return bb_fail(err, BB_ERR_INPUT, "%s: the ranks of %s %d (%s) decrease from %d to %d at position %d", fn, who,
                       base + i, rank_mat, r[k - 1], r[k], base + k),
               false;
      stamp[id] = i;
      s->other[at + (uint32_t)k] = (uint32_t)id;
      s->first[at + (uint32_t)k] = k > 0 && r[k] == r[k - 1] ? s->first[at + (uint32_t)k - 1] : k;
    }
    for (int k = len[i] - 1; k >= 0; k--)
      s->last[at + (uint32_t)k] = k + 1 < len[i] && r[k] == r[k + 1] ? s->last[at + (uint32_t)k + 1] : k;
    at += (uint32_t)len[i];
  }
  s->start[n] = at;
  return true;
}

/* b's entries are bucketed by the person of a they name (by_start, by_entry, owner), and while p
 * of a is handled at[q] holds the index of p's entry naming q (-1 elsewhere): O(entries) in all. */
bool bb_smc_ties_side_twins(bb_smc_ties_side *a, const bb_smc_ties_side *b, const char *fn, bb_error *err) {
  uint32_t nb = b->start[b->n];
  uint32_t *by_start = calloc((size_t)a->n + 2, sizeof *by_start),
           *by_entry = malloc(((size_t)nb + 1) * sizeof *by_entry);
  int32_t *owner = malloc(((size_t)nb + 1) * sizeof *owner), *at = malloc(((size_t)b->n + 1) * sizeof *at);
  bool ok = by_start && by_entry && owner && at;
  if (ok) {
    for (int q = 0; q < b->n; q++) {
      at[q] = -1;
      for (uint32_t f = b->start[q]; f < b->start[q + 1]; f++) owner[f] = q, by_start[b->other[f] + 2]++;
    }
    for (int p = 0; p < a->n; p++) by_start[p + 2] += by_start[p + 1];
    for (uint32_t f = 0; f < nb; f++) by_entry[by_start[b->other[f] + 1]++] = f;
    for (int p = 0; p < a->n; p++) {
      for (uint32_t e = a->start[p]; e < a->start[p + 1]; e++)
        at[a->other[e]] = (int32_t)e, a->twin[e] = BB_SMC_TIES_ONE_SIDED;
      for (uint32_t k = by_start[p]; k < by_start[p + 1]; k++) {
        uint32_t f = by_entry[k];
        if (at[owner[f]] >= 0) a->twin[at[owner[f]]] = f;
      }
      for (uint32_t e = a->start[p]; e < a->start[p + 1]; e++) at[a->other[e]] = -1;
    }
  } else {
    bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the preference data", fn);
  }
  free(by_start), free(by_entry), free(owner), free(at);
  return ok;
}

bb_smc_ties *bb_smc_ties_new(int n1, int n2, int base, const int *pm, const int *pm_len, int pm_cols,
                             const int *pm_rank, int pm_rank_cols, const int *pw, const int *pw_len, int pw_cols,
                             const int *pw_rank, int pw_rank_cols, bb_smc_stability stability, bb_error *err) {
  if (stability != BB_SMC_WEAK && stability != BB_SMC_STRONG && stability != BB_SMC_SUPER)
    return bb_fail(err, BB_ERR_ARG, "%s: stability %d; it must be weak, strong or super", WHO, (int)stability), NULL;
  static const char *const names[3] = {WHO, "stable_matching_smti_strong", "stable_matching_smti_super"};
  const char *who = names[stability];
  if (n1 < 0 || n2 < 0 || n1 > BB_MAX_N || n2 > BB_MAX_N || pm_cols < 0 || pw_cols < 0 || pm_rank_cols < 0 ||
      pw_rank_cols < 0 || (n1 && !pm_len) || (n2 && !pw_len) || (n1 && pm_cols && !pm) || (n2 && pw_cols && !pw) ||
      (n1 && pm_rank_cols && !pm_rank) || (n2 && pw_rank_cols && !pw_rank))
    return bb_fail(err, BB_ERR_ARG, "%s: bad sizes or arrays (%d men, %d women)", who, n1, n2), NULL;
  bb_smc_ties *t = calloc(1, sizeof *t);
  int32_t *stamp = malloc(((size_t)(n1 > n2 ? n1 : n2) + 1) * sizeof *stamp);
  if (!t || !stamp) {
    free(stamp);
    if (t) data_free(t);
    return bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the preference data", who), NULL;
  }
  t->n_men = n1, t->n_women = n2, t->base = base, t->stability = stability;
  atomic_init(&t->refs, 1);
  bool ok = bb_smc_ties_side_build(&t->side[0], who, "man", "pm", "pm_rank", n1, n2, base, pm, pm_len, pm_cols, pm_rank,
                                   pm_rank_cols, stamp, err) &&
            bb_smc_ties_side_build(&t->side[1], who, "woman", "pw", "pw_rank", n2, n1, base, pw, pw_len, pw_cols,
                                   pw_rank, pw_rank_cols, stamp, err);
  free(stamp);
  ok = ok && bb_smc_ties_side_twins(&t->side[0], &t->side[1], who, err) &&
       bb_smc_ties_side_twins(&t->side[1], &t->side[0], who, err);
  if (!ok) {
    data_free(t);
    return NULL;
  }
  return t;
}

bb_smc_ties *bb_smc_ties_retain(bb_smc_ties *t) {
  atomic_fetch_add(&t->refs, 1);
  return t;
}

void bb_smc_ties_release(bb_smc_ties *t) {
  if (t && atomic_fetch_sub(&t->refs, 1) == 1) data_free(t);
}

int bb_smc_ties_men(const bb_smc_ties *t) { return t->n_men; }
int bb_smc_ties_women(const bb_smc_ties *t) { return t->n_women; }
int bb_smc_ties_vars(const bb_smc_ties *t) { return t->n_men + t->n_women + 1; }

int bb_smc_ties_top(const bb_smc_ties *t, int var) {
  if (var >= t->n_men + t->n_women) return t->n_men;
  const bb_smc_ties_side *s = &t->side[bb_smc_ties_side_of(t, var)];
  int p = var < t->n_men ? var : var - t->n_men;
  return (int)(s->start[p + 1] - s->start[p]);
}

size_t bb_smc_ties_node_bytes(const bb_smc_ties *t) {
  (void)t;
  return sizeof(bb_smc_ties_node);
}

void bb_smc_ties_node_init(bb_smc_ties_node *node, const bb_smc_ties *t) {
  (void)t;
  node->root_done = 0;
}

static void graph_free(bb_smc_ties_graph *g) {
  free(g->alive);
  free(g->mate);
  free(g->reached);
  free(g->parent);
  free(g->queue);
}

static bool graph_new(bb_smc_ties_graph *g, const bb_smc_ties_side *side) {
  size_t n = (size_t)side->n + 1;
  g->side = side;
  g->alive = calloc((size_t)side->start[side->n] + 1, 1);
  g->mate = malloc(n * sizeof *g->mate);
  g->reached = calloc(n, sizeof *g->reached);
  g->parent = malloc(n * sizeof *g->parent);
  g->queue = malloc(n * sizeof *g->queue);
  if (!g->alive || !g->mate || !g->reached || !g->parent || !g->queue) return false;
  for (int p = 0; p < side->n; p++) g->mate[p] = -1;
  return true;
}

bb_smc_ties_scratch *bb_smc_ties_scratch_new(const bb_smc_ties *t, bb_error *err) {
  bb_smc_ties_scratch *s = calloc(1, sizeof *s);
  size_t persons = (size_t)t->n_men + (size_t)t->n_women + 1;
  bool ok = s != NULL;
  if (ok) {
    s->queue = malloc(persons * sizeof *s->queue);
    s->queued = calloc(persons, 1);
    s->comp = malloc(((size_t)t->n_men + 1) * sizeof *s->comp);
    ok = s->queue && s->queued && s->comp && graph_new(&s->g[0], &t->side[0]) && graph_new(&s->g[1], &t->side[1]) &&
         bb_smc_scc_work_new(&s->scc, t->n_men);
  }
  if (!ok) {
    bb_smc_ties_scratch_free(s);
    bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the propagator's work space", WHO);
    return NULL;
  }
  return s;
}

void bb_smc_ties_scratch_free(bb_smc_ties_scratch *s) {
  if (!s) return;
  free(s->queue);
  free(s->queued);
  graph_free(&s->g[0]);
  graph_free(&s->g[1]);
  free(s->comp);
  bb_smc_scc_work_free(&s->scc);
  free(s);
}

void bb_smc_ties_push(bb_smc_ties_scratch *s, int var) {
  if (!s->queued[var]) s->queued[var] = 1, s->queue[s->count++] = var;
}

/* size needs no note: the size rules run at every propagation. */
void bb_smc_ties_note(bb_smc_ties_scratch *s, const bb_smc_ties *t, int var) {
  if (var < t->n_men + t->n_women) bb_smc_ties_push(s, var);
}
