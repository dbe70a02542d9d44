#!/usr/bin/env python3
"""MAX-SMTI / MAX-HRT: Bamboo against an integer program on HiGHS and a CP-SAT model.

The peers are written here from the definitions (not from any public code): a binary x[r, h] per
acceptable pair, each resident in at most one pair, each hospital in at most its capacity, and
weak stability as the linear form of Kwanashie & Manlove's and Delorme et al.'s models
(docs/references.md, [Delorme 2019]): for every acceptable pair (r, h),

    cap[h] * (1 - sum_{h' : rank_r(h') <= rank_r(h)} x[r, h'])  <=  sum_{r' : rank_h(r') <= rank_h(r)} x[r', h]

(if r is not with h or someone he likes as much, h must be full of residents it likes at least
as much as r: otherwise both strictly prefer each other). The objective is the number of pairs.
Delorme et al.'s preprocessing and dummy-variable refinements are not implemented: this is
their basic model, the same on both peers. HiGHS runs with presolve off (HIGHS_PRESOLVE=on
brings it back): its presolve returned a wrong optimum on an SFAS-shaped instance.

Bamboo runs models/max_smti_file.mzn or models/max_hrt_file.mzn (the native constraint, file
form) through minizinc. Every run's matching is checked with `bamboo-smp ties check` (weak
stability), and the proved optima of all solvers must agree; a disagreement is printed as
DISAGREE and makes the exit status 1.

  bench/ties/max_ties_peers.py [--build build] [--family smti|hrt] [--sizes 100,200] [--seeds 1,2]
        [--p1 0.95] [--p2 0.5] [--time-limit 60] [--threads 1] [--solvers bamboo,highs,cpsat]
  bench/ties/max_ties_peers.py --selfcheck   # both peers against brute force on small instances
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
import peers  # noqa: E402  the root, the references, the MiniZinc and CP-SAT runs
from peers import ROOT  # noqa: E402


def parse_ties(path):
    """A ties text file -> (smti, rl, rr, hl, hr, cap): lists of ids and their ranks (0-based)."""
    lines = []
    for raw in open(path):
        line = raw.split("#")[0].strip()
        if line:
            lines.append(line)
    head = lines[0].split()
    smti, n1, n2 = head[0] == "smti", int(head[1]), int(head[2])

    def one(text):
        ids, ranks, rank, depth = [], [], 0, 0
        for tok in re.findall(r"\[|\]|\d+|-", text):
            if tok == "[":
                depth = 1
            elif tok == "]":
                depth = 0
                rank += 1
            elif tok != "-":
                ids.append(int(tok))
                ranks.append(rank)
                if not depth:
                    rank += 1
        return ids, ranks

    rl, rr, hl, hr, cap = [], [], [], [], []
    for line in lines[1:1 + n1]:
        a, b = one(line)
        rl.append(a)
        rr.append(b)
    for line in lines[1 + n1:1 + n1 + n2]:
        c = 1
        if not smti:
            c, line = line.split(":", 1)
            c = int(c)
        a, b = one(line)
        hl.append(a)
        hr.append(b)
        cap.append(c)
    return smti, rl, rr, hl, hr, cap


def pairs_of(rl, rr, hl, hr):
    rank_h = [dict(zip(hl[h], hr[h])) for h in range(len(hl))]
    E = [(r, h, rr[r][k], rank_h[h][r]) for r in range(len(rl)) for k, h in enumerate(rl[r]) if r in rank_h[h]]
    by_r, by_h = {}, {}
    for e in E:
        by_r.setdefault(e[0], []).append(e)
        by_h.setdefault(e[1], []).append(e)
    return E, by_r, by_h


def stability_rows(E, by_r, by_h, cap):
    """Per acceptable pair (r, h): ({pair: coefficient}, cap[h]) for the row sum >= cap[h].
    The pair (r, h) itself is on both sides: its coefficient is cap[h] + 1, merged here."""
    for e in E:
        r, h, a, b = e
        coef = {}
        for f in by_r[r]:
            if f[2] <= a:
                coef[f] = coef.get(f, 0) + cap[h]
        for f in by_h[h]:
            if f[3] <= b:
                coef[f] = coef.get(f, 0) + 1
        yield coef, cap[h]


def post_model(E, by_r, by_h, cap, new_bool, at_most, at_least):
    """The one model both peers solve, posted through the solver's own calls: x per pair,
    each resident in at most one pair, each hospital in at most its capacity, weak stability."""
    x = {e: new_bool() for e in E}
    for es in by_r.values():
        at_most(sum(x[e] for e in es), 1)
    for hh, es in by_h.items():
        at_most(sum(x[e] for e in es), cap[hh])
    for coef, c in stability_rows(E, by_r, by_h, cap):
        at_least(sum(k * x[f] for f, k in coef.items()), c)
    return x


def solve_highs(inst, limit, threads):
    import highspy
    smti, rl, rr, hl, hr, cap = inst
    E, by_r, by_h = pairs_of(rl, rr, hl, hr)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(limit))
    h.setOptionValue("threads", int(threads))
    # HiGHS 1.16's presolve "proved" 672 on `gen hrt --n 700 --hospitals 50 --seed 1`, where
    # CP-SAT, bamboo and HiGHS without presolve find 677 (each checked weakly stable, and the
    # 677 matching satisfies every row of this model): a wrong optimum, so presolve stays off.
    h.setOptionValue("presolve", os.environ.get("HIGHS_PRESOLVE", "off"))
    x = post_model(E, by_r, by_h, cap, h.addBinary, lambda lhs, c: h.addConstr(lhs <= c),
                   lambda lhs, c: h.addConstr(lhs >= c))
    t = time.time()
    h.maximize(sum(x.values()))
    wall = time.time() - t
    status = h.getModelStatus()
    proved = status == highspy.HighsModelStatus.kOptimal
    sol = h.getSolution().col_value if h.getInfo().primal_solution_status else None
    match = {e[0]: e[1] for i, e in enumerate(E) if sol is not None and sol[i] > 0.5}
    return proved, match, wall, str(status)


def solve_cpsat(inst, limit, threads):
    from ortools.sat.python import cp_model
    smti, rl, rr, hl, hr, cap = inst
    E, by_r, by_h = pairs_of(rl, rr, hl, hr)
    m = cp_model.CpModel()
    x = post_model(E, by_r, by_h, cap, lambda: m.NewBoolVar(""), lambda lhs, c: m.Add(lhs <= c),
                   lambda lhs, c: m.Add(lhs >= c))
    m.Maximize(sum(x.values()))
    s, st, wall = peers.solve_cpsat_model(m, limit, threads)
    ok = st in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    match = {e[0]: e[1] for e in E if ok and s.Value(x[e])}
    return st == cp_model.OPTIMAL, match, wall, s.StatusName(st)


def solve_bamboo(inst, path, limit, threads, build):
    smti, rl, rr, hl, hr, cap = inst
    model = os.path.join(ROOT, "models", "max_smti_file.mzn" if smti else "max_hrt_file.mzn")
    data = (f'n_men = {len(rl)}; n_women = {len(hl)};' if smti else
            f'n_residents = {len(rl)}; n_hospitals = {len(hl)};') + f' prefs_file = "{path}";'
    out, wall = peers.run_minizinc("bamboo", [model, "-D", data], limit, threads, build, 60)
    proved = "==========" in out
    sols = out.split("----------")
    match = {}
    if len(sols) > 1:
        last = sols[-2]
        arr = re.search(r"(?:men|residents) = \[([^\]]*)\]", last)
        if arr:
            for r, k in enumerate(int(v) for v in arr.group(1).split(",")):
                if 1 <= k <= len(rl[r]):
                    match[r] = rl[r][k - 1]
    return proved, match, wall, "optimal" if proved else "limit"


def check(smp, path, match, n):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for r in range(n):
            f.write(f"{r} {match[r] if r in match else '-'}\n")
    done = subprocess.run([smp, "ties", "check", path, "--matching", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    return done.returncode == 0, (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]


def gen(smp, family, n, seed, p1, p2, work):
    path = os.path.join(work, f"{family}-{n}-{seed}.txt")
    if family == "smti":
        args = ["gen", "smti", "--n", str(n), "--p1", str(p1), "--p2", str(p2)]
    else:
        args = ["gen", "hrt", "--n", str(n), "--hospitals", str(max(1, n // 14))]
    subprocess.run([smp] + args + ["--seed", str(seed), "-o", path], check=True, capture_output=True)
    return path


def selfcheck(smp, work):
    peers.use_mznlib_references()
    import ties_reference as ref
    bad = 0
    for seed in range(1, 41):
        family = "smti" if seed % 2 else "hrt"
        n = 3 + seed % 4
        path = os.path.join(work, f"self-{seed}.txt")
        args = ["gen", "smti", "--n", str(n), "--p1", "0.4", "--p2", "0.5"] if family == "smti" else \
            ["gen", "hrt", "--n", str(n), "--hospitals", "2", "--k", "2", "--capacity", "2", "--classes", "2"]
        subprocess.run([smp] + args + ["--seed", str(seed), "-o", path], check=True, capture_output=True)
        inst = parse_ties(path)
        _, rl, rr, hl, hr, cap = inst
        best = max(s[2] for s in ref.hrt_solutions(rl, rr, hl, hr, cap, "weak"))
        for name, fn in (("highs", solve_highs), ("cpsat", solve_cpsat)):
            proved, match, _, _ = fn(inst, 30, 1)
            ok, _ = check(smp, path, match, len(rl))
            if not (proved and ok and len(match) == best):
                bad += 1
                print(f"selfcheck {family} n={n} seed={seed} {name}: size {len(match)}, brute force {best}, "
                      f"proved {proved}, weakly stable {ok}")
    print(f"selfcheck: {80 - bad} passed, {bad} failed")
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--family", default="smti", choices=["smti", "hrt"])
    ap.add_argument("--sizes", default="100,200")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--p1", default="0.95")
    ap.add_argument("--p2", default="0.5")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threads", default="1")
    ap.add_argument("--solvers", default="bamboo,highs,cpsat")
    ap.add_argument("--selfcheck", action="store_true")
    a = ap.parse_args()
    smp = os.path.join(a.build, "tools", "bamboo-smp")
    work = tempfile.mkdtemp(prefix="ties-peers-")
    if a.selfcheck:
        sys.exit(0 if selfcheck(smp, work) else 1)
    solvers = {"bamboo": lambda i, p: solve_bamboo(i, p, a.time_limit, a.threads, a.build),
               "highs": lambda i, p: solve_highs(i, a.time_limit, a.threads),
               "cpsat": lambda i, p: solve_cpsat(i, a.time_limit, a.threads)}
    print(f"| family | n | seed | pairs | solver | size | proved | s | weakly stable |")
    print("|---|---:|---:|---:|---|---:|---|---:|---|")
    disagree = False
    for n in [int(v) for v in a.sizes.split(",")]:
        for seed in [int(v) for v in a.seeds.split(",")]:
            path = gen(smp, a.family, n, seed, a.p1, a.p2, work)
            inst = parse_ties(path)
            pairs = len(pairs_of(*inst[1:5])[0])
            optima = {}
            for name in a.solvers.split(","):
                try:
                    proved, match, wall, status = solvers[name](inst, path)
                except Exception as exc:  # a missing package: say which peer is skipped and why
                    print(f"| {a.family} | {n} | {seed} | {pairs} | {name} | - | skipped: {exc} | | |")
                    continue
                ok, why = check(smp, path, match, len(inst[1])) if match else (False, ["no matching"])
                if proved:
                    optima[name] = len(match)
                print(f"| {a.family} | {n} | {seed} | {pairs} | {name} | {len(match) if match else '-'} | "
                      f"{'yes' if proved else 'no (' + status + ')'} | {wall:.2f} | {'yes' if ok else 'NO: ' + why[0]} |")
                disagree |= bool(match) and not ok
            if len(set(optima.values())) > 1:
                print(f"DISAGREE on {a.family} n={n} seed={seed}: {optima}")
                disagree = True
            sys.stdout.flush()
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
