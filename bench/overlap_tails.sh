#!/usr/bin/env bash
# bamboo's one-block GPU tail variants on solo (BAMBOO_GPU_TAIL), from the instance and with
# --pinned, on one binary and machine. VARIANTS (default: every variant, then the default and
# the earlier default again, to show the noise), PINNED_VARIANTS, KINDS and SIZES choose.
KINDS=${KINDS:-solo}
SIZES=${SIZES:-30000,10000}
for v in ${VARIANTS:-held16 keys16 keys32 global16 global8 held16 keys16}; do
  echo "== $v"
  BAMBOO_GPU_TAIL=$v ./bamboo-smp bench --algos bamboo --kinds $KINDS --n $SIZES --runs ${RUNS:-3} 2>/dev/null | grep "^| [0-9]"
done
for v in ${PINNED_VARIANTS:-held16 keys16 global16 held16 keys16}; do
  echo "== $v --pinned"
  BAMBOO_GPU_TAIL=$v ./bamboo-smp bench --algos bamboo --pinned --kinds $KINDS --n $SIZES --runs ${RUNS:-3} 2>/dev/null | grep "^| [0-9]" | grep -v "pinned lists"
done
