# What every bamboo-smp command-line test script shares; sourced after it sets BIN, CASE, WORK
# (the case's own empty folder). EXPECT_STREAMS names where `expect` looks for its text:
# "err" (the default) or "err out" for commands that report on stdout.

fail() {
  echo "FAIL [$CASE]: $*" >&2
  exit 1
}

# run ARGS...: runs bamboo-smp; stdout in $WORK/out, stderr in $WORK/err, status in $rc.
run() {
  "$BIN" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
}

# expect CODE TEXT ARGS...: bamboo-smp ARGS exits with CODE and prints TEXT (unless empty).
expect() {
  code=$1
  text=$2
  shift 2
  run "$@"
  if [ "$rc" -ne "$code" ]; then
    cat "$WORK/err" >&2
    fail "bamboo-smp $*: exit status $rc, expected $code"
  fi
  [ -n "$text" ] || return 0
  for s in ${EXPECT_STREAMS:-err}; do
    grep -F -q -- "$text" "$WORK/$s" && return 0
  done
  cat "$WORK/err" >&2
  fail "bamboo-smp $*: ${EXPECT_STREAMS:-err} lacks '$text'"
}

# expect_ok ARGS...: bamboo-smp ARGS succeeds.
expect_ok() { expect 0 "" "$@"; }

same() { cmp -s "$1" "$2" || fail "$1 and $2 differ"; }

# write NAME FORMAT: $WORK/NAME from a printf format (\n for new lines).
write() { printf "$2" >"$WORK/$1"; }
