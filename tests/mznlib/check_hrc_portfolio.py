#!/usr/bin/env python3
"""The annotation hrc_portfolio(RUNS, POLISH) (docs/hrc_constraint.md, Search): with it on the
constraint, the first solution that `solve minimize bp` prints through MiniZinc is the
portfolio's best matching, not the deferred acceptance's.

File form (stable_matching_hrc_file), on correlated instances (bamboo-smp gen hrc-mallows) where
hrc-da ends with blocking pairs and `bamboo-smp solve --algo hrc-da-portfolio` (the same runs,
seed 1, polish) ends with fewer: without the annotation the first bp printed is hrc-da's count,
with it the portfolio's; later solutions only improve. The counts come from bamboo-smp on the
same file, whose checker is tested against brute force (test_hrc). The environment variable the
annotation replaced no longer changes anything.
Matrix form (models/hrc_min_bp.mzn on models/hrc_no_stable.dzn, where hrc-da is not stable):
the annotation runs the portfolio (BAMBOO_HRC_DEBUG's line) and the optimum stays the plain
run's. With ::gpu too, the portfolio's runs go to the GPU where one is usable (the line says
where) and the first bp is the same. Both forms: values out of range (RUNS < 1, POLISH < 0, POLISH > 10^9) are an error that
names the model file and the constraint's line.

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
constraint stable_matching_hrc_file(singles, couples, bp, "{path}"){ann};
solve minimize bp;
output ["bp = \\(bp)\\n"];
"""
MODEL_CONSTRAINT_LINE = 6

RUNS, POLISH = 8, 20
BAD = ["hrc_portfolio(0, 20)", "hrc_portfolio(8, -1)", "hrc_portfolio(1, 2000000000)"]


def smp_count(args, path, extra):
    """The blocking pairs bamboo-smp solve reports (hrc-da or the portfolio)."""
    p = subprocess.run([args.smp, "solve", path, "-q"] + extra, capture_output=True, text=True, timeout=120)
    m = re.search(r"^hrc-da(?:-portfolio)?: [a-z ]+, (\d+) blocking pairs", p.stderr, re.M)
    if p.returncode != 0 or not m:
        raise RuntimeError("bamboo-smp solve %s %s: %s" % (path, extra, p.stderr))
    return int(m.group(1))


def solve(args, env, mzn, dzn, extra_env=None):
    """(every bp printed, exit code, stderr + stdout) of minizinc -a on mzn, dzn."""
    run_env = dict(env)
    run_env.update(extra_env or {})
    p = subprocess.run([args.minizinc, "--solver", "bamboo", "-a", "--time-limit", "3000", mzn, dzn],
                       capture_output=True, text=True, timeout=120, env=run_env)
    return [int(x) for x in re.findall(r"^bp = (\d+);?$", p.stdout, re.M)], p.returncode, p.stderr + p.stdout


def rejected(args, env, mzn, dzn, line):
    """Whether minizinc fails on mzn with a message at mzn:line naming hrc_portfolio."""
    bps, rc, log = solve(args, env, mzn, dzn)
    ok = rc != 0 and not bps and ("%s:%d:" % (mzn, line)) in log and "hrc_portfolio" in log
    if not ok:
        print("FAILED: %s not rejected at line %d (rc %d):\n%s" % (mzn, line, rc, log[-1500:]))
    return ok


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def matrix_form(args, env, tmp):
    """The annotation on the matrix form: the portfolio runs, the optimum is unchanged, and bad
    values are rejected at the constraint's line. Returns the number of failures."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "models", "hrc_min_bp.mzn")) as f:
        lines = f.read().split("\n")
    at = [i for i, t in enumerate(lines) if t.startswith("constraint stable_matching_hrc(")]
    assert len(at) == 1 and lines[at[0]].endswith(");")
    dzn = os.path.join(root, "models", "hrc_no_stable.dzn")

    def model(ann):
        text = list(lines)
        text[at[0]] = text[at[0]][:-1] + ann + ";"
        path = os.path.join(tmp, "matrix%d.mzn" % len(os.listdir(tmp)))
        write(path, "\n".join(text))
        return path

    failures = 0
    plain, rc1, log1 = solve(args, env, model(""), dzn, {"BAMBOO_HRC_DEBUG": "1"})
    ported, rc2, log2 = solve(args, env, model(" :: hrc_portfolio(4, 10)"), dzn, {"BAMBOO_HRC_DEBUG": "1"})
    ok = (rc1 == 0 and rc2 == 0 and plain and ported and plain[-1] == ported[-1]
          and "hrc: portfolio of 4 runs, 10 polish steps" in log2 and "hrc: portfolio" not in log1)
    print("matrix form: bp printed plain %s, with the annotation %s" % (plain, ported))
    if not ok:
        failures += 1
        print("FAILED: matrix form\n%s\n%s" % (log1[-1500:], log2[-1500:]))
    for bad in BAD:
        failures += not rejected(args, env, model(" :: " + bad), dzn, at[0] + 1)
    return failures


def on_gpu_path(args, env, tmp, path, dzn, want):
    """:: gpu with the annotation: the portfolio's runs on the GPU where one is usable (the same
    runs, so the same first bp), on the CPU with the ::gpu warning where not."""
    mzn = os.path.join(tmp, "gpu.mzn")
    write(mzn, MODEL.format(path=path, ann=" :: gpu :: hrc_portfolio(%d, %d)" % (RUNS, POLISH)))
    bps, rc, log = solve(args, env, mzn, dzn, {"BAMBOO_HRC_DEBUG": "1"})
    where = "on the GPU" if "::gpu:" not in log else "on the CPU"
    line = "hrc: portfolio of %d runs, %d polish steps: %d blocking pairs (%s)" % (RUNS, POLISH, want, where)
    ok = rc == 0 and bps and bps[0] == want and line in log
    print("::gpu: first bp printed %s, the portfolio %s" % (bps[:1], where))
    if not ok:
        print("FAILED: ::gpu :: hrc_portfolio (wanted '%s')\n%s" % (line, log[-1500:]))
    return ok


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
            f.write(MODEL.format(path=path, ann=""))
        with open(dzn, "w") as f:
            f.write("nS = 180;\nnC = 60;\n")
        plain, _, log1 = solve(args, env, mzn, dzn, {"BAMBOO_HRC_PORTFOLIO": "%d:%d" % (RUNS, POLISH)})
        annotated = os.path.join(tmp, "a%d.mzn" % seed)
        write(annotated, MODEL.format(path=path, ann=" :: hrc_portfolio(%d, %d)" % (RUNS, POLISH)))
        ported, _, log2 = solve(args, env, annotated, dzn)
        ok = (plain and ported and plain[0] == da and ported[0] == min(da, pf)
              and all(x > y for s in (plain, ported) for x, y in zip(s, s[1:])))
        if seed == int(args.seeds.split(",")[0]):
            failures += not on_gpu_path(args, env, tmp, path, dzn, min(da, pf))
        telling += pf < da
        print("seed %d: hrc-da %d, portfolio %d; first bp printed: plain %s, annotated %s" % (
            seed, da, pf, plain[:1], ported[:1]))
        if not ok:
            failures += 1
            print("FAILED: plain %s, annotated %s\n%s\n%s" % (plain, ported, log1[-1500:], log2[-1500:]))
    for k, bad in enumerate(BAD):
        mzn = os.path.join(tmp, "bad%d.mzn" % k)
        write(mzn, MODEL.format(path=path, ann=" :: " + bad))
        failures += not rejected(args, env, mzn, dzn, MODEL_CONSTRAINT_LINE)
    failures += matrix_form(args, env, tempfile.mkdtemp(dir=tmp))
    shutil.rmtree(tmp, ignore_errors=True)
    if telling == 0:
        print("no instance where the portfolio beats hrc-da: the check tells nothing")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
