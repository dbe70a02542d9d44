/* The native SMTI constraint's size rules (smc_ties.h), over domains at the fixpoint of the
 * per-person rules (smc_ties_propagate.c), so that k is in D_i exactly when l is in D_j for every
 * acceptable pair (i at k, j at l): the pairs still allowed form a bipartite graph G, and every
 * solution is a matching of G. Let A be the men and B the women whose domain has lost
 * "unmatched" (forced matched), and nu the size of a maximum matching of G.
 *
 * Rule S1 (cover). Some matching of G covers A, and some covers B; else fail. Proof: a solution
 * is one. (Mendelsohn-Dulmage: then one matching covers both, but no rule needs it.)
 * Rule S2 (bounds). max(|A|, |B|) <= size <= nu. Proof: size counts the men of a matching of G,
 * which are as many as its women, include A and cover B.
 * Rule S3 (no room). size's maximum = |A| => every man outside A is unmatched, and size's
 * maximum = |B| => every woman outside B is. Proof: the matched men (women) include the forced
 * ones and are no more than size's maximum.
 * Rule S4 (maximum). size's minimum = nu => every person covered by every maximum matching of G
 * is matched. Proof: a solution is a matching of G with at least nu men, so a maximum one.
 * Who is covered by every maximum matching: given a maximum matching M, a person of one side
 * is missed by some maximum matching exactly when an M-alternating path of even length joins
 * him to a person of his side that M leaves free (swap along it); so the others are covered by
 * all. The men's counterpart of S4 makes these rules at least as strong as the sum
 * size = sum(men[i] < len(i)) that the decomposition posts (its bounds are |A| and the men
 * with a value other than "unmatched", which nu never exceeds).
 *
 * Rule S5 (maximum pairs). size's minimum = nu => every allowed pair that no maximum matching of
 * G uses leaves the domains. Proof: as for S4, every solution is a maximum matching of G.
 * Which pairs some maximum matching uses (Dulmage-Mendelsohn; as in Regin's alldifferent):
 * given a maximum matching M, a pair (i, j) outside M is in some maximum matching exactly when
 * it lies on an even M-alternating cycle or on an even M-alternating path from an M-free
 * person. The path: i is joined to a free man by an even alternating path (i missable, as
 * above; the walk free ... i, j, M(j) either is such a path or closes a cycle through (i, j)),
 * or j to a free woman likewise. The cycle: i and M(j) in one strongly connected component of
 * the men's graph with an arc i -> M(j') for every allowed pair (i, j') outside M.
 *
 * The maximum matching is found by augmenting paths (breadth-first, from one free person at a
 * time), starting from the last propagation's matching less the pairs no longer allowed: in
 * search only a few augmentations are left to do. Augmenting along a path keeps everyone matched
 * matched, and a free person without an augmenting path never gets one by later augmentations
 * (so one pass over the free men gives a maximum matching). To test S1 for A, a forced man
 * without an augmenting path is tried again from the matching restricted to A: a matching that
 * covers exactly a set S of men and has no augmenting path from u proves S + u unmatchable (the
 * symmetric difference with a matching covering S + u holds such a path). B likewise, from the
 * women's side, before the men's pass (a maximum matching has no augmenting path left). */
#include "smc_ties_internal.h"

#include <stddef.h>

/* The allowed pairs into both graphs; the kept matching loses the pairs no longer allowed. */
static void snapshot(const bb_smc_ties *t, bb_smc_ties_scratch *s, const bb_smc_domains *d) {
  bb_smc_ties_graph *gm = &s->g[0], *gw = &s->g[1];
  const bb_smc_ties_side *M = &t->side[0], *W = &t->side[1];
  for (uint32_t f = 0; f < W->start[W->n]; f++) gw->alive[f] = 0;
  for (int i = 0; i < M->n; i++) {
    bool kept = false;
    for (uint32_t e = M->start[i]; e < M->start[i + 1]; e++) {
      uint8_t ok = M->twin[e] != BB_SMC_TIES_ONE_SIDED && d->contains(d->ctx, i, (int)(e - M->start[i]));
      gm->alive[e] = ok;
      if (ok) gw->alive[M->twin[e]] = 1;
      if (ok && (int32_t)M->other[e] == gm->mate[i]) kept = true;
    }
    if (gm->mate[i] >= 0 && !kept) gw->mate[gm->mate[i]] = -1, gm->mate[i] = -1;
  }
}

/* One breadth-first search from the free person u of `from`'s side for a person of the other side
 * that the matching leaves free; on success the matching is augmented along the path. With
 * `dead` (not 0), the search skips the persons of the other side that earlier failed searches of
 * the same pass marked `dead`, and when it fails marks those it reached so: a failed search's
 * persons form a Hungarian tree, which no later augmenting path of the pass meets (Edmonds 1965
 * in docs/references.md); its persons of `from`'s side are reached only through their mates, so
 * marking the other side is enough. Without the marks every free person of a pass would search
 * the whole graph again: O(free persons x list entries) per propagation. */
static bool augment(bb_smc_ties_graph *from, bb_smc_ties_graph *to, int u, int32_t stamp, int32_t dead) {
  const bb_smc_ties_side *S = from->side;
  int32_t *queue = from->queue;
  int head = 0, tail = 0;
  queue[tail++] = u;
  while (head < tail) {
    int x = queue[head++];
    for (uint32_t e = S->start[x]; e < S->start[x + 1]; e++) {
      if (!from->alive[e]) continue;
      int y = (int)S->other[e];
      if (to->reached[y] == stamp || (dead && to->reached[y] == dead)) continue;
      to->reached[y] = stamp, to->parent[y] = x;
      if (to->mate[y] < 0) {
        /* Flip the path back to u: each person on it takes the one that reached him. */
        for (;;) {
          int by = to->parent[y], was = from->mate[by];
          from->mate[by] = y, to->mate[y] = by;
          if (by == u) return true;
          y = was;
        }
      }
      queue[tail++] = to->mate[y];
    }
  }
  for (int k = 0; dead && k < tail; k++) /* every person reached was reached from one in the queue */
    for (uint32_t e = S->start[queue[k]]; e < S->start[queue[k] + 1]; e++)
      if (to->reached[S->other[e]] == stamp) to->reached[S->other[e]] = dead;
  return false;
}

static int32_t next_stamp(bb_smc_ties_scratch *s) {
  if (++s->stamp == INT32_MAX) {
    for (int k = 0; k < 2; k++)
      for (int p = 0; p < s->g[k].side->n; p++) s->g[k].reached[p] = 0;
    s->stamp = 1;
  }
  return s->stamp;
}

static bool forced(const bb_smc_ties *t, const bb_smc_domains *d, int side, int p) {
  const bb_smc_ties_side *S = &t->side[side];
  int var = side == 0 ? p : t->n_men + p;
  return d->max(d->ctx, var) < (int)(S->start[p + 1] - S->start[p]);
}

/* Rule S1 for one side: a matching covers that side's forced persons, found from the current
 * one or, failing that, from it restricted to them. Augmenting keeps the other side's matched
 * persons matched, so a side checked earlier stays covered only where it was; the caller checks
 * the women first and the men second, and the men's pass may uncover no woman it needs (B is
 * only checked, not kept). */
static bool cover(const bb_smc_ties *t, bb_smc_ties_scratch *s, const bb_smc_domains *d, int side) {
  bb_smc_ties_graph *from = &s->g[side], *to = &s->g[1 - side];
  int n = from->side->n;
  bool restricted = false;
  for (int p = 0; p < n; p++) {
    if (from->mate[p] >= 0 || !forced(t, d, side, p)) continue;
    if (augment(from, to, p, next_stamp(s), 0)) continue;
    if (restricted) return false;
    /* Again from the matching restricted to the forced persons of this side. */
    for (int q = 0; q < n; q++)
      if (from->mate[q] >= 0 && !forced(t, d, side, q)) to->mate[from->mate[q]] = -1, from->mate[q] = -1;
    restricted = true;
    p = -1; /* every forced person again: the restriction freed none of them */
  }
  return true;
}

/* Marks (reached = stamp) the persons of `from`'s side that an even alternating path joins to a
 * free person of that side (the free ones included): those some maximum matching misses. */
static void missable(bb_smc_ties_graph *from, bb_smc_ties_graph *to, int32_t stamp) {
  const bb_smc_ties_side *S = from->side;
  int32_t *queue = from->queue;
  int head = 0, tail = 0;
  for (int p = 0; p < S->n; p++)
    if (from->mate[p] < 0) from->reached[p] = stamp, queue[tail++] = p;
  while (head < tail) {
    int x = queue[head++];
    for (uint32_t e = S->start[x]; e < S->start[x + 1]; e++) {
      if (!from->alive[e]) continue;
      int y = (int)S->other[e], z = to->mate[y];
      /* y is matched (M is maximum: no augmenting path); z can give y to x. */
      if (z >= 0 && from->reached[z] != stamp) from->reached[z] = stamp, queue[tail++] = z;
    }
  }
}

/* The men's graph of Rule S5 for bb_smc_scc: man i's arc slots are his entries, entry e an arc to
 * M(j') when (i, j') is an allowed pair outside M and j' is matched. */
static void men_arcs(const void *ctx, int i, uint32_t *first, uint32_t *end) {
  const bb_smc_ties_side *M = ((const bb_smc_ties_scratch *)ctx)->g[0].side;
  *first = M->start[i], *end = M->start[i + 1];
}

static int men_head(const void *ctx, int i, uint32_t e) {
  const bb_smc_ties_graph *gm = &((const bb_smc_ties_scratch *)ctx)->g[0], *gw = gm + 1;
  if (!gm->alive[e] || (int32_t)gm->side->other[e] == gm->mate[i]) return -1;
  return gw->mate[gm->side->other[e]];
}

/* Rule S5 over the missable marks of both sides (missable, stamps sm and sw). */
static bb_smc_status maximum_pairs(const bb_smc_ties *t, bb_smc_ties_scratch *s, const bb_smc_domains *d, int32_t sm,
                                   int32_t sw, bool *changed) {
  const bb_smc_ties_graph *gm = &s->g[0], *gw = &s->g[1];
  const bb_smc_ties_side *M = &t->side[0], *W = &t->side[1];
  int32_t *comp = s->comp;
  bb_smc_scc(&(bb_smc_scc_graph){M->n, s, men_arcs, men_head}, &s->scc, comp);
  bb_smc_status st = BB_SMC_FIX;
  for (int i = 0; i < M->n && st != BB_SMC_FAILED; i++) {
    if (gm->reached[i] == sm) continue; /* missable: every allowed pair of i is on an even path */
    for (uint32_t e = M->start[i]; e < M->start[i + 1]; e++) {
      int j = (int)M->other[e];
      if (!gm->alive[e] || gm->mate[i] == j || gw->reached[j] == sw) continue;
      if (gw->mate[j] >= 0 && comp[gw->mate[j]] == comp[i]) continue;
      uint32_t f = M->twin[e];
      bb_smc_status a = d->remove(d->ctx, i, (int)(e - M->start[i]));
      bb_smc_status b = a == BB_SMC_FAILED ? a : d->remove(d->ctx, t->n_men + j, (int)(f - W->start[j]));
      if (a == BB_SMC_FAILED || b == BB_SMC_FAILED) {
        st = BB_SMC_FAILED;
        break;
      }
      *changed = true;
      bb_smc_ties_push(s, i), bb_smc_ties_push(s, t->n_men + j);
    }
  }
  return st;
}

static bb_smc_status set_top(const bb_smc_ties *t, bb_smc_ties_scratch *s, const bb_smc_domains *d, int side, int p,
                             bool unmatched, bool *changed) {
  const bb_smc_ties_side *S = &t->side[side];
  int var = side == 0 ? p : t->n_men + p, len = (int)(S->start[p + 1] - S->start[p]);
  bb_smc_status st = unmatched ? d->assign(d->ctx, var, len) : d->lower_max(d->ctx, var, len - 1);
  if (st == BB_SMC_CHANGED) *changed = true, bb_smc_ties_push(s, var);
  return st;
}

bb_smc_status bb_smc_ties_size_rules(const bb_smc_ties *t, bb_smc_ties_scratch *s, const bb_smc_domains *d,
                                     bool *changed) {
  int size_var = t->n_men + t->n_women;
  snapshot(t, s, d);
  if (!cover(t, s, d, 1) || !cover(t, s, d, 0)) return BB_SMC_FAILED;
  int nu = 0, n_a = 0, n_b = 0;
  int32_t dead = next_stamp(s);
  for (int i = 0; i < t->n_men; i++) {
    if (s->g[0].mate[i] < 0) augment(&s->g[0], &s->g[1], i, next_stamp(s), dead);
    nu += s->g[0].mate[i] >= 0;
    n_a += forced(t, d, 0, i);
  }
  for (int j = 0; j < t->n_women; j++) n_b += forced(t, d, 1, j);
  if (d->raise_min(d->ctx, size_var, n_a > n_b ? n_a : n_b) == BB_SMC_FAILED ||
      d->lower_max(d->ctx, size_var, nu) == BB_SMC_FAILED)
    return BB_SMC_FAILED;
  int lo = d->min(d->ctx, size_var), hi = d->max(d->ctx, size_var);
  for (int side = 0; side < 2; side++) {
    if (hi != (side == 0 ? n_a : n_b)) continue;
    for (int p = 0; p < t->side[side].n; p++)
      if (!forced(t, d, side, p) && set_top(t, s, d, side, p, true, changed) == BB_SMC_FAILED) return BB_SMC_FAILED;
  }
  if (lo == nu && !*changed) {
    int32_t stamps[2];
    for (int side = 0; side < 2; side++) {
      int32_t stamp = stamps[side] = next_stamp(s);
      missable(&s->g[side], &s->g[1 - side], stamp);
      for (int p = 0; p < t->side[side].n; p++)
        if (s->g[side].reached[p] != stamp && set_top(t, s, d, side, p, false, changed) == BB_SMC_FAILED)
          return BB_SMC_FAILED;
    }
    /* S4 changed only "unmatched" values: G, M and the marks still hold (unless the stamps
     * wrapped between the two searches, which cleared the first side's marks). */
    if (stamps[1] > stamps[0] && maximum_pairs(t, s, d, stamps[0], stamps[1], changed) == BB_SMC_FAILED)
      return BB_SMC_FAILED;
  }
  return BB_SMC_FIX;
}
