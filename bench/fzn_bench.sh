#!/usr/bin/env bash
# End-to-end stable marriage through MiniZinc: `minizinc --solver bamboo` (native
# constraint) against the decomposition under `--solver gecode`, random complete
# instances, first solution and all solutions, with flattening, fzn-bamboo's parse+post
# and search split out. Prints a markdown table.
#   bench/fzn_bench.sh [BUILD_DIR] [SIZES] [GECODE_MAX_N]
# defaults: build, "100 200 400 1000 2400", 200 (the decomposition's flattening grows fast:
# the issue measured 109 s at n = 400).
set -euo pipefail
BUILD=${1:-build}
SIZES=${2:-100 200 400 1000 2400}
GECODE_MAX=${3:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export MZN_SOLVER_PATH="$BUILD/minizinc/solvers"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
model="$ROOT/models/stable_marriage.mzn"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
stat_of() { grep -m1 "mzn-stat: $1=" "$2" | cut -d= -f2; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; date: $(date -u +%Y-%m-%d); commit: $(git -C "$ROOT" rev-parse --short HEAD); minizinc $(minizinc --version | grep -o 'version [0-9.]*' | cut -d' ' -f2)"
echo
echo "| n | solver | flatten s | fzn-bamboo parse+post s | first solution: total s | all solutions: total s | solutions | peak RSS MiB (fzn-bamboo) |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for n in $SIZES; do
  python3 "$ROOT/models/gen_smp.py" "$n" --seed 1 -o "$work/d$n.dzn"
  # bamboo: flatten, then the interpreter on the same FlatZinc, then end to end.
  t0=$(now); minizinc --solver bamboo -c "$model" "$work/d$n.dzn" -o "$work/b$n.fzn" --output-paths-to-file "$work/b$n.paths" >/dev/null; t1=$(now)
  flatten=$(secs "$t0" "$t1")
  /usr/bin/time -f "%M" -o "$work/rss" "$BUILD/minizinc/fzn-bamboo" -s "$work/b$n.fzn" > "$work/first.out" 2>/dev/null
  init=$(stat_of initTime "$work/first.out")
  rss=$(awk '{ printf "%.0f", $1 / 1024 }' "$work/rss")
  t0=$(now); minizinc --solver bamboo "$model" "$work/d$n.dzn" > /dev/null 2>&1; t1=$(now)
  first=$(secs "$t0" "$t1")
  t0=$(now); minizinc --solver bamboo -a "$model" "$work/d$n.dzn" 2>/dev/null > "$work/all.out"; t1=$(now)
  all=$(secs "$t0" "$t1")
  sols=$(grep -c -- '^----------' "$work/all.out" || true)
  printf '| %s | bamboo | %s | %.2f | %s | %s | %s | %s |\n' "$n" "$flatten" "$init" "$first" "$all" "$sols" "$rss"
  if [ "$n" -le "$GECODE_MAX" ]; then
    t0=$(now); minizinc --solver gecode -I "$ROOT/minizinc/decomposition" -c "$model" "$work/d$n.dzn" -o "$work/g$n.fzn" >/dev/null 2>&1; t1=$(now)
    gflat=$(secs "$t0" "$t1")
    t0=$(now); minizinc --solver gecode -I "$ROOT/minizinc/decomposition" "$model" "$work/d$n.dzn" > /dev/null 2>&1; t1=$(now)
    gfirst=$(secs "$t0" "$t1")
    t0=$(now); minizinc --solver gecode -I "$ROOT/minizinc/decomposition" -a "$model" "$work/d$n.dzn" 2>/dev/null > "$work/gall.out"; t1=$(now)
    gall=$(secs "$t0" "$t1")
    gsols=$(grep -c -- '^----------' "$work/gall.out" || true)
    printf '| %s | gecode (decomposition) | %s | - | %s | %s | %s | - |\n' "$n" "$gflat" "$gfirst" "$gall" "$gsols"
  fi
done
