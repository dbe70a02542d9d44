/* The [Bamboo-SMP] workloads generated on the GPU, so that a large instance needs no lists
 * on the host: the rows of base/gen_row.h, the same code as the host generator's, so
 * a device row is the host row bit for bit
 * (docs/generators.md, "On the GPU"). gpu_stub.c answers BB_ERR_NO_GPU without CUDA. */
#ifndef BB_GPU_GEN_H
#define BB_GPU_GEN_H

#include "bb_gpu.h"
#include "gen_row.h" /* bb_gen_spec and the rows, as the host generator makes them */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_gpu_gen bb_gpu_gen;

/* Copies the spec and its permutations (4n ids for perfect and solo) to device `device`. */
bb_status bb_gpu_gen_open(int device, const bb_gen_spec *spec, bb_gpu_gen **out, bb_error *err);
void bb_gpu_gen_close(bb_gpu_gen *gen); /* accepts NULL */

/* Rows first .. first + count - 1 of side `women` (0 men, 1 women) generated on the device
 * and copied to host_out[count * n] (the test's path: tests/test_gpu_gen.c). */
bb_status bb_gpu_gen_to_host(bb_gpu_gen *gen, int women, int first, int count, bb_id *host_out, bb_error *err);

/* The same rows as rank rows, as the staged build holds its women's (cuda/gpu_rank_block.cuh):
 * host_out[i * n + id] = the position of id in row first + i, the inverse of bb_gpu_gen_to_host's
 * rows (row-major here, read from the block's own layout through bb_rank_cell). Congested and
 * random with g <= 32 are drawn straight as rank rows; the other kinds as lists, turned into
 * rank rows on the device (the test's path: tests/test_gpu_gen.c). */
bb_status bb_gpu_gen_ranks_to_host(bb_gpu_gen *gen, int women, int first, int count, uint32_t *host_out, bb_error *err);

/* Benchmarks (bench/gen_bench.c): generates every row of side `women` on the device, `rows`
 * rows per launch into one scratch block (as the staged build does), and returns the
 * seconds from the first launch to the end of the last. */
bb_status bb_gpu_gen_time(bb_gpu_gen *gen, int women, int rows, double *seconds, bb_error *err);

/* Staged contexts only (bb_gpu_open_staged): the staged build generates every list block on
 * the device with `gen` instead of uploading it from the instance, so no list crosses the
 * bus (gpu_staged.cu). `gen` must be on the same device, for the same n, and outlive the
 * context; NULL goes back to uploading. The instance's lists are still read by the CPU tail
 * and the extraction (sm_bamboo.c): this removes the transfer, not the host lists. */
bb_status bb_gpu_set_generator(bb_gpu *gpu, bb_gpu_gen *gen, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
