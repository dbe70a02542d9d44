#!/usr/bin/env bash
# Second call: man-major rank blocks (B = .device-carry/bin) against main before the rank
# blocks changed (A = .device-carry/base) and the first version, woman-major 3-byte blocks
# (V1 = .device-carry/v1). GPU tests of the new paths, then the initialisation at n = 170,000.
set -u
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib
B=$C/bin; A=$C/base; V1=$C/v1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "== test_gpu_gen (full)"; timeout 200 $B/test_gpu_gen | tail -2
echo "== test_gpu_scale (full)"; timeout 200 $B/test_gpu_scale | tail -1
echo "== test_gpu_multi quick"; BAMBOO_TEST_GPUS=0 timeout 150 $B/test_gpu_multi quick | tail -2; echo "rc=${PIPESTATUS[0]}"
echo "== test_gpu_multi (full, 120 s at most; the last case begun)"
BAMBOO_TEST_VERBOSE=1 timeout 120 $B/test_gpu_multi > /tmp/multi.out 2> /tmp/multi.err; echo "rc=$? cases begun: $(wc -l < /tmp/multi.err)"; tail -2 /tmp/multi.out; tail -1 /tmp/multi.err
echo "== memcheck test_gpu_gen quick"; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_gen quick | tail -2
echo "== memcheck test_gpu_scale quick"; timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_gpu_scale quick | tail -2
N=170000
for kind in random congested; do
  for run in 1 2; do
    for side in A V1 B; do
      d=$A; [ $side = V1 ] && d=$V1; [ $side = B ] && d=$B
      echo "== $side solve $kind $N run $run: $(timeout 120 $d/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time -o /dev/null 2>&1 | grep -E "^(init|solve|total)" | tr -s ' ' | tr '\n' ' ')"
    done
  done
  echo "== B solve $kind $N (profiled, verified)"
  BAMBOO_GPU_PROFILE=1 timeout 150 $B/bamboo-smp solve --gen $kind --n $N --gen-on gpu --time --verify -v -o /dev/null 2>&1 | grep -E "profile|blocks of|peak|^(init|solve|total)|stable|rror" | head
done
# Uniform lists are drawn as lists and scattered into the rank blocks (the path uploads take).
for side in A B; do
  d=$A; [ $side = B ] && d=$B
  echo "== $side solve uniform $N (profiled): $(BAMBOO_GPU_PROFILE=1 timeout 120 $d/bamboo-smp solve --gen uniform --n $N --gen-on gpu --time -o /dev/null 2>&1 | grep -E "profile|^(init|solve|total)" | tr -s ' ' | tr '\n' ' ')"
done
