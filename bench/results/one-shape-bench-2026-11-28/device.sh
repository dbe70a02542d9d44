#!/usr/bin/env bash
# Before and after the one-shape refactor in one call on a GPU host: the engine
# (bamboo-smp bench, GPU algorithms) and the constraint on every path (smc-gpu-bench),
# from base/.device-carry (the tree before) and .device-carry (the tree after), each
# twice and interleaved so that drift of the machine shows as a difference between rounds.
# Carry both bundles (bench/device_bundle.sh --xz); run from the repository root:
#   mkdir -p base && tar xJf .device-base.tar.xz -C base && tar xJf .device-carry.tar.xz &&
#   bash bench/results/one-shape-bench-2026-11-28/device.sh
set -u
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
for round in 1 2; do
  for tree in before after; do
    d=.device-carry
    [ "$tree" = before ] && d=base/.device-carry
    export LD_LIBRARY_PATH=$PWD/$d/lib
    "$d/bin/bamboo-smp" bench --algos bamboo,gpu-la-min,gpu-mw-cas --n 10000,20000 --runs 3 \
      --csv "$OUT/engine-$tree-$round.csv" >"$OUT/engine-$tree-$round.md" 2>"$OUT/engine-$tree-$round.err"
    echo "engine $tree round $round: exit $?"
    "$d/bin/smc-gpu-bench" --n 1000 --instances 3 --nodes 200 --paths cpu,gpu,auto --seed 1 \
      --csv "$OUT/constraint-$tree-$round.csv" >"$OUT/constraint-$tree-$round.md" 2>"$OUT/constraint-$tree-$round.err"
    echo "constraint $tree round $round: exit $?"
  done
done
