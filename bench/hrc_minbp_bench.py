#!/usr/bin/env python3
"""MinBP-HRC before/after bench: the same instances on two (or more) builds of fzn-bamboo,
back to back, same timeout, writing one markdown table row per instance (bp found, proved,
wall seconds, search nodes and failures from minizinc -s).

  families   `bamboo-smp gen hrc` exp1 (100 residents, 0..30 couples) and exp2 (200..500
             residents), seeds 1..S: models/hrc_file.mzn, solve minimize bp.
  challenge  the MiniZinc Challenge's 6 hrc instances with the Challenge's own objective
             (models/hrc_challenge.mzn: bp <= num_bp, fewest unassigned).

    bench/hrc_minbp_bench.py --smp build/tools/bamboo-smp \
        --solver before=/tmp/base/solvers --solver after=build/minizinc/solvers \
        --seeds 5 --timeout 20 --challenge-timeout 60 > table.md
    (--exp1-couples 0,5,...  --exp2-sizes 600,800,1000: other settings of the two families.)
Each --solver is a folder holding a bamboo.msc (MZN_SOLVER_PATH)."""
import argparse
import os
import re
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHALLENGE = "/work/.mirror/MiniZinc+minizinc-benchmarks/repo"
CH = ["exp1-0-10", "exp1-1-5145", "exp1-1-5670", "exp1-1-945", "exp2-1-4795", "exp2-1-5180"]


def run(solvers, args, timeout):
    env = dict(os.environ, MZN_SOLVER_PATH=solvers)
    t0 = time.time()
    try:
        # -i: each better objective as it is found, so a run killed at the timeout still shows its best.
        p = subprocess.run(["minizinc", "--solver", "bamboo", "-i", "-s"] + args, capture_output=True, text=True,
                           timeout=timeout + 5, env=env)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    wall = time.time() - t0
    stat = lambda k: (re.findall(r"%%%%mzn-stat: %s=(\d+)" % k, out) or ["?"])[-1]
    obj = re.findall(r"^objective = (\d+);", out, re.M) or re.findall(r"^bp = (\d+);", out, re.M)
    return {"obj": obj[-1] if obj else "-", "proved": "==========" in out, "unsat": "=====UNSAT" in out,
            "wall": wall, "nodes": stat("nodes"), "failures": stat("failures")}


def cell(r):
    flag = "UNSAT" if r["unsat"] else ("opt" if r["proved"] else "not proved")
    return "%s %s, %.1f s, %s nodes" % (r["obj"], flag, r["wall"], r["nodes"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--smp", default=os.path.join(ROOT, "build", "tools", "bamboo-smp"))
    ap.add_argument("--solver", action="append", required=True, help="label=folder with bamboo.msc")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--challenge-timeout", type=int, default=60)
    ap.add_argument("--exp1-couples", default="0,5,10,15,20,25,30", help="exp1's couple counts (100 residents)")
    ap.add_argument("--exp2-sizes", default="200,300,400,500", help="exp2's resident counts (n/10 couples)")
    ap.add_argument("--skip-families", action="store_true")
    ap.add_argument("--skip-challenge", action="store_true")
    a = ap.parse_args()
    solvers = [s.split("=", 1) for s in a.solver]
    tmp = tempfile.mkdtemp(prefix="hrcminbp")
    head = "| instance | " + " | ".join(l for l, _ in solvers) + " |"
    sep = "|---" * (len(solvers) + 1) + "|"
    if not a.skip_families:
        print("## Random families, solve minimize bp (timeout %d s)\n" % a.timeout)
        print(head)
        print(sep)
        ints = lambda text: [int(x) for x in text.split(",") if x]
        fams = [("exp1", 100, c, 10, 100) for c in ints(a.exp1_couples)]
        fams += [("exp2", n, n // 10, n // 10, n) for n in ints(a.exp2_sizes)]
        totals = {l: [0, 0.0] for l, _ in solvers}
        for name, n, c, h, p in fams:
            for seed in range(1, a.seeds + 1):
                path = os.path.join(tmp, "%s_%d_%d_%d.hrc" % (name, n, c, seed))
                subprocess.run([a.smp, "gen", "hrc", "--n", str(n), "--couples", str(c), "--hospitals", str(h),
                                "--posts", str(p), "--seed", str(seed), "-o", path], check=True, capture_output=True)
                with open(path) as f:
                    nr, _, nc = (int(x) for x in f.readline().split()[1:4])
                cells = []
                for label, folder in solvers:
                    r = run(folder, [os.path.join(ROOT, "models", "hrc_file.mzn"), "-D",
                                     'nS = %d; nC = %d; file = "%s";' % (nr - 2 * nc, nc, path),
                                     "--time-limit", str(a.timeout * 1000)], a.timeout)
                    totals[label][0] += r["proved"]
                    totals[label][1] += r["wall"]
                    cells.append(cell(r))
                print("| %s n=%d c=%d seed %d | %s |" % (name, n, c, seed, " | ".join(cells)), flush=True)
        print("| **solved / total s** | " + " | ".join("%d solved, %.1f s" % (t[0], t[1]) for t in totals.values()) + " |")
        print()
    if not a.skip_challenge:
        print("## MiniZinc Challenge hrc, the Challenge's objective (timeout %d s)\n" % a.challenge_timeout)
        print(head)
        print(sep)
        for inst in CH:
            dzn = os.path.join(tmp, inst + ".dzn")
            with open(dzn, "w") as f:
                f.write(subprocess.run(["git", "-C", CHALLENGE, "show", "HEAD:hrc/%s.dzn" % inst], check=True,
                                       capture_output=True, text=True).stdout)
            cells = [cell(run(folder, [os.path.join(ROOT, "models", "hrc_challenge.mzn"), dzn, "--time-limit",
                                       str(a.challenge_timeout * 1000)], a.challenge_timeout)) for _, folder in solvers]
            print("| %s | %s |" % (inst, " | ".join(cells)), flush=True)


if __name__ == "__main__":
    main()
