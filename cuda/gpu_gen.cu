// The [Bamboo-SMP] workloads generated on the GPU (bb_gpu_gen.h). One thread per row runs
// bb_gen_row (engine/sm/gen_rows.h), the very code of the host generator: every row has its
// own random stream (seed, side << 32 | row), so rows are independent and a device row equals
// the host row bit for bit. Only the O(n) permutations of perfect and solo are drawn on the
// host (bb_gen_spec_init) and copied here.
//
// Cost: uniform and perfect shuffle each row in place in global memory, one random read and
// write per id, so they run at the speed of scattered memory accesses (measured by
// bench/gen_device.sh). Congested is written a row per block; random(g) with g <= 32 goes
// through shared memory a tile at a time (gen_grouped_tiles_kernel), so its stores coalesce.
// Those two kernels also write a row as its rank row (rank[id] = position; the staged build's
// women, gpu_rank_block.cuh, man-major): the output type says which (list_out, rank_planes).
#include <stdlib.h>

#include "bb_gpu_gen.h"
#include "gpu_internal.cuh"
#include "gpu_rank_block.cuh"

struct bb_gpu_gen {
  int device;
  bb_gen_spec spec; // permutation pointers are device pointers
  bb_id *d_perms;   // 4n ids for perfect and solo, else NULL
};

__global__ void gen_rows_kernel(bb_gen_spec spec, int women, int first, int count, bb_id *__restrict__ out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    bb_gen_row(&spec, women, first + i, out + (size_t)i * (size_t)spec.n);
}

// Rows written as lists: put(i, k, id), the id at position k of row i. (rank_planes'
// put(i, m, r) takes the rank r of id m instead.)
struct list_out {
  static constexpr bool ranks = false;
  bb_id *ids;
  size_t n;
  __device__ __forceinline__ void put(size_t i, size_t k, uint32_t id) const { ids[i * n + k] = (bb_id)id; }
};

// Identity rows (congested, random with g = 1): nothing is drawn, so any thread may write any
// id. The identity is its own inverse: the rank rows hold the same values. Lists go a block per
// row and rank rows (man-major) a block per id, threads along the contiguous index, coalesced.
template <typename Out>
__global__ void gen_identity_rows_kernel(int n, int count, Out out) {
  if constexpr (Out::ranks) {
    for (int m = blockIdx.x; m < n; m += gridDim.x)
      for (int i = threadIdx.x; i < count; i += blockDim.x) out.put((size_t)i, (size_t)m, (uint32_t)m);
  } else {
    for (int i = blockIdx.x; i < count; i += gridDim.x)
      for (int k = threadIdx.x; k < n; k += blockDim.x) out.put((size_t)i, (size_t)k, (uint32_t)k);
  }
}

// Grouped rows (random with 1 < g <= GEN_TILE) written a tile at a time. In the
// kernel above each lane writes its own row, so a warp's store touches 32 rows, 32 sectors
// for 128 bytes. Here a warp still draws one row per lane, in the same order and with the same
// stream as bb_gen_grouped_row (a group shuffled in registers draws exactly what the in-place
// shuffle draws), but parks 32 columns of its 32 rows in shared memory and then writes each
// row's 32 ids as one coalesced store.
// As rank rows: a group holds the ids start .. start + len - 1 at the positions start ..
// start + len - 1 (each group is shuffled within itself), so column c of the rank row is in
// the same group as column c of the list. The lane inverts each group in registers as it is
// drawn (held[id - start] = start + its position); the draws are the same. The rank rows are
// man-major (gpu_rank_block.cuh): the ranks of id c in the warp's 32 rows are 32 neighbours,
// so each lane stores its own rank of c straight from registers, coalesced, with no tile.
#define GEN_TILE 32
#define GEN_TILE_WARPS 4

template <typename Out>
__global__ void gen_grouped_tiles_kernel(bb_gen_spec spec, int women, int first, int count, Out out) {
  __shared__ bb_id tile[GEN_TILE_WARPS][GEN_TILE][GEN_TILE + 1];
  int lane = threadIdx.x % GEN_TILE, warp = threadIdx.x / GEN_TILE, n = spec.n;
  int group = spec.group;
  int base = (blockIdx.x * GEN_TILE_WARPS + warp) * GEN_TILE; // the warp's first row
  if (base >= count) return;                                  // a whole warp leaves together
  int row = base + lane, live = row < count;
  bb_rng rng;
  bb_rng_seed_stream(&rng, spec.seed, ((uint64_t)women << 32) | (uint64_t)(first + (live ? row : base)));
  bb_id held[GEN_TILE];
  int next = 0, have = 0, start = 0; // held[next .. have) are the current group's ids left
  bb_id(*t)[GEN_TILE + 1] = tile[warp];
  for (int c0 = 0; c0 < n; c0 += GEN_TILE) {
    int width = n - c0 < GEN_TILE ? n - c0 : GEN_TILE;
    for (int j = 0; j < width; j++) {
      if (next == have) {
        int len = n - start < group ? n - start : group;
        for (int k = 0; k < len; k++) held[k] = (bb_id)(start + k);
        bb_rng_shuffle(&rng, held, (size_t)len);
        if constexpr (Out::ranks) {
          bb_id where[GEN_TILE];
          for (int k = 0; k < len; k++) where[held[k] - (bb_id)start] = (bb_id)(start + k);
          for (int k = 0; k < len; k++) held[k] = where[k];
        }
        start += len, next = 0, have = len;
      }
      if constexpr (Out::ranks) {
        if (live) out.put((size_t)row, (size_t)(c0 + j), held[next]);
        next++;
      } else {
        t[lane][j] = held[next++];
      }
    }
    if constexpr (!Out::ranks) {
      __syncwarp();
      if (lane < width)
        for (int r = 0; r < GEN_TILE && base + r < count; r++)
          out.put((size_t)(base + r), (size_t)(c0 + lane), t[r][lane]);
      __syncwarp();
    }
  }
}

bb_status bb_gpu_gen_open(int device, const bb_gen_spec *spec, bb_gpu_gen **out, bb_error *err) {
  if (!spec || !out) return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_open: NULL argument");
  *out = NULL;
  size_t perm_ids = bb_gen_perm_ids(spec->kind, spec->n);
  if (perm_ids && (spec->kind == BB_GEN_PERFECT
                       ? !spec->sigma
                       : !(spec->man_label && spec->woman_label && spec->man_of_label && spec->woman_of_label)))
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_open: the spec has no permutations (bb_gen_spec_init)");
  BB_CUDA(cudaSetDevice(device));
  bb_gpu_gen *gen = (bb_gpu_gen *)calloc(1, sizeof *gen);
  if (!gen) return bb_fail(err, BB_ERR_NOMEM, "bb_gpu_gen_open: out of host memory");
  gen->device = device;
  gen->spec = *spec;
  if (perm_ids) {
    size_t n = (size_t)spec->n;
    // Each permutation copied on its own: the spec may point anywhere.
    const bb_id *src[4] = {spec->sigma, NULL, NULL, NULL};
    if (spec->kind == BB_GEN_SOLO) {
      src[0] = spec->man_label;
      src[1] = spec->woman_label;
      src[2] = spec->man_of_label;
      src[3] = spec->woman_of_label;
    }
    cudaError_t e = cudaMalloc(&gen->d_perms, perm_ids * sizeof(bb_id));
    for (int k = 0; k < 4 && e == cudaSuccess; k++)
      if (src[k]) e = cudaMemcpy(gen->d_perms + k * n, src[k], n * sizeof(bb_id), cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
      bb_gpu_gen_close(gen);
      return bb_gpu_fail(err, e, "bb_gpu_gen_open: permutations", __FILE__, __LINE__);
    }
    if (spec->kind == BB_GEN_PERFECT) {
      gen->spec.sigma = gen->d_perms;
    } else {
      gen->spec.man_label = gen->d_perms;
      gen->spec.woman_label = gen->d_perms + n;
      gen->spec.man_of_label = gen->d_perms + 2 * n;
      gen->spec.woman_of_label = gen->d_perms + 3 * n;
    }
  }
  *out = gen;
  return BB_OK;
}

void bb_gpu_gen_close(bb_gpu_gen *gen) {
  if (!gen) return;
  if (gen->d_perms) {
    cudaSetDevice(gen->device);
    cudaFree(gen->d_perms);
  }
  free(gen);
}

static int is_identity(const bb_gen_spec *spec) {
  return spec->kind == BB_GEN_CONGESTED || (spec->kind == BB_GEN_RANDOM && spec->group <= 1);
}

int bb_gpu_gen_draws_ranks(const bb_gpu_gen *gen) {
  return is_identity(&gen->spec) || (gen->spec.kind == BB_GEN_RANDOM && gen->spec.group <= GEN_TILE);
}

// The kinds of bb_gpu_gen_draws_ranks, as lists or as rank rows.
template <typename Out>
static bb_status launch_drawn(const bb_gpu_gen *gen, int women, int first, int count, Out out, cudaStream_t stream,
                              bb_error *err) {
  const bb_gen_spec *spec = &gen->spec;
  if (is_identity(spec)) {
    int blocks = bb_gpu_row_blocks(Out::ranks ? spec->n : count);
    gen_identity_rows_kernel<<<blocks, 256, 0, stream>>>(spec->n, count, out);
    BB_CUDA_LAUNCHED("gen_identity_rows_kernel");
    return BB_OK;
  }
  int rows_per_block = GEN_TILE * GEN_TILE_WARPS, blocks = (count + rows_per_block - 1) / rows_per_block;
  gen_grouped_tiles_kernel<<<blocks, GEN_TILE * GEN_TILE_WARPS, 0, stream>>>(*spec, women ? 1 : 0, first, count, out);
  BB_CUDA_LAUNCHED("gen_grouped_tiles_kernel");
  return BB_OK;
}

static bb_status check_rows(const bb_gpu_gen *gen, int first, int count, bb_error *err) {
  if (first < 0 || first + count > gen->spec.n)
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen: rows %d..%d outside 0..%d", first, first + count - 1, gen->spec.n - 1);
  return BB_OK;
}

bb_status bb_gpu_gen_launch_ranks(const bb_gpu_gen *gen, int women, int first, int count, const bb_rank_block &ranks,
                                  cudaStream_t stream, bb_error *err) {
  if (count <= 0) return BB_OK;
  bb_status st = check_rows(gen, first, count, err);
  if (st != BB_OK) return st;
  if (!bb_gpu_gen_draws_ranks(gen))
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_launch_ranks: this kind is drawn as lists");
  bb_with_rank_planes(ranks, [&](auto planes) { st = launch_drawn(gen, women, first, count, planes, stream, err); });
  return st;
}

bb_status bb_gpu_gen_launch(const bb_gpu_gen *gen, int women, int first, int count, bb_id *dev, cudaStream_t stream,
                            bb_error *err) {
  if (count <= 0) return BB_OK;
  bb_status st = check_rows(gen, first, count, err);
  if (st != BB_OK) return st;
  const bb_gen_spec *spec = &gen->spec;
  if (bb_gpu_gen_draws_ranks(gen))
    return launch_drawn(gen, women, first, count, list_out{dev, (size_t)spec->n}, stream, err);
  // One warp per block: a staged block holds few rows (671 at n = 100,000), each a long
  // sequential loop, so they are spread over as many SMs as possible.
  int threads = 32, blocks = (count + threads - 1) / threads;
  gen_rows_kernel<<<blocks, threads, 0, stream>>>(*spec, women ? 1 : 0, first, count, dev);
  BB_CUDA_LAUNCHED("gen_rows_kernel");
  return BB_OK;
}

bb_status bb_gpu_gen_to_host(bb_gpu_gen *gen, int women, int first, int count, bb_id *host_out, bb_error *err) {
  if (!gen || (!host_out && count > 0)) return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_to_host: NULL argument");
  if (count <= 0) return BB_OK;
  BB_CUDA(cudaSetDevice(gen->device));
  size_t ids = (size_t)count * (size_t)gen->spec.n;
  bb_id *dev = NULL;
  BB_CUDA(cudaMalloc(&dev, ids * sizeof(bb_id)));
  bb_status st = bb_gpu_gen_launch(gen, women, first, count, dev, 0, err);
  cudaError_t e = cudaSuccess;
  if (st == BB_OK) e = cudaMemcpy(host_out, dev, ids * sizeof(bb_id), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "bb_gpu_gen_to_host: copy", __FILE__, __LINE__);
  return st;
}

bb_status bb_gpu_gen_ranks_to_host(bb_gpu_gen *gen, int women, int first, int count, uint32_t *host_out,
                                   bb_error *err) {
  if (!gen || (!host_out && count > 0)) return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_ranks_to_host: NULL argument");
  if (count <= 0) return BB_OK;
  bb_status st = check_rows(gen, first, count, err);
  if (st != BB_OK) return st;
  BB_CUDA(cudaSetDevice(gen->device));
  int n = gen->spec.n;
  size_t cells = (size_t)count * (size_t)n;
  bb_rank_block ranks = {NULL, NULL, 0, 0};
  bb_id *lists = NULL;
  if ((st = bb_rank_block_alloc(n, count, &ranks, err)) != BB_OK) return st;
  cudaError_t e = cudaSuccess;
  if (bb_gpu_gen_draws_ranks(gen)) {
    st = bb_gpu_gen_launch_ranks(gen, women, first, count, ranks, 0, err);
  } else if ((e = cudaMalloc(&lists, cells * sizeof(bb_id))) != cudaSuccess) {
    st = bb_gpu_fail(err, e, "bb_gpu_gen_ranks_to_host: lists", __FILE__, __LINE__);
  } else if ((st = bb_gpu_gen_launch(gen, women, first, count, lists, 0, err)) == BB_OK) {
    st = bb_rank_block_scatter(lists, n, count, ranks, 0, 0, err);
  }
  uint16_t *lo = st == BB_OK ? (uint16_t *)malloc(cells * 2) : NULL;
  unsigned char *hi = st == BB_OK ? (unsigned char *)malloc(cells * (size_t)ranks.hi_bytes) : NULL;
  if (st == BB_OK && (!lo || !hi)) st = bb_fail(err, BB_ERR_NOMEM, "bb_gpu_gen_ranks_to_host: out of host memory");
  if (st == BB_OK && (e = cudaMemcpy(lo, ranks.lo, cells * 2, cudaMemcpyDeviceToHost)) == cudaSuccess)
    e = cudaMemcpy(hi, ranks.hi, cells * (size_t)ranks.hi_bytes, cudaMemcpyDeviceToHost);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "bb_gpu_gen_ranks_to_host: copy", __FILE__, __LINE__);
  // host_out is row-major whatever the block's layout: rank i * n + m from bb_rank_cell(i, m).
  for (size_t i = 0; st == BB_OK && i < (size_t)count; i++)
    for (size_t m = 0; m < (size_t)n; m++) {
      size_t c = bb_rank_cell(i, m, (size_t)ranks.rows);
      uint32_t high = ranks.hi_bytes == 1 ? hi[c] : ((const uint16_t *)hi)[c];
      host_out[i * (size_t)n + m] = (uint32_t)lo[c] | high << 16;
    }
  free(lo);
  free(hi);
  cudaFree(lists);
  bb_rank_block_free(&ranks);
  return st;
}

bb_status bb_gpu_gen_time(bb_gpu_gen *gen, int women, int rows, double *seconds, bb_error *err) {
  if (!gen || !seconds || rows < 1) return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_time: bad argument");
  int n = gen->spec.n;
  if (rows > n) rows = n;
  BB_CUDA(cudaSetDevice(gen->device));
  bb_id *dev = NULL;
  BB_CUDA(cudaMalloc(&dev, (size_t)rows * (size_t)n * sizeof(bb_id)));
  BB_CUDA(cudaDeviceSynchronize());
  double t = bb_now();
  bb_status st = BB_OK;
  for (int first = 0; first < n && st == BB_OK; first += rows)
    st = bb_gpu_gen_launch(gen, women, first, n - first < rows ? n - first : rows, dev, 0, err);
  cudaError_t e = cudaDeviceSynchronize();
  *seconds = bb_now() - t;
  cudaFree(dev);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "gen_rows_kernel", __FILE__, __LINE__);
  return st;
}

bb_status bb_gpu_set_generator(bb_gpu *g, bb_gpu_gen *gen, bb_error *err) {
  if (!g) return bb_fail(err, BB_ERR_ARG, "bb_gpu_set_generator: NULL context");
  if (gen && !g->staged) return bb_fail(err, BB_ERR_ARG, "bb_gpu_set_generator: not a staged context");
  if (gen && (gen->device != g->device || gen->spec.n != g->n))
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_set_generator: generator for n = %d on device %d, context n = %d on %d",
                   gen->spec.n, gen->device, g->n, g->device);
  g->gen = gen;
  return BB_OK;
}
