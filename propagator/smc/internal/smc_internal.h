/* Internal to the constraint (the .c files of smc/): the structs behind the opaque types of smc.h, and
 * what its modules call of each other. */
#ifndef BB_SMC_INTERNAL_H
#define BB_SMC_INTERNAL_H

#include "smc.h"
#include "smc_tuning.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* Accelerators a constraint can use: the CPU emulation, and the entries 0 .. BB_SMC_MAX_GPUS - 1
 * of the GPU list (bb_smc_set_gpus: an entry is a device, and a device listed twice has two). */
#define BB_SMC_MAX_GPUS BB_SMC_MAX_GPU_ENTRIES
#define BB_SMC_ACCEL_SLOTS (1 + BB_SMC_MAX_GPUS)

struct bb_smc_prefs {
  int n, base;   /* complete lists: n men, n women; incomplete: n = 0 (unused) */
  int men, vars; /* men 0..men-1, women men..vars-1 (complete: n and 2n) */
  int room;      /* the most values a domain can hold: n, or the longest list + 1 */
  /* Incomplete lists (bb_smc_prefs_new_smi): var's row holds len(var) + 1 pairs from
   * start[var]; the last is the unmatched rank. pair_var = the partner's variable, -1 where
   * there is none (the unmatched rank, a one-sided entry); pair_rank = var's rank in the
   * partner's list. NULL for complete lists, which use the matrices below. */
  int64_t *start;
  int32_t *pair_var, *pair_rank;
  /* 0-based, row-major n x n: man_choice[i][k] = woman at man i's rank k; likewise for
   * women. (The inverse ranks are only built while the data is made.) */
  int32_t *man_choice, *woman_choice;
  /* The PRMatrix idea of [Bamboo-SMP], for both sides: man_partner_rank[i][k] = the rank woman
   * man_choice[i][k] gives man i. Walking a list then reads one row sequentially. */
  int32_t *man_partner_rank, *woman_partner_rank;
  atomic_int refs;
  /* The parallel path's shared data and lanes (smc_accel.c), made on first use: one slot per
   * accelerator the path can run on (bb_smc_accel_slot: the emulation, GPU list entries 0, 1, ...). */
  _Atomic(struct bb_smc_accel *) accel[BB_SMC_ACCEL_SLOTS];
  pthread_mutex_t accel_lock;
};

/* The same pair seen from the other side: (var, rank) -> (partner var, partner's rank),
 * one row of the lists and one of the partner-rank matrices. */
static inline void bb_smc_pair_partner(const bb_smc_prefs *p, int var, int rank, int *partner, int *partner_rank) {
  if (p->start) {
    int64_t cell = p->start[var] + rank;
    *partner = p->pair_var[cell];
    *partner_rank = p->pair_rank[cell];
    return;
  }
  size_t n = (size_t)p->n;
  if (var < p->n) {
    size_t cell = (size_t)var * n + (size_t)rank;
    *partner = p->n + p->man_choice[cell];
    *partner_rank = p->man_partner_rank[cell];
  } else {
    size_t cell = (size_t)(var - p->n) * n + (size_t)rank;
    *partner = p->woman_choice[cell];
    *partner_rank = p->woman_partner_rank[cell];
  }
}

/* Ranks of var that have a pair: 0..n-1 (complete), 0..len (incomplete; the unmatched rank
 * pairs with nobody). Channelling looks no further. */
static inline int bb_smc_row_len(const bb_smc_prefs *p, int var) {
  return p->start ? (int)(p->start[var + 1] - p->start[var]) : p->n;
}

/* What the last propagation saw of each domain (var = man i or n + woman j). lo = -1 and
 * hi = row length mean "not seen yet": the first look treats everything outside the domain
 * as removed. */
struct bb_smc_node {
  uint64_t stamp; /* the parallel engine's copy matches this node's domains when the
                     lane's stamp equals it (smc_accel.c); 0: unknown */
  int n;          /* complete lists' n (0 for incomplete ones) */
  int vars;       /* variables: bounds holds lo[0..vars-1], then hi[0..vars-1] */
  int fresh;      /* no propagation has run on this lineage yet */
  int unassigned; /* variables not yet seen assigned */
  /* Some pair left both domains from inside their bounds on this lineage: a domain with holes
   * before the first propagation, or an inner removal the host reported (a side constraint, a
   * branch on a middle value, another constraint's bulk write). Until then, with gs-lists,
   * every pair missing from within a domain's bounds is beyond the partner's upper bound, so a
   * proposer that moves past it caps nobody (smc_delta.c). */
  int inner_holes;
  int bounds[];
};

/* One pending channel removal: `value` leaves variable `var`'s domain at the next flush. */
typedef struct pending {
  int value, next;
} pending;

typedef struct inner_range {
  int var, lo, hi;
} inner_range;

/* The work area of one propagation: what does not outlive it. One per thread
 * (bb_smc_work_for), lent to every propagation the thread runs, so that a constraint copied
 * at every search node allocates only its event lists (making and freeing a whole scratch
 * costs more than many a propagation; docs/constraint.md). Between
 * propagations every list is empty, head[] is all -1, is_dirty[] all 0 and every dv[].seen
 * below epoch. */
typedef struct bb_smc_work {
  size_t vars;    /* room for this many variables ... */
  int room;       /* ... and domains of this many values */
  pending *items; /* channel removals by variable: linked lists from head[] */
  size_t items_len, items_cap;
  int *head, *touched, touched_len;
  int *values;           /* room ints: a domain or a sorted removal list */
  int *pairs;            /* room + 2 ints: a domain's ranges, or values' runs (smc_ranges.c) */
  int *lb, *ub;          /* smc_root.c: bounds while the first propagation runs */
  uint8_t *holes;        /* smc_root.c: the domain is not an interval */
  int *dirty, dirty_len; /* variables examined since the parallel engine last ran */
  uint8_t *is_dirty;
  bool track_dirty;
  /* smc_delta.c: a later propagation as batches. A variable's entry is this round's when its
   * seen == epoch; its removals are the items above, and it is listed once in `listed`. */
  uint32_t epoch;
  struct bb_smc_delta_var {
    uint32_t seen; /* == epoch: the entries below are this round's */
    int32_t lo;    /* a proposer's pointer (else a lower bound) */
    int32_t hi;    /* an upper bound */
    int32_t row;   /* var's bitmap row: pool[row + (k >> 5)] holds rank k (once read: a flag says so) */
    uint8_t flags;
  } * dv;                    /* one per variable: what a step reads of it is on one cache line */
  uint32_t *pool;            /* the rows read this round */
  size_t pool_len, pool_cap; /* in words */
  int *free_stack, free_len; /* proposers whose pointer must move */
  int *listed, listed_len;   /* variables changed or reported this round */
} bb_smc_work;

/* This thread's work area, grown to fit `vars` variables and domains of `room` values; NULL when
 * memory runs out (smc_work.c). */
bb_smc_work *bb_smc_work_for(size_t vars, int room);

/* A constraint copy's events, recorded between propagations, and while a propagation runs the
 * thread's work area (w; NULL otherwise). */
struct bb_smc_scratch {
  int vars;              /* variables */
  int n;                 /* room in values[] (a domain's most values) */
  int *stack, stack_len; /* variables to examine, each at most once */
  uint8_t *queued;
  int *unknown, unknown_len; /* variables whose inner removals must be found by a scan */
  uint8_t *is_unknown;
  inner_range *ranges; /* inner removals the host told precisely */
  size_t ranges_len, ranges_cap;
  bb_smc_work *w;
};

/* Appends a pending removal of `value` from var to the work area's items (var's list starts at
 * head[var]; the caller keeps track of which variables have one). false when out of memory. */
bool bb_smc_pend(bb_smc_work *w, int var, int value);

/* Domains by ranges where the host offers them (smc.h), by values otherwise (smc_ranges.c).
 * bb_smc_read_ranges writes var's domain as lo, hi pairs into s->pairs and returns how many.
 * bb_smc_keep / bb_smc_remove take ascending distinct values (not s->pairs) and write them as
 * maximal runs, one host call per variable. */
int bb_smc_read_ranges(const bb_smc_domains *d, bb_smc_scratch *s, int var);
bool bb_smc_keep(const bb_smc_domains *d, bb_smc_scratch *s, int var, const int *values, int count);
bool bb_smc_remove(const bb_smc_domains *d, bb_smc_scratch *s, int var, const int *values, int count);

/* Sets bits a..b (0 <= a <= b) of a bitmap row, a word at a time. */
static inline void bb_smc_set_bits(uint32_t *row, int a, int b) {
  assert(row && 0 <= a && a <= b);
  int wa = a >> 5, wb = b >> 5;
  uint32_t first = ~0u << (a & 31), last = ~0u >> (31 - (b & 31));
  if (wa == wb) {
    row[wa] |= first & last;
    return;
  }
  row[wa] |= first;
  for (int w = wa + 1; w < wb; w++) row[w] = ~0u;
  row[wb] |= last;
}

/* Queues var for examination, at most once (smc_node.c's events, smc_propagate.c's rules). */
static inline void bb_smc_enqueue(bb_smc_scratch *s, int var) {
  assert(var >= 0 && var < s->vars);
  if (!s->queued[var]) {
    assert(s->stack_len < s->vars); /* each variable is on the stack at most once */
    s->queued[var] = 1;
    s->stack[s->stack_len++] = var;
  }
}

/* smc_root.c: the first propagation of a fresh node ([Travasci 2025]'s init()) as one batch:
 * extended Gale-Shapley with pointers over local bounds, then one bulk write-back per
 * variable. Leaves node's bounds set for every variable and the variables that ended
 * assigned in s->unknown[0..s->unknown_len) (smc_propagate.c applies marriage to them). Returns
 * false when a domain empties. */
bool bb_smc_root_batch(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_node *node, bb_smc_scratch *s,
                       const bb_smc_domains *d, bb_smc_counters *c);

/* smc_delta.c: one round of a later propagation as a batch, from the events recorded in s.
 * DONE: at the fixpoint, written back, node bounds set; MORE: written back, and marriage
 * assigned partners, which wait in s as the next round's events; FAILED: a domain emptied;
 * GAVE_UP: out of memory before anything was written; HAND_OVER: the round's steps (c's
 * channel removals and bound updates) passed `*budget` before anything was written, having
 * touched fewer than `spread` variables per 1000 steps (0: whatever it touched); past the
 * budget with more, the round goes on and *budget becomes UINT64_MAX, so that the whole
 * propagation stays on the CPU. After GAVE_UP and HAND_OVER the round's events stay in s. */
typedef enum bb_smc_delta_result {
  BB_SMC_DELTA_DONE,
  BB_SMC_DELTA_MORE,
  BB_SMC_DELTA_FAILED,
  BB_SMC_DELTA_GAVE_UP,
  BB_SMC_DELTA_HAND_OVER
} bb_smc_delta_result;
bb_smc_delta_result bb_smc_delta_round(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_node *node,
                                       bb_smc_scratch *s, const bb_smc_domains *d, bb_smc_counters *c, uint64_t *budget,
                                       int spread);

/* smc_accel.c: the parallel path's part of a propagation. On BB_SMC_FIX the batch fixpoint is
 * written back, node bounds are set and the variables that became assigned wait in
 * s->unknown for marriage (as after bb_smc_root_batch); s->track_dirty is on, and smc_propagate.c
 * hands the variables its event loop examines to bb_smc_accel_finish. BB_SMC_NOMEM here means
 * the engine could not run (no GPU, a CUDA error): nothing was written, the caller runs the
 * CPU path. */
bb_smc_status bb_smc_accel_run(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_path engine, bb_smc_node *node,
                               bb_smc_scratch *s, const bb_smc_domains *d, bb_smc_run_info *info);
void bb_smc_accel_finish(const bb_smc_prefs *p, bb_smc_path engine, bb_smc_node *node, bb_smc_scratch *s, bool ok);
void bb_smc_accel_free(struct bb_smc_accel *accel); /* accepts NULL */
/* The GPU device this thread's parallel path uses (its GPU list entry's; the first call takes
 * the entry), and the slot of
 * prefs->accel of an engine (GPU or EMULATED) for a GPU list entry (the emulation has one slot). */
int bb_smc_accel_device(void);
int bb_smc_accel_slot(bb_smc_path engine, int entry);
/* smc_gpus.c: this thread's GPU list entry, taken (round-robin) on the first call; the entry if
 * it took one under the current list, else -1; an entry's device id. */
int bb_smc_gpu_entry(void);
int bb_smc_gpu_entry_if_taken(void);
int bb_smc_gpu_device_of(int entry);

/* smc_hybrid.c: what a propagation knows before it starts (free proposers, modified
 * variables, their old domain size), and the automatic choice made from it. */
void bb_smc_describe(const bb_smc_prefs *p, bb_smc_strength strength, const bb_smc_node *node, const bb_smc_scratch *s,
                     const bb_smc_domains *d, bb_smc_run_info *info);
/* engine: bb_smc_hybrid_engine's answer for the constraint. */
bb_smc_path bb_smc_hybrid_choose(bb_smc_path engine, const bb_smc_run_info *info);
/* The parallel engine AUTO uses, or BB_SMC_PATH_CPU when none can run at this n. */
bb_smc_path bb_smc_hybrid_engine(const bb_smc_prefs *p);
/* smc_accel.c: a propagation the hybrid kept on the CPU ended; the variables it examined
 * (s->dirty) go stale in the lane, so its copy stays usable for this lineage. */
void bb_smc_accel_cpu_finish(const bb_smc_prefs *p, bb_smc_path engine, bb_smc_node *node, bb_smc_scratch *s);

#endif
