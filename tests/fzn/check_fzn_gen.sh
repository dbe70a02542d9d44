#!/bin/sh
# smc-dzn-gen --fzn writes exactly the FlatZinc that MiniZinc writes for
# models/stable_marriage.mzn with smc-dzn-gen's data (bench/file_form.sh and the device
# scripts measure the front end on it at n = 10000, where MiniZinc itself takes minutes).
#   tests/fzn/check_fzn_gen.sh SMC_DZN_GEN SOLVER_PATH
# Exit 77 (skipped) without minizinc.
set -u
gen=$1
export MZN_SOLVER_PATH=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v minizinc >/dev/null 2>&1 || { echo "minizinc not found: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
for case in "5 1" "37 2" "120 3"; do
  set -- $case
  "$gen" "$1" "$2" > "$work/d.dzn" || exit 1
  minizinc --solver bamboo -c "$root/models/stable_marriage.mzn" "$work/d.dzn" -o "$work/paths.fzn" \
    --output-paths-to-file "$work/mzn.paths" || exit 1
  # bamboo.msc asks for the paths file (needsPathsFile), and MiniZinc then keeps every item's
  # origin in the FlatZinc as mzn_path annotations, which smc-dzn-gen does not write: compare
  # without them.
  sed 's/:: mzn_path("[^"]*")//g' "$work/paths.fzn" > "$work/mzn.fzn" || exit 1
  "$gen" "$1" "$2" --fzn > "$work/gen.fzn" || exit 1
  if cmp -s "$work/mzn.fzn" "$work/gen.fzn"; then
    echo "ok    n = $1, seed $2: identical"
  else
    echo "FAIL  n = $1, seed $2: smc-dzn-gen --fzn differs from MiniZinc's FlatZinc"
    diff "$work/mzn.fzn" "$work/gen.fzn" | cut -c1-200 | head -5
    failures=$((failures + 1))
  fi
done
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
