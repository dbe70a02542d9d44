/* What the stable-matching posters share (post_stable_matching.c, post_stable_matching_hr.c,
 * post_hrc.c, post_hrc_size.c, post_stable_matching_ties*.c): the base check, the two-sided
 * forms' first arguments, the instance file named by the constraint's bamboo_data_file("PATH")
 * annotation, the check of the sizes the model passed against the file's, and the path the HR
 * and HRC constraints' annotations ask for. */
#ifndef FZN_POST_FILE_FORM_H
#define FZN_POST_FILE_FORM_H

#include <stdbool.h>
#include <stdint.h>

#include "build.h"
#include "hr.h"
#include "hrc.h"
#include "smc_hrc_path.h" /* bb_smc_path */

/* The path in the constraint's bamboo_data_file("PATH") annotation, or NULL (reported; when
 * `added_by` is not NULL the message names the mznlib file that adds the annotation). */
const char *fzn_data_file(fzn_builder *b, const fzn_constraint *c, const char *added_by);

/* The list lengths or capacities the model passed in `arg` (named `name`), one per `person` of
 * a side of n, against the file's, given by exactly one of: the lengths of the CSR lists
 * `start`, `capacity`, or `values`. An empty array (the short forms) checks nothing. Reports
 * the first disagreement, in the model's base. */
bool fzn_file_numbers_agree(fzn_builder *b, const fzn_constraint *c, const fzn_expr *arg, const char *name,
                            const char *person, const char *what, int n, int base, const char *path,
                            const uint32_t *start, const int32_t *capacity, const int64_t *values);

/* The arrays' first index, which ids and ranks count from: 0 or 1. */
bool fzn_base_ok(fzn_builder *b, const fzn_constraint *c, int base);

/* Arguments 0..3 of the two-sided forms (the SMTI and HRT forms, matrix and file, and every HRC
 * form): the two sides' variables (named name0 and name1), a variable (`var_name`: size, or
 * HRC's third) and base. Base is not checked: each form words its own message. False after
 * reporting. */
bool fzn_sides_head(fzn_builder *b, const fzn_constraint *c, const char *name0, const char *name1, const char *var_name,
                    int **side0, int *n0, int **side1, int *n1, int *var, int *base);

/* A dzn form's padded lists: `lens` (named `len_name`) has one entry per person of `people`
 * (`who`), and the row-major `matrix` of `entries` one row of `cols` (`cols_name`, at least 0)
 * per person. FlatZinc written by hand may get one wrong where mznlib's predicates cannot. */
bool fzn_padded_lists_ok(fzn_builder *b, const fzn_constraint *c, const char *matrix, int entries, const char *len_name,
                         int lens, const char *cols_name, int cols, int people, const char *who);

/* The file form of HR, cloned or native (residents, posts, cols, base, rp_len, hp_len, capacity
 * :: bamboo_data_file("PATH")): the SMI/HR instance in PATH (*path), whose residents and
 * hospitals x cols posts are the constraint's nr and np, whose list lengths and capacities the
 * model's agree with, and whose largest capacity fits in cols. The instance (the caller frees
 * it), or NULL after reporting. */
bb_hr *fzn_hr_file(fzn_builder *b, const fzn_constraint *c, int nr, int np, int cols, int base, const char **path);

/* The residents' side of HRC's dzn forms (the native constraint's and the size's), arguments
 * 0..10: singles, couples, a third variable, base, rp, rp_len, rp_cols, cp1, cp2, cp_len, cp_cols. */
typedef struct fzn_hrc_residents {
  int *singles, *couples, var, base, *rp, *rp_len, rp_cols, *cp1, *cp2, *cp_len, cp_cols;
  int ns, nc, nrp, nrl, ncp1, ncp2, ncl; /* the arrays' sizes */
} fzn_hrc_residents;
/* Reads them (the third variable named `var_name`); false after reporting. */
bool fzn_hrc_residents_read(fzn_builder *b, const fzn_constraint *c, const char *var_name, fzn_hrc_residents *a);
/* Checks base and the residents' padded lists; false after reporting. */
bool fzn_hrc_residents_ok(fzn_builder *b, const fzn_constraint *c, const fzn_hrc_residents *a);

/* The head of HRC's file forms (singles, couples, `var_name`, base :: bamboo_data_file("PATH"),
 * the native constraint's and the size's): arguments 0..3 into *singles (*ns of them),
 * *couples (*nc), *var and *base, and the HRC instance in PATH (*path), whose singles and couples
 * are the constraint's. The instance (the caller frees it), or NULL after reporting. */
bb_hrc *fzn_hrc_file(fzn_builder *b, const fzn_constraint *c, const char *var_name, int **singles, int *ns,
                     int **couples, int *nc, int *var, int *base, const char **path);

/* For a ::gpu constraint: whether a GPU can be had. When none can, warns at the constraint's
 * line (the user's, through the paths file) once per model, naming `what` (the user's
 * constraint) and saying why in the probe's words, and returns false: the constraint then
 * propagates on the CPU, and the propagator never tries the GPU (its own warning, printed
 * at search time, could not name the model's line). */
bool fzn_gpu_usable(fzn_builder *b, const fzn_constraint *c, const char *what);

/* The path the constraint's annotations ask for: the last of ::gpu, ::cpu and ::uniud wins;
 * none of them: the CPU (the HR and HRC constraints' default; stable_matching's hybrid reads
 * its own annotations, fzn_smc_options). ::gpu without a GPU is the CPU, with
 * fzn_gpu_usable's warning, which names c->name without bamboo_ (the user's predicate). */
bb_smc_path fzn_annotated_path(fzn_builder *b, const fzn_constraint *c);
/* For a constraint with one path, the CPU: a ::gpu on it is not dropped in silence but warned
 * about once per model, at the first such constraint's line. */
void fzn_cpu_only(fzn_builder *b, const fzn_constraint *c);

#endif
