#!/usr/bin/env python3
"""MinBP-HRC: bamboo against CP-SAT on the same instances, one markdown row per instance.

  bamboo  `minizinc --solver bamboo models/hrc_file.mzn` (the file form, solve minimize bp):
          fzn-bamboo's own time (its initTime + solveTime: reading the file, posting, the
          deferred acceptance, search), and minizinc's whole wall time (start-up and
          flattening too) beside it.
  CP-SAT  bench/hrc_cpsat.py, the model written from the definition (docs/hrc.md); time of
          Solve alone (not building the model in Python). Its matching is counted again by
          `bamboo-smp hrc check`, and a count that differs from its objective fails the run.

Where both prove an optimum they must agree (else DISAGREE, exit 1).

    bench/hrc_peers.py --build build --seeds 5 --timeout 60 [--exp1-couples 0,5,...]
        [--exp2-sizes 400,...,1000] [--challenge] [--workers 2] > table.md

Families: Manlove, McBride & Trimble (Constraints 2017) from `bamboo-smp gen hrc`: exp1, 100
residents, 10 hospitals, 100 posts, 0..30 couples; exp2, N residents with N/10 couples and
hospitals. --challenge adds the MiniZinc Challenge's hrc instances (bench/hrc_challenge.py
converts them), with min bp as the objective for both.
"""
import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hrc_bench  # noqa: E402  (solve, gen, challenge_instances)


def cpsat(path, timeout, workers, smp):
    mfile = path + ".cpsat.txt"
    p = subprocess.run([sys.executable, os.path.join(HERE, "hrc_cpsat.py"), path, "--time-limit", str(timeout),
                        "--workers", str(workers), "--matching", mfile], capture_output=True, text=True)
    m = re.search(r"bp=(\S+) (\S+) seconds=([\d.]+)", p.stdout)
    if not m:
        sys.exit("hrc_cpsat.py failed on %s: %s" % (path, p.stderr[-500:]))
    r = {"bp": None if m.group(1) == "-" else int(m.group(1)), "proved": m.group(2) == "proved",
         "wall": float(m.group(3))}
    if r["bp"] is not None:
        c = subprocess.run([smp, "hrc", "check", path, "--matching", mfile], capture_output=True, text=True).stdout
        counted = 0 if c.startswith("stable") else int(re.search(r"(\d+) blocking", c).group(1))
        if counted != r["bp"]:
            sys.exit("CP-SAT's objective %d on %s, the checker counts %d" % (r["bp"], path, counted))
    return r


def solver_time(r):
    """fzn-bamboo's initTime + solveTime from minizinc -s, or the wall time if it printed none."""
    stat = lambda k: [float(v) for v in re.findall(r"%%%%mzn-stat: %s=([\d.e+-]+)" % k, r["log"])]
    init, solve = stat("initTime"), stat("solveTime")
    return init[-1] + solve[-1] if init and solve else r["wall"]


def cell(r, t):
    if r["bp"] is None:
        return "- (%.2f s)" % t
    return "%d%s %.3f s" % (r["bp"], "" if r["proved"] else " (not proved)", t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--workers", type=int, default=2, help="CP-SAT's workers")
    ap.add_argument("--exp1-couples", default="0,5,10,15,20,25,30")
    ap.add_argument("--exp2-sizes", default="400,500,600,700,800,900,1000")
    ap.add_argument("--challenge", action="store_true")
    a = ap.parse_args()
    smp = os.path.join(a.build, "tools", "bamboo-smp")
    env = dict(os.environ, MZN_SOLVER_PATH=os.path.join(a.build, "minizinc", "solvers"), BAMBOO_HRC_DEBUG="1")
    tmp = tempfile.mkdtemp(prefix="hrcpeers")
    print("Machine: %s, %d cores, %s. Date: %s. Command: `bench/hrc_peers.py %s`; timeout %d s per solver "
          "and instance; CP-SAT %d workers.\n" % (platform.node(), os.cpu_count(), platform.machine(),
                                                 time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                                 " ".join(sys.argv[1:]), a.timeout, a.workers))
    print("| instance | bamboo bp, solver s | bamboo minizinc wall s | CP-SAT bp, Solve s | first to the proof |\n"
          "|---|---|---:|---|---|", flush=True)
    jobs = [("exp1", 100, int(c), 10, 100) for c in a.exp1_couples.split(",") if c]
    jobs += [("exp2", int(n), int(n) // 10, int(n) // 10, int(n)) for n in a.exp2_sizes.split(",") if n]
    insts = []
    for name, n, c, h, p in jobs:
        for seed in range(1, a.seeds + 1):
            path = os.path.join(tmp, "%s_%d_%d_s%d.hrc" % (name, n, c, seed))
            ns, nc = hrc_bench.gen(smp, ["hrc", "--n", str(n), "--couples", str(c), "--hospitals", str(h),
                                         "--posts", str(p), "--seed", str(seed)], path)
            insts.append(("%s n=%d c=%d seed %d" % (name, n, c, seed), path, ns, nc))
    if a.challenge:
        for f, hrc, nr, nh, nc in hrc_bench.challenge_instances(tmp):
            insts.append(("challenge " + f, hrc, nr - 2 * nc, nc))
    tally = {"both": 0, "bamboo only": 0, "cpsat only": 0, "neither": 0, "bamboo ahead": 0, "cpsat ahead": 0}
    bad = 0
    for label, path, ns, nc in insts:
        b = hrc_bench.solve(env, path, ns, nc, a.timeout, 8 * 1024 * 1024)
        c = cpsat(path, a.timeout, a.workers, smp)
        bt = solver_time(b)
        if b["proved"] and c["proved"] and b["bp"] != c["bp"]:
            bad += 1
            ahead = "DISAGREE"
        elif b["proved"] and (not c["proved"] or bt < c["wall"]):
            ahead = "bamboo"
        elif c["proved"]:
            ahead = "CP-SAT"
        else:
            ahead = "-"
        if ahead in ("bamboo", "CP-SAT"):
            tally[ahead.lower().replace("-", "") + " ahead"] += 1
        key = "both" if b["proved"] and c["proved"] else "bamboo only" if b["proved"] else \
            "cpsat only" if c["proved"] else "neither"
        tally[key] += 1
        print("| %s | %s | %.2f | %s | %s |" % (label, cell(b, bt), b["wall"], cell(c, c["wall"]), ahead), flush=True)
    print("\n%d instances: proved by both %d, bamboo only %d, CP-SAT only %d, neither %d; first to the proof: "
          "bamboo %d, CP-SAT %d; disagreements %d." % (len(insts), tally["both"], tally["bamboo only"],
                                                       tally["cpsat only"], tally["neither"], tally["bamboo ahead"],
                                                       tally["cpsat ahead"], bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
