/* The SMI/HR algorithms behind bb_hr_solve: the ranked view is built once (t_init), then one
 * algorithm runs (t_solve) and the assignment is read off (t_post).
 *
 * The hospital-optimal side is native to gs-seq. The other algorithms are written for
 * residents proposing; for SMI they get the women-optimal matching by swapping the sides
 * (women propose to men), and for HR with capacities above one the hospital-optimal side runs
 * gs-seq (the path says so). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu.h"
#include "bb_gpu_hr.h"
#include "deadline.h"
#include "hr_internal.h"

_Static_assert(BB_HR_EMPTY_POST == BB_GPU_HR_EMPTY_POST, "the GPU writes hr_posts.h's post words");

/* Below this many list entries the GPU's start-up costs more than the whole CPU run. */
#define HR_GPU_MIN_ENTRIES 2000000u

#define HR_ALGOS(X)                                                                                  \
  X("gs-seq", "sequential Gale-Shapley with capacities (heap per hospital); both sides natively")    \
  X("mw-par", "parallel McVitie-Wilson over hospital posts, CPU threads and compare-and-swap")       \
  X("gpu-la-min", "GPU: one thread per resident, atomicMin on post words, run to the end")           \
  X("bamboo",                                                                                        \
    "GPU chains until --tail remain, then the CPU finishes them; on the CPU (gs-seq, or mw-par for " \
    "large instances) below 2M list entries or without a GPU")

static const char *const names[] = {
#define HR_NAME(name, text) name,
    HR_ALGOS(HR_NAME)
#undef HR_NAME
        NULL};

const char *const *bb_hr_algorithm_names(void) { return names; }

const char *bb_hr_algorithm_describe(const char *name) {
#define HR_TEXT(id, text) \
  if (name && strcmp(name, id) == 0) return text;
  HR_ALGOS(HR_TEXT)
#undef HR_TEXT
  return NULL;
}

/* GPU initialisation and proposals, then the CPU tail on what the GPU parked (ranking the
 * tail's entries by scans: the ranked view stays on the GPU). */
static bb_status run_gpu(const bb_hr *inst, const bb_solve_opts *opts, int tail, int32_t *assigned,
                         bb_solve_stats *stats, bb_error *err) {
  double deadline = bb_deadline(opts); /* opts' limit is what the caller had left */
  int nr = inst->n_residents, nh = inst->n_hospitals;
  uint32_t *post_start = malloc(((size_t)nh + 1) * sizeof *post_start);
  uint32_t posts = post_start ? bb_hr_post_starts(inst, post_start) : 0;
  uint64_t *words = malloc(((size_t)posts + 1) * sizeof *words);
  uint64_t *cursor = malloc(((size_t)nr + 1) * sizeof *cursor);
  uint32_t *parked = malloc(((size_t)nr + 1) * sizeof *parked);
  bb_status st = BB_OK;
  if (!post_start || !words || !cursor || !parked) {
    st = bb_fail(err, BB_ERR_NOMEM, "out of memory for the GPU's results");
  } else {
    bb_gpu_hr_input in = {.n_residents = nr,
                          .n_hospitals = nh,
                          .res_start = inst->res_start,
                          .res_list = inst->res_list,
                          .hosp_start = inst->hosp_start,
                          .hosp_list = inst->hosp_list,
                          .post_start = post_start,
                          .posts = posts,
                          .time_limit_s = opts ? opts->time_limit_s : 0};
    bb_gpu_hr_times times = {0};
    int parked_count = 0;
    st = bb_gpu_hr_propose(&in, tail, words, cursor, parked, &parked_count, &times, err);
    stats->t_transfer += times.transfer;
    stats->t_init += times.init;
    stats->t_solve += times.solve;
    stats->t_post += times.post;
    if (st == BB_OK) {
      double t = bb_now();
      st = bb_hr_finish_chains(inst, NULL, post_start, words, cursor, parked, parked_count, deadline, &stats->proposals,
                               err);
      stats->tail_men = parked_count;
      stats->t_solve += bb_now() - t;
    }
    if (st == BB_OK) {
      double t = bb_now();
      bb_hr_assign_from_posts(inst, post_start, words, assigned);
      stats->t_post += bb_now() - t;
    }
  }
  free(post_start);
  free(words);
  free(cursor);
  free(parked);
  return st;
}

/* The CPU algorithm bamboo runs without the GPU. */
static const char *cpu_choice(uint32_t entries) {
  return entries >= HR_GPU_MIN_ENTRIES && bb_cpu_count() > 1 ? "mw-par" : "gs-seq";
}

static bb_status hr_timeout(bb_error *err, const char *algo, const bb_solve_opts *opts) {
  return bb_fail(err, BB_ERR_TIMEOUT, "%s: time limit of %g s reached", algo, opts->time_limit_s);
}

/* The GPU's own clock starts when it is called: give it what is left of `deadline`. */
static bb_status run_gpu_until(const bb_hr *inst, const char *algo, const bb_solve_opts *opts, double deadline,
                               int tail, int32_t *assigned, bb_solve_stats *stats, bb_error *err) {
  bb_solve_opts left = *opts;
  if (deadline > 0) {
    left.time_limit_s = deadline - bb_now();
    if (left.time_limit_s <= 0) return hr_timeout(err, algo, opts);
  }
  return run_gpu(inst, &left, tail, assigned, stats, err);
}

/* The resident-optimal matching by `algo`; `deadline` (0 = none) counts from bb_hr_solve's
 * start, so ranking the lists is inside the time limit too. */
static bb_status solve_residents(const bb_hr *inst, const char *algo, const bb_solve_opts *opts, double deadline,
                                 int32_t *assigned, bb_solve_stats *stats, bb_error *err) {
  uint32_t entries = inst->res_start[inst->n_residents];
  const char *run = algo;
  char why[256] = "";
  bb_status st = BB_OK;
  if (strcmp(algo, "bamboo") == 0) {
    run = cpu_choice(entries);
    if (entries < HR_GPU_MIN_ENTRIES) {
      snprintf(why, sizeof why, " (%u list entries: below the GPU's break-even)", entries);
    } else if (!bb_gpu_probe(0, why + 2, sizeof why - 4)) {
      memcpy(why, " (", 2), strcat(why, ")");
    } else {
      bb_error gpu_err = {{0}};
      st = run_gpu_until(inst, algo, opts, deadline, opts->tail_threshold, assigned, stats, &gpu_err);
      if (st == BB_OK) {
        snprintf(stats->path, sizeof stats->path, "gpu+cpu-tail");
        return BB_OK;
      }
      if (st != BB_ERR_GPU) {
        *err = gpu_err;
        return st;
      }
      /* A CUDA failure: the CPU takes over (the engine's policy). */
      fprintf(stderr, "bamboo-smp: warning: %s; solving on the CPU\n", gpu_err.msg);
      snprintf(why, sizeof why, " (the GPU failed)");
      memset(stats, 0, sizeof *stats);
      st = BB_OK;
    }
  }
  if (strcmp(run, "gpu-la-min") == 0) {
    st = run_gpu_until(inst, algo, opts, deadline, 0, assigned, stats, err);
    snprintf(stats->path, sizeof stats->path, "gpu");
    return st;
  }
  /* The CPU algorithms read the ranked view. */
  bb_hr_node *nodes = malloc(((size_t)entries + 1) * sizeof *nodes);
  char need[BB_BYTES_TEXT], have[BB_BYTES_TEXT];
  if (!nodes)
    return bb_fail(err, BB_ERR_NOMEM, "out of memory ranking %u list entries: %s needed, %s available", entries,
                   bb_bytes_text(need, ((uint64_t)entries + 1) * sizeof *nodes),
                   bb_bytes_text(have, bb_available_memory()));
  double t = bb_now();
  st = bb_hr_rank_pairs(inst, opts->threads, nodes, NULL, err);
  stats->t_init += bb_now() - t;
  if (st == BB_OK && bb_past(deadline)) st = hr_timeout(err, run, opts);
  t = bb_now();
  if (st == BB_OK && strcmp(run, "gs-seq") == 0) {
    st = bb_hr_gs_residents(inst, nodes, deadline, assigned, stats, err);
  } else if (st == BB_OK) {
    int threads = opts->threads > 0 ? opts->threads : bb_cpu_count();
    st = bb_hr_mw_par(inst, nodes, threads, deadline, assigned, stats, err);
  }
  stats->t_solve += bb_now() - t;
  snprintf(stats->path, sizeof stats->path, "cpu %s%s", run, why);
  free(nodes);
  return st;
}

/* SMI's other side: the same instance with the sexes swapped, and the result turned back. */
static bb_status solve_swapped(const bb_hr *inst, const char *algo, const bb_solve_opts *opts, double deadline,
                               int32_t *assigned, bb_solve_stats *stats, bb_error *err) {
  bb_hr swapped = *inst;
  swapped.n_residents = inst->n_hospitals, swapped.n_hospitals = inst->n_residents;
  swapped.res_start = inst->hosp_start, swapped.res_list = inst->hosp_list;
  swapped.hosp_start = inst->res_start, swapped.hosp_list = inst->res_list;
  swapped.res_entries = inst->hosp_entries, swapped.hosp_entries = inst->res_entries;
  swapped.capacity = malloc(((size_t)inst->n_residents + 1) * sizeof *swapped.capacity);
  int32_t *husband = malloc(((size_t)inst->n_hospitals + 1) * sizeof *husband);
  bb_status st;
  if (!swapped.capacity || !husband) {
    st = bb_fail(err, BB_ERR_NOMEM, "out of memory");
  } else {
    for (int m = 0; m < inst->n_residents; m++) swapped.capacity[m] = 1;
    st = solve_residents(&swapped, algo, opts, deadline, husband, stats, err);
    if (st == BB_OK) {
      for (int m = 0; m < inst->n_residents; m++) assigned[m] = BB_HR_NONE;
      for (int w = 0; w < inst->n_hospitals; w++)
        if (husband[w] != BB_HR_NONE) assigned[husband[w]] = w;
    }
  }
  free(swapped.capacity);
  free(husband);
  return st;
}

static bb_status gs_hospitals(const bb_hr *inst, const bb_solve_opts *opts, double deadline, int32_t *assigned,
                              bb_solve_stats *stats, bb_error *err) {
  uint32_t res_entries = inst->res_start[inst->n_residents], hosp_entries = inst->hosp_start[inst->n_hospitals];
  bb_hr_node *nodes = malloc(((size_t)res_entries + 1) * sizeof *nodes);
  int32_t *hosp_rank = malloc(((size_t)hosp_entries + 1) * sizeof *hosp_rank);
  bb_status st = BB_OK;
  char need[BB_BYTES_TEXT], have[BB_BYTES_TEXT];
  uint64_t bytes = ((uint64_t)res_entries + 1) * sizeof *nodes + ((uint64_t)hosp_entries + 1) * sizeof *hosp_rank;
  if (!nodes || !hosp_rank)
    st = bb_fail(err, BB_ERR_NOMEM, "out of memory ranking the lists: %s needed, %s available",
                 bb_bytes_text(need, bytes), bb_bytes_text(have, bb_available_memory()));
  double t = bb_now();
  if (st == BB_OK) st = bb_hr_rank_pairs(inst, opts->threads, nodes, hosp_rank, err);
  stats->t_init += bb_now() - t;
  free(nodes);
  if (st == BB_OK && bb_past(deadline)) st = hr_timeout(err, "gs-seq", opts);
  t = bb_now();
  if (st == BB_OK) st = bb_hr_gs_hospitals(inst, hosp_rank, deadline, assigned, stats, err);
  stats->t_solve += bb_now() - t;
  free(hosp_rank);
  return st;
}

bb_status bb_hr_solve(const bb_hr *inst, const char *algo, bb_hr_side side, const bb_solve_opts *opts,
                      int32_t *assigned, bb_solve_stats *stats, bb_error *err) {
  if (!inst || !assigned) return bb_fail(err, BB_ERR_ARG, "bb_hr_solve: NULL argument");
  if (!bb_hr_algorithm_describe(algo))
    return bb_fail(err, BB_ERR_ARG, "unknown algorithm '%s' for incomplete lists", algo ? algo : "(null)");
  bb_solve_opts defaults;
  bb_solve_opts_default(&defaults);
  if (!opts) opts = &defaults;
  bb_solve_stats local;
  if (!stats) stats = &local;
  memset(stats, 0, sizeof *stats);
  double deadline = bb_deadline(opts);
  if (strcmp(algo, "gpu-la-min") == 0) {
    char why[200];
    if (!bb_gpu_probe(0, why, sizeof why)) return bb_fail(err, BB_ERR_NO_GPU, "%s", why);
  }
  if (side == BB_HR_RESIDENT_OPTIMAL) { return solve_residents(inst, algo, opts, deadline, assigned, stats, err); }
  if (strcmp(algo, "gs-seq") != 0 && inst->smi) return solve_swapped(inst, algo, opts, deadline, assigned, stats, err);
  bb_status st = gs_hospitals(inst, opts, deadline, assigned, stats, err);
  snprintf(stats->path, sizeof stats->path, "cpu gs-seq (hospitals proposing%s)",
           strcmp(algo, "gs-seq") != 0 ? "; the other algorithms propose from one post at a time" : "");
  return st;
}
