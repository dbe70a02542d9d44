/* Bamboo: types and error reporting shared by every module of libbamboo. */
#ifndef BB_COMMON_H
#define BB_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A participant id (man or woman), 0-based. */
typedef uint32_t bb_id;

/* Largest n we accept: ids, ranks and list positions must fit the 21-bit fields of
 * the GPU's packed partner word (see cuda/bb_gpu.h); n^2 memory runs out long before. */
#define BB_MAX_N 2097151

/* Result codes. Every fallible entry point returns one and fills a bb_error. */
typedef enum bb_status {
  BB_OK = 0,
  BB_ERR_INPUT = 1,  /* malformed or invalid instance / matching */
  BB_ERR_NOMEM = 2,  /* host memory */
  BB_ERR_IO = 3,     /* cannot open / read / write a file */
  BB_ERR_ARG = 4,    /* bad argument or option */
  BB_ERR_NO_GPU = 5, /* no usable GPU (or built without CUDA) */
  BB_ERR_GPU = 6,    /* a CUDA call failed (message says which) */
  BB_ERR_TIMEOUT = 7 /* a time limit stopped the computation */
} bb_status;

/* Human-readable message for the last failure; empty when none. */
typedef struct bb_error {
  char msg[512];
} bb_error;

/* printf-style; returns `status` so callers can write `return bb_fail(err, BB_ERR_IO, ...)`.
 * `err` may be NULL. */
bb_status bb_fail(bb_error *err, bb_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

const char *bb_status_name(bb_status status);

/* Sticky, for the whole process: whether memory ran out anywhere (every bb_fail with
 * BB_ERR_NOMEM notes it, and so can a caller whose own allocation failed). A front end
 * that reports failures as text (fzn-bamboo, whose errors pass through many layers) asks
 * it to choose its out-of-memory exit status. */
void bb_note_out_of_memory(void);
bool bb_out_of_memory_seen(void);

/* Monotonic wall clock in seconds. */
double bb_now(void);

/* Bytes of memory this process may still use: MemAvailable, or less where `ulimit -v` /
 * `ulimit -d` (RLIMIT_AS, RLIMIT_DATA) leave less room; 0 if unknown; at most bb_memory_cap
 * when that is set. */
uint64_t bb_available_memory(void);

/* A byte count for messages in the unit that shows it: "512 bytes", "12.5 KiB", "68.7 MiB",
 * "2.15 GiB". Returns `out`. */
#define BB_BYTES_TEXT 32
const char *bb_bytes_text(char out[BB_BYTES_TEXT], uint64_t bytes);
/* 0 (none) unless a test or fuzz harness pretends to have less memory, so that inputs
 * claiming huge sizes fail fast instead of reserving gigabytes (tests/fuzz/). */
extern uint64_t bb_memory_cap;

/* Number of online CPUs (at least 1). */
int bb_cpu_count(void);

/* malloc for large arrays (n x n matrices): aligned to 2 MiB and, where the kernel offers
 * transparent huge pages on request (madvise mode), backed by them, so that first touching
 * a gigabyte costs 512 times fewer page faults. Free with free(). */
void *bb_alloc_large(size_t bytes);

/* The arrays of an instance (offsets, lists, capacities): `count` zeroed elements of `size`
 * bytes, at least one, so that an empty list has an address too. NULL when memory runs out. */
void *bb_array_new(uint64_t count, size_t size);
/* Whether an instance's preference lists of `bytes` fit in the memory left (bb_available_memory):
 * BB_OK, or BB_ERR_NOMEM "the preference lists need X, Y available" before anything is allocated. */
bb_status bb_lists_fit(uint64_t bytes, bb_error *err);
/* BB_ERR_NOMEM "out of memory: cannot allocate the preference lists' X (Y available)". */
bb_status bb_lists_out_of_memory(uint64_t bytes, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
