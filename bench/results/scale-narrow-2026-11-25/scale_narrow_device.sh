#!/usr/bin/env bash
# The 40-bit PRMatrix node (issue 21, cuda/bb_gpu_prnode.h) on the GPU machine, in one call
# of about three minutes, from a folder holding bin/ (stripped CUDA-build binaries:
# bamboo-smp, test_gpu_scale, test_gpu_multi) and this script:
#   ./scale_narrow_device.sh
# 1. test_gpu_scale and test_gpu_multi with the 40-bit node forced at n = 1..3001 ("narrow")
#    and every format at small n ("quick"), all against gs-seq;
# 2. compute-sanitizer memcheck on bamboo (one GPU, blocks of rows and of ranks), bamboo in
#    two partitions and gpu-la-min, each with the 40-bit node forced at n = 300;
# 3. the largest n the plan admits here (bamboo, lists generated on the GPU, --verify), and
#    a verified run there;
# 4. n = 90,000 random g=5 (generated on the GPU), verified, then the same with 8-byte nodes;
# 5. n = 30,000 random g=5: the three formats forced, bench median of 3, same call.
# Output: at most 8 files in $OUT; the summary in summary.txt.
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
B=$PWD/bin
smp=$B/bamboo-smp
S=$OUT/summary.txt
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
} > "$S" 2>&1
start=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - start )) s]"; }
left() { echo $(( ${BUDGET:-185} - ($(date +%s) - start) )); }

# 1. correctness
T=$OUT/tests.log
for t in "test_gpu_scale narrow" "test_gpu_multi narrow" "test_gpu_scale quick" "test_gpu_multi quick"; do
  echo "### $t" >> "$T"
  timeout 45 $B/$t >> "$T" 2>&1
  echo "exit $?" >> "$T"
done
{ echo "== tests $(elapsed)"; grep -E "^###|^n=|FAIL|passed|^exit" "$T" | head -40; } | tee -a "$S"

# 2. memcheck, the 40-bit node forced
M=$OUT/memcheck.log
mc() { echo "### $*" >> "$M"; timeout 30 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$@" >> "$M" 2>&1; echo "exit $?" >> "$M"; }
BAMBOO_GPU_NODE_BYTES=5 BAMBOO_GPU_STAGE_ROWS=7 BAMBOO_GPU_RANK_ROWS=50 mc "$smp" solve --gen random --n 300 --tail 64 --verify -q -v
BAMBOO_GPU_NODE_BYTES=5 mc "$smp" solve --gen congested --n 300 --tail-on gpu --tail 32 --verify -q -v
BAMBOO_GPU_NODE_BYTES=5 mc "$smp" solve --gen random --n 300 --gpus 0,0 --tail 64 --verify -q -v
BAMBOO_GPU_NODE_BYTES=5 mc "$smp" solve --gen random --n 300 --algo gpu-la-min --verify -q -v
{ echo "== memcheck $(elapsed)"; grep -E "^###|ERROR SUMMARY|LEAK|verified|^exit|path" "$M"; } | tee -a "$S"

# 3. the largest n the plan admits (bamboo, lists generated on the GPU, with the check)
L=$OUT/largest.log
lo=100000; hi=200000
while [ $((hi - lo)) -gt 250 ]; do
  mid=$(( (lo + hi) / 2 ))
  if "$smp" plan --n "$mid" --gen-on gpu --verify > /dev/null 2>&1; then lo=$mid; else hi=$mid; fi
done
{ echo "largest n the plan admits: $lo"; "$smp" plan --n "$lo" --gen-on gpu --verify; "$smp" plan --n "$hi" --gen-on gpu --verify; } > "$L" 2>&1
l=$(left); [ "$l" -gt 95 ] && l=95
if [ "$l" -gt 30 ]; then
  timeout "$l" "$smp" solve --gen random --n "$lo" --gen-on gpu -v --time --verify -q >> "$L" 2>&1
  echo "exit $? (limit ${l}s)" >> "$L"
else
  echo "no time left for the run at n=$lo" >> "$L"
fi
{ echo "== largest $(elapsed)"; grep -E "largest|^fits|memory plan:|^peak:|measured at the peak|^(input|transfer|init|solve|post|total) +[0-9]|RSS|verified|^exit|no time|path" "$L"; } | tee -a "$S"

# 4. n = 90,000, 40-bit then 64-bit nodes
N=$OUT/n90k.log
for node in 5 8; do
  l=$(left); [ "$l" -gt 40 ] && l=40
  if [ "$l" -gt 15 ]; then
    v=""; [ "$node" = 5 ] && v=--verify
    echo "### n=90000 random g=5 --gen-on gpu, BAMBOO_GPU_NODE_BYTES=$node $v" >> "$N"
    BAMBOO_GPU_NODE_BYTES=$node timeout "$l" "$smp" solve --gen random --n 90000 --gen-on gpu -v --time $v -q >> "$N" 2>&1
    echo "exit $?" >> "$N"
  fi
done
{ echo "== n=90000 $(elapsed)"; grep -E "^###|^peak:|measured at the peak|^(input|transfer|init|solve|post|total) +[0-9]|verified|^exit|path" "$N"; } | tee -a "$S"

# 5. n = 30,000, each format, bench median of 3
W=$OUT/bench30k.md
for node in 4 5 8; do
  if [ "$(left)" -gt 12 ]; then
    echo "### BAMBOO_GPU_NODE_BYTES=$node" >> "$W"
    BAMBOO_GPU_NODE_BYTES=$node timeout 15 "$smp" bench --algos bamboo --kinds random --group 5 --n 30000 --runs 3 --seed 1 >> "$W" 2>&1
  fi
done
{ echo "== n=30000 $(elapsed)"; grep -E "###|bamboo" "$W"; } | tee -a "$S"
echo "done $(elapsed)" | tee -a "$S"
