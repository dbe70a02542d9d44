#!/bin/sh
# fzn-bamboo against hostile surroundings: one case per run, so that CTest shows
# each one.
#
#   check_robust.sh FZN_BAMBOO CASE
#
# CASEs:
#   dev_zero     an endless binary input (/dev/zero) ends at once with one message, exit 1
#   random       3 MB of random bytes: at most 21 lines of errors, exit 1, within seconds
#   fifo         the model read from a FIFO: opened once, all solutions found, no hang
#   dev_full     output to a full device (/dev/full): a message and exit 3, never exit 0
#   unreadable   a file without read permission, a missing file: exit 3, the file named
#   threads      -p far above the CPU count is clamped with a warning; the answers are those
#                of -p 1, quickly (-p 512 -a on a 3-solution model ran for minutes)
#   parent_death the parent of a long search is killed (SIGKILL): fzn-bamboo ends within
#                two seconds instead of searching on as an orphan (Linux)
#   paths_dev_zero  --paths /dev/zero on a model with an error to report: the paths file is
#                refused with a warning and the error names its FlatZinc line, in bounded memory
#   interrupt    SIGINT or SIGTERM stops an optimisation that cannot end: without -a or -i,
#                the best solution so far is printed, followed by ---------- and no
#                ==========, exit 0 (golden/time_limit_best.fzn without its time limit)
set -u
bin=$1
case_name=$2
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() {
  echo "FAIL $case_name: $*"
  [ -s "$tmp/err" ] && head -c 2000 "$tmp/err" | sed 's/^/  stderr: /'
  exit 1
}

# A small model with 3 solutions.
cat >"$tmp/small.fzn" <<'EOF'
var 1..3: a;
var 1..3: b;
var 1..3: c;
array [1..3] of var int: x :: output_array([1..3]) = [a, b, c];
constraint fzn_all_different_int(x);
constraint int_lt(a, b);
solve satisfy;
EOF

case $case_name in
fifo)
  # The model through a FIFO: opened once, by the parser (a probe that opened it first
  # would take the writer's data or wait for a second writer).
  mkfifo "$tmp/model.fzn" || { echo "skip: no mkfifo"; exit 77; }
  cat "$tmp/small.fzn" >"$tmp/model.fzn" &
  timeout 10 "$bin" -a "$tmp/model.fzn" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  kill $! 2>/dev/null
  [ $rc -eq 124 ] && fail "still waiting on the FIFO after 10 s"
  [ $rc -eq 0 ] || fail "exit status $rc, expected 0"
  [ "$(grep -c -- '^----------$' "$tmp/out")" -eq 3 ] || fail "not the 3 solutions: $(cat "$tmp/out")"
  grep -q '^==========$' "$tmp/out" || fail "the search was not complete"
  ;;
dev_zero)
  [ -r /dev/zero ] || { echo "skip: no /dev/zero"; exit 77; }
  timeout 10 "$bin" /dev/zero >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 124 ] && fail "still reading /dev/zero after 10 s"
  [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
  [ "$(wc -l <"$tmp/err")" -le 21 ] || fail "$(wc -l <"$tmp/err") lines of errors"
  grep -q "a NUL byte: this is binary data" "$tmp/err" || fail "no message about binary data"
  ;;
random)
  # Deterministic "random" bytes without NULs (a NUL stops the parse at once): a byte
  # sequence from awk's generator with a fixed seed.
  awk 'BEGIN { srand(18); for (i = 0; i < 3000000; i++) printf "%c", 1 + int(rand() * 255) }' >"$tmp/random.bin" 2>/dev/null
  [ "$(wc -c <"$tmp/random.bin")" -ge 1000000 ] || { echo "skip: awk cannot write bytes"; exit 77; }
  timeout 10 "$bin" "$tmp/random.bin" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
  lines=$(wc -l <"$tmp/err")
  [ "$lines" -le 21 ] || fail "$lines lines of errors (at most 20 and the stop)"
  grep -q "too many errors (20), stopping" "$tmp/err" || fail "no 'too many errors' line"
  ;;
dev_full)
  [ -w /dev/full ] || { echo "skip: no /dev/full"; exit 77; }
  for args in "" "-s" "-a -s"; do
    # shellcheck disable=SC2086
    "$bin" $args "$tmp/small.fzn" >/dev/full 2>"$tmp/err"
    rc=$?
    [ $rc -eq 3 ] || fail "fzn-bamboo $args > /dev/full: exit status $rc, expected 3"
    grep -q "cannot write the output: No space left on device" "$tmp/err" || fail "fzn-bamboo $args: no message"
  done
  ;;
paths_dev_zero)
  [ -r /dev/zero ] || { echo "skip: no /dev/zero"; exit 77; }
  cat >"$tmp/bad.fzn" <<'EOF'
var 1..3: x :: output_var;
constraint int_lin_eq([1, 2], [x], 3);
solve satisfy;
EOF
  # A memory limit, so that a reader without bounds fails here rather than on the machine.
  # Sanitizers reserve terabytes of address space (their runtime options are set in
  # sanitizer builds), so there the time limit and the warning's text stand alone.
  limit="ulimit -v 2097152"
  [ -n "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ] && limit=true
  ($limit && exec timeout 20 "$bin" --paths /dev/zero "$tmp/bad.fzn") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 124 ] && fail "still reading /dev/zero after 20 s"
  [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
  grep -q "warning: cannot read the paths file '/dev/zero' (line 1 is longer than 1048576 bytes)" "$tmp/err" ||
    fail "no warning about the paths file"
  grep -q "bad.fzn:2: int_lin_eq" "$tmp/err" || fail "the error does not name the FlatZinc line"
  ;;
unreadable)
  "$bin" "$tmp/missing.fzn" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 3 ] || fail "missing file: exit status $rc, expected 3"
  grep -q "missing.fzn" "$tmp/err" || fail "missing file: not named"
  cp "$tmp/small.fzn" "$tmp/locked.fzn"
  chmod 000 "$tmp/locked.fzn"
  if [ -r "$tmp/locked.fzn" ]; then
    echo "note: running as a user who reads every file (root): the permission case is skipped"
  else
    "$bin" "$tmp/locked.fzn" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 3 ] || fail "unreadable file: exit status $rc, expected 3"
    grep -q "locked.fzn.*Permission denied" "$tmp/err" || fail "unreadable file: no message naming it"
  fi
  ;;
threads)
  "$bin" -a "$tmp/small.fzn" >"$tmp/want" 2>"$tmp/err" || fail "-p 1 failed"
  start=$(date +%s)
  timeout 20 "$bin" -a -p 512 "$tmp/small.fzn" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 0 ] || fail "-p 512 -a: exit status $rc"
  [ $(($(date +%s) - start)) -le 5 ] || fail "-p 512 -a took more than 5 s"
  cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
  if [ "$cpus" -lt 512 ]; then
    grep -q "warning: -p 512 is more than the $cpus CPUs" "$tmp/err" || fail "no warning about -p 512"
  fi
  sort "$tmp/want" >"$tmp/want.sorted"
  sort "$tmp/out" >"$tmp/out.sorted"
  cmp -s "$tmp/want.sorted" "$tmp/out.sorted" || fail "-p 512 -a printed other solutions than -p 1"
  "$bin" -p 1025 "$tmp/small.fzn" >"$tmp/out" 2>"$tmp/err"
  [ $? -eq 2 ] || fail "-p 1025: expected the usage exit status 2"
  ;;
parent_death)
  [ "$(uname -s)" = Linux ] || { echo "skip: parent-death signal is Linux only"; exit 77; }
  # A search that never ends: every assignment of 14 variables over 1..14.
  {
    for i in $(seq 1 14); do echo "var 1..14: x$i :: output_var;"; done
    echo "solve satisfy;"
  } >"$tmp/long.fzn"
  # The parent: a shell that starts the search and waits for it.
  sh -c '"$1" -a "$2" >/dev/null 2>&1 & echo $! >"$3"; wait' sh "$bin" "$tmp/long.fzn" "$tmp/pid" &
  parent=$!
  n=0
  while [ ! -s "$tmp/pid" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  child=$(cat "$tmp/pid")
  [ -n "$child" ] || fail "the search did not start"
  sleep 0.5
  state() { [ -r "/proc/$child/stat" ] && sed 's/^.*) //' "/proc/$child/stat" | cut -c1; }
  s=$(state)
  [ -n "$s" ] && [ "$s" != Z ] || fail "the search ended before its parent was killed"
  kill -9 "$parent"
  n=0
  while [ $n -lt 20 ]; do
    s=$(state)
    [ -z "$s" ] || [ "$s" = Z ] && break
    sleep 0.1
    n=$((n + 1))
  done
  s=$(state)
  if [ -n "$s" ] && [ "$s" != Z ]; then
    kill -9 "$child" 2>/dev/null
    fail "fzn-bamboo still searching 2 s after its parent was killed"
  fi
  ;;
interrupt)
  here=$(cd "$(dirname "$0")" && pwd)
  for sig in INT TERM; do
    "$bin" -v "$here/golden/time_limit_best.fzn" >"$tmp/out" 2>"$tmp/err" &
    child=$!
    # -v says when the first solution came: the search, and its signal handler, are on.
    n=0
    while ! grep -q "first solution" "$tmp/err" && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
    grep -q "first solution" "$tmp/err" || { kill -9 "$child"; fail "SIG$sig: no solution within 10 s"; }
    sleep 0.2
    kill -s "$sig" "$child"
    n=0
    while kill -0 "$child" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
    if kill -0 "$child" 2>/dev/null; then
      kill -9 "$child"
      fail "SIG$sig: still searching 5 s after the signal"
    fi
    wait "$child"
    rc=$?
    [ $rc -eq 0 ] || fail "SIG$sig: exit status $rc, expected 0"
    cmp -s "$tmp/out" "$here/golden/time_limit_best.expected" ||
      fail "SIG$sig: the output is not the best solution so far alone: $(tr '\n' ' ' <"$tmp/out" | head -c 400)"
  done
  ;;
*)
  echo "unknown case $case_name" >&2
  exit 2
  ;;
esac
echo "ok   $case_name"
exit 0
