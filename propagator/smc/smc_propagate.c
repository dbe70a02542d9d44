/* The Stable Marriage constraint's propagation: the event-driven rules ([Travasci 2025]
 * Algorithm 2) and bb_smc_propagate_on, which runs a propagation on its path (the batch of
 * smc_root.c for a fresh node, the parallel path of smc_accel.c, the hybrid's choice of
 * smc_hybrid.c). The node, scratch and events it reads are smc_node.c's.
 *
 * [Travasci 2025]'s functions map onto the rules of smc.h as follows:
 *   deltaMin(i)         -> stability() on a man whose minimum rose
 *   deltaMax(j)         -> channel() of the ranks above a woman's new maximum
 *   removeValue(i,a,s)  -> channel() of an inner removal, for men and women alike
 *   inst(i,s)           -> marriage() plus the bound rules, for men and women alike
 *   init()              -> the first propagation of a fresh node: every variable seen anew
 * With BB_SMC_GS_LISTS, women get stability() too (the women-proposing half).
 *
 * Channel removals are not written one value at a time: they are collected per variable
 * and written back in bulk (remove_values) once the queue of changed variables drains,
 * then the variables whose bounds moved are processed again. Deferring is sound because
 * every rule only needs a lower bound on a man's rank (or woman's): a stale minimum is a
 * weaker but still true bound, and the fixpoint of these monotone rules is unique. */
#include "smc_internal.h"

#include <stdlib.h>
#include <string.h>

/* Everything one propagation needs, passed around as one pointer. */
typedef struct run {
  const bb_smc_prefs *p;
  bb_smc_strength strength;
  bb_smc_node *node;
  bb_smc_scratch *s;
  const bb_smc_domains *d;
  bb_smc_counters c;
  bool out_of_memory;
} run;

static inline bool is_man(const run *r, int var) { return var < r->p->men; }

static inline void mirror(const run *r, int var, int rank, int *pvar, int *prank) {
  bb_smc_pair_partner(r->p, var, rank, pvar, prank);
}

/* The bounds this lineage last saw of var (node->bounds): domains only shrink, and every
 * path writes a domain before it records its bounds, so they always contain the domain's
 * bounds now. A rank outside them is outside the domain: no call into the host needed. */
static inline bool outside_seen(const run *r, int var, int rank) {
  return rank < r->node->bounds[var] || rank > r->node->bounds[r->node->vars + var];
}

/* channel: rank `rank` left var's domain, so the pair leaves the partner's domain at the
 * next flush. Skipped when the partner's bounds already exclude it (seen, or asked). */
static void channel(run *r, int var, int rank) {
  int pvar, prank;
  mirror(r, var, rank, &pvar, &prank);
  if (pvar < 0) return; /* the unmatched rank, or a one-sided entry: no partner */
  if (outside_seen(r, pvar, prank)) return;
  if (prank < r->d->min(r->d->ctx, pvar) || prank > r->d->max(r->d->ctx, pvar)) return;
  bb_smc_scratch *s = r->s;
  bool first = s->w->head[pvar] < 0;
  if (!bb_smc_pend(s->w, pvar, prank)) {
    r->out_of_memory = true;
    return;
  }
  if (first) s->w->touched[s->w->touched_len++] = pvar;
  r->c.channel_removals++;
}

/* The partner at `rank` must end with someone ranked at most `limit` in their own list. */
static bool cap_partner(run *r, int var, int rank, int strict) {
  int pvar, prank;
  mirror(r, var, rank, &pvar, &prank);
  if (pvar < 0) return true; /* nobody there: nothing can block */
  int limit = prank - strict;
  if (r->node->bounds[r->node->vars + pvar] <= limit) return true; /* seen: see outside_seen */
  if (r->d->max(r->d->ctx, pvar) <= limit) return true;
  r->c.bound_updates++;
  if (r->d->lower_max(r->d->ctx, pvar, limit) == BB_SMC_FAILED) return false;
  bb_smc_enqueue(r->s, pvar);
  return true;
}

/* stability: var's partner ranks at least `min` in var's list, so everyone var ranks above
 * min must end with someone they prefer to var (strict), and the one at min someone no
 * worse than var. Ranks below `from` were handled by an earlier call on this lineage. */
static bool stability(run *r, int var, int from, int min) {
  for (int k = from; k < min; k++)
    if (!cap_partner(r, var, k, 1)) return false;
  return cap_partner(r, var, min, 0);
}

/* marriage: var is assigned rank `rank`, so the partner is assigned var. */
static bool marriage(run *r, int var, int rank) {
  int pvar, prank;
  mirror(r, var, rank, &pvar, &prank);
  if (pvar < 0) return true; /* assigned unmatched: channelling removes the pairs */
  void *ctx = r->d->ctx;
  if (r->d->min(ctx, pvar) == prank && r->d->max(ctx, pvar) == prank) return true;
  if (r->d->assign(ctx, pvar, prank) == BB_SMC_FAILED) return false;
  bb_smc_enqueue(r->s, pvar);
  return true;
}

/* Compares var's domain bounds with what this lineage last saw and applies the rules to
 * the difference. */
static bool examine(run *r, int var) {
  int *lo = &r->node->bounds[var], *hi = &r->node->bounds[r->node->vars + var];
  int row = bb_smc_row_len(r->p, var);
  int min = r->d->min(r->d->ctx, var), max = r->d->max(r->d->ctx, var);
  bool proposes = is_man(r, var) || r->strength == BB_SMC_GS_LISTS;
  assert(min <= max && min >= *lo && max <= *hi); /* a domain never grows along a lineage */
  if (min > *lo) {
    int from = *lo < 0 ? 0 : *lo;
    if (proposes) {
      if (!stability(r, var, from, min)) return false;
    } else {
      for (int k = from; k < min; k++) channel(r, var, k);
    }
  }
  if (max < *hi)
    for (int k = max + 1; k <= *hi && k < row; k++) channel(r, var, k);
  if (min == max && !(*lo == min && *hi == max)) {
    if (!marriage(r, var, min)) return false;
    r->node->unassigned--;
    assert(r->node->unassigned >= 0);
  }
  *lo = min;
  *hi = max;
  return true;
}

/* Inner removals: ranks strictly between the bounds that are no longer in the domain. */
static void scan_unknown(run *r) {
  bb_smc_scratch *s = r->s;
  for (int k = 0; k < s->unknown_len; k++) {
    int var = s->unknown[k];
    s->is_unknown[var] = 0;
    int ranges = bb_smc_read_ranges(r->d, s, var); /* the holes are between the ranges */
    r->c.scans++;
    for (int g = 1; g < ranges; g++)
      for (int hole = s->w->pairs[2 * g - 1] + 1; hole < s->w->pairs[2 * g]; hole++) channel(r, var, hole);
  }
  s->unknown_len = 0;
  for (size_t k = 0; k < s->ranges_len; k++) {
    inner_range g = s->ranges[k];
    for (int v = g.lo; v <= g.hi; v++)
      if (!r->d->contains(r->d->ctx, g.var, v)) channel(r, g.var, v);
  }
  s->ranges_len = 0;
}

static int compare_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sorts values[0..count) and drops duplicates; returns the new count (at most n). */
static int sort_unique(int *values, int count) {
  if (count < 2) return count;
  qsort(values, (size_t)count, sizeof *values, compare_int);
  int unique = 1;
  for (int k = 1; k < count; k++)
    if (values[k] != values[unique - 1]) values[unique++] = values[k];
  return unique;
}

/* Writes the collected channel removals back, one bulk operation per variable. A value can
 * be collected more than once (from a bound move and an inner delta, say), so the buffer of
 * n is compacted whenever it fills. */
static bool flush(run *r) {
  bb_smc_scratch *s = r->s;
  bool ok = true;
  for (int t = 0; t < s->w->touched_len; t++) {
    int var = s->w->touched[t], count = 0;
    for (int it = s->w->head[var]; it >= 0; it = s->w->items[it].next) {
      if (count == s->n) {
        count = sort_unique(s->w->values, count);
        if (count == s->n) continue; /* every rank is already there: a duplicate */
      }
      s->w->values[count++] = s->w->items[it].value;
    }
    s->w->head[var] = -1;
    if (!ok) continue;
    count = sort_unique(s->w->values, count);
    ok = bb_smc_remove(r->d, s, var, s->w->values, count);
    bb_smc_enqueue(s, var);
  }
  s->w->touched_len = 0;
  s->w->items_len = 0;
  r->c.rounds++;
  return ok;
}

/* Marriage for the variables the parallel path saw assigned (listed in s->unknown). */
static bool marry_seen(run *r) {
  bb_smc_scratch *s = r->s;
  bool ok = true;
  for (int k = 0; ok && k < s->unknown_len; k++) ok = marriage(r, s->unknown[k], r->node->bounds[s->unknown[k]]);
  s->unknown_len = 0;
  return ok;
}

/* Incomplete lists, first propagation: a variable takes ranks 0..len, and a rank whose entry
 * the partner does not reciprocate is no pair, so it leaves the domain before the rules run
 * (the rules never see it again: channelling it reaches nobody). */
static bool trim_incomplete(run *r) {
  const bb_smc_prefs *p = r->p;
  bb_smc_scratch *s = r->s;
  void *ctx = r->d->ctx;
  for (int v = 0; v < p->vars; v++) {
    int len = bb_smc_row_len(p, v) - 1, count = 0;
    if (r->d->max(ctx, v) > len && r->d->lower_max(ctx, v, len) == BB_SMC_FAILED) return false;
    for (int k = 0; k < len; k++)
      if (p->pair_var[p->start[v] + k] < 0 && r->d->contains(ctx, v, k)) s->w->values[count++] = k;
    if (count > 0 && r->d->remove_values(ctx, v, s->w->values, count) == BB_SMC_FAILED) return false;
  }
  return true;
}

static atomic_bool root_batch = true, delta_batch = true;

/* node->inner_holes for a propagation that does not tell the kinds of holes apart: any inner
 * removal the host reported, or, before the first propagation, any domain with holes. */
static void note_inner_holes(bb_smc_node *node, const bb_smc_scratch *s, const bb_smc_domains *d, bool first) {
  if (!first && (s->unknown_len > 0 || s->ranges_len > 0)) node->inner_holes = 1;
  for (int v = 0; first && !node->inner_holes && v < node->vars; v++)
    if (d->size(d->ctx, v) != d->max(d->ctx, v) - d->min(d->ctx, v) + 1) node->inner_holes = 1;
}

void bb_smc_set_root_batch(bool on) { atomic_store(&root_batch, on); }
void bb_smc_set_delta_batch(bool on) { atomic_store(&delta_batch, on); }
bool bb_smc_delta_batch(void) { return atomic_load(&delta_batch); }

const char *bb_smc_path_name(bb_smc_path path) {
  switch (path) {
    case BB_SMC_PATH_CPU: return "cpu";
    case BB_SMC_PATH_GPU: return "gpu";
    case BB_SMC_PATH_EMULATED: return "emulated";
    default: return "auto";
  }
}

bb_smc_status bb_smc_propagate(const bb_smc_prefs *prefs, bb_smc_strength strength, bb_smc_node *node,
                               bb_smc_scratch *scratch, const bb_smc_domains *domains, bb_smc_counters *counters) {
  return bb_smc_propagate_on(prefs, strength, BB_SMC_PATH_CPU, node, scratch, domains, counters, NULL);
}

/* bb_smc_propagate_on with the thread's work area lent to the scratch (scratch->w). */
static bb_smc_status propagate_on(const bb_smc_prefs *prefs, bb_smc_strength strength, bb_smc_path path,
                                  bb_smc_node *node, bb_smc_scratch *scratch, const bb_smc_domains *domains,
                                  bb_smc_counters *counters, bb_smc_run_info *info) {
  double t0 = bb_now();
  run r = {.p = prefs, .strength = strength, .node = node, .s = scratch, .d = domains};
  r.c.propagations = 1;
  bool lineage_start = node->fresh; /* this lineage's first propagation */
  bool ok = true, parallel = false;
  bb_smc_run_info seen;
  /* The hybrid's parallel engine, asked once. A hybrid whose engine is the CPU (n below min_n,
   * or no GPU) runs as the CPU path: the same choices, without describing the propagation for a
   * choice it cannot make. */
  bb_smc_path engine = path == BB_SMC_PATH_AUTO ? bb_smc_hybrid_engine(prefs) : BB_SMC_PATH_CPU;
  if (path == BB_SMC_PATH_AUTO && !info && engine == BB_SMC_PATH_CPU) path = BB_SMC_PATH_CPU;
  if (!info && path == BB_SMC_PATH_AUTO) info = &seen;
  if (info) {
    memset(info, 0, sizeof *info);
    bb_smc_describe(prefs, strength, node, scratch, domains, info);
  }
  /* AUTO on the CPU may hand over to this engine mid-way (a cascade). */
  bb_smc_path handover = BB_SMC_PATH_CPU;
  if (path == BB_SMC_PATH_AUTO) {
    path = bb_smc_hybrid_choose(engine, info);
    if (path == BB_SMC_PATH_CPU && !node->fresh) handover = engine;
  }
  if (info) info->path = path;
  if (node->fresh && prefs->start && !trim_incomplete(&r)) {
    bb_smc_scratch_clear(scratch);
    return BB_SMC_FAILED;
  }
  /* Which holes this lineage has (node->inner_holes): the batches tell them apart (smc_root.c,
   * smc_delta.c), and so does the parallel engine's settle step (smc_accel.c); the event rules
   * count every inner removal the host reports, and the event rules' root every hole. */
  bool batches = !lineage_start && atomic_load_explicit(&delta_batch, memory_order_relaxed);
  if (!lineage_start && !batches) note_inner_holes(node, scratch, domains, false);
  if (lineage_start && !atomic_load_explicit(&root_batch, memory_order_relaxed))
    note_inner_holes(node, scratch, domains, true);
  if (path == BB_SMC_PATH_GPU || path == BB_SMC_PATH_EMULATED) {
    /* Proposals in parallel; marriage and anything it sets off run below. */
    bb_smc_status first = bb_smc_accel_run(prefs, strength, path, node, scratch, domains, info);
    if (first == BB_SMC_FAILED) {
      bb_smc_scratch_clear(scratch);
      return BB_SMC_FAILED;
    }
    parallel = first == BB_SMC_FIX;
    if (!parallel) path = BB_SMC_PATH_CPU; /* the engine could not run: nothing was written */
  }
  if (info) info->path = path;
  if (parallel) {
    ok = marry_seen(&r);
  } else if (node->fresh && atomic_load_explicit(&root_batch, memory_order_relaxed)) {
    /* init(): everything is new, so the batch replaces any recorded events. */
    node->fresh = 0;
    node->stamp = 0;
    bb_smc_scratch_clear(scratch);
    ok = bb_smc_root_batch(prefs, strength, node, scratch, domains, &r.c);
    for (int k = 0; ok && k < scratch->unknown_len; k++) {
      int var = scratch->unknown[k];
      ok = marriage(&r, var, node->bounds[var]);
      node->unassigned--;
    }
    scratch->unknown_len = 0;
  } else {
    if (handover != BB_SMC_PATH_CPU) { /* the engine's copy can follow: what is examined goes stale */
      scratch->w->track_dirty = true;
      scratch->w->dirty_len = 0;
    } else {
      node->stamp = 0; /* the CPU changes domains the parallel engine's copy does not follow */
    }
    if (node->fresh) { /* init() through the event rules: every variable seen anew */
      node->fresh = 0;
      for (int v = 0; v < prefs->vars; v++) bb_smc_note_unknown(scratch, v);
    }
  }
  /* The handover budget: what the changed domains lost explains this much work; a cascade
   * goes far beyond it (smc_hybrid.c). */
  uint64_t budget = UINT64_MAX;
  int spread = 0; /* a batch past the budget that touched this many variables per 1000 steps stays */
  if (handover != BB_SMC_PATH_CPU) {
    bb_smc_calibration cal = bb_smc_get_calibration();
    budget = (uint64_t)(batches ? cal.batch_handover : cal.handover) +
             (uint64_t)cal.handover_per_value * (uint64_t)info->old_domain;
    spread = cal.handover_spread;
  }
  if (!parallel && batches && scratch->stack_len > 0) {
    /* The events as batches (smc_delta.c). A batch that outgrows the budget writes nothing and
     * hands its events to the engine; the event rules below take only what a batch could not
     * (out of memory) and what marriage sets off after the engine. */
    bb_smc_delta_result rounds;
    do {
      rounds = bb_smc_delta_round(prefs, strength, node, scratch, domains, &r.c, &budget, spread);
      if (rounds == BB_SMC_DELTA_HAND_OVER || rounds == BB_SMC_DELTA_GAVE_UP)
        note_inner_holes(node, scratch, domains, false); /* the round's events go elsewhere */
      if (rounds == BB_SMC_DELTA_HAND_OVER) {
        budget = UINT64_MAX;
        bb_smc_status rest = bb_smc_accel_run(prefs, strength, handover, node, scratch, domains, NULL);
        if (rest == BB_SMC_FAILED)
          rounds = BB_SMC_DELTA_FAILED;
        else if (rest == BB_SMC_FIX) {
          parallel = true;
          path = handover;
          if (info) info->path = path, info->handed_over = 1;
          ok = marry_seen(&r);
          break;
        } else
          rounds = BB_SMC_DELTA_MORE; /* the engine could not run: the batch goes on here */
      }
    } while (rounds == BB_SMC_DELTA_MORE);
    if (rounds == BB_SMC_DELTA_FAILED) ok = false;
  }
  scan_unknown(&r);
  for (;;) {
    while (ok && scratch->stack_len > 0) {
      int var = scratch->stack[--scratch->stack_len];
      scratch->queued[var] = 0;
      if (scratch->w->track_dirty && !scratch->w->is_dirty[var]) { /* the engine's copy of var goes stale */
        assert(scratch->w->dirty_len < scratch->vars);             /* each variable listed at most once */
        scratch->w->is_dirty[var] = 1;
        scratch->w->dirty[scratch->w->dirty_len++] = var;
      }
      ok = examine(&r, var);
      if (r.c.channel_removals + r.c.bound_updates > budget) break; /* a cascade: see below */
    }
    if (!ok || r.out_of_memory || (scratch->w->touched_len == 0 && scratch->stack_len == 0)) break;
    if (scratch->w->touched_len > 0) ok = flush(&r);
    if (ok && r.c.channel_removals + r.c.bound_updates > budget) {
      /* A cascade: the engine takes the rest from here (what is queued, what was examined). */
      budget = UINT64_MAX;
      bb_smc_status rest = bb_smc_accel_run(prefs, strength, handover, node, scratch, domains, NULL);
      if (rest == BB_SMC_FAILED) {
        ok = false;
        break;
      }
      if (rest == BB_SMC_FIX) {
        parallel = true;
        path = handover;
        if (info) info->path = path, info->handed_over = 1;
        ok = marry_seen(&r);
      }
    }
  }
  if (parallel)
    bb_smc_accel_finish(prefs, path, node, scratch, ok && !r.out_of_memory);
  else if (scratch->w->track_dirty)
    bb_smc_accel_cpu_finish(prefs, handover, node, scratch); /* set for it above */
  if (info) info->t_total = bb_now() - t0;
  if (r.out_of_memory) {
    /* A lost channel removal would leave the domains short of the fixpoint: report it. */
    bb_smc_scratch_clear(scratch);
    return BB_SMC_NOMEM;
  }
  if (counters) {
    counters->propagations += r.c.propagations;
    counters->rounds += r.c.rounds;
    counters->channel_removals += r.c.channel_removals;
    counters->bound_updates += r.c.bound_updates;
    counters->scans += r.c.scans;
  }
  if (!ok) {
    bb_smc_scratch_clear(scratch);
    return BB_SMC_FAILED;
  }
  return node->unassigned == 0 ? BB_SMC_SOLVED : BB_SMC_FIX;
}

bb_smc_status bb_smc_propagate_on(const bb_smc_prefs *prefs, bb_smc_strength strength, bb_smc_path path,
                                  bb_smc_node *node, bb_smc_scratch *scratch, const bb_smc_domains *domains,
                                  bb_smc_counters *counters, bb_smc_run_info *info) {
  scratch->w = bb_smc_work_for((size_t)scratch->vars, scratch->n);
  if (!scratch->w) {
    bb_smc_scratch_clear(scratch);
    return BB_SMC_NOMEM;
  }
  bb_smc_status result = propagate_on(prefs, strength, path, node, scratch, domains, counters, info);
  scratch->w = NULL;
  return result;
}
