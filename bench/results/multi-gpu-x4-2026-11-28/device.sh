#!/usr/bin/env bash
# Four GPUs: the partition tests on distinct devices (racecheck too), the largest n over four
# GPUs with the plan against the measured peak, and one, two and four GPUs at n = 60,000 and
# 100,000. Carry .device-carry.tar.xz (bench/device_bundle.sh --xz); from the repository root:
#   tar xJf .device-carry.tar.xz && bash THIS_FILE [tests|largest|speed]...
set -u
B=.device-carry/bin
export LD_LIBRARY_PATH=$PWD/.device-carry/lib
nvidia-smi --query-gpu=index,name,memory.total,memory.free --format=csv,noheader
for what in "$@"; do
  if [ "$what" = tests ]; then
    nvidia-smi topo -m | head -6
    echo "### tests"
    BAMBOO_TEST_GPUS=0,1,2,3 timeout 150 $B/test_gpu_multi quick | tail -2
    echo "test_gpu_multi quick --gpus 0,1,2,3: exit ${PIPESTATUS[0]}"
    BAMBOO_TEST_GPUS=0,1 timeout 240 compute-sanitizer --tool racecheck --error-exitcode 9 \
      $B/test_gpu_multi quick 2>&1 | tail -3
    echo "racecheck test_gpu_multi quick --gpus 0,1: exit ${PIPESTATUS[0]}"
  fi
  if [ "$what" = largest ]; then
    N=${N:-320000}
    for kind in ${KINDS:-random congested}; do
      echo "### $kind n=$N --gpus 0,1,2,3"
      $B/bamboo-smp plan --n $N --gpus 0,1,2,3 --gen-on gpu --verify | grep -E "^(memory plan|peak|fits)"
      timeout ${LIMIT:-200} $B/bamboo-smp solve --gen $kind --n $N \
        --gen-on gpu --gpus 0,1,2,3 --verify --time -v -o /dev/null 2>&1 | grep -v "^ *[0-9]" | tail -24
    done
  fi
  if [ "$what" = speed ]; then
    echo "### one GPU against two and four (lists generated on the GPUs; phase ms)"
    for n in 60000 100000; do
      for kind in random congested; do
        for g in 0 0,1 0,1,2,3 0 0,1 0,1,2,3; do
          line=$($B/bamboo-smp solve --gen $kind --n $n --gen-on gpu --gpus $g --time -o /dev/null 2>&1 |
            grep -E "^(transfer|init|solve|total|path) " | tr -s ' ' | tr '\n' ';')
          echo "$kind n=$n --gpus $g: $line"
        done
      done
    done
  fi
done
