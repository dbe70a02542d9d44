/* What the GPU engine's entry points take: plain structs of pointers, sizes and numbers, so
 * that cuda/ knows nothing of the engine's types (as CUB's device entry points take pointers
 * and sizes). The engine fills them from its own instance, options, statistics and LA state
 * (engine/sm/gpu_args.h) and copies the results back. */
#ifndef BB_GPU_ARGS_H
#define BB_GPU_ARGS_H

#include <stdint.h>

#include "bb_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An instance's lists: men_prefs[m * n + k] is man m's k-th choice, women_prefs likewise.
 * Either may be NULL where the lists are generated on the device instead. */
typedef struct bb_gpu_instance {
  int n;
  const bb_id *men_prefs;
  const bb_id *women_prefs;
} bb_gpu_instance;

/* Progress callback: `what` names the phase, `done`/`total` its state (total 0: unknown). */
typedef void (*bb_gpu_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

typedef struct bb_gpu_opts {
  int tail_threshold;  /* bamboo: stop the kernel once at most this many men are free (>= 1) */
  int tail_on_gpu;     /* bamboo: 1 finishes the tail on the GPU (one block), 0 hands it back */
  int verbose;         /* print decisions on stderr */
  double time_limit_s; /* 0 = none; a kernel past it stops with BB_ERR_TIMEOUT */
  bb_gpu_progress_fn progress;
  void *progress_ctx;
  const struct bb_gpu_lists *gpu_lists; /* bamboo: the 16-bit pinned lists (bb_gpu_lists.h), or NULL */
} bb_gpu_opts;

/* Seconds per phase, added to (the entry points never reset them), and bamboo's tail size. */
typedef struct bb_gpu_stats {
  double t_transfer; /* host -> GPU copy of the lists */
  double t_init;     /* rank matrix / PRMatrix construction */
  double t_solve;    /* proposals */
  double t_post;     /* matching extraction */
  int tail_men;      /* bamboo: free men handed to the tail */
} bb_gpu_stats;

/* The proposal state the CPU tail resumes from (n entries each, owned by the caller):
 * partner_rank[w] (n when free), next[m] (m's next position), husband[w] (valid while
 * partner_rank[w] < n). */
typedef struct bb_gpu_la {
  int n;
  uint32_t *partner_rank;
  uint32_t *next;
  bb_id *husband;
} bb_gpu_la;

#ifdef __cplusplus
}
#endif
#endif
