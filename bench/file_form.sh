#!/usr/bin/env bash
# The file form end to end: `minizinc --solver bamboo` on models/*_file.mzn with
# instances that bamboo-smp writes, timed whole (wall clock, peak RSS of the whole command
# tree) and by phase (MiniZinc's flatTime, fzn-bamboo's initTime = read + post, solveTime to
# the first solution).
#   bench/file_form.sh BAMBOO_SMP [SIZES...]     default sizes: 2400 10000
# MZN_SOLVER_PATH must name the folder of a bamboo.msc (a build tree's minizinc/solvers).
# Prints one markdown table row per run; instance files go to ${WORK:-/tmp/bamboo-file-form}.
set -uo pipefail
smp=${1:?usage: bench/file_form.sh BAMBOO_SMP [SIZES...]}
shift
sizes=${*:-2400 10000}
work=${WORK:-/tmp/bamboo-file-form}
mkdir -p "$work"
root=$(cd "$(dirname "$0")/.." && pwd)

# run LABEL MODEL DZN [ANNOTATION-FREE EXTRA MINIZINC ARGS...]
run() {
  local label=$1 model=$2 dzn=$3
  shift 3
  /usr/bin/time -f '%e %M' -o "$work/time.txt" minizinc --solver bamboo -s "$@" "$model" "$dzn" \
    > "$work/out.txt" 2> "$work/err.txt"
  local rc=$?
  read -r wall rss < "$work/time.txt"
  local flat init solve
  flat=$(sed -n 's/^%%%mzn-stat: flatTime=//p' "$work/out.txt" | head -1)
  init=$(sed -n 's/^%%%mzn-stat: initTime=//p' "$work/out.txt" | head -1)
  solve=$(sed -n 's/^%%%mzn-stat: solveTime=//p' "$work/out.txt" | head -1)
  printf '| %s | %s | %.2f | %.2f | %.2f | %.2f | %.0f | %s |\n' "$label" "$(basename "$model")" "$wall" \
    "${flat:-0}" "${init:-0}" "${solve:-0}" "$((rss / 1024))" "$([ $rc -eq 0 ] && echo ok || echo "rc $rc")"
  [ $rc -eq 0 ] || tail -3 "$work/err.txt" >&2
}

echo "| instance | model | wall s | MiniZinc flatten s | fzn-bamboo read + post s | search to first solution s | peak RSS MiB | |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
for n in $sizes; do
  "$smp" gen uniform --n "$n" --binary -o "$work/u$n.bin" --dzn "$work/u$n.dzn" >/dev/null || exit 1
  run "complete, n = $n (binary)" "$root/models/stable_marriage_file.mzn" "$work/u$n.dzn"
done
"$smp" gen smi --n 10000 --k 20 --binary -o "$work/smi.bin" --dzn "$work/smi.dzn" >/dev/null &&
  run "SMI 10000 x 10000, k = 20" "$root/models/smi_file.mzn" "$work/smi.dzn"
"$smp" gen nrmp --binary -o "$work/nrmp.bin" --dzn "$work/nrmp.dzn" >/dev/null &&
  run "HR, NRMP-shaped" "$root/models/hr_file.mzn" "$work/nrmp.dzn"
