"""Brute force for preference lists with ties (SMTI, HRT), written from the definitions.

An instance's lists name the other side 0-based; rank lists give each entry's rank (equal ranks
are tied, smaller is better). A pair is acceptable when each lists the other. Every matching
is enumerated; a pair not matched together blocks it, with "prefers" comparing ranks and the
unmatched (or an under-subscribed hospital) preferring any acceptable partner:
  weak:   both strictly prefer each other to their assignment;
  strong: one strictly prefers, the other prefers or is indifferent;
  super:  each prefers or is indifferent.
Solutions are reported as the constraint's variables: positions in the lists from the base b
(b + len: unmatched), plus the hospitals' loads and the number matched.
"""
INF = float("inf")
KINDS = ("weak", "strong", "super")


def _blocks(kind, p_strict, p_weak, q_strict, q_weak):
    if kind == "weak":
        return p_strict and q_strict
    if kind == "strong":
        return (p_strict and q_weak) or (p_weak and q_strict)
    return p_weak and q_weak


def hrt_solutions(rl, rr, hl, hr, cap, kind, b=0):
    """Every stable matching of an HRT instance: (resident positions, loads, size) tuples.
    rl[r] lists hospitals, rr[r] their ranks; hl[h], hr[h] likewise; cap[h] capacities."""
    nR, nH = len(rl), len(hl)
    rank_r = [{h: rr[r][k] for k, h in enumerate(rl[r])} for r in range(nR)]
    rank_h = [{r: hr[h][k] for k, r in enumerate(hl[h])} for h in range(nH)]
    acc = [[h for h in rl[r] if r in rank_h[h]] for r in range(nR)]
    out = set()
    assign = [None] * nR
    load = [0] * nH

    def stable():
        for r in range(nR):
            cur = rank_r[r][assign[r]] if assign[r] is not None else INF
            for h in acc[r]:
                if assign[r] == h:
                    continue
                mine = rank_h[h][r]
                # no assignee and not under-subscribed: capacity 0, full with nobody, wanting nobody
                worst = max([rank_h[h][x] for x in range(nR) if assign[x] == h], default=-INF)
                under = load[h] < cap[h]
                if _blocks(kind, rank_r[r][h] < cur, rank_r[r][h] <= cur,
                           under or mine < worst, under or mine <= worst):
                    return False
        return True

    def go(r):
        if r == nR:
            if stable():
                pos = tuple(b + rl[x].index(assign[x]) if assign[x] is not None else b + len(rl[x])
                            for x in range(nR))
                out.add((pos, tuple(load), sum(a is not None for a in assign)))
            return
        assign[r] = None
        go(r + 1)
        for h in acc[r]:
            if load[h] < cap[h]:
                assign[r], load[h] = h, load[h] + 1
                go(r + 1)
                assign[r], load[h] = None, load[h] - 1

    go(0)
    return out


def smti_solutions(ml, mr, wl, wr, kind, b=0):
    """Every stable matching of an SMTI instance: (men's positions, women's positions, size).
    SMTI is HRT with capacity 1, and a woman's position follows from the matching."""
    out = set()
    for pos, _load, size in hrt_solutions(ml, mr, wl, wr, [1] * len(wl), kind, b):
        wife = {i: ml[i][p - b] for i, p in enumerate(pos) if p - b < len(ml[i])}
        husband = {j: i for i, j in wife.items()}
        wpos = tuple(b + wl[j].index(husband[j]) if j in husband else b + len(wl[j])
                     for j in range(len(wl)))
        out.add((pos, wpos, size))
    return out
