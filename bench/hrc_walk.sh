#!/usr/bin/env bash
# Two bamboo-smp binaries' hrc-da-portfolio polish side by side (docs/hrc.md "Portfolio"): on the
# NRMP shape with 3,000 couples (`gen nrmp-couples --couples 3000 --seed S`), each binary runs
# `solve --algo hrc-da-portfolio --runs RUNS --threads 1 --polish 1000000000 --time-limit LIMIT -v`,
# the two at once (one core each, under nice), and `hrc check` counts the matching again. One
# markdown row per seed and binary: blocking pairs of the best run, after the polish, the
# checker's count, polish steps / moves / improvements, steps per second of polish, wall time.
#
# Environment: OLD, NEW (binaries; NEW defaults to build/tools/bamboo-smp), SEEDS ("3 6 7"),
# RUNS (1), LIMIT (300 s), OUT (folder for instances, logs and matchings; default temporary).
# Usage: OLD=/path/to/main/bamboo-smp bench/hrc_walk.sh > table.md
set -uo pipefail
NEW=${NEW:-build/tools/bamboo-smp}
OLD=${OLD:?set OLD to the binary to compare with}
SEEDS=${SEEDS:-"3 6 7"}
RUNS=${RUNS:-1}
LIMIT=${LIMIT:-300}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT" || exit 3

# solve_one BIN TAG INSTANCE: runs the solve, leaves TAG.log, TAG.m and TAG.t (wall seconds).
solve_one() {
  local t0 t1
  t0=$(date +%s.%N)
  nice "$1" solve "$3" --algo hrc-da-portfolio --runs "$RUNS" --threads 1 --polish 1000000000 \
    --time-limit "$LIMIT" -v -o "$OUT/$2.m" 2>"$OUT/$2.log"
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc >"$OUT/$2.t"
}

# row LABEL TAG INSTANCE: one markdown row from TAG's log and the checker.
row() {
  local line check runs_s
  line=$(grep '^hrc-da-portfolio: ' "$OUT/$2.log")
  check=$("$NEW" hrc check "$3" --matching "$OUT/$2.m" 2>&1 | awk '/^stable/ {print 0} /^not stable/ {print $3}')
  # The polish starts when the last run ends: the runs' times from -v, summed (one thread).
  runs_s=$(grep '^run [0-9]*:' "$OUT/$2.log" | grep -o '[0-9.]* ms' | awk '{s += $1} END {print s / 1000}')
  echo "$line" | awk -v label="$1" -v ck="$check" -v wall="$(cat "$OUT/$2.t")" -v runs_s="${runs_s:-0}" '
    {bp = ($2 == "stable,") ? $3 : $4
     for (i = 1; i <= NF; i++) {
       if ($i == "run" && $(i + 2) ~ /^[0-9]/) before = $(i + 2)
       if ($i == "polish:") {steps = $(i + 1); moves = $(i + 3); impr = $(i + 5)}
     }}
    END {ps = wall - runs_s; printf "| %s | %s | %s | %s | %s / %s / %s | %.0f | %.0f |\n", label, before, bp, ck,
         steps, moves, impr, (ps > 0 ? steps / ps : 0), wall}'
}

echo "| case, binary | best run bp | + polish bp | checker | polish steps / moves / improvements | steps/s | wall s |"
echo "|---|---|---|---|---|---|---|"
for seed in $SEEDS; do
  inst=$OUT/nrmp-couples-3000-s$seed.hrc
  "$NEW" gen nrmp-couples --couples 3000 --seed "$seed" -o "$inst" || exit 4
  solve_one "$OLD" "old-s$seed" "$inst" &
  solve_one "$NEW" "new-s$seed" "$inst" &
  wait
  row "s$seed, old" "old-s$seed" "$inst"
  row "s$seed, new" "new-s$seed" "$inst"
done
