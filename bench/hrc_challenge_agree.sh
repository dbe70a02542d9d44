#!/bin/sh
# The MiniZinc Challenge's hrc problem (at most num_bp blocking pairs, fewest unassigned) on
# its own model (hrc/hrc.mzn, fzn-gecode) and on stable_matching_hrc (models/hrc_challenge.mzn,
# bamboo), same data, each capped at LIMIT seconds: a markdown table on stdout.
#   bench/hrc_challenge_agree.sh BUILD LIMIT instance...   (e.g. exp1-0-10 exp1-1-5670)
set -u
build=$1 limit=$2
shift 2
repo=/work/.mirror/MiniZinc+minizinc-benchmarks/repo
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$repo" show HEAD:hrc/hrc.mzn >"$tmp/hrc.mzn"
echo "| instance | gecode on hrc.mzn: objective (s) | bamboo on stable_matching_hrc: objective (s) |"
echo "|---|---|---|"
for i in "$@"; do
  git -C "$repo" show "HEAD:hrc/$i.dzn" >"$tmp/$i.dzn"
  run() { # solver model: "objective (seconds)", "(not proved)" when the limit stopped it
    start=$(date +%s.%N)
    out=$(MZN_SOLVER_PATH="$build/minizinc/solvers" timeout "$((limit + 10))" minizinc --solver "$1" \
          --time-limit "$((limit * 1000))" "$2" "$tmp/$i.dzn" 2>/dev/null)
    end=$(date +%s.%N)
    obj=$(printf '%s\n' "$out" | grep -o 'objective = [0-9]*' | tail -1 | grep -o '[0-9]*$')
    proved=$(printf '%s\n' "$out" | grep -c '^==========')
    printf '%s%s (%.1f)' "${obj:--}" "$([ "$proved" = 1 ] || echo ', not proved')" "$(echo "$end - $start" | bc)"
  }
  echo "| $i | $(run gecode "$tmp/hrc.mzn") | $(run bamboo "$root/models/hrc_challenge.mzn") |"
done
