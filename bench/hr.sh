#!/usr/bin/env bash
# SMI/HR benchmarks of bamboo-smp: each row is one instance x algorithm x side, run RUNS times;
# the table gives the medians of the phases --time prints. "from memory" is init + transfer +
# solve + post: everything after the instance is in memory (ranking included), which is what
# the issue's targets count; "input" is reading the file.
#   bench/hr.sh cpu   the NRMP preset on one core, and SMI/HR at moderate sizes on the CPU
#   bench/hr.sh gpu   SMI n = 1,000,000 with k = 100 and large HR on every algorithm
# Environment: SMP (default build/tools/bamboo-smp), RUNS (default 5), WORK (instance files),
# OUT (logs). Prints a markdown table; the per-run logs are in $OUT/hr-bench.log.
set -uo pipefail
mode=${1:-cpu}
SMP=${SMP:-build/tools/bamboo-smp}
RUNS=${RUNS:-5}
WORK=${WORK:-/tmp/bamboo-hr}
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$WORK" "$OUT"
log="$OUT/hr-bench.log"

# gen NAME ARGS...: writes $WORK/NAME.bin once.
gen() {
  local name=$1
  shift
  [ -f "$WORK/$name.bin" ] || "$SMP" gen "$@" --binary -o "$WORK/$name.bin" >>"$log" 2>&1
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2); else print "-"}'; }

# row LABEL INSTANCE ALGO SIDE THREADS [TAIL] [PIN]: RUNS runs, one markdown row.
row() {
  local label=$1 inst=$2 algo=$3 side=$4 threads=$5 tail=${6:-} pin=${7:-}
  local args=(solve "$WORK/$inst.bin" --algo "$algo" --side "$side" --threads "$threads" --time -q)
  [ -n "$tail" ] && args+=(--tail "$tail")
  local mem=() input=() init=() solve=() path="" ok=1
  for ((k = 0; k < RUNS; k++)); do
    local t
    if [ -n "$pin" ]; then t=$(taskset -c 0 "$SMP" "${args[@]}" 2>&1); else t=$("$SMP" "${args[@]}" 2>&1); fi
    [ $? -eq 0 ] || ok=0
    echo "## $label $algo $side threads=$threads tail=$tail run $k" >>"$log"
    echo "$t" >>"$log"
    input+=("$(awk '$1=="input" {print $2}' <<<"$t")")
    init+=("$(awk '$1=="init" {print $2}' <<<"$t")")
    solve+=("$(awk '$1=="solve" {print $2}' <<<"$t")")
    mem+=("$(awk '$1=="total" {t=$2} $1=="input" {i=$2} END {print t-i}' <<<"$t")")
    path=$(awk '$1=="path" {$1=""; print substr($0,2)}' <<<"$t")
  done
  if [ $ok -eq 0 ]; then
    echo "| $label | $algo | $side | $threads | failed (see $log) | | | | |"
    return
  fi
  # The result must verify (once, outside the timing).
  local v
  v=$("$SMP" solve "$WORK/$inst.bin" --algo "$algo" --side "$side" --threads "$threads" ${tail:+--tail $tail} \
        --verify -q 2>&1 | grep -c "verified: stable")
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$algo${tail:+ (tail $tail)}" "$side" "$threads" \
    "$(printf '%s\n' "${mem[@]}" | median)" "$(printf '%s\n' "${init[@]}" | median)" \
    "$(printf '%s\n' "${solve[@]}" | median)" "$(printf '%s\n' "${input[@]}" | median)" \
    "$path$([ "$v" = 1 ] || echo ' NOT VERIFIED')"
}

echo "| instance | algorithm | side | threads | from memory ms (median) | init ms | solve ms | input ms | path |"
echo "|---|---|---|---|---|---|---|---|---|"
case "$mode" in
cpu)
  gen nrmp nrmp
  row "NRMP (31000 x 2300, k=15)" nrmp gs-seq residents 1 "" pin
  row "NRMP (31000 x 2300, k=15)" nrmp gs-seq hospitals 1 "" pin
  row "NRMP (31000 x 2300, k=15)" nrmp mw-par residents 0
  gen smi100k smi --n 100000 --k 100
  row "SMI 100000, k=100" smi100k gs-seq men 1
  row "SMI 100000, k=100" smi100k mw-par men 0
  row "SMI 100000, k=100" smi100k bamboo men 0
  ;;
gpu)
  gen nrmp nrmp
  row "NRMP (31000 x 2300, k=15)" nrmp gs-seq residents 1 "" pin
  row "NRMP (31000 x 2300, k=15)" nrmp gs-seq hospitals 1 "" pin
  row "NRMP (31000 x 2300, k=15)" nrmp mw-par residents 0
  row "NRMP (31000 x 2300, k=15)" nrmp gpu-la-min residents 0
  gen smi1m smi --n 1000000 --k 100
  for algo in gs-seq mw-par gpu-la-min; do row "SMI 1000000, k=100" smi1m $algo men 0; done
  for tail in 1 32 1024; do row "SMI 1000000, k=100" smi1m bamboo men 0 $tail; done
  row "SMI 1000000, k=100" smi1m bamboo women 0 32
  gen smi1m_skew smi --n 1000000 --k 100 --skew 0.8
  for algo in mw-par gpu-la-min; do row "SMI 1000000, k=100, skew 0.8" smi1m_skew $algo men 0; done
  row "SMI 1000000, k=100, skew 0.8" smi1m_skew bamboo men 0 32
  gen hr1m hr --n 1000000 --hospitals 50000 --k 30 --skew 0.5
  for algo in gs-seq mw-par gpu-la-min; do row "HR 1000000 x 50000, k=30, skew 0.5" hr1m $algo residents 0; done
  row "HR 1000000 x 50000, k=30, skew 0.5" hr1m bamboo residents 0 32
  ;;
*)
  echo "usage: bench/hr.sh cpu|gpu" >&2
  exit 2
  ;;
esac
