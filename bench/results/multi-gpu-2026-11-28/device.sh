#!/usr/bin/env bash
# Staged partitions on two GPUs: the GPU tests with the partitions on distinct devices, the
# solve on one GPU against two at n = 60,000 and 100,000, and the largest n over two GPUs with
# the plan against the measured peak. Carry .device-carry.tar.xz (bench/device_bundle.sh --xz);
# from the repository root: tar xJf .device-carry.tar.xz && bash THIS_FILE [tests|speed|largest]
set -u
B=.device-carry/bin
export LD_LIBRARY_PATH=$PWD/.device-carry/lib
what=${1:-tests}
nvidia-smi --query-gpu=index,name,memory.total,memory.free --format=csv,noheader
if [ "$what" = tests ]; then
  echo "### tests"
  BAMBOO_TEST_GPUS=0,1 timeout 150 $B/test_gpu_multi quick | tail -3; echo "test_gpu_multi quick --gpus 0,1: exit ${PIPESTATUS[0]}"
  timeout 150 $B/test_gpu_multi quick | tail -3; echo "test_gpu_multi quick --gpus 0,0: exit ${PIPESTATUS[0]}"
  timeout 150 $B/test_gpu_gen quick | tail -3; echo "test_gpu_gen quick: exit ${PIPESTATUS[0]}"
  BAMBOO_TEST_GPUS=0,1 timeout 100 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
    $B/test_gpu_multi quick 2>&1 | tail -4; echo "memcheck test_gpu_multi quick --gpus 0,1: exit ${PIPESTATUS[0]}"
fi
if [ "$what" = speed ]; then
  echo "### one GPU against two (lists generated on the GPUs; phase ms)"
  for n in 60000 100000; do
    for kind in random congested; do
      for g in 0 0,1 0 0,1; do
        line=$($B/bamboo-smp solve --gen $kind --n $n --gen-on gpu --gpus $g --time -o /dev/null 2>&1 |
          grep -E "^(transfer|init|solve|total|path) " | tr -s ' ' | tr '\n' ';')
        echo "$kind n=$n --gpus $g: $line"
      done
    done
  done
fi
if [ "$what" = largest ]; then
  N=${N:-225000}
  for kind in ${KINDS:-random congested}; do
    echo "### $kind n=$N --gpus 0,1"
    $B/bamboo-smp plan --n $N --gpus 0,1 --gen-on gpu --verify | grep -E "^(memory plan|peak|fits)"
    timeout ${LIMIT:-270} $B/bamboo-smp solve --gen $kind --n $N \
      --gen-on gpu --gpus 0,1 --verify --time -v -o /dev/null 2>&1 | grep -v "^ *[0-9]" | tail -22
  done
fi
