#!/usr/bin/env bash
# Large neighbourhood search through MiniZinc: bamboo against Gecode on the models of
# bench/lns/ (relax_and_reconstruct + restarts), each with the time limit and seeds given; the
# best cost each reaches, as a markdown table. Needs the build tree's bamboo.msc
# (MZN_SOLVER_PATH=build/minizinc/solvers) and minizinc with Gecode.
#   bench/lns.sh [SECONDS] [SEEDS]      default: 4 "1 2 3"
set -u
cd "$(dirname "$0")/.."
secs=${1:-4}
seeds=${2:-1 2 3}
export MZN_SOLVER_PATH=${MZN_SOLVER_PATH:-build/minizinc/solvers}
echo "| model | seed | bamboo | gecode | bamboo without LNS |"
echo "|---|---:|---:|---:|---:|"
for m in bench/lns/*.mzn; do
  plain=$(mktemp --suffix=.mzn)
  sed 's/ :: relax_and_reconstruct([^)]*)//' "$m" >"$plain"
  for s in $seeds; do
    best() { minizinc --solver "$1" -t $((secs * 1000)) -r "$s" "$2" 2>/dev/null | sed -n 's/^cost = //p' | tail -1; }
    echo "| $(basename "$m") | $s | $(best bamboo "$m") | $(best gecode "$m") | $(best bamboo "$plain") |"
  done
  rm -f "$plain"
done
