#!/usr/bin/env bash
# The Stable Marriage constraint on the CPU (through Gecode): root propagation and the
# enumeration of every stable matching, random complete instances, one process per run so
# that peak RSS is that run's. Prints a markdown table.
#   bench/smc.sh [BUILD_DIR] [SIZES]     defaults: build, "100 1000 2400 5000"
# Men-proposing enumerates only up to n = 100: with the weaker pruning, search fails a lot
# (n = 1000: 317640 failures, 56 s), which is the point of the gs-lists default.
set -euo pipefail
BUILD=${1:-build}
SIZES=${2:-100 1000 2400 5000}
bench="$BUILD/bench/smc-bench"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; date: $(date -u +%Y-%m-%d); commit: $(git rev-parse --short HEAD)"
echo
"$bench" --header --n 1 --no-enumerate --strength gs-lists | head -2
for n in $SIZES; do
  for seed in 1 2 3; do
    "$bench" --n "$n" --seed "$seed" --strength gs-lists
    if [ "$n" -le 100 ]; then
      "$bench" --n "$n" --seed "$seed" --strength men-proposing
    else
      "$bench" --n "$n" --seed "$seed" --strength men-proposing --no-enumerate
    fi
  done
done
