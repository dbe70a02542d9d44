/* The size bounds of smc_hrc_size.h. The relaxed residents are the singles and each couple's two
 * members; x's edges are the (hospital, value) pairs of its variable's list, alive while the
 * variable's domain holds the value. A matching of the domains is a capacitated matching of the
 * relaxed graph that covers every forced relaxed resident (one whose variable has lost
 * "unassigned"), so
 *   Z1: no matching covering the forced residents: fail;
 *   Z2: forced <= size <= nu, nu the size of a maximum capacitated matching;
 *   Z3: size's maximum equal to forced: every other variable is unassigned;
 *   Z4: size's minimum equal to nu: the matching is a maximum one of the relaxed graph, so a
 *       resident that every maximum matching covers is assigned (those that no even alternating
 *       path joins to a free resident), and so is his couple;
 *   Z5: the same, and a value one of whose edges no maximum matching uses is removed
 *       (Dulmage-Mendelsohn, each hospital seen as capacity[h] posts, as in smc_hrt_size.c's S5:
 *       given the maximum matching M, an edge (x, h) outside M is in some maximum matching when
 *       (a) x is missable, or (b) x is movable and h has room to give, or (c) x and h lie on an
 *       alternating cycle, one strongly connected component).
 * The augmenting paths are breadth-first searches through full hospitals and their assignees,
 * each hospital seen as capacity[h] posts (Hopcroft & Karp's phases would do fewer passes; the
 * matching kept from the last propagation leaves few residents to place). */
#include "smc_hrc_size.h"
#include "smc_scc.h"

#include <stdlib.h>

static const char WHO[] = "stable_matching_hrc (size)";

struct bb_smc_hrc_size {
  int ns, nc, nh, nr, nv;
  int32_t *len;        /* nv: a variable's list length (its value "unassigned") */
  int32_t *var_of;     /* nr: a relaxed resident's variable */
  uint32_t *res_start; /* nr + 1: a relaxed resident's edges */
  int32_t *res_hosp, *res_value;
  uint32_t *hosp_start;          /* nh + 1: the relaxed residents with an edge to h (repeats allowed) */
  int32_t *hosp_res, *hosp_edge; /* ... and that edge */
  int32_t *capacity;
};

struct bb_smc_hrc_size_scratch {
  uint8_t *alive;                             /* per edge */
  int32_t *hosp_of, *res_reached, *bfs;       /* per relaxed resident (bfs: or hospital) */
  int32_t *held, *hosp_reached, *hosp_parent; /* per hospital */
  int32_t stamp;
  bb_smc_scc_work scc; /* Z5's components: relaxed residents 0..nr-1, hospital h node nr + h */
  int32_t *comp;
};

void bb_smc_hrc_size_free(bb_smc_hrc_size *t) {
  if (!t) return;
  free(t->len), free(t->var_of), free(t->res_start), free(t->res_hosp), free(t->res_value);
  free(t->hosp_start), free(t->hosp_res), free(t->hosp_edge), free(t->capacity);
  free(t);
}

static bb_smc_hrc_size *build(const bb_smc_hrc_size_lists *L, bb_status *st, bb_error *err) {
  if (!L || L->n_singles < 0 || L->n_couples < 0 || L->n_hospitals < 0 ||
      L->n_couples > (INT32_MAX - L->n_singles) / 2 || !L->single_start || !L->couple_start ||
      (L->n_hospitals > 0 && !L->capacity))
    return *st = bb_fail(err, BB_ERR_ARG, "%s: bad sizes or arrays", WHO), NULL;
  int ns = L->n_singles, nc = L->n_couples, nh = L->n_hospitals;
  uint64_t se = L->single_start[ns], ce = L->couple_start[nc], edges = se + 2 * ce;
  if (edges > INT32_MAX) return *st = bb_fail(err, BB_ERR_ARG, "%s: too many list entries", WHO), NULL;
  bb_smc_hrc_size *t = calloc(1, sizeof *t);
  if (!t) return *st = bb_fail(err, BB_ERR_NOMEM, "%s: out of memory", WHO), NULL;
  t->ns = ns, t->nc = nc, t->nh = nh, t->nr = ns + 2 * nc, t->nv = ns + nc;
  t->len = malloc(((size_t)t->nv + 1) * sizeof *t->len);
  t->var_of = malloc(((size_t)t->nr + 1) * sizeof *t->var_of);
  t->res_start = malloc(((size_t)t->nr + 1) * sizeof *t->res_start);
  t->res_hosp = malloc((edges + 1) * sizeof *t->res_hosp);
  t->res_value = malloc((edges + 1) * sizeof *t->res_value);
  t->hosp_start = calloc((size_t)nh + 1, sizeof *t->hosp_start);
  t->hosp_res = malloc((edges + 1) * sizeof *t->hosp_res);
  t->hosp_edge = malloc((edges + 1) * sizeof *t->hosp_edge);
  t->capacity = malloc(((size_t)nh + 1) * sizeof *t->capacity);
  if (!t->len || !t->var_of || !t->res_start || !t->res_hosp || !t->res_value || !t->hosp_start || !t->hosp_res ||
      !t->hosp_edge || !t->capacity) {
    bb_smc_hrc_size_free(t);
    return *st = bb_fail(err, BB_ERR_NOMEM, "%s: out of memory", WHO), NULL;
  }
  for (int h = 0; h < nh; h++) {
    if (L->capacity[h] < 0) {
      bb_smc_hrc_size_free(t);
      return *st = bb_fail(err, BB_ERR_INPUT, "%s: hospital %d has capacity %d", WHO, h, L->capacity[h]), NULL;
    }
    t->capacity[h] = L->capacity[h];
  }
  uint32_t at = 0;
  for (int x = 0; x < t->nr; x++) { /* singles, then each couple's first and second member */
    int v = x < ns ? x : ns + (x - ns) / 2, member = x < ns ? 0 : (x - ns) % 2;
    uint32_t from = v < ns ? L->single_start[v] : L->couple_start[v - ns];
    uint32_t to = v < ns ? L->single_start[v + 1] : L->couple_start[v - ns + 1];
    t->var_of[x] = v, t->res_start[x] = at;
    t->len[v] = (int32_t)(to - from);
    for (uint32_t e = from; e < to; e++, at++) {
      int32_t h = v < ns ? L->single_hosp[e] : L->couple_pair[2 * (size_t)e + (size_t)member];
      if (h < 0 || h >= nh) {
        bb_smc_hrc_size_free(t);
        return *st = bb_fail(err, BB_ERR_INPUT, "%s: hospital %d out of range", WHO, h), NULL;
      }
      t->res_hosp[at] = h, t->res_value[at] = (int32_t)(e - from);
      t->hosp_start[h + 1]++;
    }
  }
  t->res_start[t->nr] = at;
  for (int h = 0; h < nh; h++) t->hosp_start[h + 1] += t->hosp_start[h];
  uint32_t *fill = malloc(((size_t)nh + 1) * sizeof *fill);
  if (!fill) {
    bb_smc_hrc_size_free(t);
    return *st = bb_fail(err, BB_ERR_NOMEM, "%s: out of memory", WHO), NULL;
  }
  for (int h = 0; h < nh; h++) fill[h] = t->hosp_start[h];
  for (int x = 0; x < t->nr; x++)
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1]; e++) {
      uint32_t f = fill[t->res_hosp[e]]++;
      t->hosp_res[f] = x, t->hosp_edge[f] = (int32_t)e;
    }
  free(fill);
  return t;
}

bb_status bb_smc_hrc_size_new(const bb_smc_hrc_size_lists *lists, bb_smc_hrc_size **out, bb_error *err) {
  bb_status st = BB_OK;
  *out = build(lists, &st, err);
  return st;
}

int bb_smc_hrc_size_vars(const bb_smc_hrc_size *t) { return t->nv; }
int bb_smc_hrc_size_len(const bb_smc_hrc_size *t, int var) { return t->len[var]; }
int bb_smc_hrc_size_residents(const bb_smc_hrc_size *t) { return t->nr; }

void bb_smc_hrc_size_scratch_free(bb_smc_hrc_size_scratch *s) {
  if (!s) return;
  free(s->alive), free(s->hosp_of), free(s->res_reached), free(s->bfs);
  free(s->held), free(s->hosp_reached), free(s->hosp_parent), free(s->comp);
  bb_smc_scc_work_free(&s->scc);
  free(s);
}

bb_smc_hrc_size_scratch *bb_smc_hrc_size_scratch_new(const bb_smc_hrc_size *t, bb_error *err) {
  bb_smc_hrc_size_scratch *s = calloc(1, sizeof *s);
  size_t nr = (size_t)t->nr + 1, nh = (size_t)t->nh + 1;
  if (s) {
    s->alive = malloc((size_t)t->res_start[t->nr] + 1);
    s->hosp_of = malloc(nr * sizeof *s->hosp_of);
    s->res_reached = calloc(nr, sizeof *s->res_reached);
    s->bfs = malloc((nr > nh ? nr : nh) * sizeof *s->bfs); /* residents, or Z5's hospitals */
    s->held = malloc(nh * sizeof *s->held);
    s->hosp_reached = calloc(nh, sizeof *s->hosp_reached);
    s->hosp_parent = malloc(nh * sizeof *s->hosp_parent);
    s->comp = malloc((nr + nh) * sizeof *s->comp);
  }
  if (!s || !s->alive || !s->hosp_of || !s->res_reached || !s->bfs || !s->held || !s->hosp_reached || !s->hosp_parent ||
      !s->comp || !bb_smc_scc_work_new(&s->scc, t->nr + t->nh)) {
    bb_smc_hrc_size_scratch_free(s);
    return bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the work space", WHO), NULL;
  }
  for (int x = 0; x < t->nr; x++) s->hosp_of[x] = -1;
  return s;
}

static int32_t next_stamp(bb_smc_hrc_size_scratch *s, const bb_smc_hrc_size *t) {
  if (++s->stamp == INT32_MAX) {
    for (int x = 0; x < t->nr; x++) s->res_reached[x] = 0;
    for (int h = 0; h < t->nh; h++) s->hosp_reached[h] = 0;
    s->stamp = 1;
  }
  return s->stamp;
}

static bool forced(const bb_smc_hrc_size *t, const bb_smc_domains *d, int v) { return d->max(d->ctx, v) < t->len[v]; }

static void unassign(bb_smc_hrc_size_scratch *s, int x) {
  if (s->hosp_of[x] >= 0) s->held[s->hosp_of[x]]--, s->hosp_of[x] = -1;
}

/* The alive edges; the kept matching loses the edges no longer alive and the residents past a
 * hospital's capacity. */
static void snapshot(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, const bb_smc_domains *d) {
  for (int h = 0; h < t->nh; h++) s->held[h] = 0;
  for (int x = 0; x < t->nr; x++) {
    bool kept = false;
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1]; e++) {
      s->alive[e] = d->contains(d->ctx, t->var_of[x], t->res_value[e]);
      if (s->alive[e] && t->res_hosp[e] == s->hosp_of[x]) kept = true;
    }
    if (!kept || s->held[s->hosp_of[x]] >= t->capacity[s->hosp_of[x]])
      s->hosp_of[x] = -1;
    else
      s->held[s->hosp_of[x]]++;
  }
}

/* A breadth-first search from the free resident u for a hospital with a free post, through
 * full hospitals and their assignees; on success the path is flipped. With `dead` (not 0) the
 * search skips what failed searches of the same pass marked dead, and marks what it reached so
 * when it fails: a failed search's tree is Hungarian, which no later augmenting path of the pass
 * meets (Edmonds 1965 in docs/references.md). */
static bool augment(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, int u, int32_t dead) {
  int32_t stamp = next_stamp(s, t);
  int head = 0, tail = 0;
  s->bfs[tail++] = u, s->res_reached[u] = stamp;
  while (head < tail) {
    int x = s->bfs[head++];
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1]; e++) {
      int h = t->res_hosp[e];
      if (!s->alive[e] || s->hosp_reached[h] == stamp || (dead && s->hosp_reached[h] == dead)) continue;
      s->hosp_reached[h] = stamp, s->hosp_parent[h] = x;
      if (s->held[h] < t->capacity[h]) {
        s->held[h]++;
        for (;;) { /* each resident on the path moves to the hospital he reached */
          int by = s->hosp_parent[h], was = s->hosp_of[by];
          s->hosp_of[by] = h;
          if (by == u) return true;
          h = was;
        }
      }
      for (uint32_t f = t->hosp_start[h]; f < t->hosp_start[h + 1]; f++) {
        int y = t->hosp_res[f];
        if (s->hosp_of[y] == h && s->res_reached[y] != stamp && (!dead || s->res_reached[y] != dead))
          s->res_reached[y] = stamp, s->bfs[tail++] = y;
      }
    }
  }
  for (int k = 0; dead && k < tail; k++) { /* every hospital reached was reached from one of bfs */
    int x = s->bfs[k];
    s->res_reached[x] = dead;
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1]; e++)
      if (s->hosp_reached[t->res_hosp[e]] == stamp) s->hosp_reached[t->res_hosp[e]] = dead;
  }
  return false;
}

/* Z1: a matching covers the forced residents, from the kept one or from it restricted to them. */
static bool cover(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, const bb_smc_domains *d) {
  bool restricted = false;
  for (int x = 0; x < t->nr; x++) {
    if (s->hosp_of[x] >= 0 || !forced(t, d, t->var_of[x]) || augment(t, s, x, 0)) continue;
    if (restricted) return false;
    for (int y = 0; y < t->nr; y++)
      if (!forced(t, d, t->var_of[y])) unassign(s, y);
    restricted = true;
    x = -1;
  }
  return true;
}

/* Marks (res_reached = the stamp returned) the residents some maximum matching leaves free: an
 * even alternating path joins them to a free resident. */
static int32_t missable(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s) {
  int32_t stamp = next_stamp(s, t);
  int head = 0, tail = 0;
  for (int x = 0; x < t->nr; x++)
    if (s->hosp_of[x] < 0) s->res_reached[x] = stamp, s->bfs[tail++] = x;
  while (head < tail) {
    int x = s->bfs[head++];
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1]; e++) {
      int h = t->res_hosp[e];
      if (!s->alive[e] || s->hosp_reached[h] == stamp) continue;
      s->hosp_reached[h] = stamp;
      for (uint32_t f = t->hosp_start[h]; f < t->hosp_start[h + 1]; f++) {
        int y = t->hosp_res[f];
        if (s->hosp_of[y] == h && s->res_reached[y] != stamp) s->res_reached[y] = stamp, s->bfs[tail++] = y;
      }
    }
  }
  return stamp;
}

static bb_smc_status worse(bb_smc_status st, bb_smc_status now) {
  return now == BB_SMC_FAILED || (now == BB_SMC_CHANGED && st == BB_SMC_FIX) ? now : st;
}

/* Marks (res_reached = hosp_reached = stamp) the movable residents and the hospitals with room to
 * give (Z5's b), from the hospitals with a free post; residents missable at the caller's stamp
 * are never movable (the matching is maximum), so their marks survive. */
static void movable(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, int32_t stamp) {
  int head = 0, tail = 0;
  for (int h = 0; h < t->nh; h++)
    if (s->held[h] < t->capacity[h]) s->hosp_reached[h] = stamp, s->bfs[tail++] = h;
  while (head < tail) {
    int h = s->bfs[head++];
    for (uint32_t f = t->hosp_start[h]; f < t->hosp_start[h + 1]; f++) {
      int y = t->hosp_res[f];
      if (!s->alive[t->hosp_edge[f]] || s->res_reached[y] == stamp) continue;
      s->res_reached[y] = stamp;
      int g = s->hosp_of[y];
      if (g >= 0 && s->hosp_reached[g] != stamp) s->hosp_reached[g] = stamp, s->bfs[tail++] = g;
    }
  }
}

/* Z5's graph (c) for bb_smc_scc: relaxed residents 0..nr-1, hospital h node nr + h, an arc
 * x -> h for each alive edge outside the matching and h -> y for each assignee y of h; a node's
 * arc slots are its edges. */
typedef struct z5_graph {
  const bb_smc_hrc_size *t;
  const bb_smc_hrc_size_scratch *s;
} z5_graph;

static void z5_arcs(const void *ctx, int v, uint32_t *first, uint32_t *end) {
  const bb_smc_hrc_size *t = ((const z5_graph *)ctx)->t;
  const uint32_t *start = v < t->nr ? t->res_start + v : t->hosp_start + (v - t->nr);
  *first = start[0], *end = start[1];
}

static int z5_head(const void *ctx, int v, uint32_t e) {
  const bb_smc_hrc_size *t = ((const z5_graph *)ctx)->t;
  const bb_smc_hrc_size_scratch *s = ((const z5_graph *)ctx)->s;
  if (v < t->nr) {
    int h = t->res_hosp[e];
    return s->alive[e] && h != s->hosp_of[v] && t->capacity[h] > 0 ? t->nr + h : -1;
  }
  int y = t->hosp_res[e];
  return s->hosp_of[y] == v - t->nr ? y : -1;
}

/* Z5 over the missable residents (res_reached = missed) and the maximum matching: removes every
 * value one of whose edges no maximum matching uses. */
static bb_smc_status maximum_pairs(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, const bb_smc_domains *d,
                                   int32_t missed) {
  int32_t room_stamp = next_stamp(s, t);
  if (room_stamp < missed) return BB_SMC_FIX; /* the marks were just cleared: next time */
  movable(t, s, room_stamp);
  int32_t *comp = s->comp;
  bb_smc_scc(&(bb_smc_scc_graph){t->nr + t->nh, &(z5_graph){t, s}, z5_arcs, z5_head}, &s->scc, comp);
  bb_smc_status st = BB_SMC_FIX;
  for (int x = 0; x < t->nr && st != BB_SMC_FAILED; x++) {
    bool missable_x = s->res_reached[x] == missed, movable_x = s->res_reached[x] == room_stamp;
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1] && st != BB_SMC_FAILED; e++) {
      int h = t->res_hosp[e];
      if (!s->alive[e] || h == s->hosp_of[x]) continue;
      bool in_some = t->capacity[h] > 0 && (missable_x                                         /* (a) */
                                            || (movable_x && s->hosp_reached[h] == room_stamp) /* (b) */
                                            || comp[x] == comp[t->nr + h]);                    /* (c) */
      if (!in_some) st = worse(st, d->remove(d->ctx, t->var_of[x], t->res_value[e]));
    }
  }
  return st;
}

bb_smc_status bb_smc_hrc_size_propagate(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, const bb_smc_domains *d,
                                        int size_min, int size_max, int *lb, int *ub) {
  int n_forced = 0, nu = 0;
  for (int v = 0; v < t->nv; v++) n_forced += forced(t, d, v) ? (v < t->ns ? 1 : 2) : 0;
  *lb = n_forced, *ub = t->nr;
  snapshot(t, s, d);
  if (!cover(t, s, d)) return BB_SMC_FAILED;
  int32_t dead = next_stamp(s, t);
  for (int x = 0; x < t->nr; x++) {
    if (s->hosp_of[x] < 0) augment(t, s, x, dead);
    nu += s->hosp_of[x] >= 0;
  }
  *ub = nu;
  if (size_max < n_forced || size_min > nu) return BB_SMC_FAILED;
  bb_smc_status st = BB_SMC_FIX;
  if (size_max == n_forced) { /* Z3 */
    for (int v = 0; v < t->nv && st != BB_SMC_FAILED; v++)
      if (!forced(t, d, v)) st = worse(st, d->assign(d->ctx, v, t->len[v]));
  } else if (size_min == nu) { /* Z4, on the maximum matching just found */
    int32_t stamp = missable(t, s);
    for (int x = 0; x < t->nr && st != BB_SMC_FAILED; x++) {
      int v = t->var_of[x];
      if (s->res_reached[x] != stamp && !forced(t, d, v)) st = worse(st, d->lower_max(d->ctx, v, t->len[v] - 1));
    }
    if (st != BB_SMC_FAILED) st = worse(st, maximum_pairs(t, s, d, stamp)); /* Z5 */
  }
  return st;
}
