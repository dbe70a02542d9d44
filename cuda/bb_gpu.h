/* The GPU side of the engine behind a small C API (kernels in gpu_*.cu; gpu_stub.c
 * implements the same API when the build has no CUDA and answers BB_ERR_NO_GPU).
 *
 * A bb_gpu holds one instance's lists on one device (bb_gpu_device.h) plus the streams and pinned buffers
 * used to drive the kernels. Every entry point returns a bb_status; a CUDA failure is
 * reported as BB_ERR_GPU with the failing call named, the sticky error is cleared, and
 * nothing exits the process. */
#ifndef BB_GPU_H
#define BB_GPU_H

#include "bb_gpu_args.h" /* bb_gpu_instance, bb_gpu_opts, bb_gpu_stats, bb_gpu_la */
#include "bb_gpu_device.h"
#include "bb_gpu_prnode.h" /* bb_prnode */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_gpu bb_gpu;

/* Copies the instance's lists to device `device` (made the calling thread's current device);
 * stats->t_transfer gets the time. */
bb_status bb_gpu_open(int device, const bb_gpu_instance *inst, bb_gpu **out, bb_gpu_stats *stats, bb_error *err);
void bb_gpu_close(bb_gpu *gpu); /* accepts NULL */

/* For bb_gpu_bamboo only: uploads nothing yet. bb_gpu_bamboo then builds the rank matrix
 * from the women's lists (freed after), and streams the men's lists in blocks of rows into
 * the PRMatrix, so the device peak is the rank matrix + PRMatrix + one block instead of
 * lists + rank matrix + PRMatrix (engine/sm/memory_plan.h). `inst` must outlive
 * the context. */
bb_status bb_gpu_open_staged(int device, const bb_gpu_instance *inst, bb_gpu **out, bb_gpu_stats *stats, bb_error *err);

/* Baseline kernels, each with GPU initialisation (rank matrix / PRMatrix: t_init),
 * proposals (t_solve) and matching extraction (t_post). */
bb_status bb_gpu_mw_cas(bb_gpu *gpu, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats, bb_error *err);
bb_status bb_gpu_la_min(bb_gpu *gpu, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats, bb_error *err);

/* Bamboo's GPU phase ([Bamboo-SMP] Algorithm 2, steps 2-3). Builds the women's rank matrix
 * and the packed PRMatrix on the device (t_init), then runs the packed-word atomicMin
 * kernel while this thread watches the number of free men; once at most
 * opts->tail_threshold men are free the kernel is told to stop and every thread parks
 * the man it carries. On return `st` (allocated by the caller, n entries each) holds
 * partner_rank[] and next[] for everybody, and free_men[0..*free_count) lists the men
 * still free, so the CPU continues exactly where the GPU stopped. With
 * opts->tail_on_gpu the tail is finished on the GPU by one block (cooperative
 * row scan) and *free_count is 0. */
bb_status bb_gpu_bamboo(bb_gpu *gpu, const bb_gpu_opts *opts, bb_gpu_la *st, bb_id *free_men, int *free_count,
                        bb_gpu_stats *stats, bb_error *err);

/* Finishes a tail on the GPU from a host state, after the CPU tail handed it back: uploads
 * the partner words rebuilt from `st` (st->husband names each partner), lets one block
 * finish free_men[0..count) with the cooperative row scan, and brings the final state back
 * into `st`. Needs the PRMatrix of a preceding bb_gpu_bamboo. */
bb_status bb_gpu_tail(bb_gpu *gpu, bb_gpu_la *st, const bb_id *free_men, int count, bb_error *err);

/* bb_prrow_fn over the device PRMatrix built by bb_gpu_bamboo (ctx is the bb_gpu):
 * copies man m's row from `from` on to the host. Valid until the next call. */
const bb_prnode *bb_gpu_prrow(void *ctx, bb_id m, uint32_t from, bb_error *err);

/* Staged contexts only: build the women's rank matrix in blocks of `rows` women (0: whole),
 * for an n whose rank matrix does not fit beside the PRMatrix. The PRMatrix is first filled
 * with the women from the men's lists, then each block of women's lists is uploaded, ranked,
 * and its ranks written into the PRMatrix entries that name its women (one pass over the
 * PRMatrix per block). The memory plan chooses `rows` (memory_plan.h, rank_rows). */
void bb_gpu_set_rank_rows(bb_gpu *gpu, int rows);

/* Device bytes in use at the highest peak seen since bb_gpu_open, measured with
 * cudaMemGetInfo (free at open minus the least free after each phase's allocations): what
 * the memory plan (engine/sm/memory_plan.h) predicts for this device. */
uint64_t bb_gpu_measured_peak(const bb_gpu *gpu);

#ifdef __cplusplus
}
#endif
#endif
