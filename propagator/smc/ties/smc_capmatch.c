/* The capacitated maximum matching of smc_capmatch.h. */
#include "smc_capmatch.h"

#include <stdlib.h>

bool bb_smc_capmatch_new(bb_smc_capmatch *m, const bb_smc_capmatch_graph *g) {
  size_t nr = (size_t)g->nr + 1, nh = (size_t)g->nh + 1;
  *m = (bb_smc_capmatch){.g = *g};
  m->alive = calloc((size_t)g->res_start[g->nr] + 1, 1);
  m->room = calloc(nh, sizeof *m->room);
  m->hosp_of = malloc(nr * sizeof *m->hosp_of);
  m->held = calloc(nh, sizeof *m->held);
  m->res_reached = calloc(nr, sizeof *m->res_reached);
  m->hosp_reached = calloc(nh, sizeof *m->hosp_reached);
  m->hosp_parent = malloc(nh * sizeof *m->hosp_parent);
  m->bfs = malloc((nr > nh ? nr : nh) * sizeof *m->bfs); /* residents' searches; movable's hospitals too */
  m->comp = malloc((nr + nh) * sizeof *m->comp);
  if (!m->alive || !m->room || !m->hosp_of || !m->held || !m->res_reached || !m->hosp_reached || !m->hosp_parent ||
      !m->bfs || !m->comp || !bb_smc_scc_work_new(&m->scc, g->nr + g->nh)) {
    bb_smc_capmatch_free(m);
    return false;
  }
  for (int r = 0; r < g->nr; r++) m->hosp_of[r] = -1;
  return true;
}

void bb_smc_capmatch_free(bb_smc_capmatch *m) {
  free(m->alive), free(m->room), free(m->hosp_of), free(m->held);
  free(m->res_reached), free(m->hosp_reached), free(m->hosp_parent), free(m->bfs), free(m->comp);
  bb_smc_scc_work_free(&m->scc);
  *m = (bb_smc_capmatch){0};
}

int32_t bb_smc_capmatch_stamp(bb_smc_capmatch *m) {
  if (++m->stamp == INT32_MAX) {
    for (int r = 0; r < m->g.nr; r++) m->res_reached[r] = 0;
    for (int h = 0; h < m->g.nh; h++) m->hosp_reached[h] = 0;
    m->stamp = 1;
  }
  return m->stamp;
}

void bb_smc_capmatch_keep(bb_smc_capmatch *m) {
  const bb_smc_capmatch_graph *g = &m->g;
  for (int h = 0; h < g->nh; h++) m->held[h] = 0;
  for (int r = 0; r < g->nr; r++) {
    bool kept = false;
    for (uint32_t e = g->res_start[r]; e < g->res_start[r + 1]; e++)
      if (m->alive[e] && (int32_t)g->res_hosp[e] == m->hosp_of[r]) kept = true;
    if (!kept || m->held[m->hosp_of[r]] >= m->room[m->hosp_of[r]])
      m->hosp_of[r] = -1;
    else
      m->held[m->hosp_of[r]]++;
  }
}

/* A breadth-first search from the free resident u for a hospital with a free post, through
 * full hospitals and their assignees; on success the path is flipped. With `dead` (not 0) the
 * search skips what failed searches of the same pass marked dead, and marks what it reached so
 * when it fails (the Hungarian trees of smc_capmatch.h). */
static bool augment(bb_smc_capmatch *m, int u, int32_t dead) {
  const bb_smc_capmatch_graph *g = &m->g;
  int32_t stamp = bb_smc_capmatch_stamp(m);
  int head = 0, tail = 0;
  m->bfs[tail++] = u, m->res_reached[u] = stamp;
  while (head < tail) {
    int x = m->bfs[head++];
    for (uint32_t e = g->res_start[x]; e < g->res_start[x + 1]; e++) {
      int h = (int)g->res_hosp[e];
      if (!m->alive[e] || m->hosp_reached[h] == stamp || (dead && m->hosp_reached[h] == dead)) continue;
      m->hosp_reached[h] = stamp, m->hosp_parent[h] = x;
      if (m->held[h] < m->room[h]) {
        m->held[h]++;
        for (;;) { /* each resident on the path moves to the hospital he reached */
          int by = m->hosp_parent[h], was = m->hosp_of[by];
          m->hosp_of[by] = h;
          if (by == u) return true;
          h = was;
        }
      }
      for (uint32_t f = g->hosp_start[h]; f < g->hosp_start[h + 1]; f++) {
        int y = (int)g->hosp_res[f];
        if (m->hosp_of[y] == h && m->res_reached[y] != stamp && (!dead || m->res_reached[y] != dead))
          m->res_reached[y] = stamp, m->bfs[tail++] = y;
      }
    }
  }
  for (int k = 0; dead && k < tail; k++) { /* every hospital reached was reached from one of bfs */
    int x = m->bfs[k];
    m->res_reached[x] = dead;
    for (uint32_t e = g->res_start[x]; e < g->res_start[x + 1]; e++)
      if (m->hosp_reached[g->res_hosp[e]] == stamp) m->hosp_reached[g->res_hosp[e]] = dead;
  }
  return false;
}

bool bb_smc_capmatch_cover(bb_smc_capmatch *m, bool (*forced)(const void *ctx, int r), const void *ctx) {
  bool restricted = false;
  for (int r = 0; r < m->g.nr; r++) {
    if (m->hosp_of[r] >= 0 || !forced(ctx, r) || augment(m, r, 0)) continue;
    if (restricted) return false;
    for (int q = 0; q < m->g.nr; q++)
      if (!forced(ctx, q) && m->hosp_of[q] >= 0) m->held[m->hosp_of[q]]--, m->hosp_of[q] = -1;
    restricted = true;
    r = -1;
  }
  return true;
}

int bb_smc_capmatch_maximum(bb_smc_capmatch *m) {
  int32_t dead = bb_smc_capmatch_stamp(m);
  int size = 0;
  for (int r = 0; r < m->g.nr; r++) {
    if (m->hosp_of[r] < 0) augment(m, r, dead);
    size += m->hosp_of[r] >= 0;
  }
  return size;
}

int32_t bb_smc_capmatch_missable(bb_smc_capmatch *m) {
  const bb_smc_capmatch_graph *g = &m->g;
  int32_t stamp = bb_smc_capmatch_stamp(m);
  int head = 0, tail = 0;
  for (int r = 0; r < g->nr; r++)
    if (m->hosp_of[r] < 0) m->res_reached[r] = stamp, m->bfs[tail++] = r;
  while (head < tail) {
    int x = m->bfs[head++];
    for (uint32_t e = g->res_start[x]; e < g->res_start[x + 1]; e++) {
      int h = (int)g->res_hosp[e];
      if (!m->alive[e] || m->hosp_reached[h] == stamp) continue;
      m->hosp_reached[h] = stamp;
      for (uint32_t f = g->hosp_start[h]; f < g->hosp_start[h + 1]; f++) {
        int y = (int)g->hosp_res[f];
        if (m->hosp_of[y] == h && m->res_reached[y] != stamp) m->res_reached[y] = stamp, m->bfs[tail++] = y;
      }
    }
  }
  return stamp;
}

/* The movable residents and the hospitals with room to give, from the hospitals with a free
 * post; residents missable at an older stamp are never movable (the matching is maximum), so
 * their marks survive. */
static void movable(bb_smc_capmatch *m, int32_t stamp) {
  const bb_smc_capmatch_graph *g = &m->g;
  int head = 0, tail = 0;
  for (int h = 0; h < g->nh; h++)
    if (m->held[h] < m->room[h]) m->hosp_reached[h] = stamp, m->bfs[tail++] = h;
  while (head < tail) {
    int h = m->bfs[head++];
    for (uint32_t f = g->hosp_start[h]; f < g->hosp_start[h + 1]; f++) {
      uint32_t e = g->hosp_entry[f];
      int y = (int)g->hosp_res[f];
      if (e == BB_SMC_CAPMATCH_NO_ENTRY || !m->alive[e] || m->res_reached[y] == stamp) continue;
      m->res_reached[y] = stamp;
      int o = m->hosp_of[y];
      if (o >= 0 && m->hosp_reached[o] != stamp) m->hosp_reached[o] = stamp, m->bfs[tail++] = o;
    }
  }
}

/* The cycles' graph for bb_smc_scc: a node's arc slots are the entries of its list. */
static void cycle_arcs(const void *ctx, int v, uint32_t *first, uint32_t *end) {
  const bb_smc_capmatch_graph *g = &((const bb_smc_capmatch *)ctx)->g;
  const uint32_t *start = v < g->nr ? g->res_start + v : g->hosp_start + (v - g->nr);
  *first = start[0], *end = start[1];
}

static int cycle_head(const void *ctx, int v, uint32_t e) {
  const bb_smc_capmatch *m = ctx;
  if (v < m->g.nr) { /* v -> h: an alive edge outside the matching */
    int h = (int)m->g.res_hosp[e];
    return m->alive[e] && h != m->hosp_of[v] && m->room[h] > 0 ? m->g.nr + h : -1;
  }
  int y = (int)m->g.hosp_res[e]; /* h -> an assignee */
  return m->hosp_of[y] == v - m->g.nr ? y : -1;
}

int32_t bb_smc_capmatch_pair_marks(bb_smc_capmatch *m, int32_t missed) {
  int32_t room_stamp = bb_smc_capmatch_stamp(m);
  if (room_stamp < missed) return 0;
  movable(m, room_stamp);
  bb_smc_scc(&(bb_smc_scc_graph){m->g.nr + m->g.nh, m, cycle_arcs, cycle_head}, &m->scc, m->comp);
  return room_stamp;
}
