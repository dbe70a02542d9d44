# Shared start of run_golden.sh and run_errors.sh (sourced, so it works on their
# positional parameters): checks "FZN_BAMBOO DIR [NAME...]", makes $bin absolute, enters
# DIR, lists every case when no NAME is given, and makes a scratch folder $tmp.
if [ $# -lt 2 ]; then
  echo "usage: $0 FZN_BAMBOO DIR [NAME...]" >&2
  exit 2
fi
bin=$1
dir=$2
shift 2
[ -x "$bin" ] || { echo "not executable: $bin" >&2; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$dir" || exit 2
if [ $# -eq 0 ]; then
  set -- $(ls *.fzn | sed 's/\.fzn$//')
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
