#!/usr/bin/env bash
# Is the engine's GPU path as fast after the one-shape refactor as before? Four rounds,
# before and after interleaved in each, so that drift of the machine shows as a spread
# between rounds of one tree rather than as a difference between trees. Also the phase
# times of one perfect-case solve per tree and round (where a single sample differed).
# Carry both bundles (bench/device_bundle.sh --xz); from the repository root:
#   mkdir -p base && tar xJf .device-base.tar.xz -C base && tar xJf .device-carry.tar.xz &&
#   bash bench/results/one-shape-noise-2026-11-28/device.sh
set -u
ROUNDS=${ROUNDS:-4}
for round in $(seq 1 "$ROUNDS"); do
  for tree in before after; do
    d=.device-carry
    [ "$tree" = before ] && d=base/.device-carry
    export LD_LIBRARY_PATH=$PWD/$d/lib
    echo "### engine $tree round $round"
    "$d/bin/bamboo-smp" bench --algos bamboo,gpu-la-min,gpu-mw-cas --kinds perfect,random,congested \
      --n 10000,20000 --runs 5 --max-seconds 5 2>&1 | grep '^|'
    echo "### phases $tree round $round"
    "$d/bin/bamboo-smp" solve --gen perfect --n 10000 --algo gpu-la-min --time -o /dev/null 2>&1 |
      tr -s ' ' | tr '\n' ';'
    echo
    echo "### constraint $tree round $round"
    "$d/bin/smc-gpu-bench" --n 1000 --instances 3 --nodes 200 --paths cpu,gpu,auto --seed 1 2>&1 | grep '^result'
  done
done
