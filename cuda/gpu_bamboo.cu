// Bamboo's GPU phase ([Bamboo-SMP] Algorithm 2, initialisation and execution), improved on the
// paper in three measured ways:
//  * 32-bit PRMatrix nodes (16-bit woman, 16-bit rank) when n <= 65536: half the memory and
//    half the bytes per proposal of the paper's two-word nodes; 40-bit ones (two planes,
//    gpu_prnode.cuh) up to n = 1,048,576;
//  * the packed 64-bit partner word (rank, man, position; gpu_internal.cuh): atomicMin
//    returns the displaced man and where he resumes, so no Next[] array and no read of the
//    woman's list;
//  * a stop request the kernel honours by parking each man it carries (man, position), so
//    the CPU tail resumes exactly there: the hand-over loses no proposal;
//  * a warp whose lanes all propose to one woman sends one atomicMin, from the lane
//    she ranks best, and other steps look ahead to skip women who hold better men.
// With opts->tail_on_gpu (or when the CPU tail hands a long chain back, bb_gpu_tail) the tail is
// finished on the device by one block that scans a free man's row 8192 entries at a time
// for the first woman who accepts him.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bamboo_propose.cuh"
#include "gpu_internal.cuh"

// One block finishes the parked men one after the other (the state is then touched by this
// block alone, so plain loads and stores suffice). Each step scans the carried man's row
// from his position, tail_unroll() * blockDim.x entries per round, for the first woman whose
// partner is worse than him; all earlier entries are rejections and cost nothing else.
// The chain is serial (solo: about n steps of about n entries), so a step's time is latency
// and the one SM's gathers of partner ranks, one per entry. Hence:
//  * Keys in shared memory (n <= 65,535): each woman's partner rank as 16 bits (0xffff = free),
//    loaded once and kept beside the global word. A gather from shared memory costs a few
//    cycles per warp where a scattered global load costs one L1 transaction per thread.
//    Otherwise the upper half of each global word is read (rank << 10 | man >> 11; all ones
//    when free).
//  * Holders in shared memory too (Held; 6 bytes a woman): her partner and his position, so
//    that a step learns whom it displaces without a dependent global load. The global word is
//    still written (a store nobody waits for): the hand-over reads it.
//  * The thread that found the accepting entry makes the step: it holds the node in a
//    register, where thread 0 used to load it again.
//  * Every thread keeps 16 nodes in flight (32 measured slower, halved for 64-bit nodes); the
//    warp minimum is one instruction, and three shared minima rotate so that a round needs one
//    barrier, not three.
#define TAIL_THREADS 1024
#define TAIL_NONE 0xffffffffu
#define TAIL_KEY_FREE 0xffffu
// Nodes per thread and round: `per_thread` for 32-bit nodes, half that for 64-bit ones.
template <typename Node, bool Keys, bool Held, int per_thread>
__global__ void __launch_bounds__(TAIL_THREADS)
    bamboo_tail_kernel(typename Node::plane pr, int n, unsigned long long *partner, const uint2 *parked,
                       int parked_count) {
  constexpr int U = sizeof(typename Node::raw) == 4 ? per_thread : per_thread / 2;
  extern __shared__ uint16_t s_key[]; // Keys: n entries; Held: then n holders and n positions
  uint16_t *s_holder = s_key + n, *s_hpos = s_key + 2 * (size_t)n;
  __shared__ uint32_t s_man, s_pos;
  __shared__ uint32_t s_first[3]; // round r uses r % 3 and clears (r + 1) % 3 (last read in r - 2)
  __shared__ int s_done;
  const uint32_t *partner_hi = (const uint32_t *)partner + 1;
  if (threadIdx.x < 3) s_first[threadIdx.x] = TAIL_NONE;
  if (Keys)
    for (int w = threadIdx.x; w < n; w += TAIL_THREADS) {
      unsigned long long word = partner[w];
      s_key[w] = word == BB_WORD_FREE ? TAIL_KEY_FREE : (uint16_t)bb_word_rank(word);
      if (Held && word != BB_WORD_FREE) {
        s_holder[w] = (uint16_t)bb_word_man(word);
        s_hpos[w] = (uint16_t)bb_word_pos(word);
      }
    }
  uint32_t round = 0;
  for (int i = 0; i < parked_count; i++) {
    if (threadIdx.x == 0) {
      s_man = parked[i].x;
      s_pos = parked[i].y;
      s_done = 0;
    }
    __syncthreads();
    while (!s_done) {
      uint32_t m = s_man;
      typename Node::plane row = pr.shift((size_t)m * n);
      for (uint32_t base = s_pos;; base += U * TAIL_THREADS) {
        uint32_t slot = round % 3;
        if (threadIdx.x == 0) s_first[(round + 1) % 3] = TAIL_NONE;
        round++;
        typename Node::raw nodes[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
          uint32_t k = base + u * TAIL_THREADS + threadIdx.x;
          nodes[u] = k < (uint32_t)n ? row.ld(k) : 0;
        }
        uint32_t first = TAIL_NONE; // the smallest accepted k of this thread, and its node
        typename Node::raw node = 0;
        if (Keys) {
#pragma unroll
          for (int u = U - 1; u >= 0; u--) {
            uint32_t k = base + u * TAIL_THREADS + threadIdx.x;
            if (k < (uint32_t)n && s_key[Node::woman(nodes[u])] > Node::rank(nodes[u])) first = k, node = nodes[u];
          }
        } else {
          uint32_t held[U];
#pragma unroll
          for (int u = 0; u < U; u++) {
            uint32_t k = base + u * TAIL_THREADS + threadIdx.x;
            held[u] = k < (uint32_t)n ? partner_hi[2 * (size_t)Node::woman(nodes[u])] >> 10 : 0;
          }
#pragma unroll
          for (int u = U - 1; u >= 0; u--)
            if (held[u] > Node::rank(nodes[u])) first = base + u * TAIL_THREADS + threadIdx.x, node = nodes[u];
        }
        uint32_t least = __reduce_min_sync(0xffffffffu, first);
        if ((threadIdx.x & 31) == 0 && least != TAIL_NONE) atomicMin(&s_first[slot], least);
        __syncthreads();
        uint32_t found = s_first[slot];
        if (found != TAIL_NONE) {
          if (first == found) { // one thread: k values are distinct across threads
            uint32_t w = Node::woman(node), r = Node::rank(node);
            int was_free;
            uint32_t dropped = 0, dropped_pos = 0;
            if (Held) {
              was_free = s_key[w] == TAIL_KEY_FREE;
              dropped = s_holder[w];
              dropped_pos = s_hpos[w];
              s_holder[w] = (uint16_t)m;
              s_hpos[w] = (uint16_t)found;
            } else {
              unsigned long long old = partner[w];
              was_free = old == BB_WORD_FREE;
              dropped = bb_word_man(old);
              dropped_pos = bb_word_pos(old);
            }
            partner[w] = bb_word(r, m, found);
            if (Keys) s_key[w] = (uint16_t)r;
            if (was_free) {
              s_done = 1;
            } else {
              s_man = dropped;
              s_pos = dropped_pos + 1;
            }
          }
          __syncthreads();
          break;
        }
        // A complete instance always has an accepting woman before the row ends.
      }
    }
    __syncthreads();
  }
}

template <typename Node, bool Keys, bool Held, int per_thread>
static cudaError_t launch_tail_variant(bb_gpu *g, int parked) {
  typename Node::plane pr = Node::at(g->d_pr, g->cells);
  size_t keys = Keys ? (size_t)g->n * sizeof(uint16_t) * (Held ? 3 : 1) : 0;
  if (Keys) {
    cudaError_t e = cudaFuncSetAttribute(bamboo_tail_kernel<Node, Keys, Held, per_thread>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)keys);
    if (e != cudaSuccess) return e;
  }
  bamboo_tail_kernel<Node, Keys, Held, per_thread>
      <<<1, TAIL_THREADS, keys, g->stream>>>(pr, g->n, g->d_words, g->d_parked, parked);
  return cudaPeekAtLastError();
}

// BAMBOO_GPU_TAIL=held16|keys16|keys32|global16|global8 picks the variant (for measurements);
// keys need n <= 65,535 and n * 2 bytes of shared memory (held: n * 6), else the next
// variant that fits runs: held16, keys16, global16.
template <typename Node>
static cudaError_t launch_tail_kernel(bb_gpu *g, int parked) {
  const char *v = getenv("BAMBOO_GPU_TAIL");
  const char *variant = v && *v ? v : "held16";
  int dev = 0, most = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  cudaGetLastError();
  int keys_fit = g->n <= 65535 && (size_t)g->n * sizeof(uint16_t) + 64 <= (size_t)most;
  int held_fit = keys_fit && 3 * (size_t)g->n * sizeof(uint16_t) + 64 <= (size_t)most;
  if (keys_fit && !strcmp(variant, "keys32")) return launch_tail_variant<Node, true, false, 32>(g, parked);
  if (keys_fit && !strcmp(variant, "keys16")) return launch_tail_variant<Node, true, false, 16>(g, parked);
  if (held_fit && strncmp(variant, "global", 6)) return launch_tail_variant<Node, true, true, 16>(g, parked);
  if (keys_fit && strncmp(variant, "global", 6)) return launch_tail_variant<Node, true, false, 16>(g, parked);
  if (!strcmp(variant, "global8")) return launch_tail_variant<Node, false, false, 8>(g, parked);
  return launch_tail_variant<Node, false, false, 16>(g, parked);
}

// Resumes everybody's LA state from the partner words and the parked men.
void bb_gpu_handover(int n, const unsigned long long *words, const uint2 *parked, int count, bb_gpu_la *st,
                     bb_id *free_men) {
  for (int w = 0; w < n; w++) {
    unsigned long long word = words[w];
    if (word == BB_WORD_FREE) {
      st->partner_rank[w] = (uint32_t)n;
    } else {
      st->partner_rank[w] = bb_word_rank(word);
      st->next[bb_word_man(word)] = bb_word_pos(word) + 1;
    }
  }
  for (int i = 0; i < count; i++) {
    free_men[i] = parked[i].x;
    st->next[parked[i].x] = parked[i].y;
  }
}

static bb_status launch_tail(bb_gpu *g, int parked, bb_error *err) {
  cudaError_t e = cudaSuccess;
  bb_gpu_with_node(g->pr_node_bytes, [&](auto node) { e = launch_tail_kernel<decltype(node)>(g, parked); });
  if (e != cudaSuccess) return bb_gpu_fail(err, e, "bamboo_tail_kernel", __FILE__, __LINE__);
  return BB_OK;
}

// Copies the words and `parked` parked men back and rebuilds the host state from them.
static bb_status download_state(bb_gpu *g, int parked, bb_gpu_la *st, bb_id *free_men, bb_error *err) {
  int n = g->n;
  unsigned long long *h_words = (unsigned long long *)malloc((size_t)n * sizeof *h_words);
  uint2 *h_parked = (uint2 *)malloc((size_t)(parked ? parked : 1) * sizeof *h_parked);
  bb_status status = BB_OK;
  cudaError_t e = cudaSuccess;
  if (!h_words || !h_parked) {
    status = bb_fail(err, BB_ERR_NOMEM, "bamboo: out of host memory for the hand-over");
  } else {
    e = cudaMemcpyAsync(h_words, g->d_words, (size_t)n * sizeof *h_words, cudaMemcpyDeviceToHost, g->stream);
    if (e == cudaSuccess && parked)
      e = cudaMemcpyAsync(h_parked, g->d_parked, (size_t)parked * sizeof *h_parked, cudaMemcpyDeviceToHost, g->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(g->stream);
    if (e == cudaSuccess)
      bb_gpu_handover(n, h_words, h_parked, parked, st, free_men);
    else
      status = bb_gpu_fail(err, e, "download of the matching state", __FILE__, __LINE__);
  }
  free(h_words);
  free(h_parked);
  return status;
}

bb_status bb_gpu_bamboo(bb_gpu *g, const bb_gpu_opts *opts, bb_gpu_la *st, bb_id *free_men, int *free_count,
                        bb_gpu_stats *stats, bb_error *err) {
  assert(g && opts && st && free_men && free_count && stats);
  assert(st->partner_rank && st->next && st->n == g->n); // the state covers everybody
  int n = g->n;
  // The narrowest format for n; BAMBOO_GPU_NODE_BYTES=4|5|8 (or BAMBOO_GPU_WIDE_NODES=1)
  // forces one, so tests cover every format on small instances (bb_gpu_prnode.h).
  int node_bytes = bb_prnode_bytes_bamboo(n);
  *free_count = 0;

  g->lists = bb_gpu_lists_match(opts->gpu_lists, g->inst) ? opts->gpu_lists : NULL;
  if (opts->gpu_lists && !g->lists && opts->verbose)
    fprintf(stderr, "bamboo: the 16-bit pinned lists were made from other lists; uploading from the instance\n");
  double t = bb_now(), t_start = t, transfer = stats->t_transfer;
  bb_status status =
      g->staged ? bb_gpu_build_staged(g, node_bytes, stats, err) : bb_gpu_build_prmatrix(g, node_bytes, err);
  if (status != BB_OK) return status;
  if (!g->d_words) BB_CUDA(cudaMalloc(&g->d_words, (size_t)n * sizeof *g->d_words));
  if (!g->d_parked) BB_CUDA(cudaMalloc(&g->d_parked, (size_t)n * sizeof *g->d_parked));
  bb_gpu_sample_memory(g); // the peak: lists, rank matrix, PRMatrix and the words
  double t_built = bb_now();
  if ((status = bb_gpu_fill_u64(g, g->d_words, (size_t)n, BB_WORD_FREE, err)) != BB_OK) return status;
  BB_CUDA(cudaStreamSynchronize(g->stream));
  double t_filled = bb_now();
  bb_gpu_free_rank(g);
  double t_freed = bb_now();
  stats->t_init += t_freed - t - (stats->t_transfer - transfer); // the staged women's upload

  t = bb_now();
  if ((status = bb_gpu_ctl_reset(g, n, err)) != BB_OK) return status;
  propose_variant variant = propose_variant_of(getenv("BAMBOO_GPU_SCAN"));
  bb_gpu_with_node(node_bytes, [&](auto node) {
    using Node = decltype(node);
    bb_gpu_launch_propose<Node>(OneRows<Node>{Node::at(g->d_pr, g->cells), n}, 0, n, NULL, n, g->d_words, g->d_ctl,
                                g->d_parked, g->stream, variant);
  });
  BB_CUDA_LAUNCHED("bamboo_propose_kernel");
  status = bb_gpu_monitor(g, opts->tail_threshold, opts, "bamboo GPU proposals", err);
  if (status != BB_OK) return status;
  double t_proposed = bb_now();
  BB_CUDA(cudaMemcpy(g->h_ctl, g->d_ctl, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  int parked = g->h_ctl[BB_CTL_PARKED];
  if (parked < 0 || parked > n) return bb_fail(err, BB_ERR_GPU, "bamboo: kernel parked %d men (n = %d)", parked, n);
  if (parked > 0 && opts->tail_on_gpu) {
    if ((status = launch_tail(g, parked, err)) != BB_OK) return status;
    stats->tail_men = parked;
    parked = 0;
  }
  double t_tail = bb_now();
  status = download_state(g, parked, st, free_men, err);
  if (status != BB_OK) return status;
  *free_count = parked;
  double t_done = bb_now();
  stats->t_solve += t_done - t;
  if (bb_gpu_profiling())
    fprintf(stderr,
            "bamboo n=%d: build %.2f ms, words %.2f ms, rank freed %.2f ms; proposals %.2f ms, GPU tail %.2f "
            "ms, download and hand-over %.2f ms\n",
            n, 1e3 * (t_built - t_start), 1e3 * (t_filled - t_built), 1e3 * (t_freed - t_filled),
            1e3 * (t_proposed - t), 1e3 * (t_tail - t_proposed), 1e3 * (t_done - t_tail));
  return BB_OK;
}

bb_status bb_gpu_tail(bb_gpu *g, bb_gpu_la *st, const bb_id *free_men, int count, bb_error *err) {
  assert(g && st && st->partner_rank && st->next && st->husband && st->n == g->n);
  assert(count == 0 || free_men);
  int n = g->n;
  if (!g->d_pr || !g->d_words || !g->d_parked || count < 0 || count > n)
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_tail: no bamboo state on the GPU");
  unsigned long long *h_words = (unsigned long long *)malloc((size_t)n * sizeof *h_words);
  uint2 *h_parked = (uint2 *)malloc((size_t)(count ? count : 1) * sizeof *h_parked);
  if (!h_words || !h_parked) {
    free(h_words);
    free(h_parked);
    return bb_fail(err, BB_ERR_NOMEM, "bb_gpu_tail: out of host memory");
  }
  for (int w = 0; w < n; w++) {
    uint32_t r = st->partner_rank[w];
    if (r >= (uint32_t)n) {
      h_words[w] = BB_WORD_FREE;
    } else {
      bb_id man = st->husband[w];
      h_words[w] = bb_word(r, man, st->next[man] - 1);
    }
  }
  for (int i = 0; i < count; i++) h_parked[i] = make_uint2(free_men[i], st->next[free_men[i]]);
  cudaError_t e = cudaMemcpyAsync(g->d_words, h_words, (size_t)n * sizeof *h_words, cudaMemcpyHostToDevice, g->stream);
  if (e == cudaSuccess && count)
    e = cudaMemcpyAsync(g->d_parked, h_parked, (size_t)count * sizeof *h_parked, cudaMemcpyHostToDevice, g->stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(g->stream); // the host buffers go next
  free(h_words);
  free(h_parked);
  if (e != cudaSuccess) return bb_gpu_fail(err, e, "upload of the tail state", __FILE__, __LINE__);
  bb_status status = count ? launch_tail(g, count, err) : BB_OK;
  if (status != BB_OK) return status;
  bb_id unused;
  return download_state(g, 0, st, &unused, err);
}
