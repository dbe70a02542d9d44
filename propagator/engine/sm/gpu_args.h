/* The engine's types as the GPU engine's plain arguments (cuda/bb_gpu_args.h): cuda/ takes
 * pointers, sizes and numbers only, and the engine fills them here and copies the statistics
 * back. The LA state's arrays are shared, not copied: the GPU writes the engine's arrays. */
#ifndef BB_SM_GPU_ARGS_H
#define BB_SM_GPU_ARGS_H

#include "bb_gpu_args.h"
#include "la.h"
#include "solve.h"

#include <stddef.h>

static inline bb_gpu_instance bb_gpu_instance_of(const bb_instance *inst) {
  bb_gpu_instance g = {inst->n, inst->men_prefs, inst->women_prefs};
  return g;
}

static inline bb_gpu_opts bb_gpu_opts_of(const bb_solve_opts *opts) {
  bb_gpu_opts g = {opts->tail_threshold, opts->tail_mode == BB_TAIL_GPU,
                   opts->verbose,        opts->time_limit_s,
                   opts->progress,       opts->progress_ctx,
                   opts->gpu_lists};
  return g;
}

/* The phases so far (the GPU adds to them); NULL: all 0. */
static inline bb_gpu_stats bb_gpu_stats_of(const bb_solve_stats *stats) {
  bb_gpu_stats g = {0, 0, 0, 0, 0};
  if (stats) {
    g.t_transfer = stats->t_transfer;
    g.t_init = stats->t_init;
    g.t_solve = stats->t_solve;
    g.t_post = stats->t_post;
    g.tail_men = stats->tail_men;
  }
  return g;
}

static inline void bb_gpu_stats_back(const bb_gpu_stats *g, bb_solve_stats *stats) {
  if (!stats) return;
  stats->t_transfer = g->t_transfer;
  stats->t_init = g->t_init;
  stats->t_solve = g->t_solve;
  stats->t_post = g->t_post;
  stats->tail_men = g->tail_men;
}

static inline bb_gpu_la bb_gpu_la_of(const bb_la_state *la) {
  bb_gpu_la g = {la->n, la->partner_rank, la->next, la->husband};
  return g;
}

#endif
