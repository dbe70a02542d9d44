#!/usr/bin/env python3
"""SFAS-shaped allocation (Hospitals/Residents with Couples and ties on the hospitals' side):
bamboo against Gecode on the decomposition and a CP-SAT model, on the same instances and machine.

The problem is models/sfas.mzn's: a matching with the fewest blocking pairs of weak stability
(Manlove, McBride & Trimble's Definition 1 with every "h prefers" strict, docs/hrc_constraint.md),
then the most residents placed (a couple counts twice); objective bp * (residents + 1) - placed.

Instances (seeded, written here): residents rank --list (6) hospitals (favourites drawn by
popularity), couples rank pairs of their members' choices (both at one hospital allowed),
hospitals rank everyone who applied to them by one master list of scores in a few classes
(SFAS: the ties are the equal scores), capacities summing to about --posts (0.95) times the
residents, spread by the square root of demand. With fewer posts than residents the optimum often fills every post,
which bounds the objective at once; with more (--posts 1.1) proving the largest size needs search.

- bamboo: `minizinc --solver bamboo models/sfas.mzn` (the native constraint, dzn form).
- gecode: `minizinc --solver gecode -I minizinc/decomposition models/sfas.mzn` (the decomposition
  every other MiniZinc solver gets).
- cpsat: written here from the definition (not from any public code): a Boolean per list entry,
  one per resident and couple at most, capacities, and per entry a Boolean b >= "it blocks", the
  conditions of Definition 1 as reified counts of a hospital's assignees ranked strictly below
  the resident (with ties: strictly) and of its load; minimise sum(b) * (residents + 1) - placed.
  One worker unless --threads.

Every run's matching is recounted here (blocking pairs from the definition, as
tests/mznlib/check_hrc.py's reference does) and the proved optima must agree; a disagreement prints
DISAGREE and makes the exit status 1. `--selfcheck` compares the CP-SAT model's optimum with
brute force over every matching of small random instances with ties.

  bench/ties/sfas_peers.py [--build build] [--sizes 100,300] [--couples 0.1] [--seeds 1,2]
        [--classes 4] [--posts 0.95] [--list 6] [--time-limit 60] [--solvers bamboo,gecode,cpsat]
  bench/ties/sfas_peers.py --selfcheck"""
import argparse
import itertools
import os
import random
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
import peers  # noqa: E402  the root, the references, the MiniZinc and CP-SAT runs
from peers import ROOT  # noqa: E402

peers.use_mznlib_references()
import check_hrc as ch  # noqa: E402  the instance class and the definition's blocking pairs


def generate(n, couple_share, classes, seed, posts_share=0.95, length=6):
    """An SFAS-shaped ch.Inst: residents 0..nR-1 (couple c = 2c, 2c+1, then the singles)."""
    rng = random.Random(seed)
    inst = ch.Inst.__new__(ch.Inst)
    nC = int(n * couple_share / 2)
    inst.nC, inst.nS, inst.nR = nC, n - 2 * nC, n
    inst.nH = max(2, n // 14)
    weight = [1.0 / (1 + h) ** 0.7 for h in range(inst.nH)]  # some hospitals popular

    def choices(k):
        picked = []
        while len(picked) < min(k, inst.nH):
            h = rng.choices(range(inst.nH), weight)[0]
            if h not in picked:
                picked.append(h)
        return picked
    inst.slist = [choices(length) for _ in range(inst.nS)]
    inst.clist = []
    for _ in range(nC):
        a, b = choices(max(1, length // 2)), choices(max(1, length // 2))
        pairs = sorted(((i + j, i, j) for i in range(len(a)) for j in range(len(b))))
        inst.clist.append([(a[i], b[j]) for _, i, j in pairs[:6]])
    score = [rng.randrange(classes) for _ in range(n)]
    applied = [set() for _ in range(inst.nH)]
    for i, row in enumerate(inst.slist):
        for h in row:
            applied[h].add(2 * nC + i)
    for c, row in enumerate(inst.clist):
        for h1, h2 in row:
            applied[h1].add(2 * c)
            applied[h2].add(2 * c + 1)
    inst.hlist = [sorted(applied[h], key=lambda r: (score[r], r)) for h in range(inst.nH)]
    inst.hrank = [[score[r] for r in row] for row in inst.hlist]
    posts = int(posts_share * n)
    # posts spread by the square root of demand: popular hospitals have too few, so some
    # residents cannot be placed and the largest size is not simply the number of posts
    demand = [len(applied[h]) ** 0.5 for h in range(inst.nH)]
    total = sum(demand) or 1
    inst.cap = [max(1, round(posts * d / total)) for d in demand]
    return inst


def dzn(inst):
    """models/sfas.mzn's data (1-based)."""
    def matrix(rows, pad):
        width = max([len(r) for r in rows] + [1])
        return "[|" + "|".join(", ".join(str(x) for x in r + [pad] * (width - len(r))) for r in rows) + "|]"
    one = lambda rows: [[x + 1 for x in r] for r in rows]  # noqa: E731
    out = [f"nS = {inst.nS};", f"nC = {inst.nC};", f"nH = {inst.nH};",
           f"rp = {matrix(one(inst.slist), 1)};", f"rp_len = {[len(r) for r in inst.slist]};",
           f"cp1 = {matrix([[p[0] + 1 for p in r] for r in inst.clist], 1)};",
           f"cp2 = {matrix([[p[1] + 1 for p in r] for r in inst.clist], 1)};",
           f"cp_len = {[len(r) for r in inst.clist]};",
           f"hp = {matrix(one(inst.hlist), 1)};", f"hp_len = {[len(r) for r in inst.hlist]};",
           f"hp_rank = {matrix(inst.hrank, 0)};", f"capacity = {inst.cap};"]
    if inst.nC == 0:  # MiniZinc needs the empty matrices' second dimension
        out[5] = "cp1 = array2d(1..0, 1..1, []);"
        out[6] = "cp2 = array2d(1..0, 1..1, []);"
    return "\n".join(out) + "\n"


def solve_minizinc(inst, solver, limit, threads, build, work):
    path = os.path.join(work, "sfas.dzn")
    with open(path, "w") as f:
        f.write(dzn(inst))
    args = ["-I", os.path.join(ROOT, "minizinc", "decomposition")] if solver == "gecode" else []
    args += [os.path.join(ROOT, "models", "sfas.mzn"), path]
    out, wall = peers.run_minizinc(solver, args, limit, threads, build, 120)
    sols = re.findall(r"hospital = \[([^\]]*)\];", out)
    M = None
    if sols:
        hs = [int(x) for x in sols[-1].split(",")] if sols[-1].strip() else []
        order = list(range(2 * inst.nC)) + [2 * inst.nC + i for i in range(inst.nS)]
        M = [None] * inst.nR
        for r, h in zip(order, hs):
            M[r] = h - 1 if h > 0 else None
    return "==========" in out, M, wall


def solve_cpsat(inst, limit, threads):
    from ortools.sat.python import cp_model
    m = cp_model.CpModel()
    R, nH = inst.nR, inst.nH
    rank = {(h, r): inst.hrank[h][k] for h in range(nH) for k, r in enumerate(inst.hlist[h])}
    xs = [[m.NewBoolVar("") for _ in row] for row in inst.slist]  # single i at his k-th entry
    ys = [[m.NewBoolVar("") for _ in row] for row in inst.clist]  # couple c at its k-th pair
    at = {}  # (r, h): the Booleans that put r at h
    for i, row in enumerate(inst.slist):
        r = 2 * inst.nC + i
        m.AddAtMostOne(xs[i])
        for k, h in enumerate(row):
            if (h, r) in rank:
                at.setdefault((r, h), []).append(xs[i][k])
            else:
                m.Add(xs[i][k] == 0)
    for c, row in enumerate(inst.clist):
        m.AddAtMostOne(ys[c])
        for k, (h1, h2) in enumerate(row):
            if (h1, 2 * c) in rank and (h2, 2 * c + 1) in rank:
                at.setdefault((2 * c, h1), []).append(ys[c][k])
                at.setdefault((2 * c + 1, h2), []).append(ys[c][k])
            else:
                m.Add(ys[c][k] == 0)
    here = {}
    for key, lits in at.items():
        v = m.NewBoolVar("")
        m.Add(v == sum(lits))
        here[key] = v
    held = [[r for r in range(R) if (r, h) in here] for h in range(nH)]
    load = [sum(here[r, h] for r in held[h]) for h in range(nH)]
    for h in range(nH):
        m.Add(load[h] <= inst.cap[h])
    memo = {}

    def at_least(expr, k, key):
        """A Boolean equal to (expr >= k)."""
        if key not in memo:
            b = m.NewBoolVar("")
            m.Add(expr >= k).OnlyEnforceIf(b)
            m.Add(expr <= k - 1).OnlyEnforceIf(b.Not())
            memo[key] = b
        return memo[key]

    def free_at_least(h, k):
        return at_least(inst.cap[h] - load[h], k, ("free", h, k))

    def worse_at_least(h, q, k, skip=-1):
        """At least k of h's assignees (skip aside) ranked strictly below rank q."""
        expr = sum(here[r, h] for r in held[h] if rank[h, r] > q and r != skip)
        return at_least(expr, k, ("worse", h, q, k, skip))

    def wants(h, r, skip=-1):
        """h under-subscribed, or holding someone (skip aside) it ranks strictly below r."""
        key = ("wants", h, r, skip)
        if key not in memo:
            w = m.NewBoolVar("")
            m.AddImplication(free_at_least(h, 1), w)
            m.AddImplication(worse_at_least(h, rank[h, r], 1, skip), w)
            memo[key] = w
        return memo[key]

    def lit(r, h):
        return here.get((r, h))

    blocks = []

    def entry(prefix, conditions):
        """b >= "the agent is not at this entry or a better one, and one of the conditions"."""
        b = m.NewBoolVar("")
        placed = m.NewBoolVar("")
        m.Add(placed == sum(prefix))
        for cond in conditions:  # each a list of literals that together make the entry block
            if any(c is None for c in cond):
                continue  # a literal that is always false
            m.AddBoolOr([b, placed] + [c.Not() for c in cond])
        blocks.append(b)
    for i, row in enumerate(inst.slist):  # type 1
        r = 2 * inst.nC + i
        for k, h in enumerate(row):
            if (h, r) in rank:
                entry(xs[i][:k + 1], [[wants(h, r)]])
    for c, row in enumerate(inst.clist):
        r1, r2 = 2 * c, 2 * c + 1
        for k, (h1, h2) in enumerate(row):
            if (h1, r1) not in rank or (h2, r2) not in rank:
                continue
            conds = [[lit(r2, h2), wants(h1, r1, r2)],  # 2a: the second member stays
                     [lit(r1, h1), wants(h2, r2, r1)]]  # 2b: the first stays
            stay1, stay2 = lit(r1, h1), lit(r2, h2)
            neither = [x.Not() for x in (stay1, stay2) if x is not None]
            if h1 != h2:  # 3a
                conds.append(neither + [wants(h1, r1), wants(h2, r2)])
            else:  # 3b-d: both to h; b the member h ranks better
                h = h1
                qb, qw = sorted((rank[h, r1], rank[h, r2]))
                conds.append(neither + [free_at_least(h, 2)])
                conds.append(neither + [free_at_least(h, 1), worse_at_least(h, qb, 1)])
                conds.append(neither + [worse_at_least(h, qb, 2), worse_at_least(h, qw, 1)])
            entry(ys[c][:k + 1], conds)
    placed = sum(sum(r) for r in xs) + 2 * sum(sum(r) for r in ys)
    m.Minimize(sum(blocks) * (R + 1) - placed)
    solver, st, wall = peers.solve_cpsat_model(m, limit, threads)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False, None, wall
    M = [None] * R
    for i, row in enumerate(inst.slist):
        for k, h in enumerate(row):
            if solver.Value(xs[i][k]):
                M[2 * inst.nC + i] = h
    for c, row in enumerate(inst.clist):
        for k, (h1, h2) in enumerate(row):
            if solver.Value(ys[c][k]):
                M[2 * c], M[2 * c + 1] = h1, h2
    return st == cp_model.OPTIMAL, M, wall


def value(inst, M):
    """(blocking pairs, residents placed) of matching M by the definition; None if M is none."""
    if M is None or not matching_ok(inst, M):
        return None
    return inst.blocking(M), sum(1 for x in M if x is not None)


def matching_ok(inst, M):
    for i, row in enumerate(inst.slist):
        h = M[2 * inst.nC + i]
        if h is not None and (h not in row or inst.rank(h, 2 * inst.nC + i) is None):
            return False
    for c, row in enumerate(inst.clist):
        pair = (M[2 * c], M[2 * c + 1])
        if (pair[0] is None) != (pair[1] is None) or (pair[0] is not None and pair not in row):
            return False
        if pair[0] is not None and (inst.rank(pair[0], 2 * c) is None or inst.rank(pair[1], 2 * c + 1) is None):
            return False
    return all(sum(1 for x in M if x == h) <= inst.cap[h] for h in range(inst.nH))


def selfcheck():
    """The CP-SAT model's optimum against brute force on small random instances with ties."""
    rng, bad, done = random.Random(29), 0, 0
    while done < 150:
        inst = ch.Inst(rng, True)
        best = None
        for vals in itertools.product(*inst.vars_domains()):
            M = inst.matching(vals)
            if M is not None:
                v = inst.blocking(M) * (inst.nR + 1) - sum(1 for x in M if x is not None)
                best = v if best is None or v < best else best
        proved, M, _ = solve_cpsat(inst, 30, 1)
        got = value(inst, M)
        ok = proved and got is not None and got[0] * (inst.nR + 1) - got[1] == best
        bad += not ok
        done += 1
        if not ok:
            print(f"selfcheck {done}: cpsat {got} (proved {proved}), brute force objective {best}")
    print(f"selfcheck: {done - bad} passed, {bad} failed")
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--sizes", default="100,300")
    ap.add_argument("--couples", type=float, default=0.1, help="share of residents in couples")
    ap.add_argument("--classes", type=int, default=4, help="score classes of the master list")
    ap.add_argument("--posts", type=float, default=0.95, help="posts per resident")
    ap.add_argument("--list", type=int, default=6, help="a single's list length (a member's: half)")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threads", default="1")
    ap.add_argument("--solvers", default="bamboo,gecode,cpsat")
    ap.add_argument("--selfcheck", action="store_true")
    a = ap.parse_args()
    if a.selfcheck:
        sys.exit(0 if selfcheck() else 1)
    work = tempfile.mkdtemp(prefix="sfas-peers-")
    print("| n | couples | posts | seed | solver | bp | placed | proved | s |")
    print("|---:|---:|---:|---:|---|---:|---:|---|---:|")
    disagree = False
    for n in [int(v) for v in a.sizes.split(",")]:
        for seed in [int(v) for v in a.seeds.split(",")]:
            inst = generate(n, a.couples, a.classes, seed, a.posts, a.list)
            optima = {}
            for name in a.solvers.split(","):
                if name == "cpsat":
                    proved, M, wall = solve_cpsat(inst, a.time_limit, a.threads)
                else:
                    proved, M, wall = solve_minizinc(inst, name, a.time_limit, a.threads, a.build, work)
                got = value(inst, M)
                if M is not None and got is None:
                    print(f"DISAGREE: {name} returned a non-matching on n={n} seed={seed}")
                    disagree = True
                if proved and got is not None:
                    optima[name] = got
                print(f"| {n} | {inst.nC} | {sum(inst.cap)} | {seed} | {name} | {got[0] if got else '-'} | {got[1] if got else '-'} | "
                      f"{'yes' if proved else 'no'} | {wall:.2f} |")
                sys.stdout.flush()
            if len(set(optima.values())) > 1:
                print(f"DISAGREE on n={n} seed={seed}: {optima}")
                disagree = True
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
