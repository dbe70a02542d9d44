/* The memory plan: before anything large is allocated, what each GPU and the host
 * need at the peak of every phase of an algorithm (lists, rank matrix, PRMatrix, solve, tail),
 * so that an instance that cannot fit is refused at once with the phase, the place and both
 * numbers, instead of failing in cudaMalloc half-way or after the host spent its memory.
 *
 * The arithmetic (bb_memory_plan_make) is pure: it mirrors, allocation by allocation, what the
 * code allocates today (cuda/gpu_common.cu, gpu_init.cu, gpu_bamboo.cu, gpu_la_min.cu,
 * gpu_mw_cas.cu; engine/sm/sm_bamboo.c, prmatrix.c and the CPU algorithms), so that the GPU
 * figures can be compared with cudaMemGetInfo (bb_gpu.h's measured peak). Only
 * bb_memory_plan_probe asks the machine (free GPU memory, available host memory).
 *
 * Partitions: a device list ("0,0,1") splits the participants by id into one partition per
 * entry ([Bamboo-SMP] section V-C; cuda/bb_gpu_multi.h). bamboo's partitions are staged: each
 * holds the PRMatrix rows of its men, and while building one block of its men's lists or of
 * rank_rows women's rank rows (and a block of their lists when uploaded); unstaged (gpu-la-min, BAMBOO_GPU_STAGED=0) partition
 * p holds the men's and women's lists of its ids, the rank-matrix rows of its women and the
 * PRMatrix rows of its men. The O(n) matching state is on the first partition's device. The
 * same device may appear more than once; its partitions' bytes add up. One entry is the
 * single-GPU path. */
#ifndef BB_MEMORY_PLAN_H
#define BB_MEMORY_PLAN_H

#include <stdio.h>

#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BB_PLAN_MAX_PARTS 16
#define BB_PLAN_MAX_PHASES 7

/* Participants first .. first + count - 1 (men and women alike) live on `device`. */
typedef struct bb_plan_part {
  int device;
  int first, count;
} bb_plan_part;

typedef struct bb_plan_phase {
  const char *name;                   /* "lists", "rank matrix", "PRMatrix", "solve", "tail", "verify" */
  uint64_t host;                      /* host bytes held at this phase's peak */
  uint64_t device[BB_PLAN_MAX_PARTS]; /* per distinct device (bb_memory_plan.device_id) */
} bb_plan_phase;

typedef struct bb_memory_plan {
  int n;
  char algo[48];     /* the algorithm, or "bamboo (la-seq: no GPU)" for its CPU fallback */
  int gpu;           /* 1 if the algorithm's large data lives on GPUs */
  int id_bytes;      /* bytes per id in the device lists (today always 4) */
  int node_bytes;    /* bytes per PRMatrix node on the device: 4, 5 (40 bits in two planes),
                         8 (cuda/bb_gpu_prnode.h); 0: no PRMatrix */
  int node_bits_min; /* bits a node needs at this n: 2 * ceil(log2 n) (narrowest format) */
  int staged;        /* bamboo's staged initialisation (cuda/gpu_staged.cu; partitions: gpu_multi.cu) */
  int rank_rows;     /* staged: rank matrix in blocks of this many women (0: whole; partitions: always > 0) */
  int gen_on_gpu;    /* the request's gen_on_gpu */
  int parts;
  bb_plan_part part[BB_PLAN_MAX_PARTS];
  int devices; /* distinct devices, in order of first mention */
  int device_id[BB_PLAN_MAX_PARTS];
  uint64_t device_free[BB_PLAN_MAX_PARTS]; /* filled by bb_memory_plan_probe; 0 = unknown */
  uint64_t device_total[BB_PLAN_MAX_PARTS];
  uint64_t host_available; /* 0 = unknown */
  uint64_t host_held;      /* bytes of the phases already allocated (lists read) */
  int phases;
  bb_plan_phase phase[BB_PLAN_MAX_PHASES];
} bb_memory_plan;

typedef struct bb_plan_request {
  int n;
  const char *algo;   /* an algorithm name of bb_algorithm_names() */
  const int *devices; /* device list, one partition each; NULL/0 entries = device 0 */
  int device_count;
  int threads;          /* CPU threads (la-seq's PRMatrix scratch); 0 = all CPUs */
  int wide_nodes;       /* bamboo: 64-bit nodes even when n <= 65536 (BAMBOO_GPU_WIDE_NODES) */
  int node_bytes;       /* bamboo, gpu-la-min: force 4-, 5- or 8-byte nodes where they hold n
                              (BAMBOO_GPU_NODE_BYTES; cuda/bb_gpu_prnode.h); 0: the default */
  int unstaged;         /* bamboo: the earlier initialisation, every list on the device
                              first (BAMBOO_GPU_STAGED=0); default the staged one */
  uint64_t host_held;   /* host bytes of the phases the caller already holds (lists read) */
  int rank_rows;        /* staged bamboo: the rank matrix in blocks of this many women
                              (0: whole); bb_memory_plan_for_run chooses it when needed */
  int verify;           /* the stability check after the solve (solve --verify): a last
                              phase on the host, the lists plus the checker's bit matrix */
  uint64_t gpu_memory;  /* > 0: plan for GPUs with this much free memory each (plan --gpu-memory)
                              instead of asking the GPUs here; bamboo is then not planned as its
                              CPU fallback */
  uint64_t host_memory; /* > 0: the host memory available, instead of this host's */
  int gen_on_gpu;       /* staged bamboo (one GPU or partitions), lists generated on the device
                              (solve --gen-on gpu, cuda/gpu_gen.cu): the host holds no lists,
                              only O(n) (the generator's permutations, 16n bytes, also on the
                              device, and a row buffer per thread while the husbands are read
                              from regenerated women's rows: row_source.h); --verify's check
                              regenerates both sides' rows too (n^2/8 bytes of bits + rows) */
} bb_plan_request;

/* Pure arithmetic; BB_ERR_ARG for an unknown algorithm, n outside 1..BB_MAX_N, more than
 * BB_PLAN_MAX_PARTS partitions, or more partitions than participants. */
bb_status bb_memory_plan_make(const bb_plan_request *req, bb_memory_plan *plan, bb_error *err);

/* Partition arithmetic for n participants in `parts` partitions split as evenly as possible
 * (the first n % parts get one more): the first id of partition p, and the partition that
 * owns id `id`. */
int bb_plan_part_first(int n, int parts, int p);
int bb_plan_part_owner(int n, int parts, int id);

/* Staged bamboo: the women per rank block when the rank matrix does not fit beside the
 * PRMatrix in `device_free` bytes: the most whose rank rows (bb_rank_block_bytes(n) * n bytes
 * each: 3n while n <= 2^24) fit beside it and, unless the lists are generated on the GPU
 * (gen_on_gpu), the block of uploaded lists (64 Mi ids at most); at least ceil(n / 64) (at
 * most 64 passes over the PRMatrix), at most n. */
int bb_plan_rank_rows_for(int n, int node_bytes, int gen_on_gpu, uint64_t device_free);

/* Staged partitions: the women per rank block when the free memory is not known: the blocks
 * of the men's rows' size (64 Mi ids), at least ceil(n / 64), at most n. bb_memory_plan_for_run
 * takes the most that fit beside every device's PRMatrix rows instead. */
int bb_plan_part_rank_rows_default(int n);

/* Fills device_free/device_total (cudaMemGetInfo) and host_available. */
void bb_memory_plan_probe(bb_memory_plan *plan);

/* The plan of what a solve will really run here, probed (or, with req->gpu_memory, for GPUs
 * of that much free memory; req->host_memory likewise): bamboo without a usable GPU is
 * planned as its la-seq fallback, BAMBOO_GPU_NODE_BYTES=4|5|8, BAMBOO_GPU_WIDE_NODES=1 and BAMBOO_GPU_RANK_ROWS=R are
 * honoured as cuda/ does, and when the staged rank matrix does not fit beside the PRMatrix on
 * the GPU, rank_rows is chosen as the most women whose rank rows fit beside it,
 * at least n / 64 (at most 64 passes over the PRMatrix). Staged partitions take the most women
 * per block that fit beside every known device's PRMatrix rows. */
bb_status bb_memory_plan_for_run(const bb_plan_request *req, bb_memory_plan *plan, bb_error *err);

/* The largest of a phase's host or device figures, and the phase with the highest total. */
uint64_t bb_memory_plan_peak_host(const bb_memory_plan *plan);
uint64_t bb_memory_plan_peak_device(const bb_memory_plan *plan, int device_index);

/* BB_OK if every phase fits what is known to be free; otherwise BB_ERR_NOMEM and a message
 * naming the first phase that does not fit, where, and both numbers. */
bb_status bb_memory_plan_check(const bb_memory_plan *plan, bb_error *err);

/* The plan as a table, one row per phase and place. */
void bb_memory_plan_print(const bb_memory_plan *plan, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
