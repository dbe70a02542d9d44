/* The native HRT constraint's size rules (smc_hrt.h): smc_ties_size.c's rules with capacities.
 * The pairs still allowed form a bipartite graph G in which hospital h may take up to room(h) =
 * min(capacity[h], load[h]'s maximum) residents; every solution is a capacitated matching of G.
 * Let A be the residents whose domain has lost "unassigned" and nu the size of a maximum
 * capacitated matching of G. As for SMTI (with each hospital seen as room(h) copies of itself,
 * which makes the matchings ordinary ones): a matching must cover A (S1); max(|A|, sum of the
 * loads' minima) <= size <= nu (S2: size counts the assigned residents, which are the sum of the
 * loads); size's maximum equal to |A| leaves everyone else unassigned, equal to the sum of the
 * loads' minima holds every load at its minimum, and size's minimum equal to the sum of the
 * loads' maxima raises every load to its maximum (S3); size's minimum equal to nu assigns every
 * resident that every maximum matching covers (S4: those an even alternating path does not join
 * to a free resident; from a resident the path goes to a hospital of his, which a maximum
 * matching fills, then on to any of its assignees). The hospitals' own minima are not checked
 * for a common cover.
 *
 * S5 (maximum pairs): size's minimum equal to nu removes every allowed pair that no maximum
 * capacitated matching uses, by Dulmage-Mendelsohn on G with hospital h as room(h) copies (the
 * matchings then ordinary, so smc_ties_size.c's S5 applies): given the maximum matching M, a pair
 * (r, h) outside M, room(h) > 0, is in some maximum matching exactly when (a) r is missable
 * (S4's even path from a free resident: then h is full, and r may take any of its posts), or
 * (b) r is "movable" and h "has room to give": h has a free post, or one of its assignees is
 * movable, where a movable resident is one with an allowed pair to a hospital that has room to
 * give (an even alternating path from a free copy of a hospital ends at him), or (c) r and h lie
 * on an alternating cycle: one strongly connected component of the graph with an arc r -> h for
 * each allowed pair outside M and h -> y for each assignee y of h (a resident reaches every copy
 * of a hospital, so its assignees and it stand for all of them). */
#include "smc_hrt_internal.h"

static int32_t next_stamp(bb_smc_ties_hrt_scratch *s, const bb_smc_ties_hrt *t) {
  if (++s->stamp == INT32_MAX) {
    for (int r = 0; r < t->nr; r++) s->res_reached[r] = 0;
    for (int h = 0; h < t->nh; h++) s->hosp_reached[h] = 0;
    s->stamp = 1;
  }
  return s->stamp;
}

static void unassign(bb_smc_ties_hrt_scratch *s, int r) {
  if (s->hosp_of[r] >= 0) s->held[s->hosp_of[r]]--, s->hosp_of[r] = -1;
}

/* The allowed pairs and rooms; the kept matching loses the pairs no longer allowed and the
 * residents past a room. */
static void snapshot(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d) {
  const bb_smc_ties_side *R = &t->side[0];
  for (int h = 0; h < t->nh; h++) {
    int hi = d->max(d->ctx, t->nr + h);
    s->room[h] = hi < t->capacity[h] ? hi : t->capacity[h];
    s->held[h] = 0;
  }
  for (int r = 0; r < t->nr; r++) {
    bool kept = false;
    for (uint32_t e = R->start[r]; e < R->start[r + 1]; e++) {
      uint8_t ok = R->twin[e] != BB_SMC_TIES_ONE_SIDED && d->contains(d->ctx, r, (int)(e - R->start[r]));
      s->alive[e] = ok;
      if (ok && (int32_t)R->other[e] == s->hosp_of[r]) kept = true;
    }
    if (!kept || s->held[s->hosp_of[r]] >= s->room[s->hosp_of[r]])
      s->hosp_of[r] = -1;
    else
      s->held[s->hosp_of[r]]++;
  }
}

/* A breadth-first search from the unassigned resident u for a hospital with room to spare,
 * through hospitals that are full and their assignees; on success the path is flipped. With
 * `dead` (not 0), the search skips what earlier failed searches of the same pass marked `dead`
 * and, when it fails, marks what it reached so: a failed search's residents and hospitals form
 * a Hungarian tree, which no later augmenting path of the pass meets (Edmonds 1965 in
 * docs/references.md). Without the marks every free resident of a pass would search the whole
 * graph again: O(free residents x list entries) per propagation. */
static bool augment(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, int u, int32_t dead) {
  const bb_smc_ties_side *R = &t->side[0], *H = &t->side[1];
  int32_t stamp = next_stamp(s, t);
  int head = 0, tail = 0;
  s->bfs[tail++] = u, s->res_reached[u] = stamp;
  while (head < tail) {
    int x = s->bfs[head++];
    for (uint32_t e = R->start[x]; e < R->start[x + 1]; e++) {
      int h = (int)R->other[e];
      if (!s->alive[e] || s->hosp_reached[h] == stamp || (dead && s->hosp_reached[h] == dead)) continue;
      s->hosp_reached[h] = stamp, s->hosp_parent[h] = x;
      if (s->held[h] < s->room[h]) {
        s->held[h]++;
        for (;;) { /* each resident on the path moves to the hospital he reached */
          int by = s->hosp_parent[h], was = s->hosp_of[by];
          s->hosp_of[by] = h;
          if (by == u) return true;
          h = was;
        }
      }
      for (uint32_t f = H->start[h]; f < H->start[h + 1]; f++) {
        int y = (int)H->other[f];
        if (s->hosp_of[y] == h && s->res_reached[y] != stamp && (!dead || s->res_reached[y] != dead))
          s->res_reached[y] = stamp, s->bfs[tail++] = y;
      }
    }
  }
  for (int k = 0; dead && k < tail; k++) { /* every hospital reached was reached from one of bfs */
    int x = s->bfs[k];
    s->res_reached[x] = dead;
    for (uint32_t e = R->start[x]; e < R->start[x + 1]; e++)
      if (s->hosp_reached[R->other[e]] == stamp) s->hosp_reached[R->other[e]] = dead;
  }
  return false;
}

static bool forced(const bb_smc_ties_hrt *t, const bb_smc_domains *d, int r) {
  return d->max(d->ctx, r) < (int)(t->side[0].start[r + 1] - t->side[0].start[r]);
}

/* S1: a matching covers A, from the kept one or from it restricted to A. */
static bool cover(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d) {
  bool restricted = false;
  for (int r = 0; r < t->nr; r++) {
    if (s->hosp_of[r] >= 0 || !forced(t, d, r) || augment(t, s, r, 0)) continue;
    if (restricted) return false;
    for (int q = 0; q < t->nr; q++)
      if (!forced(t, d, q)) unassign(s, q);
    restricted = true;
    r = -1;
  }
  return true;
}

/* Marks the residents some maximum matching leaves unassigned (reached = stamp). */
static int32_t missable(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s) {
  const bb_smc_ties_side *R = &t->side[0], *H = &t->side[1];
  int32_t stamp = next_stamp(s, t);
  int head = 0, tail = 0;
  for (int r = 0; r < t->nr; r++)
    if (s->hosp_of[r] < 0) s->res_reached[r] = stamp, s->bfs[tail++] = r;
  while (head < tail) {
    int x = s->bfs[head++];
    for (uint32_t e = R->start[x]; e < R->start[x + 1]; e++) {
      int h = (int)R->other[e];
      if (!s->alive[e] || s->hosp_reached[h] == stamp) continue;
      s->hosp_reached[h] = stamp;
      for (uint32_t f = H->start[h]; f < H->start[h + 1]; f++) {
        int y = (int)H->other[f];
        if (s->hosp_of[y] == h && s->res_reached[y] != stamp) s->res_reached[y] = stamp, s->bfs[tail++] = y;
      }
    }
  }
  return stamp;
}

/* Marks (res_reached = hosp_reached = stamp) the movable residents and the hospitals with room
 * to give (S5's b), from the hospitals with a free post; residents missable at the caller's
 * stamp are never movable (M is maximum), so their marks survive. */
static void movable(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, int32_t stamp) {
  const bb_smc_ties_side *H = &t->side[1];
  int head = 0, tail = 0;
  for (int h = 0; h < t->nh; h++)
    if (s->held[h] < s->room[h]) s->hosp_reached[h] = stamp, s->bfs[tail++] = h;
  while (head < tail) {
    int h = s->bfs[head++];
    for (uint32_t f = H->start[h]; f < H->start[h + 1]; f++) {
      uint32_t e = H->twin[f];
      int y = (int)H->other[f];
      if (e == BB_SMC_TIES_ONE_SIDED || !s->alive[e] || s->res_reached[y] == stamp) continue;
      s->res_reached[y] = stamp;
      int g = s->hosp_of[y];
      if (g >= 0 && s->hosp_reached[g] != stamp) s->hosp_reached[g] = stamp, s->bfs[tail++] = g;
    }
  }
}

/* S5's graph (c) for bb_smc_scc: residents 0..nr-1, hospital h node nr + h; a node's arc slots are
 * the entries of its list. */
typedef struct s5_graph {
  const bb_smc_ties_hrt *t;
  const bb_smc_ties_hrt_scratch *s;
} s5_graph;

static void s5_arcs(const void *ctx, int v, uint32_t *first, uint32_t *end) {
  const bb_smc_ties_hrt *t = ((const s5_graph *)ctx)->t;
  const uint32_t *start = v < t->nr ? t->side[0].start + v : t->side[1].start + (v - t->nr);
  *first = start[0], *end = start[1];
}

static int s5_head(const void *ctx, int v, uint32_t e) {
  const bb_smc_ties_hrt *t = ((const s5_graph *)ctx)->t;
  const bb_smc_ties_hrt_scratch *s = ((const s5_graph *)ctx)->s;
  if (v < t->nr) { /* v -> h: an allowed pair outside M */
    int h = (int)t->side[0].other[e];
    return s->alive[e] && h != s->hosp_of[v] && s->room[h] > 0 ? t->nr + h : -1;
  }
  int y = (int)t->side[1].other[e]; /* h -> an assignee */
  return s->hosp_of[y] == v - t->nr ? y : -1;
}

static bb_smc_status note(bb_smc_status st, const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, int var,
                          bool *changed) {
  if (st == BB_SMC_CHANGED) {
    *changed = true;
    if (var < t->nr)
      bb_smc_ties_hrt_push_lists(t, s, var);
    else
      bb_smc_ties_hrt_push(s, var - t->nr);
  }
  return st;
}

/* S5 over the missable residents (res_reached = missed) and the kept maximum matching. */
static bb_smc_status maximum_pairs(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d,
                                   int32_t missed, bool *changed) {
  const bb_smc_ties_side *R = &t->side[0];
  int32_t room_stamp = next_stamp(s, t);
  if (room_stamp < missed) return BB_SMC_FIX; /* the marks were just cleared: next time */
  movable(t, s, room_stamp);
  int32_t *comp = s->comp;
  bb_smc_scc(&(bb_smc_scc_graph){t->nr + t->nh, &(s5_graph){t, s}, s5_arcs, s5_head}, &s->scc, comp);
  bb_smc_status st = BB_SMC_FIX;
  for (int r = 0; r < t->nr && st != BB_SMC_FAILED; r++) {
    bool missable_r = s->res_reached[r] == missed, movable_r = s->res_reached[r] == room_stamp;
    for (uint32_t e = R->start[r]; e < R->start[r + 1]; e++) {
      int h = (int)R->other[e];
      if (!s->alive[e] || h == s->hosp_of[r]) continue;
      bool in_some = s->room[h] > 0 && (missable_r                                         /* (a) */
                                        || (movable_r && s->hosp_reached[h] == room_stamp) /* (b) */
                                        || comp[r] == comp[t->nr + h]);                    /* (c) */
      if (!in_some && note(d->remove(d->ctx, r, (int)(e - R->start[r])), t, s, r, changed) == BB_SMC_FAILED) {
        st = BB_SMC_FAILED;
        break;
      }
    }
  }
  return st;
}

bb_smc_status bb_smc_ties_hrt_size_rules(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d,
                                         bool *changed) {
  int size_var = t->nr + t->nh, nu = 0, n_a = 0, load_min = 0, load_max = 0;
  snapshot(t, s, d);
  if (!cover(t, s, d)) return BB_SMC_FAILED;
  int32_t dead = next_stamp(s, t);
  for (int r = 0; r < t->nr; r++) {
    if (s->hosp_of[r] < 0) augment(t, s, r, dead);
    nu += s->hosp_of[r] >= 0;
    n_a += forced(t, d, r);
  }
  for (int h = 0; h < t->nh; h++) load_min += d->min(d->ctx, t->nr + h), load_max += d->max(d->ctx, t->nr + h);
  if (d->raise_min(d->ctx, size_var, n_a > load_min ? n_a : load_min) == BB_SMC_FAILED ||
      d->lower_max(d->ctx, size_var, nu) == BB_SMC_FAILED)
    return BB_SMC_FAILED;
  int lo = d->min(d->ctx, size_var), hi = d->max(d->ctx, size_var);
  for (int r = 0; r < t->nr && hi == n_a; r++) {
    int len = (int)(t->side[0].start[r + 1] - t->side[0].start[r]);
    if (!forced(t, d, r) && note(d->assign(d->ctx, r, len), t, s, r, changed) == BB_SMC_FAILED) return BB_SMC_FAILED;
  }
  for (int h = 0; h < t->nh; h++) {
    int var = t->nr + h, min = d->min(d->ctx, var), max = d->max(d->ctx, var);
    if (hi == load_min && note(d->lower_max(d->ctx, var, min), t, s, var, changed) == BB_SMC_FAILED)
      return BB_SMC_FAILED;
    if (lo == load_max && note(d->raise_min(d->ctx, var, max), t, s, var, changed) == BB_SMC_FAILED)
      return BB_SMC_FAILED;
  }
  if (lo == nu && !*changed) {
    int32_t stamp = missable(t, s);
    for (int r = 0; r < t->nr; r++) {
      int len = (int)(t->side[0].start[r + 1] - t->side[0].start[r]);
      if (s->res_reached[r] != stamp && note(d->lower_max(d->ctx, r, len - 1), t, s, r, changed) == BB_SMC_FAILED)
        return BB_SMC_FAILED;
    }
    if (!*changed) return maximum_pairs(t, s, d, stamp, changed);
  }
  return BB_SMC_FIX;
}
