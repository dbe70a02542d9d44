#!/usr/bin/env bash
# The calibration-file defects on the GPU machine (the hybrid reads the file only where a GPU
# is found), the binary before the fix (.device-carry/bin/fzn-bamboo-old) and after, then the
# GPU test suite. From the repository root, with .device-carry/ from bench/device_bundle.sh:
#   bash bench/results/input-2026-11-28-device.sh
set -u
C=$PWD/.device-carry
export LD_LIBRARY_PATH=$C/lib PATH=$C/usr/bin:$PATH
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
# A stable-matching model of n = 300 (above the hybrid's floor of 250, so it reads the file).
n=300 f=/tmp/u$n.txt m=/tmp/sm$n.fzn
"$C/bin/bamboo-smp" gen uniform --n $n --seed 1 -o $f
awk -v n=$n -v f=$f 'BEGIN {
  print "predicate bamboo_stable_matching_file(array [int] of var int: men, array [int] of var int: women, int: base);"
  for (i = 1; i <= 2 * n; i++) print "var 1.." n ": x" i ";"
  s = "array [1.." n "] of var int: men :: output_array([1.." n "]) = ["
  for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") "x" i
  print s "];"
  s = "array [1.." n "] of var int: women = ["
  for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") "x" (n + i)
  print s "];"
  print "constraint bamboo_stable_matching_file(men, women, 1) :: bamboo_data_file(\"" f "\");"
  print "solve satisfy;" }' > $m
printf 'batch_handover 1e9\n' > /tmp/cal_float
printf 'min_n 12abc\n' > /tmp/cal_suffix
for bin in fzn-bamboo-old fzn-bamboo; do
  echo "== $bin"
  timeout 10 env BAMBOO_CALIBRATION=/dev/zero "$C/bin/$bin" $m 2>&1 >/dev/null | head -3
  echo "$bin BAMBOO_CALIBRATION=/dev/zero model: rc=${PIPESTATUS[0]}"
  timeout 20 env BAMBOO_CALIBRATION=/dev/full "$C/bin/$bin" --calibrate 2>&1 | tail -3
  echo "$bin BAMBOO_CALIBRATION=/dev/full --calibrate: rc=${PIPESTATUS[0]}"
  for bad in /tmp/cal_float /tmp/cal_suffix; do
    timeout 20 env BAMBOO_CALIBRATION=$bad "$C/bin/$bin" $m 2>&1 >/dev/null | head -2
    echo "$bin BAMBOO_CALIBRATION=$bad ($(cat $bad)) model: rc=${PIPESTATUS[0]}"
  done
done
"$C/bin/test_smc_calibration" 2>&1 | tail -1
echo "test_smc_calibration rc=${PIPESTATUS[0]}"
SKIP_SLOW=${SKIP_SLOW:-1} bench/smc_device.sh test
