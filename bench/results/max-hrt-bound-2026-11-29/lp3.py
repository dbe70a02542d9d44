import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ties"))
sys.dont_write_bytecode = True
import max_ties_peers as mp
from ortools.linear_solver import pywraplp
smti, rl, rr, hl, hr, cap = mp.parse_ties(sys.argv[1])
dom = [list(map(int, l.split())) for l in open(sys.argv[2]) if not l.startswith("nu")]
nr, nh = len(rl), len(hl)
s = pywraplp.Solver.CreateSolver(sys.argv[3] if len(sys.argv) > 3 else "GLOP")
rankh = {}
for h in range(nh):
    for i, r in enumerate(hl[h]): rankh[r, h] = hr[h][i]
x = {}
for r in range(nr):
    for k in dom[r]:
        if k < len(rl[r]) and (r, rl[r][k]) in rankh:
            lo = 1 if len(dom[r]) == 1 else 0
            x[r, rl[r][k]] = s.NumVar(lo, 1, "") if len(sys.argv) <= 3 else s.BoolVar("")
byh = [[] for _ in range(nh)]
for (r, h) in x: byh[h].append(r)
print("alive", len(x), "fixed unmatched", sum(1 for r in range(nr) if dom[r] == [len(rl[r])]))
for r in range(nr):
    s.Add(sum(x[r, h] for h in rl[r] if (r, h) in x) <= 1)
for h in range(nh):
    s.Add(sum(x[r, h] for r in byh[h]) <= cap[h])
rows = 0
for r in range(nr):
    acc = []
    for i, h in enumerate(rl[r]):
        if (r, h) in x: acc.append(x[r, h])
        if (r, h) not in rankh: continue
        b = [x[q, h] for q in byh[h] if rankh[q, h] <= rankh[r, h]]
        s.Add(cap[h] * (1 - sum(acc)) <= sum(b)); rows += 1
s.Maximize(sum(x.values()))
t = time.time(); st = s.Solve(); print("rows", rows, "status", st, "obj", s.Objective().Value(), "t", time.time() - t)
