#!/bin/sh
# Flattens the cross-check corpus (corpus/NAME.mzn, with corpus/NAME.dzn when present) twice:
#   corpus/fzn/NAME.fzn         with MiniZinc's standard library only (the flattener
#                               org.minizinc.mzn-fzn of MiniZinc 2.6.4), so that fzn-gecode
#                               and fzn-bamboo both read it;
#   corpus/fzn-bamboo/NAME.fzn  with Bamboo's library (minizinc/mznlib, as bamboo.msc
#                               names it), so that the natives of minizinc/NATIVES.md appear.
# Then checks that every corpus/fzn file uses only FlatZinc builtins: no `predicate` item,
# and every constraint is declared without a body in std/flatzinc_builtins.mzn.
# The results are committed; run this after editing the corpus or minizinc/mznlib
# (cross_check.py reads them). --check flattens into a scratch folder instead and fails
# (exit 1) if a committed file differs, i.e. is stale, ignoring the order of the lines (which
# MiniZinc 2.6.4 does not keep stable from run to run); it exits 77 without minizinc.
#
#   tests/fzn/make_corpus.sh [--check] [NAME...]     (MINIZINC=... for another minizinc)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mzn=${MINIZINC:-minizinc}
mznlib=$root/minizinc/mznlib
check=
if [ "${1:-}" = --check ]; then
  check=1
  shift
  command -v "$mzn" >/dev/null 2>&1 || { echo "minizinc not found: skipped"; exit 77; }
fi
cd "$here/corpus"
if [ $# -eq 0 ]; then
  set -- $(ls *.mzn | sed 's/\.mzn$//')
fi
out=.
if [ -n "$check" ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT INT TERM
fi
mkdir -p "$out/fzn" "$out/fzn-bamboo"
for name in "$@"; do
  data=
  [ -f "$name.dzn" ] && data=$name.dzn
  # shellcheck disable=SC2086
  "$mzn" -c --no-output-ozn --solver org.minizinc.mzn-fzn "$name.mzn" $data -o "$out/fzn/$name.fzn"
  # shellcheck disable=SC2086
  "$mzn" -c --no-output-ozn --solver org.minizinc.mzn-fzn -I "$mznlib" "$name.mzn" $data \
    -o "$out/fzn-bamboo/$name.fzn"
done
if [ -n "$check" ]; then
  stale=0
  for name in "$@"; do
    for dir in fzn fzn-bamboo; do
      sort "$out/$dir/$name.fzn" >"$out/new"
      sort "$dir/$name.fzn" >"$out/old"
      if ! cmp -s "$out/new" "$out/old"; then
        echo "stale: corpus/$dir/$name.fzn (run tests/fzn/make_corpus.sh $name)"
        stale=$((stale + 1))
      fi
    done
  done
  echo "$# models checked, $stale stale file(s)"
  [ $stale -eq 0 ] || exit 1
  exit 0
fi
std=$("$mzn" --config-dirs | python3 -c 'import json, sys; print(json.load(sys.stdin)["mznStdlibDir"] + "/std")')
python3 - "$std/flatzinc_builtins.mzn" "$@" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"%[^\n]*", "", text)
builtins = set()
for m in re.finditer(r"\bpredicate\s+(\w+)\s*\(", text):
    # A builtin has no body: the declaration ends with ';' before any '='.
    depth, k = 0, m.end() - 1
    while True:
        c = text[k]
        depth += c == "("
        depth -= c == ")"
        k += 1
        if depth == 0:
            break
    rest = text[k:text.index(";", k)]
    if "=" not in rest:
        builtins.add(m.group(1))
bad = 0
for name in sys.argv[2:]:
    fzn = open("fzn/%s.fzn" % name).read()
    if re.search(r"^predicate\b", fzn, re.M):
        print("%s: fzn/%s.fzn declares a predicate (not std-only)" % (name, name))
        bad += 1
    for c in sorted(set(re.findall(r"^constraint (\w+)\(", fzn, re.M))):
        if c not in builtins:
            print("%s: fzn/%s.fzn uses %s, not a FlatZinc builtin" % (name, name, c))
            bad += 1
print("%d models flattened; %d problems" % (len(sys.argv) - 2, bad))
sys.exit(1 if bad else 0)
PY
