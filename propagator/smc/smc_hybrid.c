/* The automatic choice between the CPU and the GPU for one Stable Marriage propagation
 * ([Travasci 2025] section 5, [Bamboo-SMP] section IV-C; docs/references.md).
 *
 * What a propagation knows before it starts: n, whether the node is fresh (every proposer
 * free), how many variables the host reported changed, how many of them free a proposer
 * (a proposer's minimum rose, or a receiver's maximum fell below its holder) and their
 * total domain size when the last propagation ended. As [Travasci 2025] measured, the GPU wins
 * only with many free proposers: its fixed costs (transfers, launches, a host round trip
 * per round) are tens of microseconds, while the CPU's event rules cost a few
 * microseconds per free proposer. So the GPU is taken when
 *     n >= min_n  and  (free proposers >= min_free  or  modified variables >= min_modified)
 * and a propagation left on the CPU moves to the GPU mid-way once its rule steps pass
 * `handover` plus `handover_per_value` per value of its changed variables' old domains (a
 * cascade: more work than what the propagation touches explains; see bb_smc_calibration).
 * The thresholds are calibrated on the
 * machine by `fzn-bamboo --calibrate`
 * (minizinc/calibrate.c), which times both paths and writes them to a file per GPU model:
 * $BAMBOO_CALIBRATION if set, else $XDG_CACHE_HOME/bamboo/ (or ~/.cache/bamboo/)
 * calibration-<gpu model>.txt. Without a file the defaults below apply (docs/constraint.md
 * says how they were chosen). */
#include "smc_internal.h"
#include "bb_gpu_device.h"
#include "smc_accel.h"
#include "smc_pairs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defaults for a machine without a calibration file (docs/constraint.md gives the
 * measurements behind each): the GPU's first propagation pays off from about n = 1000; later
 * ones need about 512 free proposers or 512 modified variables to pay for the round trips. A
 * cascade is handed over once its steps pass a budget plus one per old domain value of the
 * changed variables. The CPU's later propagations run as batches (smc_delta.c), which write
 * nothing until their round ends, so a batch past DEFAULT_BATCH_HANDOVER hands its events over
 * whole: a budget of a few ms of a batch keeps the hybrid close to the faster forced path on one
 * or two freed proposers, where a small budget or none lost more. Through the event rules
 * (bb_smc_set_delta_batch off) DEFAULT_HANDOVER applies, and it is smaller because one freed
 * proposer's cascade runs several times faster on the parallel path than on the event rules,
 * so a larger budget hands it over too late. */
enum {
  DEFAULT_MIN_N = 1000,
  DEFAULT_MIN_FREE = 512,
  DEFAULT_MIN_MODIFIED = 512,
  DEFAULT_HANDOVER = 500,
  DEFAULT_BATCH_HANDOVER = 8000,
  DEFAULT_HANDOVER_PER_VALUE = 1,
  /* Variables touched per 1000 steps at the budget: a batch that spread wider is many short
   * moves, which the CPU ends sooner; one that touched fewer goes far, and the GPU wins it.
   * The line was set on one set of instances and checked on another (docs/constraint.md). */
  DEFAULT_HANDOVER_SPREAD = 310,
  DEFAULT_TAIL = 32,
  /* No calibration file sends a smaller instance to the GPU (fzn-bamboo --calibrate's smallest
   * size is 250), so below it the hybrid answers without initialising CUDA, whose start-up
   * per process can outweigh a whole search on a small model (docs/constraint.md).
   * bb_smc_set_calibration (programs, tests) may still set any min_n. */
  MIN_N_FLOOR = 250
};

static atomic_int tail_threshold = DEFAULT_TAIL;

void bb_smc_set_tail_threshold(int threshold) { atomic_store(&tail_threshold, threshold < 0 ? 0 : threshold); }
int bb_smc_tail_threshold(void) { return atomic_load_explicit(&tail_threshold, memory_order_relaxed); }

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static bool gpu_usable;
static char gpu_why[256];
static bb_smc_calibration calibration = {DEFAULT_MIN_N,           DEFAULT_MIN_FREE,       DEFAULT_MIN_MODIFIED,
                                         DEFAULT_HANDOVER,        DEFAULT_BATCH_HANDOVER, DEFAULT_HANDOVER_PER_VALUE,
                                         DEFAULT_HANDOVER_SPREAD, "built-in defaults"};
static bb_smc_path auto_engine = BB_SMC_PATH_GPU;
static atomic_bool overridden;

static void probe(void) {
  gpu_usable = bb_gpu_probe(0, gpu_why, sizeof gpu_why) == 1;
  if (!gpu_usable) return;
  char path[1024];
  if (!bb_smc_calibration_path(path, sizeof path)) return;
  bb_smc_calibration c = {DEFAULT_MIN_N,          DEFAULT_MIN_FREE,           DEFAULT_MIN_MODIFIED,    DEFAULT_HANDOVER,
                          DEFAULT_BATCH_HANDOVER, DEFAULT_HANDOVER_PER_VALUE, DEFAULT_HANDOVER_SPREAD, ""};
  bool found = false;
  bb_error err = {{0}};
  if (bb_smc_calibration_read(path, &c, &found, &err) != BB_OK) {
    /* A file that is not what --calibrate wrote is no measurement: none of it is used. */
    fprintf(stderr, "bamboo: warning: %s; the hybrid uses its built-in thresholds\n", err.msg);
    return;
  }
  if (!found) return;
  if (c.min_n < MIN_N_FLOOR) c.min_n = MIN_N_FLOOR;
  snprintf(c.source, sizeof c.source, "%s", path);
  if (!overridden) calibration = c;
}

void bb_smc_set_calibration(int min_n, int min_free, int min_modified, int handover, bb_smc_path engine) {
  pthread_once(&probe_once, probe);
  overridden = true;
  calibration = (bb_smc_calibration){min_n, min_free, min_modified, handover, handover, 0, 0, "set by the program"};
  auto_engine = engine;
}

void bb_smc_set_handover_per_value(int steps) {
  pthread_once(&probe_once, probe);
  calibration.handover_per_value = steps < 0 ? 0 : steps;
}

void bb_smc_set_handover_spread(int per_mille) {
  pthread_once(&probe_once, probe);
  calibration.handover_spread = per_mille < 0 ? 0 : per_mille;
}

bb_smc_path bb_smc_hybrid_engine(const bb_smc_prefs *p) {
  /* The calibration's n is a complete instance's; incomplete lists compare their larger side. */
  int n = p->start ? (p->men > p->vars - p->men ? p->men : p->vars - p->men) : p->n;
  if (n < MIN_N_FLOOR && !atomic_load(&overridden)) return BB_SMC_PATH_CPU;
  pthread_once(&probe_once, probe);
  if (n < calibration.min_n || !bb_smc_accel_fits(p, NULL)) return BB_SMC_PATH_CPU;
  if (auto_engine == BB_SMC_PATH_GPU && !gpu_usable) return BB_SMC_PATH_CPU;
  return auto_engine;
}

bool bb_smc_gpu_available(void) {
  pthread_once(&probe_once, probe);
  return gpu_usable;
}

const char *bb_smc_gpu_why(void) {
  pthread_once(&probe_once, probe);
  return gpu_usable ? "" : gpu_why;
}

bb_smc_calibration bb_smc_get_calibration(void) {
  pthread_once(&probe_once, probe);
  return calibration;
}

bool bb_smc_gpu_model(char *out, size_t len) { return bb_gpu_name(0, out, len) == 1; }

bool bb_smc_calibration_path(char *out, size_t len) {
  const char *env = getenv("BAMBOO_CALIBRATION");
  if (env && *env) return (size_t)snprintf(out, len, "%s", env) < len;
  char model[128];
  if (!bb_smc_gpu_model(model, sizeof model)) return false;
  for (char *c = model; *c; c++)
    if (!isalnum((unsigned char)*c)) *c = '-';
  const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int w = cache && *cache ? snprintf(out, len, "%s/bamboo/calibration-%s.txt", cache, model)
          : home && *home ? snprintf(out, len, "%s/.cache/bamboo/calibration-%s.txt", home, model)
                          : -1;
  return w > 0 && (size_t)w < len;
}

void bb_smc_describe(const bb_smc_prefs *p, bb_smc_strength strength, const bb_smc_node *node, const bb_smc_scratch *s,
                     const bb_smc_domains *d, bb_smc_run_info *info) {
  int men = p->men, vars = p->vars;
  info->free_proposers = 0;
  info->old_domain = 0;
  if (node->fresh) {
    info->free_proposers = strength == BB_SMC_GS_LISTS ? vars : men;
    info->modified = vars;
    for (int v = 0; v < vars; v++) info->old_domain += bb_smc_row_len(p, v);
    return;
  }
  assert(s->stack_len >= 0 && s->stack_len <= vars); /* each variable queued at most once */
  info->modified = s->stack_len;
  for (int k = 0; k < s->stack_len; k++) {
    int v = s->stack[k], lo = node->bounds[v], hi = node->bounds[vars + v];
    info->old_domain += hi - lo + 1;
    bool proposer = v < men || strength == BB_SMC_GS_LISTS, receiver = v >= men || strength == BB_SMC_GS_LISTS;
    if (proposer && d->min(d->ctx, v) > lo) info->free_proposers++; /* its pointer must move */
    if (receiver && hi < bb_smc_row_len(p, v) && d->max(d->ctx, v) < hi) {
      /* its holder (the proposer at its old maximum, if pointing at it) is displaced */
      int holder, holder_rank;
      bb_smc_pair_partner(p, v, hi, &holder, &holder_rank);
      if (holder >= 0 && (holder < men || strength == BB_SMC_GS_LISTS) && node->bounds[holder] == holder_rank)
        info->free_proposers++;
    }
  }
}

bb_smc_path bb_smc_hybrid_choose(bb_smc_path engine, const bb_smc_run_info *info) {
  bool big = info->free_proposers >= calibration.min_free || info->modified >= calibration.min_modified;
  return big ? engine : BB_SMC_PATH_CPU;
}
