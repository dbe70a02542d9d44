#!/bin/sh
# A fuzzing campaign: parallel libFuzzer workers over the targets of this folder, then a
# merge of what they found into a minimised corpus per target. README.md says how it ran.
#
#   tests/fuzz/campaign.sh BIN_DIR SECONDS OUT_DIR TARGET:WORKERS...
#   e.g. tests/fuzz/campaign.sh build-fuzz/tests/fuzz 450 /tmp/out \
#            fzn_build_fuzz:7 instance_fuzz:5 fzn_fuzz:3
#
# Every worker runs SECONDS, restarted after a finding. OUT_DIR gets, per target,
# TARGET/crashes/ (crash-*, timeout-*, oom-*, leak-* inputs), TARGET/merged/ (the committed
# seeds plus the new inputs that add coverage; its hash-named files are the new ones),
# TARGET/fuzz-WORKER-RUN.log tails, and summary.txt (executions per worker, from -print_final_stats).
# Work files go to $FUZZ_WORK (default /tmp/bamboo-fuzz).
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 BIN_DIR SECONDS OUT_DIR TARGET:WORKERS..." >&2
  exit 2
fi
bin=$(cd "$1" && pwd)
secs=$2
out=$3
shift 3
src=$(cd "$(dirname "$0")" && pwd)
work=${FUZZ_WORK:-/tmp/bamboo-fuzz}
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd)

# Options and seed folders of a target; $FUZZ_SEEDS/TARGET too, if there (an earlier
# campaign's merged corpus, to go on from).
target_opts() {
  case $1 in
  fzn_fuzz) echo "-dict=$src/fzn.dict -max_len=4096" ;;
  fzn_build_fuzz) echo "-dict=$src/fzn.dict -max_len=8192" ;;
  instance_fuzz) echo "-max_len=4096" ;;
  esac
}
target_seeds() {
  case $1 in
  fzn_fuzz) echo "$src/corpus" ;;
  fzn_build_fuzz) echo "$src/corpus_build $src/corpus $src/../fzn/golden $src/../fzn/floats $src/../fzn/corpus/fzn $src/../fzn/errors" ;;
  instance_fuzz) echo "$src/corpus_instances" ;;
  esac
  if [ -n "${FUZZ_SEEDS:-}" ] && [ -d "$FUZZ_SEEDS/$1" ]; then echo "$FUZZ_SEEDS/$1"; fi
}

# One worker: libFuzzer until the deadline, restarted after each finding (a crash, leak,
# timeout or out-of-memory ends a libFuzzer run; its input is kept under crashes/).
worker() { # TARGET WORKER_ID DEADLINE
  run=0
  while left=$(($3 - $(date +%s))) && [ "$left" -gt 0 ]; do
    # shellcheck disable=SC2046
    "$bin/$1" -max_total_time=$left -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$out/$1/crashes/" $(target_opts "$1") "$work/$1/new" \
      $(for d in $(target_seeds "$1"); do [ -d "$d" ] && echo "$d"; done) >"$work/$1/fuzz-$2-$run.log" 2>&1
    run=$((run + 1))
  done
}

start=$(date +%s)
deadline=$((start + secs))
for spec; do
  t=${spec%%:*}
  n=${spec#*:}
  mkdir -p "$work/$t/new" "$out/$t/crashes"
  w=0
  while [ $w -lt "$n" ]; do
    worker "$t" $w $deadline &
    w=$((w + 1))
  done
done
wait
echo "fuzzing: $(($(date +%s) - start)) s wall" >"$out/summary.txt"

for spec; do
  t=${spec%%:*}
  n=${spec#*:}
  execs=0
  for log in "$work/$t"/fuzz-*.log; do
    [ -f "$log" ] || continue
    e=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
    execs=$((execs + ${e:-0}))
    tail -n 25 "$log" >"$out/$t/$(basename "$log")"
  done
  mkdir -p "$out/$t/merged"
  for d in $(target_seeds "$t"); do [ -d "$d" ] && cp "$d"/* "$out/$t/merged/" 2>/dev/null; done
  # shellcheck disable=SC2046
  "$bin/$t" -merge=1 $(target_opts "$t") -timeout=10 -rss_limit_mb=2048 "$out/$t/merged" "$work/$t/new" \
    >"$out/$t/merge.log" 2>&1
  echo "$t: $n workers x $secs s, $execs executions, $(ls "$out/$t/crashes" | wc -l) crash files," \
    "$(ls "$work/$t/new" | wc -l) new inputs, merged corpus $(ls "$out/$t/merged" | wc -l) files" >>"$out/summary.txt"
done
cat "$out/summary.txt"
