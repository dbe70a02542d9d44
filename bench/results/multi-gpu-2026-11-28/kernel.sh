#!/usr/bin/env bash
# The partitions with the single-GPU proposal kernel (look-ahead and storm steps) against the
# partitions' earlier plain kernel, and one GPU before and after the kernel became shared.
# Carry .device-carry.tar.xz (new) and .device-prev.tar.xz (before); from the repository root:
#   mkdir -p prev && tar xJf .device-prev.tar.xz -C prev && tar xJf .device-carry.tar.xz && bash THIS_FILE
set -u
run() { # TREE ARGS...: one solve's phase times on one line
  local d=$1
  shift
  LD_LIBRARY_PATH=$PWD/$d/lib "$d/bin/bamboo-smp" solve "$@" --time -o /dev/null 2>&1 |
    grep -E "^(init|solve|total|path) " | tr -s ' ' | tr '\n' ';'
}
export LD_LIBRARY_PATH=$PWD/.device-carry/lib
BAMBOO_TEST_GPUS=0,1 timeout 150 .device-carry/bin/test_gpu_multi quick | tail -1
timeout 100 .device-carry/bin/test_gpu quick | tail -1
for n in 60000 100000; do
  for kind in random congested; do
    for round in 1 2; do
      echo "$kind n=$n one GPU, new: $(run .device-carry --gen $kind --n $n --gen-on gpu --gpus 0)"
      echo "$kind n=$n two GPUs, before: $(run prev/.device-carry --gen $kind --n $n --gen-on gpu --gpus 0,1)"
      echo "$kind n=$n two GPUs, new: $(run .device-carry --gen $kind --n $n --gen-on gpu --gpus 0,1)"
    done
  done
done
for round in 1 2; do
  for tree in prev/.device-carry .device-carry; do
    echo "### one GPU, bench, $tree round $round"
    LD_LIBRARY_PATH=$PWD/$tree/lib "$tree/bin/bamboo-smp" bench --algos bamboo --kinds solo,congested,random \
      --n 30000 --runs 5 2>&1 | grep '^| 3'
  done
done
