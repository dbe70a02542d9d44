/* Internal to the builder (build.c, build_args.c): what its two halves share. Posters use
 * build.h only. */
#ifndef FZN_BUILD_INTERNAL_H
#define FZN_BUILD_INTERNAL_H

#include "build.h"

#include <stdbool.h>
#include <stdint.h>

/* The variable fixed to `value`, made once per value (build.c); -1 after reporting. */
int fzn_const_int_var(fzn_builder *b, int value, int line);
int fzn_const_bool_var(fzn_builder *b, bool value, int line);

/* False after reporting a value outside Gecode's integers (|v| <= FZN_INT_LIMIT). */
bool fzn_check_int_range(fzn_builder *b, int64_t v, int line, const char *what);
/* The values of a set literal, range after range, in scratch memory. */
bool fzn_set_values(fzn_builder *b, const fzn_expr *set, int line, const char *what, int **values, int *count);
/* The variable of entity `want` that e (an identifier or an access) names, or -1; *found
 * says whether e names a variable at all. */
int fzn_named_var(fzn_builder *b, const fzn_expr *e, fzn_entity want, int line, const char *what, bool *found);

#endif
