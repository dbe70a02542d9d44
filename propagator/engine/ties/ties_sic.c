/* Erdil & Ergin's stable improvement cycles (AER 2008) on a weakly stable matching.
 *
 * Hospital h "would take" resident r when r strictly prefers h to his place (unassigned
 * residents prefer every acceptable hospital) and h ranks r best among all such residents
 * (D_h, ties allowed). A stable improvement cycle is residents r1 .. rk, each of whom the
 * hospital of the next would take; moving every ri there keeps the matching weakly stable and
 * makes each strictly better off. Erdil & Ergin show that a weakly stable matching with no
 * such cycle is not Pareto-dominated for the residents by any weakly stable matching (with
 * strict residents' lists), and that repeating cycles from deferred acceptance after single
 * tie-breaking reaches such a matching.
 *
 * The digraph has a node per resident (to every hospital that would take him) and per
 * hospital (to each of its assignees). A round builds it, then depth-first search applies
 * every cycle it meets and retires the nodes of the current path: the cycles of one round are
 * disjoint, and one cycle only shrinks the D_h of the others (its residents desire less), so
 * the others stay valid. Rounds repeat until one finds no cycle. An unassigned resident has no
 * edge into him, so he is never on a cycle, but he counts in D_h. */
#include <stdlib.h>

#include "ties.h"
#include "ties_algos.h"

typedef struct sic {
  const bb_ties *in;
  int32_t *assigned;
  uint32_t *res_other;  /* the hospital's rank of each resident entry */
  uint32_t *own;        /* n_residents: r's rank of his place, UINT32_MAX when unassigned */
  uint32_t *best;       /* n_hospitals: the best rank h gives anyone in D_h, UINT32_MAX if none */
  uint32_t *held_start; /* n_hospitals + 1: CSR of the assignees */
  int32_t *held;
  uint8_t *state;        /* nr + nh nodes: 0 unseen, 1 on the path, 2 retired */
  uint32_t *path, *iter; /* the DFS path's nodes and each one's next edge */
} sic;

static void place_ranks(sic *s) {
  const bb_ties *in = s->in;
  for (int h = 0; h < in->n_hospitals; h++) s->best[h] = UINT32_MAX, s->held_start[h + 1] = 0;
  for (int r = 0; r < in->n_residents; r++) {
    s->own[r] = UINT32_MAX;
    for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1]; e++)
      if ((int32_t)in->res_list[e] == s->assigned[r]) s->own[r] = in->res_rank[e];
    if (s->assigned[r] >= 0) s->held_start[s->assigned[r] + 1]++;
  }
  s->held_start[0] = 0;
  for (int h = 0; h < in->n_hospitals; h++) s->held_start[h + 1] += s->held_start[h];
  for (int r = 0; r < in->n_residents; r++) /* held_start[h] runs to h's end, then shifts back */
    if (s->assigned[r] >= 0) s->held[s->held_start[s->assigned[r]]++] = r;
  for (int h = in->n_hospitals; h > 0; h--) s->held_start[h] = s->held_start[h - 1];
  s->held_start[0] = 0;
  for (int r = 0; r < in->n_residents; r++)
    for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1] && in->res_rank[e] < s->own[r]; e++) {
      uint32_t o = s->res_other[e];
      bb_id h = in->res_list[e];
      if (o != BB_TIES_ONE_SIDED && o < s->best[h]) s->best[h] = o;
    }
}

/* The next edge of node v from s->iter[depth], or UINT32_MAX. */
static uint32_t next_edge(sic *s, uint32_t v, uint32_t *it) {
  const bb_ties *in = s->in;
  uint32_t nr = (uint32_t)in->n_residents;
  if (v < nr) {
    if (s->assigned[v] < 0) return UINT32_MAX;
    for (uint32_t e = in->res_start[v] + *it; e < in->res_start[v + 1] && in->res_rank[e] < s->own[v]; e++, (*it)++) {
      bb_id h = in->res_list[e];
      if (s->res_other[e] != BB_TIES_ONE_SIDED && s->res_other[e] == s->best[h]) {
        (*it)++;
        return nr + h;
      }
    }
    return UINT32_MAX;
  }
  uint32_t h = v - nr, k = s->held_start[h] + *it;
  if (k >= s->held_start[h + 1]) return UINT32_MAX;
  (*it)++;
  return (uint32_t)s->held[k];
}

/* One round: every cycle the search meets is applied; returns how many. */
static long round_of_cycles(sic *s) {
  const bb_ties *in = s->in;
  uint32_t nr = (uint32_t)in->n_residents, nodes = nr + (uint32_t)in->n_hospitals;
  long applied = 0;
  for (uint32_t v = 0; v < nodes; v++) s->state[v] = 0;
  for (uint32_t root = 0; root < nr; root++) {
    if (s->state[root]) continue;
    uint32_t depth = 0;
    s->path[0] = root, s->iter[0] = 0, s->state[root] = 1;
    while (depth != UINT32_MAX) {
      uint32_t v = s->path[depth], w = next_edge(s, v, &s->iter[depth]);
      if (w == UINT32_MAX) {
        s->state[v] = 2;
        depth--;
        continue;
      }
      if (s->state[w] == 2) continue;
      if (s->state[w] == 0) {
        s->path[++depth] = w, s->iter[depth] = 0, s->state[w] = 1;
        continue;
      }
      /* a cycle from w to the top of the path: each resident on it moves to the next node */
      uint32_t from = depth;
      while (s->path[from] != w) from--;
      for (uint32_t k = from; k <= depth; k++)
        if (s->path[k] < nr) s->assigned[s->path[k]] = (int32_t)((k == depth ? w : s->path[k + 1]) - nr);
      for (uint32_t k = 0; k <= depth; k++) s->state[s->path[k]] = 2;
      applied++;
      break;
    }
  }
  return applied;
}

bb_status bb_ties_sic(const bb_ties *in, int32_t *assigned, bb_error *err) {
  size_t nr = (size_t)in->n_residents, nh = (size_t)in->n_hospitals, er = in->res_start[in->n_residents];
  sic s = {in,
           assigned,
           malloc((er ? er : 1) * sizeof(uint32_t)),
           malloc((nr + 1) * sizeof(uint32_t)),
           malloc((nh + 1) * sizeof(uint32_t)),
           malloc((nh + 2) * sizeof(uint32_t)),
           malloc((nr + 1) * sizeof(int32_t)),
           malloc(nr + nh + 1),
           malloc((nr + nh + 1) * sizeof(uint32_t)),
           malloc((nr + nh + 1) * sizeof(uint32_t))};
  bb_status st = !s.res_other || !s.own || !s.best || !s.held_start || !s.held || !s.state || !s.path || !s.iter
                     ? bb_fail(err, BB_ERR_NOMEM, "out of memory for the improvement cycles")
                     : bb_ties_mutual_ranks(in, s.res_other, NULL, err);
  while (st == BB_OK) {
    place_ranks(&s);
    if (round_of_cycles(&s) == 0) break;
  }
  free(s.res_other), free(s.own), free(s.best), free(s.held_start), free(s.held), free(s.state), free(s.path),
      free(s.iter);
  return st;
}
