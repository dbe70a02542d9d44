#!/usr/bin/env bash
# One GPU before and after the shared kernel read rows by offset again, then the GPU suite.
# Carry .device-carry.tar.xz (new) and .device-prev.tar.xz (before); from the repository root:
#   mkdir -p prev && tar xJf .device-prev.tar.xz -C prev && tar xJf .device-carry.tar.xz && bash THIS_FILE
set -u
for round in 1 2; do
  for tree in prev/.device-carry .device-carry; do
    echo "### one GPU, bench, $tree round $round"
    LD_LIBRARY_PATH=$PWD/$tree/lib "$tree/bin/bamboo-smp" bench --algos bamboo --kinds solo,congested,random \
      --n 30000 --runs 5 2>&1 | grep '^| 3'
  done
done
export LD_LIBRARY_PATH=$PWD/.device-carry/lib
BAMBOO_TEST_GPUS=0,1 timeout 100 .device-carry/bin/test_gpu_multi quick | tail -1
SKIP_SLOW=1 timeout 440 bash bench/smc_device.sh test 2>&1 | tail -30
