#!/usr/bin/env bash
# Third call: the nodes' rank passes four 40-bit nodes at a time. Tests, then the
# initialisation at n = 170,000 on one GPU, baseline (.device-carry/base) and new
# (.device-carry/bin), unprofiled (two runs each, interleaved) and profiled.
set -u
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib
B=$C/bin; A=$C/base
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "== test_gpu_scale (full)"; timeout 240 $B/test_gpu_scale | tail -2
echo "== memcheck test_gpu_scale quick"; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_scale quick | tail -2; echo "rc=$?"
N=170000
for kind in random congested; do
  for run in 1 2; do
    for side in A B; do
      d=$A; [ $side = B ] && d=$B
      echo "== $side solve $kind $N run $run: $(timeout 120 $d/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time -o /dev/null 2>&1 | grep -E "^(init|solve|total)" | tr -s ' ' | tr '\n' ' ')"
    done
  done
  echo "== B solve $kind $N (profiled, verified)"
  BAMBOO_GPU_PROFILE=1 timeout 150 $B/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time --verify -o /dev/null 2>&1 | grep -E "profile|^(init|solve|total)|stable|rror" | head
done
