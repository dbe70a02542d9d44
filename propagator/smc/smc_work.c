/* The work area of a propagation (smc_internal.h, bb_smc_work): one per thread, made on the
 * thread's first propagation, grown when a larger constraint comes, and freed when the thread
 * ends. A propagation never runs inside another on one thread (the host's domain updates
 * only call advisors), so one area per thread is enough; a constraint copy that moves to
 * another thread (work stealing) simply takes that thread's. */
#include "smc_internal.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void work_free(bb_smc_work *w) {
  if (!w) return;
  free(w->items);
  free(w->head);
  free(w->touched);
  free(w->values);
  free(w->pairs);
  free(w->lb);
  free(w->ub);
  free(w->holes);
  free(w->dirty);
  free(w->is_dirty);
  free(w->dv);
  free(w->pool);
  free(w->free_stack);
  free(w->listed);
  free(w);
}

static void work_release(void *w) { work_free(w); }
static void make_key(void) { (void)pthread_key_create(&key, work_release); }

/* An idle area for vars variables and domains of room values (the invariants of bb_smc_work
 * hold), or NULL when out of memory. */
static bb_smc_work *work_make(size_t vars, int room) {
  bb_smc_work *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->vars = vars;
  w->room = room;
  w->epoch = 1;
  w->head = malloc(vars * sizeof *w->head);
  w->touched = malloc(vars * sizeof *w->touched);
  w->values = malloc((size_t)room * sizeof *w->values);
  w->pairs = malloc(((size_t)room + 2) * sizeof *w->pairs);
  w->lb = malloc(vars * sizeof *w->lb);
  w->ub = malloc(vars * sizeof *w->ub);
  w->holes = malloc(vars);
  w->dirty = malloc(vars * sizeof *w->dirty);
  w->is_dirty = calloc(vars, 1);
  w->dv = calloc(vars, sizeof *w->dv);
  w->free_stack = malloc(vars * sizeof *w->free_stack);
  w->listed = malloc(vars * sizeof *w->listed);
  if (!w->head || !w->touched || !w->values || !w->pairs || !w->lb || !w->ub || !w->holes || !w->dirty ||
      !w->is_dirty || !w->dv || !w->free_stack || !w->listed) {
    work_free(w);
    return NULL;
  }
  for (size_t v = 0; v < vars; v++) w->head[v] = -1;
  return w;
}

bb_smc_work *bb_smc_work_for(size_t vars, int room) {
  assert(room >= 0);
  pthread_once(&key_once, make_key);
  bb_smc_work *w = pthread_getspecific(key);
  if (w && w->vars >= vars && w->room >= room) {
    assert(w->items_len <= w->items_cap && w->pool_len <= w->pool_cap);
    assert(w->dirty_len >= 0 && (size_t)w->dirty_len <= w->vars);
    return w;
  }
  /* Idle between propagations: the old area can go, the new one is made to the larger sizes. */
  bb_smc_work *grown = work_make(w && w->vars > vars ? w->vars : vars, w && w->room > room ? w->room : room);
  if (!grown) return NULL;
  work_free(w);
  (void)pthread_setspecific(key, grown);
  return grown;
}
