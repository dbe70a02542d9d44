#!/bin/sh
# Checking bamboo's solutions with plain Gecode (docs/minizinc.md, "Checking solutions with
# another solver"): `minizinc --solver gecode` has no stable_matching of its own, and gets the
# decomposition by each route the docs give. Every route's `-a` solution set must equal
# bamboo's, on complete lists, HR and HRC.
#   1. -I minizinc/decomposition (the source tree)
#   2. cmake --install into a prefix, then -I PREFIX/share/bamboo/decomposition (and bamboo
#      through PREFIX/share/minizinc/solvers/bamboo.msc)
#   3. a Preferences.json whose solverDefaults give Gecode the -I, for tools that run a bare
#      `minizinc --solver gecode` (a checker such as mzn-bench's)
# usage: check_other_solver.sh SOURCE_DIR BUILD_DIR SOLVER_PATH WORK_DIR CMAKE
# Exit 77 (skipped) without minizinc or Gecode's MiniZinc solver.
set -u

SRC=$1
BUILD=$2
SOLVER_PATH=$3
WORK=$4/other_solver
CMAKE=$5

command -v minizinc >/dev/null 2>&1 || { echo "skip: no minizinc"; exit 77; }
minizinc --solvers 2>/dev/null | grep -q "org.gecode.gecode" || { echo "skip: no Gecode solver for MiniZinc"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
cd "$SRC" || exit 1

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# solutions OUT VAR=VALUE MINIZINC-ARGS...: the -a solution set, one solution a line, sorted;
# minizinc runs with VAR=VALUE in its environment.
solutions() {
  out=$1
  setting=$2
  shift 2
  env "$setting" minizinc -a "$@" >"$WORK/raw" 2>"$WORK/err" || { cat "$WORK/err" >&2; fail "minizinc -a $*"; }
  grep -q '^==========$' "$WORK/raw" || fail "minizinc -a $*: the search did not finish"
  awk '/^----------$/ { print line; line = ""; next } /^==========$/ { next } { line = line $0 " " }' \
    "$WORK/raw" | sort >"$out"
  [ -s "$out" ] || fail "minizinc -a $*: no solution"
}

# The models: name, then the model and data files.
MODELS="sm:models/stable_marriage.mzn:models/table1.dzn
hr:models/hr_match.mzn:models/hr8.dzn:models/hr8_no_rules.dzn
hrc:models/hrc_match.mzn:models/hrc_small.dzn"

# Without the decomposition Gecode cannot compile the models: what the docs' section is for.
HOME=$WORK minizinc --solver gecode models/stable_marriage.mzn models/table1.dzn >"$WORK/raw" 2>"$WORK/err" &&
  fail "plain Gecode ran stable_marriage.mzn without the decomposition"
grep -q "Cannot open file 'stable_matching.mzn'" "$WORK/err" || { cat "$WORK/err" >&2; fail "plain Gecode's error"; }

# The install route: a prefix of our own (fzn-bamboo, mznlib, decomposition, bamboo.msc).
PREFIX=$WORK/prefix
"$CMAKE" --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "cmake --install"; }
[ -f "$PREFIX/share/bamboo/decomposition/stable_matching.mzn" ] || fail "the decomposition is not installed"

# The user-configuration route: MiniZinc reads $HOME/.minizinc/Preferences.json.
mkdir -p "$WORK/home/.minizinc"
printf '{ "solverDefaults": [["org.gecode.gecode", "-I", "%s"]] }\n' "$PREFIX/share/bamboo/decomposition" \
  >"$WORK/home/.minizinc/Preferences.json"

echo "$MODELS" | while IFS= read -r spec; do
  name=${spec%%:*}
  files=$(echo "${spec#*:}" | tr ':' ' ')
  # shellcheck disable=SC2086 # the files are split on purpose
  {
    solutions "$WORK/$name.bamboo" "MZN_SOLVER_PATH=$SOLVER_PATH" --solver bamboo $files
    solutions "$WORK/$name.gecode" "HOME=$WORK" --solver gecode -I minizinc/decomposition $files
    solutions "$WORK/$name.installed" "HOME=$WORK" --solver gecode -I "$PREFIX/share/bamboo/decomposition" $files
    solutions "$WORK/$name.bamboo_installed" "MZN_SOLVER_PATH=$PREFIX/share/minizinc/solvers" --solver bamboo $files
    solutions "$WORK/$name.preferences" "HOME=$WORK/home" --solver gecode $files
  }
  for route in gecode installed bamboo_installed preferences; do
    cmp -s "$WORK/$name.bamboo" "$WORK/$name.$route" || {
      diff "$WORK/$name.bamboo" "$WORK/$name.$route" >&2
      fail "$name: bamboo's solutions and $route's differ"
    }
  done
  echo "ok $name: $(wc -l <"$WORK/$name.bamboo") solutions, the same on every route"
done || exit 1
# Table 1 has exactly 2 stable matchings (models/README.md).
[ "$(wc -l <"$WORK/sm.bamboo")" -eq 2 ] || fail "table1: expected 2 stable matchings"
echo "ok"
