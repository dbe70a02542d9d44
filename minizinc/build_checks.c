/* The posters' checks of arguments against each other (build.h): one message for each
 * mistake, whichever constraint makes it. */
#include "build.h"

bool fzn_check_same_length(fzn_builder *b, const fzn_constraint *c, int n1, int n2, const char *what) {
  return n1 == n2 || fzn_report(b, c->line, "%s: %s have different lengths (%d and %d)", c->name, what, n1, n2);
}

bool fzn_check_coefficients(fzn_builder *b, const fzn_constraint *c, int coefficients, int variables) {
  return coefficients == variables ||
         fzn_report(b, c->line, "%s: %d coefficients for %d variables", c->name, coefficients, variables);
}

bool fzn_check_nonempty(fzn_builder *b, const fzn_constraint *c, int n) {
  return n > 0 || fzn_report(b, c->line, "%s: empty array", c->name);
}
