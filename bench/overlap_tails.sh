#!/usr/bin/env bash
# bamboo's one-block GPU tail variants on solo (BAMBOO_GPU_TAIL), from the instance and with --pinned.
for v in keys16 keys32 global16 global8; do
  echo "== $v"
  BAMBOO_GPU_TAIL=$v ./bamboo-smp bench --algos bamboo --kinds solo --n 30000,10000 --runs 3 2>/dev/null | grep "^| [0-9]"
done
for v in keys16 global16; do
  echo "== $v --pinned"
  BAMBOO_GPU_TAIL=$v ./bamboo-smp bench --algos bamboo --pinned --kinds solo --n 30000,10000 --runs 3 2>/dev/null | grep "^| [0-9]"
done
