#!/usr/bin/env python3
"""MinBP-HRC on the Constraints 2017 families through `minizinc --solver bamboo` (the file form,
models/hrc_file.mzn), one markdown row per instance and per configuration, so that variants of
the search (fzn flags such as restarts and no-goods) are compared on the same instances in the
same run.

    bench/hrc_families.py --build build --sizes 700,800,900,1000 --seeds 1-20 --timeout 60 \\
        [--config 'default='] [--config 'luby-ng=-restart luby -restart-scale 100 -nogoods true']

A configuration is NAME=FZN-FLAGS (passed through --fzn-flags; empty: the default search);
`--model NAME=PATH` gives configuration NAME another model with the same parameters (nS, nC,
file), e.g. one whose constraint asks for `:: hrc_portfolio(RUNS, POLISH)`.
Rows: the instance, then per configuration bp (proved or not), fzn-bamboo's own solver time
(initTime + solveTime, wall clock), the CPU time of the whole minizinc run (user + system: on a
shared machine the solver gets less than the wall time's worth) and fzn-bamboo's nodes. Instances are `bamboo-smp gen hrc` in the settings of the
paper: exp2, N residents with N/10 couples and hospitals and N posts; `--exp1` adds exp1 (100
residents, 10 hospitals, 100 posts, 0..30 couples). Where two configurations prove different
optima the row says DISAGREE and the script exits 1.
"""
import argparse
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hrc_bench  # noqa: E402  (solve, gen)


def seeds(spec):
    out = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def stat(log, key):
    v = re.findall(r"%%%%mzn-stat: %s=([\d.e+-]+)" % key, log)
    return float(v[-1]) if v else None


def run(env, path, ns, nc, timeout, flags, model):
    cmd = ["minizinc", "--solver", "bamboo", "-i", "-s", "-p", "1"]
    if flags:
        cmd += ["--fzn-flags", flags]
    cmd += [model, "-D", 'nS = %d; nC = %d; file = "%s";' % (ns, nc, path)]
    t0 = time.time()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 5, env=env)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    wall = time.time() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
    bps = [int(x) for x in re.findall(r"^bp = (\d+);", out, re.M)]
    init, solve = stat(out, "initTime"), stat(out, "solveTime")
    return {"bp": bps[-1] if bps else None, "proved": "==========" in out, "wall": wall,
            "s": (init + solve) if init is not None and solve is not None else wall,
            "nodes": stat(out, "nodes"), "cpu": cpu}


def cell(r):
    if r["bp"] is None:
        return "- | %.1f | %.1f | -" % (r["s"], r["cpu"])
    nodes = "%d" % r["nodes"] if r["nodes"] is not None else "-"
    return "%d%s | %.2f | %.2f | %s" % (r["bp"], "" if r["proved"] else " (not proved)", r["s"], r["cpu"], nodes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--sizes", default="700,800,900,1000", help="exp2 sizes")
    ap.add_argument("--seeds", default="1-20")
    ap.add_argument("--exp1", action="store_true", help="add exp1 (0..30 couples)")
    ap.add_argument("--timeout", type=int, default=60, help="-t for fzn-bamboo, seconds")
    ap.add_argument("--config", action="append", default=[], help="NAME=FZN-FLAGS")
    ap.add_argument("--model", action="append", default=[], help="NAME=MODEL: configuration NAME's model "
                    "(default models/hrc_file.mzn; same parameters nS, nC, file)")
    a = ap.parse_args()
    configs = [c.split("=", 1) for c in (a.config or ["default="])]
    models = dict(m.split("=", 1) for m in a.model)
    smp = os.path.join(a.build, "tools", "bamboo-smp")
    env = dict(os.environ, MZN_SOLVER_PATH=os.path.join(a.build, "minizinc", "solvers"))
    tmp = tempfile.mkdtemp(prefix="hrcfam")
    print("Machine: %s, %d cores, %s (load %.2f at start). Date: %s. Command: `bench/hrc_families.py %s`.\n" % (
        platform.node(), os.cpu_count(), platform.machine(), os.getloadavg()[0],
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), " ".join(sys.argv[1:])))
    print("| instance | " + " | ".join("%s bp | %s s | %s cpu s | %s nodes" % (n, n, n, n) for n, _ in configs) + " | load |")
    print("|---|" + "---|---:|---:|---:|" * len(configs) + "---:|", flush=True)
    jobs = [("exp1", 100, c, 10, 100) for c in (0, 5, 10, 15, 20, 25, 30)] if a.exp1 else []
    jobs += [("exp2", int(n), int(n) // 10, int(n) // 10, int(n)) for n in a.sizes.split(",") if n]
    bad = 0
    for name, n, c, h, p in jobs:
        for seed in seeds(a.seeds):
            path = os.path.join(tmp, "%s_%d_%d_s%d.hrc" % (name, n, c, seed))
            ns, nc = hrc_bench.gen(smp, ["hrc", "--n", str(n), "--couples", str(c), "--hospitals", str(h),
                                         "--posts", str(p), "--seed", str(seed)], path)
            rows = []
            for name_, flags in configs:
                f = ("-t %d000 " % a.timeout) + flags
                rows.append(run(env, path, ns, nc, a.timeout, f.strip(), models.get(name_, hrc_bench.MODEL)))
            proved = {r["bp"] for r in rows if r["proved"]}
            tag = " DISAGREE" if len(proved) > 1 else ""
            bad += len(proved) > 1
            print("| %s n=%d c=%d seed %d%s | %s | %.2f |" % (name, n, c, seed, tag, " | ".join(cell(r) for r in rows),
                                                            os.getloadavg()[0]), flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
