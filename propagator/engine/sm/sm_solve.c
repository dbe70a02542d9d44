/* The algorithm registry: one table maps each name to its function. */
#include "algos.h"

#include <stdlib.h>
#include <string.h>

#define BB_ALGORITHMS(X)                                                                       \
  X("gs-seq", bb_gs_seq, 0, "queue Gale-Shapley with the women's rank matrix (CPU, 1 thread)") \
  X("mw-seq", bb_mw_seq, 0, "McVitie-Wilson: each rejected man proposes again at once (CPU)")  \
  X("la-seq", bb_la_seq, 0, "locality-aware Gale-Shapley over the PRMatrix (seed 000 Alg. 1)") \
  X("gs-par", bb_gs_par, 0, "round-based parallel Gale-Shapley, CPU threads + C11 atomics")    \
  X("mw-par", bb_mw_par, 0, "parallel McVitie-Wilson, CPU threads + compare-and-swap")         \
  X("gpu-mw-cas", bb_gpu_mw_cas_solve, 1, "GPU McVitie-Wilson, one thread per man, atomicCAS") \
  X("gpu-la-min", bb_gpu_la_min_solve, 1, "GPU PRMatrix + atomicMin (seed 000 Listing 1)")     \
  X("bamboo", bb_bamboo, 0,                                                                    \
    "precheck, GPU PRMatrix + packed atomicMin kernel, CPU tail (seed 000 Alg. 2); CPU if no GPU")

typedef struct algorithm {
  const char *name;
  bb_algorithm_fn run;
  int needs_gpu;
  const char *about;
} algorithm;

#define BB_ALGO_ENTRY(name, fn, gpu, about) {name, fn, gpu, about},
static const algorithm algorithms[] = {BB_ALGORITHMS(BB_ALGO_ENTRY)};
#define BB_ALGO_NAME(name, fn, gpu, about) name,
static const char *const algorithm_names[] = {BB_ALGORITHMS(BB_ALGO_NAME) NULL};
enum { algorithm_count = sizeof algorithms / sizeof algorithms[0] };

static const algorithm *find(const char *name) {
  for (int i = 0; name && i < algorithm_count; i++)
    if (!strcmp(algorithms[i].name, name)) return &algorithms[i];
  return NULL;
}

const char *const *bb_algorithm_names(void) { return algorithm_names; }

const char *bb_algorithm_describe(const char *name) {
  const algorithm *a = find(name);
  return a ? a->about : NULL;
}

int bb_algorithm_needs_gpu(const char *name) {
  const algorithm *a = find(name);
  return a ? a->needs_gpu : 0;
}

void bb_solve_opts_default(bb_solve_opts *opts) {
  memset(opts, 0, sizeof *opts);
  opts->tail_threshold = 1; /* [Bamboo-SMP]'s switch point; larger ones lose (docs/engine.md) */
  opts->tail_row_budget = 16;
}

bb_status bb_solve(const bb_instance *inst, const char *name, const bb_solve_opts *opts, bb_id *wife_of,
                   bb_solve_stats *stats, bb_error *err) {
  const algorithm *a = find(name);
  if (!a) {
    char list[256] = "";
    for (int i = 0; i < algorithm_count; i++) {
      strncat(list, algorithms[i].name, sizeof list - strlen(list) - 1);
      if (i + 1 < algorithm_count) strncat(list, ", ", sizeof list - strlen(list) - 1);
    }
    return bb_fail(err, BB_ERR_ARG, "unknown algorithm '%s' (known: %s)", name ? name : "(null)", list);
  }
  if (!inst || inst->n < 1 || !wife_of) return bb_fail(err, BB_ERR_ARG, "bb_solve: no instance");
  bb_solve_opts defaults;
  if (!opts) {
    bb_solve_opts_default(&defaults);
    opts = &defaults;
  }
  if (opts->tail_mode < BB_TAIL_AUTO || opts->tail_mode > BB_TAIL_GPU)
    return bb_fail(err, BB_ERR_ARG, "bb_solve: unknown tail mode %d", opts->tail_mode);
  if (opts->tail_threshold < 1)
    return bb_fail(err, BB_ERR_ARG, "bb_solve: tail threshold must be >= 1 (got %d)", opts->tail_threshold);
  /* Only bamboo with lists generated on the GPU (opts->gen_spec) runs without host lists: its
   * tail reads the women's rows from a row source (row_source.h). */
  if ((!inst->women_prefs || !inst->men_prefs) && !(opts->gen_spec && a->run == bb_bamboo))
    return bb_fail(err, BB_ERR_ARG, "bb_solve: %s needs both lists on the host", a->name);
  bb_solve_stats local;
  if (!stats) stats = &local;
  memset(stats, 0, sizeof *stats);
  return a->run(inst, opts, wife_of, stats, err);
}

int bb_threads_for(const bb_solve_opts *opts, int work) {
  int threads = opts && opts->threads > 0 ? opts->threads : bb_cpu_count();
  if (threads > work) threads = work;
  return threads < 1 ? 1 : threads;
}
