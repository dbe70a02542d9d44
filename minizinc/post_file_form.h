/* What every file form of the stable-matching posters shares (post_stable_matching.c,
 * post_stable_matching_hr.c, post_hrc.c): the instance file named by the constraint's
 * bamboo_data_file("PATH") annotation, and the check of the sizes the model passed against
 * the file's. */
#ifndef FZN_POST_FILE_FORM_H
#define FZN_POST_FILE_FORM_H

#include <stdbool.h>
#include <stdint.h>

#include "build.h"

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

#endif
