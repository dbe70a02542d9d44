#!/usr/bin/env python3
"""The HRC models of models/ (hrc_match, hrc_min_bp, hrc_side, sfas, sfas_file) with their data, on bamboo
(native) and on Gecode (the decomposition), against brute force over all matchings
(check_hrc.py's reference, from the wording of Definition 1, weak stability with ties): the
set of stable matchings, the fewest blocking pairs, the fewest under the side rules, and for
sfas the fewest blocking pairs, then the most residents placed (sfas_file the same on bamboo, from
sfas8.dzn written as an HRC file).

    tests/mznlib/check_hrc_models.py --solver-path <build>/minizinc/solvers

Prints one line per run with the expected result (models/README.md lists the same); exit 77
without minizinc or Gecode."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "models")
sys.path.insert(0, HERE)
import check_hrc as ch  # noqa: E402
import mzn_setup  # noqa: E402


def read(path):
    text = re.sub(r"%[^\n]*", "", open(path).read())
    d = {}
    for name, body in re.findall(r"(\w+)\s*=\s*([^;]*);", text):
        body = body.strip()
        if body.startswith("[|"):
            d[name] = [[int(x) for x in r.replace(",", " ").split()] for r in body[2:-2].split("|")]
        elif body.startswith("["):
            d[name] = [int(x) for x in body[1:-1].replace(",", " ").split()]
        else:
            d[name] = int(body)
    return d


def instance(d):
    inst = ch.Inst.__new__(ch.Inst)
    inst.nS, inst.nC, inst.nH = d["nS"], d["nC"], d["nH"]
    inst.nR = inst.nS + 2 * inst.nC
    inst.cap = d["capacity"]
    inst.slist = [[h - 1 for h in d["rp"][i][:d["rp_len"][i]]] for i in range(inst.nS)]
    inst.clist = [list(zip([h - 1 for h in d["cp1"][c][:d["cp_len"][c]]], [h - 1 for h in d["cp2"][c][:d["cp_len"][c]]]))
                  for c in range(inst.nC)]
    inst.hlist = [[r - 1 for r in d["hp"][h][:d["hp_len"][h]]] for h in range(inst.nH)]
    if "hp_rank" in d:
        inst.hrank = [d["hp_rank"][h][:d["hp_len"][h]] for h in range(inst.nH)]
    return inst


def hospitals(inst, M):
    """The models' output order: couples' members, then singles; 1-based, 0 unassigned."""
    return tuple(0 if x is None else x + 1 for x in M[:2 * inst.nC] + M[2 * inst.nC:])


def main():
    ap = argparse.ArgumentParser()
    mzn_setup.add_arguments(ap)
    a = ap.parse_args()
    env, code = mzn_setup.prepare(a, want=("gecode",))
    if code is not None:
        return code
    failures = 0
    runs = [("hrc_match.mzn", ["hrc_small.dzn"]), ("hrc_match.mzn", ["hrc_no_stable.dzn"]),
            ("hrc_min_bp.mzn", ["hrc_small.dzn"]), ("hrc_min_bp.mzn", ["hrc_no_stable.dzn"]),
            ("hrc_side.mzn", ["hrc_small.dzn", "hrc_small_side.dzn"]), ("sfas.mzn", ["sfas8.dzn"])]
    for model, data in runs:
        d = read(os.path.join(MODELS, data[0]))
        inst = instance(d)
        keep = lambda vals, M: True  # noqa: E731
        if model == "hrc_side.mzn":
            s = read(os.path.join(MODELS, data[1]))
            need, minimum, together = s["needs"] - 1, s["minimum"], s["together"] - 1
            keep = lambda vals, M: (sum(1 for x in M if x == need) >= minimum  # noqa: E731
                                    and M[2 * together] is not None and M[2 * together] == M[2 * together + 1])
        every = {}
        for vals in __import__("itertools").product(*inst.vars_domains()):
            M = inst.matching(vals)
            if M is not None and keep(vals, M):
                every[hospitals(inst, M)] = inst.blocking(M)
        for solver in ("bamboo", "gecode"):
            cmd = [a.minizinc, "--solver", solver] + (["-I", os.path.join(ROOT, "minizinc", "decomposition")]
                                                      if solver == "gecode" else [])
            cmd += (["-a"] if model == "hrc_match.mzn" else []) + [os.path.join(MODELS, model)]
            cmd += [os.path.join(MODELS, x) for x in data]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
            sols = [(tuple(int(x) for x in h.split(",")), int(bp))
                    for h, bp in re.findall(r"hospital = \[([^\]]*)\];\nbp = (\d+);", p.stdout)]
            if model == "hrc_match.mzn":
                want = sorted(h for h, n in every.items() if n == 0)
                got = sorted(h for h, _ in sols)
                ok = got == want and (want or "UNSATISFIABLE" in p.stdout)
                what = "%d stable matchings" % len(want)
            elif model == "sfas.mzn":  # fewest blocking pairs, then most placed
                placed = lambda h: sum(1 for x in h if x)  # noqa: E731
                want = min((n, -placed(h)) for h, n in every.items())
                got = sols[-1] if sols else None
                ok = bool(got) and (every.get(got[0]), -placed(got[0])) == want and got[1] == want[0] \
                    and "placed = %d;" % -want[1] in p.stdout and "==========" in p.stdout
                what = "fewest blocking pairs %d, then %d placed" % (want[0], -want[1])
            else:
                want = min(every.values()) if every else None
                ok = bool(sols) and sols[-1][1] == want and every.get(sols[-1][0]) == want and "==========" in p.stdout
                what = "fewest blocking pairs %s" % want
            print("%-5s %s %s: %s (%s)" % ("ok" if ok else "FAIL", solver, model, " ".join(data), what))
            if not ok:
                failures += 1
                print(p.stdout[-1500:], p.stderr[-1500:])
    # sfas_file.mzn: sfas8.dzn as an HRC file with bracketed ties, on bamboo (the file form)
    inst = instance(read(os.path.join(MODELS, "sfas8.dzn")))
    every = {}
    for vals in __import__("itertools").product(*inst.vars_domains()):
        M = inst.matching(vals)
        if M is not None:
            every[vals] = (inst.blocking(M), sum(1 for x in M if x is not None))
    want = min((n, -k) for n, k in every.values())
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sfas8.hrc")
        with open(path, "w") as f:
            f.write(ch.hrc_text(inst))
        cmd = [a.minizinc, "--solver", "bamboo", os.path.join(MODELS, "sfas_file.mzn"),
               "-D", 'nS = %d; nC = %d; file = "%s";' % (inst.nS, inst.nC, path)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    got = re.findall(r"bp = (\d+);\nplaced = (\d+);\nsingles = \[([^\]]*)\];\ncouples = \[([^\]]*)\];", p.stdout)
    ok = bool(got) and "==========" in p.stdout
    if ok:
        bp, placed, singles, couples = got[-1]
        vals = tuple(int(x) - 1 for x in (singles + "," + couples).split(",") if x.strip())
        ok = (int(bp), -int(placed)) == want and every.get(vals) == (int(bp), int(placed))
    print("%-5s bamboo sfas_file.mzn: sfas8.dzn as a file (fewest blocking pairs %d, then %d placed)" % (
        "ok" if ok else "FAIL", want[0], -want[1]))
    if not ok:
        failures += 1
        print(p.stdout[-1500:], p.stderr[-1500:])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
