#!/bin/sh
# Golden tests of fzn-bamboo: each golden/NAME.fzn is run with the arguments on its first
# line (`% args: -a`, the file name appended) and its standard output must equal
# golden/NAME.expected byte for byte, with exit status 0. Standard error is not compared
# (warnings about ignored annotations are allowed). The expected files are justified by
# check_golden.py (a brute-force reference and fzn-gecode), never copied from fzn-bamboo.
#
#   run_golden.sh FZN_BAMBOO GOLDEN_DIR [NAME...]     (no NAME: every case)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/runner_common.sh"
fails=0
for name in "$@"; do
  first=$(head -n 1 "$name.fzn")
  case $first in
    "% args:"*) args=${first#"% args:"} ;;
    *) echo "FAIL $name: the first line must be '% args: ...'"; fails=$((fails + 1)); continue ;;
  esac
  # Relative file name, so that messages and output do not depend on the checkout path.
  # shellcheck disable=SC2086
  "$bin" $args "$name.fzn" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: exit status $rc (expected 0)"
    sed 's/^/  stderr: /' "$tmp/err" | head -n 20
    fails=$((fails + 1))
  elif ! cmp -s "$tmp/out" "$name.expected"; then
    echo "FAIL $name: standard output differs from $name.expected (- expected, + fzn-bamboo $args):"
    diff -u "$name.expected" "$tmp/out" | sed -n '3,60p'
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
done
[ $fails -eq 0 ] || { echo "$fails golden case(s) failed"; exit 1; }
exit 0
