#!/bin/sh
# End-to-end tests of bamboo-smp on HRC (couples) files, one case per ctest test: gen hrc and
# nrmp-couples, solve (hrc-da), hrc check and hrc convert, and the FILE:LINE errors.
# usage: test_cli_hrc.sh BAMBOO_SMP WORK_DIR CASE
set -u

BIN=$1
CASE=$3
WORK=$2/$CASE
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

EXPECT_STREAMS="err out" # hrc check and convert report on stdout
. "$(dirname "$0")/cli_lib.sh"

# docs/formats.md's example: couple (0, 1), single 2. Hospital 0 (capacity 1) ranks the single
# first, so the couple gets its second pair, (1, 1), and nothing blocks.
DOC='hrc 3 2 1\n0 1: 0 1  1 1\n-\n-\n0 1\n1: 2 0\n2: 1 0 2\n'
# No stable matching exists (brute force: 14 matchings, at least 1 blocking pair each).
NONE='hrc 4 2 1\n3 1: 1 0  1 1  0 1\n0 1\n-\n0 1\n-\n2: 2 1 3 0\n1: 0 2 1 3\n'

case_hrc_solve() {
  write doc.txt "$DOC"
  expect 0 "hrc-da: stable, 0 blocking pairs" solve "$WORK/doc.txt" --verify
  printf '0 1\n1 1\n2 0\n' >"$WORK/want"
  same "$WORK/out" "$WORK/want"
  grep -q "verified: stable (hrc, 3 residents, 1 couples, 2 hospitals)" "$WORK/err" || fail "verify line"
  expect_ok solve "$WORK/doc.txt" --algo hrc-da -o "$WORK/m.txt" --time
  same "$WORK/m.txt" "$WORK/want"
  grep -q "^input .* ms, hrc-da and checker" "$WORK/err" || fail "--time"
  expect 2 "algorithm 'gs-seq' does not take couples" solve "$WORK/doc.txt" --algo gs-seq
  write none.txt "$NONE"
  expect 0 "hrc-da: not stable" solve "$WORK/none.txt"
  expect 1 "verify failed: blocking pair" solve "$WORK/none.txt" --verify -q
  [ -s "$WORK/out" ] && fail "-q printed a matching"
  expect_ok algos
  grep -q "^hrc-da" "$WORK/out" || fail "algos lacks hrc-da"
}

case_hrc_check() {
  write doc.txt "$DOC"
  printf '0 1\n1 1\n2 0\n' >"$WORK/good.txt"
  expect 0 "stable" hrc check "$WORK/doc.txt" --matching "$WORK/good.txt"
  printf '# the single alone at 0, the couple out\n2 0\n0 -\n1 -\n' >"$WORK/bad.txt"
  expect 1 "not stable: 1 blocking pairs; the first: blocking pair (case 3b: both move, to one hospital): couple 0 (residents 0, 1) and (1, 1)" \
    hrc check "$WORK/doc.txt" --matching "$WORK/bad.txt"
  printf '0 0\n1 -\n2 1\n' >"$WORK/split.txt"
  expect 1 "couple 0: resident 0 is assigned but his partner 1 is unassigned" \
    hrc check "$WORK/doc.txt" --matching "$WORK/split.txt"
  printf '0 0\n1 1\n' >"$WORK/short.txt"
  expect 1 "short.txt: resident 2 is missing" hrc check "$WORK/doc.txt" --matching "$WORK/short.txt"
  printf '0 0\n0 1\n2 1\n' >"$WORK/twice.txt"
  expect 1 "twice.txt:2: resident 0 appears twice" hrc check "$WORK/doc.txt" --matching "$WORK/twice.txt"
  { printf '0 1\n1 1\n2 0\n#'; head -c 2000000 /dev/zero | tr '\0' x; printf '\n0 0\n'; } >"$WORK/long.txt"
  expect 1 "long.txt:4: line longer than 1048576 bytes" hrc check "$WORK/doc.txt" --matching "$WORK/long.txt"
  printf '0 0\n1 7\n2 1\n' >"$WORK/range.txt"
  expect 1 "range.txt:2: '7' is not a hospital 0..1" hrc check "$WORK/doc.txt" --matching "$WORK/range.txt"
  expect 2 "needs INSTANCE and --matching FILE" hrc check "$WORK/doc.txt"
  expect 2 "expected 'hrc check' or 'hrc convert'" hrc frobnicate
  expect_ok help hrc
}

case_hrc_bad_input() {
  write odd.txt 'hrc 3 2 1\n0 1: 0 1 1\n-\n-\n0\n1: 0 1 2\n1: 2\n'
  expect 1 "odd.txt:2: couple 0's list has an odd number of hospital ids" solve "$WORK/odd.txt"
  write twice.txt 'hrc 4 2 2\n0 1: 0 1\n1 2: 1 1\n-\n-\n-\n0\n1: 0 1 2\n1: 2\n'
  expect 1 "twice.txt:3: couple 1: resident 1 is already in couple 0 (line 2)" solve "$WORK/twice.txt"
  write own.txt 'hrc 3 2 1\n0 1: 0 1\n-\n1\n0\n1: 0 1 2\n1: 2\n'
  expect 1 "own.txt:4: resident 1 is in couple 0 (line 2)" solve "$WORK/own.txt"
  write range.txt 'hrc 3 2 1\n0 1: 0 5\n'
  expect 1 "range.txt:2: couple 0's list, pair 0: id 5 is out of range 0..1" solve "$WORK/range.txt"
  write trunc.txt 'hrc 3 2 1\n0 1: 0 1\n-\n'
  expect 1 "trunc.txt:3: file ends after 2 of 6 lines (truncated?): resident 1's line is missing" solve "$WORK/trunc.txt"
  write header.txt 'hrc 3 2\n'
  expect 1 "header.txt:1: the header lacks NC (couples)" solve "$WORK/header.txt"
  printf 'hrc 3 2 1\r\n0 1: 0 1 1 1\r\n-\r\n-\r\n0 1\r\n1: 2 0\r\n2: 1 0 2\r\n' >"$WORK/crlf.txt"
  expect 0 "hrc-da: stable" solve "$WORK/crlf.txt"
  printf '\357\273\277hrc 3 2 1\n0 1: 0 1 1 1\n-\n-\n0 1\n1: 2 0\n2: 1 0 2\n' >"$WORK/bom.txt"
  expect 0 "hrc-da: stable" solve "$WORK/bom.txt"
}

case_hrc_gen() {
  expect_ok gen hrc --n 100 --seed 5 -o "$WORK/a.txt"
  expect_ok gen hrc --n 100 --seed 5 -o "$WORK/b.txt"
  same "$WORK/a.txt" "$WORK/b.txt"
  head -1 "$WORK/a.txt" | grep -q '^hrc 100 10 10$' || fail "gen hrc's header"
  expect_ok gen hrc --n 100 --couples 25 --hospitals 10 --lists 2 4 --seed 6 -o "$WORK/c.txt"
  head -1 "$WORK/c.txt" | grep -q '^hrc 100 10 25$' || fail "--couples"
  expect_ok gen hrc --n 60 -o "$WORK/d.bin" --binary
  expect_ok hrc convert "$WORK/d.bin" -o "$WORK/d.txt"
  expect_ok gen hrc --n 60 -o "$WORK/d2.txt"
  same "$WORK/d.txt" "$WORK/d2.txt"
  expect_ok hrc convert "$WORK/d.txt" -o "$WORK/d2.bin" --binary
  same "$WORK/d.bin" "$WORK/d2.bin"
  if [ -w /dev/full ]; then # a full disk: exit status 3 and the file named, both formats
    expect 3 "cannot write '/dev/full': No space left" gen hrc --n 60 -o /dev/full
    expect 3 "cannot write '/dev/full': No space left" hrc convert "$WORK/d.txt" -o /dev/full --binary
  fi
  expect_ok solve "$WORK/d.bin" -o "$WORK/m1.txt"
  expect_ok solve "$WORK/d.txt" -o "$WORK/m2.txt"
  same "$WORK/m1.txt" "$WORK/m2.txt"
  expect_ok gen nrmp-couples --n 3000 --hospitals 420 --posts 2750 --couples 60 -o "$WORK/n.txt"
  head -1 "$WORK/n.txt" | grep -q '^hrc 3000 420 60$' || fail "nrmp-couples' header"
  expect 2 "gen hrc needs --n N" gen hrc
  expect 2 "12 couples: at most half of the 10 residents" gen hrc --n 10 --couples 12 --hospitals 5
  expect 2 "--lists needs two values, MIN and MAX" gen hrc --n 10 --lists 3
  expect 2 "--skew goes with nrmp-couples" gen hrc --n 10 --skew 1
  expect 2 "--binary needs -o FILE" gen nrmp-couples --binary
  expect_ok gen hrc --help
}

# solve --format json on HRC files: the matching of the text lines, stability and the blocking
# pairs hrc-da's checker counted, and the report still written when --verify fails (exit 1).
case_hrc_json() {
  command -v python3 >/dev/null 2>&1 || { echo "no python3: nothing to check"; return 0; }
  check() {
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
      "$1" "$2" || fail "$1: not $2"
  }
  write doc.txt "$DOC"
  expect_ok solve "$WORK/doc.txt" --format json --verify -o "$WORK/doc.json"
  check "$WORK/doc.json" 'r["matching"] == [1, 1, 0] and r["matched"] == 3'
  check "$WORK/doc.json" 'r["instance"] == {"kind": "hrc", "file": sys.argv[1][:-len("doc.json")] + "doc.txt", "generator": None, "residents": 3, "hospitals": 2, "couples": 1}'
  check "$WORK/doc.json" 'r["algorithm"] == "hrc-da" and r["side"] == "residents" and r["exit_status"] == 0'
  check "$WORK/doc.json" 'r["checks"] == {"verify": True, "stable": True, "blocking_pairs": 0}'
  check "$WORK/doc.json" 'set(r["times_ms"]) == {"input", "solve", "total"}'
  write none.txt "$NONE"
  expect_ok solve "$WORK/none.txt"
  cp "$WORK/out" "$WORK/none.lines"
  expect_ok solve "$WORK/none.txt" --format json
  python3 - "$WORK/out" "$WORK/none.lines" <<'EOF' || fail "json and text matchings differ"
import json, sys
r = json.load(open(sys.argv[1]))
want = [None if l.split()[1] == "-" else int(l.split()[1]) for l in open(sys.argv[2])]
assert r["matching"] == want, (r["matching"], want)
assert r["checks"]["stable"] is False and r["checks"]["blocking_pairs"] > 0 and r["checks"]["verify"] is False
EOF
  expect 1 "verify failed: blocking pair" solve "$WORK/none.txt" --format json --verify -q
  check "$WORK/out" '"matching" not in r and r["exit_status"] == 1 and r["checks"]["stable"] is False'
  expect 2 "--format takes text or json" solve "$WORK/doc.txt" --format csv
}

# gen hrc's --lists MIN MAX (one --lists, two values, as its help says), its malformed forms
# refused, and the default lists fitted to fewer than 5 hospitals (N < 50).
case_hrc_gen_lists() {
  expect_ok gen hrc --help
  grep -q -- "--lists MIN MAX" "$WORK/out" || fail "help lacks --lists MIN MAX"
  grep -q -- "give --lists twice" "$WORK/out" && fail "help still says to give --lists twice"
  expect_ok gen hrc --n 100 --lists 2 4 -o "$WORK/a.txt"
  expect_ok gen hrc --n 100 --lists 2 4 --seed 1 -o "$WORK/b.txt"
  same "$WORK/a.txt" "$WORK/b.txt"
  expect 2 "--lists given twice" gen hrc --n 100 --lists 1 2 --lists 3 4
  expect 2 "--lists needs two values, MIN and MAX" gen hrc --n 100 --lists 3 --lists 5
  expect 2 "--lists needs two values, MIN and MAX" gen hrc --n 100 --lists 3
  expect 2 "--lists needs two values, MIN and MAX" gen hrc --n 100 --lists 3 --seed 2
  expect 2 "unexpected argument '5'" gen hrc --n 100 --lists 2 4 5
  expect 2 "--lists 4 2: MIN is larger than MAX" gen hrc --n 100 --lists 4 2
  expect 2 "--lists: 'x' is not an integer" gen hrc --n 100 --lists 2 x
  expect 2 "list lengths 3..6: need 1 <= min <= max <= min(hospitals 5" gen hrc --n 50 --lists 3 6
  for n in 1 2 9 10 20 30 40 49 50; do
    expect_ok gen hrc --n $n -o "$WORK/s$n.txt"
    expect_ok solve "$WORK/s$n.txt" -q
  done
  head -1 "$WORK/s40.txt" | grep -q '^hrc 40 4 4$' || fail "gen hrc --n 40's header"
}

# gen hrc-mallows and gen nrmp-2024 (correlated preferences): files that solve and hrc convert
# read, the same file for the same seed, --capacity and --joint, the help, and every malformed
# option refused with exit 2 and a message naming it.
case_hrc_gen_mallows() {
  expect_ok gen hrc-mallows --n 200 --seed 4 -o "$WORK/a.txt"
  expect_ok gen hrc-mallows --n 200 --seed 4 -o "$WORK/b.txt"
  same "$WORK/a.txt" "$WORK/b.txt"
  head -1 "$WORK/a.txt" | grep -q '^hrc 200 20 20$' || fail "gen hrc-mallows' header"
  expect_ok gen hrc-mallows --n 200 --seed 5 -o "$WORK/c.txt"
  cmp -s "$WORK/a.txt" "$WORK/c.txt" && fail "seeds 4 and 5 gave one instance"
  expect_ok solve "$WORK/a.txt" -q
  grep -q "^hrc-da: " "$WORK/err" || fail "solve's verdict on hrc-mallows"
  expect_ok gen hrc-mallows --n 200 --seed 4 -o "$WORK/a.bin" --binary
  expect_ok hrc convert "$WORK/a.bin" -o "$WORK/back.txt"
  same "$WORK/back.txt" "$WORK/a.txt"
  expect_ok gen hrc-mallows --n 90 --couples 30 --hospitals 6 --capacity 16 --lists 2 4 --member-lists 3 5 \
    --joint 2 6 --phi-residents 0.9 --phi-hospitals 0.2 -o "$WORK/d.txt"
  head -1 "$WORK/d.txt" | grep -q '^hrc 90 6 30$' || fail "--couples, --hospitals"
  [ "$(tail -n 6 "$WORK/d.txt" | cut -d: -f1 | sort -u)" = 16 ] || fail "--capacity 16: not every hospital 16"
  pairs=$(sed -n '2,31p' "$WORK/d.txt" | awk '{n = (NF - 2) / 2; if (n < 2 || n > 6) bad++} END {print bad + 0}')
  [ "$pairs" = 0 ] || fail "--joint 2 6: $pairs joint lists out of 2..6 pairs"
  # nrmp-2024: the full preset, read and solved.
  expect_ok gen nrmp-2024 -o "$WORK/n.txt"
  head -1 "$WORK/n.txt" | grep -q '^hrc 44900 6400 1100$' || fail "nrmp-2024's header"
  expect_ok solve "$WORK/n.txt" -q --time-limit 40
  grep -q "^hrc-da: .*(44900 residents, 1100 couples, 6400 hospitals" "$WORK/err" || fail "solve on nrmp-2024"
  expect_ok gen nrmp-2024 --n 3000 --couples 100 --hospitals 400 --phi 0.99 -o "$WORK/s.txt"
  head -1 "$WORK/s.txt" | grep -q '^hrc 3000 400 100$' || fail "nrmp-2024 scaled down"
  expect_ok gen hrc-mallows --help
  grep -q -- "--phi-residents X" "$WORK/out" || fail "help lacks --phi-residents"
  expect_ok help gen
  grep -q "hrc-mallows" "$WORK/out" || fail "help gen lacks hrc-mallows"
  expect 2 "gen hrc-mallows needs --n N" gen hrc-mallows
  expect 2 "--phi 0: expected a dispersion 0 < phi <= 1" gen hrc-mallows --n 50 --phi 0
  expect 2 "--phi-hospitals 1.5: expected a dispersion 0 < phi <= 1" gen hrc-mallows --n 50 --phi-hospitals 1.5
  expect 2 "--phi-residents: 'x' is not a number" gen nrmp-2024 --phi-residents x
  expect 2 "--capacity and --posts: give one of them" gen hrc-mallows --n 50 --capacity 2 --posts 10
  expect 2 "--joint 6 2: MIN is larger than MAX" gen hrc-mallows --n 50 --joint 6 2
  expect 2 "--member-lists needs two values" gen nrmp-2024 --member-lists 4
  expect 2 "list lengths 3..9: need 1 <= min <= max <= 5" gen hrc-mallows --n 50 --lists 3 9
  expect 2 "12 couples: at most half of the 20 residents" gen hrc-mallows --n 20 --couples 12
  expect 2 "--skew goes with nrmp-couples" gen nrmp-2024 --skew 1
  expect 2 "go with hrc-mallows and nrmp-2024" gen hrc --n 50 --phi 0.5
  expect 2 "go with hrc-mallows and nrmp-2024" gen nrmp-couples --joint 2 3
}

# solve --gen names every generator it takes, and says that couples are generated by gen only.
case_hrc_solve_gen() {
  expect 2 "solve does not generate couples (HRC) instances" solve --gen hrc --n 10
  expect 2 "'bamboo-smp gen nrmp-couples ... -o FILE'" solve --gen nrmp-couples
  expect 2 "incomplete lists: smi, hr or nrmp" solve --gen zigzag --n 5
  expect 2 "couples: hrc, nrmp-couples, hrc-mallows, nrmp-2024 or sfas" gen zigzag --n 5
  expect 2 "solve does not generate couples (HRC) instances" solve --gen hrc-mallows --n 10
  expect_ok help solve
  grep -q "latin, irving-leather; or incomplete lists: smi, hr, nrmp" "$WORK/out" || fail "solve's help: --gen kinds"
  grep -q "Not the couples' hrc and nrmp-couples" "$WORK/out" || fail "solve's help: hrc"
}

# via_fifo FILE ARGS...: bamboo-smp ARGS with FILE written into the FIFO $WORK/fifo (which
# ARGS name) in the background. A command that opens its input twice waits for a second
# writer: the timeout turns that hang into a failure.
via_fifo() {
  src=$1
  shift
  rm -f "$WORK/fifo" && mkfifo "$WORK/fifo" || fail "mkfifo"
  cat "$src" >"$WORK/fifo" 2>/dev/null &
  writer=$!
  timeout 20 "$BIN" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  kill "$writer" 2>/dev/null
  wait "$writer" 2>/dev/null
}

case_hrc_stdin_and_fifo() {
  expect_ok gen hrc --n 60 --seed 2 -o "$WORK/a.hrc"
  expect_ok gen hrc --n 60 --seed 2 -o "$WORK/a.bin" --binary
  for f in a.hrc a.bin; do
    expect_ok solve "$WORK/$f" --verify
    cp "$WORK/out" "$WORK/want"
    cat "$WORK/$f" | timeout 20 "$BIN" solve - --verify >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "solve - <$f: exit status $rc"; }
    same "$WORK/out" "$WORK/want"
    via_fifo "$WORK/$f" solve "$WORK/fifo" --verify
    [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "solve FIFO <$f: exit status $rc"; }
    same "$WORK/out" "$WORK/want"
    # hrc check and hrc convert read their instance once as well.
    via_fifo "$WORK/$f" hrc check "$WORK/fifo" --matching "$WORK/want"
    [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "hrc check FIFO <$f: exit status $rc"; }
    cat "$WORK/$f" | timeout 20 "$BIN" hrc convert - -o "$WORK/back.hrc" 2>"$WORK/err" || fail "hrc convert - <$f"
    same "$WORK/back.hrc" "$WORK/a.hrc"
  done
}

case_hrc_options() {
  expect_ok gen hrc --n 60 --seed 2 -o "$WORK/a.hrc"
  expect 2 "--side takes residents for an HRC instance" solve "$WORK/a.hrc" --side bogus
  expect 2 "not 'hospitals'" solve "$WORK/a.hrc" --side hospitals
  for opt in "--tail 2" "--tail-on cpu"; do
    expect 2 "${opt%% *} has no meaning for an HRC instance" solve "$WORK/a.hrc" $opt
  done
  expect 2 "--gpus goes with --algo hrc-da-portfolio on an HRC file" solve "$WORK/a.hrc" --gpus 0
  expect 2 "hrc-da-portfolio runs on one GPU" solve "$WORK/a.hrc" --algo hrc-da-portfolio --gpus 0,1
  expect 2 "--threads has no meaning with --gpus" solve "$WORK/a.hrc" --algo hrc-da-portfolio --gpus 0 --threads 2
  for opt in "--threads 2" "--threads 0" "--seed 3" "--runs 4" "--polish 10" "--rounds 3"; do
    expect 2 "${opt%% *} goes with --algo hrc-da-portfolio on an HRC file, not with --algo bamboo" \
      solve "$WORK/a.hrc" $opt
  done
  expect_ok solve "$WORK/a.hrc" --side residents -v -q --time-limit 60
  grep -q "algorithm hrc-da, path:" "$WORK/err" || fail "-v on an HRC file"
  # hrc-da on this instance runs many seconds without a limit: it must stop at the limit,
  # with exit 7 (the timeout guards against a run that ignores it).
  expect_ok gen nrmp-couples --couples 3000 --seed 3 -o "$WORK/n.hrc"
  timeout 15 "$BIN" solve "$WORK/n.hrc" --time-limit 0.3 -q >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ "$rc" -eq 7 ] || { cat "$WORK/err" >&2; fail "solve n.hrc --time-limit 0.3: exit status $rc, expected 7"; }
  grep -q "time limit" "$WORK/err" || fail "the time limit's message"
}

# hrc-da-portfolio: its options and their errors, -v's run lines, the count the checker's, one
# matching for every thread count, never worse than hrc-da (which leaves blocking pairs here).
case_hrc_portfolio() {
  expect_ok gen hrc-mallows --n 300 --hospitals 30 --couples 60 --lists 5 10 --phi-residents 0.9 \
    --phi-hospitals 0.5 --seed 4 -o "$WORK/m.hrc"
  expect_ok solve "$WORK/m.hrc" -o "$WORK/da.txt"
  da_bp=$(sed -n 's/^hrc-da: [a-z ]*, \([0-9]*\) blocking pairs.*/\1/p' "$WORK/err")
  [ -n "$da_bp" ] && [ "$da_bp" -gt 0 ] || fail "hrc-da's line: no blocking pairs to improve on"
  for t in 1 2 3; do
    expect_ok solve "$WORK/m.hrc" --algo hrc-da-portfolio --runs 6 --threads $t --seed 5 --polish 20 -v \
      -o "$WORK/p$t.txt"
  done
  same "$WORK/p1.txt" "$WORK/p2.txt"
  same "$WORK/p1.txt" "$WORK/p3.txt"
  # On the GPU the same runs, so the same matching; without one, exit 5 and why.
  "$BIN" solve "$WORK/m.hrc" --algo hrc-da-portfolio --runs 6 --gpus 0 --seed 5 --polish 20 -o "$WORK/pg.txt" \
    2>"$WORK/gerr"
  rc=$?
  if [ "$rc" -eq 0 ]; then
    same "$WORK/p1.txt" "$WORK/pg.txt"
    grep -q "best of 6 runs on the GPU" "$WORK/gerr" || fail "--gpus 0: the portfolio's line"
  else
    [ "$rc" -eq 5 ] && grep -q "hrc-da-portfolio on GPU 0" "$WORK/gerr" || { cat "$WORK/gerr" >&2; fail "--gpus 0: exit $rc"; }
  fi
  [ "$(grep -c '^run [0-5]: ' "$WORK/err")" -eq 6 ] || fail "-v prints one line per run"
  grep -q '^run 0: seed 0, ' "$WORK/err" || fail "run 0 is hrc-da"
  pf_bp=$(sed -n 's/^hrc-da-portfolio: [a-z ]*, \([0-9]*\) blocking pairs.*/\1/p' "$WORK/err")
  [ -n "$pf_bp" ] && [ "$pf_bp" -le "$da_bp" ] || fail "portfolio $pf_bp blocking pairs, hrc-da $da_bp"
  if [ "$pf_bp" -eq 0 ]; then
    expect 0 "stable" hrc check "$WORK/m.hrc" --matching "$WORK/p1.txt"
  else
    expect 1 "not stable: $pf_bp blocking pairs" hrc check "$WORK/m.hrc" --matching "$WORK/p1.txt"
  fi
  expect_ok solve "$WORK/m.hrc" --algo hrc-da-portfolio --runs 2 --format json -q
  grep -q '"algorithm": *"hrc-da-portfolio"' "$WORK/out" || fail "the JSON report's algorithm"
  expect 2 "--runs" solve "$WORK/m.hrc" --algo hrc-da-portfolio --runs 0
  expect 2 "--polish" solve "$WORK/m.hrc" --algo hrc-da-portfolio --polish -1
  expect 2 "--threads" solve "$WORK/m.hrc" --algo hrc-da-portfolio --threads -2
  expect 2 "--runs goes with --algo hrc-da-portfolio on an HRC file" solve --gen smi --n 10 --runs 3
  expect_ok gen smi --n 10 -o "$WORK/smi.txt"
  expect 2 "--runs goes with --algo hrc-da-portfolio on an HRC file" solve "$WORK/smi.txt" --runs 3
  expect 2 "--polish goes with --algo hrc-da-portfolio on an HRC file" solve "$WORK/smi.txt" --polish 3
  expect_ok gen nrmp-couples --couples 3000 --seed 3 -o "$WORK/n.hrc"
  timeout 30 "$BIN" solve "$WORK/n.hrc" --algo hrc-da-portfolio --runs 4 --time-limit 0.3 -q >"$WORK/out" \
    2>"$WORK/err"
  rc=$?
  [ "$rc" -eq 7 ] || { cat "$WORK/err" >&2; fail "portfolio --time-limit 0.3: exit status $rc, expected 7"; }
  expect_ok algos
  grep -q "^hrc-da-portfolio" "$WORK/out" || fail "algos lacks hrc-da-portfolio"
  # --rounds bounds each strategy's repair rounds (two strategies when the first ends unstable).
  expect_ok solve "$WORK/m.hrc" --algo hrc-da-portfolio --runs 4 --rounds 1 --seed 5 -v -q
  [ "$(grep -c '^run [0-3]: .* [0-2] repair rounds' "$WORK/err")" -eq 4 ] || fail "--rounds 1: at most 2 rounds a run"
}

# Ties on the hospitals' side (SFAS): two singles want hospital 0 (one post), which ties them.
# Either alone there is weakly stable; with the tie broken (strict lists) only resident 0 is.
TIED='hrc 2 1 0\n0\n0\n1: [0 1]\n'
case_hrc_ties() {
  write tied.txt "$TIED"
  write strict.txt 'hrc 2 1 0\n0\n0\n1: 0 1\n'
  printf '0 -\n1 0\n' >"$WORK/second.txt"
  expect 0 "stable" hrc check "$WORK/tied.txt" --matching "$WORK/second.txt"
  expect 1 "not stable: 1 blocking pairs" hrc check "$WORK/strict.txt" --matching "$WORK/second.txt"
  expect 0 "da-stb: stable, 0 blocking pairs (weak stability; hrc-da on the hospitals' ties broken by stb (seed 1)" \
    solve "$WORK/tied.txt" --verify
  grep -q "verified: weakly stable" "$WORK/err" || fail "verify line"
  expect 0 "da-stb: stable" solve "$WORK/tied.txt" --algo hrc-da
  expect 0 "broken by mtb (seed 9)" solve "$WORK/tied.txt" --algo da-mtb --seed 9
  # Every seed's matching is weakly stable; the seeds between them place both residents.
  : >"$WORK/placed"
  for seed in 1 2 3 4 5 6 7 8; do
    expect_ok solve "$WORK/tied.txt" --seed $seed -o "$WORK/m$seed.txt"
    expect 0 "stable" hrc check "$WORK/tied.txt" --matching "$WORK/m$seed.txt"
    grep ' 0$' "$WORK/m$seed.txt" | cut -d' ' -f1 >>"$WORK/placed"
  done
  [ "$(sort -u "$WORK/placed" | wc -l)" -eq 2 ] || fail "stb never placed one of the tied residents"
  if command -v python3 >/dev/null 2>&1; then
    expect_ok solve "$WORK/tied.txt" --format json
    python3 - "$WORK/out" <<'EOF' || fail "the JSON report with ties"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["algorithm"] == "da-stb" and r["tie_break"] == {"kind": "stb", "seed": 1}, r
assert r["checks"]["stable"] is True and r["checks"]["blocking_pairs"] == 0, r
EOF
    expect_ok solve "$WORK/strict.txt" --format json
    grep -q tie_break "$WORK/out" && fail "tie_break in a strict file's report"
  fi
  # Options that do not apply are refused.
  expect 2 "--algo hrc-da-portfolio takes strict lists" solve "$WORK/tied.txt" --algo hrc-da-portfolio
  expect 2 "--runs goes with --algo hrc-da-portfolio, which takes strict lists" solve "$WORK/tied.txt" --runs 3
  expect 2 "--threads goes with --algo hrc-da-portfolio" solve "$WORK/tied.txt" --algo da-mtb --threads 2
  expect 2 "--algo da-stb goes with an HRC file with ties" solve "$WORK/strict.txt" --algo da-stb
  expect 2 "--algo da-mtb goes with an HRC file with ties" solve "$WORK/strict.txt" --algo da-mtb
  expect 2 "--seed goes with --algo hrc-da-portfolio on an HRC file" solve "$WORK/strict.txt" --seed 3
  expect 2 "algorithm 'gs-seq' does not take couples with ties" solve "$WORK/tied.txt" --algo gs-seq
  expect 2 "--da has no meaning for an HRC instance" solve "$WORK/tied.txt" --da gs-seq
  # convert keeps the ties, in text and in binary.
  expect_ok hrc convert "$WORK/tied.txt" -o "$WORK/back.txt"
  grep -q '^1: \[0 1\]$' "$WORK/back.txt" || fail "the text writer's brackets"
  expect_ok hrc convert "$WORK/tied.txt" -o "$WORK/back.bin" --binary
  expect 0 "stable" hrc check "$WORK/back.bin" --matching "$WORK/second.txt"
  write bad.txt 'hrc 2 1 0\n0\n[0]\n1: 0 1\n'
  expect 1 "bad.txt:3: resident 1's line has '[': ties are allowed only in hospitals' lists" solve "$WORK/bad.txt"
  write open.txt 'hrc 2 1 0\n0\n0\n1: [0 1\n'
  expect 1 "open.txt:4: hospital 0's list: '[' is never closed" solve "$WORK/open.txt"
}

# gen sfas: the seed decides, the file has ties, and its matching is weakly stable or counted.
case_hrc_gen_sfas() {
  expect_ok gen sfas --seed 4 -o "$WORK/a.txt"
  expect_ok gen sfas --seed 4 -o "$WORK/b.txt"
  same "$WORK/a.txt" "$WORK/b.txt"
  expect_ok gen sfas --seed 5 -o "$WORK/c.txt"
  cmp -s "$WORK/a.txt" "$WORK/c.txt" && fail "seeds 4 and 5 gave one file"
  head -1 "$WORK/a.txt" | grep -q '^hrc 700 50 10$' || fail "gen sfas's header"
  grep -q '^14: .*\[' "$WORK/a.txt" || fail "gen sfas wrote no tie"
  expect_ok gen sfas --n 90 --couples 4 --hospitals 6 --capacity 15 --k 3 --classes 5 --skew 0 --seed 2 \
    -o "$WORK/small.bin" --binary
  expect_ok hrc convert "$WORK/small.bin" -o "$WORK/small.txt"
  head -1 "$WORK/small.txt" | grep -q '^hrc 90 6 4$' || fail "gen sfas --n --hospitals --couples"
  [ "$(grep -c '^15: ' "$WORK/small.txt")" -eq 6 ] || fail "gen sfas --capacity"
  expect_ok solve "$WORK/a.txt" --algo da-mtb --seed 3 -o "$WORK/m.txt"
  bp=$(sed -n 's/^da-mtb: [a-z ]*, \([0-9]*\) blocking pairs.*/\1/p' "$WORK/err")
  if [ "$bp" = 0 ]; then
    expect 0 "stable" hrc check "$WORK/a.txt" --matching "$WORK/m.txt"
  else
    expect 1 "not stable: $bp blocking pairs" hrc check "$WORK/a.txt" --matching "$WORK/m.txt"
  fi
  expect 2 "--k and --classes go with sfas" gen hrc --n 50 --classes 3
  expect 2 "do not go with sfas" gen sfas --posts 100
  expect 2 "--gen sfas: solve does not generate couples" solve --gen sfas --n 10
}

command -v "case_$CASE" >/dev/null 2>&1 || fail "no such case"
"case_$CASE"
echo "ok [$CASE]"
