#!/bin/sh
# Error tests of fzn-bamboo: each errors/NAME.fzn describes, in comment lines at its top,
#   % args: OPTIONS        options placed before the file (default: none)
#   % file: PATH           what to pass instead of NAME.fzn (e.g. a file that does not exist)
#   % exit: N              the expected exit status (required)
#   % stderr: TEXT         a line of standard error must contain TEXT (one line per message;
#                          every one must be found; messages are "NAME.fzn:LINE: message")
#   % no-stderr: TEXT       no line of standard error may contain TEXT (one line per text)
# A rejected model (exit != 0) must print nothing on standard output.
#
#   run_errors.sh FZN_BAMBOO ERRORS_DIR [NAME...]     (no NAME: every case)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/runner_common.sh"
fails=0
# The value of a header line "% KEY: value" (the first one).
header() { sed -n "s/^% $2: //p" "$1" | head -n 1; }
for name in "$@"; do
  f=$name.fzn
  args=$(header "$f" args)
  file=$(header "$f" file)
  [ -n "$file" ] || file=$f
  want=$(header "$f" exit)
  if [ -z "$want" ]; then
    echo "FAIL $name: no '% exit: N' line"
    fails=$((fails + 1))
    continue
  fi
  # shellcheck disable=SC2086
  "$bin" $args "$file" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  bad=
  [ "$rc" -eq "$want" ] || bad="exit status $rc, expected $want"
  if [ -z "$bad" ] && [ "$want" -ne 0 ] && [ -s "$tmp/out" ]; then
    bad="a rejected model printed on standard output"
  fi
  if [ -z "$bad" ]; then
    sed -n 's/^% stderr: //p' "$f" >"$tmp/wanted"
    while IFS= read -r text; do
      if ! grep -F -q -- "$text" "$tmp/err"; then
        bad="standard error lacks: $text"
        break
      fi
    done <"$tmp/wanted"
  fi
  if [ -z "$bad" ]; then
    sed -n 's/^% no-stderr: //p' "$f" >"$tmp/unwanted"
    while IFS= read -r text; do
      if grep -F -q -- "$text" "$tmp/err"; then
        bad="standard error has: $text"
        break
      fi
    done <"$tmp/unwanted"
  fi
  if [ -n "$bad" ]; then
    echo "FAIL $name: $bad"
    sed 's/^/  stderr: /' "$tmp/err" | head -n 20
    sed 's/^/  stdout: /' "$tmp/out" | head -n 5
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
done
[ $fails -eq 0 ] || { echo "$fails error case(s) failed"; exit 1; }
exit 0
