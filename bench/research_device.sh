#!/usr/bin/env bash
# The research benchmark (bench/research.sh) on a GPU host, every path in one call:
# bamboo's `:: cpu`, `:: gpu` and the hybrid (auto) and Gecode (fzn-gecode) on the shipped
# decomposition. Run from the repository root with .device-carry/ made by
# `GECODE=1 bench/device_bundle.sh build --xz` (the bundle then holds fzn-gecode and the
# libraries it loads, Qt's included, under .device-carry/gecode/).
#
# research.sh runs one (family, model, solver) after another; here each such job is its own
# research.sh, in two streams at once so that a call fits the device's 10 minutes:
#   - the GPU stream (`gpu`, `auto`) runs one job at a time: the GPU is never shared, so its
#     nodes per second are the path's own;
#   - the CPU stream (`cpu`, `gecode`) runs CPU_JOBS jobs at a time (default 6 of the 16 cores:
#     every solver here is one thread, so each job keeps a core of its own).
# A stream starts no job after DEADLINE seconds (default 480); those jobs are listed in
# $OUT/research/not-run.txt, for a later call's JOBS.
#
#   JOBS="irving-leather:sex_equal:gpu ..." bench/research_device.sh   (default: every job)
#   env: LIMIT (default 20), SIZES (default 64 .. 2048), DEADLINE, CPU_JOBS,
#        FZN_BAMBOO (another fzn-bamboo, e.g. a baseline's: default the bundle's),
#        LOGROOT (the raw outputs, default /tmp/bamboo-research)
# Rows go to $OUT/research/<family>.<model>.<solver>.md (research.sh's table rows);
# concatenated over one or more calls, they are bench/research_report.py's input.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
R=$OUT/research
mkdir -p "$R"
C=$PWD/.device-carry
[ -x "$C/gecode/fzn-gecode" ] || { echo "research_device: no $C/gecode/fzn-gecode (GECODE=1 bench/device_bundle.sh)" >&2; exit 2; }
export LD_LIBRARY_PATH=$C/lib:$C/gecode/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$C/usr/bin:$PATH
export LIMIT=${LIMIT:-20} SIZES=${SIZES:-64 128 256 512 1024 2048}
DEADLINE=${DEADLINE:-480}
CPU_JOBS=${CPU_JOBS:-6}
# The hybrid's calibration, fixed so that runs compare: one measured by fzn-bamboo --calibrate
# (bench/smc_latency_device.sh's).
printf 'min_n 500\nmin_free 512\nmin_modified 512\n' > "$R/calibration.txt"
export BAMBOO_CALIBRATION=$R/calibration.txt
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "LIMIT=$LIMIT SIZES=\"$SIZES\" CPU_JOBS=$CPU_JOBS DEADLINE=$DEADLINE"
} > "$R/machine.txt" 2>&1
cat "$R/machine.txt"

# Solver configurations: fzn-bamboo and fzn-gecode from the bundle.
S=$R/solvers
bench/device_msc.sh "${FZN_BAMBOO:-$C/bin/fzn-bamboo}" "$S"
sed -e "s|\"executable\": \"[^\"]*\"|\"executable\": \"$C/gecode/fzn-gecode\"|" "$C/gecode/gecode.msc" > "$S/gecode.msc"
export SOLVERS=$S GEN=$C/bin/smc-dzn-gen
MZN_SOLVER_PATH=$S minizinc --solvers > "$R/solvers.txt" 2>&1

if [ -z "${JOBS:-}" ]; then
  JOBS=""
  for fam in irving-leather latin4; do
    for model in sex_equal egalitarian minimum_regret pairs sex_equal_bound egalitarian_bound minimum_regret_bound pairs_bound; do
      for solver in cpu gpu auto gecode; do
        case $solver.$model in gecode.*_bound) continue ;; esac # the same decomposition as without
        JOBS="$JOBS $fam:$model:$solver"
      done
    done
  done
fi

# The instances, shared by every job (research.sh makes each once, in DATA).
export DATA=/tmp/bamboo-research-data
mkdir -p "$DATA"

START=$(date +%s)
run_job() { # FAMILY:MODEL:SOLVER -> its rows in $R
  local fam model solver log
  IFS=: read -r fam model solver <<< "$1"
  if [ $(($(date +%s) - START)) -ge "$DEADLINE" ]; then echo "$1" >> "$R/not-run.txt"; return; fi
  log=$LOGROOT/$fam.$model.$solver
  mkdir -p "$log"
  local g=0 p=$solver
  [ "$solver" = gecode ] && { g=1; p=""; }
  FAMILIES=$fam MODELS=$model PATHS=$p GECODE=$g LOG=$log bench/research.sh . > "$log/table.md" 2> "$log/err.txt"
  grep '^| [a-z]' "$log/table.md" | grep -v '^| family' > "$R/$fam.$model.$solver.md"
  [ -s "$log/err.txt" ] && cp "$log/err.txt" "$R/$fam.$model.$solver.err"
  echo "$(date -u +%H:%M:%S) done $1: $(awk -F'|' '{print $6}' "$R/$fam.$model.$solver.md" | xargs)"
}
export -f run_job
LOGROOT=${LOGROOT:-/tmp/bamboo-research}
export R START DEADLINE LOGROOT

gpu_jobs=$(tr ' ' '\n' <<< "$JOBS" | grep -E ':(gpu|auto)$')
cpu_jobs=$(tr ' ' '\n' <<< "$JOBS" | grep -E ':(cpu|gecode)$')
( [ -n "$gpu_jobs" ] && xargs -n1 -P1 bash -c 'run_job "$0"' <<< "$gpu_jobs" ) > "$R/gpu-stream.log" 2>&1 &
( [ -n "$cpu_jobs" ] && xargs -n1 -P"$CPU_JOBS" bash -c 'run_job "$0"' <<< "$cpu_jobs" ) > "$R/cpu-stream.log" 2>&1 &
wait
echo "elapsed $(($(date +%s) - START)) s"
cat "$R/gpu-stream.log" "$R/cpu-stream.log"
[ -s "$R/not-run.txt" ] && { echo "not run:"; cat "$R/not-run.txt"; }
cat "$R"/*.*.*.md > "$R/rows.md" 2>/dev/null # (the device tool brings back few files)
tar czf "$OUT/research-logs.tgz" --exclude='*.dzn' -C "$(dirname "$LOGROOT")" "$(basename "$LOGROOT")" 2>/dev/null
exit 0
