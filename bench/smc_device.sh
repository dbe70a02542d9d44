#!/usr/bin/env bash
# The Stable Marriage constraint's GPU path on a GPU host, from the repository root,
# with .device-carry/ made by bench/device_bundle.sh (carried along):
#   bench/smc_device.sh test     GPU tests (test_smc_par, test_smc_gecode, test_smc_smi_search,
#                                test_smc_smi_gecode, test_hr, test_smc_gpus, test_smc_hr_accel, test_hrc_accel and
#                                test_smc_hr_native on the GPU, test_gpu),
#                                compute-sanitizer memcheck and racecheck, MiniZinc end to end
#                                (::gpu, ::cpu, ::uniud, none; -p 4), fzn-bamboo --calibrate;
#                                PART=1 runs up to test_hrc_da_core, PART=2 the rest
#   bench/smc_device.sh bench N K NODES [STRENGTH]
#                                [Travasci 2025]'s experiment: K instances of size N (seeds
#                                $SEED .., default 1), paths cpu, gpu and auto, NODES search
#                                nodes each (smc-gpu-bench)
#   bench/smc_device.sh smi N K NODES
#                                the same on incomplete lists (SMI, n men and n women, lists
#                                of K): paths cpu, gpu and auto (smc-gpu-bench --k)
#   bench/smc_device.sh hr [R H K]
#                                the native HR constraint on the CPU, emulated and GPU paths
#                                (smc-hr-path-bench: root and one branch, same bounds)
#   bench/smc_device.sh file     the file form end to end (bench/file_form.sh): minizinc
#                                --solver bamboo at n = 2400 and 10000, SMI, NRMP-shaped HR
#   bench/smc_device.sh front    the dzn form's FlatZinc front end (bench/fzn_front.sh): parse
#                                rate, build, peak RSS at n = 2400 and 10000
#   bench/smc_device.sh tails N  the tail threshold at size N (first propagations)
#   bench/smc_device.sh research the research benchmark (bench/research.sh) on ::cpu,
#                                ::gpu, auto and Gecode with the decomposition
#   bench/smc_device.sh nrmp     HRC at NRMP shape (1,000 and 3,000 couples) through minizinc
#                                --solver bamboo on the file form (models/hrc_file.mzn)
#   bench/smc_device.sh first N  time to the first solution at size N: MiniZinc's flattening,
#                                then fzn-bamboo -v on the hybrid, ::gpu and ::cpu
# Logs and CSVs go to $OUT (or /tmp/bamboo-out); the last lines printed are the summary.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$C/usr/bin:$PATH
# Kept outside $OUT, which each call empties: a warm machine keeps its calibration.
export BAMBOO_CALIBRATION=${BAMBOO_CALIBRATION:-/tmp/bamboo-calibration/calibration.txt}
mode=${1:-test}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"

# A solver configuration for MiniZinc that points at the carried fzn-bamboo.
bench/device_msc.sh "$C/bin/fzn-bamboo" "$OUT/solvers"

case "$mode" in
test)
  r1=0; r2=0; r3=0; r4=0; r5=0; r6=0; r7=0; r8=0; r9=0; r10=0; r11=0; r12=0; r13=0; r14=0; r15=0; r16=0
  # PART=1 runs the constraint's tests, PART=2 the rest (one device call cannot hold both).
  part=${PART:-all}
  if [ "$part" != 2 ]; then
  "$C/bin/test_smc_par" gpu > "$OUT/test_smc_par_gpu.log" 2>&1 || r1=$?
  grep -E "engine|passed" "$OUT/test_smc_par_gpu.log" | tail -4
  "$C/bin/test_smc_gecode" gpu > "$OUT/test_smc_gecode_gpu.log" 2>&1 || r2=$?
  tail -1 "$OUT/test_smc_gecode_gpu.log"
  "$C/bin/test_smc_smi_search" gpu > "$OUT/test_smc_smi_search_gpu.log" 2>&1 || r7=$?
  tail -1 "$OUT/test_smc_smi_search_gpu.log"
  "$C/bin/test_smc_smi_gecode" gpu > "$OUT/test_smc_smi_gecode_gpu.log" 2>&1 || r8=$?
  tail -1 "$OUT/test_smc_smi_gecode_gpu.log"
  "$C/bin/test_hr" gpu > "$OUT/test_hr_gpu.log" 2>&1 || r9=$?
  tail -1 "$OUT/test_hr_gpu.log"
  # The GPU list: 2 and 4 entries on device 0 (separate copies), 2 and 4 search threads.
  "$C/bin/test_smc_gpus" gpu > "$OUT/test_smc_gpus_gpu.log" 2>&1 || r10=$?; grep -E "entries|passed" "$OUT/test_smc_gpus_gpu.log" | tail -6
  "$C/bin/test_smc_hr_accel" gpu > "$OUT/test_smc_hr_accel_gpu.log" 2>&1 || r11=$?; tail -2 "$OUT/test_smc_hr_accel_gpu.log"
  "$C/bin/test_smc_hr_native" gpu > "$OUT/test_smc_hr_native_gpu.log" 2>&1 || r12=$?; tail -2 "$OUT/test_smc_hr_native_gpu.log"
  "$C/bin/test_hrc_accel" gpu > "$OUT/test_hrc_accel_gpu.log" 2>&1 || r13=$?; tail -2 "$OUT/test_hrc_accel_gpu.log"
  "$C/bin/test_ties_da" gpu > "$OUT/test_ties_da_gpu.log" 2>&1 || r14=$?; tail -1 "$OUT/test_ties_da_gpu.log"
  "$C/bin/test_hrc_da_core" gpu > "$OUT/test_hrc_da_core_gpu.log" 2>&1 || r16=$?; tail -1 "$OUT/test_hrc_da_core_gpu.log"
  fi
  if [ "$part" != 1 ]; then
  # The partitions on distinct GPUs where there are several (0,1,..), else all on GPU 0.
  gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | paste -sd, -)
  BAMBOO_TEST_GPUS=$gpus timeout 200 "$C/bin/test_gpu_multi" quick > "$OUT/test_gpu_multi.log" 2>&1 || r15=$?
  echo "test_gpu_multi quick over GPUs $gpus: $(tail -1 "$OUT/test_gpu_multi.log")"
  # The engine's quick set: the full one (bench/device.sh test, under ctest) takes minutes.
  "$C/bin/test_gpu" quick > "$OUT/test_gpu.log" 2>&1 || r3=$?
  tail -1 "$OUT/test_gpu.log"
  compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$C/bin/test_smc_par" gpu quick \
    > "$OUT/memcheck.log" 2>&1 || r4=$?
  grep -E "ERROR SUMMARY|passed|LEAK" "$OUT/memcheck.log" | tail -3
  # The incomplete-list (SMI) rows of the pair matrix and the HR engine under memcheck too.
  [ "${SKIP_SLOW:-0}" = 1 ] || compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$C/bin/test_hr" gpu-quick \
    > "$OUT/memcheck_hr.log" 2>&1 || r4=$?
  grep -E "ERROR SUMMARY|passed|LEAK" "$OUT/memcheck_hr.log" | tail -2
  [ "${SKIP_SLOW:-0}" = 1 ] || timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 "$C/bin/test_smc_par" gpu quick \
    > "$OUT/racecheck.log" 2>&1 || r5=$?
  grep -E "RACECHECK SUMMARY|hazard|passed" "$OUT/racecheck.log" | tail -2
  MZN_SOLVER_PATH=$OUT/solvers python3 tests/fzn/e2e.py --jobs 8 --instances 12 --larger 6 \
    > "$OUT/e2e.log" 2>&1 || r6=$?
  tail -3 "$OUT/e2e.log"
  "$C/bin/fzn-bamboo" --calibrate > "$OUT/calibrate.log" 2>&1
  cat "$OUT/calibrate.log"
  cp "$BAMBOO_CALIBRATION" "$OUT/" 2>/dev/null
  fi
  echo "part=$part test_smc_par=$r1 test_smc_gecode=$r2 test_smc_smi_search=$r7 test_smc_smi_gecode=$r8 test_hr=$r9 test_smc_gpus=$r10 test_smc_hr_accel=$r11 test_smc_hr_native=$r12 test_hrc_accel=$r13 test_ties_da=$r14 test_hrc_da_core=$r16 test_gpu_multi=$r15 test_gpu=$r3 memcheck=$r4 racecheck=$r5 e2e=$r6"
  ;;
bench)
  n=${2:-2400}; k=${3:-20}; nodes=${4:-100}; strength=${5:-gs-lists}
  [ -f "$BAMBOO_CALIBRATION" ] || "$C/bin/fzn-bamboo" --calibrate > "$OUT/calibrate.log" 2>&1
  cp "$BAMBOO_CALIBRATION" "$OUT/" 2>/dev/null
  seed=${SEED:-1}
  "$C/bin/smc-gpu-bench" --n "$n" --instances "$k" --nodes "$nodes" --strength "$strength" --seed "$seed" \
    --paths cpu,gpu,auto --csv "$OUT/smc-$n-$strength-$seed.csv" 2> "$OUT/bench-$n-$strength.err"
  echo "rc=$? rows: $(wc -l < "$OUT/smc-$n-$strength-$seed.csv")"
  tail -3 "$OUT/bench-$n-$strength.err"
  ;;
smi)
  n=${2:-20000}; k=${3:-100}; nodes=${4:-20}
  [ -f "$BAMBOO_CALIBRATION" ] || "$C/bin/fzn-bamboo" --calibrate > "$OUT/calibrate.log" 2>&1
  seed=${SEED:-1}
  for strength in gs-lists men-proposing; do
    "$C/bin/smc-gpu-bench" --n "$n" --k "$k" --instances "${INSTANCES:-3}" --nodes "$nodes" --strength "$strength" \
      --seed "$seed" --paths cpu,gpu,auto --csv "$OUT/smi-$n-$k-$strength.csv" 2> "$OUT/smi-$n-$k-$strength.err"
    echo "smi n=$n k=$k $strength rc=$?"
    grep '^result' "$OUT/smi-$n-$k-$strength.csv" | cut -d, -f3,4,6,7,8,10
  done
  ;;
hr)
  # The native HR constraint on its CPU, emulated and GPU paths (smc-hr-path-bench): a
  # school-choice shape and an NRMP-like one.
  "$C/bin/smc-hr-path-bench" "${2:-80000}" "${3:-700}" "${4:-12}" 20
  "$C/bin/smc-hr-path-bench" 31000 2300 15 20 | tail -3
  ;;
file)
  [ -f "$BAMBOO_CALIBRATION" ] || "$C/bin/fzn-bamboo" --calibrate > "$OUT/calibrate.log" 2>&1
  for round in 1 2 3; do
    WORK=/tmp/bamboo-file-form MZN_SOLVER_PATH=$OUT/solvers bench/file_form.sh "$C/bin/bamboo-smp" 2400 10000
  done 2>&1 | tee "$OUT/file_form.md"
  ;;
front)
  # The dzn form's FlatZinc front end (bench/fzn_front.sh) on MiniZinc's own FlatZinc text,
  # one core for the parse, every core for the build of the constraint's data.
  [ -f "$BAMBOO_CALIBRATION" ] || "$C/bin/fzn-bamboo" --calibrate > "$OUT/calibrate.log" 2>&1
  WORK=/tmp/bamboo-fzn-front bench/fzn_front.sh "$C/bin/fzn-bamboo" "$C/bin/smc-dzn-gen" "${RUNS:-3}" 2400 10000 \
    2>&1 | tee "$OUT/fzn_front.md"
  ;;
tails)
  n=${2:-2400}
  for t in ${TAILS:-0 1 8 32 128 1024}; do
    "$C/bin/smc-gpu-bench" --n "$n" --instances 5 --nodes 1 --paths gpu --tail "$t" --csv "$OUT/tail-$n-$t.csv"
    awk -F, -v t="$t" '$1=="prop" && $6=="root" {s+=$20; c++} END {printf "tail %s: mean root propagation %.3f ms over %d\n", t, s/c, c}' \
      "$OUT/tail-$n-$t.csv"
  done | tee "$OUT/tails.txt"
  ;;
research)
  # The research benchmark (bench/research.sh) on every path: ::cpu, ::gpu, the hybrid
  # (auto) and Gecode with the decomposition; PATHS, SIZES, LIMIT, FAMILIES, MODELS, GECODE
  # as research.sh takes them.
  PATHS=${PATHS:-cpu gpu auto} GEN="$C/bin/smc-dzn-gen" SOLVERS="$OUT/solvers" LOG=/tmp/bamboo-research \
    bench/research.sh . > "$OUT/research.md" 2> "$OUT/research.err"
  echo "rc=$?"; cat "$OUT/research.md"; tail -3 "$OUT/research.err"
  ;;
first)
  # MiniZinc flattens once (timed), then fzn-bamboo -v runs the FlatZinc with the hybrid
  # (no annotation), ::gpu and ::cpu: parse, post, propagations, first solution.
  n=${2:-10000}
  work=/tmp/bamboo-first
  mkdir -p "$work"
  "$C/bin/smc-dzn-gen" "$n" 1 > "$work/data.dzn"
  sed 's/ :: gpu;/;/' models/stable_marriage.mzn > "$work/sm.mzn"
  /usr/bin/time -v env MZN_SOLVER_PATH="$OUT/solvers" minizinc --solver bamboo -c --no-output-ozn \
    "$work/sm.mzn" "$work/data.dzn" -o "$work/auto.fzn" > "$OUT/flatten-$n.log" 2>&1
  grep -E "Elapsed|Maximum resident" "$OUT/flatten-$n.log"
  sed 's/^\(constraint bamboo_stable_matching.*\);$/\1:: gpu;/' "$work/auto.fzn" > "$work/gpu.fzn"
  sed 's/^\(constraint bamboo_stable_matching.*\);$/\1:: cpu;/' "$work/auto.fzn" > "$work/cpu.fzn"
  for v in auto gpu cpu; do
    echo "## $v"
    /usr/bin/time -v "$C/bin/fzn-bamboo" -v "$work/$v.fzn" > "$OUT/first-$n-$v.out" 2> "$OUT/first-$n-$v.log"
    grep -E "fzn-bamboo|Maximum resident|Elapsed" "$OUT/first-$n-$v.log"
  done
  cmp -s "$OUT/first-$n-auto.out" "$OUT/first-$n-gpu.out" && cmp -s "$OUT/first-$n-auto.out" "$OUT/first-$n-cpu.out" \
    && echo "first solutions identical on all three paths" || echo "FIRST SOLUTIONS DIFFER"
  rm -rf "$work"
  ;;
nrmp)
  # The national scale HRC must reach: an NRMP-shaped instance (47,000 residents, 6,600
  # programmes) with COUPLES couples each (default 1000 3000), through minizinc --solver
  # bamboo on the file form (models/hrc_file.mzn, solve minimize bp), 600 s limit; the answer
  # and its time.
  # (bp is counted by the constraint itself, exact once the matching is fixed).
  work=/tmp/bamboo-nrmp
  mkdir -p "$work"
  for c in ${COUPLES:-1000 3000}; do
    "$C/bin/bamboo-smp" gen nrmp-couples --couples "$c" --seed 1 -o "$work/nrmp$c.hrc" > /dev/null
    read -r _ nr _ nc < "$work/nrmp$c.hrc"
    s=$(date +%s.%N)
    env MZN_SOLVER_PATH="$OUT/solvers" BAMBOO_HRC_DEBUG=1 timeout 610 minizinc --solver bamboo --time-limit 600000 -s \
      models/hrc_file.mzn -D "nS = $((nr - 2 * nc)); nC = $nc; file = \"$work/nrmp$c.hrc\";" > "$OUT/nrmp$c.out" 2> "$OUT/nrmp$c.err"
    rc=$?
    e=$(date +%s.%N)
    printf 'couples %s: rc=%s, %.1f s wall, %s, %s\n' "$c" "$rc" "$(awk -v s="$s" -v e="$e" 'BEGIN {print e - s}')" \
      "$(grep -m1 '^bp' "$OUT/nrmp$c.out" | tr -d '\n')" "$(grep -c '==========' "$OUT/nrmp$c.out") optimality lines"
    grep -E "nodes=|solveTime=|deferred" "$OUT/nrmp$c.out" "$OUT/nrmp$c.err" | head -4
  done
  rm -rf "$work"
  ;;
*)
  echo "unknown mode $mode"
  exit 2
  ;;
esac
