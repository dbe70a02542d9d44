#!/usr/bin/env bash
# Sanitizer runs (docs/sanitizers.md). Each builds its own tree, without CUDA, with
# warnings as errors and assertions on, and runs ctest there:
#
#   tests/sanitize.sh asan     ASan + LeakSanitizer + UBSan (fatal): the whole suite, build-asan/
#   tests/sanitize.sh tsan     ThreadSanitizer: the tests labelled `threaded`, build-tsan/
#   tests/sanitize.sh all      both (what CI runs)
#
# Extra arguments go to ctest (say -R test_shim). The runtime options and the suppression
# files (tests/sanitize/*.supp) are set on the tests by tests/CMakeLists.txt, so plain
# `ctest --test-dir build-asan` behaves the same.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

run() {
  local option=$1 dir=$2
  shift 2
  # RelWithDebInfo without its -DNDEBUG: the sanitizer runs keep the code's assertions.
  cmake -S . -B "$dir" -DBAMBOO_SANITIZE="$option" -DBAMBOO_CUDA=OFF -DBAMBOO_WERROR=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g"
  cmake --build "$dir" -j"$jobs"
  ctest --test-dir "$dir" --output-on-failure -j"$jobs" "$@"
}

kind=${1:-}
[ $# -gt 0 ] && shift
case $kind in
  asan) run address build-asan "$@" ;;
  tsan) run thread build-tsan -L threaded "$@" ;;
  all) run address build-asan "$@" && run thread build-tsan -L threaded "$@" ;;
  *) echo "usage: tests/sanitize.sh asan|tsan|all [ctest arguments]" >&2; exit 2 ;;
esac
