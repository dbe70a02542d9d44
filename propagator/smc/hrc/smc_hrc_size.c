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
 * The matching and its marks are smc_capmatch.h's, room[h] = capacity[h] (Hopcroft & Karp's phases
 * would do fewer passes; the matching kept from the last propagation leaves few residents to
 * place). */
#include "smc_capmatch.h"
#include "smc_hrc_size.h"

#include <stdlib.h>

static const char WHO[] = "stable_matching_hrc (size)";

struct bb_smc_hrc_size {
  int ns, nc, nh, nr, nv;
  int32_t *len;        /* nv: a variable's list length (its value "unassigned") */
  int32_t *var_of;     /* nr: a relaxed resident's variable */
  uint32_t *res_start; /* nr + 1: a relaxed resident's edges */
  uint32_t *res_hosp;
  int32_t *res_value;
  uint32_t *hosp_start;           /* nh + 1: the relaxed residents with an edge to h (repeats allowed) */
  uint32_t *hosp_res, *hosp_edge; /* ... and that edge */
  int32_t *capacity;
};

struct bb_smc_hrc_size_scratch {
  bb_smc_capmatch match;
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
      t->res_hosp[at] = (uint32_t)h, t->res_value[at] = (int32_t)(e - from);
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
      t->hosp_res[f] = (uint32_t)x, t->hosp_edge[f] = e;
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
  bb_smc_capmatch_free(&s->match);
  free(s);
}

bb_smc_hrc_size_scratch *bb_smc_hrc_size_scratch_new(const bb_smc_hrc_size *t, bb_error *err) {
  bb_smc_hrc_size_scratch *s = calloc(1, sizeof *s);
  bb_smc_capmatch_graph g = {t->nr, t->nh, t->res_start, t->res_hosp, t->hosp_start, t->hosp_res, t->hosp_edge};
  if (!s || !bb_smc_capmatch_new(&s->match, &g)) {
    bb_smc_hrc_size_scratch_free(s);
    return bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the work space", WHO), NULL;
  }
  for (int h = 0; h < t->nh; h++) s->match.room[h] = t->capacity[h];
  return s;
}

static bool forced(const bb_smc_hrc_size *t, const bb_smc_domains *d, int v) { return d->max(d->ctx, v) < t->len[v]; }

typedef struct forced_ctx {
  const bb_smc_hrc_size *t;
  const bb_smc_domains *d;
} forced_ctx;

static bool forced_member(const void *ctx, int x) {
  const forced_ctx *c = ctx;
  return forced(c->t, c->d, c->t->var_of[x]);
}

/* The alive edges; the kept matching loses the edges no longer alive and the residents past a
 * hospital's capacity. */
static void snapshot(const bb_smc_hrc_size *t, bb_smc_capmatch *m, const bb_smc_domains *d) {
  for (int x = 0; x < t->nr; x++)
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1]; e++)
      m->alive[e] = d->contains(d->ctx, t->var_of[x], t->res_value[e]);
  bb_smc_capmatch_keep(m);
}

static bb_smc_status worse(bb_smc_status st, bb_smc_status now) {
  return now == BB_SMC_FAILED || (now == BB_SMC_CHANGED && st == BB_SMC_FIX) ? now : st;
}

/* Z5 over the missable residents (res_reached = missed) and the maximum matching: removes every
 * value one of whose edges no maximum matching uses. */
static bb_smc_status maximum_pairs(const bb_smc_hrc_size *t, bb_smc_capmatch *m, const bb_smc_domains *d,
                                   int32_t missed) {
  int32_t room_stamp = bb_smc_capmatch_pair_marks(m, missed);
  if (!room_stamp) return BB_SMC_FIX; /* the marks were just cleared: next time */
  bb_smc_status st = BB_SMC_FIX;
  for (int x = 0; x < t->nr && st != BB_SMC_FAILED; x++)
    for (uint32_t e = t->res_start[x]; e < t->res_start[x + 1] && st != BB_SMC_FAILED; e++)
      if (bb_smc_capmatch_unused(m, missed, room_stamp, x, e))
        st = worse(st, d->remove(d->ctx, t->var_of[x], t->res_value[e]));
  return st;
}

bb_smc_status bb_smc_hrc_size_propagate(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, const bb_smc_domains *d,
                                        int size_min, int size_max, int *lb, int *ub) {
  int n_forced = 0, nu = 0;
  for (int v = 0; v < t->nv; v++) n_forced += forced(t, d, v) ? (v < t->ns ? 1 : 2) : 0;
  *lb = n_forced, *ub = t->nr;
  bb_smc_capmatch *m = &s->match;
  snapshot(t, m, d);
  if (!bb_smc_capmatch_cover(m, forced_member, &(forced_ctx){t, d})) return BB_SMC_FAILED;
  *ub = nu = bb_smc_capmatch_maximum(m);
  if (size_max < n_forced || size_min > nu) return BB_SMC_FAILED;
  bb_smc_status st = BB_SMC_FIX;
  if (size_max == n_forced) { /* Z3 */
    for (int v = 0; v < t->nv && st != BB_SMC_FAILED; v++)
      if (!forced(t, d, v)) st = worse(st, d->assign(d->ctx, v, t->len[v]));
  } else if (size_min == nu) { /* Z4, on the maximum matching just found */
    int32_t stamp = bb_smc_capmatch_missable(m);
    for (int x = 0; x < t->nr && st != BB_SMC_FAILED; x++) {
      int v = t->var_of[x];
      if (m->res_reached[x] != stamp && !forced(t, d, v)) st = worse(st, d->lower_max(d->ctx, v, t->len[v] - 1));
    }
    if (st != BB_SMC_FAILED) st = worse(st, maximum_pairs(t, m, d, stamp)); /* Z5 */
  }
  return st;
}
