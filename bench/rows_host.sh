#!/usr/bin/env bash
# Peak host RSS and time of the host side of solve --gen-on gpu (husbands read from
# the women's rows, and --verify's check) with the rows regenerated (no lists) against host
# lists, and the RSS of `bamboo-smp plan`. Usage: bench/rows_host.sh BUILD_DIR N [KIND:GROUP ...]
# (default kinds random:5 uniform:0 solo:0). results/README.md indexes the results.
set -euo pipefail
B=${1:?build dir}
N=${2:-20000}
shift 2 || true
KINDS=${*:-random:5 uniform:0 solo:0}
SMP="$B/tools/bamboo-smp"
BENCH="$B/bench/rows-host-bench"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rss() { grep "Maximum resident" "$1" | awk '{printf "%.1f MiB", $6 / 1024}'; }
echo "machine: $(uname -m), $(nproc) CPUs, $(free -g | awk '/Mem:/ {print $2}') GiB; $(date -u +%F)"
for plan in "--gen-on gpu" ""; do
  /usr/bin/time -v "$SMP" plan --n 90000 $plan > "$TMP/plan.out" 2> "$TMP/plan.err" || true
  echo "plan --n 90000 $plan: peak RSS $(rss "$TMP/plan.err"); $(grep -v -e '^\s' -e 'Command' "$TMP/plan.err" | grep -i -e peak -e 'bamboo-smp:' | head -1)"
done
for kg in $KINDS; do
  kind=${kg%%:*}
  group=${kg##*:}
  [ "$group" = 0 ] && group=$N
  "$SMP" solve --gen "$kind" --n "$N" --group "$group" --seed 1 --algo gs-seq -o "$TMP/m.txt"
  for mode in lists rows; do
    echo "### $kind g=$group n=$N: $mode"
    /usr/bin/time -v "$BENCH" "$kind" "$N" "$group" 1 "$TMP/m.txt" "$mode" 2> "$TMP/time.err"
    echo "process peak RSS (time -v): $(rss "$TMP/time.err")"
  done
done
