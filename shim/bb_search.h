/* Branching and search over a bb_space.
 *
 * Branchings: each bb_branch_* call appends one brancher to the space; search runs them
 * in the order they were posted, each until its variables are assigned (FlatZinc's
 * seq_search). Variable and value selections follow Gecode's FlatZinc front end; names
 * can be looked up with bb_var_sel_parse / bb_val_sel_parse.
 *
 * Search: bb_search_new clones the root (the caller keeps, and frees, its own space) and
 * runs depth-first search for satisfaction, branch and bound when the space has an
 * objective, restart-based search over either when restarts are asked for. Each
 * bb_search_next returns the next solution (a space the caller frees with bb_space_free;
 * with an objective, each is strictly better than the last) or NULL: at exhaustion, or
 * when a limit stopped the search (bb_search_stopped tells which), or on an error (err). */
#ifndef BB_SEARCH_H
#define BB_SEARCH_H

#include "bb_shim.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Variable selection. For Boolean variables, the size- and value-based criteria (first
 * fail, smallest, largest, max regret) cannot tell unassigned Booleans apart and act as
 * input order. */
typedef enum bb_var_sel {
  BB_VAR_INPUT_ORDER = 0,
  BB_VAR_FIRST_FAIL,       /* smallest domain */
  BB_VAR_ANTI_FIRST_FAIL,  /* largest domain */
  BB_VAR_SMALLEST,         /* smallest minimum (sets: smallest unknown element) */
  BB_VAR_LARGEST,          /* largest maximum (sets: largest unknown element) */
  BB_VAR_OCCURRENCE,       /* most propagators (degree) */
  BB_VAR_MOST_CONSTRAINED, /* smallest domain, ties broken by degree */
  BB_VAR_MAX_REGRET,       /* largest gap between the two smallest values (ints only) */
  BB_VAR_DOM_W_DEG,        /* largest accumulated failure count / domain size */
  BB_VAR_AFC_MIN,          /* accumulated failure count */
  BB_VAR_AFC_MAX,
  BB_VAR_AFC_SIZE_MIN, /* afc / domain size */
  BB_VAR_AFC_SIZE_MAX,
  BB_VAR_ACTION_MIN, /* activity ("action" in Gecode) */
  BB_VAR_ACTION_MAX,
  BB_VAR_ACTION_SIZE_MIN,
  BB_VAR_ACTION_SIZE_MAX,
  BB_VAR_CHB_MIN, /* conflict-history based */
  BB_VAR_CHB_MAX,
  BB_VAR_CHB_SIZE_MIN,
  BB_VAR_CHB_SIZE_MAX,
  BB_VAR_RANDOM
} bb_var_sel;

/* Value selection. Ints: MIN tries x = min first, then x != min; SPLIT tries the lower
 * half first; INTERVAL the first range of a domain with holes (else the lower half);
 * MIDDLE the value nearest (min+max)/2; OUT_MIN tries x != min first. FlatZinc's plain
 * `indomain` is MIN. Sets: MIN/MAX include the smallest/largest unknown element first,
 * OUT_MIN/OUT_MAX exclude it first, MEDIAN and RANDOM include. Booleans: MIN tries 0. */
typedef enum bb_val_sel {
  BB_VAL_MIN = 0,
  BB_VAL_MAX,
  BB_VAL_MEDIAN,
  BB_VAL_MIDDLE,
  BB_VAL_RANDOM,
  BB_VAL_SPLIT,
  BB_VAL_REVERSE_SPLIT,
  BB_VAL_INTERVAL,
  BB_VAL_OUT_MIN,
  BB_VAL_OUT_MAX
} bb_val_sel;

typedef struct bb_branch_options {
  /* Seed of BB_VAR_RANDOM / BB_VAL_RANDOM. Gecode binds a brancher's generator when the
   * brancher is posted, so the seed lives here rather than in the search options. */
  unsigned seed;
  /* Decay of the afc / action / chb statistics, in (0, 1]; 0 means the default 0.99. */
  double decay;
} bb_branch_options;

/* FlatZinc annotation names -> selections ("first_fail", "indomain_split", ...; Gecode's
 * "afc_size_max", "activity_max", ... too). false for an unknown name. */
bool bb_var_sel_parse(const char *name, bb_var_sel *sel);
bool bb_val_sel_parse(const char *name, bb_val_sel *sel);

/* One brancher over the given variables (options may be NULL for the defaults). A
 * selection that does not apply to the variable kind (e.g. split on sets) is BB_ERR_ARG. */
bb_status bb_branch_int(bb_space *s, const int *vars, int count, bb_var_sel var, bb_val_sel val,
                        const bb_branch_options *options, bb_error *err);
bb_status bb_branch_bool(bb_space *s, const int *vars, int count, bb_var_sel var, bb_val_sel val,
                         const bb_branch_options *options, bb_error *err);
bb_status bb_branch_set(bb_space *s, const int *vars, int count, bb_var_sel var, bb_val_sel val,
                        const bb_branch_options *options, bb_error *err);
/* The fallback after annotated branchings: every int variable (first fail, min), then
 * every Boolean (input order, min), then every float variable that no float_search
 * covers (smallest interval, lower half first: bb_float.h), then every set (input order,
 * include min). Variables
 * already assigned by earlier branchers cost nothing. */
bb_status bb_branch_default(bb_space *s, bb_error *err);
/* fzn-gecode's default branching (Gecode 6.2's FlatZincSpace::createBranchers) over the
 * variables a model leaves to it, in the order given: with `together`, ints and Booleans
 * in one brancher by accumulated failure count over domain size (decay 0.99), smallest
 * value first (ints alone: the same; Booleans alone: by failure count); without it (what
 * fzn-gecode does for the variables MiniZinc introduced), one brancher per kind. Then
 * floats (smallest interval, lower half first; those a float_search covers are skipped),
 * then sets (failure count over size, include the smallest element first). */
bb_status bb_branch_gecode_default(bb_space *s, bool together, const int *ints, int n_ints, const int *bools,
                                   int n_bools, const int *floats, int n_floats, const int *sets, int n_sets,
                                   bb_error *err);

/* For a satisfaction search: the variables MiniZinc introduced and no constraint defines
 * get one alternative, the values of the first solution of a private search over them
 * (fzn-gecode's AuxVarBrancher), so solutions that differ in them alone are not told
 * apart. */
bb_status bb_branch_aux_first(bb_space *s, const int *ints, int n_ints, const int *bools, int n_bools,
                              const int *floats, int n_floats, const int *sets, int n_sets, bb_error *err);

typedef enum bb_restart_kind {
  BB_RESTART_NONE = 0,
  BB_RESTART_CONSTANT, /* every `scale` failures */
  BB_RESTART_LINEAR,   /* scale, 2 scale, 3 scale, ... */
  BB_RESTART_LUBY,     /* scale times the Luby sequence */
  BB_RESTART_GEOMETRIC /* scale, scale base, scale base^2, ... */
} bb_restart_kind;

typedef struct bb_search_options {
  int threads; /* 0 or 1: sequential; N > 1: Gecode's parallel engine, N workers */
  bb_restart_kind restart;
  unsigned long restart_scale; /* failures per restart unit; 0 means 250 */
  double restart_base;         /* geometric growth factor; <= 1 means 1.5 */
  /* No-goods from restarts (Gecode's): at each restart the search posts what the aborted
   * search refuted, up to depth nogoods_limit (0 means 128). Only with restarts. */
  bool nogoods;
  unsigned nogoods_limit;
  uint64_t node_limit;    /* 0 = none */
  uint64_t fail_limit;    /* 0 = none */
  uint64_t time_limit_ms; /* wall clock from bb_search_new; 0 = none */
  /* Recomputation (Gecode's Search::Options c_d, a_d; 0 = Gecode's default, 8 and 2): the
   * search keeps a copy of the space every commit_distance levels and recomputes the others
   * from it; adaptive_distance is the distance at which a recomputation keeps another copy.
   * A larger commit distance keeps fewer copies (less memory on a deep search over many
   * variables) and recomputes more after a failure. With 0, a model may ask for a larger one
   * than Gecode's (the HRC constraint does, in proportion to its variables). */
  unsigned commit_distance, adaptive_distance;
  /* NULL = none. The search stops (as at a limit) once *interrupt is non-zero: a signal
   * handler may set it, so the caller can still print the best solution found. */
  const volatile sig_atomic_t *interrupt;
} bb_search_options;

/* Large neighbourhood search over the given int variables (MiniZinc's
 * relax_and_reconstruct(x, percentage)): after the first solution, each restart keeps every
 * variable of the list at its value in the last solution with probability percentage / 100
 * (0..100) and searches the rest again. Only for an optimisation: bb_search_new ignores it
 * without an objective. Restarts are needed: without a restart kind in the options, the
 * search restarts every 250 failures (BB_RESTART_CONSTANT). A search with LNS is not
 * complete after its first restart: it ends at a limit, not at a proof. `initial` (NULL or
 * count values) stands for the last solution until there is one. Random choices start
 * from `seed`. Replaces an earlier call's list. */
bb_status bb_search_relax_and_reconstruct(bb_space *s, const int *vars, int count, int percentage, const int *initial,
                                          unsigned seed, bb_error *err);

typedef struct bb_search_statistics {
  uint64_t nodes, fails, restarts, propagations, solutions;
  uint64_t depth; /* the deepest the search stack went */
} bb_search_statistics;

typedef struct bb_search bb_search;

/* Zeroed options: sequential, no restarts, no limits. */
void bb_search_options_init(bb_search_options *options);

/* Statuses the root (running propagation) and clones it; the root is unchanged otherwise
 * and stays the caller's. opts may be NULL. A root that fails propagation gives a search
 * that simply has no solution. With an objective, a last brancher on the objective
 * variable is added to the clone, so every solution has an assigned objective. With
 * restarts and no objective, a satisfaction search may return the same solution again
 * after a restart: ask it for one solution. */
bb_search *bb_search_new(bb_space *root, const bb_search_options *opts, bb_error *err);
bb_space *bb_search_next(bb_search *search, bb_error *err);
/* true when bb_search_next returned NULL because a limit stopped the search; a stopped
 * search stays stopped (later calls return NULL too). */
bool bb_search_stopped(const bb_search *search);
/* Counters so far (C keeps typedef and function names in one namespace, hence the
 * longer type name). */
void bb_search_stats(const bb_search *search, bb_search_statistics *stats);
/* After memory ran out inside Gecode (bb_search_next or bb_search_new failed with
 * BB_ERR_NOMEM), the search and its root are not destroyed but left to the process's exit:
 * Gecode 6.2 leaves a space that a clone failed on unusable (shim_internal.hh). */
void bb_search_free(bb_search *search);

/* Gecode's parallel search (threads > 1) runs in Gecode's own threads, where an exception
 * cannot be caught: memory running out there, or a search thread that cannot be started,
 * ends in std::terminate. bb_set_fatal_handler installs a terminate handler that names the
 * cause and calls fn with the message and whether memory (or another system resource) ran
 * out; fn must end the process (with _exit: other threads are still running). NULL
 * restores the default handler. */
typedef void (*bb_fatal_handler)(const char *message, bool out_of_memory);
void bb_set_fatal_handler(bb_fatal_handler fn);

#ifdef __cplusplus
}
#endif
#endif
