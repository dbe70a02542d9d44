#!/usr/bin/env bash
# One device call: the GPU generator's tests, then the initialisation at the largest n on one
# GPU, baseline (.device-carry/base) and new (.device-carry/bin) interleaved.
set -u
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib
B=$C/bin; A=$C/base
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "== test_gpu_gen (full)"; timeout 200 $B/test_gpu_gen | tail -3
echo "== memcheck test_gpu_gen quick"; timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_gen quick | tail -3; echo "rc=$?"
for N in ${NS:-170000}; do
  echo "== init-floor $N"; $B/init-floor $N 1
  for side in A B; do
    d=$A; [ $side = B ] && d=$B
    for kind in random congested; do
      echo "== $side gen-bench $kind $N"; timeout 120 $d/gen-bench $kind $N
      echo "== $side solve $kind $N"
      BAMBOO_GPU_PROFILE=1 timeout 150 $d/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time --verify -o /dev/null 2>&1 | grep -E "profile|init|solve|total|stable|error" | head -12
    done
  done
done
