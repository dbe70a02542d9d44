#!/bin/sh
# CTest layout.format: every C, C++ and CUDA file of the tree is formatted as .clang-format
# says (clang-format --dry-run -Werror). The layout depends on clang-format's version, so the
# check runs with the major version .clang-format names and is skipped (77) with any other or
# none; CI installs that one (the README's first command), so there it always runs.
# To format after an edit: `clang-format -i FILE...` (the same version).
# Usage: layout_format.sh SOURCE_DIR
set -u
root=${1:?usage: layout_format.sh SOURCE_DIR}
cd "$root" || exit 2
want=$(sed -n 's/^# clang-format major version: *\([0-9][0-9]*\).*/\1/p' .clang-format)
if ! command -v clang-format >/dev/null 2>&1; then
  echo "clang-format not found: skipped"
  exit 77
fi
have=$(clang-format --version | sed -n 's/.*clang-format version \([0-9][0-9]*\).*/\1/p')
if [ "$have" != "$want" ]; then
  echo "clang-format $have, .clang-format is written for $want: skipped"
  exit 77
fi
find propagator cuda shim minizinc tools tests bench -type f \
  \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hh' -o -name '*.cu' -o -name '*.cuh' \) \
  -not -path 'bench/results/*' | LC_ALL=C sort >/tmp/bamboo-format-files.$$
n=$(wc -l </tmp/bamboo-format-files.$$)
# -Werror: a file that would change is an error naming its first differing line.
if ! tr '\n' '\0' </tmp/bamboo-format-files.$$ | xargs -0 clang-format --dry-run -Werror; then
  rm -f /tmp/bamboo-format-files.$$
  echo "layout.format: the files above are not formatted (clang-format -i FILE)"
  exit 1
fi
rm -f /tmp/bamboo-format-files.$$
echo "layout.format: $n files formatted"
