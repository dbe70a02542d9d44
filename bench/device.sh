#!/usr/bin/env bash
# Runs on a GPU host, from the repository root, in one call:
#   bench/device.sh test            build, ctest (all labels), compute-sanitizer memcheck on the GPU test
#   bench/device.sh bench N[,N..]   build, then the engine matrix (all algorithms x perfect, solo,
#                                   congested, random g=5) at the given sizes
#   bench/device.sh tails N[,N..]  bamboo's tail threshold x CPU/GPU tail at the given sizes
#   bench/device.sh memory N      peak host memory of the CPU algorithms at size N
#   bench/device.sh big N           build, then bamboo and gpu-la-min on random g=5 at size N (memory check)
#   bench/device.sh hr              SMI/HR: test_hr on the GPU, compute-sanitizer memcheck and racecheck
#                                   on its quick cases, then bench/hr.sh gpu (the targets)
# Full logs go to $OUT (or /tmp/bamboo-out); the last lines printed are the summary.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
BUILD=${BUILD:-build-device}
mode=${1:-test}
sizes=${2:-10000}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB; nvcc: $(nvcc --version | tail -1)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"

# The device has no Gecode: the engine modes build without the shim unless a Gecode
# prefix (Debian .debs unpacked with dpkg -x) is given as GECODE_PREFIX.
gecode_flags=(-DBAMBOO_GECODE=OFF)
if [ -n "${GECODE_PREFIX:-}" ]; then
  gecode_flags=(-DBAMBOO_GECODE=ON -DCMAKE_PREFIX_PATH="$GECODE_PREFIX/usr")
fi
if ! { cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DBAMBOO_WERROR=ON "${gecode_flags[@]}" \
         -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build "$BUILD" -j"$(nproc)"; } > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"
  echo "BUILD FAILED"
  exit 1
fi
smp="$BUILD/tools/bamboo-smp"

case "$mode" in
test)
  ctest --test-dir "$BUILD" --output-on-failure -j4 > "$OUT/ctest.log" 2>&1
  ctest_rc=$?
  grep -E "tests passed|Passed|Failed|Not Run|Skipped" "$OUT/ctest.log" | tail -25
  compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
    "$BUILD/tests/test_gpu" quick > "$OUT/memcheck.log" 2>&1
  mc_rc=$?
  tail -4 "$OUT/memcheck.log"
  timeout 240 compute-sanitizer --tool racecheck --error-exitcode 9 "$BUILD/tests/test_gpu" race \
    > "$OUT/racecheck.log" 2>&1
  rc_rc=$?
  tail -3 "$OUT/racecheck.log"
  echo "ctest rc=$ctest_rc memcheck rc=$mc_rc racecheck rc=$rc_rc"
  ;;
bench)
  "$smp" bench --algos gs-seq,mw-seq,la-seq,gs-par,mw-par,gpu-mw-cas,gpu-la-min,bamboo \
    --kinds perfect,solo,congested,random --group 5 --n "$sizes" --runs 3 --seed 1 \
    --max-seconds "${MAX_SECONDS:-20}" --markdown "$OUT/engine.md" 2>&1 | tee "$OUT/bench.log"
  ;;
tails)
  # bamboo's hand-over: tail threshold x where the tail runs.
  for tail in ${TAILS:-1 64 1024}; do
    for where in auto cpu gpu; do
      echo "## tail=$tail tail-on=$where" | tee -a "$OUT/tails.log"
      "$smp" bench --algos bamboo --kinds solo,congested,random --group 5 --n "$sizes" --runs 3 \
        --seed 1 --tail "$tail" --tail-on "$where" --max-seconds 20 2>&1 | grep '^| [0-9]' | tee -a "$OUT/tails.log"
    done
  done
  ;;
memory)
  # Peak host memory of the CPU algorithms (the 24 GB bound) at size N.
  for algo in gs-seq mw-seq la-seq gs-par mw-par; do
    echo "## $algo" | tee -a "$OUT/memory.log"
    "$smp" solve --gen random --group 5 --n "$sizes" --seed 1 --algo "$algo" --time -q \
      --time-limit 30 2>&1 | tee -a "$OUT/memory.log" | grep -E "solve|peak|rror"
  done
  ;;
big)
  for algo in bamboo gpu-la-min; do
    echo "## $algo" | tee -a "$OUT/big.log"
    "$smp" solve --gen random --group 5 --n "$sizes" --seed 1 --algo "$algo" --time -q --verify \
      2>&1 | tee -a "$OUT/big.log"
  done
  ;;
hr)
  "$BUILD/tests/test_hr" gpu > "$OUT/test_hr_gpu.log" 2>&1
  hr_rc=$?
  tail -3 "$OUT/test_hr_gpu.log"
  "$BUILD/tests/test_hr" "$OUT" > "$OUT/test_hr_cpu.log" 2>&1
  cpu_rc=$?
  tail -1 "$OUT/test_hr_cpu.log"
  compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$BUILD/tests/test_hr" gpu-quick \
    > "$OUT/hr_memcheck.log" 2>&1
  mc_rc=$?
  tail -3 "$OUT/hr_memcheck.log"
  timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 "$BUILD/tests/test_hr" gpu-quick \
    > "$OUT/hr_racecheck.log" 2>&1
  rc_rc=$?
  tail -2 "$OUT/hr_racecheck.log"
  echo "test_hr gpu rc=$hr_rc cpu rc=$cpu_rc memcheck rc=$mc_rc racecheck rc=$rc_rc"
  SMP="$smp" RUNS="${RUNS:-3}" WORK=/tmp/bamboo-hr bash bench/hr.sh gpu | tee "$OUT/hr-bench.md"
  ;;
*)
  echo "unknown mode $mode"
  exit 2
  ;;
esac
