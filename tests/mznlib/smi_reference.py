"""Brute-force reference for incomplete lists (SMI) and Hospitals/Residents (HR), straight
from the definitions: enumerate every matching made of acceptable pairs (capacities
respected) and keep those that no acceptable pair blocks. No cleverness: it is the judge of
the constraint and of its decomposition. Ids and ranks are 0-based; callers add the base.

SMI: pm[m] is man m's list of women (ids), pw[w] woman w's list of men; entries may be
one-sided (then the pair is unacceptable). HR: rp[r] is resident r's list of hospitals,
hp[h] hospital h's list of residents, cap[h] >= 0."""


def _acceptable(lists, other_lists):
    """acc[p] = the set of q that p lists and that list p."""
    return [{q for q in lst if p in other_lists[q]} for p, lst in enumerate(lists)]


def smi_stable_matchings(pm, pw):
    """All stable matchings, each as wife (wife[m] = w or None)."""
    acc = _acceptable(pm, pw)
    n1, n2 = len(pm), len(pw)
    out = []

    def blocks(wife, husband, m, w):
        man_wants = wife[m] is None or pm[m].index(w) < pm[m].index(wife[m])
        woman_wants = husband[w] is None or pw[w].index(m) < pw[w].index(husband[w])
        return man_wants and woman_wants

    def go(m, wife, taken):
        if m == n1:
            husband = [None] * n2
            for i, w in enumerate(wife):
                if w is not None:
                    husband[w] = i
            if not any(blocks(wife, husband, i, w) for i in range(n1) for w in acc[i]):
                out.append(list(wife))
            return
        for w in [None] + sorted(acc[m]):
            if w is None or w not in taken:
                wife.append(w)
                go(m + 1, wife, taken | ({w} if w is not None else set()))
                wife.pop()

    go(0, [], frozenset())
    return out


def husbands(wife, n2):
    husband = [None] * n2
    for m, w in enumerate(wife):
        if w is not None:
            husband[w] = m
    return husband


def smi_ranks(pm, pw, wife):
    """The rank view (0-based): (men ranks, women ranks), len(list) = unmatched."""
    husband = husbands(wife, len(pw))
    men = [len(pm[m]) if w is None else pm[m].index(w) for m, w in enumerate(wife)]
    women = [len(pw[w]) if m is None else pw[w].index(m) for w, m in enumerate(husband)]
    return men, women


def hr_stable_matchings(rp, hp, cap):
    """All stable matchings, each as hospital_of (hospital_of[r] = h or None)."""
    acc = _acceptable(rp, hp)
    n_r, n_h = len(rp), len(hp)
    out = []

    def blocks(hosp, assigned, r, h):
        resident_wants = hosp[r] is None or rp[r].index(h) < rp[r].index(hosp[r])
        under = len(assigned[h]) < cap[h]
        hospital_wants = under or (len(assigned[h]) > 0 and
                                   hp[h].index(r) < max(hp[h].index(s) for s in assigned[h]))
        return resident_wants and hospital_wants

    def go(r, hosp, load):
        if r == n_r:
            assigned = [[s for s in range(n_r) if hosp[s] == h] for h in range(n_h)]
            if not any(blocks(hosp, assigned, s, h) for s in range(n_r) for h in acc[s]):
                out.append(list(hosp))
            return
        for h in [None] + sorted(acc[r]):
            if h is None or load[h] < cap[h]:
                hosp.append(h)
                if h is not None:
                    load[h] += 1
                go(r + 1, hosp, load)
                if h is not None:
                    load[h] -= 1
                hosp.pop()

    go(0, [], [0] * n_h)
    return out


def hr_ranks(rp, hp, cap, hosp, cols):
    """The rank view (0-based): residents' ranks (len = unassigned) and, per hospital, cols
    posts holding its assignees' ranks in increasing order, then len(hp[h]) (empty)."""
    residents = [len(rp[r]) if h is None else rp[r].index(h) for r, h in enumerate(hosp)]
    posts = []
    for h in range(len(hp)):
        ranks = sorted(hp[h].index(r) for r in range(len(rp)) if hosp[r] == h)
        posts.append(ranks + [len(hp[h])] * (cols - len(ranks)))
    return residents, posts
