/* The constraint's vocabulary (smc.h): the per-search-node state (bb_smc_node), the scratch
 * of one propagation (bb_smc_scratch) and the events a host notes into it between
 * propagations. The rules that read them are in smc_propagate.c (event driven),
 * smc_root.c (the first propagation as a batch) and smc_accel.c (the parallel path). */
#include "smc_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A constraint copy's event lists, for `vars` variables whose domains hold at most `room`
 * values; the work area is the thread's (smc_work.c). */
static bb_smc_scratch *scratch_make(size_t vars, int room, bb_error *err) {
  bb_smc_scratch *s = calloc(1, sizeof *s);
  if (s) {
    s->vars = (int)vars;
    s->n = room;
    s->stack = malloc(vars * sizeof *s->stack);
    s->queued = calloc(vars, 1);
    s->unknown = malloc(vars * sizeof *s->unknown);
    s->is_unknown = calloc(vars, 1);
    if (s->stack && s->queued && s->unknown && s->is_unknown) return s;
  }
  bb_smc_scratch_free(s);
  bb_fail(err, BB_ERR_NOMEM, "stable_matching: out of memory for the propagation scratch of %zu variables", vars);
  return NULL;
}

bb_smc_scratch *bb_smc_scratch_new(int n, bb_error *err) { return scratch_make(2 * (size_t)n, n, err); }

bb_smc_scratch *bb_smc_scratch_for(const bb_smc_prefs *p, bb_error *err) {
  return scratch_make((size_t)p->vars, p->room, err);
}

void bb_smc_scratch_free(bb_smc_scratch *s) {
  if (!s) return;
  free(s->stack);
  free(s->queued);
  free(s->unknown);
  free(s->is_unknown);
  free(s->ranges);
  free(s);
}

bool bb_smc_pend(bb_smc_work *w, int var, int value) {
  assert(var >= 0 && (size_t)var < w->vars);
  assert(w->items_len <= w->items_cap);
  if (w->items_len == w->items_cap) {
    size_t cap = w->items_cap ? 2 * w->items_cap : 1024;
    pending *items = realloc(w->items, cap * sizeof *items);
    if (!items) return false;
    w->items = items;
    w->items_cap = cap;
  }
  w->items[w->items_len] = (pending){value, w->head[var]};
  w->head[var] = (int)w->items_len++;
  return true;
}

void bb_smc_note_changed(bb_smc_scratch *s, int var) { bb_smc_enqueue(s, var); }

void bb_smc_note_unknown(bb_smc_scratch *s, int var) {
  assert(var >= 0 && var < s->vars);
  if (!s->is_unknown[var]) {
    assert(s->unknown_len < s->vars); /* listed at most once */
    s->is_unknown[var] = 1;
    s->unknown[s->unknown_len++] = var;
  }
  bb_smc_enqueue(s, var);
}

void bb_smc_note_removed(bb_smc_scratch *s, int var, int lo, int hi) {
  bb_smc_enqueue(s, var);
  if (s->is_unknown[var]) return; /* the scan will find them */
  if (s->ranges_len == s->ranges_cap) {
    size_t cap = s->ranges_cap ? 2 * s->ranges_cap : 64;
    inner_range *r = realloc(s->ranges, cap * sizeof *r);
    if (!r) { /* cannot record the range: fall back to scanning this domain */
      bb_smc_note_unknown(s, var);
      return;
    }
    s->ranges = r;
    s->ranges_cap = cap;
  }
  s->ranges[s->ranges_len++] = (inner_range){var, lo, hi};
}

void bb_smc_scratch_clear(bb_smc_scratch *s) {
  for (int k = 0; k < s->stack_len; k++) s->queued[s->stack[k]] = 0;
  for (int k = 0; k < s->unknown_len; k++) s->is_unknown[s->unknown[k]] = 0;
  s->stack_len = s->unknown_len = 0;
  s->ranges_len = 0;
  bb_smc_work *w = s->w;
  if (!w) return; /* between propagations the work area is empty */
  for (int k = 0; k < w->touched_len; k++) w->head[w->touched[k]] = -1;
  w->touched_len = 0;
  w->items_len = 0;
}

size_t bb_smc_node_bytes(int n) { return sizeof(bb_smc_node) + 4 * (size_t)n * sizeof(int); }

void bb_smc_node_init(bb_smc_node *node, int n) {
  node->stamp = 0;
  node->n = n;
  node->vars = 2 * n;
  node->fresh = 1;
  node->unassigned = 2 * n;
  node->inner_holes = 0;
  for (int v = 0; v < 2 * n; v++) {
    node->bounds[v] = -1;
    node->bounds[2 * n + v] = n;
  }
}

size_t bb_smc_node_bytes_for(const bb_smc_prefs *p) { return sizeof(bb_smc_node) + 2 * (size_t)p->vars * sizeof(int); }

void bb_smc_node_init_for(bb_smc_node *node, const bb_smc_prefs *p) {
  if (!p->start) {
    bb_smc_node_init(node, p->n);
    return;
  }
  node->stamp = 0;
  node->n = 0;
  node->vars = p->vars;
  node->fresh = 1;
  node->unassigned = p->vars;
  node->inner_holes = 0;
  for (int v = 0; v < p->vars; v++) {
    node->bounds[v] = -1;
    node->bounds[p->vars + v] = bb_smc_row_len(p, v);
  }
}

int bb_smc_node_unassigned(const bb_smc_node *node) { return node->unassigned; }

bool bb_smc_node_fresh(const bb_smc_node *node) { return node->fresh != 0; }
