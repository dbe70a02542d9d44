#!/usr/bin/env bash
# Second call: tests of the overlapped draw, then the initialisation at n = 170,000 on one GPU,
# baseline (.device-carry/base) and new (.device-carry/bin), unprofiled and profiled.
set -u
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib
B=$C/bin; A=$C/base
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "== test_gpu_gen (full)"; timeout 200 $B/test_gpu_gen | tail -2
echo "== test_gpu_multi quick (one GPU)"; timeout 200 $B/test_gpu_multi quick | tail -2
echo "== racecheck test_gpu_gen quick"; timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_gpu_gen quick | tail -2; echo "rc=$?"
echo "== memcheck test_gpu_gen (full)"; timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_gen | tail -2; echo "rc=$?"
N=170000
$B/init-floor $N 1
for kind in random congested; do
  for side in A B; do
    d=$A; [ $side = B ] && d=$B
    echo "== $side gen-bench $kind $N"; timeout 120 $d/gen-bench $kind $N
    echo "== $side solve $kind $N (unprofiled)"
    timeout 120 $d/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time -o /dev/null 2>&1 | grep -E "^(init|solve|total)" | tr '\n' ' '; echo
  done
  echo "== B solve $kind $N (profiled, verified)"
  BAMBOO_GPU_PROFILE=1 timeout 150 $B/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time --verify -o /dev/null 2>&1 | grep -E "profile|^(init|solve|total)|stable|rror" | head
done
