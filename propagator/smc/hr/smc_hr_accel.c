/* The native HR propagation's parallel path, host side (smc_hr.h's bb_smc_hr_propagate_on):
 * gathers which pairs the residents' domains still allow, has an engine (smc_hr_accel.h) run
 * the resident-oriented proposals of smc_hr_accel_steps.h over them, raises every resident's
 * smallest value to the hospital his proposals end at, and runs the CPU rules to finish the
 * fixpoint. The raised values are ones the CPU rules remove as well (smc_hr_accel_steps.h
 * says why) and the rules are monotone, so the domains are the CPU path's.
 *
 * Nothing is written to the domains before the engine has answered: an engine that fails
 * leaves them untouched, and the propagation runs on the CPU instead. */
#include "smc_hr_accel.h"
#include "smc_hr_accel_steps.h" /* BB_SMC_HR_ACCEL_EMPTY */
#include "smc_hr_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ENGINE_EMULATED, ENGINE_GPU, ENGINES };

struct bb_smc_hr_accel {
  pthread_mutex_t lock; /* one parallel run at a time: the buffers below are shared */
  const bb_smc_hr_accel_engine_ops *ops[ENGINES];
  void *engine[ENGINES];
  bool broken[ENGINES]; /* failed once: this constraint propagates on the CPU from now on */
  uint32_t *slot_start, *alive, *start;
  uint64_t *slots;
  int32_t *final;
  long long runs, raised; /* for tests */
};

static atomic_llong total_runs, total_raised;

void bb_smc_hr_accel_counts(const bb_smc_hr *hr, long long *runs, long long *raised) {
  struct bb_smc_hr_accel *a = atomic_load(&((bb_smc_hr *)hr)->accel);
  *runs = *raised = 0;
  if (!a) return;
  pthread_mutex_lock(&a->lock);
  *runs = a->runs, *raised = a->raised;
  pthread_mutex_unlock(&a->lock);
}
void bb_smc_hr_accel_total_counts(long long *runs, long long *raised) {
  *runs = atomic_load(&total_runs), *raised = atomic_load(&total_raised);
}
void bb_smc_hr_accel_reset_counts(void) { atomic_store(&total_runs, 0), atomic_store(&total_raised, 0); }

void bb_smc_hr_accel_free(struct bb_smc_hr_accel *a) {
  if (!a) return;
  for (int k = 0; k < ENGINES; k++)
    if (a->engine[k]) a->ops[k]->close(a->engine[k]);
  pthread_mutex_destroy(&a->lock);
  free(a->slot_start), free(a->alive), free(a->start), free(a->slots), free(a->final);
  free(a);
}

/* The state, made by the first parallel propagation of this constraint (NULL: no memory). */
static struct bb_smc_hr_accel *accel_of(const bb_smc_hr *hr) {
  bb_smc_hr *data = (bb_smc_hr *)hr; /* the state is the only mutable part, behind its lock */
  struct bb_smc_hr_accel *a = atomic_load(&data->accel);
  if (a) return a;
  a = calloc(1, sizeof *a);
  if (!a) return NULL;
  uint32_t entries = hr->res_start[hr->nr];
  a->slot_start = malloc(((size_t)hr->nh + 1) * sizeof *a->slot_start);
  a->alive = malloc(((size_t)entries / 32 + 1) * sizeof *a->alive);
  a->start = malloc(((size_t)hr->nr + 1) * sizeof *a->start);
  a->final = malloc(((size_t)hr->nr + 1) * sizeof *a->final);
  uint64_t slots = 0;
  for (int h = 0; h < hr->nh; h++) slots += (uint64_t)hr->capacity[h];
  a->slots = malloc(((size_t)slots + 1) * sizeof *a->slots);
  if (!a->slot_start || !a->alive || !a->start || !a->final || !a->slots || pthread_mutex_init(&a->lock, NULL)) {
    free(a->slot_start), free(a->alive), free(a->start), free(a->slots), free(a->final);
    free(a);
    return NULL;
  }
  a->slot_start[0] = 0;
  for (int h = 0; h < hr->nh; h++) a->slot_start[h + 1] = a->slot_start[h] + (uint32_t)hr->capacity[h];
  struct bb_smc_hr_accel *none = NULL;
  if (!atomic_compare_exchange_strong(&data->accel, &none, a)) { /* another thread made it first */
    bb_smc_hr_accel_free(a);
    return none;
  }
  return a;
}

static bb_status engine_of(struct bb_smc_hr_accel *a, const bb_smc_hr *hr, int which, bb_error *err) {
  if (a->engine[which]) return BB_OK;
  const bb_smc_hr_accel_engine_ops *ops =
      which == ENGINE_GPU ? bb_smc_hr_accel_gpu_ops() : &bb_smc_hr_accel_emulated_ops;
  if (!ops) return bb_fail(err, BB_ERR_NO_GPU, "this build has no CUDA");
  bb_smc_hr_accel_lists lists = {
      hr->nr,       hr->nh,      hr->res_start[hr->nr], hr->hosp_start[hr->nh], a->slot_start[hr->nh], hr->res_start,
      hr->res_hosp, hr->res_pos, hr->hosp_start,        hr->hosp_rank,          a->slot_start};
  a->ops[which] = ops;
  a->engine[which] = ops->open(&lists, err);
  return a->engine[which] ? BB_OK : BB_ERR_GPU; /* err says why */
}

/* Which pairs each resident still allows (one-sided entries never match), from his smallest value on. */
static void gather(struct bb_smc_hr_accel *a, const bb_smc_hr *hr, const bb_smc_domains *d) {
  memset(a->alive, 0, ((size_t)hr->res_start[hr->nr] / 32 + 1) * sizeof *a->alive);
  for (int r = 0; r < hr->nr; r++) {
    int len = (int)(hr->res_start[r + 1] - hr->res_start[r]), lo = d->min(d->ctx, r), hi = d->max(d->ctx, r);
    a->start[r] = (uint32_t)(lo < 0 ? 0 : lo > len ? len : lo);
    for (int k = (int)a->start[r]; k < len && k <= hi; k++) {
      uint32_t e = hr->res_start[r] + (uint32_t)k;
      if (hr->res_pos[e] != BB_SMC_HR_UNRANKED && d->contains(d->ctx, r, k)) a->alive[e >> 5] |= 1u << (e & 31);
    }
  }
}

/* Every resident's smallest value up to where his proposals ended (len(r): nowhere). */
static bool apply(struct bb_smc_hr_accel *a, const bb_smc_hr *hr, bb_smc_hr_scratch *s, const bb_smc_domains *d) {
  for (int r = 0; r < hr->nr; r++) a->final[r] = (int32_t)(hr->res_start[r + 1] - hr->res_start[r]);
  for (int h = 0; h < hr->nh; h++)
    for (uint32_t q = a->slot_start[h]; q < a->slot_start[h + 1]; q++) {
      uint64_t w = a->slots[q];
      if (w == BB_SMC_HR_ACCEL_EMPTY) break; /* the slots are sorted, empty last */
      uint32_t r = (uint32_t)(w & 0xffffffffu), p = (uint32_t)(w >> 32);
      a->final[r] = (int32_t)hr->hosp_rank[hr->hosp_start[h] + p];
    }
  for (int r = 0; r < hr->nr; r++) {
    if (a->final[r] <= d->min(d->ctx, r)) continue;
    a->raised++, atomic_fetch_add(&total_raised, 1);
    bb_smc_hr_note(s, hr, r);
    if (d->raise_min(d->ctx, r, a->final[r]) == BB_SMC_FAILED) return false;
  }
  return true;
}

static void clear_queues(bb_smc_hr_scratch *s) {
  for (int i = 0; i < s->res_count; i++) s->res_queued[s->res_queue[i]] = 0;
  for (int i = 0; i < s->hosp_count; i++) s->hosp_queued[s->hosp_queue[i]] = 0, s->hosp_external[s->hosp_queue[i]] = 0;
  s->res_count = s->hosp_count = 0;
}

bb_smc_status bb_smc_hr_propagate_on(const bb_smc_hr *hr, bb_smc_path path, bb_smc_hr_node *node, bb_smc_hr_scratch *s,
                                     const bb_smc_domains *dom) {
  if (path != BB_SMC_PATH_GPU && path != BB_SMC_PATH_EMULATED) return bb_smc_hr_propagate(hr, node, s, dom);
  int which = path == BB_SMC_PATH_GPU ? ENGINE_GPU : ENGINE_EMULATED;
  struct bb_smc_hr_accel *a = accel_of(hr);
  if (!a) return bb_smc_hr_propagate(hr, node, s, dom); /* no memory for the parallel path: the CPU's needs none */
  bb_error err;
  memset(&err, 0, sizeof err);
  pthread_mutex_lock(&a->lock);
  if (a->broken[which]) {
    pthread_mutex_unlock(&a->lock);
    return bb_smc_hr_propagate(hr, node, s, dom);
  }
  bb_status st = engine_of(a, hr, which, &err);
  if (st == BB_OK) {
    gather(a, hr, dom);
    st = a->ops[which]->propose(a->engine[which], a->alive, a->start, a->slots, &err);
  }
  if (st != BB_OK) {
    a->broken[which] = true; /* one warning per constraint */
    pthread_mutex_unlock(&a->lock);
    fprintf(stderr, "bamboo: warning: stable_matching_hr: %s path unavailable (%s); propagating on the CPU\n",
            which == ENGINE_GPU ? "GPU" : "emulated", err.msg[0] ? err.msg : "unknown error");
    return bb_smc_hr_propagate(hr, node, s, dom);
  }
  a->runs++, atomic_fetch_add(&total_runs, 1);
  bool ok = apply(a, hr, s, dom);
  pthread_mutex_unlock(&a->lock);
  if (!ok) {
    clear_queues(s);
    return BB_SMC_FAILED;
  }
  return bb_smc_hr_propagate(hr, node, s, dom);
}
