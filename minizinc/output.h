/* Printing solutions exactly as FlatZinc specifies: `name = value;` for every output_var
 * and output_array, then `----------`; the final status lines are fzn_bamboo.c's. */
#ifndef FZN_OUTPUT_H
#define FZN_OUTPUT_H

#include "build.h"

/* Checks the output annotations (false after reporting a malformed one). */
bool fzn_output_check(fzn_builder *b);
/* Writes one solution and the separator, then flushes (a later kill loses nothing). */
void fzn_output_solution(const fzn_builder *b, const bb_space *solution, FILE *out);

#endif
