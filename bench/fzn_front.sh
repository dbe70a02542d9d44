#!/usr/bin/env bash
# The FlatZinc front end on the dzn (matrix) form: fzn-bamboo on the FlatZinc that
# MiniZinc 2.6.4 writes for models/stable_marriage.mzn (smc-dzn-gen --fzn writes the same text
# byte for byte, fzn.gen_identical; MiniZinc itself takes minutes at n = 10000), first
# solution. Per run: the parse (from fzn-bamboo -v) and its rate over the whole file, the
# build (variables and posting: the constraint's data made from the literal arrays), search,
# and the peak RSS against the data the constraint keeps (4 n^2 ints).
#   bench/fzn_front.sh FZN_BAMBOO SMC_DZN_GEN [RUNS] [SIZES...]    default: 3 runs, 2400 10000
# Prints one markdown row per run; files go to ${WORK:-/tmp/bamboo-fzn-front}.
set -uo pipefail
fzn=${1:?usage: bench/fzn_front.sh FZN_BAMBOO SMC_DZN_GEN [RUNS] [SIZES...]}
gen=${2:?usage: bench/fzn_front.sh FZN_BAMBOO SMC_DZN_GEN [RUNS] [SIZES...]}
runs=${3:-3}
shift 3 2>/dev/null || shift $#
sizes=${*:-2400 10000}
work=${WORK:-/tmp/bamboo-fzn-front}
mkdir -p "$work"

echo "| n | FlatZinc MB | parse s | parse GB/s | build s | parse + build s | search s | peak RSS MiB | data kept MiB | peak / kept |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  "$gen" "$n" 1 --fzn > "$work/b$n.fzn" || exit 1
  bytes=$(stat -c %s "$work/b$n.fzn")
  for r in $(seq "$runs"); do
    /usr/bin/time -f '%M' -o "$work/rss.txt" "$fzn" -v -s "$work/b$n.fzn" > "$work/out.txt" 2> "$work/err.txt" ||
      { tail -3 "$work/err.txt" >&2; exit 1; }
    line=$(grep 'fzn-bamboo: parsed in' "$work/err.txt")
    parse=$(echo "$line" | sed -n 's/.*parsed in \([0-9.]*\) s.*/\1/p')
    build=$(echo "$line" | sed -n 's/.*built in \([0-9.]*\) s.*/\1/p')
    solve=$(sed -n 's/^%%%mzn-stat: solveTime=//p' "$work/out.txt" | head -1)
    rss=$(($(cat "$work/rss.txt") / 1024))
    awk -v n="$n" -v b="$bytes" -v p="$parse" -v c="$build" -v s="$solve" -v r="$rss" 'BEGIN {
      kept = 4 * n * n * 4 / 1048576
      printf "| %d | %.0f | %.3f | %.2f | %.3f | %.3f | %.3f | %d | %.0f | %.2f |\n",
             n, b / 1e6, p, b / p / 1e9, c, p + c, s, r, kept, r / kept }'
  done
done
