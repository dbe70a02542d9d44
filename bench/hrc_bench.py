#!/usr/bin/env python3
"""Bench of stable_matching_hrc through `minizinc --solver bamboo` (the file form,
models/hrc_file.mzn: solve minimize bp), writing a markdown table.

  families  random instances of Manlove, McBride & Trimble (Constraints 22, 2017) from
            `bamboo-smp gen hrc` (lists of 3..5, joint lists the product of the members'):
            exp1: 100 residents, 10 hospitals, 100 posts, 0..30 couples; exp2: 100..500
            residents with n/10 couples and hospitals. Per family: instances solved (min bp
            proved), how many have a stable matching, how often the deferred acceptance
            alone was not stable where a stable matching exists, the largest min bp, mean and
            max time.
  challenge the MiniZinc Challenge's hrc instances (minizinc-benchmarks, hrc/*.dzn) converted
            by bench/hrc_challenge.py: min bp and time.
  nrmp      `bamboo-smp gen nrmp-couples` (47,000 residents, 6,600 programmes) with 1,000 and
            3,000 couples: min bp and time, under `ulimit -v` and a timeout.

    bench/hrc_bench.py --build build --out table.md [--seeds 10]
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
ROOT = os.path.dirname(HERE)
MODEL = os.path.join(ROOT, "models", "hrc_file.mzn")
CHALLENGE = "/work/.mirror/MiniZinc+minizinc-benchmarks/repo"


def limit(mem_kb):
    def f():
        resource.setrlimit(resource.RLIMIT_AS, (mem_kb * 1024, mem_kb * 1024))
    return f


def solve(env, path, ns, nc, timeout, mem_kb, model=MODEL, data=None):
    # -i: each better bp as it is found, so a run killed at the timeout still shows its best.
    cmd = ["minizinc", "--solver", "bamboo", "-i", "-s", model]
    cmd += [data] if data else ["-D", 'nS = %d; nC = %d; file = "%s";' % (ns, nc, path)]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, preexec_fn=limit(mem_kb))
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        out += "\nTIMEOUT"
    wall = time.time() - t0
    bps = [int(x) for x in re.findall(r"^bp = (\d+);", out, re.M)]
    da = re.findall(r"deferred acceptance: (\d+) blocking", out)
    proved = "==========" in out
    return {"bp": bps[-1] if bps else None, "proved": proved, "wall": wall, "da": int(da[0]) if da else None,
            "timeout": "TIMEOUT" in out, "log": out}


def gen(smp, args, path):
    subprocess.run([smp, "gen"] + args + ["-o", path], check=True, capture_output=True)
    with open(path) as f:
        nr, nh, nc = (int(x) for x in f.readline().split()[1:4])
    return nr - 2 * nc, nc


def challenge_instances(tmp):
    """The MiniZinc Challenge's hrc/*.dzn, each converted by bench/hrc_challenge.py into an .hrc file in
    tmp, in name order: (name, path, residents, hospitals, couples) each; none without the mirror."""
    if not os.path.isdir(CHALLENGE):
        return []
    names = subprocess.run(["git", "-C", CHALLENGE, "ls-tree", "--name-only", "HEAD:hrc"], capture_output=True,
                           text=True).stdout.split()
    out = []
    for f in sorted(x for x in names if x.endswith(".dzn")):
        src, hrc = os.path.join(tmp, f), os.path.join(tmp, f + ".hrc")
        with open(src, "w") as g:
            g.write(subprocess.run(["git", "-C", CHALLENGE, "show", "HEAD:hrc/" + f], capture_output=True,
                                   text=True).stdout)
        subprocess.run([sys.executable, os.path.join(HERE, "hrc_challenge.py"), src, "--hrc", hrc], check=True)
        with open(hrc) as g:
            nr, nh, nc = (int(x) for x in g.readline().split()[1:4])
        out.append((f, hrc, nr, nh, nc))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "hrc-constraint-%s.md" % time.strftime("%Y-%m-%d", time.gmtime())))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--nrmp-timeout", type=int, default=600)
    ap.add_argument("--mem-kb", type=int, default=8 * 1024 * 1024)
    a = ap.parse_args()
    smp = os.path.join(a.build, "tools", "bamboo-smp")
    env = dict(os.environ, MZN_SOLVER_PATH=os.path.join(a.build, "minizinc", "solvers"), BAMBOO_HRC_DEBUG="1")
    tmp = tempfile.mkdtemp(prefix="hrcbench")
    lines = ["# stable_matching_hrc: bench", "",
             "Machine: %s, %d cores (shared with other jobs), %s. Date: %s." % (
                 platform.node(), os.cpu_count(), platform.processor() or platform.machine(),
                 time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())),
             "Command: `bench/hrc_bench.py %s` (minizinc --solver bamboo models/hrc_file.mzn, "
             "solve minimize bp; times are wall clock of the whole minizinc run, flattening included; "
             "timeout %d s per instance, ulimit -v %d GB)." % (" ".join(sys.argv[1:]), a.timeout, a.mem_kb // (1024 * 1024)), ""]
    # the Constraints 2017 families
    fams = [("exp1", 100, c, 10, 100) for c in (0, 5, 10, 15, 20, 25, 30)]
    fams += [("exp2", n, n // 10, n // 10, n) for n in (200, 300, 400, 500)]
    lines += ["## Random families (Constraints 2017 generator, `bamboo-smp gen hrc`)", "",
              "| family | residents | couples | hospitals | posts | instances | solved | stable exists | "
              "DA alone not stable (of those) | max min bp | mean s | max s |", "|" + "---|" * 12]
    for name, n, c, h, p in fams:
        rows = []
        for seed in range(1, a.seeds + 1):
            path = os.path.join(tmp, "%s_%d_%d_%d.hrc" % (name, n, c, seed))
            ns, nc = gen(smp, ["hrc", "--n", str(n), "--couples", str(c), "--hospitals", str(h), "--posts", str(p),
                               "--seed", str(seed)], path)
            rows.append(solve(env, path, ns, nc, a.timeout, a.mem_kb))
        solved = [r for r in rows if r["proved"]]
        stable = [r for r in solved if r["bp"] == 0]
        da_miss = sum(1 for r in stable if r["da"] not in (0, None))
        lines.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %.2f | %.2f |" % (
            name, n, c, h, p, len(rows), len(solved), len(stable), da_miss,
            max([r["bp"] for r in solved], default="-"), sum(r["wall"] for r in rows) / len(rows),
            max(r["wall"] for r in rows)))
        print(lines[-1], flush=True)
    # the Challenge's instances
    if os.path.isdir(CHALLENGE):
        lines += ["", "## MiniZinc Challenge `hrc` instances (minizinc-benchmarks, converted by bench/hrc_challenge.py)",
                  "", "| instance | residents | couples | hospitals | min bp | DA's bp | s |", "|---|---|---|---|---|---|---|"]
        for f, hrc, nr, nh, nc in challenge_instances(tmp):
            r = solve(env, hrc, nr - 2 * nc, nc, a.timeout, a.mem_kb)
            lines.append("| %s | %d | %d | %d | %s | %s | %.2f |" % (
                f, nr, nc, nh, r["bp"] if r["proved"] else "%s (not proved)" % r["bp"], r["da"], r["wall"]))
            print(lines[-1], flush=True)
    # NRMP shape
    lines += ["", "## NRMP shape (`bamboo-smp gen nrmp-couples`: 47,000 residents, 6,600 programmes, lists 10..15)",
              "", "| couples | seed | result | DA's bp | s | timeout s |", "|---|---|---|---|---|---|"]
    for c in (1000, 3000):
        path = os.path.join(tmp, "nrmp%d.hrc" % c)
        ns, nc = gen(smp, ["nrmp-couples", "--couples", str(c), "--seed", "1"], path)
        r = solve(env, path, ns, nc, a.nrmp_timeout, a.mem_kb)
        res = ("stable matching (bp = 0)" if r["bp"] == 0 else "min bp = %s, proved" % r["bp"]) if r["proved"] \
            else ("best bp = %s, not proved" % r["bp"] if r["bp"] is not None else "no result")
        lines.append("| %d | 1 | %s | %s | %.1f | %d |" % (c, res, r["da"], r["wall"], a.nrmp_timeout))
        print(lines[-1], flush=True)
    lines += ["", "Not set beside the paper's CP and IP times: those were not available to this bench "
              "(docs/hrc_constraint.md)."]
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
