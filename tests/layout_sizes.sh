#!/bin/sh
# CTest layout.file_sizes: no production source file over 700 lines (small files, one
# concern each, stay readable). Production is what ships: propagator/, cuda/, shim/,
# minizinc/ and tools/; tests/ and bench/ are not counted. Generated files (the lexer and
# parser) live in the build tree, so only the sources written by hand are read.
#
# Usage: layout_sizes.sh SOURCE_DIR [LIMIT]. Exit 1 naming every file over LIMIT (700).
set -u
root=${1:?usage: layout_sizes.sh SOURCE_DIR [LIMIT]}
limit=${2:-700}
cd "$root" || exit 2

status=0
checked=0
for file in $(find propagator cuda shim minizinc tools -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \
                -o -name '*.hh' -o -name '*.cu' -o -name '*.cuh' -o -name '*.y' -o -name '*.l' \) | sort); do
  lines=$(wc -l <"$file")
  checked=$((checked + 1))
  if [ "$lines" -gt "$limit" ]; then
    echo "$file: $lines lines, over $limit: split it by concern" >&2
    status=1
  fi
done
if [ "$checked" -eq 0 ]; then
  echo "no source files found under $root" >&2
  exit 2
fi
[ "$status" -eq 0 ] && echo "$checked production source files, none over $limit lines"
exit $status
