/* The registry: name -> poster, and the loop that posts a model's constraints. */
#include "registry.h"

#include <stdlib.h>
#include <string.h>

static const fzn_builtin *const tables[] = {fzn_int_builtins,
                                            fzn_bool_builtins,
                                            fzn_set_builtins,
                                            fzn_float_builtins,
                                            fzn_global_builtins,
                                            fzn_stable_matching_builtins,
                                            fzn_stable_matching_hr_builtins,
                                            fzn_hrc_builtins,
                                            fzn_hrc_size_builtins,
                                            fzn_stable_matching_ties_builtins,
                                            fzn_stable_matching_ties_file_builtins,
                                            fzn_stable_matching_objective_builtins};

/* A hash of every entry, built on first use (the builder is single threaded). */
static const fzn_builtin **slots;
static size_t slot_mask;

static size_t hash_name(const char *s) {
  size_t h = 14695981039346656037ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static bool build_index(void) {
  size_t entries = 0;
  for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
    for (const fzn_builtin *e = tables[t]; e->name; e++) entries++;
  size_t cap = 16;
  while (cap < 4 * entries) cap *= 2;
  slots = calloc(cap, sizeof *slots);
  if (!slots) return false;
  slot_mask = cap - 1;
  for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
    for (const fzn_builtin *e = tables[t]; e->name; e++) {
      size_t h = hash_name(e->name) & slot_mask;
      while (slots[h]) h = (h + 1) & slot_mask;
      slots[h] = e;
    }
  return true;
}

const fzn_builtin *fzn_builtin_find(const char *name) {
  if (!slots && !build_index()) return NULL;
  for (size_t h = hash_name(name) & slot_mask; slots[h]; h = (h + 1) & slot_mask)
    if (!strcmp(slots[h]->name, name)) return slots[h];
  return NULL;
}

bool fzn_posted(fzn_builder *b, const fzn_constraint *c, bb_status st, const bb_error *err) {
  return st == BB_OK || fzn_report(b, c->line, "%s: %s", c->name, err->msg);
}

bool fzn_reif_arg(fzn_builder *b, const fzn_constraint *c, int k, int mode, bb_reif *out) {
  out->mode = (bb_reif_mode)mode;
  out->bool_var = -1;
  return mode == BB_REIF_NONE || fzn_arg_bool_var(b, ARG(k), c->line, "reification", &out->bool_var);
}

bb_ipl fzn_ipl_of(const fzn_constraint *c) {
  for (int a = 0; a < c->annotations.count; a++) {
    const fzn_expr *ann = c->annotations.items[a];
    if (ann->kind != FZN_E_ID) continue;
    if (!strcmp(ann->u.id.name, "domain")) return BB_IPL_DOM;
    if (!strcmp(ann->u.id.name, "bounds")) return BB_IPL_BND;
    if (!strcmp(ann->u.id.name, "value_propagation")) return BB_IPL_VAL;
  }
  return BB_IPL_DEF;
}

bool fzn_post_constraints(fzn_builder *b) {
  const fzn_model *m = b->model;
  for (int k = 0; k < m->constraint_count; k++) {
    const fzn_constraint *c = m->constraints[k];
    const fzn_builtin *e = fzn_builtin_find(c->name);
    if (!e) {
      fzn_report(b, c->line, "unknown constraint '%s'", c->name);
      continue;
    }
    if (e->arity >= 0 && c->count != e->arity) {
      fzn_report(b, c->line, "constraint '%s' takes %d arguments, got %d", c->name, e->arity, c->count);
      continue;
    }
    if (e->arity < 0 && (c->count < 2 || c->count > 3)) {
      fzn_report(b, c->line, "constraint '%s' takes 2 or 3 arguments, got %d", c->name, c->count);
      continue;
    }
    b->posting = c;
    b->posting_index = k;
    e->post(b, c, e);
    b->posting = NULL;
  }
  return b->error_count == 0;
}
