#!/usr/bin/env bash
# How often the couples-aware deferred acceptance (hrc-da, docs/hrc.md) ends unstable on HRC
# instances with correlated preferences (gen hrc-mallows and gen nrmp-2024, docs/generators.md
# "Mallows"), and with how many blocking pairs. For every setting of the grid it generates SEEDS
# instances (seeds 1..SEEDS), solves each with `bamboo-smp solve -q --time`, and prints one
# markdown row: unstable runs, the blocking pairs of the unstable ones (median, max), the median
# matched residents and hrc-da's median time. Sequential (one process at a time).
#
#   grid     SIZES (residents:hospitals, "100:10 1000:100"), SHARES (the share of residents who
#            are couples' members, 2C/N: "0.1 0.2"), LISTS (individual list lengths MIN:MAX,
#            "3:5 5:10"), PHIS (dispersions: X for both sides, or RESIDENTS:HOSPITALS, "1 0.5 1:0.5")
#   preset   nrmp-2024 at full size, PRESET_SEEDS seeds for each residents:hospitals dispersion
#            pair of PRESET_PHIS ("0.9995:0.7", the preset's own); PRESET_PHIS="" leaves it out
# Environment: BIN (default build/tools/bamboo-smp), SEEDS (20), SIZES, SHARES, PHIS,
# LISTS ("3:5"), PRESET_PHIS, PRESET_SEEDS (5), TIME_LIMIT (seconds a
# solve, 120; a run past it counts as "timed out"), OUT (folder for the instances and the raw
# lines, default a temporary one; the raw lines stay in $OUT/runs.txt).
# Usage: bench/hrc_da_failure.sh > table.md
set -uo pipefail
SEEDS=${SEEDS:-20}
SIZES=${SIZES-"100:10 1000:100"}
SHARES=${SHARES:-"0.05 0.2 0.4"}
PHIS=${PHIS:-"1 1:0.5 1:0.2 0.99:0.5 0.9 0.7 0.5"}
PRESET_PHIS=${PRESET_PHIS-"0.9995:0.7"}
PRESET_SEEDS=${PRESET_SEEDS:-5}
LISTS=${LISTS:-"3:5"}
TIME_LIMIT=${TIME_LIMIT:-120}
. "$(dirname "$0")/hrc_bench_env.sh" # BIN, OUT
RUNS=$OUT/runs.txt
: >"$RUNS"

# run LABEL GEN_ARGS...: one instance (its seed is in GEN_ARGS); appends
# "LABEL seed status blocking matched ms" to $RUNS, status stable | unstable | timeout | error.
run() {
  local label=$1 seed=$2
  shift 2
  local inst=$OUT/inst.hrc err=$OUT/err.txt
  if ! "$BIN" gen "$@" --seed "$seed" -o "$inst" 2>"$err"; then
    echo "gen $* --seed $seed failed: $(cat "$err")" >&2
    echo "$label $seed error 0 0 0" >>"$RUNS"
    return
  fi
  "$BIN" solve "$inst" -q --time --time-limit "$TIME_LIMIT" 2>"$err"
  local rc=$?
  awk -v label="$label" -v seed="$seed" -v rc="$rc" '
    /^hrc-da: / {st = ($2 == "stable,") ? "stable" : "unstable"; bp = ($2 == "stable,") ? $3 : $4
                 for (i = 1; i <= NF; i++) if ($(i + 1) == "matched;") m = $i}
    /^input .* ms, hrc-da and checker/ {ms = $(NF - 1)}
    END {if (rc == 7) st = "timeout"; else if (rc != 0 || st == "") st = "error"
         printf "%s %s %s %d %d %.1f\n", label, seed, st, bp, m, ms}' "$err" >>"$RUNS"
}

# row LABEL COLUMNS: the markdown row of LABEL's runs.
row() {
  awk -v label="$1" -v cols="$2" '
    function median(a, n,   i, j, t) {
      if (!n) return "-"
      for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {t = a[j]; a[j] = a[j - 1]; a[j - 1] = t}
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $1 == label {n++; m[n] = $5; t[n] = $6
      if ($3 == "unstable") {u++; b[u] = $4; if ($4 > mx) mx = $4}
      if ($3 == "timeout") to++
      if ($3 == "error") er++}
    END {printf "| %s | %d / %d | %s | %s | %s | %s |%s\n", cols, u, n, u ? median(b, u) : "-", u ? mx : "-",
                median(m, n), median(t, n), (to || er) ? sprintf(" %d timed out, %d errors", to, er) : ""}' "$RUNS"
}

here=$(dirname "$0")
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "- date (UTC): $(date -u '+%Y-%m-%d %H:%M'); commit $commit$(git -C "$here" diff --quiet HEAD 2>/dev/null || echo ' (with changes)')"
echo "- machine: $(nproc) CPUs, ${cpu:-unknown CPU}"
echo "- settings: SEEDS=$SEEDS SIZES=\"$SIZES\" SHARES=\"$SHARES\" PHIS=\"$PHIS\" LISTS=\"$LISTS\""
echo "  PRESET_PHIS=\"$PRESET_PHIS\" PRESET_SEEDS=$PRESET_SEEDS TIME_LIMIT=$TIME_LIMIT"
echo
echo "| residents | hospitals | couples | lists | phi residents / hospitals | hrc-da unstable | blocking pairs median | max | matched median | hrc-da ms median |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for size in $SIZES; do
  nr=${size%%:*} nh=${size##*:}
  for share in $SHARES; do
    nc=$(awk -v n="$nr" -v s="$share" 'BEGIN {printf "%d", n * s / 2 + 0.5}')
    for lists in $LISTS; do
      for phi in $PHIS; do
        label="g-$nr-$nh-$nc-$lists-$phi"
        for seed in $(seq 1 "$SEEDS"); do
          run "$label" "$seed" hrc-mallows --n "$nr" --hospitals "$nh" --couples "$nc" --lists "${lists%%:*}" \
            "${lists##*:}" --phi-residents "${phi%%:*}" --phi-hospitals "${phi##*:}"
        done
        row "$label" "$nr | $nh | $nc | ${lists%%:*}..${lists##*:} | ${phi%%:*} / ${phi##*:}"
      done
    done
  done
done
for pair in $PRESET_PHIS; do
  pr=${pair%%:*} ph=${pair##*:}
  label="p-$pr-$ph"
  for seed in $(seq 1 "$PRESET_SEEDS"); do
    run "$label" "$seed" nrmp-2024 --phi-residents "$pr" --phi-hospitals "$ph"
  done
  row "$label" "44900 (nrmp-2024) | 6400 | 1100 | 5..20, members 10..25 | $pr / $ph"
done
rm -f "$OUT/inst.hrc" "$OUT/err.txt"
