"""Brute-force reference for the Stable Marriage models: every stable matching of a small
instance, by enumerating all n! perfect matchings. Ids, positions and ranks are 0-based
here; callers add the model's base."""
import itertools


def rank_matrix(prefs):
    """rank[p][q] = the rank of q in p's list."""
    n = len(prefs)
    rank = [[0] * n for _ in range(n)]
    for p, lst in enumerate(prefs):
        for k, q in enumerate(lst):
            rank[p][q] = k
    return rank


def stable_matchings(pm, pw):
    """All stable matchings, each as (wife, men_ranks, women_ranks), wife[m] = w.
    Stability is judged against the full lists."""
    n = len(pm)
    rm, rw = rank_matrix(pm), rank_matrix(pw)
    out = []
    for wife in itertools.permutations(range(n)):
        husband = [0] * n
        for m, w in enumerate(wife):
            husband[w] = m
        if all(not (rm[m][w] < rm[m][wife[m]] and rw[w][m] < rw[w][husband[w]])
               for m in range(n) for w in range(n)):
            out.append((list(wife),
                        [rm[m][wife[m]] for m in range(n)],
                        [rw[w][husband[w]] for w in range(n)]))
    return out


def husbands(wife):
    h = [0] * len(wife)
    for m, w in enumerate(wife):
        h[w] = m
    return h


TABLE1_PM = [[3, 4, 1, 2, 0], [0, 1, 3, 2, 4], [0, 4, 3, 2, 1], [2, 1, 4, 3, 0], [0, 1, 4, 2, 3]]
TABLE1_PW = [[1, 3, 4, 0, 2], [2, 3, 0, 4, 1], [0, 2, 1, 4, 3], [0, 3, 2, 1, 4], [1, 4, 0, 3, 2]]


def stable_matchings_dfs(pm, pw):
    """The same set as stable_matchings(), by depth-first search over the men in order,
    cutting a branch as soon as two married people block: fast enough for n <= 14."""
    n = len(pm)
    rm, rw = rank_matrix(pm), rank_matrix(pw)
    wife = [-1] * n
    husband = [-1] * n
    out = []

    def blocks(m, w):
        return rm[m][w] < rm[m][wife[m]] and rw[w][m] < rw[w][husband[w]]

    def extend(m):
        if m == n:
            out.append((list(wife),
                        [rm[i][wife[i]] for i in range(n)],
                        [rw[w][husband[w]] for w in range(n)]))
            return
        for w in range(n):
            if husband[w] >= 0:
                continue
            wife[m], husband[w] = w, m
            # only pairs with both people married can be judged; the new couple is in each
            if not any(husband[v] >= 0 and (blocks(m, v) or blocks(husband[v], w))
                       for v in range(n)):
                extend(m + 1)
            wife[m], husband[w] = -1, -1

    extend(0)
    return out
