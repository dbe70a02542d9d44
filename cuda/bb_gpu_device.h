/* Which GPUs there are (cuda/gpu_common.cu; gpu_stub.c answers "no CUDA" without it). Every
 * entry point names its device by index (0 .. count - 1): the engines and the constraint use
 * device 0 today, and a multi-GPU engine passes its own. Depends on nothing but base. */
#ifndef BB_GPU_DEVICE_H
#define BB_GPU_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if CUDA device `device` can be used; otherwise 0 and the reason in `why`. */
int bb_gpu_probe(int device, char *why, size_t why_len);

/* The model name of device `device` ("NVIDIA H100 80GB HBM3"); 0 (and "") without it. */
int bb_gpu_name(int device, char *out, size_t len);

/* Free and total bytes of device `device` (cudaMemGetInfo); 0 (both 0) without it. */
int bb_gpu_mem_info(int device, size_t *free_bytes, size_t *total_bytes);

#ifdef __cplusplus
}
#endif
#endif
