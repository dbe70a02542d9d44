/* Bamboo's C API over Gecode 6.2 (the only C++ in Bamboo lives behind it).
 *
 * Handles are opaque. Every function that can fail returns a bb_status and fills a
 * bb_error (may be NULL); no C++ exception ever crosses this boundary. Destructors accept
 * NULL. Variables are plain ints: the index returned when they were created.
 *
 * Sections: spaces and variables (here), posting (bb_post.h), branching and search
 * (bb_search.h), the stable matching constraint (bb_stable_matching.h). */
#ifndef BB_SHIM_H
#define BB_SHIM_H

#include "bb_common.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_space bb_space;

typedef enum bb_objective_sense { BB_SATISFY = 0, BB_MINIMIZE = 1, BB_MAXIMIZE = 2 } bb_objective_sense;

/* A new empty model. NULL (with the reason in err) only when memory runs out. */
bb_space *bb_space_new(bb_error *err);
/* After memory ran out inside Gecode (BB_ERR_NOMEM from the shim), spaces are left to the
 * process's exit instead: Gecode 6.2 cannot undo a clone that failed half-way. */
void bb_space_free(bb_space *space);
/* Marks the model unsatisfiable (a variable declared with an empty domain): a search over
 * it finds no solution. */
void bb_space_fail(bb_space *space);
/* A deep copy (Gecode clone); the original must not be failed. */
bb_space *bb_space_clone(bb_space *space, bb_error *err);

/* Variables. Each returns the new variable's index (>= 0), or -1 with err filled
 * (empty domain, bounds outside Gecode's limits, out of memory). */
int bb_int_var(bb_space *space, int lo, int hi, bb_error *err);
int bb_int_var_values(bb_space *space, const int *values, int count, bb_error *err);
int bb_bool_var(bb_space *space, int lo, int hi, bb_error *err);
/* A set variable with lower bound glb and upper bound lub (sorted, distinct values)
 * and cardinality in [card_min, card_max]. */
int bb_set_var(bb_space *space, const int *glb, int glb_count, const int *lub, int lub_count, int card_min,
               int card_max, bb_error *err);
/* A set variable with no declared bound: any subset of Gecode's set universe (what
 * MiniZinc leaves for, e.g., the result of a symmetric difference). */
int bb_set_var_universe(bb_space *space, bb_error *err);
int bb_int_var_count(const bb_space *space);
int bb_bool_var_count(const bb_space *space);
int bb_set_var_count(const bb_space *space);
/* The number of distinct tuple sets the space's tables have built: tables with the same
 * rows share one (bb_post_table_int / _bool). For tests and statistics. */
long bb_space_tuple_sets(const bb_space *space);

/* The objective for branch and bound (BB_SATISFY to clear it). */
bb_status bb_space_set_objective(bb_space *space, bb_objective_sense sense, int int_var, bb_error *err);

/* Runs propagation to the fixpoint. */
typedef enum bb_space_state { BB_SPACE_FAILED = 0, BB_SPACE_SOLVED = 1, BB_SPACE_BRANCH = 2 } bb_space_state;
bb_status bb_space_status(bb_space *space, bb_space_state *state, bb_error *err);
bool bb_space_failed(bb_space *space);

/* Domain queries (after bb_space_status, or on a solution). Out-of-range indexes are
 * programming errors (assert). */
int bb_int_min(const bb_space *space, int var);
int bb_int_max(const bb_space *space, int var);
unsigned bb_int_size(const bb_space *space, int var);
bool bb_int_in(const bb_space *space, int var, int value);
bool bb_int_assigned(const bb_space *space, int var);
/* Writes the domain's values ascending into out (room for bb_int_size values). */
int bb_int_values(const bb_space *space, int var, int *out);
int bb_bool_min(const bb_space *space, int var);
int bb_bool_max(const bb_space *space, int var);
bool bb_bool_assigned(const bb_space *space, int var);
/* Set variables: the lower bound (glb) and upper bound (lub) as ascending values. */
bool bb_set_assigned(const bb_space *space, int var);
int bb_set_glb(const bb_space *space, int var, int *out, int cap); /* returns the glb size */
int bb_set_lub(const bb_space *space, int var, int *out, int cap); /* returns the lub size */

#ifdef __cplusplus
}
#endif
#endif
