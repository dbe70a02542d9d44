import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "ties"))
sys.dont_write_bytecode = True
import max_ties_peers as mp
smti, rl, rr, hl, hr, cap = mp.parse_ties(sys.argv[1])
dom = [list(map(int, l.split())) for l in open(sys.argv[2]) if not l.startswith("nu")]
nr, nh = len(rl), len(hl)
rankh = {}
for h in range(nh):
    for i, r in enumerate(hl[h]): rankh[r, h] = hr[h][i]
lo, hi = {}, {}
for r in range(nr):
    for k in dom[r]:
        if k < len(rl[r]) and (r, rl[r][k]) in rankh:
            v = (r, rl[r][k]); hi[v] = 1; lo[v] = 1 if len(dom[r]) == 1 else 0
byh = [[] for _ in range(nh)]
for (r, h) in hi: byh[h].append(r)
rows = []  # (coefs list of (var, c), rhs) meaning sum c*x >= rhs
for r in range(nr):
    rows.append(([((r, h), -1) for h in rl[r] if (r, h) in hi], -1))
for h in range(nh):
    rows.append(([((r, h), -1) for r in byh[h]], -cap[h]))
for r in range(nr):
    for i, h in enumerate(rl[r]):
        if (r, h) not in rankh: continue
        co = {}
        for g in rl[r][:i + 1]:
            if (r, g) in hi: co[r, g] = co.get((r, g), 0) + cap[h]
        for q in byh[h]:
            if rankh[q, h] <= rankh[r, h]: co[q, h] = co.get((q, h), 0) + 1
        rows.append((list(co.items()), cap[h]))
changed = True; it = 0
while changed:
    changed = False; it += 1
    for co, rhs in rows:
        mx = sum(c * (hi[v] if c > 0 else lo[v]) for v, c in co)
        if mx < rhs: print("infeasible"); sys.exit()
        for v, c in co:
            if lo[v] == hi[v]: continue
            # mx - contribution if we set v to its worse value
            if c > 0 and mx - c < rhs: lo[v] = 1; changed = True; mx = mx
            elif c < 0 and mx + c < rhs: hi[v] = 0; changed = True
free0 = sum(1 for r in range(nr) if len(dom[r]) > 1 for k in dom[r] if k < len(rl[r]))
print("iterations", it, "pairs fixed to 0:", sum(1 for v in hi if hi[v] == 0), "fixed to 1 (free before):", sum(1 for v in hi if lo[v] == 1) - sum(1 for r in range(nr) if len(dom[r]) == 1 and dom[r][0] < len(rl[r])), "free pair values before", free0)
