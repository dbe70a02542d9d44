# Sourced by the HRC bench scripts (hrc_da_failure.sh, hrc_portfolio.sh): the binary and the
# output folder from the environment.
#   BIN  bamboo-smp (default build/tools/bamboo-smp); exits 2 when it is not there
#   OUT  the folder for instances, matchings and raw lines (default a temporary one); made
BIN=${BIN:-build/tools/bamboo-smp}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT" || exit 3
[ -x "$BIN" ] || { echo "no bamboo-smp at '$BIN' (set BIN)" >&2; exit 2; }
