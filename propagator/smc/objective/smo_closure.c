/* The minimum-weight closed set of rotations (Irving, Leather & Gusfield 1987) as a minimum
 * cut (Picard 1976): source -> r with capacity -cost(r) for the rotations that lower the
 * cost, r -> sink with cost(r) for those that raise it, and an infinite arc from each
 * rotation to each of its generating predecessors. The source side of a minimum cut is a
 * closed set of least cost; that cost is max-flow - (sum of the source capacities).
 * Max-flow by Dinic's algorithm, with an explicit stack (chains of rotations can be
 * O(n^2) long: no recursion). */
#include "smo_internal.h"

#include <stdlib.h>

#define SMO_INF ((int64_t)1 << 60)

/* Arc 2i is pair i's forward arc, 2i + 1 its reverse; adj lists each node's arc ids. */
typedef struct net {
  int nodes;
  int32_t *first, *adj, *head, *tail, *iter, *level, *queue, *path;
  int64_t *cap;
} net;

static bool bfs(net *g, int s, int t) {
  for (int v = 0; v < g->nodes; v++) g->level[v] = -1;
  int qh = 0, qt = 0;
  g->queue[qt++] = s;
  g->level[s] = 0;
  while (qh < qt) {
    int v = g->queue[qh++];
    for (int i = g->first[v]; i < g->first[v + 1]; i++) {
      int a = g->adj[i];
      if (g->cap[a] > 0 && g->level[g->head[a]] < 0) {
        g->level[g->head[a]] = g->level[v] + 1;
        g->queue[qt++] = g->head[a];
      }
    }
  }
  return g->level[t] >= 0;
}

/* One blocking flow: advance along level-increasing arcs, retreat from dead ends. */
static int64_t blocking_flow(net *g, int s, int t) {
  int64_t total = 0;
  int depth = 0, v = s;
  for (int u = 0; u < g->nodes; u++) g->iter[u] = g->first[u];
  for (;;) {
    if (v == t) {
      int64_t f = SMO_INF;
      for (int i = 0; i < depth; i++)
        if (g->cap[g->path[i]] < f) f = g->cap[g->path[i]];
      int back = depth;
      for (int i = depth - 1; i >= 0; i--) {
        int a = g->path[i];
        g->cap[a] -= f;
        g->cap[a ^ 1] += f;
        if (g->cap[a] == 0) back = i;
      }
      total += f;
      depth = back; /* resume at the tail of the first saturated arc */
      v = g->tail[g->path[depth]];
      continue;
    }
    int i = g->iter[v];
    for (; i < g->first[v + 1]; i++) {
      int a = g->adj[i];
      if (g->cap[a] > 0 && g->level[g->head[a]] == g->level[v] + 1) break;
    }
    g->iter[v] = i;
    if (i < g->first[v + 1]) {
      g->path[depth++] = g->adj[i];
      v = g->head[g->adj[i]];
      continue;
    }
    g->level[v] = -1; /* dead end */
    if (depth == 0) break;
    v = g->tail[g->path[--depth]];
    g->iter[v]++;
  }
  return total;
}

bool smo_min_closure(const smo_lattice *L, const int64_t *cost, int64_t *out) {
  int R = L->n_rot, s = R, t = R + 1;
  *out = 0;
  if (R == 0) return true;
  int pairs = L->n_edges;
  for (int r = 0; r < R; r++) pairs += cost[r] != 0;
  size_t arcs = 2 * (size_t)pairs;
  net g = {R + 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  g.first = calloc((size_t)g.nodes + 1, sizeof *g.first);
  g.adj = malloc((arcs + 1) * sizeof *g.adj);
  g.head = malloc((arcs + 1) * sizeof *g.head);
  g.tail = malloc((arcs + 1) * sizeof *g.tail);
  g.cap = malloc((arcs + 1) * sizeof *g.cap);
  g.iter = malloc((size_t)g.nodes * sizeof *g.iter);
  g.level = malloc((size_t)g.nodes * sizeof *g.level);
  g.queue = malloc((size_t)g.nodes * sizeof *g.queue);
  g.path = malloc((size_t)g.nodes * sizeof *g.path);
  int32_t *fill = malloc((size_t)g.nodes * sizeof *fill);
  bool ok = g.first && g.adj && g.head && g.tail && g.cap && g.iter && g.level && g.queue && g.path && fill;
  if (ok) {
    int64_t gain = 0;
    size_t a = 0;
    for (int r = 0; r < R; r++) {
      int u = -1, v = -1;
      int64_t c = 0;
      if (cost[r] < 0)
        u = s, v = r, c = -cost[r], gain -= cost[r];
      else if (cost[r] > 0)
        u = r, v = t, c = cost[r];
      else
        continue;
      g.tail[a] = u, g.head[a] = v, g.cap[a++] = c;
      g.tail[a] = v, g.head[a] = u, g.cap[a++] = 0;
    }
    for (int e = 0; e < L->n_edges; e++) { /* taking the later rotation takes the earlier */
      int u = L->edge_after[e], v = L->edge_before[e];
      g.tail[a] = u, g.head[a] = v, g.cap[a++] = SMO_INF;
      g.tail[a] = v, g.head[a] = u, g.cap[a++] = 0;
    }
    for (size_t i = 0; i < arcs; i++) g.first[g.tail[i] + 1]++;
    for (int v = 0; v < g.nodes; v++) g.first[v + 1] += g.first[v];
    for (int v = 0; v < g.nodes; v++) fill[v] = g.first[v];
    for (size_t i = 0; i < arcs; i++) g.adj[fill[g.tail[i]]++] = (int32_t)i;
    int64_t flow = 0;
    while (bfs(&g, s, t)) flow += blocking_flow(&g, s, t);
    *out = flow - gain;
  }
  free(fill);
  free(g.first);
  free(g.adj);
  free(g.head);
  free(g.tail);
  free(g.cap);
  free(g.iter);
  free(g.level);
  free(g.queue);
  free(g.path);
  return ok;
}
