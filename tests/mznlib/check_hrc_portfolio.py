#!/usr/bin/env python3
"""BAMBOO_HRC_PORTFOLIO (docs/hrc_constraint.md, Search): with it, the first solution that
`solve minimize bp` prints through MiniZinc (the file form, stable_matching_hrc_file) is the
portfolio's best matching, not the deferred acceptance's.

On correlated instances (bamboo-smp gen hrc-mallows) where hrc-da ends with blocking pairs and
`bamboo-smp solve --algo hrc-da-portfolio` (the same runs, seed 1, polish) ends with fewer:
without the variable the first bp printed is hrc-da's count, with it the portfolio's; later
solutions only improve; a malformed setting is warned about and ignored. The counts come from
bamboo-smp on the same file, whose checker is tested against brute force (test_hrc).

    tests/mznlib/check_hrc_portfolio.py --solver-path <build>/minizinc/solvers --smp <build>/tools/bamboo-smp

Exit 0 when every case passed, 77 (skipped) without minizinc."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mzn_setup  # noqa: E402

MODEL = """include "stable_matching_hrc_file.mzn";
int: nS; int: nC;
array[1..nS] of var int: singles;
array[1..nC] of var int: couples;
var 0..1000000: bp;
constraint stable_matching_hrc_file(singles, couples, bp, "{path}");
solve minimize bp;
output ["bp = \\(bp)\\n"];
"""

RUNS, POLISH = 8, 20


def smp_count(args, path, extra):
    """The blocking pairs bamboo-smp solve reports (hrc-da or the portfolio)."""
    p = subprocess.run([args.smp, "solve", path, "-q"] + extra, capture_output=True, text=True, timeout=120)
    m = re.search(r"^hrc-da(?:-portfolio)?: [a-z ]+, (\d+) blocking pairs", p.stderr, re.M)
    if p.returncode != 0 or not m:
        raise RuntimeError("bamboo-smp solve %s %s: %s" % (path, extra, p.stderr))
    return int(m.group(1))


def first_bps(args, env, mzn, dzn, setting):
    run_env = dict(env)
    run_env.pop("BAMBOO_HRC_PORTFOLIO", None)
    if setting is not None:
        run_env["BAMBOO_HRC_PORTFOLIO"] = setting
    p = subprocess.run([args.minizinc, "--solver", "bamboo", "-a", "--time-limit", "3000", mzn, dzn],
                       capture_output=True, text=True, timeout=120, env=run_env)
    return [int(x) for x in re.findall(r"^bp = (\d+)$", p.stdout, re.M)], p.stderr + p.stdout


def main():
    ap = argparse.ArgumentParser()
    mzn_setup.add_arguments(ap)
    ap.add_argument("--smp", required=True, help="bamboo-smp")
    ap.add_argument("--seeds", default="4,9,1")
    args = ap.parse_args()
    env, code = mzn_setup.prepare(args)
    if code is not None:
        return code
    tmp = tempfile.mkdtemp(prefix="hrc portfolio")
    failures = telling = 0
    for seed in [int(s) for s in args.seeds.split(",")]:
        path = os.path.join(tmp, "m%d.hrc" % seed)
        subprocess.run([args.smp, "gen", "hrc-mallows", "--n", "300", "--hospitals", "30", "--couples", "60",
                        "--lists", "5", "10", "--phi-residents", "0.9", "--phi-hospitals", "0.5", "--seed",
                        str(seed), "-o", path], check=True, capture_output=True, timeout=60)
        da = smp_count(args, path, [])
        pf = smp_count(args, path, ["--algo", "hrc-da-portfolio", "--runs", str(RUNS), "--seed", "1", "--polish",
                                    str(POLISH)])
        mzn, dzn = os.path.join(tmp, "m%d.mzn" % seed), os.path.join(tmp, "m%d.dzn" % seed)
        with open(mzn, "w") as f:
            f.write(MODEL.format(path=path))
        with open(dzn, "w") as f:
            f.write("nS = 180;\nnC = 60;\n")
        plain, log1 = first_bps(args, env, mzn, dzn, None)
        ported, log2 = first_bps(args, env, mzn, dzn, "%d:%d" % (RUNS, POLISH))
        bad, log3 = first_bps(args, env, mzn, dzn, "eight")
        ok = (plain and ported and bad and plain[0] == da and ported[0] == min(da, pf) and bad[0] == da
              and "BAMBOO_HRC_PORTFOLIO='eight'" in log3
              and all(x > y for s in (plain, ported) for x, y in zip(s, s[1:])))
        telling += pf < da
        print("seed %d: hrc-da %d, portfolio %d; first bp printed: plain %s, with the portfolio %s" % (
            seed, da, pf, plain[:1], ported[:1]))
        if not ok:
            failures += 1
            print("FAILED: plain %s, portfolio %s, malformed %s\n%s\n%s\n%s" % (
                plain, ported, bad, log1[-1500:], log2[-1500:], log3[-1500:]))
    shutil.rmtree(tmp, ignore_errors=True)
    if telling == 0:
        print("no instance where the portfolio beats hrc-da: the check tells nothing")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
