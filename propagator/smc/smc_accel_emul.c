/* The parallel propagation's engine on host threads: the CPU emulation of the GPU engine
 * (cuda/gpu_smc.cu). Same state, same steps (smc_accel_steps.h) in the same order, with C11
 * atomics where the GPU has atomicMin, so that CI, which has no GPU, tests the algorithm
 * the kernels run: its threads race on the same words as the GPU's. */
#include "smc_internal.h"
#include "smc_accel.h"
#include "smc_pairs.h"
#include "parallel.h"

#include <stdlib.h>
#include <string.h>

static atomic_int emulated_threads = 4;
static atomic_int fail_countdown = 0; /* > 0: the settle that brings it to 0 fails */

void bb_smc_accel_emulated_set_threads(int threads) { atomic_store(&emulated_threads, threads < 1 ? 1 : threads); }
void bb_smc_accel_emulated_fail_after(int settles) { atomic_store(&fail_countdown, settles); }

typedef struct emul_shared {
  uint32_t *pair;
} emul_shared;

static void *emul_shared_new(const bb_smc_accel_pairs *p, int device, bb_error *err) {
  (void)device;
  emul_shared *sh = calloc(1, sizeof *sh);
  size_t cells = (size_t)p->vars * (size_t)p->width;
  if (sh) sh->pair = malloc(cells * sizeof *sh->pair);
  if (!sh || !sh->pair) {
    free(sh);
    bb_fail(err, BB_ERR_NOMEM, "stable_matching: out of memory for the emulated engine's pair matrix");
    return NULL;
  }
  p->fill(p->ctx, 0, p->vars, sh->pair);
  return sh;
}

static void emul_shared_free(void *shared) {
  emul_shared *sh = shared;
  if (!sh) return;
  free(sh->pair);
  free(sh);
}

/* One lane: the engine's copy of the domains plus the propagation's state. */
typedef struct emul_lane {
  int n, vars, width, words; /* men, variables, pair row width, bitmap words per row */
  const emul_shared *sh;
  int32_t *lo0, *hi0, *size0;
  uint8_t *holes;
  uint32_t *bits, *new_bits;
  bb_smc_accel_i32a *ptr, active, failed, next;
  bb_smc_accel_u32a *word;
  int32_t *listed, epoch; /* listed[v] == epoch: v's start rank came with this request */
  int32_t *unsettled;
  bb_smc_accel_settled_var *res; /* per variable, from settle */
  int want_inner;                /* the request's */
  bb_smc_accel_i32a inner;       /* settle found an inner hole */
  int32_t *out_rec, *out_values;
  size_t values_cap;
  bb_smc_accel_view view;
} emul_lane;

static void emul_lane_free(void *lane) {
  emul_lane *l = lane;
  if (!l) return;
  free(l->lo0);
  free(l->hi0);
  free(l->size0);
  free(l->holes);
  free(l->bits);
  free(l->new_bits);
  free(l->ptr);
  free(l->word);
  free(l->listed);
  free(l->unsettled);
  free(l->res);
  free(l->out_rec);
  free(l->out_values);
  free(l);
}

static void *emul_lane_new(void *shared, const bb_smc_accel_pairs *p, bb_error *err) {
  emul_lane *l = calloc(1, sizeof *l);
  if (l) {
    size_t vars = (size_t)p->vars;
    l->n = p->men;
    l->vars = p->vars;
    l->width = p->width;
    l->words = (l->width + 31) / 32;
    l->sh = shared;
    l->lo0 = malloc(vars * sizeof *l->lo0);
    l->hi0 = malloc(vars * sizeof *l->hi0);
    l->size0 = malloc(vars * sizeof *l->size0);
    l->holes = calloc(vars, 1);
    l->bits = calloc(vars * (size_t)l->words, sizeof *l->bits);
    l->new_bits = calloc(vars * (size_t)l->words, sizeof *l->new_bits);
    l->ptr = malloc(vars * sizeof *l->ptr);
    l->word = malloc(vars * sizeof *l->word);
    l->listed = calloc(vars, sizeof *l->listed);
    l->unsettled = malloc(vars * sizeof *l->unsettled);
    l->res = malloc(vars * sizeof *l->res);
    l->out_rec = malloc(vars * BB_SMC_ACCEL_OUT_INTS * sizeof *l->out_rec);
    l->values_cap = 1024;
    l->out_values = malloc(l->values_cap * sizeof *l->out_values);
    if (l->out_values && l->lo0 && l->hi0 && l->size0 && l->holes && l->bits && l->new_bits && l->ptr && l->word &&
        l->listed && l->unsettled && l->res && l->out_rec)
      return l;
  }
  emul_lane_free(l);
  bb_fail(err, BB_ERR_NOMEM, "stable_matching: out of memory for an emulated engine lane");
  return NULL;
}

/* --- The "kernels": one call per thread's range, as a grid stride would hand them out. --- */

static void init_kernel(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  emul_lane *l = ctx;
  for (int64_t v = begin; v < end; v++) {
    if (l->listed[v] != l->epoch) atomic_store_explicit(&l->ptr[v], l->lo0[v], memory_order_relaxed);
    atomic_store_explicit(&l->word[v], 2u * (uint32_t)l->hi0[v] + BB_SMC_ACCEL_NO_HOLDER, memory_order_relaxed);
  }
}

static void propose_all_kernel(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  emul_lane *l = ctx;
  for (int64_t v = begin; v < end; v++) bb_smc_accel_chain(&l->view, (int)v, bb_smc_accel_load_i32(&l->ptr[v]));
}

static void propose_list_kernel(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  emul_lane *l = ctx;
  for (int64_t i = begin; i < end; i++) {
    int v = l->unsettled[i];
    bb_smc_accel_chain(&l->view, v, bb_smc_accel_load_i32(&l->ptr[v]));
  }
}

static void check_kernel(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  emul_lane *l = ctx;
  for (int64_t v = begin; v < end; v++)
    if (!bb_smc_accel_settled(&l->view, (int)v)) l->unsettled[bb_smc_accel_add_i32(&l->next, 1)] = (int)v;
}

static void settle_count_kernel(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  emul_lane *l = ctx;
  for (int64_t v = begin; v < end; v++) {
    l->res[v] = bb_smc_accel_settle_count(&l->view, (int)v);
    if (!l->want_inner || atomic_load_explicit(&l->inner, memory_order_relaxed)) continue;
    int lo = bb_smc_accel_lo(&l->view, (int)v), hi = bb_smc_accel_ub(&l->view, (int)v);
    for (int k = lo; k <= hi; k++)
      if (bb_smc_accel_inner_hole(&l->view, (int)v, k)) {
        bb_smc_accel_store_i32(&l->inner, 1);
        break;
      }
  }
}

static void settle_emit_kernel(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  emul_lane *l = ctx;
  for (int64_t i = begin; i < end; i++) {
    const int32_t *rec = l->out_rec + i * BB_SMC_ACCEL_OUT_INTS;
    int v = rec[BB_SMC_ACCEL_OUT_VAR];
    const bb_smc_accel_settled_var *r = &l->res[v];
    uint32_t *row = r->kind == BB_SMC_ACCEL_INTERVAL ? NULL : l->new_bits + (size_t)v * (size_t)l->words;
    bb_smc_accel_settle_emit(&l->view, v, r, l->out_values + rec[BB_SMC_ACCEL_OUT_OFFSET], row);
  }
}

static void commit_kernel(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  emul_lane *l = ctx;
  for (int64_t i = begin; i < end; i++) {
    const int32_t *rec = l->out_rec + i * BB_SMC_ACCEL_OUT_INTS;
    int v = rec[BB_SMC_ACCEL_OUT_VAR];
    const bb_smc_accel_settled_var *r = &l->res[v];
    l->lo0[v] = r->lo;
    l->hi0[v] = r->hi;
    l->size0[v] = r->size;
    l->holes[v] = r->kind != BB_SMC_ACCEL_INTERVAL;
    if (l->holes[v]) {
      size_t row = (size_t)v * (size_t)l->words;
      for (int w = r->lo >> 5; w <= r->hi >> 5; w++) l->bits[row + (size_t)w] = l->new_bits[row + (size_t)w];
    }
  }
}

static void run(emul_lane *l, int64_t count, bb_range_fn body) {
  int threads = atomic_load(&emulated_threads);
  bb_parallel_for(count < threads ? (int)(count > 0 ? count : 1) : threads, count, body, l);
}

static bb_status emul_propose(void *lane, const bb_smc_accel_request *req, bb_smc_accel_tail *tail, bb_error *err) {
  (void)err;
  emul_lane *l = lane;
  int n = l->n, vars = l->vars, proposers = req->gs_lists ? vars : n;
  if (l->epoch == INT32_MAX) { /* wrap without signed overflow: no mark may look current */
    memset(l->listed, 0, (size_t)vars * sizeof *l->listed);
    l->epoch = 0;
  }
  l->epoch++;
  l->want_inner = req->want_inner;
  const uint32_t *row = req->rows;
  for (int i = 0; i < req->count; i++) {
    const int32_t *rec = req->rec + (size_t)i * BB_SMC_ACCEL_REC_INTS;
    int v = rec[BB_SMC_ACCEL_REC_VAR];
    l->lo0[v] = rec[BB_SMC_ACCEL_REC_LO];
    l->hi0[v] = rec[BB_SMC_ACCEL_REC_HI];
    l->size0[v] = rec[BB_SMC_ACCEL_REC_SIZE];
    l->holes[v] = l->size0[v] != l->hi0[v] - l->lo0[v] + 1;
    if (l->holes[v]) {
      size_t span = (size_t)bb_smc_accel_row_span(l->lo0[v], l->hi0[v]);
      memcpy(l->bits + (size_t)v * (size_t)l->words + (l->lo0[v] >> 5), row, span * sizeof *row);
      row += span;
    }
    atomic_store_explicit(&l->ptr[v], rec[BB_SMC_ACCEL_REC_START], memory_order_relaxed);
    l->listed[v] = l->epoch;
  }
  l->view =
      (bb_smc_accel_view){n,        l->width, req->gs_lists, l->words, req->threshold, l->sh->pair, l->lo0,     l->hi0,
                          l->size0, l->holes, l->bits,       l->ptr,   l->word,        &l->active,  &l->failed, NULL};
  atomic_store(&l->failed, 0);
  run(l, vars, init_kernel);
  atomic_store(&l->active, proposers);
  run(l, proposers, propose_all_kernel);
  *tail = (bb_smc_accel_tail){0};
  tail->rounds = 1;
  for (;;) {
    atomic_store(&l->next, 0);
    run(l, proposers, check_kernel);
    int count = atomic_load(&l->next);
    if (atomic_load(&l->failed)) {
      tail->failed = 1;
      return BB_OK;
    }
    if (count == 0) return BB_OK;
    if (req->threshold > 0) { /* the CPU finishes: hand over the state */
      tail->count = count;
      tail->unsettled = l->unsettled;
      tail->ptr = l->ptr;
      tail->word = l->word;
      tail->lo0 = l->lo0;
      tail->hi0 = l->hi0;
      return BB_OK;
    }
    atomic_store(&l->active, count);
    run(l, count, propose_list_kernel);
    tail->rounds++;
  }
}

static bb_status emul_settle(void *lane, const bb_smc_accel_tail *tail, int tail_ran, bb_smc_accel_outcome *out,
                             bb_error *err) {
  (void)tail, (void)tail_ran; /* the tail worked on this lane's own arrays */
  if (atomic_load(&fail_countdown) > 0 && atomic_fetch_sub(&fail_countdown, 1) == 1)
    return bb_fail(err, BB_ERR_GPU, "an injected failure (as a CUDA error would be)");
  emul_lane *l = lane;
  int vars = l->vars;
  *out = (bb_smc_accel_outcome){0};
  atomic_store(&l->failed, 0);
  atomic_store(&l->inner, 0);
  run(l, vars, settle_count_kernel);
  out->inner_holes = atomic_load(&l->inner);
  if (atomic_load(&l->failed)) {
    out->failed = 1;
    return BB_OK;
  }
  size_t total = 0;
  int changed = 0;
  for (int v = 0; v < vars; v++) {
    const bb_smc_accel_settled_var *r = &l->res[v];
    if (r->kind < 0) continue;
    int32_t *rec = l->out_rec + (size_t)changed++ * BB_SMC_ACCEL_OUT_INTS;
    rec[BB_SMC_ACCEL_OUT_VAR] = v;
    rec[BB_SMC_ACCEL_OUT_LO] = r->lo;
    rec[BB_SMC_ACCEL_OUT_HI] = r->hi;
    rec[BB_SMC_ACCEL_OUT_KIND] = r->kind;
    rec[BB_SMC_ACCEL_OUT_COUNT] = r->count;
    rec[BB_SMC_ACCEL_OUT_OFFSET] = (int32_t)total;
    total += (size_t)r->count;
  }
  if (total > l->values_cap) {
    int32_t *values = realloc(l->out_values, total * sizeof *values);
    if (!values) return bb_fail(err, BB_ERR_NOMEM, "stable_matching: out of memory for %zu results", total);
    l->out_values = values;
    l->values_cap = total;
  }
  run(l, changed, settle_emit_kernel);
  run(l, changed, commit_kernel);
  out->changed = changed;
  out->rec = l->out_rec;
  out->values = l->out_values;
  return BB_OK;
}

const bb_smc_accel_engine_ops bb_smc_accel_emulated_ops = {
    "emulated", emul_shared_new, emul_shared_free, emul_lane_new, emul_lane_free, emul_propose, emul_settle};
