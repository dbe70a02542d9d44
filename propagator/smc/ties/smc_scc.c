/* Strongly connected components, iterative Tarjan (smc_scc.h). */
#include "smc_scc.h"

#include <assert.h>
#include <stdlib.h>

bool bb_smc_scc_work_new(bb_smc_scc_work *w, int n) {
  size_t cap = (size_t)(n > 0 ? n : 1);
  w->n = n;
  w->index = malloc(sizeof(int32_t) * cap * 4);
  w->pos = malloc(sizeof(uint32_t) * cap * 2);
  if (!w->index || !w->pos) {
    bb_smc_scc_work_free(w);
    return false;
  }
  w->low = w->index + cap, w->stack = w->low + cap, w->calls = w->stack + cap;
  w->end = w->pos + cap;
  return true;
}

void bb_smc_scc_work_free(bb_smc_scc_work *w) {
  free(w->index), free(w->pos);
  *w = (bb_smc_scc_work){0};
}

int bb_smc_scc(const bb_smc_scc_graph *g, bb_smc_scc_work *w, int32_t *comp) {
  assert(g->n <= w->n);
  int32_t *index = w->index, *low = w->low, *stack = w->stack, *calls = w->calls;
  uint32_t *pos = w->pos, *end = w->end;
  int n = g->n, counter = 0, sp = 0, csp = 0, ncomp = 0;
  for (int v = 0; v < n; v++) index[v] = -1, comp[v] = -1;
  for (int root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    index[root] = low[root] = counter++, stack[sp++] = root, calls[csp++] = root;
    g->arcs(g->ctx, root, &pos[root], &end[root]);
    while (csp > 0) {
      int v = calls[csp - 1];
      if (pos[v] < end[v]) {
        int x = g->head(g->ctx, v, pos[v]++);
        if (x < 0) continue;
        if (index[x] < 0) {
          index[x] = low[x] = counter++, stack[sp++] = x, calls[csp++] = x;
          g->arcs(g->ctx, x, &pos[x], &end[x]);
        } else if (comp[x] < 0 && index[x] < low[v]) {
          low[v] = index[x]; /* x still on the stack: no component yet */
        }
        continue;
      }
      csp--; /* v's arcs are done: return to its caller */
      if (csp > 0 && low[v] < low[calls[csp - 1]]) low[calls[csp - 1]] = low[v];
      if (low[v] == index[v]) {
        int x;
        do x = stack[--sp], comp[x] = ncomp;
        while (x != v);
        ncomp++;
      }
    }
  }
  return ncomp;
}
