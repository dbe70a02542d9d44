// Internal to cuda/: the bb_gpu context, error handling, PRMatrix node formats, the
// packed partner word, and the monitor that watches a running proposal kernel.
#ifndef BB_GPU_INTERNAL_CUH
#define BB_GPU_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "bb_gpu.h"
#include "gpu_prnode.cuh" // PrNode32, PrNode40, PrNode64

struct bb_gpu_gen;
struct bb_gpu {
  int device; // the CUDA device this context lives on
  int n;
  size_t cells;                     // men_rows * n: the PRMatrix cells this context holds
  int men_first, men_rows;          // the men whose PRMatrix rows live here (0, n on one GPU)
  const bb_gpu_instance *inst;      // the host lists (the staged path uploads them while building): &lists_of
  bb_gpu_instance lists_of;         // the caller's, copied at open (the pointers must outlive the context)
  int staged;                       // bb_gpu_open_staged: no lists on the device until bamboo builds
  int rank_rows;                    // staged: > 0 builds the rank matrix in blocks of this many women
  struct bb_gpu_gen *gen;           // staged: list blocks generated on the device (gpu_gen.cu), or NULL
  const struct bb_gpu_lists *lists; // staged: the same lists, 16-bit and pinned (gpu_overlap.cu), or NULL
  bb_id *d_men, *d_women;           // the lists, as uploaded
  uint32_t *d_rank;                 // women's rank matrix, while needed
  void *d_pr;                       // PRMatrix: nodes of pr_node_bytes (4, 5, 8; gpu_prnode.cuh)
  int pr_node_bytes;
  unsigned long long *d_words; // bamboo: each woman's packed partner word (n)
  uint2 *d_parked;             // bamboo: (man, position) of men parked by a stop (n)
  cudaStream_t stream;         // proposals and initialisation
  cudaStream_t monitor;        // polling copies that run beside the kernel
  int *d_ctl;                  // [0] stop request, [1] free men, [2] parked men
  int *h_ctl;                  // pinned mirror for the monitor's copies
  void *h_row_raw;             // pinned staging for one PRMatrix row
  bb_prnode *h_row;            // decoded row handed to the CPU tail
  size_t free_at_open;         // cudaMemGetInfo before the first allocation
  size_t min_free;             // the least free memory seen at the phases' peaks
};

// Notes the device's free memory now (after an allocation that makes a phase's peak), so
// the measured peak can be held against the memory plan (engine/sm/memory_plan.h).
void bb_gpu_sample_memory(bb_gpu *g);

// Control word meanings.
enum { BB_CTL_RUN = 0, BB_CTL_STOP = 1, BB_CTL_ABORT = 2 };
enum { BB_CTL_STOP_FLAG = 0, BB_CTL_FREE_MEN = 1, BB_CTL_PARKED = 2 };

// Records a CUDA failure: names the call and place, clears the (non-sticky) error.
bb_status bb_gpu_fail(bb_error *err, cudaError_t e, const char *call, const char *file, int line);
#define BB_CUDA(call)                                                                    \
  do {                                                                                   \
    cudaError_t bb_e_ = (call);                                                          \
    if (bb_e_ != cudaSuccess) return bb_gpu_fail(err, bb_e_, #call, __FILE__, __LINE__); \
  } while (0)
// The same for a function that frees what it holds on the way out: the status goes to `st`
// and control to its label `done`.
#define BB_CUDA_OR_DONE(call)                                  \
  do {                                                         \
    cudaError_t bb_e_ = (call);                                \
    if (bb_e_ != cudaSuccess) {                                \
      st = bb_gpu_fail(err, bb_e_, #call, __FILE__, __LINE__); \
      goto done;                                               \
    }                                                          \
  } while (0)
// After a launch: a launch failure is reported under the kernel's name, not the peek's.
#define BB_CUDA_LAUNCHED(what)                                                          \
  do {                                                                                  \
    cudaError_t bb_e_ = cudaPeekAtLastError();                                          \
    if (bb_e_ != cudaSuccess) return bb_gpu_fail(err, bb_e_, what, __FILE__, __LINE__); \
  } while (0)

// Grid for loops that stride over rows: enough blocks to fill the chip, at most `rows`.
int bb_gpu_row_blocks(int rows);

// Fills, on gpu->stream.
bb_status bb_gpu_fill_u32(bb_gpu *g, uint32_t *p, size_t count, uint32_t value, bb_error *err);
bb_status bb_gpu_fill_u64(bb_gpu *g, unsigned long long *p, size_t count, unsigned long long value, bb_error *err);

// Initialisation kernels (gpu_init.cu): rank matrix, and the PRMatrix in the given node size
// (4, 5 or 8 bytes, one that holds n: bb_gpu_prnode.h). Both on gpu->stream.
bb_status bb_gpu_build_rank(bb_gpu *g, bb_error *err);
bb_status bb_gpu_build_prmatrix(bb_gpu *g, int node_bytes, bb_error *err);
void bb_gpu_free_rank(bb_gpu *g);
// The PRMatrix rows of men first .. first + rows - 1 from their lists in `men_rows` (rows x n
// ids); g->d_rank and g->d_pr (in g->pr_node_bytes) must exist. On gpu->stream.
bb_status bb_gpu_build_prmatrix_rows(bb_gpu *g, const bb_id *men_rows, int first, int rows, bb_error *err);

// An upload pipeline (pinned host buffers, narrowed ids) kept over several ranges.
typedef struct bb_gpu_pipe bb_gpu_pipe;
bb_status bb_gpu_pipe_open(bb_gpu *g, bb_gpu_pipe **out, bb_error *err);
// Copies `count` ids from host to dev, stream-ordered on gpu->stream.
bb_status bb_gpu_pipe_upload(bb_gpu *g, bb_gpu_pipe *p, const bb_id *host, bb_id *dev, size_t count, bb_error *err);
void bb_gpu_pipe_close(bb_gpu *g, bb_gpu_pipe *p); // accepts NULL

// bamboo's staged initialisation (gpu_staged.cu): rank matrix from the women's lists, which
// are then freed, and the PRMatrix from the men's lists streamed in blocks of rows; the
// women's upload time is added to stats->t_transfer.
bb_status bb_gpu_build_staged(bb_gpu *g, int node_bytes, bb_gpu_stats *stats, bb_error *err);

// The staged initialisation with the upload overlapped (gpu_overlap.cu; n <= 65536): 16-bit
// chunks from `lists` (or narrowed from g->inst on the host) on a copy stream, rank and PRMatrix
// rows built from each chunk as it lands. The copies' time is added to stats->t_transfer.
struct bb_gpu_lists;
bb_status bb_gpu_build_overlapped(bb_gpu *g, int node_bytes, const struct bb_gpu_lists *lists, bb_gpu_stats *stats,
                                  bb_error *err);
// 1 if `lists` were made from exactly `inst`'s lists (bb_gpu_lists_pack).
int bb_gpu_lists_match(const struct bb_gpu_lists *lists, const bb_gpu_instance *inst);

// Rows first .. first + count - 1 of side `women` generated by `gen` into dev, on `stream`
// (gpu_gen.cu).
struct bb_gpu_gen;
bb_status bb_gpu_gen_launch(const struct bb_gpu_gen *gen, int women, int first, int count, bb_id *dev,
                            cudaStream_t stream, bb_error *err);
// 1 if `gen` draws rows straight as rank rows (congested, random with g <= 32: the kinds whose
// rows are drawn a group at a time in registers); the other kinds shuffle a row in place, so
// their rows are drawn as lists and scattered (bb_rank_block_scatter).
int bb_gpu_gen_draws_ranks(const struct bb_gpu_gen *gen);
// Where bb_gpu_gen_draws_ranks: rows first .. first + count - 1 of side `women` written as
// rank rows 0 .. count - 1 of `ranks` (rank[i][id] = id's position in the row): exactly the
// inverse of what bb_gpu_gen_launch writes, with no list held.
struct bb_rank_block;
bb_status bb_gpu_gen_launch_ranks(const struct bb_gpu_gen *gen, int women, int first, int count,
                                  const struct bb_rank_block &ranks, cudaStream_t stream, bb_error *err);

// Resumes everybody's LA state from the partner words (n) and the `count` parked men.
void bb_gpu_handover(int n, const unsigned long long *words, const uint2 *parked, int count, bb_gpu_la *st,
                     bb_id *free_men);

// Resets the control words (free men = `free_men`) before a proposal kernel.
bb_status bb_gpu_ctl_reset(bb_gpu *g, int free_men, bb_error *err);

// Watches the kernel running on gpu->stream until it ends. If stop_at > 0, asks it to stop
// (BB_CTL_STOP) once at most stop_at men are free; past opts->time_limit_s asks it to
// abort and returns BB_ERR_TIMEOUT after it has ended. Reports progress under `what`.
bb_status bb_gpu_monitor(bb_gpu *g, int stop_at, const bb_gpu_opts *opts, const char *what, bb_error *err);

// The frame both baselines (gpu-mw-cas, gpu-la-min) share: device arrays partner[] (every
// woman set to `free_value`) and next[]; `propose` launches the kernel on gpu->stream, the
// monitor watches it; then `to_ids` (may be NULL) turns partner[] into man ids on the device
// and wife_of[] is filled from them. t_solve and t_post are added to `stats`.
typedef void (*bb_gpu_baseline_step)(bb_gpu *g, uint32_t *partner, uint32_t *next);
bb_status bb_gpu_run_baseline(bb_gpu *g, const bb_gpu_opts *opts, const char *name, uint32_t free_value,
                              bb_gpu_baseline_step propose, bb_gpu_baseline_step to_ids, bb_id *wife_of,
                              bb_gpu_stats *stats, bb_error *err);

// --- The packed partner word ------------------------------------------------------------
// A woman's partner as one 64-bit word: (rank of the man in her list, man, position of her
// in his list), 21 bits each, rank highest. atomicMin on it keeps the man she prefers, and
// the old value names the displaced man and where he resumes, with no second lookup and no
// separate next[] array whose writes could race with the displacement.
#define BB_WORD_BITS 21
#define BB_WORD_MASK ((1ull << BB_WORD_BITS) - 1)
#define BB_WORD_FREE (~0ull) // no partner: larger than any real word
__host__ __device__ __forceinline__ unsigned long long bb_word(uint32_t rank, uint32_t man, uint32_t pos) {
  return ((unsigned long long)rank << (2 * BB_WORD_BITS)) | ((unsigned long long)man << BB_WORD_BITS) | pos;
}
__host__ __device__ __forceinline__ uint32_t bb_word_rank(unsigned long long w) {
  return (uint32_t)(w >> (2 * BB_WORD_BITS));
}
__host__ __device__ __forceinline__ uint32_t bb_word_man(unsigned long long w) {
  return (uint32_t)((w >> BB_WORD_BITS) & BB_WORD_MASK);
}
__host__ __device__ __forceinline__ uint32_t bb_word_pos(unsigned long long w) { return (uint32_t)(w & BB_WORD_MASK); }

// BAMBOO_GPU_PROFILE=1: the build and bamboo print where their time goes on stderr.
int bb_gpu_profiling(void);

#endif
