/* The engine over several partitions of the participants ([Bamboo-SMP] section V-C): a device
 * list, one partition per entry, participants split by id as evenly as possible (the first
 * n % k partitions get one more; engine/sm/memory_plan.h has the same arithmetic). Two layouts:
 *  - staged (bb_gpu_multi_open_staged, bamboo's default): partition p holds, on its device,
 *    the PRMatrix rows of its men and nothing else once they are built. It builds them as one
 *    GPU's staged initialisation does (cuda/gpu_staged.cu): its men's lists in blocks give the
 *    nodes' women, then every block of rank_rows women's lists (uploaded, or generated on its
 *    own device) gives their ranks; so a device needs about node_bytes * n^2 / k bytes, and no
 *    device reads another's memory while building;
 *  - unstaged (bb_gpu_multi_open; gpu-la-min, and bamboo with BAMBOO_GPU_STAGED=0): partition
 *    p holds the men's and women's lists of its ids, the rank-matrix rows of its women while
 *    the PRMatrix is built, and the PRMatrix rows of its men.
 * Kernels read and update the other partitions' data directly through peer access. The O(n) matching state
 * (partner words, parked men, control words; gpu-la-min's partner ranks and next) lives on
 * the first partition's device (bamboo's rounds add a replica of the words on every device).
 * The same device may be listed more than once: its
 * partitions then share it and need no peer access (that is how the path is tested on one
 * GPU). Distinct devices must be able to access each other's memory (NVLink or PCIe P2P),
 * or bb_gpu_multi_open fails naming the pair. */
#ifndef BB_GPU_MULTI_H
#define BB_GPU_MULTI_H

#include "bb_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BB_GPU_MAX_PARTS 16

typedef struct bb_gpu_multi bb_gpu_multi;

/* Uploads each partition's rows (stats->t_transfer), then builds the rank matrix and the
 * PRMatrix with `node_bytes` per node (4, 5 or 8, one that holds n: bb_gpu_prnode.h) and frees the rank matrix
 * (stats->t_init). 2 <= count <= BB_GPU_MAX_PARTS, count <= n. */
bb_status bb_gpu_multi_open(const int *devices, int count, const bb_gpu_instance *inst, int node_bytes,
                            bb_gpu_multi **out, bb_gpu_stats *stats, bb_error *err);
void bb_gpu_multi_close(bb_gpu_multi *mg); /* accepts NULL */

/* bb_gpu_multi_open with each partition's rows generated on its device from `spec`
 * (engine/sm/gen_rows.h, the host generator's rows bit for bit; solve --gen-on gpu --gpus)
 * instead of uploaded: `inst` may then have no lists. NULL spec: bb_gpu_multi_open. */
bb_status bb_gpu_multi_open_gen(const int *devices, int count, const bb_gpu_instance *inst,
                                const struct bb_gen_spec *spec, int node_bytes, bb_gpu_multi **out, bb_gpu_stats *stats,
                                bb_error *err);

/* The staged layout (above) with PRMatrix nodes of `node_bytes`, the rank matrix taken in
 * blocks of `rank_rows` women (>= 1; the memory plan chooses it: engine/sm/memory_plan.h);
 * rows generated on each device from `spec` (NULL: uploaded from `inst`). The slowest
 * partition's upload goes to stats->t_transfer, the rest of the build to stats->t_init. */
bb_status bb_gpu_multi_open_staged(const int *devices, int count, const bb_gpu_instance *inst,
                                   const struct bb_gen_spec *spec, int node_bytes, int rank_rows, bb_gpu_multi **out,
                                   bb_gpu_stats *stats, bb_error *err);

/* The device memory the partitions on `device` took at their peak (cudaMemGetInfo sampled at
 * each phase's peak, as bb_gpu_measured_peak does for one GPU); 0 when none is there. */
uint64_t bb_gpu_multi_measured_peak(const bb_gpu_multi *mg, int device);

/* bamboo's GPU phase (as bb_gpu_bamboo) over the partitions; the tail is always the CPU's
 * ([Bamboo-SMP] Algorithm 2), its rows read from the partitions by bb_gpu_multi_prrow. Two
 * modes, chosen by BAMBOO_GPU_MULTI_SOLVE (bb_gpu_multi_solve_mode):
 *  - "rounds" (the default): bulk-synchronous rounds, each partition proposing against its own replica of
 *    the words and the replicas merged by a minimum after each round (gpu_multi_rounds.cu),
 *    until at most BAMBOO_GPU_ROUNDS_SWITCH men (default 256) are free; the shared words
 *    finish;
 *  - "shared": one set of partner words on the first partition's device, which every
 *    partition's proposals update directly (remote atomics).
 * The matching is the same (the man-optimal one). */
bb_status bb_gpu_multi_bamboo(bb_gpu_multi *mg, const bb_gpu_opts *opts, bb_gpu_la *st, bb_id *free_men,
                              int *free_count, bb_gpu_stats *stats, bb_error *err);

/* "shared" or "rounds": the mode bb_gpu_multi_bamboo runs now. */
const char *bb_gpu_multi_solve_mode(void);
/* The rounds the last bb_gpu_multi_bamboo on `mg` ran (0 in the shared mode; NULL: 0). */
int bb_gpu_multi_rounds_run(const bb_gpu_multi *mg);

/* gpu-la-min (as bb_gpu_la_min, 64-bit nodes) over the partitions. */
bb_status bb_gpu_multi_la_min(bb_gpu_multi *mg, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats,
                              bb_error *err);

/* bb_prrow_fn over the partitions' PRMatrix rows (ctx is the bb_gpu_multi). */
const bb_prnode *bb_gpu_multi_prrow(void *ctx, bb_id m, uint32_t from, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
