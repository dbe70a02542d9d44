/* Big constant arrays for posters, without a copy: the preference matrices of
 * stable_matching at n = 10000 are 2 x 10^8 literals, and a copy of them in the builder, then
 * another in the constraint, was most of fzn-bamboo's peak memory. The parser keeps such an
 * array as one int32 big block; when the constraint is the only thing in the model that names
 * it, the block itself is handed to the constraint (fzn_arena_big_detach). */
#include "build.h"
#include "fzn_arena.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(int) == sizeof(int32_t), "literals are lent as int");

static void count_uses(const fzn_model *m, int *uses, const fzn_expr *e) {
  if (!e) return;
  switch (e->kind) {
    case FZN_E_ID:
    case FZN_E_ACCESS: {
      const fzn_decl *d = fzn_lookup(m, e->u.id.name);
      if (d) uses[d->index]++;
      return;
    }
    case FZN_E_ARRAY:
      for (int k = 0; k < e->u.array.count; k++) count_uses(m, uses, e->u.array.elems[k]);
      return;
    case FZN_E_CALL:
      for (int k = 0; k < e->u.call.count; k++) count_uses(m, uses, e->u.call.args[k]);
      return;
    default: return;
  }
}

static void count_annotation_uses(const fzn_model *m, int *uses, const fzn_annotations *a) {
  for (int k = 0; k < a->count; k++) count_uses(m, uses, a->items[k]);
}

static const int *use_counts(fzn_builder *b) {
  if (b->use_count) return b->use_count;
  const fzn_model *m = b->model;
  int *uses = calloc((size_t)m->decl_count + 1, sizeof *uses);
  if (!uses) return NULL;
  for (int k = 0; k < m->decl_count; k++) {
    count_uses(m, uses, m->decls[k]->value);
    count_annotation_uses(m, uses, &m->decls[k]->annotations);
    /* A declaration the output prints keeps its value: one more use. */
    if (m->decls[k]->annotations.count) uses[k]++;
  }
  for (int k = 0; k < m->constraint_count; k++) {
    const fzn_constraint *c = m->constraints[k];
    for (int a = 0; a < c->count; a++) count_uses(m, uses, c->args[a]);
    count_annotation_uses(m, uses, &c->annotations);
  }
  count_uses(m, uses, m->solve.objective);
  count_annotation_uses(m, uses, &m->solve.annotations);
  b->use_count = uses;
  return uses;
}

bool fzn_arg_int_array_take(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count,
                            bool *owned) {
  *owned = false;
  const fzn_expr *array = e;
  const fzn_decl *d = NULL;
  if (e->kind == FZN_E_ID) {
    d = fzn_decl_of(b, e);
    if (d && d->type.is_array && !d->type.is_var && d->value) array = d->value;
  }
  if (array->kind != FZN_E_INTS || array->u.ints.is_wide || array->u.ints.count == 0)
    return fzn_arg_int_array(b, e, line, what, values, count); /* the general path, with its messages */
  if (array->u.ints.min < -FZN_INT_LIMIT || array->u.ints.max > FZN_INT_LIMIT)
    return fzn_arg_int_array(b, e, line, what, values, count); /* reports the literal out of range */
  const int *uses = d ? use_counts(b) : NULL;
  bool alone = !d || (uses && uses[d->index] == 1);
  fzn_expr *mutable_array = (fzn_expr *)array; /* the model gives the block up */
  *count = array->u.ints.count;
  if (alone && array->u.ints.is_big) {
    *values = fzn_arena_big_detach(b->model->arena, mutable_array->u.ints.values.narrow);
    mutable_array->u.ints.values.narrow = NULL;
    mutable_array->u.ints.count = 0;
    mutable_array->u.ints.is_big = false;
    *owned = true;
  } else {
    *values = (int *)array->u.ints.values.narrow; /* int is int32_t on every platform we build for */
  }
  return true;
}
