/* Internal: the algorithms behind bb_solve(), and the data structures they share.
 * Every algorithm fills wife_of[] with the man-optimal stable matching. */
#ifndef BB_ALGOS_H
#define BB_ALGOS_H

#include "solve.h"

/* Signature shared by all algorithms; opts is never NULL here, stats never NULL. */
typedef bb_status (*bb_algorithm_fn)(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of,
                                     bb_solve_stats *stats, bb_error *err);

bb_status bb_gs_seq(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_mw_seq(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_la_seq(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_gs_par(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_mw_par(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_gpu_mw_cas_solve(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_gpu_la_min_solve(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_bamboo(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
/* sm_multi.c: the same over opts->gpus (two partitions or more). */
bb_status bb_bamboo_multi(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);
bb_status bb_gpu_la_min_multi(const bb_instance *, const bb_solve_opts *, bb_id *, bb_solve_stats *, bb_error *);

/* Number of threads to use for `opts->threads` (0 = all CPUs), never more than `work`. */
int bb_threads_for(const bb_solve_opts *opts, int work);

#endif
