#!/usr/bin/env bash
# Second device call of the session (2 x H200): the ties' deferred acceptance on the GPU, the
# initialisation's floor, multi-GPU proposals in rounds against the shared partner words, and
# the constraint's GPU path on one GPU against two. Carry .device-carry.tar.xz; from the
# repository root: tar xJf .device-carry.tar.xz && bash THIS_FILE [ties|floor|rounds|research]...
set -u
B=.device-carry/bin
export LD_LIBRARY_PATH=$PWD/.device-carry/lib
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
for what in "$@"; do
  case $what in
  ties)
    echo "### test_ties_da gpu"
    timeout 120 $B/test_ties_da gpu | tail -2
    echo "test_ties_da gpu: exit ${PIPESTATUS[0]}"
    $B/bamboo-smp gen school -o /tmp/school.hrt
    $B/bamboo-smp gen school --n 900000 --hospitals 7000 -o /tmp/school10.hrt 2>&1 | tail -1
    for f in /tmp/school.hrt /tmp/school10.hrt; do
      for da in gs-seq mw-par bamboo; do
        echo "$f da-stb --da $da: $($B/bamboo-smp solve $f --da $da --time -v -o /tmp/m.$da 2>&1 | tr '\n' ';')"
      done
      cmp /tmp/m.gs-seq /tmp/m.bamboo && cmp /tmp/m.gs-seq /tmp/m.mw-par && echo "$f: identical matchings"
    done
    ;;
  floor)
    echo "### the initialisation's floor"
    $B/init-floor 170000 1
    $B/init-floor 225000 2
    timeout 120 $B/gen-bench random 170000
    timeout 120 $B/gen-bench congested 170000
    BAMBOO_GPU_PROFILE=1 timeout 120 $B/bamboo-smp solve --gen random --n 170000 --gen-on gpu --time -o /dev/null 2>&1 |
      grep -v "^ *[0-9]" | tail -30
    ;;
  rounds)
    echo "### partner words shared on GPU 0 against rounds with a replica per GPU"
    for mode in shared rounds; do
      BAMBOO_GPU_MULTI_SOLVE=$mode BAMBOO_TEST_GPUS=0,1 timeout 150 $B/test_gpu_multi quick | tail -1
      echo "test_gpu_multi quick --gpus 0,1 ($mode): exit ${PIPESTATUS[0]}"
    done
    for sw in 64 256 4096; do
      echo "switch $sw: $(BAMBOO_GPU_PROFILE=1 BAMBOO_GPU_MULTI_SOLVE=rounds BAMBOO_GPU_ROUNDS_SWITCH=$sw $B/bamboo-smp solve \
        --gen random --n 100000 --gen-on gpu --gpus 0,1 --time -o /dev/null 2>&1 | grep -E "rounds n=|^solve" | tr '\n' ';')"
    done
    for n in 60000 100000; do
      for kind in random congested; do
        for run in 1 2; do
          for cfg in "shared 0" "shared 0,1" "rounds 0,1"; do
            set -- $cfg
            line=$(BAMBOO_GPU_MULTI_SOLVE=$1 $B/bamboo-smp solve --gen $kind --n $n --gen-on gpu --gpus $2 --verify \
              --time -o /dev/null 2>&1 | grep -E "^(init|solve|total|path|verified)" | tr -s ' ' | tr '\n' ';')
            echo "$kind n=$n --gpus $2 ($1): $line"
          done
        done
      done
    done
    ;;
  research)
    echo "### the constraint's GPU path, -p 4, on GPU 0 against GPUs 0,1"
    for g in 0 0,1; do
      PATHS=gpu GECODE=0 SIZES="${SIZES:-256 1024 2048}" LIMIT=${LIMIT:-20} MODELS=${MODELS:-sex_equal} \
        BAMBOO_FLAGS="-p 4 --fzn-flag --gpus --fzn-flag $g" timeout 300 bash bench/smc_device.sh research | tail -9
    done
    ;;
  esac
done
