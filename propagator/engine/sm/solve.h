/* The engine's algorithms behind one entry point, selected by name.
 *
 * Every algorithm returns the man-optimal stable matching (unique, so all of them
 * must return the identical matching). */
#ifndef BB_SOLVE_H
#define BB_SOLVE_H

#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Progress callback for long runs: `what` names the phase, `done`/`total` its state
 * (total 0 when unknown). Called from the solving thread, at most a few times a second. */
typedef void (*bb_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

/* Where bamboo finishes once at most tail_threshold men are free. */
typedef enum bb_tail_mode {
  BB_TAIL_AUTO = 0, /* on the CPU ([Bamboo-SMP]); a chain that needs more than tail_row_budget
                       PRMatrix rows is handed back to the one-block GPU scan */
  BB_TAIL_CPU,      /* always on the CPU, as [Bamboo-SMP] Algorithm 2 */
  BB_TAIL_GPU       /* always on the GPU, one block scanning rows cooperatively */
} bb_tail_mode;

typedef struct bb_solve_opts {
  int threads;         /* CPU threads for -par algorithms and parallel set-up; 0 = all CPUs */
  int tail_threshold;  /* bamboo: the tail starts once at most this many men are free (>= 1) */
  int verbose;         /* print decisions (path taken, fallbacks) on stderr */
  double time_limit_s; /* 0 = none; GPU kernels and long CPU loops stop with BB_ERR_TIMEOUT */
  int tail_mode;       /* bamboo: a bb_tail_mode */
  int tail_row_budget; /* bamboo, BB_TAIL_AUTO: rows the CPU tail may fetch from the GPU */
  bb_progress_fn progress;
  void *progress_ctx;
  const int *gpus; /* bamboo, gpu-la-min: device list, one partition of the participants
                           each ([Bamboo-SMP] V-C; a device may repeat); NULL or 1 entry = device
                           gpus[0] (or 0), the single-GPU path */
  int gpu_count;
  const struct bb_gen_spec *gen_spec;   /* bamboo, staged, on one GPU or in partitions: the lists
                           are generated on each device from this spec (gen_rows.h; solve
                           --gen-on gpu) instead of uploaded; the instance then holds no lists
                           (no precheck, no CPU fallback): the husbands and --verify read the
                           women's rows regenerated on the host (row_source.h) */
  const struct bb_gpu_lists *gpu_lists; /* bamboo, one GPU: the same lists, 16-bit and pinned
                           (cuda/bb_gpu_lists.h), uploaded with no host work; NULL = from inst */
} bb_solve_opts;

/* The phases of [Bamboo-SMP] Figure 8, in seconds. Phases an algorithm does not have stay 0. */
typedef struct bb_solve_stats {
  double t_transfer;  /* host -> GPU copy of the lists (GPU algorithms) */
  double t_precheck;  /* perfect-case test (bamboo) */
  double t_init;      /* rank matrix / PRMatrix construction */
  double t_solve;     /* proposals */
  double t_post;      /* matching extraction */
  uint64_t proposals; /* proposals made, where the algorithm counts them (CPU sequential) */
  int tail_men;       /* bamboo: free men handed to the CPU (or GPU) tail */
  char path[96];      /* what actually ran, e.g. "gpu+cpu-tail", "cpu (no GPU: ...)" */
} bb_solve_stats;

void bb_solve_opts_default(bb_solve_opts *opts);

/* NULL-terminated list of algorithm names, in a stable order. */
const char *const *bb_algorithm_names(void);
/* One-line description of an algorithm, or NULL if the name is unknown. */
const char *bb_algorithm_describe(const char *name);
/* 1 if the algorithm needs a GPU (gpu-*), 0 otherwise (bamboo falls back to the CPU). */
int bb_algorithm_needs_gpu(const char *name);

/* Solves `inst` with algorithm `name`, writing wife_of[m] for every man m.
 * `opts` and `stats` may be NULL. The instance must be valid (bb_instance_validate). */
bb_status bb_solve(const bb_instance *inst, const char *name, const bb_solve_opts *opts, bb_id *wife_of,
                   bb_solve_stats *stats, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
