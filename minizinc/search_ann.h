/* Solve annotations (int_search, bool_search, set_search, seq_search, restart_*) ->
 * shim branchings and search options. */
#ifndef FZN_SEARCH_ANN_H
#define FZN_SEARCH_ANN_H

#include "bb_search.h"
#include "build.h"

/* Posts the branchings the solve item asks for (unless free_search), then the default
 * branching over every variable; sets restart options. Unknown strategies get a warning
 * on `b->errors` and the default. false after reporting an error. */
bool fzn_post_search(fzn_builder *b, bool free_search, unsigned seed, bb_search_options *opts);

#endif
