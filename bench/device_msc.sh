#!/usr/bin/env bash
# A MiniZinc solver configuration for a carried fzn-bamboo on a GPU host (no install
# there): bamboo.msc in FOLDER, from minizinc/bamboo.msc.in, pointing at FZN_BAMBOO and at this
# checkout's minizinc/mznlib. Run from the repository root; used by bench/smc_device.sh and
# bench/research_device.sh (MZN_SOLVER_PATH=FOLDER then finds it).
#   bench/device_msc.sh FZN_BAMBOO FOLDER
set -euo pipefail
exe=${1:?usage: device_msc.sh FZN_BAMBOO FOLDER}
dir=${2:?usage: device_msc.sh FZN_BAMBOO FOLDER}
mkdir -p "$dir"
sed -e "s|\"mznlib\": \"[^\"]*\"|\"mznlib\": \"$PWD/minizinc/mznlib\"|" \
    -e "s|\"executable\": \"[^\"]*\"|\"executable\": \"$exe\"|" \
    minizinc/bamboo.msc.in | sed -e 's/@[A-Za-z_]*@/0.1.0/g' > "$dir/bamboo.msc"
