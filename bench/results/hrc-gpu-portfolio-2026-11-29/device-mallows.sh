#!/usr/bin/env bash
# One device call: the merged build's GPU test of the shared DA core, the portfolio on
# correlated (Mallows) instances on the CPU's 16 cores and on the GPU, and the constraint's
# ::gpu portfolio through MiniZinc. Run from the repository root after
# `tar xJf .device-carry.tar.xz` (bench/device_bundle.sh build --xz).
set -u
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib PATH=$C/usr/bin:$PATH
OUT=${OUT:-/tmp/out}
B=$C/bin/bamboo-smp
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u
timeout 150 "$C/bin/test_hrc_da_core" gpu > "$OUT/test_hrc_da_core_gpu.log" 2>&1
echo "test_hrc_da_core gpu: rc=$? $(tail -1 "$OUT/test_hrc_da_core_gpu.log")"
M="hrc-mallows --n 1000 --hospitals 100 --couples 200 --lists 5 10 --phi-hospitals 0.5"
GEN="$M --phi-residents 0.9" NAME=m09 SEEDS="19 10" RUNS=1000 LIMIT=100 OUT=/tmp/g \
  bash bench/hrc_gpu_portfolio.sh "$B"
GEN="$M --phi-residents 0.9" NAME=m09 SEEDS="19 10" RUNS="20000 100000" SIDES=gpu LIMIT=100 OUT=/tmp/g \
  bash bench/hrc_gpu_portfolio.sh "$B" | tail -n +5
GEN="$M --phi-residents 0.97" NAME=m097 SEEDS=6 RUNS="1000" LIMIT=100 OUT=/tmp/g \
  bash bench/hrc_gpu_portfolio.sh "$B" | tail -n +5
GEN="$M --phi-residents 0.97" NAME=m097 SEEDS=6 RUNS="20000" SIDES=gpu LIMIT=100 OUT=/tmp/g \
  bash bench/hrc_gpu_portfolio.sh "$B" | tail -n +5
# The constraint: models/hrc_file.mzn with the portfolio asked for, on the GPU path.
bench/device_msc.sh "$C/bin/fzn-bamboo" "$OUT/solvers" > /dev/null
sed 's/stable_matching_hrc_file(singles, couples, bp, file)/& :: hrc_portfolio(20000, 0) :: gpu/' \
  models/hrc_file.mzn > /tmp/g/hrc_gpu.mzn
grep -c 'hrc_portfolio' /tmp/g/hrc_gpu.mzn
t0=$(date +%s.%N)
BAMBOO_HRC_DEBUG=1 MZN_SOLVER_PATH=$OUT/solvers timeout 120 minizinc --solver bamboo /tmp/g/hrc_gpu.mzn \
  -D 'nS = 600; nC = 200; file = "/tmp/g/m09-19.hrc";' --time-limit 90000 -s > "$OUT/mzn_gpu.log" 2>&1
rc=$?; echo "minizinc ::gpu portfolio: rc=$rc wall $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
grep -E "portfolio|bp =|mzn-stat: (nodes|solveTime)|=====" "$OUT/mzn_gpu.log" | tail -12
