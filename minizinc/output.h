/* Printing solutions exactly as FlatZinc specifies: `name = value;` for every output_var
 * and output_array, then `----------`; the final status lines are fzn_bamboo.c's. */
#ifndef FZN_OUTPUT_H
#define FZN_OUTPUT_H

#include "build.h"

/* Checks the output annotations (false after reporting a malformed one). */
bool fzn_output_check(fzn_builder *b);
/* Writes one solution and the separator, then flushes (a later kill loses nothing).
 * Returns 0, ENOMEM when memory for a value ran out (the separator is then not written),
 * or the errno of the failed write (a full disk, a closed pipe...). */
int fzn_output_solution(const fzn_builder *b, const bb_space *solution, FILE *out);
/* Flushes out: 0, or the errno of a write that failed since the last check. */
int fzn_output_flush(FILE *out);

#endif
