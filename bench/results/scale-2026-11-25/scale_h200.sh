#!/usr/bin/env bash
# Issue 21's H200 targets, in one device call (kind nvidia-h200) of at most ~9 minutes, from
# the repository root with .device-carry/ made by `bench/device_bundle.sh build-cuda`:
#   bench/results/scale-2026-11-25/scale_h200.sh
# 1. n = 90,000 random g=5 and congested with bamboo: plan (-v), phase times, verified stable;
# 2. the largest n the memory plan admits on this machine (GPU and host), and a verified
#    random g=5 run there if time is left.
# Output in $OUT (summary.txt last); each run has a time limit so the call ends in time.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
smp=$C/bin/bamboo-smp
S=$OUT/summary.txt
start=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - start )) s]"; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "cpu: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
} > "$S" 2>&1
for kind in random congested; do
  L=$OUT/n90000_$kind.log
  timeout 200 "$smp" solve --gen "$kind" --group 5 --n 90000 -v --time --verify -q --time-limit 150 > "$L" 2>&1
  echo "exit $?" >> "$L"
  { echo "== n=90000 $kind $(elapsed)"; grep -E "^peak:|measured at the peak|^(input|transfer|init|solve|total) +[0-9]|peak RSS|verified|^exit|path" "$L"; } >> "$S"
done
lo=1000; hi=300000
while [ $((hi - lo)) -gt 250 ]; do
  mid=$(( (lo + hi) / 2 ))
  if "$smp" plan --verify --n "$mid" > /dev/null 2>&1; then lo=$mid; else hi=$mid; fi
done
L=$OUT/largest.log
{ echo "largest n the plan admits with --verify: $lo"; "$smp" plan --verify --n "$lo"; "$smp" plan --verify --n "$hi"; } > "$L" 2>&1
left=$(( 540 - ($(date +%s) - start) ))
if [ "$left" -gt 60 ]; then
  timeout "$left" "$smp" solve --gen random --group 5 --n "$lo" -v --time --verify -q --time-limit $((left - 20)) >> "$L" 2>&1
  echo "exit $? (limit ${left}s)" >> "$L"
else
  echo "no time left for the run at n=$lo" >> "$L"
fi
{ echo "== largest $(elapsed)"; grep -E "largest|^fits|needs|^peak:|measured at the peak|^(input|transfer|init|solve|total) +[0-9]|peak RSS|verified|^exit|no time" "$L"; } >> "$S"
cat "$S"
