#!/usr/bin/env python3
"""models/max_hrt.mzn and models/school_choice.mzn on bamboo and on Gecode (decomposition)
against brute force (ties_reference.py): the optimum, and that the matching printed is weakly
stable and has it. For school choice, also that the data's `stb` is what deferred acceptance
after the data's lottery gives (so "worse off" is measured against the real tie-breaking).
"""
import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mzn_setup  # noqa: E402
import ties_reference as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "models")


def read_dzn(path):
    """The int, 1d and 2d arrays of a dzn file; 2d arrays as lists of rows."""
    text = re.sub(r"%.*", "", open(path).read())
    out = {}
    for name, body in re.findall(r"(\w+)\s*=\s*([^;]*);", text):
        body = body.strip()
        if body.startswith("[|"):
            out[name] = [[int(x) for x in row.split(",") if x.strip()] for row in body[2:-2].split("|")]
        elif body.startswith("["):
            out[name] = [int(x) for x in body[1:-1].split(",") if x.strip()]
        else:
            out[name] = int(body)
    return out


def lists(d, a):
    """0-based lists and their ranks from the 1-based rows `a`p, `a`p_len, `a`p_rank."""
    ls = [[x - 1 for x in row[:n]] for row, n in zip(d[a + "p"], d[a + "p_len"])]
    return ls, [row[:n] for row, n in zip(d[a + "p_rank"], d[a + "p_len"])]


def deferred_acceptance(rl, hl, hr, cap, lottery):
    """Student-proposing DA, each school's ties broken by the lottery (earlier wins)."""
    order = {s: i for i, s in enumerate(lottery)}
    key = [{r: (hr[h][k], order[r]) for k, r in enumerate(hl[h])} for h in range(len(hl))]
    nxt, held, free = [0] * len(rl), [[] for _ in hl], list(range(len(rl)))
    while free:
        r = free.pop()
        while nxt[r] < len(rl[r]):
            h = rl[r][nxt[r]]
            nxt[r] += 1
            if r not in key[h]:
                continue
            held[h] = sorted(held[h] + [r], key=lambda x: key[h][x])
            if len(held[h]) <= cap[h]:
                break
            out = held[h].pop()
            if out != r:
                free.append(out)
                break
    assign = [None] * len(rl)
    for h, rs in enumerate(held):
        for r in rs:
            assign[r] = h
    return assign


def run(args, env, solver, model, data):
    cmd = [args.minizinc, "--solver", solver, os.path.join(MODELS, model), os.path.join(MODELS, data)]
    if solver == "gecode":
        cmd += ["-I", os.path.join(ROOT, "minizinc", "decomposition")]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    vals = {k: v for k, v in re.findall(r"^(\w+) = (.*);$", p.stdout, re.M)}
    return p, vals


def positions(rl, hospital_ids):
    """1-based positions from the printed hospital ids (0: none)."""
    return tuple(rl[r].index(h - 1) + 1 if h else len(rl[r]) + 1 for r, h in enumerate(hospital_ids))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    mzn_setup.add_arguments(ap)
    args = ap.parse_args()
    env, code = mzn_setup.prepare(args, need=("bamboo",), want=("gecode",))
    if code is not None:
        return code
    failures = []

    d = read_dzn(os.path.join(MODELS, "max_hrt8.dzn"))
    (rl, rr), (hl, hr) = lists(d, "r"), lists(d, "h")
    sols = ref.hrt_solutions(rl, rr, hl, hr, d["capacity"], "weak", 1)
    best = max(s[2] for s in sols)
    for solver in ("bamboo", "gecode"):
        p, v = run(args, env, solver, "max_hrt.mzn", "max_hrt8.dzn")
        ok = p.returncode == 0 and "==========" in p.stdout and "hospital" in v
        if ok:
            pos = positions(rl, [int(x) for x in v["hospital"].strip("[]").split(",")])
            ok = int(v["size"]) == best and any(s[0] == pos and s[2] == best for s in sols)
        print("max_hrt on %s: size %s, brute force %d%s" % (solver, v.get("size"), best, "" if ok else "  FAIL"))
        if not ok:
            failures.append(p.stdout + p.stderr)

    d = read_dzn(os.path.join(MODELS, "school_choice9.dzn"))
    (sl, sr), (cl, cr) = lists(d, "s"), lists(d, "c")
    assign = deferred_acceptance(sl, cl, cr, d["capacity"], [x - 1 for x in d["lottery"]])
    stb = tuple(sl[s].index(a) + 1 if a is not None else len(sl[s]) + 1 for s, a in enumerate(assign))
    if stb != tuple(d["stb"]):
        failures.append("school_choice9.dzn: stb %s, deferred acceptance gives %s" % (d["stb"], list(stb)))

    def worse(pos):
        # strictly worse rank than under stb; none ranks after every school
        rank = lambda s, p: sr[s][p - 1] if p <= len(sl[s]) else float("inf")  # noqa: E731
        return sum(rank(s, p) > rank(s, q) for s, (p, q) in enumerate(zip(pos, stb)))

    sols = ref.hrt_solutions(sl, sr, cl, cr, d["capacity"], "weak", 1)
    best = max(s[2] for s in sols)
    fewest = min(worse(s[0]) for s in sols if s[2] == best)
    for solver in ("bamboo", "gecode"):
        p, v = run(args, env, solver, "school_choice.mzn", "school_choice9.dzn")
        ok = p.returncode == 0 and "==========" in p.stdout and "school" in v
        if ok:
            pos = positions(sl, [int(x) for x in v["school"].strip("[]").split(",")])
            ok = (int(v["size"]) == best and int(v["worse"]) == fewest == worse(pos)
                  and any(s[0] == pos and s[2] == best for s in sols))
        print("school_choice on %s: size %s worse %s, brute force %d %d (stb places %d)%s"
              % (solver, v.get("size"), v.get("worse"), best, fewest, sum(a is not None for a in assign),
                 "" if ok else "  FAIL"))
        if not ok:
            failures.append(p.stdout + p.stderr)
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
