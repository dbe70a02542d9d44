#!/usr/bin/env bash
# A/B on a GPU host: the engine (`bamboo-smp bench`) and the constraint (`smc-gpu-bench`)
# with two sets of binaries, in one call, interleaved (A, B, A, B) so that drift of the machine
# lands on both. Made for changes that must not change speed (a restructuring).
#
#   bench/ab_device.sh DIR_A DIR_B
#
# Each DIR holds bamboo-smp and smc-gpu-bench (built here with CUDA, carried along), and the
# Gecode libraries they load are in .device-carry/lib (bench/device_bundle.sh). Tables go to
# $OUT (or /tmp/bamboo-out): engine-{A,B}-{1,2}.md and smc-{A,B}-{1,2}.csv, and a summary of
# the constraint's median ms per propagation by path and phase is printed last.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
A=${1:?DIR_A}; B=${2:?DIR_B}
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export BAMBOO_CALIBRATION=${BAMBOO_CALIBRATION:-/tmp/bamboo-calibration/calibration.txt}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
for round in 1 2; do
  for side in A B; do
    dir=$A; [ "$side" = B ] && dir=$B
    "$dir/bamboo-smp" bench --algos bamboo,gpu-la-min,la-seq --kinds congested,random,solo --n 10000,30000 \
      --runs 5 --markdown "$OUT/engine-$side-$round.md" > /dev/null 2> "$OUT/engine-$side-$round.err"
    echo "engine $side round $round: rc=$?"
    "$dir/smc-gpu-bench" --n 2400 --instances 5 --nodes 100 --paths cpu,gpu,auto --seed 1 \
      --csv "$OUT/smc-$side-$round.csv" 2> "$OUT/smc-$side-$round.err"
    echo "smc $side round $round: rc=$?"
  done
done
# Engine: the median total ms of each row, A and B side by side (round 2).
paste -d'|' "$OUT/engine-A-2.md" "$OUT/engine-B-2.md" | awk -F'|' 'NR>2 {printf "%s %s %s: solve A %s B %s, total A %s B %s\n", $2, $3, $4, $5, $14, $6, $15}'
# Constraint: median t_total (ms) per path and phase (root / search), and the result rows'
# fingerprints, which must agree between A and B.
for f in "$OUT"/smc-[AB]-2.csv; do
  echo "== $(basename "$f")"
  awk -F, '$1=="prop" {k=$4" "$6; v[k]=v[k]" "$20} END {for (k in v) print k, v[k]}' "$f" |
    while read -r path phase rest; do
      echo "$rest" | tr ' ' '\n' | sort -g | awk -v p="$path" -v ph="$phase" '{a[NR]=$1} END {printf "%s %s: %d propagations, median %.3f ms\n", p, ph, NR, a[int((NR+1)/2)]}'
    done | sort
  grep "^result" "$f" | cut -d, -f2-5,8- | md5sum
done
