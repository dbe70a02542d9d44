#!/usr/bin/env bash
# Fourth call: the rank blocks hold 3-byte rank rows and no women's lists (generated women
# drawn as rank rows; uploaded ones through a block of lists). GPU tests of the new paths,
# then the initialisation at n = 170,000 on one GPU, baseline (.device-carry/base) and new
# (.device-carry/bin), unprofiled (two runs each, interleaved) and profiled.
#   device4.sh tests | device4.sh bench   (two calls: each fits the device tool's 10 minutes)
set -u
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib
B=$C/bin; A=$C/base
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
if [ "${1:-}" = tests ]; then
echo "== test_gpu_gen (full)"; timeout 400 $B/test_gpu_gen | tail -3
echo "== test_gpu_scale (full)"; timeout 300 $B/test_gpu_scale | grep -E "plan|FAIL|passed" | tail -40
echo "== test_gpu_multi"; timeout 300 $B/test_gpu_multi | tail -2
echo "== memcheck test_gpu_gen quick"; timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_gen quick | tail -2; echo "rc=$?"
echo "== memcheck test_gpu_scale quick"; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_scale quick | tail -2; echo "rc=$?"
exit 0
fi
N=170000
for kind in random congested; do
  for run in 1 2; do
    for side in A B; do
      d=$A; [ $side = B ] && d=$B
      echo "== $side solve $kind $N run $run: $(timeout 120 $d/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time -o /dev/null 2>&1 | grep -E "^(init|solve|total)" | tr -s ' ' | tr '\n' ' ')"
    done
  done
  echo "== B solve $kind $N (profiled, verified)"
  BAMBOO_GPU_PROFILE=1 timeout 150 $B/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time --verify -v -o /dev/null 2>&1 | grep -E "profile|blocks of|peak|^(init|solve|total)|stable|rror" | head
done
