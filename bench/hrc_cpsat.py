#!/usr/bin/env python3
"""MinBP-HRC on OR-Tools CP-SAT: a peer for bamboo's stable_matching_hrc, written from the
definition in docs/hrc.md (Manlove, McBride & Trimble, Constraints 2017, Definition 1), not from
bamboo's code.

    bench/hrc_cpsat.py INSTANCE [--time-limit S] [--workers W] [--matching FILE]

INSTANCE is an HRC text file (`bamboo-smp gen hrc ... -o FILE`; strict lists). Prints
`bp=K proved|not-proved|none seconds=T` (T: CP-SAT's Solve calls alone: first with bp = 0
required, then, only if no stable matching exists, minimising bp) and, with --matching, writes
the best matching as `r h` / `r -` lines for `bamboo-smp hrc check`.

The model: a Boolean per acceptable list entry (singles' hospitals, couples' pairs), at most one
per agent, capacities; A[r, h] (r is at h), load[h] and, per position p of h's list, the number
of h's assignees ranked after p. Per agent, P[k]: it holds one of its first k + 1 entries (so it
does not prefer entry k). "h would take r" (under-subscribed, or an assignee worse than r) is a
Boolean that may be false only when h is full and nobody there is worse. A list entry's blocking
Boolean is forced true by a clause per case of the definition (1, 2a, 2b, 3a, 3b) and the
objective is their sum; singles also get the classical linear stability row, for the LP. Only
the forcing direction is stated: minimising the sum makes each Boolean exactly its case.
"""
import argparse
import sys
import time

from ortools.sat.python import cp_model


def read_hrc(path):
    """The HRC text format of docs/formats.md, strict lists only."""
    lines = []
    with open(path) as f:
        for raw in f:
            s = raw.strip()
            if s.startswith("#"):
                continue
            lines.append(s.split("#")[0].strip())
    while lines and not lines[0]:
        lines.pop(0)
    head = lines[0].split()
    if head[0] != "hrc" or len(head) != 4:
        sys.exit("%s: not an HRC text file" % path)
    nr, nh, nc = map(int, head[1:])
    body = lines[1:1 + nc + nr + nh]
    if len(body) != nc + nr + nh or any("[" in s for s in body):
        sys.exit("%s: truncated, or ties (this model takes strict lists)" % path)
    couples = []
    for s in body[:nc]:
        left, right = s.split(":")
        r1, r2 = map(int, left.split())
        ids = list(map(int, right.split()))
        couples.append((r1, r2, list(zip(ids[0::2], ids[1::2]))))
    single = [[] if s in ("", "-") else list(map(int, s.split())) for s in body[nc:nc + nr]]
    cap, hlist = [], []
    for s in body[nc + nr:]:
        c, _, rest = s.partition(":")
        cap.append(int(c))
        hlist.append(list(map(int, rest.split())))
    return nr, nh, couples, single, cap, hlist


def build(inst):
    nr, nh, couples, single, cap, hlist = inst
    rank = [{r: p for p, r in enumerate(L)} for L in hlist]
    member = {}
    for c, (r1, r2, _) in enumerate(couples):
        member[r1] = member[r2] = c
    m = cp_model.CpModel()
    at = {}  # (r, h) -> list of entry Booleans putting r at h
    x = {}  # single r -> [(h, Boolean)] in his order, acceptable entries only
    for r in range(nr):
        if r in member:
            continue
        x[r] = [(h, m.NewBoolVar("")) for h in single[r] if r in rank[h]]
        m.AddAtMostOne(v for _, v in x[r])
        for h, v in x[r]:
            at.setdefault((r, h), []).append(v)
    y = []  # per couple: [(h1, h2, Boolean)] acceptable pairs in its order
    for r1, r2, pairs in couples:
        ent = [(a, b, m.NewBoolVar("")) for a, b in pairs if r1 in rank[a] and r2 in rank[b]]
        m.AddAtMostOne(v for _, _, v in ent)
        for a, b, v in ent:
            at.setdefault((r1, a), []).append(v)
            at.setdefault((r2, b), []).append(v)
        y.append(ent)
    # A[r, h]: r at h; load and, per position p of h's list, worse[h][p + 1]: assignees ranked after p.
    A = {}
    for k, v in at.items():
        A[k] = m.NewBoolVar("")
        m.Add(A[k] == sum(v))
    load, worse = [], []
    for h in range(nh):
        w = [0] * (len(hlist[h]) + 1)
        for p in range(len(hlist[h]) - 1, -1, -1):
            w[p] = w[p + 1] + A.get((hlist[h][p], h), 0)
        m.Add(w[0] <= cap[h])
        load.append(w[0])
        worse.append(w)
    memo = {}

    def unless(key, *conds):
        """A Boolean that may be false only where every (expression, bound) in conds has
        expression <= bound."""
        if key not in memo:
            b = m.NewBoolVar("")
            for e, bound in conds:
                m.Add(e <= bound).OnlyEnforceIf(b.Not())
            memo[key] = b
        return memo[key]

    def takes(h, r, minus=None):
        """h would take r: under-subscribed, or an assignee (other than `minus`, known to be
        at h when this is used) ranked after r."""
        p = rank[h][r]
        wo = worse[h][p + 1]
        if minus is not None and rank[h].get(minus, -1) > p:
            wo = wo - 1
        return unless(("t", h, r, minus), (-load[h], -cap[h]), (wo, 0))

    def prefix(ent):
        """P[k]: the agent holds one of its first k + 1 entries (it does not prefer entry k)."""
        out, run = [], 0
        for v in ent:
            run = run + v
            b = m.NewBoolVar("")
            m.Add(b == run)
            out.append(b)
        return out

    bps = []
    for r, ent in x.items():
        P = prefix([v for _, v in ent])
        for k, (h, _) in enumerate(ent):
            b = m.NewBoolVar("")
            m.AddBoolOr([b, P[k], takes(h, r).Not()])
            # The classical linear stability row, the same condition for the LP relaxation.
            m.Add(cap[h] * (1 - P[k]) - cap[h] * b <= load[h] - worse[h][rank[h][r] + 1])
            bps.append(b)
    for c, (r1, r2, _) in enumerate(couples):
        ent = y[c]
        P = prefix([v for _, _, v in ent])
        for k, (hk, hl, _) in enumerate(ent):
            b = m.NewBoolVar("")
            a1, a2 = A[(r1, hk)], A[(r2, hl)]
            # 2a: r2 stays at hl, hk would take r1 without counting r2; 2b the mirror.
            m.AddBoolOr([b, P[k], a2.Not(), takes(hk, r1, r2 if hk == hl else None).Not()])
            m.AddBoolOr([b, P[k], a1.Not(), takes(hl, r2, r1 if hk == hl else None).Not()])
            move = [b, P[k], a1, a2]
            if hk != hl:  # 3a
                m.AddBoolOr(move + [takes(hk, r1).Not(), takes(hl, r2).Not()])
            else:  # 3b
                h = hk
                lo, hi = sorted((rank[h][r1], rank[h][r2]))
                two_free = unless(("f2", h), (-load[h], 1 - cap[h]))
                one_free = unless(("f1", h), (-load[h], -cap[h]))
                w_lo1 = unless(("w1", h, lo), (worse[h][lo + 1], 0))
                w_lo2 = unless(("w2", h, lo), (worse[h][lo + 1], 1))
                w_hi1 = unless(("w1", h, hi), (worse[h][hi + 1], 0))
                m.AddBoolOr(move + [two_free.Not()])
                m.AddBoolOr(move + [one_free.Not(), w_lo1.Not()])
                m.AddBoolOr(move + [w_hi1.Not(), w_lo2.Not()])
            bps.append(b)
    m.Minimize(sum(bps))
    return m, bps, x, y, couples, nr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("instance")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--matching")
    o = ap.parse_args()
    inst = read_hrc(o.instance)
    m, bps, x, y, couples, nr = build(inst)
    # A stable matching first: with bp = 0 a hard constraint, the cases' clauses propagate as
    # stability itself does, where minimising from a matching with many blocking pairs stalls
    # (exp2 with 400 residents: 0.4 s against no proof in 60 s). Minimise only if there is none.
    s = cp_model.CpSolver()
    s.parameters.num_workers = o.workers
    s.parameters.max_time_in_seconds = o.time_limit
    m.Add(sum(bps) == 0)
    t = time.time()
    st = s.Solve(m)
    spent = time.time() - t
    if st == cp_model.INFEASIBLE:
        m, bps, x, y, couples, nr = build(inst)
        m.Add(sum(bps) >= 1)
        s.parameters.max_time_in_seconds = max(0.1, o.time_limit - spent)
        t = time.time()
        st = s.Solve(m)
        spent += time.time() - t
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print("bp=- none seconds=%.2f" % spent)
        return
    print("bp=%d %s seconds=%.2f" % (sum(s.Value(b) for b in bps), "proved" if st == cp_model.OPTIMAL else "not-proved",
                                     spent))
    if o.matching:
        hosp = ["-"] * nr
        for r, ent in x.items():
            for h, v in ent:
                if s.Value(v):
                    hosp[r] = str(h)
        for c, (r1, r2, _) in enumerate(couples):
            for a, b, v in y[c]:
                if s.Value(v):
                    hosp[r1], hosp[r2] = str(a), str(b)
        with open(o.matching, "w") as f:
            f.writelines("%d %s\n" % (r, h) for r, h in enumerate(hosp))


if __name__ == "__main__":
    main()
