/* The HRC propagation's counting pass on a parallel engine, host side (smc_hrc_count.h): gathers
 * the domains into one bit per list entry and every variable's bounds and size, has the engine
 * (hrc_accel.h: the GPU, or its emulation on host threads) run the steps of
 * hrc_accel_steps.h, and hands the counts to the rules, which run on the host.
 *
 * An engine that fails once is not used again by this constraint: the caller counts on the
 * host (one warning on stderr per constraint and engine). Nothing is written to the domains
 * here, so there is nothing to undo. */
#include "hrc_accel.h"
#include "smc_hrc_count.h"
#include "smc_hrc_path.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ENGINE_EMULATED, ENGINE_GPU, ENGINES };

struct bb_smc_hrc_accel {
  pthread_mutex_t lock; /* one run at a time: the engines and the alive bits are shared */
  const bb_smc_hrc_accel_engine_ops *ops[ENGINES];
  void *engine[ENGINES];
  bool broken[ENGINES];
  uint32_t *alive;
  long long runs, fallbacks;
};

void bb_smc_hrc_accel_free(struct bb_smc_hrc_accel *a) {
  if (!a) return;
  for (int k = 0; k < ENGINES; k++)
    if (a->engine[k]) a->ops[k]->close(a->engine[k]);
  pthread_mutex_destroy(&a->lock);
  free(a->alive);
  free(a);
}

void bb_smc_hrc_accel_counts(const bb_smc_hrc *d, long long *runs, long long *fallbacks) {
  struct bb_smc_hrc_accel *a = atomic_load(&((bb_smc_hrc *)d)->accel);
  *runs = *fallbacks = 0;
  if (!a) return;
  pthread_mutex_lock(&a->lock);
  *runs = a->runs, *fallbacks = a->fallbacks;
  pthread_mutex_unlock(&a->lock);
}

/* The state, made by the first parallel propagation of this constraint (NULL: no memory). */
static struct bb_smc_hrc_accel *accel_of(const bb_smc_hrc *d) {
  bb_smc_hrc *data = (bb_smc_hrc *)d; /* the state is the only mutable part, behind its lock */
  struct bb_smc_hrc_accel *a = atomic_load(&data->accel);
  if (a) return a;
  a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->alive = malloc(((size_t)d->var_start[d->n_vars] / 32 + 1) * sizeof *a->alive);
  if (!a->alive || pthread_mutex_init(&a->lock, NULL)) {
    free(a->alive);
    free(a);
    return NULL;
  }
  struct bb_smc_hrc_accel *none = NULL;
  if (!atomic_compare_exchange_strong(&data->accel, &none, a)) { /* another thread made it first */
    bb_smc_hrc_accel_free(a);
    return none;
  }
  return a;
}

static bb_status engine_of(struct bb_smc_hrc_accel *a, const bb_smc_hrc *d, int which, bb_error *err) {
  if (a->engine[which]) return BB_OK;
  const bb_smc_hrc_accel_engine_ops *ops =
      which == ENGINE_GPU ? bb_smc_hrc_accel_gpu_ops() : &bb_smc_hrc_accel_emulated_ops;
  if (!ops) return bb_fail(err, BB_ERR_NO_GPU, "this build has no CUDA");
  bb_smc_hrc_accel_lists lists = {d->n_vars, d->n_hospitals, d->var_start[d->n_vars], d->hosp_start[d->n_hospitals],
                                  d->e_s1,   d->e_s2,        d->hosp_start,           d->slot_var};
  a->ops[which] = ops;
  a->engine[which] = ops->open(&lists, err);
  return a->engine[which] ? BB_OK : BB_ERR_GPU; /* err says why */
}

/* Every variable's bounds and size, and which acceptable entries its domain still holds
 * (bb_smc_hrc_read_var: the host's pass reads the same way). */
static void gather(struct bb_smc_hrc_accel *a, const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_hrc_counts *c) {
  memset(a->alive, 0, ((size_t)d->var_start[d->n_vars] / 32 + 1) * sizeof *a->alive);
  for (int v = 0; v < d->n_vars; v++) {
    int runs = bb_smc_hrc_read_var(dom, c, v), len = bb_smc_hrc_len(d, v);
    for (int r = 0; r < runs; r++)
      for (int k = c->runs[2 * r]; k <= c->runs[2 * r + 1] && k < len; k++) {
        uint32_t e = d->var_start[v] + (uint32_t)k;
        if (d->e_s1[e] >= 0) a->alive[e >> 5] |= 1u << (e & 31);
      }
  }
}

bool bb_smc_hrc_accel_count(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_counts *c) {
  int which = path == BB_SMC_PATH_GPU ? ENGINE_GPU : ENGINE_EMULATED;
  struct bb_smc_hrc_accel *a = accel_of(d);
  if (!a) return false; /* no memory for the parallel path: the host's needs none */
  bb_error err;
  memset(&err, 0, sizeof err);
  pthread_mutex_lock(&a->lock);
  if (a->broken[which]) {
    a->fallbacks++;
    pthread_mutex_unlock(&a->lock);
    return false;
  }
  bb_status st = engine_of(a, d, which, &err);
  if (st == BB_OK) {
    gather(a, d, dom, c);
    bb_smc_hrc_accel_out out = {c->poss, c->poss_before, c->sure_before, c->sure_total};
    st = a->ops[which]->count(a->engine[which], a->alive, c->asize, &out, &err);
  }
  if (st != BB_OK) {
    a->broken[which] = true; /* one warning per constraint */
    a->fallbacks++;
    pthread_mutex_unlock(&a->lock);
    fprintf(stderr, "bamboo: warning: stable_matching_hrc: %s path unavailable (%s); propagating on the CPU\n",
            which == ENGINE_GPU ? "GPU" : "emulated", err.msg[0] ? err.msg : "unknown error");
    return false;
  }
  a->runs++;
  pthread_mutex_unlock(&a->lock);
  return true;
}
