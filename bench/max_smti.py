#!/usr/bin/env python3
"""MAX-SMTI: Bamboo's native stable_matching_smti against its decomposition, on Bamboo's solver and
on Gecode, with Kiraly's 3/2-approximation as the size any exact answer must reach.

For each size and seed: `bamboo-smp gen smti --n N --p1 P1 --p2 P2 --seed S` (Gent & Prosser's
parameters: P1 the probability a pair is deleted, P2 that an entry is tied with the one before),
converted to a dzn for bench/ties/max_smti.mzn; then `minizinc -s --time-limit T` with the
native constraint (bamboo), the decomposition posted explicitly on bamboo
(bench/ties/max_smti_decomposition.mzn), and the decomposition on Gecode (`-I
minizinc/decomposition`). Prints a markdown table: best size found, proved optimal or not,
nodes, seconds.

  bench/max_smti.py [--build build] [--sizes 20,40,60] [--seeds 1,2] [--p1 0.5] [--p2 0.5]
                    [--time-limit 20] [--solver-path build/minizinc/solvers] [--only native]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "mznlib"))
import mzn_setup  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))


def parse_smti(text):
    """The men's and women's lists (0-based ids) and ranks of an `smti N1 N2` text file."""
    lines = [l.split("%")[0].strip() for l in text.splitlines()]
    head = lines[0].split()
    n1, n2 = int(head[1]), int(head[2])
    rows = lines[1:1 + n1 + n2]
    out = []
    for row in rows:
        ids, ranks, rank, depth = [], [], 0, 0
        for tok in row.replace("[", " [ ").replace("]", " ] ").split():
            if tok == "-":  # an empty list
                continue
            if tok == "[":
                depth = 1
                continue
            if tok == "]":
                depth = 0
                rank += 1
                continue
            ids.append(int(tok))
            ranks.append(rank)
            if not depth:
                rank += 1
        out.append((ids, ranks))
    return n1, n2, out[:n1], out[n1:]


def matrix(rows, pad):
    width = max([len(r) for r in rows] + [1])
    body = " | ".join(", ".join(str(x) for x in r + [pad] * (width - len(r))) for r in rows)
    return "[| %s |]" % body


def dzn(n1, n2, men, women):
    one = lambda side: [[i + 1 for i in ids] for ids, _ in side]  # noqa: E731
    return ("n_men = %d;\nn_women = %d;\npm = %s;\npm_len = %s;\npm_rank = %s;\n"
            "pw = %s;\npw_len = %s;\npw_rank = %s;\n"
            % (n1, n2, matrix(one(men), 1), [len(ids) for ids, _ in men], matrix([r for _, r in men], 0),
               matrix(one(women), 1), [len(ids) for ids, _ in women], matrix([r for _, r in women], 0)))


def run_mzn(args, env, solver, model, data, extra=()):
    cmd = [args.minizinc, "--solver", solver, "-s", "--time-limit", str(int(args.time_limit * 1000)),
           *extra, model, data]
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.time() - t
    sizes = [int(x) for x in re.findall(r"^size = (\d+)$", p.stdout, re.M)]
    nodes = re.findall(r"^%%%mzn-stat: nodes=(\d+)$", p.stdout, re.M)
    proved = "==========" in p.stdout
    if p.returncode and not sizes:
        return "error %d" % p.returncode, "", "", "%.1f" % wall
    return (str(sizes[-1]) if sizes else "none", "yes" if proved else "no", nodes[-1] if nodes else "?",
            "%.1f" % wall)


def main():
    ap = argparse.ArgumentParser()
    mzn_setup.add_arguments(ap)
    ap.add_argument("--build", default="build")
    ap.add_argument("--sizes", default="20,40,60")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--p1", default="0.5")
    ap.add_argument("--p2", default="0.5")
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--only", default="", help="run only the solvers whose name contains this word")
    args = ap.parse_args()
    if not args.solver_path:
        args.solver_path = os.path.abspath(os.path.join(args.build, "minizinc", "solvers"))
    env, code = mzn_setup.prepare(args, need=("bamboo",), want=("gecode",))
    if code is not None:
        return code
    smp = os.path.join(args.build, "tools", "bamboo-smp")
    runs = [("bamboo, native", "bamboo", "bench/ties/max_smti.mzn", ()),
            ("bamboo, decomposition", "bamboo", "bench/ties/max_smti_decomposition.mzn", ()),
            ("gecode, decomposition", "gecode", "bench/ties/max_smti.mzn", ("-I", "minizinc/decomposition"))]
    runs = [r for r in runs if args.only in r[0]]
    print("| n | p1 | p2 | seed | kiraly | solver | size | proved | nodes | s |")
    print("|---:|---:|---:|---:|---:|---|---:|---|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in args.sizes.split(",")]:
            for seed in [int(x) for x in args.seeds.split(",")]:
                inst = os.path.join(tmp, "i.txt")
                subprocess.run([smp, "gen", "smti", "--n", str(n), "--p1", args.p1, "--p2", args.p2,
                                "--seed", str(seed), "-o", inst], check=True)
                n1, n2, men, women = parse_smti(open(inst).read())
                data = os.path.join(tmp, "i.dzn")
                open(data, "w").write(dzn(n1, n2, men, women))
                k = subprocess.run([smp, "solve", inst, "--algo", "kiraly", "--verify"], capture_output=True,
                                   text=True, check=True)
                kiraly = sum(1 for l in k.stdout.splitlines() if l.split()[1] != "-")
                for name, solver, model, extra in runs:
                    got = run_mzn(args, env, solver, os.path.join(ROOT, model), data, extra)
                    print("| %d | %s | %s | %d | %d | %s | %s |" % (n, args.p1, args.p2, seed, kiraly, name,
                                                                   " | ".join(got)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
