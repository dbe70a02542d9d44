/* The parallel propagation of the Stable Marriage constraint: the per-thread steps, written
 * once in the common subset of C11 and CUDA C++ and compiled three ways:
 *   cuda/gpu_smc.cu                  one GPU thread per proposer / variable (atomicMin);
 *   propagator/smc/smc_accel_emul.c  host threads and C11 atomics (the CPU emulation CI tests);
 *   propagator/smc/smc_accel.c       one host thread, for the sequential tail.
 *
 * The algorithm is [Travasci 2025] section 4 (proposals with atomicMin on the partners'
 * bounds) over [Bamboo-SMP]'s PRMatrix idea (one row holds partner and partner's rank),
 * generalised to domains with holes and to both strengths:
 *   - every proposer (men; women too with gs-lists) walks its list from its start rank
 *     (the minimum the last propagation left; 0 on a fresh node) to the first pair that
 *     is allowed: inside both bounds and in both domains. Every pair it passes caps that
 *     partner strictly ([Travasci 2025] deltaMin: she must end with someone she prefers), the pair
 *     it stops at weakly (no worse than him);
 *   - a cap is an atomicMin on the partner's word = 2 * upper bound + (no holder). A
 *     proposal writes 2 * rank (holder present), so the old word returned by atomicMin
 *     names the holder it displaced, and the thread carries him on from his next rank
 *     ([Bamboo-SMP]'s loss-free chain, without a next[] array). A strict cap that displaces a
 *     holder only lowers the word; the check step finds him;
 *   - check: a proposer is settled when its pair is allowed and the partner's word says it
 *     holds her. Unsettled ones run again (GPU) or on the CPU (the tail), until none is
 *     left. Reads of other threads' state may be stale, but every bound only narrows, so a
 *     stale read only makes a pair look allowed: a thread never passes a pair it should
 *     not, and the check catches a proposer that stopped on a pair that stopped being
 *     allowed;
 *   - settle: per variable, the allowed ranks within its final bounds are its new domain
 *     (channelling, [Travasci 2025]'s removeValue/deltaMax), reported as bounds plus the shorter
 *     of the kept and the removed values.
 * The result is the same fixpoint as the event rules of smc_propagate.c compute (apart from
 * marriage, which the host applies next): the rules are monotone and their greatest
 * common fixpoint is unique. tests/test_smc_par.c compares the two on random states.
 *
 * An includer may define BB_SMC_ACCEL_MEMBER(s, v, k) (k is in v's domain, bounds aside) and
 * BB_SMC_ACCEL_WAKE(s, holder) (a strict cap displaced holder) before including this file;
 * the defaults read the bitmap rows and leave the holder to the check step. */
#ifndef BB_SMC_ACCEL_STEPS_H
#define BB_SMC_ACCEL_STEPS_H

#ifdef __CUDACC__
#define BB_SMC_ACCEL_FN static __device__ __forceinline__
typedef int bb_smc_accel_i32a;
typedef unsigned int bb_smc_accel_u32a;
BB_SMC_ACCEL_FN int bb_smc_accel_load_i32(const bb_smc_accel_i32a *p) { return *(volatile const int *)p; }
BB_SMC_ACCEL_FN unsigned bb_smc_accel_load_u32(const bb_smc_accel_u32a *p) { return *(volatile const unsigned *)p; }
BB_SMC_ACCEL_FN void bb_smc_accel_store_i32(bb_smc_accel_i32a *p, int v) { *(volatile int *)p = v; }
BB_SMC_ACCEL_FN unsigned bb_smc_accel_min_u32(bb_smc_accel_u32a *p, unsigned v) { return atomicMin(p, v); }
BB_SMC_ACCEL_FN int bb_smc_accel_add_i32(bb_smc_accel_i32a *p, int v) { return atomicAdd(p, v); }
#else
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define BB_SMC_ACCEL_FN static inline
typedef _Atomic int32_t bb_smc_accel_i32a;
typedef _Atomic uint32_t bb_smc_accel_u32a;
BB_SMC_ACCEL_FN int bb_smc_accel_load_i32(bb_smc_accel_i32a *p) {
  return atomic_load_explicit(p, memory_order_relaxed);
}
BB_SMC_ACCEL_FN unsigned bb_smc_accel_load_u32(bb_smc_accel_u32a *p) {
  return atomic_load_explicit(p, memory_order_relaxed);
}
BB_SMC_ACCEL_FN void bb_smc_accel_store_i32(bb_smc_accel_i32a *p, int v) {
  atomic_store_explicit(p, v, memory_order_relaxed);
}
/* C11 has no fetch-min: a compare-and-swap loop that gives up once the word is small enough. */
BB_SMC_ACCEL_FN unsigned bb_smc_accel_min_u32(bb_smc_accel_u32a *p, unsigned v) {
  unsigned old = atomic_load_explicit(p, memory_order_relaxed);
  while (old > v && !atomic_compare_exchange_weak_explicit(p, &old, v, memory_order_acq_rel, memory_order_relaxed)) {}
  return old;
}
BB_SMC_ACCEL_FN int bb_smc_accel_add_i32(bb_smc_accel_i32a *p, int v) {
  return atomic_fetch_add_explicit(p, v, memory_order_relaxed);
}
#endif

#ifdef __CUDACC__
#define BB_SMC_ACCEL_HOST_DEVICE static __host__ __device__ __forceinline__
#else
#define BB_SMC_ACCEL_HOST_DEVICE static inline
#endif
/* The words of a bitmap row that a domain [lo, hi] needs: the rest is outside its bounds. */
BB_SMC_ACCEL_HOST_DEVICE int bb_smc_accel_row_span(int lo, int hi) { return (hi >> 5) - (lo >> 5) + 1; }

/* The state of one parallel propagation. Variables 0..n-1 are the men, n..vars-1 the women
 * (complete lists: vars = 2n); ranks are 0-based. Pointers are device pointers on the GPU. */
typedef struct bb_smc_accel_view {
  int n;                            /* men */
  int width;                        /* entries per pair row: n, or (incomplete lists) the longest list + 1 */
  int gs_lists;                     /* women propose too */
  int words;                        /* 32-bit words per bitmap row: (width + 31) / 32 */
  int threshold;                    /* a chain parks once at most this many proposers are carried; 0: never */
  const uint32_t *pair;             /* vars x width: (partner's index on the other side << 16) | partner's rank
                              of v, or BB_SMC_ACCEL_NOBODY */
  const int32_t *lo0, *hi0, *size0; /* domains when the propagation started */
  const uint8_t *holes;             /* the domain is not an interval: read its bitmap row */
  const uint32_t *bits;             /* 2n x words: domain membership, valid where holes[v] */
  bb_smc_accel_i32a *ptr;           /* a proposer's current rank (its lower bound) */
  bb_smc_accel_u32a *word;          /* 2 * upper bound + (1 if no proposer holds v at that rank) */
  bb_smc_accel_i32a *active;        /* proposers being carried by some thread */
  bb_smc_accel_i32a *failed;        /* set when a domain empties */
  const void *host;                 /* the host tail's context (BB_SMC_ACCEL_MEMBER / BB_SMC_ACCEL_PAIR there) */
} bb_smc_accel_view;

#define BB_SMC_ACCEL_NO_HOLDER 1u
/* Nobody at this rank of a pair row (smc_pairs.h, which fills the rows, says when). */
#define BB_SMC_ACCEL_NOBODY 0xffffffffu

BB_SMC_ACCEL_FN int bb_smc_accel_proposes(const bb_smc_accel_view *s, int v) { return v < s->n || s->gs_lists; }
BB_SMC_ACCEL_FN int bb_smc_accel_other(const bb_smc_accel_view *s, int v, uint32_t node) {
  return v < s->n ? s->n + (int)(node >> 16) : (int)(node >> 16);
}
BB_SMC_ACCEL_FN int bb_smc_accel_ub(const bb_smc_accel_view *s, int v) {
  return (int)(bb_smc_accel_load_u32(&s->word[v]) >> 1);
}
BB_SMC_ACCEL_FN int bb_smc_accel_lo(const bb_smc_accel_view *s, int v) {
  int lo = s->lo0[v];
  if (bb_smc_accel_proposes(s, v)) {
    int p = bb_smc_accel_load_i32(&s->ptr[v]);
    if (p > lo) lo = p;
  }
  return lo;
}

#ifndef BB_SMC_ACCEL_MEMBER
#define BB_SMC_ACCEL_MEMBER(s, v, k) \
  (!(s)->holes[v] || (((s)->bits[(size_t)(v) * (size_t)(s)->words + ((unsigned)(k) >> 5)] >> ((k)&31)) & 1u))
#endif
#ifndef BB_SMC_ACCEL_PAIR
#define BB_SMC_ACCEL_PAIR(s, v, k) ((s)->pair[(size_t)(v) * (size_t)(s)->width + (size_t)(k)])
#endif

/* v at its rank k meets q at her rank r: is the pair still possible? v's own lower bound
 * is k itself (the caller's pointer), checked against the domain's minimum. */
BB_SMC_ACCEL_FN int bb_smc_accel_allowed(const bb_smc_accel_view *s, int v, int k, int q, int r) {
  return k >= s->lo0[v] && k <= bb_smc_accel_ub(s, v) && BB_SMC_ACCEL_MEMBER(s, v, k) && r >= bb_smc_accel_lo(s, q) &&
         r <= bb_smc_accel_ub(s, q) && BB_SMC_ACCEL_MEMBER(s, q, r);
}

/* q must end with someone at rank <= limit (a strict cap from a proposer that passed her). */
BB_SMC_ACCEL_FN void bb_smc_accel_cap(const bb_smc_accel_view *s, int q, int limit) {
  if (limit < 0) { /* passed over by her first choice: he and she would block */
    bb_smc_accel_store_i32(s->failed, 1);
    return;
  }
  unsigned cap = 2u * (unsigned)limit + BB_SMC_ACCEL_NO_HOLDER;
  unsigned old = bb_smc_accel_min_u32(&s->word[q], cap);
  if (limit < bb_smc_accel_lo(s, q)) bb_smc_accel_store_i32(s->failed, 1); /* q has nobody left */
#ifdef BB_SMC_ACCEL_WAKE
  if (old > cap && !(old & BB_SMC_ACCEL_NO_HOLDER)) {
    uint32_t node = BB_SMC_ACCEL_PAIR(s, q, old >> 1);
    BB_SMC_ACCEL_WAKE(s, bb_smc_accel_other(s, q, node));
  }
#else
  (void)old; /* the check step finds the displaced holder */
#endif
}

/* Carries proposer v from rank k until a proposal displaces nobody, the domain empties or
 * the chain parks (few proposers left: the CPU takes the tail). A proposal that displaces a
 * holder continues with him, from the rank after the displaced pair. */
BB_SMC_ACCEL_FN void bb_smc_accel_chain(const bb_smc_accel_view *s, int v, int k) {
  for (unsigned iter = 1;; iter++) {
    if (s->threshold > 0 && (iter & 7) == 0 && bb_smc_accel_load_i32(s->active) <= s->threshold) {
      bb_smc_accel_store_i32(&s->ptr[v], k); /* parked: the check step hands him on */
      break;
    }
    if (k > bb_smc_accel_ub(s, v)) { /* nobody left for him */
      bb_smc_accel_store_i32(&s->ptr[v], k);
      bb_smc_accel_store_i32(s->failed, 1);
      break;
    }
    uint32_t node = BB_SMC_ACCEL_PAIR(s, v, k);
    if (node == BB_SMC_ACCEL_NOBODY) { /* unmatched: settled if v's domain has it */
      if (k >= s->lo0[v] && BB_SMC_ACCEL_MEMBER(s, v, k)) {
        bb_smc_accel_store_i32(&s->ptr[v], k);
        break;
      }
      k++;
      continue;
    }
    int q = bb_smc_accel_other(s, v, node), r = (int)(node & 0xffffu);
    if (!bb_smc_accel_allowed(s, v, k, q, r)) {
      bb_smc_accel_cap(s, q, r - 1);
      k++;
      continue;
    }
    bb_smc_accel_store_i32(&s->ptr[v], k);
    unsigned mine = 2u * (unsigned)r, old = bb_smc_accel_min_u32(&s->word[q], mine);
    if (old < mine) { /* she already has someone better: a rejection */
      k++;
      continue;
    }
    if (old == mine || (old & BB_SMC_ACCEL_NO_HOLDER)) break; /* nobody displaced */
    uint32_t held = BB_SMC_ACCEL_PAIR(s, q, old >> 1);
    v = bb_smc_accel_other(s, q, held);
    k = (int)(held & 0xffffu) + 1;
  }
  bb_smc_accel_add_i32(s->active, -1);
}

/* A proposer is settled when its pair is allowed and it holds her. Returns 1 settled,
 * 0 unsettled (run it again), and sets failed when its domain is empty. */
BB_SMC_ACCEL_FN int bb_smc_accel_settled(const bb_smc_accel_view *s, int v) {
  int k = bb_smc_accel_load_i32(&s->ptr[v]);
  if (k > bb_smc_accel_ub(s, v)) {
    bb_smc_accel_store_i32(s->failed, 1);
    return 1;
  }
  if (k < s->lo0[v]) return 0;
  uint32_t node = BB_SMC_ACCEL_PAIR(s, v, k);
  if (node == BB_SMC_ACCEL_NOBODY) return BB_SMC_ACCEL_MEMBER(s, v, k);
  int q = bb_smc_accel_other(s, v, node), r = (int)(node & 0xffffu);
  return bb_smc_accel_allowed(s, v, k, q, r) && bb_smc_accel_load_u32(&s->word[q]) == 2u * (unsigned)r;
}

/* --- Settle: the new domain of one variable, from the final bounds. --- */

/* How a changed domain is written back: bounds only, bounds + the kept values, or bounds +
 * the removed values strictly inside them. */
enum { BB_SMC_ACCEL_INTERVAL = 0, BB_SMC_ACCEL_KEEP = 1, BB_SMC_ACCEL_REMOVE = 2 };

BB_SMC_ACCEL_FN int bb_smc_accel_final_allowed(const bb_smc_accel_view *s, int v, int k) {
  if (!BB_SMC_ACCEL_MEMBER(s, v, k)) return 0;
  uint32_t node = BB_SMC_ACCEL_PAIR(s, v, k);
  if (node == BB_SMC_ACCEL_NOBODY) return 1;
  int q = bb_smc_accel_other(s, v, node), r = (int)(node & 0xffffu);
  return r >= bb_smc_accel_lo(s, q) && r <= bb_smc_accel_ub(s, q) && BB_SMC_ACCEL_MEMBER(s, q, r);
}

/* k, within v's final bounds, names a partner whose final bounds hold v, yet the pair is gone
 * from a domain: it left from inside both bounds (a side constraint's removal, say), which the
 * host's batches must know of (bb_smc_node's inner_holes in propagator/smc/). */
BB_SMC_ACCEL_FN int bb_smc_accel_inner_hole(const bb_smc_accel_view *s, int v, int k) {
  uint32_t node = BB_SMC_ACCEL_PAIR(s, v, k);
  if (node == BB_SMC_ACCEL_NOBODY) return 0;
  int q = bb_smc_accel_other(s, v, node), r = (int)(node & 0xffffu);
  return r >= bb_smc_accel_lo(s, q) && r <= bb_smc_accel_ub(s, q) &&
         !(BB_SMC_ACCEL_MEMBER(s, v, k) && BB_SMC_ACCEL_MEMBER(s, q, r));
}

/* One variable's result; kind < 0 when the domain did not change. */
typedef struct bb_smc_accel_settled_var {
  int lo, hi, size, kind, count;
} bb_smc_accel_settled_var;

BB_SMC_ACCEL_FN bb_smc_accel_settled_var bb_smc_accel_settle_count(const bb_smc_accel_view *s, int v) {
  bb_smc_accel_settled_var out = {0, -1, 0, -1, 0};
  int lo = bb_smc_accel_lo(s, v), hi = bb_smc_accel_ub(s, v);
  for (int k = lo; k <= hi; k++)
    if (bb_smc_accel_final_allowed(s, v, k)) {
      if (out.size == 0) out.lo = k;
      out.hi = k;
      out.size++;
    }
  if (out.size == 0) {
    bb_smc_accel_store_i32(s->failed, 1);
    return out;
  }
  if (out.size == s->size0[v]) return out; /* a subset of the same size: unchanged */
  if (out.size == out.hi - out.lo + 1) {
    out.kind = BB_SMC_ACCEL_INTERVAL;
    return out;
  }
  int inside = 0; /* old values within the new bounds */
  for (int k = out.lo; k <= out.hi; k++) inside += BB_SMC_ACCEL_MEMBER(s, v, k) ? 1 : 0;
  int removed = inside - out.size;
  out.kind = out.size <= removed ? BB_SMC_ACCEL_KEEP : BB_SMC_ACCEL_REMOVE;
  out.count = out.size <= removed ? out.size : removed;
  return out;
}

/* Writes the kept or removed values (ascending) and, when the new domain has holes, its
 * bitmap row over [lo, hi] into new_row. */
BB_SMC_ACCEL_FN void bb_smc_accel_settle_emit(const bb_smc_accel_view *s, int v, const bb_smc_accel_settled_var *r,
                                              int32_t *values, uint32_t *new_row) {
  int at = 0;
  uint32_t acc = 0;
  for (int k = r->lo; k <= r->hi; k++) {
    int keep = bb_smc_accel_final_allowed(s, v, k);
    if (r->kind == BB_SMC_ACCEL_KEEP && keep) values[at++] = k;
    if (r->kind == BB_SMC_ACCEL_REMOVE && !keep && BB_SMC_ACCEL_MEMBER(s, v, k)) values[at++] = k;
    if (new_row) {
      if (keep) acc |= 1u << (k & 31);
      if ((k & 31) == 31 || k == r->hi) {
        new_row[k >> 5] = acc;
        acc = 0;
      }
    }
  }
}

#endif
