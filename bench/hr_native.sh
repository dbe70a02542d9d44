#!/usr/bin/env bash
# Hospitals/Residents native (stable_matching_hr_file) against the cloning reduction
# (stable_matching_hr_file_cloning), through the file form. For each
# instance shape and each form: the FlatZinc MiniZinc writes (lines, bytes, time to flatten),
# then fzn-bamboo on it alone under `ulimit -v` and `timeout`, one run at a time: the model it
# posts (int variables), peak RSS (/usr/bin/time -v), time to the first solution (from
# fzn-bamboo -v: since start, and of it the search) and the exit.
#   bench/hr_native.sh BUILD_DIR [MEM_KB [TIMEOUT_S]]     defaults: 12000000 KB, 900 s
# Shapes: the NRMP preset of bamboo-smp (31,000 residents, 2,300 hospitals, lists of 15, skew
# 0.5, capacities around 13.5) and a school-choice shape (80,000 students, 700 programmes,
# lists of 12, skew 0.5, capacities random 1..227 around 115). The model is models/hr_file.mzn
# with the short form of each predicate (same arguments for both). Prints a markdown table;
# files go to ${WORK:-/tmp/bamboo-hr-native}.
# A second table times a search with many decisions: bench/hr_blocks.py's instances (blocks of
# 5 hospitals with 13 stable matchings each) under int_search(residents, input_order,
# indomain_median), to the first solution.
set -uo pipefail
build=${1:?usage: bench/hr_native.sh BUILD_DIR [MEM_KB [TIMEOUT_S]]}
mem=${2:-12000000}
limit=${3:-900}
build=$(cd "$build" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-/tmp/bamboo-hr-native}
mkdir -p "$work"
export MZN_SOLVER_PATH="$build/minizinc/solvers"
smp="$build/tools/bamboo-smp"
fzn="$build/minizinc/fzn-bamboo"

for form in native cloning; do
  pred=stable_matching_hr_file
  [ "$form" = cloning ] && pred=stable_matching_hr_file_cloning
  sed "s/constraint stable_matching_hr_file(residents, posts, rp_len, hp_len, capacity, prefs_file);/constraint $pred(residents, posts, prefs_file);/" \
    "$root/models/hr_file.mzn" > "$work/$form.mzn"
  grep -q "constraint $pred(residents, posts, prefs_file);" "$work/$form.mzn" || { echo "cannot make $form.mzn" >&2; exit 1; }
done

"$smp" gen nrmp --binary -o "$work/nrmp.bin" --dzn "$work/nrmp.dzn" >/dev/null || exit 1
"$smp" gen hr --n 80000 --hospitals 700 --k 12 --skew 0.5 --binary -o "$work/school.bin" --dzn "$work/school.dzn" \
  >/dev/null || exit 1

echo "| shape | form | FlatZinc lines | FlatZinc MB | flatten s | int variables posted | peak RSS MiB | first solution s (search s) | exit |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
for shape in nrmp school; do
  for form in native cloning; do
    f="$work/$shape-$form"
    /usr/bin/time -f '%e' -o "$f.flat" minizinc --solver bamboo -c "$work/$form.mzn" "$work/$shape.dzn" \
      --fzn "$f.fzn" --ozn "$f.ozn" > /dev/null 2> "$f.cerr" || { tail -3 "$f.cerr" >&2; continue; }
    lines=$(wc -l < "$f.fzn")
    bytes=$(wc -c < "$f.fzn")
    (ulimit -v "$mem"; timeout "$limit" /usr/bin/time -v "$fzn" -v "$f.fzn" > "$f.out" 2> "$f.err")
    rc=$?
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$f.err")
    vars=$(sed -n 's/.*built in [0-9.]* s (\([0-9]*\) int.*/\1/p' "$f.err")
    first=$(sed -n 's/.*first solution \([0-9.]*\) s after the search started (\([0-9.]*\) s after start).*/\2 (\1)/p' "$f.err")
    case $rc in
      0) status=ok ;;
      124) status="timeout ${limit} s: $(grep -o 'fzn-bamboo: [a-z].*' "$f.err" | tail -1)" ;;
      *) status="rc $rc: $(grep -v '^\s' "$f.err" | tail -1)" ;;
    esac
    printf '| %s | %s | %s | %.1f | %s | %s | %s | %s | %s |\n' "$shape" "$form" "$lines" "$(echo "$bytes / 1048576" | bc -l)" \
      "$(cat "$f.flat")" "${vars:-?}" "$(( ${rss:-0} / 1024 ))" "${first:-none}" "$status"
  done
done

echo
echo "| blocks (residents, hospitals) | form | nodes | search s | ms per node | peak RSS MiB | exit |"
echo "|---|---|---:|---:|---:|---:|---|"
for blocks in 100 300; do
  python3 "$root/bench/hr_blocks.py" "$blocks" "$work/blocks$blocks" || exit 1
  for form in native cloning; do
    f="$work/blocks$blocks-$form"
    sed 's/^solve satisfy;/solve :: int_search(residents, input_order, indomain_median) satisfy;/' "$work/$form.mzn" > "$f.mzn"
    minizinc --solver bamboo -c "$f.mzn" "$work/blocks$blocks.dzn" --fzn "$f.fzn" --ozn "$f.ozn" > /dev/null 2> "$f.cerr" ||
      { tail -3 "$f.cerr" >&2; continue; }
    (ulimit -v "$mem"; timeout "$limit" /usr/bin/time -v "$fzn" -s "$f.fzn" > "$f.out" 2> "$f.err")
    rc=$?
    nodes=$(sed -n 's/^%%%mzn-stat: nodes=//p' "$f.out" | head -1)
    solve=$(sed -n 's/^%%%mzn-stat: solveTime=//p' "$f.out" | head -1)
    sols=$(sed -n 's/^%%%mzn-stat: solutions=//p' "$f.out" | head -1)
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$f.err")
    status=$([ $rc -eq 0 ] && [ "${sols:-0}" -ge 1 ] && echo ok || echo "rc $rc, ${sols:-0} solutions")
    printf '| %s (%d, %d) | %s | %s | %s | %.2f | %s | %s |\n' "$blocks" $((blocks * 50)) $((blocks * 5)) "$form" \
      "${nodes:-?}" "${solve:-?}" "$(echo "${solve:-0} * 1000 / ${nodes:-1}" | bc -l)" "$(( ${rss:-0} / 1024 ))" "$status"
  done
done
