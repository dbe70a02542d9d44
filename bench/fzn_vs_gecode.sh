#!/usr/bin/env bash
# fzn-bamboo against Gecode's own FlatZinc interpreter (fzn-gecode) on the same FlatZinc
# files (bench/fzn_models/*.fzn, flattened with MiniZinc's standard library so that both
# read them), all solutions / proven optimum, median wall time of 3 runs each. Also the
# free-search (-f) default measured over the same files.
#   bench/fzn_vs_gecode.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
bamboo="$BUILD/minizinc/fzn-bamboo"
median3() { # command... -> median wall seconds of 3 runs
  local ts=()
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; t1=$(date +%s.%N)
    ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
  done
  printf '%s\n' "${ts[@]}" | sort -n | sed -n 2p
}
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; date: $(date -u +%Y-%m-%d); commit: $(git -C "$ROOT" rev-parse --short HEAD)"
echo
echo "| model | fzn-gecode -a s | fzn-bamboo -a s | ratio | nodes (gecode / bamboo) |"
echo "|---|---:|---:|---:|---|"
for f in "$ROOT"/bench/fzn_models/*.fzn; do
  name=$(basename "$f" .fzn)
  g=$(median3 fzn-gecode -a "$f")
  b=$(median3 "$bamboo" -a "$f")
  # (whole outputs first: grep -m1 on a pipe would kill the solver with SIGPIPE under pipefail)
  gn=$(fzn-gecode -a -s "$f" 2>/dev/null > "$f.stats" || true; grep -m1 'mzn-stat: nodes=' "$f.stats" | cut -d= -f2)
  bn=$("$bamboo" -a -s "$f" 2>/dev/null > "$f.stats" || true; grep -m1 'mzn-stat: nodes=' "$f.stats" | cut -d= -f2)
  rm -f "$f.stats"
  printf '| %s | %s | %s | %s | %s / %s |\n' "$name" "$g" "$b" "$(awk -v a="$g" -v b="$b" 'BEGIN { printf "%.2f", b / a }')" "$gn" "$bn"
done
echo
echo "Free search (-f -a), seconds, 20 s cap, by the variable choice of bamboo's default int branching:"
echo
echo "| variable choice | $(for f in "$ROOT"/bench/fzn_models/*.fzn; do printf '%s | ' "$(basename "$f" .fzn)"; done)"
echo "|---|$(for f in "$ROOT"/bench/fzn_models/*.fzn; do printf -- '---:|'; done)"
for v in first_fail afc_size_max dom_w_deg input_order smallest; do
  row="| $v |"
  for f in "$ROOT"/bench/fzn_models/*.fzn; do
    t0=$(date +%s.%N); FZN_BAMBOO_FREE_VAR=$v timeout 20 "$bamboo" -f -a "$f" > /dev/null 2>&1 || true; t1=$(date +%s.%N)
    row="$row $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') |"
  done
  echo "$row"
done
