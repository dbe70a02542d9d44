#!/usr/bin/env bash
# Search speed of the HRC constraint through MiniZinc's file form (models/hrc_file.mzn): nodes,
# nodes per second of search and peak RSS of fzn-bamboo on NRMP-shaped instances (`gen
# nrmp-couples`, docs/generators.md). Each instance is generated once and flattened once
# (`minizinc -c`); fzn-bamboo then runs on the .fzn under /usr/bin/time -v with `-s` and either
# a time limit (`-t`, the speed) or a node limit (`-node`, the same search before and after a
# change: equal nodes, failures and bp). Prints one markdown row per instance and mode.
#
#   bench/hrc_nodes.sh [CASE...]     CASE = COUPLES:SEED[:RESIDENTS:HOSPITALS:POSTS]
#                                    default "1000:1:15000:2100:13700 3000:6"
# Environment: BUILD (build tree, default build), FZN (the fzn-bamboo to time, default the
# build tree's: a copy of an older one compares two versions on the same .fzn), TIME_MS (fzn-bamboo -t, 30000), NODES
# (-node for the second run, 200; 0 skips it), WORK (instances and logs, /tmp/bamboo-hrc-nodes),
# FZN_ARGS (more fzn-bamboo arguments, e.g. "-p 2").
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
smp=$build/tools/bamboo-smp
fzn=${FZN:-$build/minizinc/fzn-bamboo}
time_ms=${TIME_MS:-30000}
nodes=${NODES:-200}
work=${WORK:-/tmp/bamboo-hrc-nodes}
cases=${*:-"1000:1:15000:2100:13700 3000:6"}
mkdir -p "$work" || exit 3
for f in "$smp" "$fzn"; do [ -x "$f" ] || { echo "missing $f (BUILD=$build)" >&2; exit 2; }; done
export MZN_SOLVER_PATH=$build/minizinc/solvers

# stat NAME FILE: the value of %%%mzn-stat: NAME= (last one), or "-".
stat() { sed -n "s/^%%%mzn-stat: $1=//p" "$2" | tail -1 | grep . || echo -; }

# run LABEL FZN MODE-ARGS...: one fzn-bamboo run, one row.
run() {
  local label=$1 model=$2
  shift 2
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "$work/time.txt" "$fzn" -s "$@" ${FZN_ARGS:-} "$model" >"$work/out.txt" 2>"$work/err.txt"
  local rc=$? n solve rss bp fails
  n=$(stat nodes "$work/out.txt")
  fails=$(stat failures "$work/out.txt")
  solve=$(stat solveTime "$work/out.txt")
  rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$work/time.txt")
  bp=$(grep -o 'bp = [0-9]*' "$work/out.txt" | tail -1 | awk '{print $3}')
  printf '| %s | %s | %s | %s | %s | %s | %s | %.0f | %s |\n' "$label" "$*" "$n" "$fails" "${bp:--}" \
    "$(stat initTime "$work/out.txt")" "$solve" \
    "$(awk -v n="$n" -v s="$solve" 'BEGIN {print (s > 0 && n != "-") ? n / s : 0}')" "$((${rss:-0} / 1024))"
  [ $rc -eq 0 ] || { echo "rc $rc: $(tail -2 "$work/err.txt")" >&2; }
}

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "- $(date -u '+%Y-%m-%d %H:%M') UTC, commit $commit$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (with changes)'), $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo
echo "| instance | fzn-bamboo | nodes | failures | bp | init s | solve s | nodes/s | peak RSS MiB |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for c in $cases; do
  IFS=: read -r couples seed nr nh posts <<<"$c"
  label="nrmp-couples-$couples-s$seed${nr:+-n$nr}"
  inst=$work/$label.hrc
  if [ ! -s "$work/$label.fzn" ]; then
    "$smp" gen nrmp-couples --couples "$couples" --seed "$seed" ${nr:+--n "$nr"} ${nh:+--hospitals "$nh"} ${posts:+--posts "$posts"} \
      -o "$inst" >/dev/null || exit 1
    # the text file starts "hrc RESIDENTS HOSPITALS COUPLES"
    read -r _ residents _ ncouples <"$inst"
    printf 'nS = %d; nC = %d; file = "%s";\n' $((residents - 2 * ncouples)) "$ncouples" "$inst" >"$work/$label.dzn"
    minizinc --solver bamboo -c "$root/models/hrc_file.mzn" "$work/$label.dzn" --fzn "$work/$label.fzn" \
      --ozn "$work/$label.ozn" || exit 1
  fi
  run "$label" "$work/$label.fzn" -t "$time_ms"
  [ "$nodes" -gt 0 ] && run "$label" "$work/$label.fzn" -node "$nodes"
done
exit 0
