/* The parallel path of the Stable Marriage propagation, host side: what the engines (the GPU
 * in cuda/gpu_smc.cu, its CPU emulation in smc_accel_emul.c) are asked to do and what they give
 * back. The per-thread steps both engines run are in smc_accel_steps.h; smc_accel.c gathers
 * the domains, runs the sequential tail and writes the results back.
 *
 * An engine keeps, per lane (one per constraint and search thread), a copy of every
 * domain (bounds, size, bitmap row when it has holes). A propagation sends the records of
 * the variables that changed since the lane last saw this lineage (all of them when
 * unsure), then:
 *   propose  proposals from every proposer's start rank, repeated on the unsettled ones
 *            until none is left or (threshold > 0) the rest is handed to the CPU tail;
 *   settle   every variable's new domain from the final bounds; the lane's copy becomes
 *            the new domains, the changed ones come back in compact form.
 * Includers that define BB_SMC_ACCEL_MEMBER / BB_SMC_ACCEL_WAKE include smc_accel_steps.h first. */
#ifndef BB_SMC_ACCEL_H
#define BB_SMC_ACCEL_H

#include "bb_common.h"
#include "smc_accel_steps.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record fields of an upload (one variable each). start: where a proposer's walk begins,
 * the minimum the last propagation of this lineage saw (0 on a fresh node). */
enum {
  BB_SMC_ACCEL_REC_VAR,
  BB_SMC_ACCEL_REC_LO,
  BB_SMC_ACCEL_REC_HI,
  BB_SMC_ACCEL_REC_SIZE,
  BB_SMC_ACCEL_REC_START,
  BB_SMC_ACCEL_REC_INTS
};
/* Result fields (one changed variable each): kind is BB_SMC_ACCEL_INTERVAL/KEEP/REMOVE
 * (smc_accel_steps.h); values[offset .. offset + count) holds the kept or removed ranks. */
enum {
  BB_SMC_ACCEL_OUT_VAR,
  BB_SMC_ACCEL_OUT_LO,
  BB_SMC_ACCEL_OUT_HI,
  BB_SMC_ACCEL_OUT_KIND,
  BB_SMC_ACCEL_OUT_COUNT,
  BB_SMC_ACCEL_OUT_OFFSET,
  BB_SMC_ACCEL_OUT_INTS
};

typedef struct bb_smc_accel_request {
  int gs_lists;
  int threshold;        /* hand the tail to the CPU once at most this many chains run; 0: never */
  int count;            /* records */
  int full;             /* the records cover every variable */
  int want_inner;       /* report whether a pair is gone from within both bounds (outcome) */
  const int32_t *rec;   /* count x BB_SMC_ACCEL_REC_INTS */
  const uint32_t *rows; /* per record whose domain has holes, in order: its bitmap row's words
                            lo / 32 .. hi / 32 only (bb_smc_accel_row_span) */
  size_t row_words;     /* all of them */
} bb_smc_accel_request;

/* What propose leaves for the CPU: the unsettled proposers and, when there are any, the
 * state arrays (host copies owned by the lane, valid until its next call). */
typedef struct bb_smc_accel_tail {
  int failed;
  int count;
  const int32_t *unsettled;
  bb_smc_accel_i32a *ptr;
  bb_smc_accel_u32a *word;
  const int32_t *lo0, *hi0;
  int rounds; /* propose launches */
} bb_smc_accel_tail;

typedef struct bb_smc_accel_outcome {
  int failed;
  int inner_holes;    /* asked for (want_inner): some rank within a variable's final bounds is no
                            pair of its domain though the partner's bounds hold it (bb_smc_accel_inner_hole) */
  int changed;        /* result records */
  const int32_t *rec; /* changed x BB_SMC_ACCEL_OUT_INTS */
  const int32_t *values;
} bb_smc_accel_outcome;

/* What the engines know of a constraint's preference data, filled by the host (smc_accel.c,
 * from smc_pairs.h): the sizes, and the pair rows through `fill`, so that a GPU uploads them in
 * blocks without the whole matrix on the host. */
typedef struct bb_smc_accel_pairs {
  int men;   /* variables 0..men-1 are the men, men..vars-1 the women */
  int vars;  /* rows */
  int width; /* entries per row */
  /* Rows [row0, row1) into out ((row1 - row0) x width entries, BB_SMC_ACCEL_NOBODY where nobody is). */
  void (*fill)(const void *ctx, int row0, int row1, uint32_t *out);
  const void *ctx;
} bb_smc_accel_pairs;

typedef struct bb_smc_accel_engine_ops {
  const char *name;
  /* The preference data, once per constraint and accelerator, on GPU `device` (the emulation
   * ignores it); lanes live where their shared data does. */
  void *(*shared_new)(const bb_smc_accel_pairs *p, int device, bb_error *err);
  void (*shared_free)(void *shared);
  void *(*lane_new)(void *shared, const bb_smc_accel_pairs *p, bb_error *err);
  void (*lane_free)(void *lane);
  bb_status (*propose)(void *lane, const bb_smc_accel_request *req, bb_smc_accel_tail *tail, bb_error *err);
  /* tail_ran: the host changed tail->ptr / tail->word, which the engine takes back. */
  bb_status (*settle)(void *lane, const bb_smc_accel_tail *tail, int tail_ran, bb_smc_accel_outcome *out,
                      bb_error *err);
} bb_smc_accel_engine_ops;

extern const bb_smc_accel_engine_ops bb_smc_accel_emulated_ops; /* smc_accel_emul.c */
/* cuda/gpu_smc.cu; NULL in a build without CUDA (gpu_stub.c). */
const bb_smc_accel_engine_ops *bb_smc_accel_gpu_ops(void);

/* How the host fills the pair rows, and whether the engines can take a constraint: smc_pairs.h. */

/* Emulation threads (tests vary it); default 4. */
void bb_smc_accel_emulated_set_threads(int threads);
/* For tests: the emulated engine's settle number `settles` from now fails as a CUDA error
 * would, so that the fallback to the CPU is exercised. 0: never. */
void bb_smc_accel_emulated_fail_after(int settles);

#ifdef __cplusplus
}
#endif
#endif
