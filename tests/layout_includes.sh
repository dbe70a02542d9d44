#!/bin/sh
# CTest layout.includes: every #include "..." of a folder names a header that folder may use
# (docs/architecture.md, "Layout"). CMake enforces the same
# rule through include directories (a target that cannot see a header cannot include it);
# this check also catches a header reached by a relative path or an include directory added
# by hand, and says which rule a line breaks.
#
#   base/              base
#   engine/            base, engine (its internal/ folders too), cuda/'s interfaces
#   smc/               base, smc (its internal/ too), cuda/'s interfaces
#   cuda/              cuda and base only (it knows pointers, sizes and streams, as CUB does)
#   shim/, tools/      their own, and the public headers of the propagator's parts
#   minizinc/          its own, shim/, and the public headers of the propagator's parts (never cuda/)
#   tests/, bench/     anything but the other folders' .cc/.cuh internals (tests see internal/)
#
# Usage: layout_includes.sh SOURCE_DIR. A name that is no header of the tree (a generated
# parser header, a system header in quotes) is not checked.
set -u
root=${1:?usage: layout_includes.sh SOURCE_DIR}
cd "$root" || exit 2

names() { # the base names of the headers matching the find arguments
  find "$@" -type f \( -name '*.h' -o -name '*.hh' -o -name '*.cuh' \) 2>/dev/null | sed 's#.*/##' | sort -u
}
base=$(names propagator/base)
engine=$(names propagator/engine -not -path '*/internal/*')
engine_int=$(names propagator/engine -path '*/internal/*')
smc=$(names propagator/smc -not -path '*/internal/*')
smc_int=$(names propagator/smc -path '*/internal/*')
cuda_pub=$(names cuda -name '*.h')
cuda_all=$(names cuda)
shim_pub=$(names shim -name '*.h')
shim_all=$(names shim)
minizinc=$(names minizinc)
tools=$(names tools)
tests=$(names tests)
bench=$(names bench)
known=$(printf '%s\n' $base $engine $engine_int $smc $smc_int $cuda_all $shim_all $minizinc $tools $tests $bench | sort -u)

in_list() { # in_list NAME LIST...
  n=$1
  shift
  for x in "$@"; do [ "$x" = "$n" ] && return 0; done
  return 1
}

bad=0
check() { # check FOLDER "ALLOWED NAMES" RULE
  folder=$1 allowed=$2 rule=$3
  files=$(find "$folder" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hh' -o -name '*.cu' \
                                    -o -name '*.cuh' \) 2>/dev/null)
  for f in $files; do
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
      inc=$(printf '%s\n' "$line" | sed 's/^[^"]*"\([^"]*\)".*/\1/')
      name=${inc##*/}
      in_list "$name" $known || continue
      # shellcheck disable=SC2086
      if ! in_list "$name" $allowed || [ "$name" != "$inc" ]; then
        echo "$f:${line%%:*}: #include \"$inc\": $rule"
        echo x >>"$tmp"
      fi
    done
  done
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

check propagator/base "$base" "base/ includes only base/"
check propagator/engine "$base $engine $engine_int $cuda_pub" \
  "engine/ includes base/, engine/ and cuda/'s interfaces"
check propagator/smc "$base $smc $smc_int $cuda_pub" "smc/ includes base/, smc/ and cuda/'s interfaces"
check cuda "$cuda_all $base" "cuda/ includes base/ and cuda/ only"
check shim "$shim_all $base $engine $smc" "shim/ includes the public headers of the propagator's parts"
check tools "$tools $base $engine $smc" "tools/ includes the public headers of the propagator's parts"
check minizinc "$minizinc $shim_pub $base $engine $smc" \
  "minizinc/ includes shim/ and the public headers of the propagator's parts, never cuda/"
check tests "$tests $base $engine $engine_int $smc $smc_int $cuda_pub $shim_pub $minizinc $tools" \
  "tests/ include public headers and the parts' internal/ ones"
check bench "$bench $base $engine $smc $cuda_pub $shim_pub" "bench/ includes public headers"

if [ -s "$tmp" ]; then
  echo "layout.includes: $(wc -l <"$tmp") #include line(s) break the layout rule"
  exit 1
fi
echo "layout.includes: every #include follows the layout rule"
