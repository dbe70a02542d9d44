#!/bin/sh
# End-to-end tests through MiniZinc with the build-tree solver configuration (see e2e.py):
# the examples of models/ against models/README.md, and random Stable Marriage instances
# against brute force and Gecode's decomposition.
#
#   tests/fzn/e2e.sh SOLVER_PATH [e2e.py options]
#     SOLVER_PATH: the folder of the build-tree bamboo.msc (BAMBOO_MZN_SOLVER_PATH,
#                  <build>/minizinc/solvers)
# Exit 77 (skipped) without minizinc or python3.
set -u
if [ $# -lt 1 ]; then
  echo "usage: $0 SOLVER_PATH [e2e.py options]" >&2
  exit 2
fi
solvers=$1
shift
command -v minizinc >/dev/null 2>&1 || { echo "minizinc not found: skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
[ -f "$solvers/bamboo.msc" ] || { echo "no bamboo.msc in $solvers" >&2; exit 2; }
MZN_SOLVER_PATH=$solvers${MZN_SOLVER_PATH:+:$MZN_SOLVER_PATH}
export MZN_SOLVER_PATH
minizinc --solvers | grep -q org.bamboo.bamboo || { echo "minizinc does not see bamboo.msc in $solvers" >&2; exit 2; }
exec python3 "$(dirname "$0")/e2e.py" "$@"
