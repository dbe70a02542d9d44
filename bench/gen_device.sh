#!/usr/bin/env bash
# Generation on the GPU, in one device call, from the repository root with
# .device-carry/ made here by `bench/device_bundle.sh build-cuda` (never run yet: its length is
# unknown; every step has its own timeout and writes to $OUT as it goes, so a call cut at
# 600 s still brings back what ran; give it timeout_s 600):
#   bench/gen_device.sh
# 1. test_gpu_gen (device rows == host rows bit for bit, every kind, n up to 3001; bamboo's staged
#    build fed by the device generator == gs-seq) and test_gen_rows (the host side);
# 2. compute-sanitizer memcheck on test_gpu_gen quick;
# 3. gen-bench: seconds to generate both sides on the GPU (staged blocks of 256 MiB, and
#    blocks of 8 GiB) against bb_generate on all CPUs, n = 30000 every kind, then n = 90000
#    and 120000 random g=5 and congested on the GPU alone (uniform/perfect at 90000 on the
#    GPU too, with a time limit: their whole-row shuffles are scattered accesses).
# 4. solve --gen random --n 60000 with --gen-on gpu and host, --time --verify (same call).
# Output in $OUT: tests.log, memcheck.log, solve_gpu.log, solve_host.log, summary.txt (last).
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
C=$PWD/.device-carry
S=$OUT/summary.txt
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} > "$S" 2>&1
r1=0; r2=0; r3=0
timeout 240 "$C/bin/test_gpu_gen" > "$OUT/tests.log" 2>&1 || r1=$?
timeout 60 "$C/bin/test_gen_rows" >> "$OUT/tests.log" 2>&1 || r2=$?
{ echo "== tests: test_gpu_gen exit $r1, test_gen_rows exit $r2"; grep -E "FAIL|passed" "$OUT/tests.log" | tail -12; } | tee -a "$S"
timeout 200 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$C/bin/test_gpu_gen" quick > "$OUT/memcheck.log" 2>&1 || r3=$?
{ echo "== memcheck exit $r3"; grep -E "ERROR SUMMARY|passed|LEAK" "$OUT/memcheck.log" | tail -4; } | tee -a "$S"
{
  echo "| n | kind | GPU s (256 MiB blocks) | GPU s (8 GiB blocks) | host s (bb_generate, $(nproc) threads) |"
  echo "|---|---|---|---|---|"
} | tee -a "$S"
for kind in random congested uniform perfect solo; do
  timeout 120 "$C/bin/gen-bench" "$kind" 30000 5 --host 2>&1 | tee -a "$S"
done
for n in 90000 120000; do
  for kind in random congested; do timeout 120 "$C/bin/gen-bench" "$kind" "$n" 5 2>&1 | tee -a "$S"; done
done
for kind in uniform perfect; do timeout 150 "$C/bin/gen-bench" "$kind" 90000 2>&1 | tee -a "$S" || echo "| 90000 | $kind | over 150 s | | |" | tee -a "$S"; done
# 4. A solve on lists generated on the GPU against the host's lists (same call), verified:
#    the input phase is the host's women-only generation, transfer the device generation.
for on in gpu host; do
  echo "### solve --gen random --n 60000 --gen-on $on --time --verify" | tee -a "$S"
  timeout 240 "$C/bin/bamboo-smp" solve --gen random --n 60000 --gen-on "$on" --time --verify -v -q > "$OUT/solve_$on.log" 2>&1
  echo "exit $?" >> "$OUT/solve_$on.log"
  grep -E "^peak|input|transfer|init|solve|total|verified|exit|path" "$OUT/solve_$on.log" | tail -12 | tee -a "$S"
done
