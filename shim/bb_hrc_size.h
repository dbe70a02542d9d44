/* The size of a Hospitals/Residents with Couples matching as a Gecode constraint: the C API of
 * shim/hrc_size.cpp.
 *
 * bb_post_hrc_size posts, over the rank-valued variables of stable_matching_hrc (bb_hrc.h:
 * singles[i] = base + k, the k-th hospital of single i's list, base + len unassigned; couples[c]
 * the same over couple c's joint list), size = the number of residents assigned, a couple's
 * members counting two, with the bounds of propagator/smc/hrc/smc_hrc_size.h: from below the
 * residents already assigned, from above a maximum capacitated matching of the pairs left, each
 * couple member on his own (a relaxation). Values outside base..base + len are removed. */
#ifndef BB_HRC_SIZE_SHIM_H
#define BB_HRC_SIZE_SHIM_H

#include "bb_shim.h"
#include "smc_hrc_size.h"

#ifdef __cplusplus
extern "C" {
#endif

bb_status bb_post_hrc_size(bb_space *space, const int *singles, int n_singles, const int *couples, int n_couples,
                           int size, int base, const bb_smc_hrc_size_lists *lists, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
