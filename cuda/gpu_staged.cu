// bamboo's staged initialisation: the device peak is the PRMatrix plus what
// building it needs, not the lists, rank matrix and PRMatrix all at once.
//   1. the women's lists are uploaded, turned into the rank matrix, and freed;
//   2. the PRMatrix is allocated and the men's lists are streamed through one block of rows
//      (STAGE_BLOCK_IDS ids), each block turned into its PRMatrix rows before the next
//      overwrites it (both on gpu->stream, so stream order is the only synchronisation);
//   3. the caller frees the rank matrix once the partner words exist (gpu_bamboo.cu).
// Peak: rank matrix + PRMatrix + one block + the upload staging, against lists + rank +
// PRMatrix before (engine/sm/memory_plan.h has both figures).
// When the rank matrix does not fit beside the PRMatrix (bb_gpu_set_rank_rows), step 1 is
// skipped: the nodes get their women from the men's blocks, and then the women are taken in
// blocks of rank_rows (ranks_in_blocks), each block one pass over the PRMatrix. Only the
// block's rank rows are large (3 bytes a rank while n <= 2^24, gpu_rank_block.cuh), held
// man-major (each man's ranks in the block's women side by side) so that a pass reads one
// contiguous segment of the block per man's row. Generated women of congested and
// random(g <= 32) are drawn straight as rank rows; uploaded women come through a small block
// of lists (STAGE_BLOCK_IDS) that is scattered into the rank rows; the other generated kinds,
// which shuffle each row in place, draw a block of lists beside fewer rank rows in the same
// memory.
// A partition of several GPUs (gpu_multi.cu) is a context holding the PRMatrix rows of its men
// only (g->men_first, g->men_rows); it always takes the rank matrix in blocks of women, each
// block made on its own device from the women's lists, so that no device reads another's
// memory while building. Its blocks still hold all n men's segments, indexed by the global man
// id, as the women's rows are drawn whole; the passes read only the partition's men's.
#include <stdio.h>
#include <stdlib.h>

#include <type_traits>

#include "gpu_internal.cuh"
#include "gpu_rank_block.cuh"

#define STAGE_BLOCK_IDS ((size_t)64 << 20) // 256 MiB of 32-bit ids

// Rows first .. first + count - 1 of one side into `dev`: uploaded from the instance, or
// generated on the device when the context has a generator (bb_gpu_set_generator; gpu_gen.cu).
static bb_status stage_rows(bb_gpu *g, bb_gpu_pipe *pipe, int women, int first, int count, bb_id *dev, bb_error *err) {
  if (g->gen) return bb_gpu_gen_launch(g->gen, women, first, count, dev, g->stream, err);
  const bb_id *lists = women ? g->inst->women_prefs : g->inst->men_prefs;
  return bb_gpu_pipe_upload(g, pipe, lists + (size_t)first * (size_t)g->n, dev, (size_t)count * (size_t)g->n, err);
}

// --- Rank matrix in blocks of women (bb_gpu_set_rank_rows) -----------------------------
// The men's rows give every PRMatrix node its woman (rank 0 for now) ...
template <typename Node>
__global__ void pr_women_kernel(const bb_id *__restrict__ men, int n, int first, int rows, typename Node::plane pr) {
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    typename Node::plane out = pr.shift((size_t)(first + i) * n);
    for (int k = threadIdx.x; k < n; k += blockDim.x) out.put(k, Node::make(men[(size_t)i * n + k], 0));
  }
}

// ... and each block of women's ranks (rank.load(w - w0, m)) is written into the nodes that name
// one of its women, in the rows of men men_first .. men_first + men_rows - 1. The block is
// man-major (gpu_rank_block.cuh), so a man's row reads only his own segment of the block, a
// few KiB that stay in cache; every pass reads the whole PRMatrix and writes a few per cent of
// it, so the PRMatrix's reads are what it costs.
template <typename Node, typename Ranks>
__device__ __forceinline__ void rank_node(typename Node::plane row, int k, typename Node::raw node, size_t m, int w0,
                                          int rows, Ranks rank) {
  uint32_t w = Node::woman(node);
  if (w - (uint32_t)w0 < (uint32_t)rows) row.put(k, Node::make(w, rank.load(w - w0, m)));
}

template <typename Node, typename Ranks>
__device__ __forceinline__ void rank_row(typename Node::plane row, size_t, int n, size_t m, int w0, int rows,
                                         Ranks rank) {
  for (int k = threadIdx.x; k < n; k += blockDim.x) rank_node<Node, Ranks>(row, k, row.get(k), m, w0, rows, rank);
}

// 40-bit nodes: four at a time, a 16-byte load of the low words and a 4-byte one of the high
// bytes, from the first node of the row whose index is a multiple of 4 (the planes start
// aligned, so both loads are then aligned too). (A function template cannot be partially
// specialised, so the 40-bit rows go through their own name, rank_row40.)
template <typename Ranks>
__device__ __forceinline__ void rank_row40(PrNode40::plane row, size_t first, int n, size_t m, int w0, int rows,
                                           Ranks rank) {
  int head = (int)((4 - (first & 3)) & 3);
  if (head > n) head = n;
  int quads = (n - head) / 4, tail = head + 4 * quads;
  for (int k = threadIdx.x; k < head; k += blockDim.x)
    rank_node<PrNode40, Ranks>(row, k, row.get(k), m, w0, rows, rank);
  const uint4 *lo4 = (const uint4 *)(row.lo + head);
  const uint32_t *hi4 = (const uint32_t *)(row.hi + head);
  for (int q = threadIdx.x; q < quads; q += blockDim.x) {
    uint4 lo = lo4[q];
    uint32_t hi = hi4[q];
    const uint32_t los[4] = {lo.x, lo.y, lo.z, lo.w};
    for (int j = 0; j < 4; j++)
      rank_node<PrNode40, Ranks>(row, head + 4 * q + j,
                                 (unsigned long long)los[j] | ((unsigned long long)((hi >> (8 * j)) & 0xffu) << 32), m,
                                 w0, rows, rank);
  }
  for (int k = tail + threadIdx.x; k < n; k += blockDim.x)
    rank_node<PrNode40, Ranks>(row, k, row.get(k), m, w0, rows, rank);
}

template <typename Node, typename Ranks>
__global__ void pr_ranks_kernel(typename Node::plane pr, int n, int men_first, int men_rows, int w0, int rows,
                                Ranks rank) {
  for (int i = blockIdx.x; i < men_rows; i += gridDim.x) {
    size_t first = (size_t)i * n;
    if constexpr (std::is_same<Node, PrNode40>::value)
      rank_row40<Ranks>(pr.shift(first), first, n, (size_t)(men_first + i), w0, rows, rank);
    else
      rank_row<Node, Ranks>(pr.shift(first), first, n, (size_t)(men_first + i), w0, rows, rank);
  }
}

static bb_status launch_pr_women(bb_gpu *g, const bb_id *men, int first, int rows, bb_error *err) {
  bb_gpu_with_node(g->pr_node_bytes, [&](auto node) {
    using Node = decltype(node);
    pr_women_kernel<Node>
        <<<bb_gpu_row_blocks(rows), 256, 0, g->stream>>>(men, g->n, first, rows, Node::at(g->d_pr, g->cells));
  });
  BB_CUDA_LAUNCHED("pr_women_kernel");
  return BB_OK;
}

static bb_status launch_pr_ranks(bb_gpu *g, int w0, int rows, const bb_rank_block &block, bb_error *err) {
  bb_gpu_with_node(g->pr_node_bytes, [&](auto node) {
    using Node = decltype(node);
    bb_with_rank_planes(block, [&](auto rank) {
      pr_ranks_kernel<Node><<<bb_gpu_row_blocks(g->men_rows), 256, 0, g->stream>>>(
          Node::at(g->d_pr, g->cells), g->n, g->men_first, g->men_rows, w0, rows, rank);
    });
  });
  BB_CUDA_LAUNCHED("pr_ranks_kernel");
  return BB_OK;
}

// BAMBOO_GPU_PROFILE=1: where the blocked build's time goes, each step waited for and timed
// (which serialises the steps, so the sum is a little more than an unprofiled build's time).
enum { STEP_MEN_ROWS, STEP_NODE_WOMEN, STEP_WOMEN_ROWS, STEP_RANK_ROWS, STEP_NODE_RANKS, STEPS };
struct build_clock {
  int on;
  double last, spent[STEPS];
};

static void clock_step(build_clock *c, bb_gpu *g, int step) {
  if (!c->on) return;
  cudaStreamSynchronize(g->stream);
  double now = bb_now();
  c->spent[step] += now - c->last;
  c->last = now;
}

// `rows`, or BAMBOO_GPU_RANK_ROWS / BAMBOO_GPU_STAGE_ROWS when set (tests force many small
// blocks at small n), at least 1 and at most `most`.
static int forced_rows(const char *name, int rows, int most) {
  const char *forced = getenv(name);
  if (forced && atoi(forced) > 0) rows = atoi(forced);
  if (rows > most) rows = most;
  return rows < 1 ? 1 : rows;
}

// How a rank block gets its women (the memory plan, engine/sm/sm_memory_plan.c, mirrors it):
// drawn as rank rows, so the block is all there is; or through `list_rows` rows of lists held
// beside `rows` rank rows.
struct rank_blocking {
  int rows, list_rows, drawn;
};

static rank_blocking rank_blocking_of(const bb_gpu *g) {
  rank_blocking b;
  b.rows = forced_rows("BAMBOO_GPU_RANK_ROWS", g->rank_rows, g->n);
  b.drawn = g->gen && bb_gpu_gen_draws_ranks(g->gen);
  b.list_rows = 0;
  if (b.drawn) return b;
  if (g->gen) {
    // Rows shuffled in place need their lists: the block's memory is shared between the lists
    // and fewer rank rows (4 + rank bytes a cell), so the generator's launches stay large.
    int bytes = bb_rank_block_bytes(g->n);
    b.rows = (int)((int64_t)b.rows * bytes / (4 + bytes));
    if (b.rows < 1) b.rows = 1;
    b.list_rows = b.rows;
  } else {
    // Uploads keep the bus busy in blocks of any size: the lists come STAGE_BLOCK_IDS at a time.
    int64_t small = (int64_t)(STAGE_BLOCK_IDS / (size_t)g->n);
    b.list_rows = forced_rows("BAMBOO_GPU_STAGE_ROWS", (int)(small < b.rows ? small : b.rows), b.rows);
  }
  return b;
}

static bb_status ranks_in_blocks(bb_gpu *g, bb_gpu_pipe *pipe, build_clock *clock, bb_error *err) {
  size_t n = (size_t)g->n;
  rank_blocking b = rank_blocking_of(g);
  bb_id *women = NULL;
  bb_rank_block rank = {NULL, NULL, 0, 0};
  bb_status st = bb_rank_block_alloc(g->n, b.rows, &rank, err);
  cudaError_t e = cudaSuccess;
  if (st == BB_OK && b.list_rows && (e = cudaMalloc(&women, (size_t)b.list_rows * n * sizeof(bb_id))) != cudaSuccess)
    st = bb_gpu_fail(err, e, "cudaMalloc(rank block lists)", __FILE__, __LINE__);
  if (st == BB_OK) bb_gpu_sample_memory(g);
  for (int w0 = 0; w0 < g->n && st == BB_OK; w0 += b.rows) {
    int count = g->n - w0 < b.rows ? g->n - w0 : b.rows;
    if (b.drawn) { // the women's rows and their rank rows in one step
      st = bb_gpu_gen_launch_ranks(g->gen, 1, w0, count, rank, g->stream, err);
      clock_step(clock, g, STEP_WOMEN_ROWS);
    }
    for (int i = 0; !b.drawn && i < count && st == BB_OK; i += b.list_rows) {
      int lists = count - i < b.list_rows ? count - i : b.list_rows;
      st = stage_rows(g, pipe, 1, w0 + i, lists, women, err);
      clock_step(clock, g, STEP_WOMEN_ROWS);
      if (st == BB_OK) st = bb_rank_block_scatter(women, g->n, lists, rank, i, g->stream, err);
      clock_step(clock, g, STEP_RANK_ROWS);
    }
    if (st == BB_OK) st = launch_pr_ranks(g, w0, count, rank, err);
    clock_step(clock, g, STEP_NODE_RANKS);
  }
  e = cudaStreamSynchronize(g->stream);
  cudaFree(women);
  bb_rank_block_free(&rank);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "rank blocks", __FILE__, __LINE__);
  return st;
}

static bb_status rank_from_women(bb_gpu *g, bb_gpu_pipe *pipe, bb_gpu_stats *stats, bb_error *err) {
  double t = bb_now();
  BB_CUDA(cudaMalloc(&g->d_women, g->cells * sizeof(bb_id)));
  bb_gpu_sample_memory(g);
  bb_status st = stage_rows(g, pipe, 1, 0, g->n, g->d_women, err);
  if (st != BB_OK) return st;
  BB_CUDA(cudaStreamSynchronize(g->stream));
  stats->t_transfer += bb_now() - t;
  if ((st = bb_gpu_build_rank(g, err)) != BB_OK) return st;
  BB_CUDA(cudaStreamSynchronize(g->stream));
  BB_CUDA(cudaFree(g->d_women));
  g->d_women = NULL;
  return BB_OK;
}

static bb_status prmatrix_from_men(bb_gpu *g, bb_gpu_pipe *pipe, build_clock *clock, bb_error *err) {
  size_t n = (size_t)g->n;
  int block_rows = (int)(STAGE_BLOCK_IDS / n < n ? STAGE_BLOCK_IDS / n : n);
  int blocked = !g->d_rank; // the rank matrix comes in blocks afterwards (ranks_in_blocks)
  // Blocked, the next phase holds rank_rows rank rows of bb_rank_block_bytes each beside the
  // PRMatrix: men's blocks of as many bytes (rank_rows * bytes / 4 rows) raise no peak, and few
  // large blocks keep the generator's launches full (a few hundred rows a launch left most of
  // the GPU idle).
  int rank_rows = blocked ? forced_rows("BAMBOO_GPU_RANK_ROWS", g->rank_rows, g->n) : 0;
  int64_t paired = (int64_t)rank_rows * bb_rank_block_bytes(g->n) / 4;
  if (paired > block_rows) block_rows = (int)(paired < g->n ? paired : g->n);
  // BAMBOO_GPU_STAGE_ROWS=R forces blocks of R rows, so tests cover many blocks (and a short
  // last one) at small n; the memory plan assumes the default.
  block_rows = forced_rows("BAMBOO_GPU_STAGE_ROWS", block_rows, g->men_rows);
  bb_id *block = NULL;
  BB_CUDA(cudaMalloc(&block, (size_t)block_rows * n * sizeof(bb_id)));
  bb_gpu_sample_memory(g);
  bb_status st = BB_OK;
  for (int i = 0; i < g->men_rows && st == BB_OK; i += block_rows) {
    int rows = g->men_rows - i < block_rows ? g->men_rows - i : block_rows;
    st = stage_rows(g, pipe, 0, g->men_first + i, rows, block, err);
    clock_step(clock, g, STEP_MEN_ROWS);
    if (st == BB_OK)
      st = blocked ? launch_pr_women(g, block, i, rows, err) : bb_gpu_build_prmatrix_rows(g, block, i, rows, err);
    clock_step(clock, g, STEP_NODE_WOMEN);
  }
  cudaError_t e = cudaStreamSynchronize(g->stream);
  cudaFree(block);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "PRMatrix blocks", __FILE__, __LINE__);
  return st;
}

bb_status bb_gpu_build_staged(bb_gpu *g, int node_bytes, bb_gpu_stats *stats, bb_error *err) {
  if (!bb_prnode_bytes_fits(node_bytes, g->n))
    return bb_fail(err, BB_ERR_ARG, "%d-byte PRMatrix nodes do not hold n = %d", node_bytes, g->n);
  if (!g->staged || !g->inst) return bb_fail(err, BB_ERR_ARG, "bb_gpu_build_staged: not a staged context");
  const char *forced = getenv("BAMBOO_GPU_RANK_ROWS");
  int blocked = g->rank_rows > 0 || (forced && atoi(forced) > 0);
  if (g->men_rows != g->n && !blocked)
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_build_staged: a partition needs the rank matrix in blocks");
  // 16-bit ids on the bus and the upload overlapped with the build (gpu_overlap.cu);
  // BAMBOO_GPU_OVERLAP=0 keeps the pipeline below, for comparison.
  const char *overlap = getenv("BAMBOO_GPU_OVERLAP");
  if (!g->gen && !blocked && g->n <= 65536 && !(overlap && *overlap == '0'))
    return bb_gpu_build_overlapped(g, node_bytes, g->lists, stats, err);
  bb_gpu_pipe *pipe = NULL;
  bb_status st = bb_gpu_pipe_open(g, &pipe, err);
  build_clock clock = {bb_gpu_profiling(), bb_now(), {0}};
  if (st == BB_OK && !blocked && !g->d_rank) st = rank_from_women(g, pipe, stats, err);
  if (st == BB_OK && g->d_pr) {
    cudaFree(g->d_pr);
    g->d_pr = NULL;
  }
  cudaError_t e = cudaSuccess;
  if (st == BB_OK && (e = cudaMalloc(&g->d_pr, g->cells * (size_t)node_bytes)) != cudaSuccess)
    st = bb_gpu_fail(err, e, "cudaMalloc(PRMatrix)", __FILE__, __LINE__);
  if (st == BB_OK) {
    g->pr_node_bytes = node_bytes;
    bb_gpu_sample_memory(g);
    st = prmatrix_from_men(g, pipe, &clock, err);
  }
  if (st == BB_OK && blocked) st = ranks_in_blocks(g, pipe, &clock, err);
  if (clock.on) {
    rank_blocking b = rank_blocking_of(g);
    fprintf(stderr,
            "bamboo profile: staged build on GPU %d, men %d..%d: men's rows %.1f ms, nodes' women %.1f ms, "
            "women's rows %.1f ms%s, rank rows %.1f ms, nodes' ranks %.1f ms (%d passes of %d women)\n",
            g->device, g->men_first, g->men_first + g->men_rows - 1, 1e3 * clock.spent[STEP_MEN_ROWS],
            1e3 * clock.spent[STEP_NODE_WOMEN], 1e3 * clock.spent[STEP_WOMEN_ROWS],
            blocked && b.drawn ? " (drawn as rank rows)" : "", 1e3 * clock.spent[STEP_RANK_ROWS],
            1e3 * clock.spent[STEP_NODE_RANKS], blocked ? (g->n + b.rows - 1) / b.rows : 0, blocked ? b.rows : 0);
  }
  bb_gpu_pipe_close(g, pipe);
  return st;
}
