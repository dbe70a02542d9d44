#!/usr/bin/env bash
# The file form of the ties constraints at school-choice scale: `bamboo-smp gen school`
# instances, MAX-HRT through `minizinc --solver bamboo models/max_hrt_file.mzn` (native HRT,
# weak stability, `solve maximize size`) against the engine's weakly stable matchings
# (bamboo-smp solve --algo da-stb, sic, kiraly) on the same file.
#   bench/ties_file_form.sh BAMBOO_SMP [TIME_LIMIT_S [PRESET...]]
# TIME_LIMIT_S: minizinc's --time-limit per run (default 540). PRESET: STUDENTS:PROGRAMMES
# (capacity 100, lists of 1..12, 4 priority classes, skew 0.8: `gen school`'s defaults);
# default 90000:700 (the New York City preset) 10000:80 (the same students per programme).
# MZN_SOLVER_PATH must name the folder of a bamboo.msc (a build tree's minizinc/solvers).
# Prints markdown tables; instance files and outputs go to ${WORK:-/tmp/bamboo-ties-file-form}.
set -uo pipefail
smp=${1:?usage: bench/ties_file_form.sh BAMBOO_SMP [TIME_LIMIT_S [PRESET...]]}
limit=${2:-540}
shift $(($# < 2 ? $# : 2))
presets=${*:-90000:700 10000:80}
work=${WORK:-/tmp/bamboo-ties-file-form}
mkdir -p "$work"
root=$(cd "$(dirname "$0")/.." && pwd)

echo "## The engine (bamboo-smp solve, the same file)"
echo
echo "| instance | algorithm | assigned | wall s | peak RSS MiB |"
echo "|---|---|---:|---:|---:|"
for p in $presets; do
  n=${p%%:*} h=${p##*:}
  file=$work/school$n.bin
  "$smp" gen school --n "$n" --hospitals "$h" --binary -o "$file" >/dev/null || exit 1
  for algo in da-stb sic kiraly; do
    /usr/bin/time -f '%e %M' -o "$work/time.txt" "$smp" solve --algo "$algo" "$file" -o "$work/m_$algo.txt" ||
      exit 1
    read -r wall rss < "$work/time.txt"
    printf '| school %s x %s | %s | %d | %.2f | %d |\n' "$n" "$h" "$algo" "$(grep -vc ' -$' "$work/m_$algo.txt")" \
      "$wall" "$((rss / 1024))"
  done
done

echo
echo "## minizinc --solver bamboo models/max_hrt_file.mzn (time limit ${limit} s)"
echo
echo "| instance | flatten s | read + post s | first solution s | best size | proved | nodes | failures | peak depth | wall s | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
for p in $presets; do
  n=${p%%:*} h=${p##*:}
  out=$work/mzn$n.out
  /usr/bin/time -f '%e %M' -o "$work/time.txt" minizinc --solver bamboo -s --output-time \
    --time-limit $((limit * 1000)) "$root/models/max_hrt_file.mzn" \
    -D "n_residents = $n; n_hospitals = $h; prefs_file = \"$work/school$n.bin\";" > "$out" 2> "$work/mzn$n.err"
  read -r wall rss < "$work/time.txt"
  stat() { sed -n "s/^%%%mzn-stat: $1=//p" "$out" | head -1; }
  first=$(awk '/^----------$/ {seen = 1} seen && /^% time elapsed:/ {print $4; exit}' "$out")
  best=$(sed -n 's/^size = \(.*\);$/\1/p' "$out" | tail -1)
  printf '| school %s x %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %d |\n' "$n" "$h" "$(stat flatTime)" \
    "$(stat initTime)" "${first:-none}" "${best:--}" "$(grep -q '^==========$' "$out" && echo yes || echo no)" \
    "$(stat nodes)" "$(stat failures)" "$(stat peakDepth)" "$wall" "$((rss / 1024))"
done
