/* A toy host for the SMC core, shared by the core's tests: bitset domains (one byte per
 * variable and rank) and search nodes that pair them with the core's
 * node state. No Gecode. */
#ifndef BB_SMC_TOY_H
#define BB_SMC_TOY_H

#include "smc.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct toy {
  int n; /* ranks per variable (the row width) */
  int vars;
  uint8_t *in; /* vars x n */
} toy;

static inline int toy_min(void *c, int var) {
  toy *t = c;
  for (int v = 0; v < t->n; v++)
    if (t->in[var * t->n + v]) return v;
  return t->n;
}
static inline int toy_max(void *c, int var) {
  toy *t = c;
  for (int v = t->n - 1; v >= 0; v--)
    if (t->in[var * t->n + v]) return v;
  return -1;
}
static inline int toy_size(void *c, int var) {
  toy *t = c;
  int k = 0;
  for (int v = 0; v < t->n; v++) k += t->in[var * t->n + v];
  return k;
}
static inline bool toy_contains(void *c, int var, int value) {
  toy *t = c;
  return value >= 0 && value < t->n && t->in[var * t->n + value];
}
static inline int toy_values(void *c, int var, int *out) {
  toy *t = c;
  int k = 0;
  for (int v = 0; v < t->n; v++)
    if (t->in[var * t->n + v]) out[k++] = v;
  return k;
}
static inline bool toy_nonempty(toy *t, int var) { return toy_min(t, var) < t->n; }
static inline bool toy_remove(void *c, int var, int value) {
  toy *t = c;
  if (value >= 0 && value < t->n) t->in[var * t->n + value] = 0;
  return toy_nonempty(t, var);
}
static inline bool toy_lower_max(void *c, int var, int value) {
  toy *t = c;
  for (int v = value + 1; v < t->n; v++)
    if (v >= 0) t->in[var * t->n + v] = 0;
  return toy_nonempty(t, var);
}
static inline bool toy_raise_min(void *c, int var, int value) {
  toy *t = c;
  for (int v = 0; v < value && v < t->n; v++) t->in[var * t->n + v] = 0;
  return toy_nonempty(t, var);
}
static inline bool toy_assign(void *c, int var, int value) {
  toy *t = c;
  bool had = toy_contains(t, var, value);
  memset(t->in + var * t->n, 0, (size_t)t->n);
  if (had) t->in[var * t->n + value] = 1;
  return had;
}
static inline bool toy_remove_values(void *c, int var, const int *values, int count) {
  toy *t = c;
  for (int k = 0; k < count; k++) {
    if (k > 0 && values[k] <= values[k - 1]) return false; /* contract: ascending, distinct */
    toy_remove(t, var, values[k]);
  }
  return toy_nonempty(t, var);
}
static inline bool toy_keep_values(void *c, int var, const int *values, int count) {
  toy *t = c;
  int at = 0; /* values are ascending: walk them beside the ranks */
  for (int v = 0; v < t->n; v++) {
    while (at < count && values[at] < v) at++;
    if (at == count || values[at] != v) t->in[var * t->n + v] = 0;
  }
  return toy_nonempty(t, var);
}

/* The optional range operations (smc.h). A range list that breaks the contract (not
 * ascending, overlapping, adjacent, outside the ranks) aborts: the core must send maximal runs. */
static inline int toy_ranges(void *c, int var, int *out) {
  toy *t = c;
  int k = 0;
  for (int v = 0; v < t->n; v++)
    if (t->in[var * t->n + v] && (v == 0 || !t->in[var * t->n + v - 1])) {
      out[2 * k] = v;
      while (v + 1 < t->n && t->in[var * t->n + v + 1]) v++;
      out[2 * k + 1] = v;
      k++;
    }
  return k;
}
static inline void toy_check_pairs(const toy *t, const int *pairs, int count) {
  for (int k = 0; k < count; k++)
    if (pairs[2 * k] > pairs[2 * k + 1] || pairs[2 * k] < 0 || pairs[2 * k + 1] >= t->n ||
        (k > 0 && pairs[2 * k] <= pairs[2 * k - 1] + 1))
      abort();
}
static inline bool toy_keep_ranges(void *c, int var, const int *pairs, int count) {
  toy *t = c;
  toy_check_pairs(t, pairs, count);
  int at = 0;
  for (int v = 0; v < t->n; v++) {
    while (at < count && pairs[2 * at + 1] < v) at++;
    if (at == count || pairs[2 * at] > v) t->in[var * t->n + v] = 0;
  }
  return toy_nonempty(t, var);
}
static inline bool toy_remove_ranges(void *c, int var, const int *pairs, int count) {
  toy *t = c;
  toy_check_pairs(t, pairs, count);
  for (int k = 0; k < count; k++)
    for (int v = pairs[2 * k]; v <= pairs[2 * k + 1]; v++) t->in[var * t->n + v] = 0;
  return toy_nonempty(t, var);
}

static inline int toy_next(void *c, int var, int value) {
  toy *t = c;
  for (int v = value + 1 < 0 ? 0 : value + 1; v < t->n; v++)
    if (t->in[var * t->n + v]) return v;
  return INT_MAX;
}

/* The modifiers as the core's contract answers (smc_status.h): failed, changed or unchanged. */
#define TOY_STATUS(op, params, args)                                 \
  static inline bb_smc_status toy_status_##op params {               \
    int before = toy_size(c, var);                                   \
    if (!toy_##op args) return BB_SMC_FAILED;                        \
    return toy_size(c, var) != before ? BB_SMC_CHANGED : BB_SMC_FIX; \
  }
TOY_STATUS(remove, (void *c, int var, int value), (c, var, value))
TOY_STATUS(lower_max, (void *c, int var, int value), (c, var, value))
TOY_STATUS(raise_min, (void *c, int var, int value), (c, var, value))
TOY_STATUS(assign, (void *c, int var, int value), (c, var, value))
TOY_STATUS(remove_values, (void *c, int var, const int *values, int count), (c, var, values, count))
TOY_STATUS(keep_values, (void *c, int var, const int *values, int count), (c, var, values, count))
TOY_STATUS(keep_ranges, (void *c, int var, const int *pairs, int count), (c, var, pairs, count))
TOY_STATUS(remove_ranges, (void *c, int var, const int *pairs, int count), (c, var, pairs, count))
#undef TOY_STATUS

/* With the range operations and next; toy_domains_by_values leaves them out (the core's
 * fallback). */
static inline bb_smc_domains toy_domains(toy *t) {
  return (bb_smc_domains){.ctx = t,
                          .min = toy_min,
                          .max = toy_max,
                          .size = toy_size,
                          .contains = toy_contains,
                          .values = toy_values,
                          .remove = toy_status_remove,
                          .lower_max = toy_status_lower_max,
                          .raise_min = toy_status_raise_min,
                          .assign = toy_status_assign,
                          .remove_values = toy_status_remove_values,
                          .keep_values = toy_status_keep_values,
                          .ranges = toy_ranges,
                          .keep_ranges = toy_status_keep_ranges,
                          .remove_ranges = toy_status_remove_ranges,
                          .next = toy_next};
}
static inline bb_smc_domains toy_domains_by_values(toy *t) {
  bb_smc_domains d = toy_domains(t);
  d.ranges = NULL;
  d.keep_ranges = NULL;
  d.remove_ranges = NULL;
  d.next = NULL;
  return d;
}

/* --- A search node of the toy solver: domains + the core's node state. --- */
typedef struct toy_node {
  toy dom;
  bb_smc_node *smc;
  size_t smc_bytes;
} toy_node;

static inline toy_node node_new(int n) {
  toy_node t = {{n, 2 * n, malloc((size_t)2 * n * n)}, malloc(bb_smc_node_bytes(n)), bb_smc_node_bytes(n)};
  memset(t.dom.in, 1, (size_t)2 * n * n);
  bb_smc_node_init(t.smc, n);
  return t;
}
/* Either form: every variable's domain is its ranks 0..len (incomplete lists) or 0..n-1. */
static inline toy_node node_new_for(const bb_smc_prefs *p) {
  int vars = bb_smc_prefs_vars(p), width = 0, extra = bb_smc_prefs_incomplete(p) ? 1 : 0;
  for (int v = 0; v < vars; v++)
    if (bb_smc_prefs_len(p, v) + extra > width) width = bb_smc_prefs_len(p, v) + extra;
  size_t bytes = bb_smc_node_bytes_for(p);
  toy_node t = {{width, vars, calloc((size_t)vars * (size_t)width, 1)}, malloc(bytes), bytes};
  for (int v = 0; v < vars; v++) memset(t.dom.in + (size_t)v * width, 1, (size_t)(bb_smc_prefs_len(p, v) + extra));
  bb_smc_node_init_for(t.smc, p);
  return t;
}
static inline toy_node node_copy(const toy_node *o) {
  size_t cells = (size_t)o->dom.vars * (size_t)o->dom.n;
  toy_node t = {{o->dom.n, o->dom.vars, malloc(cells)}, malloc(o->smc_bytes), o->smc_bytes};
  memcpy(t.dom.in, o->dom.in, cells);
  memcpy(t.smc, o->smc, o->smc_bytes);
  return t;
}
static inline void node_free(toy_node *t) {
  free(t->dom.in);
  free(t->smc);
}

#endif
