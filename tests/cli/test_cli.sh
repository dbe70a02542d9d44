#!/bin/sh
# End-to-end tests of the bamboo-smp command line, one case per ctest test.
# usage: test_cli.sh BAMBOO_SMP DATA_DIR WORK_DIR CASE
# Each case checks exit codes and the key part of the messages (stderr).
set -u

BIN=$1
DATA=$2
CASE=$4
WORK=$3/$CASE
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

. "$(dirname "$0")/cli_lib.sh"

# --- bad input ---

case_missing_file() {
  expect 3 "cannot open '$WORK/no-such-file.txt'" solve "$WORK/no-such-file.txt"
  expect 3 "cannot open" gen solo --n 4 -o "$WORK/no-such-dir/inst.txt"
}

case_not_permutation() {
  expect 1 "not_permutation.txt:4: man 1's list: id 0 appears twice" \
    solve "$DATA/not_permutation.txt"
}

case_id_out_of_range() {
  expect 1 "id_out_of_range.txt:8: woman 2's list, position 2: id 3 is out of range" \
    solve "$DATA/id_out_of_range.txt"
}

case_wrong_row_count() {
  expect 1 "wrong_row_count.txt:7:" solve "$DATA/wrong_row_count.txt"
  expect 1 "5 of 6 rows" solve "$DATA/wrong_row_count.txt"
  expect 1 "extra_row.txt:7: extra data" solve "$DATA/extra_row.txt"
  expect 1 "long_row.txt:3: expected 2 ids in man 0's list" solve "$DATA/long_row.txt"
}

case_truncated_text() {
  expect 1 "truncated.txt:6: expected 3 ids in woman 1's list, line has 2" \
    solve "$DATA/truncated.txt"
  : >"$WORK/empty.txt"
  expect 1 "empty file" solve "$WORK/empty.txt"
}

case_truncated_binary() {
  expect_ok gen random --n 20 --seed 3 --binary -o "$WORK/full.bin"
  size=$(wc -c <"$WORK/full.bin")
  head -c $((size - 7)) "$WORK/full.bin" >"$WORK/cut.bin"
  expect 1 "cut.bin: truncated file" solve "$WORK/cut.bin"
  head -c 10 "$WORK/full.bin" >"$WORK/header.bin"
  expect 1 "header.bin: truncated file" solve "$WORK/header.bin"
}

case_unknown_algorithm() {
  expect 2 "unknown algorithm 'no-such-algo'" solve "$DATA/tiny.txt" --algo no-such-algo
  expect 2 "unknown algorithm 'x'" bench --algos gs-seq,x --n 5
}

case_unknown_kind() {
  expect 2 "unknown generator 'zigzag'" gen zigzag --n 5
  expect 2 "unknown generator 'zigzag'" solve --gen zigzag --n 5
  expect 2 "unknown generator 'zigzag'" bench --kinds solo,zigzag --n 5
}

case_bad_n() {
  for n in 0 -1 abc 99999999 12x ""; do
    expect 2 "--n" gen random --n "$n"
    expect 2 "--n" solve --gen random --n "$n"
    expect 2 "--n" bench --n "10,$n"
  done
  expect 2 "missing --n" gen solo
  expect 2 "--gen needs --n" solve --gen solo
}

case_unknown_option() {
  expect 2 "unknown option '--frobnicate'" solve "$DATA/tiny.txt" --frobnicate
  expect 2 "unknown option '-x'" gen solo --n 4 -x
  expect 2 "unknown option '--fast'" bench --fast
  expect 2 "usage: bamboo-smp solve" solve --frobnicate
  expect 2 "unknown command 'solv'" solv "$DATA/tiny.txt"
  expect 2 "unexpected argument" solve "$DATA/tiny.txt" "$DATA/tiny.txt"
}

case_missing_value() {
  expect 2 "option '--algo' needs a value" solve "$DATA/tiny.txt" --algo
  expect 2 "option '-o' needs a value" gen solo --n 4 -o
  expect 2 "option '--runs' needs a value" bench --runs
}

case_bad_combinations() {
  expect 2 "--binary needs -o" gen solo --n 4 --binary
  expect 2 "not both" solve "$DATA/tiny.txt" --gen solo --n 4
  expect 2 "missing input" solve --algo gs-seq
  expect 2 "--time-limit" solve "$DATA/tiny.txt" --time-limit -3
  expect 2 "--seed" gen solo --n 4 --seed -1
  expect 2 "--group 9 is larger" gen random --n 4 --group 9
}

case_time_limit() {
  # Congested n=2000 makes 2 million proposals; the clock is read after 2^20 of them.
  expect 7 "time limit" solve --gen congested --n 2000 --algo gs-seq --time-limit 0.000001
  # SMI/HR: every algorithm and side (gs-seq ignored the limit; bamboo and --side hospitals run it).
  expect 7 "time limit" solve --gen smi --n 300000 --k 30 --algo gs-seq --time-limit 0.001
  for algo in gs-seq mw-par bamboo; do
    expect 7 "time limit" solve --gen smi --n 20000 --k 30 --algo $algo --side women --time-limit 0.000001
    expect 7 "time limit" solve --gen hr --n 20000 --hospitals 500 --k 30 --algo $algo --side hospitals \
      --time-limit 0.000001
  done
  # 0 is no limit; a negative or non-numeric one is a usage error.
  expect_ok solve --gen smi --n 100 --k 5 --time-limit 0 -q
  expect_ok solve --gen solo --n 100 --time-limit 0 -q
  for bad in -1 abc 1s nan inf ""; do expect 2 "--time-limit" solve --gen solo --n 10 --time-limit "$bad"; done
}

# --- positive cases ---

case_time_limit_input() {
  # The limit counts reading the lists: 7.8 MB of text take well over a millisecond to read,
  # while gs-seq's 1000 proposals on 'perfect' never reach its first clock read.
  expect_ok gen perfect --n 1000 -o "$WORK/p.txt"
  expect 7 "time limit" solve "$WORK/p.txt" --algo gs-seq --time-limit 0.001 -q
  expect_ok solve "$WORK/p.txt" --algo gs-seq --time-limit 60 -q
}

# via_pipe FILE ARGS...: bamboo-smp solve - ARGS with FILE piped to standard input.
via_pipe() {
  src=$1
  shift
  cat "$src" | timeout 20 "$BIN" solve - "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
}

# via_fifo FILE ARGS...: bamboo-smp solve FIFO ARGS, FILE written into the FIFO in the
# background. A solve that opens its input twice waits for a second writer: the timeout
# turns that hang into a failure.
via_fifo() {
  src=$1
  shift
  rm -f "$WORK/fifo" && mkfifo "$WORK/fifo" || fail "mkfifo"
  cat "$src" >"$WORK/fifo" 2>/dev/null &
  writer=$!
  timeout 20 "$BIN" solve "$WORK/fifo" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  kill "$writer" 2>/dev/null
  wait "$writer" 2>/dev/null
}

case_stdin_and_fifo() {
  expect_ok gen solo --n 40 -o "$WORK/complete.txt"
  expect_ok gen solo --n 40 -o "$WORK/complete.bin" --binary
  expect_ok gen smi --n 40 --k 5 -o "$WORK/smi.txt"
  expect_ok gen smi --n 40 --k 5 -o "$WORK/smi.bin" --binary
  expect_ok gen hr --n 40 --hospitals 6 --k 3 -o "$WORK/hr.txt"
  expect_ok gen hr --n 40 --hospitals 6 --k 3 -o "$WORK/hr.bin" --binary
  for f in complete.txt complete.bin smi.txt smi.bin hr.txt hr.bin; do
    expect_ok solve "$WORK/$f" --verify
    cp "$WORK/out" "$WORK/want"
    for how in via_pipe via_fifo; do
      $how "$WORK/$f" --verify
      [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "$how $f: exit status $rc"; }
      same "$WORK/out" "$WORK/want"
    done
  done
}

case_options_per_kind() {
  # Every option is used or refused with exit 2: none is dropped for the kind of instance.
  expect_ok gen solo --n 20 -o "$WORK/c.txt"
  expect_ok gen smi --n 20 --k 3 -o "$WORK/s.txt"
  for opt in "--seed 4" "--k 3" "--hospitals 3" "--women 3" "--skew 0.5" "--capacity 2" "--gen-on host"; do
    for f in c.txt s.txt; do expect 2 "${opt%% *} goes with --gen, not with an instance file" solve "$WORK/$f" $opt; done
  done
  expect 2 "--gpus goes with complete lists, not with an SMI/HR file" solve "$WORK/s.txt" --gpus 0
  expect 2 "--tail-on goes with complete lists, not with an SMI/HR file" solve "$WORK/s.txt" --tail-on cpu
  expect 2 "--tail-on goes with complete lists, not with --gen smi" solve --gen smi --n 20 --tail-on cpu
  expect 2 "--gpus goes with complete lists, not with --gen hr" solve --gen hr --n 20 --gpus 0
  expect 2 "--group goes with complete lists, not with --gen hr" solve --gen hr --n 20 --group 3
  expect 2 "--k goes with --gen smi, hr or nrmp, not with --gen solo" solve --gen solo --n 20 --k 3
  expect 2 "--side takes men or women for this instance, not 'bogus'" solve "$WORK/c.txt" --side bogus
  expect_ok solve "$WORK/s.txt" --tail 2 -q
}

case_options_per_algorithm() {
  # An option only some algorithms read is refused for the others (exit 2), not dropped.
  expect_ok gen solo --n 20 -o "$WORK/c.txt"
  expect_ok gen smi --n 20 --k 3 -o "$WORK/s.txt"
  for algo in gs-seq mw-seq la-seq gs-par mw-par gpu-mw-cas gpu-la-min; do
    expect 2 "--tail has no meaning for --algo $algo (it goes with bamboo)" solve "$WORK/c.txt" --algo $algo --tail 4
    expect 2 "--tail-on has no meaning for --algo $algo" solve --gen random --n 20 --algo $algo --tail-on cpu
  done
  for algo in gs-seq mw-seq la-seq gs-par mw-par; do
    expect 2 "--gpus has no meaning for --algo $algo (it goes with bamboo and the gpu- algorithms)" \
      solve "$WORK/c.txt" --algo $algo --gpus 0
  done
  for algo in gs-seq mw-par gpu-la-min; do
    expect 2 "--tail has no meaning for --algo $algo" solve "$WORK/s.txt" --algo $algo --tail 2
    expect 2 "--tail has no meaning for --algo $algo" solve --gen hr --n 20 --algo $algo --tail 2
  done
  expect_ok solve "$WORK/c.txt" --algo bamboo --tail 4 --tail-on cpu -q
  expect_ok solve "$WORK/s.txt" --algo bamboo --tail 2 -q
  expect_ok solve "$WORK/c.txt" --algo gs-seq -q
}

case_round_trip_text() {
  expect_ok gen random --n 40 --group 4 --seed 7 -o "$WORK/inst.txt"
  expect_ok gen random --n 40 --group 4 --seed 7
  same "$WORK/out" "$WORK/inst.txt"
  expect_ok solve "$WORK/inst.txt" --algo gs-seq
  cp "$WORK/out" "$WORK/from-file"
  expect_ok solve --gen random --n 40 --group 4 --seed 7 --algo gs-seq
  same "$WORK/out" "$WORK/from-file"
  "$BIN" solve - --algo gs-seq <"$WORK/inst.txt" >"$WORK/from-stdin" || fail "solve - failed"
  same "$WORK/from-stdin" "$WORK/from-file"
}

case_round_trip_binary() {
  expect_ok gen solo --n 33 --seed 2 --binary -o "$WORK/inst.bin"
  expect_ok gen solo --n 33 --seed 2 -o "$WORK/inst.txt"
  expect_ok solve "$WORK/inst.bin" --algo mw-seq
  cp "$WORK/out" "$WORK/from-binary"
  expect_ok solve "$WORK/inst.txt" --algo mw-seq
  same "$WORK/out" "$WORK/from-binary"
}

case_verify() {
  for kind in perfect solo congested random uniform; do
    expect 0 "verified: stable (n=30)" solve --gen "$kind" --n 30 --verify
  done
  expect 0 "verified: stable (n=2)" solve "$DATA/tiny.txt" --verify --algo la-seq
}

case_output_file() {
  expect_ok solve --gen uniform --n 57 --seed 5 -o "$WORK/matching.txt"
  [ ! -s "$WORK/out" ] || fail "-o also wrote to standard output"
  [ "$(wc -l <"$WORK/matching.txt")" -eq 57 ] || fail "-o did not write 57 lines"
  grep -q '^0 [0-9][0-9]*$' "$WORK/matching.txt" || fail "no 'm w' line for man 0"
  expect_ok solve --gen uniform --n 57 --seed 5 -q
  [ ! -s "$WORK/out" ] || fail "-q printed the matching"
  expect 3 "cannot open" solve --gen uniform --n 5 -o "$WORK/no-such-dir/m.txt"
}

case_gs_equals_la() {
  expect_ok solve --gen congested --n 50 --algo gs-seq
  cp "$WORK/out" "$WORK/gs"
  [ "$(wc -l <"$WORK/gs")" -eq 50 ] || fail "gs-seq did not print 50 lines"
  expect_ok solve --gen congested --n 50 --algo la-seq
  same "$WORK/out" "$WORK/gs"
}

case_time() {
  expect_ok solve --gen random --n 64 --time
  for word in phase input transfer precheck init solve post total path proposals; do
    grep -q "^$word " "$WORK/err" || fail "--time lacks the row '$word'"
  done
  expect 0 "path:" solve --gen random --n 16 -v -q
}

case_gpu_algorithm() {
  # Exit 0 with a GPU, 5 (no usable GPU) without; never anything else.
  run solve --gen solo --n 20 --algo gpu-mw-cas --verify
  [ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || fail "gpu-mw-cas: exit status $rc"
}

case_gen_on_gpu() {
  # Lists generated on the GPU: with a GPU the same matching as the host's lists
  # and verified; without one exit 5 before any list is made. Never anything else.
  run solve --gen random --n 300 --group 5 --seed 4 --gen-on gpu --verify -o "$WORK/gpu.txt"
  if [ "$rc" -eq 0 ]; then
    expect_ok solve --gen random --n 300 --group 5 --seed 4 --algo gs-seq -o "$WORK/host.txt"
    cmp -s "$WORK/gpu.txt" "$WORK/host.txt" || fail "--gen-on gpu: another matching than gs-seq's"
    # partitions on one GPU, each generating its rows; no lists on the host either
    expect_ok solve --gen random --n 300 --group 5 --seed 4 --gen-on gpu --gpus 0,0 --verify -o "$WORK/parts.txt"
    cmp -s "$WORK/parts.txt" "$WORK/host.txt" || fail "--gen-on gpu --gpus 0,0: another matching than gs-seq's"
  else
    [ "$rc" -eq 5 ] || fail "--gen-on gpu: exit status $rc"
    grep -q "need a usable GPU" "$WORK/err" || fail "--gen-on gpu: no reason given"
    expect 5 "need a usable GPU" solve --gen random --n 10 --gen-on gpu --gpus 0,0 # partitions: not a usage error
  fi
  expect 2 "--gen-on takes gpu or host" solve --gen random --n 10 --gen-on cpu
  expect 2 "--gen-on gpu goes with --algo bamboo" solve --gen random --n 10 --gen-on gpu --algo la-seq
  expect 2 "--gen-on gpu goes with --algo bamboo" solve --gen random --n 10 --gen-on gpu --side women
  expect 2 "--gen-on gpu goes with --gen" solve --gen smi --n 10 --gen-on gpu
  expect 0 "verified" solve --gen random --n 30 --gen-on host --verify -q
}

# --- the memory plan ---

case_memory_plan() {
  expect_ok plan --n 1000 --algo gpu-la-min --gpus 0,0
  grep -q "^partition 1: GPU 0, men and women 500..999$" "$WORK/out" || fail "plan: no partition 1"
  grep -q "^PRMatrix  *GPU 0" "$WORK/out" || fail "plan: no PRMatrix row for GPU 0"
  grep -q "^fits$" "$WORK/out" || fail "plan: no verdict"
  expect_ok plan --n 300 --algo la-seq
  grep -q "^PRMatrix  *host" "$WORK/out" || fail "plan: la-seq has no PRMatrix phase"
  # Too large for any machine: refused at once with the phase and both numbers, exit 4.
  expect 4 "the lists phase needs 29.1 TiB of host memory" plan --n 2000000 --algo gs-seq
  expect 4 "memory plan: n = 2000000" solve --gen random --n 2000000
  grep -q "available" "$WORK/err" || fail "solve refusal lacks the available memory"
  # -v prints the plan before solving; the solve itself is unchanged.
  expect 0 "memory plan: bamboo" solve --gen random --n 40 --verify -v -q
  grep -q "^peak: host" "$WORK/err" || fail "solve -v: no plan"
  expect 0 "memory plan: gs-seq" solve "$DATA/tiny.txt" --algo gs-seq -v -q
  expect 2 "--gpus '0,a'" plan --n 10 --gpus 0,a
  expect 2 "runs on one GPU" plan --n 10 --algo gpu-mw-cas --gpus 0,0
  expect 2 "6 partitions for n = 5" plan --n 5 --gpus 0,0,0,0,0,0
  expect 2 "missing --n" plan
  # A machine that is not here (--gpu-memory): bamboo's staged partitions hold about 5 n^2 / k
  # bytes per GPU, so two 141 GiB GPUs take n = 225,000 and not 300,000 (210 GiB of rows each,
  # and the blocks that build them).
  for n in 200000 225000; do
    expect_ok plan --n $n --gpus 0,1 --gen-on gpu --gpu-memory 141GiB
    grep -q "^fits$" "$WORK/out" || fail "plan --n $n --gpus 0,1 --gpu-memory 141GiB does not fit"
    grep -q "^partition 1: GPU 1" "$WORK/out" || fail "plan --gpu-memory: no partition on GPU 1"
    grep -q "141 GiB / 141 GiB" "$WORK/out" || fail "plan --gpu-memory: the stated memory is not shown"
  done
  expect 4 "the PRMatrix phase needs 213 GiB on GPU 0, 141 GiB free" \
    plan --n 300000 --gpus 0,1 --gen-on gpu --gpu-memory 141GiB
  expect_ok plan --n 100000 --gpu-memory 80GB --host-memory 200GiB
  grep -q "200 GiB available" "$WORK/out" || fail "plan --host-memory: the stated memory is not shown"
  expect 4 "of host memory, 1.00 GiB available" plan --n 50000 --algo gs-seq --host-memory 1GiB
  for bad in 0 -5GiB 12XB GiB 1e400; do
    expect 2 "--gpu-memory: '$bad' is not a size > 0" plan --n 10 --gpu-memory "$bad"
  done
  expect_ok help plan
  grep -q -- "--gpus LIST" "$WORK/out" || fail "help plan lacks --gpus"
  # solve --gpus: the device list reaches the plan (and, with a GPU, the partitioned engine;
  # without one bamboo runs la-seq as always).
  expect 2 "--gpus '0,,1'" solve --gen random --n 20 --gpus 0,,1
  expect 2 "runs on one GPU" solve --gen random --n 20 --gpus 0,0 --algo gpu-mw-cas
  expect 0 "memory plan: bamboo" solve --gen random --n 20 --gpus 0,0 -v --verify -q
  run solve --gen random --n 20 --gpus 0,0 --algo gpu-la-min -v --verify -q
  [ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || fail "gpu-la-min --gpus 0,0: exit status $rc"
  grep -q "^partition 1: GPU 0, men and women 10..19$" "$WORK/err" || fail "solve -v --gpus: no partitions"
}

case_help() {
  expect_ok --help
  grep -q "Exit status" "$WORK/out" || fail "--help does not document the exit status"
  expect 2 "" 
  grep -q "usage: bamboo-smp" "$WORK/err" || fail "no usage message without arguments"
  for cmd in gen solve bench algos; do
    expect_ok help "$cmd"
    grep -q "usage: bamboo-smp $cmd" "$WORK/out" || fail "help $cmd"
  done
  expect_ok solve --help
  grep -q -- "--time-limit" "$WORK/out" || fail "solve --help"
  expect 2 "unknown command 'nope'" help nope
  expect_ok --version
  grep -q "^bamboo-smp [0-9]" "$WORK/out" || fail "--version"
  expect_ok algos
  for algo in gs-seq mw-seq la-seq gs-par mw-par gpu-mw-cas gpu-la-min bamboo; do
    grep -q "^$algo " "$WORK/out" || fail "algos does not list $algo"
  done
}

case_bench() {
  expect_ok bench --algos gs-seq,la-seq,mw-par,gpu-la-min --kinds congested,random --n 12,20 \
    --runs 2 --threads 2 --markdown "$WORK/table.md"
  same "$WORK/out" "$WORK/table.md"
  grep -q '^| n | workload | algorithm | solve ms (median) | total ms (median) | runs | path |$' \
    "$WORK/out" || fail "bench header"
  [ "$(grep -c '^| [0-9]' "$WORK/out")" -eq 16 ] || fail "bench did not print 16 rows"
  grep -q '^| 20 | random(g=5) | la-seq | [0-9.]* | [0-9.]* | 2 |' "$WORK/out" ||
    fail "bench row for la-seq"
  grep -E -q '\| gpu-la-min \| (skipped \(no GPU\)|[0-9.]+) \|' "$WORK/out" || fail "bench gpu row"
  expect_ok bench --algos gs-seq --kinds congested --n 2000 --max-seconds 0.000001
  grep -q '| gs-seq | > 1e-06 s (stopped) |' "$WORK/out" || fail "bench did not stop gs-seq"
}

# --side women on complete lists: the woman-optimal matching, printed man -> woman, from every
# algorithm; checked against a brute force over all matchings (woman_optimal.awk).
case_side_complete() {
  printf '3\n0 1 2\n1 2 0\n2 0 1\n1 2 0\n2 0 1\n0 1 2\n' >"$WORK/latin.txt"
  expect_ok solve "$WORK/latin.txt" --side women --verify
  printf '0 2\n1 0\n2 1\n' >"$WORK/want"
  same "$WORK/out" "$WORK/want"
  expect_ok solve "$WORK/latin.txt" --side men
  printf '0 0\n1 1\n2 2\n' >"$WORK/want"
  same "$WORK/out" "$WORK/want"
  "$BIN" algos | sed '/^$/q' | cut -d' ' -f1 >"$WORK/algos"
  [ "$(wc -l <"$WORK/algos")" -ge 8 ] || fail "algos lists too few algorithms"
  for seed in 1 2 3; do
    for kind in uniform random; do
      "$BIN" gen $kind --n 6 --group 2 --seed $seed >"$WORK/r.txt" || fail "gen $kind"
      awk -f "$(dirname "$0")/woman_optimal.awk" "$WORK/r.txt" >"$WORK/want" || fail "brute force"
      while read -r algo; do
        [ -n "$algo" ] || continue
        run solve "$WORK/r.txt" --side women --algo "$algo" --threads 2
        [ "$rc" -eq 5 ] && continue # a gpu-* algorithm without a GPU
        [ "$rc" -eq 0 ] || fail "$algo --side women: exit status $rc"
        cmp -s "$WORK/out" "$WORK/want" || fail "$algo --side women on $kind seed $seed: not woman-optimal"
      done <"$WORK/algos"
    done
  done
  for side in bogus hospitals residents; do
    expect 2 "--side takes men or women for this instance, not '$side'" solve "$WORK/latin.txt" --side $side
    expect 2 "--side takes men or women for this instance, not '$side'" solve --gen solo --n 4 --side $side
  done
  expect 2 "--side takes residents or hospitals for this instance, not 'women'" solve --gen hr --n 4 --side women
}

# --- incomplete lists and capacities (SMI, HR) ---

# write NAME TEXT: a file in the work folder (printf format: \n for line ends).

case_hr_bad_input() {
  write dup.txt 'smi 2 2\n0 1 0\n1\n0\n1 0\n'
  expect 1 "dup.txt:2: man 0's list, position 2: id 0 appears twice" solve "$WORK/dup.txt"
  write unknown.txt 'hr 2 2\n0 1\n1 5\n1: 0 1\n2: 1\n'
  expect 1 "unknown.txt:3: resident 1's list, position 1: id 5 is out of range 0..1" solve "$WORK/unknown.txt"
  write negcap.txt 'hr 1 2\n0 1\n1: 0\n-2: 0\n'
  expect 1 "negcap.txt:4: hospital 1: capacity -2 is negative" solve "$WORK/negcap.txt"
  write nocap.txt 'hr 1 1\n0\n0\n'
  expect 1 "nocap.txt:3: hospital 0's line has no capacity: expected 'CAPACITY: id id ...'" solve "$WORK/nocap.txt"
  write junkcap.txt 'hr 1 1\n0\nx: 0\n'
  expect 1 "junkcap.txt:3: hospital 0: capacity 'x' is not a number" solve "$WORK/junkcap.txt"
  write emptycap.txt 'hr 1 1\n0\n : 0\n'
  expect 1 "emptycap.txt:3: hospital 0's line has nothing before ':'" solve "$WORK/emptycap.txt"
  write twocap.txt 'hr 1 1\n0\n1 2: 0\n'
  expect 1 "twocap.txt:3: hospital 0: capacity '1 2' is not a number" solve "$WORK/twocap.txt"
  write commentcap.txt 'hr 1 1\n0\n1 # 2: 0\n'
  expect 1 "commentcap.txt:3: hospital 0's line has no capacity" solve "$WORK/commentcap.txt"
  expect 2 "--skew: '-1' is not a number >= 0" gen smi --n 10 --skew -1
  write short.txt '# two men, but one list\nsmi 2 1\n0\n'
  expect 1 "short.txt:3: file ends after 1 of 3 lists (truncated?): man 1's list is missing" solve "$WORK/short.txt"
  write long.txt 'smi 1 1\n0\n0\n0\n'
  expect 1 "long.txt:4: extra data after the women's lists (the header says 1 and 1)" solve "$WORK/long.txt"
  write header.txt 'hr 3\n'
  expect 1 "header.txt:1: the header lacks NH (hospitals)" solve "$WORK/header.txt"
  write header2.txt 'hr 3 -1\n'
  expect 1 "header2.txt:1: NH (hospitals) = '-1' is not a count" solve "$WORK/header2.txt"
  write junk.txt 'smi 1 1\n0 x\n0\n'
  expect 1 "junk.txt:2: man 0's list: not a number: 'x'" solve "$WORK/junk.txt"
  # Binary: a corrupt header and a truncated file.
  expect_ok gen smi --n 50 --k 5 --seed 3 -o "$WORK/good.bin" --binary
  head -c 100 "$WORK/good.bin" >"$WORK/cut.bin"
  expect 1 "cut.bin: truncated file" solve "$WORK/cut.bin"
  { printf 'BBHRCSR1'; printf '\002\000\000\000'; tail -c +13 "$WORK/good.bin"; } >"$WORK/version.bin"
  expect 1 "version.bin: bad header: unsupported version 2" solve "$WORK/version.bin"
  # Algorithms that need complete lists, and a side that is not this instance's.
  write ok.txt 'smi 2 2\n0 1\n1 0\n1 0\n0 1\n'
  expect 2 "algorithm 'la-seq' needs complete lists; for SMI/HR instances use gs-seq, mw-par, gpu-la-min, bamboo" \
    solve "$WORK/ok.txt" --algo la-seq
  expect 2 "--side takes men or women for this instance, not 'hospitals'" solve "$WORK/ok.txt" --side hospitals
}

case_hr_solve() {
  # Man 2 lists nobody; woman 2 lists man 2 and man 0, but man 0 does not list her... he does:
  # (0, 2) is acceptable, (2, 2) is one-sided.
  write smi.txt 'smi 3 3\n0 1 2\n1 0\n\n1 0\n0 1\n2 0\n'
  for algo in gs-seq mw-par bamboo; do
    expect_ok solve "$WORK/smi.txt" --algo $algo --verify
    printf '0 0\n1 1\n2 -\n' >"$WORK/want"
    same "$WORK/out" "$WORK/want"
    grep -q "verified: stable (smi, 3 men, 3 women, 2 matched)" "$WORK/err" || fail "verify line"
    expect_ok solve "$WORK/smi.txt" --algo $algo --side women
    printf '0 1\n1 0\n2 -\n' >"$WORK/want"
    same "$WORK/out" "$WORK/want"
  done
  # Hospital 0 (capacity 1) ranks 3 2 0 1; hospital 1 (capacity 2) ranks 0 1 2.
  write hr.txt 'hr 4 2\n0 1\n0\n1 0\n1\n1: 3 2 0 1\n2: 0 1 2\n'
  expect_ok solve "$WORK/hr.txt" --verify
  printf '0 0\n1 -\n2 1\n3 -\n' >"$WORK/want"
  same "$WORK/out" "$WORK/want"
  # The capacity may touch its colon and the first id, or stand apart from both.
  write hr_spacing.txt 'hr 4 2\n0 1\n0\n1 0\n1\n1:3 2 0 1\n2 : 0 1 2 # a trailing comment\n'
  expect_ok solve "$WORK/hr_spacing.txt" --verify
  same "$WORK/out" "$WORK/want"
  expect_ok solve "$WORK/hr.txt" --side hospitals --algo mw-par -v
  grep -q "hospitals proposing" "$WORK/err" || fail "the path of --side hospitals"
  # -o, -q, --time
  expect_ok solve "$WORK/hr.txt" -o "$WORK/m.txt" --time
  printf '0 0\n1 -\n2 1\n3 -\n' >"$WORK/want"
  same "$WORK/m.txt" "$WORK/want"
  grep -q "^path" "$WORK/err" || fail "--time"
}

case_hr_gen() {
  expect_ok gen nrmp -o "$WORK/a.txt" --threads 1
  expect_ok gen nrmp -o "$WORK/b.bin" --binary --threads 2
  head -1 "$WORK/a.txt" | grep -q "^hr 31000 2300$" || fail "nrmp header"
  expect_ok solve "$WORK/a.txt" --algo gs-seq -o "$WORK/m1" --verify
  expect_ok solve "$WORK/b.bin" --algo mw-par -o "$WORK/m2" --verify
  same "$WORK/m1" "$WORK/m2"
  expect_ok solve --gen nrmp -o "$WORK/m3"
  same "$WORK/m1" "$WORK/m3"
  expect_ok gen smi --n 300 --women 200 --k 12 --skew 1.5 --seed 9 -o "$WORK/s.txt"
  head -1 "$WORK/s.txt" | grep -q "^smi 300 200$" || fail "smi header"
  expect_ok solve "$WORK/s.txt" --verify --side women -q
  expect_ok gen hr --n 500 --hospitals 40 --k 6 --capacity 3 -o "$WORK/h.txt"
  [ "$(grep -c '^3:' "$WORK/h.txt")" -eq 40 ] || fail "--capacity 3"
  expect 2 "missing --n N" gen smi
}

# dzn_array NAME FILE: the integers of the array NAME = [...]; of a .dzn, one a line.
dzn_array() {
  awk -v name="$1" '
    !on && index($0, name " = [") == 1 { on = 1; $0 = substr($0, length(name) + 5) }
    on { done = sub(/\].*/, ""); gsub(/[ ,]+/, "\n"); printf "%s\n", $0; if (done) exit }
  ' "$2" | grep -v '^$'
}

# gen --dzn: the sizes of the file form (docs/minizinc.md), checked against the instance.
case_gen_dzn() {
  expect_ok gen uniform --n 7 -o "$WORK/u.txt" --dzn "$WORK/u.dzn"
  grep -q '^n = 7;$' "$WORK/u.dzn" || fail "complete: n"
  grep -F -x -q "prefs_file = \"$WORK/u.txt\";" "$WORK/u.dzn" || fail "complete: prefs_file"
  expect_ok gen smi --n 30 --women 20 --k 4 -o "$WORK/s.bin" --binary --dzn "$WORK/s.dzn"
  grep -q '^n_men = 30;$' "$WORK/s.dzn" && grep -q '^n_women = 20;$' "$WORK/s.dzn" || fail "smi: sizes"
  # pm_len: 30 lists of 4; pw_len sums to the same 120 entries. Only the array's numbers are
  # read: the path in prefs_file (and so the build folder's digits) must not count.
  men=$(dzn_array pm_len "$WORK/s.dzn" | grep -c '^4$')
  [ "$men" -eq 30 ] || fail "smi: pm_len ($men lists of 4)"
  [ "$(dzn_array pw_len "$WORK/s.dzn" | wc -l)" -eq 20 ] || fail "smi: pw_len has not 20 entries"
  total=$(dzn_array pw_len "$WORK/s.dzn" | awk '{s += $1} END {print s}')
  [ "$total" -eq 120 ] || fail "smi: pw_len sums to $total"
  expect_ok gen hr --n 50 --hospitals 5 --k 3 --capacity 4 -o "$WORK/h.txt" --dzn "$WORK/h.dzn"
  grep -q '^capacity = \[4, 4, 4, 4, 4\];$' "$WORK/h.dzn" || fail "hr: capacity"
  expect 2 "--dzn needs -o FILE" gen uniform --n 3 --dzn "$WORK/x.dzn"
  expect 3 "cannot write" gen uniform --n 3 -o "$WORK/y.txt" --dzn "$WORK/no/such/dir/y.dzn"
}

# A UTF-8 byte-order mark before a text instance is skipped by every reader (it was reported
# as "not a number: '???2'"); UTF-16 text is named as such.
case_bom() {
  bom=$(printf '\357\273\277')
  for kind in solo smi hr; do
    if [ $kind = solo ]; then expect_ok gen solo --n 5 --seed 4 -o "$WORK/$kind.txt"
    else expect_ok gen $kind --n 6 --k 3 --hospitals 4 --seed 4 -o "$WORK/$kind.txt"; fi
    expect_ok solve "$WORK/$kind.txt"
    cp "$WORK/out" "$WORK/want"
    { printf '%s' "$bom"; cat "$WORK/$kind.txt"; } >"$WORK/bom-$kind.txt"
    expect_ok solve "$WORK/bom-$kind.txt"
    same "$WORK/out" "$WORK/want"
    "$BIN" solve - <"$WORK/bom-$kind.txt" >"$WORK/stdin-out" 2>"$WORK/err" || fail "solve - with a BOM ($kind)"
    same "$WORK/stdin-out" "$WORK/want"
  done
  { printf '%s# a comment first\n' "$bom"; cat "$WORK/solo.txt"; } >"$WORK/bom-comment.txt"
  expect_ok solve "$WORK/bom-comment.txt"
  printf '\377\376\062\000\n\000' >"$WORK/utf16.txt"
  expect 1 "utf16.txt: UTF-16 text (byte-order mark 0xFF 0xFE)" solve "$WORK/utf16.txt"
  printf '%s' "$bom" >"$WORK/only-bom.txt"
  expect 1 "only-bom.txt: no data" solve "$WORK/only-bom.txt"
}

# gen -o F --dzn F overwrote the instance with the .dzn: refused, however the two are spelt.
case_gen_same_file() {
  expect 2 "are the same file" gen uniform --n 3 -o "$WORK/F" --dzn "$WORK/F"
  [ ! -e "$WORK/F" ] || fail "the refused command wrote F"
  mkdir "$WORK/sub"
  expect 2 "are the same file" gen uniform --n 3 -o "$WORK/F" --dzn "$WORK/sub/../F"
  expect_ok gen uniform --n 3 -o "$WORK/F"
  cp "$WORK/F" "$WORK/F.orig"
  expect 2 "are the same file" gen uniform --n 3 -o "$WORK/F" --dzn "$WORK/./F"
  ln -s F "$WORK/link"
  expect 2 "are the same file" gen smi --n 3 --k 2 -o "$WORK/F" --dzn "$WORK/link"
  same "$WORK/F" "$WORK/F.orig"
  (cd "$WORK" && "$BIN" gen uniform --n 3 -o F --dzn sub/../F >/dev/null 2>&1)
  [ $? -eq 2 ] || fail "relative spellings of one file"
  same "$WORK/F" "$WORK/F.orig"
  expect 2 "--dzn needs -o FILE" gen uniform --n 3 -o - --dzn "$WORK/x.dzn"
  expect_ok gen uniform --n 3 -o "$WORK/F" --dzn "$WORK/F.dzn"
}

# gen --dzn with a path holding a newline, a tab, a quote and a backslash: one string literal
# with MiniZinc's escapes, which read back gives the path; other control characters refused.
case_dzn_quoting() {
  dir=$(printf '%s/a"b\\c\td\ne' "$WORK")
  mkdir "$dir" || fail "mkdir"
  expect_ok gen smi --n 4 --k 2 -o "$dir/u.txt" --dzn "$WORK/u.dzn"
  [ "$(grep -c '^prefs_file = ".*";$' "$WORK/u.dzn")" -eq 1 ] || fail "prefs_file is not one line"
  [ "$(grep -v -c -E '^(%|n_men|n_women|pm_len|pw_len|prefs_file|  [0-9])' "$WORK/u.dzn")" -eq 0 ] ||
    fail "stray lines in the .dzn"
  # Undo the escapes (\n, \t, \", \\) and compare with the path.
  sed -n 's/^prefs_file = "\(.*\)";$/\1/p' "$WORK/u.dzn" | awk '{
    out = ""
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      if (c == "\\") { i++; c = substr($0, i, 1); c = c == "n" ? "\n" : c == "t" ? "\t" : c }
      else if (c == "\"") { print "unescaped quote" > "/dev/stderr"; exit 1 }
      out = out c
    }
    printf "%s", out
  }' >"$WORK/path" || fail "prefs_file is not a valid string literal"
  printf '%s' "$dir/u.txt" >"$WORK/want"
  same "$WORK/path" "$WORK/want"
  expect 2 "control character 0x0d" gen uniform --n 3 -o "$(printf '%s/r\rx' "$WORK")" --dzn "$WORK/r.dzn"
  [ ! -e "$WORK/r.dzn" ] || fail "wrote a .dzn for a path it refused"
}

# A full disk (/dev/full): every writer reports it with exit status 3, stdout included.
case_full_disk() {
  [ -w /dev/full ] || { echo "no /dev/full: nothing to check"; return 0; }
  full() {
    "$BIN" "$@" >/dev/full 2>"$WORK/err"
    rc=$?
    [ "$rc" -eq 3 ] || fail "bamboo-smp $* >/dev/full: exit status $rc, expected 3"
    grep -q "No space left" "$WORK/err" || fail "bamboo-smp $* >/dev/full: no message"
  }
  printf '2\n0 1\n1 0\n1 0\n0 1\n' >"$WORK/tiny.txt"
  expect 3 "cannot write '/dev/full'" bench --algos gs-seq --kinds solo --n 10 --runs 1 --markdown /dev/full
  full bench --algos gs-seq --kinds solo --n 10 --runs 1
  full solve "$WORK/tiny.txt"
  full solve --gen smi --n 5 --k 2
  expect 3 "/dev/full" solve "$WORK/tiny.txt" -o /dev/full
  expect 3 "/dev/full" solve --gen smi --n 5 --k 2 -o /dev/full
  full gen solo --n 3
  full gen hr --n 3 --k 2
  expect 3 "/dev/full" gen solo --n 3 -o /dev/full
  expect 3 "/dev/full" gen smi --n 3 --k 2 -o /dev/full --binary
  expect 3 "/dev/full: write failed" gen smi --n 3 --k 2 -o "$WORK/i.txt" --dzn /dev/full
  full --help
  full --version
  full algos
  full help solve
  full solve --help
}

# --- machine-readable output ---

# json_matches JSON TEXT: the JSON report's matching is the text format's 'm w' / 'r -' lines.
json_matches() {
  python3 - "$1" "$2" <<'EOF' || fail "$1 does not match $2"
import json, sys
report = json.load(open(sys.argv[1]))
lines = [l.split() for l in open(sys.argv[2])]
want = [None if w == "-" else int(w) for _, w in lines]
assert [int(m) for m, _ in lines] == list(range(len(lines)))
assert report["matching"] == want, (report["matching"], want)
assert report["matched"] == sum(w is not None for w in want)
EOF
}

# json_check JSON EXPR: the Python expression EXPR holds of the report `r`.
json_check() {
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$1" "$2" || fail "$1: not $2"
}

case_json_output() {
  command -v python3 >/dev/null 2>&1 || { echo "no python3: nothing to check"; return 0; }
  expect_ok gen random --n 23 --seed 5 -o "$WORK/inst.txt"
  expect_ok solve "$WORK/inst.txt"
  cp "$WORK/out" "$WORK/text"
  expect_ok solve "$WORK/inst.txt" --format json
  cp "$WORK/out" "$WORK/report.json"
  json_matches "$WORK/report.json" "$WORK/text"
  json_check "$WORK/report.json" 'r["instance"] == {"kind": "complete", "file": sys.argv[1][:-len("report.json")] + "inst.txt", "generator": None, "men": 23, "women": 23}'
  json_check "$WORK/report.json" 'r["algorithm"] == "bamboo" and r["side"] == "men" and r["path"] != "" and r["exit_status"] == 0'
  json_check "$WORK/report.json" 'r["checks"] == {"verify": False, "stable": None, "blocking_pairs": None}'
  json_check "$WORK/report.json" 'list(r["times_ms"]) == ["input", "transfer", "precheck", "init", "solve", "post", "total"]'
  json_check "$WORK/report.json" 'all(v >= 0 for v in r["times_ms"].values()) and r["proposals"] >= 0'
  expect_ok solve "$WORK/inst.txt" --format json --verify --algo gs-seq --side women -o "$WORK/women.json"
  [ -s "$WORK/out" ] && fail "-o FILE --format json printed on stdout"
  grep -q "verified: stable" "$WORK/err" || fail "--verify with json"
  expect_ok solve "$WORK/inst.txt" --algo gs-seq --side women
  json_matches "$WORK/women.json" "$WORK/out"
  json_check "$WORK/women.json" 'r["checks"]["verify"] and r["checks"]["stable"] and r["side"] == "women" and r["algorithm"] == "gs-seq"'
  # -q: the object without the matching, to stdout or -o.
  expect_ok solve "$WORK/inst.txt" --format json -q
  json_check "$WORK/out" '"matching" not in r and "matched" not in r and r["exit_status"] == 0'
  expect_ok solve "$WORK/inst.txt" --format json -q -o "$WORK/q.json"
  json_check "$WORK/q.json" '"matching" not in r'
  expect 2 "-q and -o exclude each other" solve "$WORK/inst.txt" -q -o "$WORK/q.txt"
  expect 2 "--format takes text or json, not 'xml'" solve "$WORK/inst.txt" --format xml
  # A failure after the options are read still writes an object: why, and the exit status.
  expect 7 "time limit of 1e-06 s reached" solve --gen random --n 3000 --time-limit 0.000001 --format json
  json_check "$WORK/out" 'r == {"algorithm": "bamboo", "error": "time limit of 1e-06 s reached before the solve: the input took it", "exit_status": 7}'
  expect 3 "no-such.txt" solve "$WORK/no-such.txt" --format json -o "$WORK/fail.json"
  json_check "$WORK/fail.json" 'r["exit_status"] == 3 and "no-such.txt" in r["error"] and list(r) == ["algorithm", "error", "exit_status"]'
  write bad.txt '2\n0 1\n0 7\n0 1\n1 0\n'
  expect 1 "" solve "$WORK/bad.txt" --format json
  json_check "$WORK/out" 'r["exit_status"] == 1 and "bad.txt:3" in r["error"]'
  expect 3 "" solve "$WORK/inst.txt" --format json -o "$WORK/no-dir/r.json"
  [ "$(grep -c "cannot open" "$WORK/err")" = 1 ] || fail "a report that cannot be written is tried once"
  expect 1 "cannot open" solve "$WORK/bad.txt" --format json -o "$WORK/no-dir/r.json" # the input's status
  expect_ok gen smti --n 6 --seed 2 -o "$WORK/smti.txt"
  expect 2 "no meaning for --algo kiraly" solve "$WORK/smti.txt" --algo kiraly --seed 3 --format json
  [ -s "$WORK/out" ] && fail "a usage error found once the kind is known wrote a JSON report"
  expect 7 "" solve --gen random --n 3000 --time-limit 0.000001 --format text
  [ -s "$WORK/out" ] && fail "--format text wrote a failure report"
  expect_ok solve "$WORK/inst.txt" --format text
  same "$WORK/out" "$WORK/text"
  # SMI and HR, read and generated: null for the unmatched.
  expect_ok gen smi --n 40 --k 3 --seed 2 -o "$WORK/smi.txt"
  expect_ok solve "$WORK/smi.txt" --algo mw-par
  cp "$WORK/out" "$WORK/smi.lines"
  grep -q ' -$' "$WORK/smi.lines" || fail "smi.txt has no unmatched man: pick another seed"
  expect_ok solve "$WORK/smi.txt" --algo mw-par --format json --verify
  json_matches "$WORK/out" "$WORK/smi.lines"
  json_check "$WORK/out" 'r["instance"]["kind"] == "smi" and r["instance"]["men"] == 40 and r["checks"]["stable"] is True and None in r["matching"]'
  expect_ok solve --gen hr --n 50 --hospitals 7 --k 3 --side hospitals
  cp "$WORK/out" "$WORK/hr.lines"
  expect_ok solve --gen hr --n 50 --hospitals 7 --k 3 --side hospitals --format json
  json_matches "$WORK/out" "$WORK/hr.lines"
  json_check "$WORK/out" 'r["instance"] == {"kind": "hr", "file": None, "generator": "hr", "residents": 50, "hospitals": 7} and r["side"] == "hospitals"'
  expect_ok solve --gen congested --n 9 --format json
  json_check "$WORK/out" 'r["instance"]["generator"] == "congested" and len(r["matching"]) == 9'
  # A file name that needs escaping, and one that is not UTF-8.
  name=$(printf 'we"ird\\name\tx.txt')
  cp "$WORK/inst.txt" "$WORK/$name"
  expect_ok solve "$WORK/$name" --format json
  json_check "$WORK/out" 'r["instance"]["file"].endswith("/we\"ird\\name\tx.txt")'
  name=$(printf 'latin\351.txt')
  cp "$WORK/inst.txt" "$WORK/$name"
  expect_ok solve "$WORK/$name" --format json
  json_check "$WORK/out" 'r["instance"]["file"].endswith("/latin\ufffd.txt")'
  [ -w /dev/full ] && expect 3 "/dev/full" solve "$WORK/inst.txt" --format json -o /dev/full
  return 0
}

case_bench_csv() {
  command -v python3 >/dev/null 2>&1 || { echo "no python3: nothing to check"; return 0; }
  expect_ok bench --algos gs-seq,la-seq --kinds congested,random --n 12,20 --runs 2 --threads 2 \
    --markdown "$WORK/table.md" --csv "$WORK/table.csv"
  head -1 "$WORK/table.csv" | grep -q '^n,workload,algorithm,solve_ms_median,total_ms_median,runs,path$' ||
    fail "csv header"
  python3 - "$WORK/table.csv" "$WORK/table.md" <<'EOF' || fail "csv rows differ from the markdown table"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
table = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in open(sys.argv[2]) if l.startswith("| ") and l[2].isdigit()]
assert rows[0][0] == "n" and len(rows) == 9, rows
assert rows[1:] == table, (rows[1:], table)
assert any(r[1] == "random(g=5)" and r[2] == "la-seq" and r[5] == "2" for r in rows)
EOF
  # A stopped run: its empty cells stay empty fields (the quoting itself: tests/test_csv.c).
  expect_ok bench --algos gs-seq --kinds congested --n 2000 --max-seconds 0.000001 --csv "$WORK/stop.csv"
  grep -q '^2000,congested,gs-seq,> 1e-06 s (stopped),,0,' "$WORK/stop.csv" || fail "csv stopped row"
  expect 3 "cannot write '/dev/full'" bench --algos gs-seq --kinds solo --n 10 --runs 1 --csv /dev/full
  expect 3 "cannot open '$WORK/no/dir.csv'" bench --algos gs-seq --kinds solo --n 10 --runs 1 --csv "$WORK/no/dir.csv"
}

# The progress line: only on a terminal (script(1) gives one), never with -q or into a file.
case_progress() {
  expect_ok gen random --n 30 --seed 4 -o "$WORK/inst.txt"
  # A reading phase of 3 s: the instance arrives late on standard input.
  slow="sh -c 'sleep 3; cat \"$WORK/inst.txt\"' | \"$BIN\" solve - >\"$WORK/piped.out\""
  expect_ok solve - <"$WORK/inst.txt"
  cp "$WORK/out" "$WORK/want"
  sh -c "sleep 3; cat '$WORK/inst.txt'" | "$BIN" solve - >"$WORK/out" 2>"$WORK/err" || fail "solve -"
  same "$WORK/out" "$WORK/want"
  [ -s "$WORK/err" ] && fail "progress written to a file: $(cat "$WORK/err")"
  command -v script >/dev/null 2>&1 || { echo "no script(1): the terminal is not checked"; return 0; }
  script -qec "$slow" "$WORK/tty.log" >/dev/null 2>&1 </dev/null || fail "solve - on a terminal"
  same "$WORK/piped.out" "$WORK/want"
  grep -q "standard input: reading [0-9]* s" "$WORK/tty.log" || fail "no progress line on a terminal"
  script -qec "$slow -q" "$WORK/quiet.log" >/dev/null 2>&1 </dev/null || fail "solve - -q on a terminal"
  grep -q "reading" "$WORK/quiet.log" && fail "-q did not silence the progress line"
  return 0
}

command -v "case_$CASE" >/dev/null 2>&1 || fail "no such case"
"case_$CASE"
echo "ok [$CASE]"
