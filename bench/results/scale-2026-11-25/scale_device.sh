#!/usr/bin/env bash
# Issue 21 on the GPU machine, in one call of about 8 minutes on an 80 GB H100, from the
# repository root with .device-carry/ made here by `bench/device_bundle.sh build-cuda`:
#   bench/results/scale-2026-11-25/scale_device.sh
# 1. test_gpu_scale (staged and earlier initialisation vs gs-seq; plan vs measured peak at
#    n = 4000, 12000), test_gpu_multi (bamboo and gpu-la-min in 2, 3, 4 partitions on GPU 0
#    vs gs-seq) and test_gpu quick (the engine's GPU paths, staged by default now);
# 2. compute-sanitizer memcheck on test_gpu_scale quick and test_gpu_multi quick;
# 3. the memory plan vs the measured peak (cudaMemGetInfo; host peak RSS) at n = 20000,
#    40000, 65536, random g=5, staged and earlier initialisation, and the rank matrix in
#    blocks of women at 40000 (verified);
# 4. the largest n the plan admits on this GPU (bamboo-smp plan), and a verified run there;
# 5. n = 30000 random g=5: the earlier vs the staged initialisation, 5 runs each, same call.
# Output: at most 8 files in $OUT (the device tool brings back no more); the summary last.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
C=$PWD/.device-carry
smp=$C/bin/bamboo-smp
S=$OUT/summary.txt
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} > "$S" 2>&1
cat "$S"
start=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - start )) s]"; }

# 1. correctness (and the plan at small sizes)
r1=0; r2=0; r3=0; r4=0; r5=0
timeout 150 "$C/bin/test_gpu_scale" > "$OUT/tests.log" 2>&1 || r1=$?
timeout 300 "$C/bin/test_gpu_multi" >> "$OUT/tests.log" 2>&1 || r4=$?
timeout 120 "$C/bin/test_gpu" quick >> "$OUT/tests.log" 2>&1 || r2=$?
# The partitioned engine at a middle size, verified by the checker.
for algo in bamboo gpu-la-min; do
  echo "### $algo --gpus 0,0,0,0 n=20000 random g=5" >> "$OUT/tests.log"
  timeout 60 "$smp" solve --gen random --n 20000 --algo "$algo" --gpus 0,0,0,0 --verify --time -v -q \
    >> "$OUT/tests.log" 2>&1
  echo "exit $?" >> "$OUT/tests.log"
done
{ echo "== tests $(elapsed)"; grep -E "^n=|FAIL|passed|^###|verified|^path|^exit" "$OUT/tests.log" | tail -20; } | tee -a "$S"

# 2. memcheck
timeout 120 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$C/bin/test_gpu_scale" quick > "$OUT/memcheck.log" 2>&1 || r3=$?
timeout 120 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$C/bin/test_gpu_multi" quick >> "$OUT/memcheck.log" 2>&1 || r5=$?
{ echo "== memcheck $(elapsed)"; grep -E "ERROR SUMMARY|passed|LEAK" "$OUT/memcheck.log" | tail -6; } | tee -a "$S"

# 3. plan vs measured: the plan's peak rows, the measured GPU peak and the host peak RSS.
P=$OUT/plan_vs_measured.log
: > "$P"
for n in 20000 40000 65536; do
  for staged in 1 0; do
    echo "### n=$n random g=5, BAMBOO_GPU_STAGED=$staged" >> "$P"
    BAMBOO_GPU_STAGED=$staged timeout 120 "$smp" solve --gen random --n "$n" -v --time -q >> "$P" 2>&1
    echo "exit $?" >> "$P"
  done
done
echo "### n=40000 random g=5, rank matrix in blocks of 5000 women (BAMBOO_GPU_RANK_ROWS)" >> "$P"
BAMBOO_GPU_RANK_ROWS=5000 timeout 60 "$smp" solve --gen random --n 40000 -v --time --verify -q >> "$P" 2>&1
echo "exit $?" >> "$P"
{ echo "== plan vs measured $(elapsed)"; grep -E "^###|^peak:|measured at the peak|blocks of|peak RSS|^(transfer|init|solve|total) +[0-9]|verified|^exit" "$P"; } | tee -a "$S"

# 4. the largest n the plan admits here (bamboo, staged), then a run there with a limit.
lo=1000; hi=300000
while [ $((hi - lo)) -gt 250 ]; do
  mid=$(( (lo + hi) / 2 ))
  if "$smp" plan --n "$mid" > /dev/null 2>&1; then lo=$mid; else hi=$mid; fi
done
L=$OUT/largest.log
{ echo "largest n the plan admits: $lo"; "$smp" plan --n "$lo"; "$smp" plan --n "$hi"; } > "$L" 2>&1
left=$(( 480 - ($(date +%s) - start) - 60 ))
[ "$left" -gt 240 ] && left=240
if [ "$left" -gt 30 ]; then
  timeout "$left" "$smp" solve --gen random --n "$lo" -v --time --verify -q --time-limit 60 >> "$L" 2>&1
  echo "exit $? (limit ${left}s)" >> "$L"
else
  echo "no time left for the run at n=$lo" >> "$L"
fi
{ echo "== largest $(elapsed)"; grep -E "largest|^fits|memory plan:|^peak:|measured at the peak|^(transfer|init|solve|total) +[0-9]|peak RSS|verified|^exit|no time" "$L"; } | tee -a "$S"

# 5. n = 30000: earlier vs staged initialisation, same machine, same call.
B=$OUT/bench30k.md
if [ $(( $(date +%s) - start )) -lt 420 ]; then
  for staged in 0 1; do
    echo "### BAMBOO_GPU_STAGED=$staged" >> "$B"
    BAMBOO_GPU_STAGED=$staged timeout 90 "$smp" bench --algos bamboo --kinds random --group 5 \
      --n 30000 --runs 5 --seed 1 >> "$B" 2>&1
  done
else
  echo "skipped: out of time" >> "$B"
fi
{ echo "== n=30000 $(elapsed)"; grep -E "###|bamboo|skipped" "$B"; } | tee -a "$S"
echo "test_gpu_scale=$r1 test_gpu_multi=$r4 test_gpu=$r2 memcheck_scale=$r3 memcheck_multi=$r5 $(elapsed)" | tee -a "$S"
