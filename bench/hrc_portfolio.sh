#!/usr/bin/env bash
# Blocking pairs of hrc-da against hrc-da-portfolio (and its polish) on the HRC instances where
# hrc-da ends unstable (docs/hrc.md "Portfolio"; the cases: bench/results/hrc-da-failure-2026-11-28.md
# and the NRMP shape with 3,000 couples). For each case it generates the instance, solves it with
# `solve --algo hrc-da` and with `solve --algo hrc-da-portfolio --runs RUNS --threads THREADS
# --seed SEED --polish POLISH`, checks both matchings with `hrc check` (the independent count
# must equal the solver's), and prints one markdown row: hrc-da's blocking pairs, the portfolio's
# best before the polish (and which run), after it, matched residents, and the wall times.
#
# Environment: BIN (default build/tools/bamboo-smp), RUNS (8), THREADS (0: all CPUs), SEED (1),
# POLISH (300 steps), TIME_LIMIT (seconds a solve, 900), CASES (which groups: "nrmp mallows
# preset", all by default), OUT (folder for instances, matchings and raw lines; default a
# temporary one; the raw lines stay in $OUT/runs.txt).
# Usage: bench/hrc_portfolio.sh > table.md
set -uo pipefail
RUNS=${RUNS:-8}
THREADS=${THREADS:-0}
SEED=${SEED:-1}
POLISH=${POLISH:-300}
TIME_LIMIT=${TIME_LIMIT:-900}
CASES=${CASES:-"nrmp mallows preset"}
. "$(dirname "$0")/hrc_bench_env.sh" # BIN, OUT
RAW=$OUT/runs.txt
: >"$RAW"

# checked INSTANCE MATCHING: the checker's count of blocking pairs, or "error".
checked() {
  local line
  line=$("$BIN" hrc check "$1" --matching "$2" 2>&1)
  case $line in
  stable*) echo 0 ;;
  "not stable: "*) echo "$line" | awk '{print $3}' ;;
  *) echo error ;;
  esac
}

# one LABEL GEN_ARGS...: one instance; prints its row and appends the raw line to $RAW.
one() {
  local label=$1
  shift
  local inst=$OUT/$label.hrc
  if ! "$BIN" gen "$@" -o "$inst" 2>"$OUT/err.txt"; then
    echo "gen $* failed: $(cat "$OUT/err.txt")" >&2
    return
  fi
  local t0 t1 t2 da_log pf_log
  t0=$(date +%s.%N)
  "$BIN" solve "$inst" --time-limit "$TIME_LIMIT" -o "$OUT/$label.da" 2>"$OUT/$label.da.log"
  t1=$(date +%s.%N)
  "$BIN" solve "$inst" --algo hrc-da-portfolio --runs "$RUNS" --threads "$THREADS" --seed "$SEED" \
    --polish "$POLISH" --time-limit "$TIME_LIMIT" -v -o "$OUT/$label.pf" 2>"$OUT/$label.pf.log"
  t2=$(date +%s.%N)
  da_log=$(grep '^hrc-da: ' "$OUT/$label.da.log")
  pf_log=$(grep '^hrc-da-portfolio: ' "$OUT/$label.pf.log")
  local da_bp da_ck pf_bp pf_ck
  da_bp=$(echo "$da_log" | awk '{print ($2 == "stable,") ? $3 : $4}')
  pf_bp=$(echo "$pf_log" | awk '{print ($2 == "stable,") ? $3 : $4}')
  da_ck=$(checked "$inst" "$OUT/$label.da")
  pf_ck=$(checked "$inst" "$OUT/$label.pf")
  echo "$label | $da_log | $pf_log | checker $da_ck $pf_ck | s $t0 $t1 $t2" >>"$RAW"
  echo "$pf_log" | awk -v label="$label" -v da="$da_bp" -v dack="$da_ck" -v pf="$pf_bp" -v pfck="$pf_ck" \
    -v tda="$(echo "$t1 - $t0" | bc)" -v tpf="$(echo "$t2 - $t1" | bc)" '
    {for (i = 1; i <= NF; i++) {
       if ($(i + 1) == "matched;") m = $i
       if ($i == "run" && $(i + 2) ~ /^[0-9]/) {best = $(i + 1); sub(",", "", best); before = $(i + 2)}
     }}
    END {agree = (da == dack && pf == pfck) ? "yes" : "NO"
         printf "| %s | %s | %s (run %s) | %s | %s | %.1f | %.1f | %s |\n", label, da, before, best, pf, m, tda, tpf, agree}'
}

echo "| case | hrc-da bp | portfolio bp (best run) | + polish bp | matched | hrc-da s | portfolio+polish s | checker agrees |"
echo "|---|---|---|---|---|---|---|---|"
for group in $CASES; do
  case $group in
  nrmp)
    for seed in 3 6 7; do one "nrmp-couples-3000-s$seed" nrmp-couples --couples 3000 --seed "$seed"; done ;;
  mallows)
    for seed in 19 15 18 10; do
      one "mallows-1000-0.9-0.5-s$seed" hrc-mallows --n 1000 --hospitals 100 --couples 200 --lists 5 10 \
        --phi-residents 0.9 --phi-hospitals 0.5 --seed "$seed"
    done
    for seed in 15 6; do
      one "mallows-1000-0.97-0.5-s$seed" hrc-mallows --n 1000 --hospitals 100 --couples 200 --lists 5 10 \
        --phi-residents 0.97 --phi-hospitals 0.5 --seed "$seed"
    done
    one "mallows-5000-0.9-s2" hrc-mallows --n 5000 --hospitals 500 --couples 1000 --lists 3 5 \
      --phi-residents 0.9 --phi-hospitals 0.9 --seed 2 ;;
  preset)
    one "nrmp-2024-0.9995-0.5-s2" nrmp-2024 --phi-residents 0.9995 --phi-hospitals 0.5 --seed 2
    one "nrmp-2024-0.999-0.7-s10" nrmp-2024 --phi-residents 0.999 --phi-hospitals 0.7 --seed 10 ;;
  *) echo "unknown case group '$group'" >&2 ;;
  esac
done
rm -f "$OUT/err.txt"
