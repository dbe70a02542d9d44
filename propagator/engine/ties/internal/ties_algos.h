/* Internal to the ties engine: the algorithms bb_ties_solve (ties_solve.c) dispatches to. Each
 * takes a valid instance and fills assigned[r] with a weakly stable matching. */
#ifndef BB_TIES_ALGOS_H
#define BB_TIES_ALGOS_H

#include "ties.h"

/* Deferred acceptance on the instance with every tie broken by a seeded random order: one
 * order for everybody (single) or one per agent (multiple); then bb_hr_solve. */
bb_status bb_ties_da(const bb_ties *in, bool multiple, const bb_ties_solve_opts *opts, int32_t *assigned, char path[96],
                     bb_error *err);
/* Erdil-Ergin stable improvement cycles from the weakly stable matching in assigned. */
bb_status bb_ties_sic(const bb_ties *in, int32_t *assigned, bb_error *err);
/* Kiraly's 3/2-approximation for the largest weakly stable matching. */
bb_status bb_ties_kiraly(const bb_ties *in, int32_t *assigned, bb_error *err);

#endif
