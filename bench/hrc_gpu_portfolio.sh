#!/usr/bin/env bash
# The portfolio of couples-aware deferred acceptances (docs/hrc.md, "Portfolio") on the CPU's
# cores and on one GPU: runs per second and the best run's blocking pairs on the NRMP-shaped
# instance (`gen nrmp-couples --couples 3000`, seeds 6, 3 and 7, or GEN), and whether both gave the
# same matching (they must: the GPU runs the CPU's runs).
#
#   bench/hrc_gpu_portfolio.sh [BAMBOO_SMP]      default: build/tools/bamboo-smp
#
# Environment: GEN (the generator and its options, without --seed; default "nrmp-couples
# --couples 3000"), NAME (the instances' file prefix, default nrmp), SEEDS (default "6 3 7"),
# RUNS ("1000 10000"), ROUNDS (repair rounds of each strategy, --rounds; default 100, the
# solver's), SIDES ("cpu gpu"), GPU (device, 0), THREADS
# (CPU threads, 0 = all), LIMIT (seconds a solve may take, default 600; one past it is
# reported as cut, not measured), OUT (folder for instances and matchings, /tmp/hrc-gpu-bench).
# Prints a markdown table on stdout: seconds are the solve command's wall time, reading the
# instance included; the polish is off, so the counts are the runs' own.
set -uo pipefail
BIN=${1:-build/tools/bamboo-smp}
GEN=${GEN:-nrmp-couples --couples 3000}
NAME=${NAME:-nrmp}
SEEDS=${SEEDS:-6 3 7}
RUNS=${RUNS:-1000 10000}
ROUNDS=${ROUNDS:-100}
SIDES=${SIDES:-cpu gpu}
GPU=${GPU:-0}
THREADS=${THREADS:-0}
LIMIT=${LIMIT:-600}
OUT=${OUT:-/tmp/hrc-gpu-bench}
mkdir -p "$OUT"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "CPU: $(nproc) cores; gen $GEN; --rounds $ROUNDS; limit $LIMIT s a solve"
echo
echo "| seed | runs | side | seconds | runs/s | best blocking pairs | best run | matched | same matching |"
echo "|---|---|---|---|---|---|---|---|---|"
for seed in $SEEDS; do
  inst=$OUT/$NAME-$seed.hrc
  # shellcheck disable=SC2086 # GEN is a word list on purpose
  [ -s "$inst" ] || "$BIN" gen $GEN --seed "$seed" -o "$inst" 2>/dev/null || exit 1
  for runs in $RUNS; do
    for side in $SIDES; do
      where=(--threads "$THREADS")
      [ "$side" = gpu ] && where=(--gpus "$GPU")
      match=$OUT/m-$NAME-$seed-$runs-$side.txt
      t0=$(date +%s.%N)
      timeout "$LIMIT" "$BIN" solve "$inst" --algo hrc-da-portfolio --runs "$runs" --rounds "$ROUNDS" --seed 1 \
        "${where[@]}" -o "$match" 2>"$OUT/err"
      rc=$?
      t1=$(date +%s.%N)
      if [ "$rc" -ne 0 ]; then
        why="exit $rc"; [ "$rc" -eq 124 ] && why="cut at $LIMIT s"
        echo "| $seed | $runs | $side | $why | | | | | |"
        tail -1 "$OUT/err" >&2
        continue
      fi
      line=$(grep '^hrc-da-portfolio:' "$OUT/err")
      best=$(sed -n 's/.*best of [0-9]* runs[a-zA-Z ]*: run \([0-9]*\), \([0-9]*\) blocking pairs.*/\2 | \1/p' <<<"$line")
      matched=$(sed -n 's/.*; \([0-9]*\) matched;.*/\1/p' <<<"$line")
      same=""
      other=$OUT/m-$NAME-$seed-$runs-cpu.txt
      if [ "$side" = gpu ] && [ -s "$other" ]; then
        if cmp -s "$match" "$other"; then same=yes; else same=NO; fi
      fi
      awk -v s="$seed" -v r="$runs" -v side="$side" -v a="$t0" -v b="$t1" -v best="$best" -v m="$matched" \
        -v same="$same" 'BEGIN { t = b - a; printf "| %s | %s | %s | %.1f | %.1f | %s | %s | %s |\n", s, r, side, t, r / t, best, m, same }'
    done
  done
done
