#!/usr/bin/env python3
"""fzn-bamboo's three ways of handing stable_matching's matrices to the constraint
(minizinc/build_take.c) give the same results and the same messages:

  take     the matrices are parameter arrays that only the constraint names: their memory
           is handed over (no copy);
  lent     the same arrays are also named elsewhere (here by an output annotation): the
           constraint reads them where they are;
  inline   the matrices are literals inside the constraint (handed over as well).

For random complete instances (n = 40, both bases) the solution sets of -a must be equal,
every solution stable (checked here from the definition), and the first one, under
input_order / indomain_min on the men, the man-optimal matching (Gale-Shapley, here). A
matrix with a bad row must be rejected by all three with the same message, naming the row.

    tests/fzn/check_take.py FZN_BAMBOO
"""
import os
import random
import re
import subprocess
import sys
import tempfile

N = 40


def gale_shapley(pm, pw):
    n = len(pm)
    rank = [{m: k for k, m in enumerate(row)} for row in pw]
    nxt, husband, wife = [0] * n, [None] * n, [None] * n
    free = list(range(n))
    while free:
        m = free.pop()
        w = pm[m][nxt[m]]
        nxt[m] += 1
        h = husband[w]
        if h is None or rank[w][m] < rank[w][h]:
            if h is not None:
                wife[h] = None
                free.append(h)
            husband[w], wife[m] = m, w
        else:
            free.append(m)
    return wife


def stable(pm, pw, men, women):
    """men[i], women[j]: 0-based ranks."""
    n = len(pm)
    wife = [pm[i][men[i]] for i in range(n)]
    if sorted(wife) != list(range(n)) or any(pw[wife[i]][women[wife[i]]] != i for i in range(n)):
        return False
    rank_m = [{w: k for k, w in enumerate(row)} for row in pm]
    rank_w = [{m: k for k, m in enumerate(row)} for row in pw]
    return not any(rank_m[i][w] < men[i] and rank_w[w][i] < women[w] for i in range(n) for w in range(n))


def fzn(pm, pw, base, form):
    n = len(pm)
    flat_m = ",".join(str(v + base) for row in pm for v in row)
    flat_w = ",".join(str(v + base) for row in pw for v in row)
    ann = " :: output_array([1..%d])" % (n * n) if form == "lent" else ""
    lines = []
    if form != "inline":
        lines.append("array [1..%d] of int: pm%s = [%s];" % (n * n, ann, flat_m))
        lines.append("array [1..%d] of int: pw%s = [%s];" % (n * n, ann, flat_w))
    for side in ("m", "w"):
        lines += ["var %d..%d: %s%d;" % (base, n - 1 + base, side, i) for i in range(n)]
    lines.append("array [1..%d] of var int: men :: output_array([1..%d]) = [%s];" %
                 (n, n, ",".join("m%d" % i for i in range(n))))
    lines.append("array [1..%d] of var int: women :: output_array([1..%d]) = [%s];" %
                 (n, n, ",".join("w%d" % i for i in range(n))))
    args = ("pm", "pw") if form != "inline" else ("[%s]" % flat_m, "[%s]" % flat_w)
    lines.append("constraint bamboo_stable_matching(men,women,%s,%s,%d,%d,%d,%d);" % (args + (n, n, n, n)))
    lines.append("solve :: int_search(men, input_order, indomain_min, complete) satisfy;")
    return "\n".join(lines) + "\n"


def run(exe, text, work, name):
    path = os.path.join(work, name + ".fzn")
    with open(path, "w") as f:
        f.write(text)
    p = subprocess.run([exe, "-a", path], capture_output=True, text=True, timeout=120)
    sols = []
    for block in p.stdout.split("----------")[:-1]:
        men = re.search(r"men = array1d\(1\.\.\d+, \[([^\]]*)\]\)", block)
        women = re.search(r"women = array1d\(1\.\.\d+, \[([^\]]*)\]\)", block)
        sols.append((tuple(int(v) for v in men.group(1).split(",")), tuple(int(v) for v in women.group(1).split(","))))
    return p.returncode, sols, p.stderr.replace(path, "X.fzn")


def main():
    exe = sys.argv[1]
    rng = random.Random(11)
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for case in range(6):
            base = case % 2
            pm = [rng.sample(range(N), N) for _ in range(N)]
            pw = [rng.sample(range(N), N) for _ in range(N)]
            results = {}
            for form in ("take", "lent", "inline"):
                rc, sols, err = run(exe, fzn(pm, pw, base, form), work, form)
                results[form] = (rc, sols)
                problem = None
                if rc != 0:
                    problem = "exit %d: %s" % (rc, err.strip()[-300:])
                elif not sols:
                    problem = "no solution"
                elif any(not stable(pm, pw, [v - base for v in m], [v - base for v in w]) for m, w in sols):
                    problem = "an unstable solution"
                elif [pm[i][sols[0][0][i] - base] for i in range(N)] != gale_shapley(pm, pw):
                    problem = "the first solution is not the man-optimal matching"
                failures += problem is not None
                print("%s  case %d (base %d) %-6s %s" % ("FAIL" if problem else "ok  ", case, base, form,
                                                         problem or "%d stable matchings" % len(sols)))
            same = len({tuple(sorted(s)) for _, s in results.values()}) == 1
            failures += not same
            if not same:
                print("FAIL  case %d: the three forms give different solution sets" % case)
            # A bad row: row 17 repeats a woman.
            bad = [row[:] for row in pm]
            bad[17][5] = bad[17][6]
            messages = {}
            for form in ("take", "lent", "inline"):
                rc, sols, err = run(exe, fzn(bad, pw, base, form), work, "bad-" + form)
                line = [l for l in err.splitlines() if "bamboo_stable_matching" in l]
                messages[form] = re.sub(r"^X\.fzn:\d+: ", "", line[0]) if line else err
                ok = rc == 1 and not sols and "pm row %d (man %d's list) is not a permutation" % (17 + base, 17 + base) \
                    in messages[form]
                failures += not ok
                print("%s  case %d bad row %-6s %s" % ("ok  " if ok else "FAIL", case, form, messages[form].strip()))
            if len(set(messages.values())) != 1:
                failures += 1
                print("FAIL  case %d: the messages differ" % case)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
