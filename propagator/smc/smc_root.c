/* The first propagation of a Stable Marriage constraint ([Travasci 2025]'s init()), as a batch.
 *
 * Every variable is new, so instead of pushing O(n^2) single channel removals through the
 * solver one at a time, the rules run on local bounds and each domain is written back
 * once:
 *   1. Extended Gale-Shapley with pointers (McVitie-Wilson order): each proposer (men;
 *      women too with gs-lists) points at its best rank whose pair is still allowed, and
 *      caps that partner (weak) and every partner it skipped (strict: a forbidden pair
 *      still blocks). A cap that passes below a partner's holder frees the holder.
 *   2. Write-back: each variable keeps the ranks within its bounds whose pair is allowed
 *      from both sides (channelling), by one bounds update or one bulk narrow.
 * A pair is allowed when both ranks lie within both local bounds and, for a domain with
 * holes, in the domain itself. Marriage (an assigned person assigns the partner) is left
 * to the event rules, which smc_propagate.c runs next. The result equals the event rules' fixpoint
 * (tests/test_smc_core.c compares the two). */
#include "smc_internal.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct root {
  const bb_smc_prefs *p;
  bool gs_lists;
  bb_smc_scratch *s;
  const bb_smc_domains *d;
  bb_smc_counters *c;
  uint32_t *bits; /* the domains with holes as bitmap rows over their bounds; NULL: ask d */
  ptrdiff_t *off; /* bits[off[var] + (k >> 5)] holds var's rank k */
} root;

/* Domains with holes, read once (by ranges, smc_ranges.c) into bitmap rows over their
 * bounds: a membership test is then a bit, where asking a host that keeps ranges (Gecode)
 * walks the domain's range list each time, which made the batch of a constraint posted
 * after another on the same variables several times slower (docs/constraint.md). The rows cover the
 * bounds at the start; the batch only narrows them. Beyond BB_SMC_ROOT_BITS_MAX bytes (very
 * wide domains with holes at very large n) the batch asks the host as before. */
#define BB_SMC_ROOT_BITS_MAX ((size_t)64 << 20)

static void read_holes(root *r) {
  bb_smc_scratch *s = r->s;
  int vars = r->p->vars;
  size_t words = 0;
  for (int v = 0; v < vars; v++)
    if (s->w->holes[v]) words += (size_t)(s->w->ub[v] >> 5) - (size_t)(s->w->lb[v] >> 5) + 1;
  if (words == 0 || words > BB_SMC_ROOT_BITS_MAX / sizeof(uint32_t)) return;
  r->off = malloc((size_t)vars * sizeof *r->off);
  r->bits = calloc(words, sizeof *r->bits);
  if (!r->off || !r->bits) { /* out of memory: the host's membership test still works */
    free(r->off);
    free(r->bits);
    r->off = NULL;
    r->bits = NULL;
    return;
  }
  size_t at = 0;
  for (int v = 0; v < vars; v++) {
    if (!s->w->holes[v]) continue;
    r->off[v] = (ptrdiff_t)at - (s->w->lb[v] >> 5);
    int base = 32 * (s->w->lb[v] >> 5), ranges = bb_smc_read_ranges(r->d, s, v);
    for (int k = 0; k < ranges; k++)
      bb_smc_set_bits(r->bits + at, s->w->pairs[2 * k] - base, s->w->pairs[2 * k + 1] - base);
    at += (size_t)(s->w->ub[v] >> 5) - (size_t)(s->w->lb[v] >> 5) + 1;
  }
}

/* k lies within var's current bounds. */
static inline bool in_domain(const root *r, int var, int k) {
  if (!r->s->w->holes[var]) return true;
  if (!r->bits) return r->d->contains(r->d->ctx, var, k);
  return (r->bits[r->off[var] + (k >> 5)] >> (k & 31)) & 1u;
}

static inline bool proposes(const root *r, int var) { return var < r->p->men || r->gs_lists; }

static inline void partner(const root *r, int var, int k, int *q, int *rank) {
  bb_smc_pair_partner(r->p, var, k, q, rank);
}

/* q < 0: nobody at var's rank k. With incomplete lists that is the unmatched rank (allowed
 * like any value of var's own domain) or a one-sided entry (trimmed from the domain before
 * the batch runs, so the domain test rejects it). */
static inline bool allowed(const root *r, int var, int k, int q, int rank) {
  const bb_smc_scratch *s = r->s;
  if (q < 0) return k >= s->w->lb[var] && k <= s->w->ub[var] && in_domain(r, var, k);
  return k >= s->w->lb[var] && k <= s->w->ub[var] && rank >= s->w->lb[q] && rank <= s->w->ub[q] &&
         in_domain(r, var, k) && in_domain(r, q, rank);
}

static void push_free(root *r, int var) {
  bb_smc_scratch *s = r->s;
  if (!s->queued[var]) {
    s->queued[var] = 1;
    s->stack[s->stack_len++] = var;
  }
}

/* q must end with someone at rank <= limit. Its holder (the proposer pointing at q, who sits
 * exactly at q's upper bound) loses q if the cap passes below him. */
static bool cap(root *r, int q, int limit) {
  bb_smc_scratch *s = r->s;
  int old = s->w->ub[q];
  if (old <= limit) return true;
  s->w->ub[q] = limit;
  r->c->bound_updates++;
  if (limit < s->w->lb[q]) return false;
  int holder, holder_rank;
  partner(r, q, old, &holder, &holder_rank);
  if (holder >= 0 && proposes(r, holder) && s->w->lb[holder] == holder_rank) push_free(r, holder);
  return true;
}

/* Moves a free proposer's pointer to its best allowed rank, capping on the way. Ranks below
 * `from` were passed (and capped) before. */
static bool propose(root *r, int var, int from) {
  bb_smc_scratch *s = r->s;
  int k = from, q, rank;
  for (; k <= s->w->ub[var]; k++) {
    partner(r, var, k, &q, &rank);
    if (allowed(r, var, k, q, rank)) break;
    if (q >= 0 && !cap(r, q, rank - 1)) return false;
  }
  if (k > s->w->ub[var]) return false;
  s->w->lb[var] = k;
  return q < 0 || cap(r, q, rank); /* unmatched holds nobody */
}

/* Step 2 for one variable: keep the allowed ranks within its bounds. */
static bool write_back(root *r, int var, bb_smc_node *node) {
  bb_smc_scratch *s = r->s;
  int lo = s->w->lb[var], hi = s->w->ub[var], count = 0, q, rank;
  for (int k = lo; k <= hi; k++) {
    partner(r, var, k, &q, &rank);
    if (allowed(r, var, k, q, rank))
      s->w->values[count++] = k;
    else if (q >= 0 && rank >= s->w->lb[q] && rank <= s->w->ub[q])
      node->inner_holes = 1; /* within both bounds */
  }
  if (count == 0) return false;
  void *ctx = r->d->ctx;
  int min = s->w->values[0], max = s->w->values[count - 1];
  bool ok;
  if (count == r->d->size(ctx, var)) { /* the kept values are the whole domain already (a second
                                        * constraint on the same variables): nothing to write */
    ok = true;
  } else if (count == max - min + 1) { /* an interval: two bound updates at most */
    ok = (min <= r->d->min(ctx, var) || r->d->raise_min(ctx, var, min) != BB_SMC_FAILED) &&
         (max >= r->d->max(ctx, var) || r->d->lower_max(ctx, var, max) != BB_SMC_FAILED);
  } else {
    ok = bb_smc_keep(r->d, s, var, s->w->values, count);
  }
  node->bounds[var] = min;
  node->bounds[node->vars + var] = max;
  if (ok && min == max) s->unknown[s->unknown_len++] = var; /* marriage, in smc_propagate.c */
  return ok;
}

bool bb_smc_root_batch(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_node *node, bb_smc_scratch *s,
                       const bb_smc_domains *d, bb_smc_counters *c) {
  root r = {p, strength == BB_SMC_GS_LISTS, s, d, c, NULL, NULL};
  int vars = p->vars;
  for (int v = 0; v < vars; v++) {
    s->w->lb[v] = d->min(d->ctx, v);
    s->w->ub[v] = d->max(d->ctx, v);
    s->w->holes[v] = d->size(d->ctx, v) != s->w->ub[v] - s->w->lb[v] + 1;
  }
  read_holes(&r);
  /* Every proposer starts free at rank 0: ranks below its minimum are skipped and capped
   * (they were removed before the constraint saw them, and can still block). */
  bool ok = true;
  for (int v = 0; ok && v < vars; v++)
    if (proposes(&r, v)) ok = propose(&r, v, 0);
  while (ok && s->stack_len > 0) {
    int v = s->stack[--s->stack_len];
    s->queued[v] = 0;
    ok = propose(&r, v, s->w->lb[v]);
  }
  for (int v = 0; ok && v < vars; v++) ok = write_back(&r, v, node);
  free(r.bits);
  free(r.off);
  if (!ok) {
    for (int k = 0; k < s->stack_len; k++) s->queued[s->stack[k]] = 0;
    s->stack_len = 0;
    s->unknown_len = 0;
  }
  return ok;
}
