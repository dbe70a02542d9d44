#!/usr/bin/env bash
# On a GPU host: bamboo's upload overlapped with the initialisation, against a
# baseline binary, in one call. Run from a folder holding bamboo-smp (new) and bamboo-smp-base
# (the baseline), and the GPU tests; writes under $OUT (or /tmp/bamboo-out).
#
#   bench/overlap_device.sh profile   phases of one run each way, n = 30,000 (BAMBOO_GPU_PROFILE=1)
#   bench/overlap_device.sh bench     the tables: n = 10,000 and 30,000, perfect/solo/congested/
#                                     random g=5; base and new bamboo (from the instance and
#                                     with --pinned), mw-par (16 threads)
#   bench/overlap_device.sh scan      the proposal step's variants (BAMBOO_GPU_SCAN)
#   bench/overlap_device.sh test      test_gpu_overlap, test_gpu quick, test_gpu_scale quick,
#                                     test_gpu_multi quick; memcheck on test_gpu_overlap quick,
#                                     racecheck on the GPU tail
set -uo pipefail
OUT=${OUT:-/tmp/bamboo-out}
mkdir -p "$OUT"
RUNS=${RUNS:-5}
nvidia-smi --query-gpu=name,memory.total,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
nproc
for what in "$@"; do
  case $what in
  profile)
    for kind in congested solo; do
      for bin in ./bamboo-smp-base ./bamboo-smp; do
        echo "== $bin $kind n=30000"
        BAMBOO_GPU_PROFILE=1 $bin solve --gen $kind --n 30000 --algo bamboo --time -v 2>&1 >/dev/null | grep -v "^[0-9]* [0-9]*$"
      done
      echo "== earlier pipeline in the new binary, $kind"
      BAMBOO_GPU_OVERLAP=0 ./bamboo-smp solve --gen $kind --n 30000 --algo bamboo --time 2>&1 >/dev/null
    done
    ;;
  bench)
    for n in ${SIZES:-30000 10000}; do
      kinds=${KINDS:-congested,random,solo,perfect}
      ./bamboo-smp-base bench --algos bamboo --kinds $kinds --n $n --runs $RUNS --markdown "$OUT/base-$n.md" > /dev/null 2> "$OUT/base-$n.err"; echo "base $n rc=$?"
      BAMBOO_GPU_PROFILE=1 ./bamboo-smp bench --algos bamboo,mw-par --threads 16 --max-seconds ${MAX_SECONDS:-8} --kinds $kinds --n $n --runs $RUNS --markdown "$OUT/new-$n.md" > /dev/null 2> "$OUT/new-$n.err"; echo "new $n rc=$?"
      BAMBOO_GPU_PROFILE=1 ./bamboo-smp bench --algos bamboo --pinned --kinds $kinds --n $n --runs $RUNS --markdown "$OUT/pinned-$n.md" > /dev/null 2> "$OUT/pinned-$n.err"; echo "pinned $n rc=$?"
      ./bamboo-smp-base bench --algos bamboo --pinned --kinds $kinds --n $n --runs $RUNS --markdown "$OUT/base-pinned-$n.md" > /dev/null 2> "$OUT/base-pinned-$n.err"; echo "base pinned $n rc=$?"
      cat "$OUT/base-$n.md" "$OUT/new-$n.md" "$OUT/base-pinned-$n.md" "$OUT/pinned-$n.md"
      grep -h "^overlap" "$OUT/new-$n.err" "$OUT/pinned-$n.err" | cut -d: -f2 | head -40
      rm -f "$OUT"/*-$n.err
    done
    ;;
  scan)
    # The proposal step's variants (BAMBOO_GPU_SCAN; 1 = [Bamboo-SMP]'s kernel, the baseline),
    # each variant on the same binary and machine, from the packed pinned lists (the targets'
    # form; FORMS="pinned instance" adds the instance's 32-bit lists); SCANS repeats a
    # variant to show the noise.
    for n in ${SIZES:-30000 10000}; do
      kinds=${KINDS:-congested,random,solo,uniform}
      for s in ${SCANS:-1 a2 a4 u ua4 1 ua4}; do
        for form in ${FORMS:-pinned}; do
          flag=; [ "$form" = pinned ] && flag=--pinned
          BAMBOO_GPU_SCAN=$s ./bamboo-smp bench --algos bamboo $flag --kinds $kinds --n $n --runs $RUNS --markdown "$OUT/scan.md" > /dev/null 2> "$OUT/scan.err"
          echo "scan=$s n=$n form=$form rc=$?"
          grep "^| [0-9]" "$OUT/scan.md"
        done
      done
    done
    ;;
  test)
    for t in "./test_gpu_overlap ${QUICK:-}" "./test_gpu quick" "./test_gpu_scale quick" "./test_gpu_multi quick"; do
      start=$(date +%s)
      $t > "$OUT/tests.log" 2>&1; rc=$?
      echo "$t: rc=$rc, $(grep -v '^FAIL' "$OUT/tests.log" | tail -1), $(( $(date +%s) - start )) s"
      grep -m5 FAIL "$OUT/tests.log"
    done
    timeout 240 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 ./test_gpu_overlap quick > "$OUT/sanitizer.log" 2>&1
    echo "compute-sanitizer memcheck test_gpu_overlap quick: rc=$? $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$OUT/sanitizer.log" | tr '\n' ' ')"
    # racecheck on the whole test runs past 4 minutes (the 1024-thread tail block); one GPU tail
    # per shared-memory variant covers the block's barriers.
    for t in held16 keys16; do
      BAMBOO_GPU_TAIL=$t timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 ./bamboo-smp solve --gen solo --n 200 --algo bamboo --tail-on gpu > "$OUT/sanitizer.log" 2>&1
      echo "compute-sanitizer racecheck, GPU tail $t, solo n = 200: rc=$? $(grep -E 'RACECHECK SUMMARY' "$OUT/sanitizer.log")"
    done
    ;;
  esac
done
