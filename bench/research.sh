#!/usr/bin/env bash
# The research benchmark: optimisation over stable matchings where there are very many
# of them. Families (docs/generators.md, written by smc-dzn-gen --gen): irving-leather
# (n = 2^k, Irving and Leather's family: 10, 268, 195472 stable matchings at n = 4, 8, 16)
# and latin with radix 4 (Z_4^a x Z_2^b group tables). Models: sex_equal, egalitarian,
# minimum_regret (models/) and pairs (bench/research_pairs.mzn: sex-equal with one forced and
# two forbidden pairs); each also as NAME_bound (models/*_bound.mzn, bench/research_pairs_bound.mzn:
# the same model through stable_matching_objective.mzn's predicates, with bamboo's lattice
# bound, docs/objectives.md; Gecode would run the same decomposition, so it skips them). Solvers: bamboo on each path asked for (`:: cpu`, `:: gpu`, or auto:
# no annotation, the hybrid's choice) and Gecode on the shipped decomposition
# (minizinc --solver gecode -I minizinc/decomposition). For each run: whether the optimum was
# proved (==========) within the limit, the wall time (flattening included), Gecode's / fzn-
# bamboo's solveTime, the nodes and nodes per second of solveTime. Once a solver times out at
# some n on a (family, model), larger n are skipped for it (marked "skip").
#
#   bench/research.sh [BUILD_DIR] > table.md
#   env: PATHS="cpu gpu auto" (default cpu)   SIZES="64 128 ... 2048" (default 64..2048)
#        LIMIT=seconds per run (default 60)   FAMILIES="irving-leather latin4"
#        MODELS="sex_equal egalitarian minimum_regret pairs"   GECODE=0 skips Gecode
#        LOG=folder for the raw outputs (default a temporary folder), DATA=folder for the
#        instances (default LOG; runs may share one)
#        BAMBOO_FLAGS: more minizinc options for bamboo's runs, split at spaces
#        (several GPUs for the GPU path: "-p 4 --fzn-flag --gpus --fzn-flag 0,1")
#        GEN=smc-dzn-gen to use, SOLVERS=folder of bamboo.msc (default: BUILD_DIR's; the GPU
#        machine's layout: bench/smc_device.sh research)
set -uo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$BUILD" && pwd)
PATHS=${PATHS-cpu} # (set and empty: Gecode alone)
SIZES=${SIZES:-64 128 256 512 1024 2048}
LIMIT=${LIMIT:-60}
FAMILIES=${FAMILIES:-irving-leather latin4}
MODELS=${MODELS:-sex_equal egalitarian minimum_regret pairs}
GECODE=${GECODE:-1}
read -r -a BAMBOO_FLAGS <<< "${BAMBOO_FLAGS:-}"
LOG=${LOG:-$(mktemp -d)}
DATA=${DATA:-$LOG}
mkdir -p "$LOG" "$DATA"
export MZN_SOLVER_PATH="${SOLVERS:-$BUILD/minizinc/solvers}"
gen="${GEN:-$BUILD/bench/smc-dzn-gen}"
[ -x "$gen" ] || { echo "research.sh: $gen not built" >&2; exit 2; }
# (whole output first: grep -q on a pipe would kill minizinc with SIGPIPE under pipefail)
solvers_seen=$(minizinc --solvers 2>/dev/null)
grep -q org.bamboo.bamboo <<< "$solvers_seen" || { echo "research.sh: minizinc does not see $MZN_SOLVER_PATH/bamboo.msc" >&2; exit 2; }

model_file() { # MODEL PATH -> a copy of the model with the path's annotation
  local src out="$LOG/$1.$2.mzn"
  case $1 in pairs*) src="$ROOT/bench/research_$1.mzn" ;; *) src="$ROOT/models/$1.mzn" ;; esac
  case $2 in
    cpu | gpu) sed -E "s/(stable_matching[a-z_]*\(men, women, pm, pw[a-z, ]*\));/\1 :: $2;/" "$src" > "$out" ;;
    *) cp "$src" "$out" ;;
  esac
  grep -q "stable_matching[a-z_]*(men, women, pm, pw" "$out" || { echo "research.sh: no constraint line in $src" >&2; exit 2; }
  echo "$out"
}

data_file() { # FAMILY N -> the instance (and the pairs) as MiniZinc data, made once in $DATA
  local f="$DATA/$1.$2.dzn" tmp="$DATA/.$1.$2.$$"
  if [ ! -s "$f" ]; then
    # Written aside and renamed: research.sh runs sharing DATA (bench/research_device.sh) never
    # read a half-written file.
    case $1 in
      irving-leather) "$gen" "$2" --gen irving-leather > "$tmp" ;;
      latin4) "$gen" "$2" --gen latin --group 4 > "$tmp" ;;
      *) echo "research.sh: unknown family $1" >&2; exit 2 ;;
    esac
    printf 'forced = [| 0, %d |];\nforbidden = [| 1, 1 | %d, 0 |];\n' $(($2 / 2)) $(($2 - 1)) > "$tmp.pairs"
    mv "$tmp.pairs" "$DATA/$1.$2.pairs.dzn" && mv "$tmp" "$f"
  fi
  echo "$f"
}

stat() { grep -m1 "^%%%mzn-stat: $1=" "$2" | cut -d= -f2; }

run_one() { # FAMILY N MODEL SOLVER -> one table row; status 1 when not proved in time
  local fam=$1 n=$2 model=$3 solver=$4 out="$LOG/$1.$2.$3.$4.out" mzn data extra=()
  data=$(data_file "$fam" "$n")
  case $model in pairs*) extra=("$DATA/$fam.$n.pairs.dzn") ;; esac
  if [ "$solver" = gecode ]; then
    mzn=$(model_file "$model" auto)
    set -- minizinc --solver gecode -I "$ROOT/minizinc/decomposition"
  else
    mzn=$(model_file "$model" "$solver")
    set -- minizinc --solver org.bamboo.bamboo "${BAMBOO_FLAGS[@]}"
  fi
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout $((LIMIT + 30)) "$@" -s --time-limit $((LIMIT * 1000)) "$mzn" "$data" "${extra[@]}" > "$out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local wall status nodes solve obj rate
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  if grep -q '^==========' "$out"; then status=optimal
  elif grep -q '=====UNSATISFIABLE=====' "$out"; then status=unsat
  elif awk -v w="$wall" -v l="$LIMIT" 'BEGIN { exit !(w >= l) }'; then status=timeout # (flattening can use it all up)
  elif [ $rc -ne 0 ] && [ $rc -ne 124 ]; then status="error $rc"
  else status=timeout; fi
  nodes=$(stat nodes "$out"); solve=$(stat solveTime "$out")
  obj=$(grep -E '^(imbalance|cost|regret) += ' "$out" | tail -1 | awk '{print $3}')
  rate=$(awk -v a="${nodes:-0}" -v b="${solve:-0}" 'BEGIN { if (b > 0) printf "%.0f", a / b; else printf "-" }')
  echo "| $fam | $n | $model | $solver | $status | $wall | ${solve:--} | ${nodes:--} | $rate | ${obj:--} |"
  [ "$status" = optimal ] || [ "$status" = unsat ]
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git -C "$ROOT" rev-parse --short HEAD)"
echo "command: BAMBOO_FLAGS=\"${BAMBOO_FLAGS[*]}\" PATHS=\"$PATHS\" SIZES=\"$SIZES\" LIMIT=$LIMIT FAMILIES=\"$FAMILIES\" MODELS=\"$MODELS\" GECODE=$GECODE bench/research.sh"
echo
echo "| family | n | model | solver | result | wall s | solveTime s | nodes | nodes/s | objective |"
echo "|---|---:|---|---|---|---:|---:|---:|---:|---:|"
solvers="$PATHS"
[ "$GECODE" = 1 ] && solvers="$solvers gecode"
for fam in $FAMILIES; do
  for model in $MODELS; do
    for solver in $solvers; do
      case $solver.$model in gecode.*_bound) continue ;; esac # the same decomposition as without
      gave_up=0
      for n in $SIZES; do
        if [ $gave_up = 1 ]; then echo "| $fam | $n | $model | $solver | skip | | | | | |"; continue; fi
        run_one "$fam" "$n" "$model" "$solver" || gave_up=1
      done
    done
  done
done
