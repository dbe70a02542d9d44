#!/usr/bin/env bash
# Step 3 of scale_narrow_device.sh alone (about 100 s on an H100): the largest n the plan
# admits (bamboo, 40-bit nodes, lists generated on the GPU, --verify) and a verified run there.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
smp=$PWD/bin/bamboo-smp
L=$OUT/largest.log
{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } > "$L" 2>&1
lo=100000; hi=200000
while [ $((hi - lo)) -gt 250 ]; do
  mid=$(( (lo + hi) / 2 ))
  if "$smp" plan --n "$mid" --gen-on gpu --verify > /dev/null 2>&1; then lo=$mid; else hi=$mid; fi
done
echo "largest n the plan admits: $lo" >> "$L"
timeout 150 "$smp" solve --gen random --n "$lo" --gen-on gpu -v --time --verify -q >> "$L" 2>&1
echo "exit $?" >> "$L"
grep -E "date|H100|H200|largest|^peak:|measured at the peak|^(input|transfer|init|solve|post|total) +[0-9]|RSS|verified|^exit|path" "$L"
