#!/usr/bin/env bash
# Packs what bench/smc_device.sh needs on a GPU host into .device-carry/ (git-ignored;
# name it in the device tool's `carry`): the binaries of a CUDA build made here (nvcc
# builds sm_90 code without a GPU), the Gecode, GMP and MPFR libraries they load, and
# MiniZinc with its standard library. The GPU host need have neither Gecode nor MiniZinc, and
# Debian's packages of them pull in Qt; these few files are all the runs need.
#   bench/device_bundle.sh [BUILD_DIR] [--xz]   default: build
# With GECODE=1 it also packs fzn-gecode and every library it loads (Qt and ICU among them:
# Debian builds it with Gist) under .device-carry/gecode/, for bench/research_device.sh's
# comparison with Gecode on the same machine; about 24 MiB more in the .tar.xz.
# With --xz it also packs .device-carry.tar.xz (about 8 MiB instead of 63: the test binaries
# carry the static CUDA runtime), for when the bundle and the tree pass the device's 64 MiB:
# carry that file and start the command with `tar xJf .device-carry.tar.xz &&`.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
C=.device-carry
if ! grep -q 'CMAKE_CUDA_COMPILER:' "$BUILD/CMakeCache.txt" 2>/dev/null; then
  echo "device_bundle: $BUILD is not a CUDA build (configure where nvcc is found)" >&2
  exit 1
fi
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
rm -rf "$C"
mkdir -p "$C/bin" "$C/lib" "$C/usr/bin" "$C/usr/share"
for t in tests/test_smc_par tests/test_smc_gecode tests/test_smc_smi_search tests/test_smc_smi_gecode tests/test_smc_gpus tests/test_gpu tests/test_hr tests/test_smc_hr_accel tests/test_smc_hr_native tests/test_hrc_accel tests/test_smc_calibration tests/test_gpu_scale tests/test_gpu_multi tests/test_gpu_gen tests/test_gpu_overlap tests/test_gen_rows tests/test_ties_da tests/test_hrc_da_core bench/gen-bench bench/init-floor \
         minizinc/fzn-bamboo bench/smc-gpu-bench bench/smc-latency-bench bench/smc-hr-path-bench bench/smc-dzn-gen bench/smc-bench tools/bamboo-smp; do
  cp "$BUILD/$t" "$C/bin/"
done
for lib in $(ldd "$C"/bin/* "$(command -v minizinc)" | awk '/gecode|mpfr|gmp/ {print $3}' | sort -u); do
  cp -L "$lib" "$C/lib/"
done
# Symbols are not needed there and would take the bundle past the device's 64 MiB limit.
strip --strip-unneeded "$C"/bin/* "$C"/lib/* 2>/dev/null || true
cp "$(command -v minizinc)" "$C/usr/bin/"
cp -r /usr/share/minizinc "$C/usr/share/"
# Only bamboo runs there: no solver configuration pointing at a missing fzn-gecode.
rm -f "$C"/usr/share/minizinc/solvers/*.msc
if [ "${GECODE:-0}" = 1 ]; then
  mkdir -p "$C/gecode/lib"
  cp "$(command -v fzn-gecode)" "$C/gecode/"
  cp /usr/share/minizinc/solvers/gecode.msc "$C/gecode/"
  for lib in $(ldd "$C/gecode/fzn-gecode" | awk '/=> \// {print $3}' | grep -v -E '/lib(c|m|pthread|dl|rt)\.so'); do
    cp -L "$lib" "$C/gecode/lib/"
  done
  strip --strip-unneeded "$C"/gecode/lib/* 2>/dev/null || true
fi
du -sh "$C"
if [ "${2:-}" = --xz ]; then
  tar cJf .device-carry.tar.xz "$C"
  du -sh .device-carry.tar.xz
fi
