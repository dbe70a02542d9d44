#!/usr/bin/env bash
# The HRC constraint's GPU path on the GPU machine (bench/results/hrc-gpu-2026-11-25.md), run
# from a folder holding, from a CUDA build (-B build-cuda), stripped: test_hrc_accel,
# hrc-path-bench, fzn-bamboo; lib/ with the Gecode, GMP and MPFR .so files they load (ldd);
# nrmp.bin.gz (bamboo-smp gen nrmp-couples --couples 1000 --seed 1 --binary -o nrmp.bin) and
# nrmp_cpu.fzn.gz (models/hrc_file.mzn with the constraint annotated :: cpu, flattened here
# with `minizinc --solver bamboo -c ... -D 'nS = 45000; nC = 1000; file = "nrmp.bin";'`, since
# the GPU machine has no MiniZinc). The ::gpu FlatZinc is made from it with sed.
#   hrc_gpu_device.sh          the GPU test, the paths' bench, fzn-bamboo ::cpu and ::gpu twice
#   hrc_gpu_device.sh repeat   the paths' bench three times (the spread)
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
} 2>&1 | tee "$OUT/machine.txt"
gunzip -kf nrmp.bin.gz nrmp_cpu.fzn.gz
if [ "${1:-}" = repeat ]; then
  for i in 1 2 3; do timeout 60 ./hrc-path-bench nrmp.bin 10 2>&1 | grep -E "^\| (cpu|gpu|emulated)" | tee -a "$OUT/rep.md"; done
  exit 0
fi
sed 's/:: cpu::/:: gpu::/' nrmp_cpu.fzn > nrmp_gpu.fzn
echo "== test_hrc_accel gpu"
t0=$(date +%s%N); ./test_hrc_accel gpu > "$OUT/test_gpu.log" 2>&1; rc=$?; echo "rc=$rc ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
tail -3 "$OUT/test_gpu.log"
echo "== hrc-path-bench"
timeout 120 ./hrc-path-bench nrmp.bin 10 2>&1 | tee "$OUT/bench.md"
for p in cpu gpu cpu gpu; do
  echo "== fzn-bamboo $p"
  timeout 60 ./fzn-bamboo -v -s -t 50000 nrmp_$p.fzn > "$OUT/fzn.log" 2>&1; echo "rc=$?"
  grep -E "first solution|parsed|warning|solveTime|propagations|bp =" "$OUT/fzn.log" | tee -a "$OUT/fzn_$p.log"
done
