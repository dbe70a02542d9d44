/* The parallel path of a Stable Marriage propagation, host side (smc_accel.h): lanes, what is
 * sent to the engine, the sequential tail, and the write-back.
 *
 * Lanes. An engine's copy of the domains belongs to one search thread: each constraint has
 * up to BB_SMC_LANES lanes, claimed by a thread on its first parallel propagation with one
 * compare-and-swap and kept (Gecode's workers are long-lived), so the hot path takes no
 * lock. A lane's copy matches a node when their stamps agree: then only the variables the
 * host reported changed, plus those the CPU changed after the last parallel run (stale),
 * are sent; otherwise every variable is. Any CPU propagation clears the node's stamp.
 *
 * The tail. Once the engine has at most the threshold of chains left (or some proposers
 * are unsettled after a round), the CPU finishes them from the engine's state with the
 * same steps, one at a time. Membership comes from the lane's mirror of the engine's bitmap
 * rows, kept here from what is sent and what comes back: asking the solver instead costs a
 * walk over the domain's ranges per test, which made a long chain many times slower
 * (docs/constraint.md). */
#include "smc_internal.h"
#include "smc_pairs.h"

#include <stdint.h>

struct bb_smc_accel_view;
static inline uint32_t host_pair(const struct bb_smc_accel_view *v, int var, int k);
static inline void host_wake(const struct bb_smc_accel_view *v, int var);
#define BB_SMC_ACCEL_WAKE(s, holder) host_wake((s), (holder))
#define BB_SMC_ACCEL_PAIR(s, v, k) host_pair((s), (v), (k))
#include "smc_accel_steps.h"

typedef struct host_tail {
  const bb_smc_prefs *p;
  int *stack, len; /* the proposers still to run (the root batch's scratch, unused here) */
  uint8_t *queued;
} host_tail;

static inline uint32_t host_pair(const bb_smc_accel_view *v, int var, int k) {
  const host_tail *h = v->host;
  int partner, rank;
  bb_smc_pair_partner(h->p, var, k, &partner, &rank);
  if (partner < 0) return BB_SMC_ACCEL_NOBODY;
  return ((uint32_t)(partner >= h->p->men ? partner - h->p->men : partner) << 16) | (uint32_t)rank;
}
static inline void host_wake(const bb_smc_accel_view *v, int var) {
  host_tail *h = (host_tail *)v->host;
  if (!h->queued[var]) {
    h->queued[var] = 1;
    h->stack[h->len++] = var;
  }
}

#include "smc_accel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BB_SMC_LANES 64

typedef struct lane {
  _Atomic(uintptr_t) owner; /* the claiming thread's token; 0: free */
  void *engine;             /* the engine's lane, made by its owner */
  bool broken;              /* its engine failed: this thread stays on the CPU */
  uint64_t stamp;
  int *stale, stale_len; /* variables the CPU changed since the engine's last run */
  uint8_t *is_stale;
  uint32_t *mirror; /* a bitmap row per variable: the engine's copy, for the tail */
  uint8_t *holes;   /* the engine's copy has holes: its mirror row is valid */
  uint8_t *sent;    /* marks while a request is built */
  int32_t *rec;     /* the request being built: a record per variable at most */
  uint32_t *rows;   /* their rows' spans, packed */
  size_t rows_cap;  /* in words */
} lane;

struct bb_smc_accel {
  const bb_smc_accel_engine_ops *ops;
  void *shared;
  bb_error why;       /* why `shared` could not be made */
  atomic_bool warned; /* one warning per constraint */
  lane lanes[BB_SMC_LANES];
};

static _Thread_local char thread_token;
static atomic_uint_fast64_t next_stamp = 1;

void bb_smc_accel_free(struct bb_smc_accel *a) {
  if (!a) return;
  for (int i = 0; i < BB_SMC_LANES; i++) {
    lane *l = &a->lanes[i];
    if (l->engine) a->ops->lane_free(l->engine);
    free(l->stale);
    free(l->is_stale);
    free(l->rec);
    free(l->rows);
    free(l->mirror);
    free(l->holes);
    free(l->sent);
  }
  if (a->shared) a->ops->shared_free(a->shared);
  free(a);
}

int bb_smc_accel_device(void) { return bb_smc_gpu_device_of(bb_smc_gpu_entry()); }

int bb_smc_accel_slot(bb_smc_path engine, int entry) { return engine == BB_SMC_PATH_EMULATED ? 0 : 1 + entry; }

/* What an engine is given of the preference data: sizes and the pair rows (smc_pairs.h). */
static void fill_pairs(const void *p, int row0, int row1, uint32_t *out) {
  bb_smc_accel_fill_pairs(p, row0, row1, out);
}
static bb_smc_accel_pairs pairs_of(const bb_smc_prefs *p) {
  return (bb_smc_accel_pairs){
      .men = p->men, .vars = p->vars, .width = bb_smc_accel_width(p), .fill = fill_pairs, .ctx = p};
}

static const bb_smc_accel_engine_ops *engine_ops(bb_smc_path engine) {
  return engine == BB_SMC_PATH_EMULATED ? &bb_smc_accel_emulated_ops : bb_smc_accel_gpu_ops();
}

/* The constraint's engine data for this thread's accelerator (the emulation, or its GPU list
 * entry: taken here on the thread's first GPU propagation), made once per slot (under the
 * prefs' lock: not on the hot path). NULL only when out of memory; when the engine cannot run
 * here (no CUDA, a device that cannot be opened), `shared` is NULL and `why` says why: the
 * threads of that entry propagate on the CPU. */
static struct bb_smc_accel *accel_of(const bb_smc_prefs *cp, bb_smc_path engine) {
  bb_smc_prefs *p = (bb_smc_prefs *)cp; /* the accel is a cache beside the read-only data */
  int entry = engine == BB_SMC_PATH_EMULATED ? 0 : bb_smc_gpu_entry();
  int device = bb_smc_gpu_device_of(entry), which = bb_smc_accel_slot(engine, entry);
  struct bb_smc_accel *a = atomic_load_explicit(&p->accel[which], memory_order_acquire);
  if (a) return a;
  pthread_mutex_lock(&p->accel_lock);
  a = atomic_load_explicit(&p->accel[which], memory_order_acquire);
  if (!a && (a = calloc(1, sizeof *a)) != NULL) {
    a->ops = engine_ops(engine);
    if (!a->ops)
      bb_fail(&a->why, BB_ERR_NO_GPU, "this build of bamboo has no CUDA support");
    else if (!bb_smc_accel_fits(p, &a->why)) {
    } else {
      bb_smc_accel_pairs pairs = pairs_of(p);
      a->shared = a->ops->shared_new(&pairs, device, &a->why);
    }
    atomic_store_explicit(&p->accel[which], a, memory_order_release);
  }
  pthread_mutex_unlock(&p->accel_lock);
  return a;
}

/* The lane this thread claimed, if any. */
static lane *find_lane(struct bb_smc_accel *a) {
  uintptr_t me = (uintptr_t)&thread_token;
  for (int i = 0; a && i < BB_SMC_LANES; i++)
    if (atomic_load_explicit(&a->lanes[i].owner, memory_order_acquire) == me) return &a->lanes[i];
  return NULL;
}

/* This thread's lane: found by its token, or claimed with one compare-and-swap. */
static lane *lane_of(struct bb_smc_accel *a, const bb_smc_prefs *p, bb_error *err) {
  uintptr_t me = (uintptr_t)&thread_token;
  lane *l = find_lane(a);
  for (int i = 0; i < BB_SMC_LANES && !l; i++) {
    uintptr_t none = 0;
    if (atomic_compare_exchange_strong(&a->lanes[i].owner, &none, me)) l = &a->lanes[i];
  }
  if (!l) {
    bb_fail(err, BB_ERR_ARG, "more than %d search threads use this constraint", BB_SMC_LANES);
    return NULL;
  }
  if (l->broken) {
    bb_fail(err, BB_ERR_GPU, "the engine failed earlier on this thread");
    return NULL;
  }
  if (!l->engine) {
    size_t vars = (size_t)p->vars;
    l->stale = malloc(vars * sizeof *l->stale);
    l->is_stale = calloc(vars, 1);
    l->rec = malloc(vars * BB_SMC_ACCEL_REC_INTS * sizeof *l->rec);
    l->mirror = malloc(vars * (size_t)((bb_smc_accel_width(p) + 31) / 32) * sizeof *l->mirror);
    l->holes = calloc(vars, 1);
    l->sent = calloc(vars, 1);
    if (!l->stale || !l->is_stale || !l->rec || !l->mirror || !l->holes || !l->sent) {
      bb_fail(err, BB_ERR_NOMEM, "out of memory for a lane");
      l->broken = true;
      return NULL;
    }
    bb_smc_accel_pairs pairs = pairs_of(p);
    l->engine = a->ops->lane_new(a->shared, &pairs, err);
    if (!l->engine) {
      l->broken = true;
      return NULL;
    }
  }
  return l;
}

/* Appends var's record (and its bitmap row when the domain has holes). */
static bool add_record(lane *l, int count, size_t *row_words, const bb_smc_prefs *p, bb_smc_node *node,
                       bb_smc_scratch *s, const bb_smc_domains *d, int var) {
  int words = (bb_smc_accel_width(p) + 31) / 32;
  int32_t *rec = l->rec + (size_t)count * BB_SMC_ACCEL_REC_INTS;
  int lo = d->min(d->ctx, var), hi = d->max(d->ctx, var), size = d->size(d->ctx, var);
  int start = node->bounds[var] < 0 ? 0 : node->bounds[var];
  rec[BB_SMC_ACCEL_REC_VAR] = var;
  rec[BB_SMC_ACCEL_REC_LO] = lo;
  rec[BB_SMC_ACCEL_REC_HI] = hi;
  rec[BB_SMC_ACCEL_REC_SIZE] = size;
  rec[BB_SMC_ACCEL_REC_START] = start < lo ? start : lo;
  l->holes[var] = size != hi - lo + 1;
  if (!l->holes[var]) return true;
  /* Only the words within the bounds travel (a GS-list spans a small part of n). */
  size_t span = (size_t)bb_smc_accel_row_span(lo, hi);
  if (*row_words + span > l->rows_cap) {
    size_t cap = l->rows_cap ? 2 * l->rows_cap : 4096;
    while (cap < *row_words + span) cap *= 2;
    uint32_t *grown = realloc(l->rows, cap * sizeof *grown);
    if (!grown) return false;
    l->rows = grown;
    l->rows_cap = cap;
  }
  uint32_t *row = l->mirror + (size_t)var * (size_t)words + (lo >> 5);
  memset(row, 0, span * sizeof *row);
  /* By ranges: a word at a time, not a value at a time, which is cheaper (smc_ranges.c). */
  int ranges = bb_smc_read_ranges(d, s, var), base = lo >> 5;
  for (int k = 0; k < ranges; k++)
    bb_smc_set_bits(row, s->w->pairs[2 * k] - 32 * base, s->w->pairs[2 * k + 1] - 32 * base);
  memcpy(l->rows + *row_words, row, span * sizeof *row);
  *row_words += span;
  return true;
}

/* The tail: the unsettled proposers finish here one at a time, from the engine's state. */
static bool run_tail(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_scratch *s, const lane *l,
                     bb_smc_accel_tail *t) {
  host_tail h = {p, s->w->lb, 0, s->w->holes};
  memset(h.queued, 0, (size_t)p->vars);
  bb_smc_accel_i32a active = 0, failed = 0;
  int width = bb_smc_accel_width(p);
  bb_smc_accel_view view = {p->men,
                            width,
                            strength == BB_SMC_GS_LISTS,
                            (width + 31) / 32,
                            0,
                            NULL,
                            t->lo0,
                            t->hi0,
                            NULL,
                            l->holes,
                            l->mirror,
                            t->ptr,
                            t->word,
                            &active,
                            &failed,
                            &h};
  for (int i = 0; i < t->count; i++) host_wake(&view, t->unsettled[i]);
  /* One at a time, every read is current: a displaced holder is carried on or woken, and a
   * cap below a proposer's pointer is a failure (bb_smc_accel_cap), so no check round is needed. */
  while (h.len > 0 && !atomic_load(&failed)) {
    int v = h.stack[--h.len];
    h.queued[v] = 0;
    atomic_store(&active, 1);
    bb_smc_accel_chain(&view, v, bb_smc_accel_load_i32(&t->ptr[v]));
  }
  return !atomic_load(&failed);
}

/* The lane's mirror follows what the engine's commit did to a changed variable. */
static void mirror_result(lane *l, int words, const int32_t *rec, const int32_t *values) {
  int var = rec[BB_SMC_ACCEL_OUT_VAR], lo = rec[BB_SMC_ACCEL_OUT_LO], hi = rec[BB_SMC_ACCEL_OUT_HI];
  int kind = rec[BB_SMC_ACCEL_OUT_KIND];
  const int32_t *vals = values + rec[BB_SMC_ACCEL_OUT_OFFSET];
  int count = rec[BB_SMC_ACCEL_OUT_COUNT];
  uint32_t *row = l->mirror + (size_t)var * (size_t)words;
  if (kind == BB_SMC_ACCEL_INTERVAL) {
    l->holes[var] = 0;
    return;
  }
  if (kind == BB_SMC_ACCEL_KEEP || !l->holes[var]) /* start from the new bounds */
    for (int w = lo >> 5; w <= hi >> 5; w++) row[w] = kind == BB_SMC_ACCEL_KEEP ? 0u : ~0u;
  for (int k = 0; k < count; k++) {
    uint32_t bit = 1u << (vals[k] & 31);
    if (kind == BB_SMC_ACCEL_KEEP)
      row[vals[k] >> 5] |= bit;
    else
      row[vals[k] >> 5] &= ~bit;
  }
  l->holes[var] = 1;
}

/* Writes one changed variable back into the solver: bounds, then kept or removed values. */
static bool write_back(const bb_smc_domains *d, bb_smc_scratch *s, const int32_t *rec, const int32_t *values) {
  void *ctx = d->ctx;
  int var = rec[BB_SMC_ACCEL_OUT_VAR], lo = rec[BB_SMC_ACCEL_OUT_LO], hi = rec[BB_SMC_ACCEL_OUT_HI];
  const int32_t *vals = values + rec[BB_SMC_ACCEL_OUT_OFFSET];
  int count = rec[BB_SMC_ACCEL_OUT_COUNT];
  switch (rec[BB_SMC_ACCEL_OUT_KIND]) {
    case BB_SMC_ACCEL_KEEP: return bb_smc_keep(d, s, var, vals, count);
    case BB_SMC_ACCEL_REMOVE:
      if (lo > d->min(ctx, var) && d->raise_min(ctx, var, lo) == BB_SMC_FAILED) return false;
      if (hi < d->max(ctx, var) && d->lower_max(ctx, var, hi) == BB_SMC_FAILED) return false;
      return count == 0 || bb_smc_remove(d, s, var, vals, count);
    default:
      if (lo > d->min(ctx, var) && d->raise_min(ctx, var, lo) == BB_SMC_FAILED) return false;
      return hi >= d->max(ctx, var) || d->lower_max(ctx, var, hi) != BB_SMC_FAILED;
  }
}

/* What the node learns about var: its bounds now; a var newly seen assigned waits for marriage. */
bb_status bb_smc_prepare(const bb_smc_prefs *p, bb_smc_path path, bb_error *err) {
  if (path == BB_SMC_PATH_CPU) return BB_OK;
  if (path == BB_SMC_PATH_AUTO) {
    path = bb_smc_hybrid_engine(p);
    if (path == BB_SMC_PATH_CPU) return BB_OK;
  }
  if (path == BB_SMC_PATH_GPU && !bb_smc_gpu_available())
    return bb_fail(err, BB_ERR_NO_GPU, "no usable GPU: %s", bb_smc_gpu_why());
  struct bb_smc_accel *a = accel_of(p, path);
  if (a && !a->shared) return bb_fail(err, BB_ERR_GPU, "%s", a->why.msg);
  return a && lane_of(a, p, err) ? BB_OK : BB_ERR_GPU;
}

static void see(bb_smc_node *node, bb_smc_scratch *s, int var, int lo, int hi) {
  int *nlo = &node->bounds[var], *nhi = &node->bounds[node->vars + var];
  if (lo == hi && !(*nlo == lo && *nhi == hi)) {
    s->unknown[s->unknown_len++] = var;
    node->unassigned--;
  }
  *nlo = lo;
  *nhi = hi;
}

static void forget_events(bb_smc_scratch *s) {
  for (int k = 0; k < s->stack_len; k++) s->queued[s->stack[k]] = 0;
  for (int k = 0; k < s->unknown_len; k++) s->is_unknown[s->unknown[k]] = 0;
  s->stack_len = s->unknown_len = 0;
  s->ranges_len = 0;
}

bb_smc_status bb_smc_accel_run(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_path engine, bb_smc_node *node,
                               bb_smc_scratch *s, const bb_smc_domains *d, bb_smc_run_info *info) {
  bb_error err = {{0}};
  double t0 = bb_now();
  struct bb_smc_accel *a = accel_of(p, engine);
  lane *l = a && a->shared ? lane_of(a, p, &err) : NULL;
  if (!l) {
    if (a && !a->shared) err = a->why;
    if (!a || !atomic_exchange(&a->warned, true))
      fprintf(stderr, "bamboo: warning: stable_matching: %s engine unavailable (%s); propagating on the CPU\n",
              a && a->ops ? a->ops->name : "parallel", a ? err.msg : "out of memory");
    return BB_SMC_NOMEM;
  }
  int vars = p->vars, count = 0;
  size_t rows = 0;
  /* 1. What the engine must learn. Fresh node or another lineage: everything. */
  bool full = node->fresh || node->stamp == 0 || node->stamp != l->stamp;
  bool ok = true;
  if (full) {
    for (int v = 0; v < vars && ok; v++) ok = add_record(l, count++, &rows, p, node, s, d, v);
  } else {
    /* What changed since the engine's copy: the host's events (and, when a CPU propagation
     * hands over mid-way, what it examined), and what earlier CPU work left stale. */
    const int *lists[3] = {s->stack, s->w->dirty, l->stale};
    int lens[3] = {s->stack_len, s->w->track_dirty ? s->w->dirty_len : 0, l->stale_len};
    for (int which = 0; which < 3; which++)
      for (int k = 0; k < lens[which] && ok; k++) {
        int v = lists[which][k];
        if (l->sent[v]) continue;
        l->sent[v] = 1;
        ok = add_record(l, count++, &rows, p, node, s, d, v);
      }
    for (int k = 0; k < count; k++) l->sent[l->rec[(size_t)k * BB_SMC_ACCEL_REC_INTS + BB_SMC_ACCEL_REC_VAR]] = 0;
  }
  for (int k = 0; k < l->stale_len; k++) l->is_stale[l->stale[k]] = 0;
  l->stale_len = 0;
  l->stamp = 0; /* the engine's copy is in flux until this run ends well */
  if (!ok) return BB_SMC_NOMEM;
  /* Whether a pair is now gone from within both bounds (node->inner_holes) is asked on every
   * run while the lineage has none: the host's batches skip the partners a proposer passes
   * only while it has none, and the events this run consumes may bring one (a side
   * constraint's removals, a branch on a middle value). */
  bool want_inner = node->fresh || !node->inner_holes;
  bb_smc_accel_request req = {
      strength == BB_SMC_GS_LISTS, bb_smc_tail_threshold(), count, full, want_inner, l->rec, l->rows, rows};
  if (info) {
    info->uploaded = count;
    info->t_gather = bb_now() - t0;
  }
  /* 2. Proposals, then the tail. */
  double t1 = bb_now();
  bb_smc_accel_tail tail;
  bb_status st = a->ops->propose(l->engine, &req, &tail, &err);
  double t2 = bb_now();
  bool tail_ran = false;
  if (st == BB_OK && !tail.failed && tail.count > 0) {
    if (!run_tail(p, strength, s, l, &tail)) tail.failed = 1;
    tail_ran = true;
  }
  double t3 = bb_now();
  /* 3. Settle: the new domains, compactly. */
  bb_smc_accel_outcome out = {0};
  if (st == BB_OK && !tail.failed) st = a->ops->settle(l->engine, &tail, tail_ran, &out, &err);
  double t4 = bb_now();
  if (st != BB_OK) {
    l->broken = true;
    atomic_store(&a->warned, true); /* one warning per constraint: this one */
    fprintf(stderr,
            "bamboo: warning: stable_matching: %s engine failed (%s); this search thread propagates on the CPU from "
            "now on\n",
            a->ops->name, err.msg);
    return BB_SMC_NOMEM;
  }
  /* The engine saw every event: the event rules must not see them again. */
  forget_events(s);
  for (int k = 0; k < count; k++) {
    const int32_t *rec = l->rec + (size_t)k * BB_SMC_ACCEL_REC_INTS;
    see(node, s, rec[BB_SMC_ACCEL_REC_VAR], rec[BB_SMC_ACCEL_REC_LO], rec[BB_SMC_ACCEL_REC_HI]);
  }
  if (want_inner && out.inner_holes) node->inner_holes = 1; /* told apart by the engine's settle */
  node->fresh = 0;
  if (tail.failed || out.failed) return BB_SMC_FAILED;
  /* 4. Write-back. */
  for (int k = 0; k < out.changed && ok; k++) {
    const int32_t *rec = out.rec + (size_t)k * BB_SMC_ACCEL_OUT_INTS;
    ok = write_back(d, s, rec, out.values);
    mirror_result(l, (bb_smc_accel_width(p) + 31) / 32, rec, out.values);
    see(node, s, rec[BB_SMC_ACCEL_OUT_VAR], rec[BB_SMC_ACCEL_OUT_LO], rec[BB_SMC_ACCEL_OUT_HI]);
  }
  if (info) {
    info->tail = tail_ran ? tail.count : 0;
    info->rounds = tail.rounds;
    info->written = out.changed;
    info->t_propose = t2 - t1;
    info->t_tail = t3 - t2;
    info->t_settle = t4 - t3;
    info->t_apply = bb_now() - t4;
  }
  if (!ok) return BB_SMC_FAILED;
  for (int k = 0; k < s->w->dirty_len; k++) s->w->is_dirty[s->w->dirty[k]] = 0; /* sent: no longer stale */
  s->w->track_dirty = true;
  s->w->dirty_len = 0;
  return BB_SMC_FIX;
}

static lane *my_lane(const bb_smc_prefs *p, bb_smc_path engine) {
  int entry = engine == BB_SMC_PATH_EMULATED ? 0 : bb_smc_gpu_entry_if_taken();
  if (entry < 0) return NULL; /* no GPU propagation yet on this thread: no lane */
  int which = bb_smc_accel_slot(engine, entry);
  return find_lane(atomic_load_explicit(&((bb_smc_prefs *)p)->accel[which], memory_order_acquire));
}

/* The variables the CPU examined (s->w->dirty) go stale in the lane, if it keeps following. */
static void mark_stale(lane *l, bb_smc_scratch *s) {
  for (int k = 0; k < s->w->dirty_len; k++) {
    int v = s->w->dirty[k];
    s->w->is_dirty[v] = 0;
    if (l && !l->is_stale[v]) {
      l->is_stale[v] = 1;
      l->stale[l->stale_len++] = v;
    }
  }
  s->w->dirty_len = 0;
  s->w->track_dirty = false;
}

void bb_smc_accel_cpu_finish(const bb_smc_prefs *p, bb_smc_path engine, bb_smc_node *node, bb_smc_scratch *s) {
  lane *l = my_lane(p, engine);
  bool keep = l && !l->broken && node->stamp != 0 && node->stamp == l->stamp;
  mark_stale(keep ? l : NULL, s);
  if (!keep) node->stamp = 0;
}

void bb_smc_accel_finish(const bb_smc_prefs *p, bb_smc_path engine, bb_smc_node *node, bb_smc_scratch *s, bool ok) {
  lane *l = my_lane(p, engine);
  mark_stale(l, s);
  if (!l) return;
  if (ok) {
    l->stamp = node->stamp = atomic_fetch_add(&next_stamp, 1);
  } else {
    l->stamp = node->stamp = 0;
  }
}
