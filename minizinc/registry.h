/* The registry: one table entry per FlatZinc constraint name, each with a poster that calls
 * the shim. The tables live in post_int.c, post_bool.c, post_set.c, post_float.c,
 * post_global.c and post_stable_matching.c (every stable-matching form); the list of natives
 * beyond the standard builtins is NATIVES.md. */
#ifndef FZN_REGISTRY_H
#define FZN_REGISTRY_H

#include "bb_post.h"
#include "bb_stable_matching.h"
#include "build.h"
#include "smc.h"

typedef struct fzn_builtin fzn_builtin;
typedef bool (*fzn_poster)(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self);

struct fzn_builtin {
  const char *name;
  int arity;
  fzn_poster post;
  int p1, p2; /* a relation, a reification mode, an operation...: the poster says which */
};

/* Each table ends with an entry whose name is NULL. */
extern const fzn_builtin fzn_int_builtins[];
extern const fzn_builtin fzn_bool_builtins[];
extern const fzn_builtin fzn_set_builtins[];
extern const fzn_builtin fzn_float_builtins[]; /* post_float.c */
extern const fzn_builtin fzn_global_builtins[];
extern const fzn_builtin fzn_stable_matching_builtins[];      /* post_stable_matching.c: every form */
extern const fzn_builtin fzn_stable_matching_hr_builtins[];   /* post_stable_matching_hr.c: HR, native */
extern const fzn_builtin fzn_hrc_builtins[];                  /* post_hrc.c: stable_matching_hrc, both forms */
extern const fzn_builtin fzn_hrc_size_builtins[];             /* post_hrc_size.c: its size form's bound */
extern const fzn_builtin fzn_stable_matching_ties_builtins[]; /* post_stable_matching_ties.c: SMTI, HRT weak, native */
/* post_stable_matching_ties_file.c: SMTI, HRT weak, the file form */
extern const fzn_builtin fzn_stable_matching_ties_file_builtins[];
extern const fzn_builtin fzn_stable_matching_objective_builtins[]; /* post_stable_matching_objective.c */

/* The entry for a name, or NULL. */
const fzn_builtin *fzn_builtin_find(const char *name);

/* Posts every constraint of the model; false after reporting errors (an unknown
 * constraint is an error that names it). */
bool fzn_post_constraints(fzn_builder *b);

/* The consistency a constraint's annotations ask for (::domain, ::bounds, ...). */
bb_ipl fzn_ipl_of(const fzn_constraint *c);

/* Every poster ends with this: a shim status becomes a reported error naming the
 * constraint (true when st is BB_OK). */
bool fzn_posted(fzn_builder *b, const fzn_constraint *c, bb_status st, const bb_error *err);
/* The reification of an `_reif` / `_imp` form (argument k, a Boolean), or none. */
bool fzn_reif_arg(fzn_builder *b, const fzn_constraint *c, int k, int mode, bb_reif *out);

/* Argument k of constraint c; for brevity in posters. */
#define ARG(k) (c->args[(k)])

#endif
