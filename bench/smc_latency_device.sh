#!/usr/bin/env bash
# The latency of later propagations on a GPU host, in one call (from the repository root,
# .device-carry/ made by bench/device_bundle.sh, with a baseline's smc-gpu-bench in
# .device-carry/base/):
#   1. [Travasci 2025]'s setting (smc-gpu-bench --n 2400 --instances K --nodes 100): the baseline's
#      cpu, gpu and auto, then this build's cpu-rules (later propagations through the event
#      rules), cpu (as batches, smc_delta.c), gpu and auto, interleaved per instance;
#   2. smc-latency-bench: one decision's propagation, alone and repeated, on cpu-rules, cpu, gpu
#      and auto, three rounds (bench/smc_latency_report.py takes the smallest of each);
#   3. the hybrid's budget: auto with `batch_handover` H (steps before a batch hands its events
#      to the GPU) for each H in $HANDOVERS.
# Every run reads the same calibration (min_n 500, min_free 512, min_modified 512: one that
# fzn-bamboo --calibrate measured, fixed so that runs compare) and the
# built-in handover budgets unless the sweep sets one. CSVs and logs go to $OUT/runs, packed
# into $OUT/latency-runs.tgz (the device tool brings back few files); the tables are printed
# last and kept in $OUT/summary.txt.
#   bench/smc_latency_device.sh [INSTANCES]
# FIRST: the first instance's seed (default 1: seeds 1..INSTANCES); HANDOVERS="" skips step 3.
set -uo pipefail
TOP=${OUT:-/tmp/bamboo-out}
OUT=$TOP/runs
mkdir -p "$OUT"
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
K=${1:-20}
HANDOVERS=${HANDOVERS-500 2000 8000 1000000000}
FIRST=${FIRST:-1}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
calibration() { # $1: file, $2: batch_handover (none: the built-in one)
  printf 'min_n 500\nmin_free 512\nmin_modified 512\n' > "$1"
  [ -n "${2:-}" ] && printf 'batch_handover %s\n' "$2" >> "$1"
}
calibration "$OUT/cal.txt"
export BAMBOO_CALIBRATION=$OUT/cal.txt

# 1. The baseline and this build, instance by instance (seeds 1..K), so that drift lands on both.
for i in $(seq "$FIRST" $((FIRST + K - 1))); do
  "$C/base/smc-gpu-bench" --n 2400 --instances 1 --nodes 100 --seed "$i" --paths cpu,gpu,auto \
    --csv "$OUT/base-$i.csv" 2>> "$OUT/base.err" || echo "base instance $i: rc=$?"
  "$C/bin/smc-gpu-bench" --n 2400 --instances 1 --nodes 100 --seed "$i" --paths cpu-rules,cpu,gpu,auto \
    --csv "$OUT/new-$i.csv" 2>> "$OUT/new.err" || echo "new instance $i: rc=$?"
done
cat "$OUT"/base-[0-9]*.csv > "$OUT/base.csv"
cat "$OUT"/new-[0-9]*.csv > "$OUT/new.csv"
rm -f "$OUT"/base-[0-9]*.csv "$OUT"/new-[0-9]*.csv

# 2. One decision at a time.
for round in 1 2 3; do
  order=cpu-rules,cpu,gpu,auto
  [ "$round" = 2 ] && order=auto,gpu,cpu,cpu-rules
  "$C/bin/smc-latency-bench" --n 2400 --decisions 40 --depth 25 --repeat 15 --paths "$order" \
    > "$OUT/latency-$round.csv" 2>> "$OUT/latency.err" || echo "latency round $round: rc=$?"
done

# 3. The batches' hand-over budget.
for h in $HANDOVERS; do
  calibration "$OUT/cal-$h.txt" "$h"
  BAMBOO_CALIBRATION=$OUT/cal-$h.txt "$C/bin/smc-gpu-bench" --n 2400 --instances "$K" --nodes 100 --seed "$FIRST" \
    --paths auto --csv "$OUT/auto-h$h.csv" 2>> "$OUT/sweep.err" || echo "sweep $h: rc=$?"
done

{
echo "== seed 003's setting: baseline"
python3 bench/smc_gpu_report.py "$OUT/base.csv" 2>&1 | sed -n '/^| free/,/^$/p'
echo "== seed 003's setting: this build"
python3 bench/smc_gpu_report.py "$OUT/new.csv" 2>&1 | sed -n '/^| free/,/^$/p'
# Every path of both builds: the same root domains, first solution and nodes, instance by instance.
sweeps=("$OUT"/auto-h*.csv)
[ -e "${sweeps[0]}" ] || sweeps=() # no sweep (HANDOVERS=""): nothing to list
python3 - "$OUT/base.csv" "$OUT/new.csv" ${sweeps[@]+"${sweeps[@]}"} <<'PY'
import collections, sys
seen = collections.defaultdict(set)
for name in sys.argv[1:]:
    for line in open(name):
        f = line.strip().split(",")
        if f[0] == "result":
            seen[f[2]].add(tuple(f[7:]))
same = sum(1 for v in seen.values() if len(v) == 1)
print("identical results on every path of both builds: %d of %d instances" % (same, len(seen)))
PY
echo "== one decision at a time"
python3 bench/smc_latency_report.py "$OUT"/latency-[123].csv | tail -8
if [ -n "$HANDOVERS" ]; then
  echo "== handover sweep"
  python3 bench/smc_paired.py "$OUT/new.csv" "$OUT"/auto-h*.csv 2>&1 | tail -12
fi
} 2>&1 | tee "$TOP/summary.txt"
(cd "$OUT" && tar czf "$TOP/latency-runs.tgz" .)
