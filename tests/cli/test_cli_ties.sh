#!/bin/sh
# End-to-end tests of bamboo-smp on ties (SMTI/HRT) files, one case per ctest test: gen smti,
# hrt and school, solve (da-stb, da-mtb, sic, kiraly), ties check and ties convert, the options
# refused for the kind or the algorithm, and the FILE:LINE errors.
# usage: test_cli_ties.sh BAMBOO_SMP WORK_DIR CASE
set -u

BIN=$1
CASE=$3
WORK=$2/$CASE
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

EXPECT_STREAMS="err out" # ties check reports on stdout
. "$(dirname "$0")/cli_lib.sh"

# Two men who both rank woman 0 first; she ties them, woman 1 accepts only man 1. The only
# maximum weakly stable matching is 0-0, 1-1; man 1 with woman 0 leaves man 0 single.
DOC='smti 2 2\n0\n0 1\n[0 1]\n1\n'

case_ties_solve() {
  write doc.txt "$DOC"
  expect 0 "verified: weakly stable (smti)" solve "$WORK/doc.txt" --algo kiraly --verify
  printf '0 0\n1 1\n' >"$WORK/want"
  same "$WORK/out" "$WORK/want"
  for algo in da-stb da-mtb sic; do
    for seed in 1 2 3 4 5 6; do
      expect 0 "$algo: weakly stable, 0 weakly blocking pairs" solve "$WORK/doc.txt" --algo $algo --seed $seed --verify
    done
  done
  # tie-breaking: some seed gives woman 0 to man 1 (one matched), some to man 0 (two)
  n1=0; n2=0
  for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
    run solve "$WORK/doc.txt" --algo da-stb --seed $seed
    m=$(grep -c -v ' -$' "$WORK/out")
    [ "$m" -eq 1 ] && n1=$((n1 + 1))
    [ "$m" -eq 2 ] && n2=$((n2 + 1))
  done
  [ $n1 -gt 0 ] && [ $n2 -gt 0 ] || fail "da-stb: the seed never changes the tie-breaking ($n1, $n2)"
  expect_ok solve "$WORK/doc.txt" --format json -q
  grep -q '"kind": *"smti"' "$WORK/out" || fail "json kind"
  expect 2 "algorithm 'gs-seq' does not take ties" solve "$WORK/doc.txt" --algo gs-seq
  cat "$WORK/doc.txt" | "$BIN" solve - --algo kiraly >"$WORK/pipe" 2>"$WORK/err" || fail "solve from stdin"
  same "$WORK/pipe" "$WORK/want"
  expect_ok algos
  for algo in da-stb da-mtb sic kiraly; do grep -q "^$algo " "$WORK/out" || fail "algos lacks $algo"; done
}

case_ties_check() {
  write doc.txt "$DOC"
  printf '0 0\n1 1\n' >"$WORK/good.txt"
  expect 0 "weakly stable" ties check "$WORK/doc.txt" --matching "$WORK/good.txt"
  # woman 0 ties the men: man 1 may strongly block (he is single: strictly wants her)
  expect 1 "not strongly stable: 1 blocking pair; the first: man 1 with woman 0" \
    ties check "$WORK/doc.txt" --matching "$WORK/good.txt" --stability strong
  expect 1 "not super-stable" ties check "$WORK/doc.txt" --matching "$WORK/good.txt" --stability super
  printf '0 -\n1 -\n' >"$WORK/empty.txt"
  expect 1 "not weakly stable: 3 blocking pairs; the first: man 0 with woman 0" \
    ties check "$WORK/doc.txt" --matching "$WORK/empty.txt"
  printf '0 1\n1 -\n' >"$WORK/bad.txt"
  expect 1 "man 0 is assigned woman 1, which is not an acceptable pair" \
    ties check "$WORK/doc.txt" --matching "$WORK/bad.txt"
  printf '0 0\n0 1\n' >"$WORK/twice.txt"
  expect 1 "twice.txt:2: resident 0 appears twice" ties check "$WORK/doc.txt" --matching "$WORK/twice.txt"
  expect 2 "--stability takes weak, strong or super, not 'odd'" \
    ties check "$WORK/doc.txt" --matching "$WORK/good.txt" --stability odd
  expect 2 "needs INSTANCE and --matching FILE" ties check "$WORK/doc.txt"
  expect 2 "expected 'ties check' or 'ties convert'" ties frobnicate
  expect_ok help ties
}

case_ties_gen() {
  expect_ok gen smti --n 30 --p1 0.4 --p2 0.6 --seed 5 -o "$WORK/a.txt"
  expect_ok gen smti --n 30 --p1 0.4 --p2 0.6 --seed 5 -o "$WORK/b.txt"
  same "$WORK/a.txt" "$WORK/b.txt"
  head -1 "$WORK/a.txt" | grep -q '^smti 30 30$' || fail "smti header"
  grep -q '\[' "$WORK/a.txt" || fail "no tie written"
  expect_ok gen hrt --n 200 --hospitals 10 --seed 2 -o "$WORK/h.txt"
  head -1 "$WORK/h.txt" | grep -q '^hrt 200 10$' || fail "hrt header"
  expect 0 "sic: weakly stable" solve "$WORK/h.txt" --algo sic --verify -q
  expect_ok gen school --n 3000 --hospitals 30 --capacity 80 -o "$WORK/s.bin" --binary
  expect 0 "kiraly: weakly stable" solve "$WORK/s.bin" --algo kiraly --verify -q
  expect 2 "--k goes with hrt and school, not with smti" gen smti --k 3
  expect 2 "--p1 goes with smti, not with hrt" gen hrt --p1 0.5
  expect 2 "p1 = 2 and p2 = 0.5: both must lie in [0, 1]" gen smti --n 3 --p1 2
  expect 2 "--binary needs -o FILE" gen smti --binary
  expect 2 "solve does not generate ties" solve --gen smti --n 5
}

case_ties_convert() {
  expect_ok gen hrt --n 50 --hospitals 5 --seed 9 -o "$WORK/a.txt"
  expect_ok ties convert "$WORK/a.txt" -o "$WORK/a.bin" --binary
  expect_ok ties convert "$WORK/a.bin" -o "$WORK/b.txt"
  same "$WORK/a.txt" "$WORK/b.txt"
  expect_ok solve "$WORK/a.bin" --algo da-mtb --seed 3 -o "$WORK/m1"
  expect_ok solve "$WORK/a.txt" --algo da-mtb --seed 3 -o "$WORK/m2"
  same "$WORK/m1" "$WORK/m2"
  expect 2 "needs INSTANCE and -o FILE" ties convert "$WORK/a.txt"
}

case_ties_bad_input() {
  write open.txt 'smti 2 2\n0\n[0 1\n0\n1\n'
  expect 1 "open.txt:3: man 1's list: '[' is never closed" solve "$WORK/open.txt"
  write nest.txt 'hrt 1 1\n[0]\n1: [[0]]\n'
  expect 1 "nest.txt:3: hospital 0's list: '[' inside a tie (ties do not nest)" solve "$WORK/nest.txt"
  write emptytie.txt 'smti 1 1\n[]\n0\n'
  expect 1 "emptytie.txt:2: man 0's list: an empty tie '[]'" solve "$WORK/emptytie.txt"
  write dup.txt 'smti 1 2\n[0 1] 0\n0\n0\n'
  expect 1 "dup.txt:2: man 0's list, position 2: id 0 appears twice" solve "$WORK/dup.txt"
  write range.txt 'hrt 1 1\n0\n1: 0 3\n'
  expect 1 "range.txt:3: hospital 0's list, position 1: id 3 is out of range 0..0" solve "$WORK/range.txt"
  write short.txt 'hrt 2 1\n0\n'
  expect 1 "short.txt:2: file ends after 1 of 3 lists" ties check "$WORK/short.txt" --matching "$WORK/short.txt"
  printf 'BBTIESL1\001\000' >"$WORK/trunc.bin"
  expect 1 "trunc.bin: truncated file" ties convert "$WORK/trunc.bin" -o "$WORK/x"
}

case_ties_options() {
  write doc.txt "$DOC"
  for opt in "--gpus 0" "--tail 2" "--tail-on cpu"; do
    expect 2 "${opt%% *} has no meaning for an SMTI/HRT instance" solve "$WORK/doc.txt" $opt
  done
  # --da: the HR algorithm of the deferred acceptance; every one gives gs-seq's matching
  expect 2 "--threads goes with --da mw-par or bamboo" solve "$WORK/doc.txt" --threads 2
  expect 2 "--da takes an HR algorithm: gs-seq, mw-par, gpu-la-min or bamboo, not 'gs-par'" \
    solve "$WORK/doc.txt" --da gs-par
  expect 2 "--da has no meaning for --algo kiraly" solve "$WORK/doc.txt" --algo kiraly --da gs-seq
  expect 2 "--da goes with an SMTI/HRT file, not with --gen" solve --gen random --n 5 --da gs-seq
  expect_ok gen hrt --seed 4 -o "$WORK/h.txt"
  printf 'hr 2 1\n0\n0\n1: 0 1\n' >"$WORK/hr.txt"
  expect 2 "--da goes with an SMTI/HRT file" solve "$WORK/hr.txt" --da gs-seq
  expect_ok solve "$WORK/h.txt" --algo sic --seed 2 -o "$WORK/want"
  expect 0 "sic: deferred acceptance on cpu mw-par" solve "$WORK/h.txt" --algo sic --seed 2 --da mw-par --threads 2 -v
  same "$WORK/out" "$WORK/want"
  expect 2 "--seed has no meaning for --algo kiraly" solve "$WORK/doc.txt" --algo kiraly --seed 2
  expect 2 "--side takes men or residents for an SMTI/HRT instance" solve "$WORK/doc.txt" --side women
  expect 2 "--k goes with --gen, not with an instance file" solve "$WORK/doc.txt" --k 3
  expect_ok solve "$WORK/doc.txt" --side men --seed 3 --time
  grep -q "^input .* ms, da-stb" "$WORK/err" || fail "--time"
}

command -v "case_$CASE" >/dev/null 2>&1 || fail "no such case"
"case_$CASE"
echo "ok [$CASE]"
