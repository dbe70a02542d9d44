/* bamboo: the hybrid CPU/GPU engine of seed 000 Algorithm 2.
 *
 *  1. precheck (host): if every man's first choice is distinct, that is the man-optimal
 *     matching and nothing else runs (no transfer, no initialisation);
 *  2. initialisation (GPU): rank matrix and packed PRMatrix built on the device;
 *  3. execution: the packed-word atomicMin kernel runs while this thread monitors the
 *     number of free men; once at most opts->tail_threshold are free the kernel parks
 *     them and the CPU continues the locality-aware loop from the GPU's partner ranks
 *     and next-proposal positions (no man restarts from rank 0);
 *  4. postprocessing: wife_of[] from the partner ranks.
 * Without a usable GPU, or when a CUDA call fails, the CPU's la-seq runs instead, with
 * a warning for failures (and a note under -v when there is simply no GPU). */
#include "algos.h"
#include "bb_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step 1: if all first choices are distinct, fills wife_of and returns 1. */
static int precheck_perfect(const bb_instance *inst, bb_id *wife_of) {
  int n = inst->n;
  unsigned char *taken = calloc((size_t)n, 1);
  if (!taken) return 0; /* not fatal: the full algorithm will run */
  int perfect = 1;
  for (int m = 0; m < n && perfect; m++) {
    bb_id w = inst->men_prefs[(size_t)m * n];
    if (taken[w]) perfect = 0;
    taken[w] = 1;
    wife_of[m] = w;
  }
  free(taken);
  return perfect;
}

static bb_status cpu_fallback(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of,
                              bb_solve_stats *stats, bb_error *err, const char *reason,
                              int warn) {
  if (warn)
    fprintf(stderr, "bamboo: warning: GPU path failed (%s); falling back to la-seq on the CPU\n",
            reason);
  else if (opts->verbose)
    fprintf(stderr, "bamboo: no usable GPU (%s); running la-seq on the CPU\n", reason);
  double precheck = stats->t_precheck;
  memset(stats, 0, sizeof *stats);
  stats->t_precheck = precheck;
  bb_status st = bb_la_seq(inst, opts, wife_of, stats, err);
  snprintf(stats->path, sizeof stats->path, "cpu la-seq (%s)", warn ? "GPU failed" : "no GPU");
  return st;
}

bb_status bb_bamboo(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of,
                    bb_solve_stats *stats, bb_error *err) {
  int n = inst->n;
  double t = bb_now();
  int perfect = precheck_perfect(inst, wife_of);
  stats->t_precheck = bb_now() - t;
  if (perfect) {
    snprintf(stats->path, sizeof stats->path, "precheck (perfect case)");
    if (opts->verbose) fprintf(stderr, "bamboo: perfect case, first choices are the matching\n");
    return BB_OK;
  }

  char why[256];
  if (!bb_gpu_probe(why, sizeof why)) return cpu_fallback(inst, opts, wife_of, stats, err, why, 0);

  bb_gpu *gpu = NULL;
  bb_la_state la = {.n = n};
  la.partner_rank = malloc((size_t)n * sizeof *la.partner_rank);
  la.next = malloc((size_t)n * sizeof *la.next);
  bb_id *free_men = malloc((size_t)n * sizeof *free_men);
  int free_count = 0;
  bb_status st = BB_OK;
  if (!la.partner_rank || !la.next || !free_men) {
    st = bb_fail(err, BB_ERR_NOMEM, "bamboo: cannot allocate the matching state for n = %d", n);
    goto done;
  }
  st = bb_gpu_open(inst, &gpu, stats, err);
  if (st == BB_OK) st = bb_gpu_bamboo(gpu, opts, &la, free_men, &free_count, stats, err);
  if (st == BB_OK) {
    /* The sequential tail: men the GPU parked continue from their next[] position. */
    t = bb_now();
    for (int i = 0; i < free_count && st == BB_OK; i++)
      st = bb_la_propose(&la, inst->women_prefs, bb_gpu_prrow, gpu, free_men[i], err);
    stats->t_solve += bb_now() - t;
    if (!opts->gpu_tail) stats->tail_men = free_count;
    stats->proposals = la.proposals; /* the CPU tail's; the GPU does not count its own */
  }
  if (st == BB_OK) {
    t = bb_now();
    bb_la_extract(&la, inst->women_prefs, wife_of);
    stats->t_post += bb_now() - t;
    snprintf(stats->path, sizeof stats->path, "gpu+%s-tail (%d men)",
             opts->gpu_tail ? "gpu" : "cpu", stats->tail_men);
    if (opts->verbose)
      fprintf(stderr, "bamboo: GPU proposals, then %d free men finished on the %s\n", stats->tail_men,
              opts->gpu_tail ? "GPU (one block)" : "CPU");
  } else if (st == BB_ERR_GPU || st == BB_ERR_NO_GPU) {
    char reason[sizeof err->msg];
    snprintf(reason, sizeof reason, "%s", err ? err->msg : "CUDA error");
    bb_gpu_close(gpu);
    gpu = NULL;
    st = cpu_fallback(inst, opts, wife_of, stats, err, reason, 1);
  }
done:
  bb_gpu_close(gpu);
  free(la.partner_rank);
  free(la.next);
  free(free_men);
  return st;
}
