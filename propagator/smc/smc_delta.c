/* A later propagation of the Stable Marriage constraint as a batch: the root
 * batch's pointer Gale-Shapley (smc_root.c), started from the last fixpoint of this lineage
 * and from what changed since, on local state, with one bulk write-back per changed variable.
 *
 * Why. The event rules (smc_propagate.c) run a cascade through the host: every step reads
 * bounds from the solver, every cap is a solver update that wakes every constraint on the
 * variable, and the pending channel removals are flushed once per step of the chain. A
 * cascade of a few hundred proposals then costs a few microseconds a step. Here the chain
 * runs on the constraint's own memory and the solver sees each changed domain once.
 *
 * The state (the work area's dv[var], valid when its seen == epoch, set from the node on
 * first touch):
 *   lo   a proposer's pointer: its smallest rank left, whose pair is mutual (the partner's
 *        upper bound is exactly the proposer's rank there); for a receiver that does not
 *        propose (women under men-proposing) a lower bound;
 *   hi   an upper bound: every rank above it is gone (and was channelled);
 *   row  a bitmap of var's domain over its bounds at first read, read from the host only
 *        when membership is asked and the host's next values (bb_smc_domains.next) do not
 *        answer it cheaply: a cap that cuts several ranks, a reported variable a value is
 *        dropped from, inner removals; removals found before the read are replayed.
 * Every removal is channelled at once (the pair leaves both sides), so inside the bounds a
 * proposer's own membership says whether a pair is allowed, with no look at the partner.
 * Removals are also kept per variable (the work area's items, as the event rules' flush
 * keeps them) for the write-back and, while the row is unread, for membership.
 *
 * One round: the events (bounds moved, inner removals told or unknown) are channelled and
 * the proposers whose pointer pair went are freed; each free proposer moves its pointer to
 * its next member, capping every partner it passes (strictly: a removed pair still blocks)
 * and the one it stops at (weakly); a cap channels every rank it cuts and frees the holder
 * (the proposer pointing at the old bound). Then every changed domain is written once. The
 * rules are smc.h's, minus marriage: a variable the write-back leaves assigned assigns its
 * partner in the host, and that partner is the next round's event. The fixpoint of these
 * monotone rules is unique, so the result is the event rules' (tests compare the two). */
#include "smc_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The bitmap rows of one round stay below this (then the event rules run instead). */
#define DELTA_POOL_MAX ((size_t)64 << 20)

typedef struct bb_smc_delta_var dvar;

typedef struct delta {
  const bb_smc_prefs *p;
  bool gs_lists;
  bb_smc_node *node;
  bb_smc_scratch *s;
  const bb_smc_domains *d;
  bb_smc_counters *c;
  bool out_of_memory; /* a list or the pool could not grow: nothing was written this round */
} delta;

/* ROW_READ: v->row is set. An offset cannot say it: it is negative when lo's word lies beyond the pool's length. */
enum { FREE = 1, CHANGED = 2, EVENT = 4, ROW_READ = 8 };

static inline bool proposes(const delta *t, int var) { return var < t->p->men || t->gs_lists; }

static inline void pair_of(const delta *t, int var, int k, int *q, int *rank) {
  bb_smc_pair_partner(t->p, var, k, q, rank);
}

/* var's local state, from the node on its first touch in this round. */
static inline dvar *touch(delta *t, int var) {
  assert(var >= 0 && var < t->node->vars);
  dvar *v = &t->s->w->dv[var];
  if (v->seen != t->s->w->epoch) {
    v->seen = t->s->w->epoch;
    v->lo = t->node->bounds[var];
    v->hi = t->node->bounds[t->node->vars + var];
    v->flags = 0; /* the row unread */
  }
  return v;
}

static void push_free(delta *t, int var, dvar *v) {
  if (v->flags & FREE) return;
  v->flags |= FREE;
  assert(t->s->w->free_len < t->node->vars); /* each variable is on the stack at most once */
  t->s->w->free_stack[t->s->w->free_len++] = var;
}

/* Lists var for the write-back (CHANGED) or for what the node sees (EVENT), once. */
static void mark(delta *t, int var, dvar *v, int flag) {
  if (!(v->flags & (CHANGED | EVENT))) {
    assert(t->s->w->listed_len < t->node->vars); /* listed once a round */
    t->s->w->listed[t->s->w->listed_len++] = var;
  }
  v->flags |= (uint8_t)flag;
}

static inline bool has_bit(const delta *t, const dvar *v, int k) {
  assert(v->row + (k >> 5) >= 0 && (size_t)(v->row + (k >> 5)) < t->s->w->pool_len); /* in the row read */
  return (t->s->w->pool[v->row + (k >> 5)] >> (k & 31)) & 1u;
}

/* k is in var's domain (its row read). */
static inline bool member(const delta *t, const dvar *v, int k) { return k >= v->lo && k <= v->hi && has_bit(t, v, k); }

/* var's domain from the host into a bitmap row over [lo, hi], minus the removals found so
 * far. false when out of memory. */
static bool read_row(delta *t, int var, dvar *v) {
  bb_smc_scratch *s = t->s;
  if (v->flags & ROW_READ) return true;
  int lo = v->lo, hi = v->hi;
  size_t words = hi >= lo ? (size_t)(hi >> 5) - (size_t)(lo >> 5) + 1 : 1;
  if (s->w->pool_len + words > s->w->pool_cap) {
    size_t cap = s->w->pool_cap ? 2 * s->w->pool_cap : 4096;
    while (cap < s->w->pool_len + words) cap *= 2;
    uint32_t *grown = cap * sizeof *grown <= DELTA_POOL_MAX ? realloc(s->w->pool, cap * sizeof *grown) : NULL;
    if (!grown) {
      t->out_of_memory = true;
      return false;
    }
    s->w->pool = grown;
    s->w->pool_cap = cap;
  }
  assert(s->w->pool_len + words <= s->w->pool_cap);
  uint32_t *row = s->w->pool + s->w->pool_len;
  memset(row, 0, words * sizeof *row);
  v->row = (int32_t)s->w->pool_len - (lo >> 5);
  v->flags |= ROW_READ;
  s->w->pool_len += words;
  if (hi < lo) return true;
  int ranges = bb_smc_read_ranges(t->d, s, var), base = 32 * (lo >> 5);
  for (int g = 0; g < ranges; g++) {
    /* The host's ranges are ascending and disjoint (smc_ranges.c). */
    assert(s->w->pairs[2 * g] <= s->w->pairs[2 * g + 1] && (g == 0 || s->w->pairs[2 * g] > s->w->pairs[2 * g - 1]));
    int a = s->w->pairs[2 * g] < lo ? lo : s->w->pairs[2 * g],
        b = s->w->pairs[2 * g + 1] > hi ? hi : s->w->pairs[2 * g + 1];
    if (a <= b) bb_smc_set_bits(row, a - base, b - base);
  }
  for (int it = s->w->head[var]; it >= 0; it = s->w->items[it].next) {
    int k = s->w->items[it].value;
    if (k >= lo && k <= hi) s->w->pool[v->row + (k >> 5)] &= ~(1u << (k & 31));
  }
  return true;
}

/* Rank k leaves var's domain (channelled from the partner's side). A proposer whose pointer
 * it was is free. */
static void drop(delta *t, int var, int k) {
  const bb_smc_node *node = t->node;
  assert(k >= 0 && k <= bb_smc_row_len(t->p, var));
  if (k < node->bounds[var] || k > node->bounds[node->vars + var]) return; /* gone before */
  dvar *v = touch(t, var);
  if (k < v->lo || k > v->hi) return;
  /* A reported variable may have lost k already (another constraint removed it, and the pair
   * with it): its row says so, where an unread one would add a removal for nothing. */
  if (!(v->flags & ROW_READ) && (v->flags & EVENT) && !read_row(t, var, v)) return;
  if (v->flags & ROW_READ) {
    uint32_t *word = &t->s->w->pool[v->row + (k >> 5)], bit = 1u << (k & 31);
    if (!(*word & bit)) return;
    *word &= ~bit;
  }
  if (!bb_smc_pend(t->s->w, var, k)) {
    t->out_of_memory = true;
    return;
  }
  t->c->channel_removals++;
  mark(t, var, v, CHANGED);
  if (k == v->lo && proposes(t, var)) push_free(t, var, v);
}

static bool cap(delta *t, int q, int limit);

/* channel: var's rank k is gone, so the pair leaves the partner's domain. */
static inline void channel(delta *t, int var, int k) {
  int q, rank;
  pair_of(t, var, k, &q, &rank);
  const bb_smc_node *node = t->node;
  if (q >= 0 && rank >= node->bounds[q] && rank <= node->bounds[node->vars + q]) drop(t, q, rank);
}

/* A strict cap on the partner at each rank of [from, to), [Travasci 2025]'s stability for the
 * ranks a pointer passes. Most of those partners were capped below it before (their seen bound says so),
 * so the loop only reads the pair and that bound. */
static bool cap_passed(delta *t, int var, int from, int to) {
  assert(to <= bb_smc_row_len(t->p, var));
  const bb_smc_node *node = t->node;
  const int *seen_hi = node->bounds + node->vars;
  for (int k = from; k < to; k++) {
    int q, rank;
    pair_of(t, var, k, &q, &rank);
    if (q >= 0 && seen_hi[q] >= rank && !cap(t, q, rank - 1)) return false;
  }
  return true;
}

/* Caps that cut more ranks than this read the row first, so that only the members are
 * channelled: q's upper bound can lie far above its largest member (drops do not move it),
 * and every rank channelled is a read of q's row of the pair matrix. */
#define CAP_READS_ROW 4

/* q must end with someone at rank <= limit: every rank of q above it goes, and whoever
 * pointed at q's old bound is free. false when q's domain empties. */
static bool cap(delta *t, int q, int limit) {
  if (t->node->bounds[t->node->vars + q] <= limit) return true; /* capped before: most partners a move passes */
  dvar *v = touch(t, q);
  int old = v->hi, from = limit + 1 < v->lo ? v->lo : limit + 1;
  if (old <= limit) return true;
  t->c->bound_updates++;
  if (!(v->flags & ROW_READ) && old - from >= CAP_READS_ROW && !read_row(t, q, v))
    return true; /* the round is dropped */
  v->hi = limit;
  if (!(v->flags & ROW_READ)) {
    for (int r = from; r <= old; r++) channel(t, q, r);
  } else { /* the members, a word of the row at a time */
    const uint32_t *row = t->s->w->pool + v->row;
    for (int w = from >> 5; w <= old >> 5; w++) {
      uint32_t bits = row[w];
      if (w == from >> 5) bits &= ~0u << (from & 31);
      if (w == old >> 5) bits &= ~0u >> (31 - (old & 31));
      for (; bits; bits &= bits - 1) channel(t, q, 32 * w + __builtin_ctz(bits));
    }
  }
  mark(t, q, v, CHANGED);
  return limit >= v->lo;
}

/* The unread row's removals that next_left walks before it reads the row instead. */
#define DROPS_WALKED 16

/* 1: k was dropped from var in this round (var's row unread); 0: not; -1: var has more drops
 * than are worth walking. */
static int dropped(const delta *t, int var, int k) {
  const bb_smc_work *w = t->s->w;
  int walked = 0;
  for (int it = w->head[var]; it >= 0; it = w->items[it].next) {
    if (w->items[it].value == k) return 1;
    if (++walked == DROPS_WALKED) return -1;
  }
  return 0;
}

/* var's smallest rank at or above k left in this round, its row unread: the host's next values
 * that were not dropped. -1 when that takes more than a few steps or the host cannot say (no
 * `next`): the caller reads the row. */
static int next_left(const delta *t, int var, const dvar *v, int k) {
  void *ctx = t->d->ctx;
  int min = t->d->min(ctx, var);
  if (k <= min)
    k = min;
  else if (!t->d->next)
    return -1;
  else
    k = t->d->next(ctx, var, k - 1);
  for (int tries = 0; k <= v->hi; tries++) {
    int gone = dropped(t, var, k);
    if (gone == 0) break;
    if (gone < 0 || !t->d->next || tries == 4) return -1;
    k = t->d->next(ctx, var, k);
  }
  return k;
}

/* A free proposer moves its pointer to its next rank left, capping every partner it passes
 * (strictly) and the one it stops at (weakly): [Travasci 2025]'s stability rule from the old
 * pointer to the new minimum. The next rank comes from the host's next values when var's row
 * is unread (a freed proposer's next value is usually its domain's second), else from the row. */
static bool propose(delta *t, int var) {
  dvar *v = touch(t, var);
  int k = v->lo, q, rank;
  int left = !(v->flags & ROW_READ) && k <= v->hi ? next_left(t, var, v, k) : -1;
  if (left != k) {
    int from = k;
    if (left >= 0) {
      k = left > v->hi ? v->hi + 1 : left; /* none left: the ranks passed end at the bound */
    } else {
      if (!read_row(t, var, v)) return true; /* out of memory: the round is dropped */
      while (k <= v->hi && !member(t, v, k)) k++;
    }
    /* Every rank passed is a pair gone from v's domain. Unless some pair left both domains from
     * inside their bounds (node->inner_holes), it is beyond its partner's upper bound with
     * gs-lists: it was cut by a cap, or the partner's own move capped v below it (outside v's
     * bounds, not passed here). Only a men-proposing constraint's women move without capping. */
    if ((!t->gs_lists || t->node->inner_holes) && !cap_passed(t, var, from, k)) return false;
    if (k > v->hi) return false;
    if (k != v->lo) {
      v->lo = k;
      mark(t, var, v, CHANGED);
    }
  }
  pair_of(t, var, k, &q, &rank);
  return q < 0 || cap(t, q, rank);
}

/* What the host reported of var since the last fixpoint, in two passes over the reported
 * variables. First their bounds now become their local bounds, so that a channel into a
 * reported variable is filtered by what it holds now (as the event rules ask the host); a
 * proposer whose minimum rose is free, its pointer at the new minimum. */
static void see_event(delta *t, int var) {
  dvar *v = touch(t, var);
  mark(t, var, v, EVENT);
  int min = t->d->min(t->d->ctx, var), max = t->d->max(t->d->ctx, var);
  if (max < v->hi) v->hi = max;
  if (min > v->lo) {
    v->lo = min;
    if (proposes(t, var)) push_free(t, var, v);
  }
}

/* Then the ranks var lost since the last fixpoint (the node's bounds): the upper ones are
 * channelled, and so are the lower ones, except that a proposer caps their partners
 * strictly instead (stability from its old minimum, which implies their channel). */
static bool take_event(delta *t, int var) {
  void *ctx = t->d->ctx;
  int min = t->d->min(ctx, var), max = t->d->max(ctx, var);
  int lo = t->node->bounds[var], hi = t->node->bounds[t->node->vars + var];
  for (int k = max + 1; k <= hi; k++) channel(t, var, k);
  if (min <= lo) return true;
  if (!proposes(t, var)) {
    for (int k = lo; k < min; k++) channel(t, var, k);
    return true;
  }
  return cap_passed(t, var, lo, min);
}

/* An inner removal: var's rank k is gone from within its bounds. Its pair leaves the partner's
 * domain; if the partner's bounds hold it, the pair is gone from within both (node->inner_holes). */
static void inner(delta *t, int var, int k) {
  int q, rank;
  pair_of(t, var, k, &q, &rank);
  const bb_smc_node *node = t->node;
  if (q < 0 || rank < node->bounds[q] || rank > node->bounds[node->vars + q]) return; /* gone before */
  const dvar *w = touch(t, q);
  if (rank >= w->lo && rank <= w->hi) t->node->inner_holes = 1;
  drop(t, q, rank);
}

/* Inner removals: told as ranges (checked against the domain), or unknown (every hole). */
static void take_inner(delta *t) {
  bb_smc_scratch *s = t->s;
  for (int k = 0; k < s->unknown_len && !t->out_of_memory; k++) {
    int var = s->unknown[k];
    dvar *v = touch(t, var);
    if (!read_row(t, var, v)) break;
    for (int r = v->lo + 1; r < v->hi; r++)
      if (!has_bit(t, v, r)) inner(t, var, r);
    t->c->scans++;
  }
  for (size_t k = 0; k < s->ranges_len && !t->out_of_memory; k++) {
    inner_range g = s->ranges[k];
    dvar *v = touch(t, g.var);
    if (!read_row(t, g.var, v)) break;
    for (int r = g.lo > v->lo ? g.lo : v->lo; r <= g.hi && r <= v->hi; r++)
      if (!has_bit(t, v, r)) inner(t, g.var, r);
  }
}

static int compare_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sorts values[0..count) and drops duplicates (a rank dropped twice before its row was read
 * is listed twice); returns the new count. */
static int sort_unique(int *values, int count) {
  if (count < 32) {
    for (int i = 1; i < count; i++) {
      int x = values[i], j = i;
      for (; j > 0 && values[j - 1] > x; j--) values[j] = values[j - 1];
      values[j] = x;
    }
  } else {
    qsort(values, (size_t)count, sizeof *values, compare_int);
  }
  int unique = count > 0;
  for (int k = 1; k < count; k++)
    if (values[k] != values[unique - 1]) values[unique++] = values[k];
  return unique;
}

/* One changed variable into the host: its bounds, then the removals within them. */
static bool write_back(delta *t, int var) {
  bb_smc_scratch *s = t->s;
  const dvar *v = &s->w->dv[var];
  void *ctx = t->d->ctx;
  int lo = v->lo, hi = v->hi, count = 0;
  if (hi < t->d->max(ctx, var) && t->d->lower_max(ctx, var, hi) == BB_SMC_FAILED) return false;
  if (lo > t->d->min(ctx, var) && t->d->raise_min(ctx, var, lo) == BB_SMC_FAILED) return false;
  for (int it = s->w->head[var]; it >= 0; it = s->w->items[it].next) {
    int k = s->w->items[it].value;
    if (k >= lo && k <= hi) s->w->values[count++] = k; /* a bound itself may be a removal */
  }
  count = sort_unique(s->w->values, count);
  return count == 0 || bb_smc_remove(t->d, s, var, s->w->values, count);
}

/* Ends a round: removal lists and marks are cleared (the marks by a new epoch). */
static void end_round(delta *t) {
  bb_smc_scratch *s = t->s;
  for (int k = 0; k < s->w->listed_len; k++) s->w->head[s->w->listed[k]] = -1;
  s->w->listed_len = 0;
  s->w->free_len = 0;
  s->w->items_len = 0;
  s->w->pool_len = 0;
  if (++s->w->epoch == 0) { /* wrapped: every mark is stale again */
    for (int v = 0; v < t->p->vars; v++) s->w->dv[v].seen = 0;
    s->w->epoch = 1;
  }
}

bb_smc_delta_result bb_smc_delta_round(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_node *node,
                                       bb_smc_scratch *s, const bb_smc_domains *d, bb_smc_counters *c, uint64_t *budget,
                                       int spread) {
  delta t = {p, strength == BB_SMC_GS_LISTS, node, s, d, c, false};
  /* 1. The events. */
  bool ok = true;
  for (int k = 0; k < s->stack_len; k++) see_event(&t, s->stack[k]);
  /* The inner removals before any cap: a cap that has read its row channels only the members
   * above its limit (a rank missing from the row was channelled when it left), and the scans
   * below look only within the bounds then. A removal not yet channelled, cut off by a cap,
   * stayed in the partner's domain (test_smc_par's D_SIDE found it). */
  take_inner(&t);
  for (int k = 0; ok && k < s->stack_len && !t.out_of_memory; k++) ok = take_event(&t, s->stack[k]);
  /* 2. The proposals. */
  bool over = false;
  while (ok && !t.out_of_memory && s->w->free_len > 0 && !over) {
    int var = s->w->free_stack[--s->w->free_len];
    s->w->dv[var].flags &= (uint8_t)~FREE;
    ok = propose(&t, var);
    uint64_t steps = c->channel_removals + c->bound_updates;
    over = steps > *budget;
    if (over && spread > 0 && (uint64_t)s->w->listed_len * 1000u >= (uint64_t)spread * steps) {
      *budget = UINT64_MAX; /* short moves of many: the CPU ends this cascade sooner (smc_tuning.h) */
      over = false;
    }
  }
  if (ok && (t.out_of_memory || over)) { /* nothing was written: the events stay */
    end_round(&t);
    return over ? BB_SMC_DELTA_HAND_OVER : BB_SMC_DELTA_GAVE_UP;
  }
  for (int k = 0; k < s->stack_len; k++) s->queued[s->stack[k]] = 0;
  for (int k = 0; k < s->unknown_len; k++) s->is_unknown[s->unknown[k]] = 0;
  s->stack_len = s->unknown_len = 0;
  s->ranges_len = 0;
  c->rounds++;
  /* 3. The write-back, and what the node sees now. Newly assigned variables marry next. */
  int married = 0;
  for (int k = 0; ok && k < s->w->listed_len; k++) {
    int var = s->w->listed[k];
    if (s->w->dv[var].flags & CHANGED) ok = write_back(&t, var);
    if (!ok) break;
    if (s->w->track_dirty && !s->w->is_dirty[var]) { /* the parallel engine's copy of var goes stale */
      assert(s->w->dirty_len < node->vars);          /* each variable listed at most once */
      s->w->is_dirty[var] = 1;
      s->w->dirty[s->w->dirty_len++] = var;
    }
    int min = d->min(d->ctx, var), max = d->max(d->ctx, var);
    int *seen_lo = &node->bounds[var], *seen_hi = &node->bounds[node->vars + var];
    assert(min <= max && min >= *seen_lo && max <= *seen_hi); /* a domain never grows */
    if (min == max && !(*seen_lo == min && *seen_hi == max)) {
      node->unassigned--;
      s->unknown[married++] = var; /* the list is free again: s->unknown_len is 0 */
    }
    *seen_lo = min;
    *seen_hi = max;
  }
  end_round(&t);
  if (!ok) return BB_SMC_DELTA_FAILED;
  /* 4. Marriage: an assigned person assigns the partner, the next round's event. */
  for (int k = 0; k < married; k++) {
    int var = s->unknown[k], q, rank;
    pair_of(&t, var, node->bounds[var], &q, &rank);
    if (q < 0) continue; /* assigned unmatched: channelling took the pairs */
    if (d->min(d->ctx, q) == rank && d->max(d->ctx, q) == rank) continue;
    if (d->assign(d->ctx, q, rank) == BB_SMC_FAILED) return BB_SMC_DELTA_FAILED;
    bb_smc_note_changed(s, q);
  }
  return s->stack_len > 0 ? BB_SMC_DELTA_MORE : BB_SMC_DELTA_DONE;
}
