#!/usr/bin/env python3
"""SMI/HR against independent implementations: the PyPI packages `algmatch` and `matching`.

usage: hr_oracle.py BAMBOO_SMP WORK_DIR [INSTANCES]

Random instances (one-sided entries, empty lists, capacities 1..3; SMI as capacity 1) are
written in Bamboo's text format and solved by `bamboo-smp solve` (gs-seq and mw-par, both
sides); the resident- and hospital-optimal matchings must equal algmatch's, and the
resident-optimal one must equal matching's. Exits 77 (skipped) when neither package is
installed: CI installs only the README's packages, so this runs where someone installed
them (`pip install algmatch matching`).
"""
import os
import random
import subprocess
import sys
import warnings

try:
    from algmatch import HospitalResidentsProblem
except ImportError:
    HospitalResidentsProblem = None
try:
    from matching.games import HospitalResident
except ImportError:
    HospitalResident = None


def random_instance(rng, smi):
    nr, nh = rng.randint(1, 60), rng.randint(1, 12)
    residents = [rng.sample(range(nh), rng.randint(0, min(nh, 6))) for _ in range(nr)]
    hospitals = []
    for h in range(nh):
        applicants = [r for r in range(nr) if h in residents[r]]
        others = [r for r in range(nr) if h not in residents[r]]
        ranked = applicants + rng.sample(others, rng.randint(0, min(len(others), 3)))  # some one-sided
        if applicants and rng.random() < 0.2:
            ranked.remove(rng.choice(applicants))  # a resident's entry the hospital does not return
        rng.shuffle(ranked)
        hospitals.append(ranked)
    caps = [1 if smi else rng.randint(1, 3) for _ in range(nh)]
    return nr, nh, residents, hospitals, caps


def write_bamboo(path, smi, inst):
    nr, nh, residents, hospitals, caps = inst
    with open(path, "w") as f:
        f.write(f"{'smi' if smi else 'hr'} {nr} {nh}\n")
        for lst in residents:
            f.write(" ".join(map(str, lst)) + "\n")
        for h, lst in enumerate(hospitals):
            f.write(("" if smi else f"{caps[h]}: ") + " ".join(map(str, lst)) + "\n")


def mutual(inst):
    """The acceptable pairs only: both packages want consistent lists."""
    nr, nh, residents, hospitals, caps = inst
    res = [[h for h in lst if r in hospitals[h]] for r, lst in enumerate(residents)]
    hos = [[r for r in lst if h in residents[r]] for h, lst in enumerate(hospitals)]
    return res, hos


def algmatch_solve(path, inst, side):
    nr, nh, residents, hospitals, caps = inst
    res, hos = mutual(inst)
    with open(path, "w") as f:  # algmatch's format: 1-based ids, "id [cap] prefs"
        f.write(f"{nr} {nh}\n")
        for r in range(nr):
            f.write(" ".join(map(str, [r + 1] + [h + 1 for h in res[r]])) + "\n")
        for h in range(nh):
            f.write(" ".join(map(str, [h + 1, caps[h]] + [r + 1 for r in hos[h]])) + "\n")
    got = HospitalResidentsProblem(filename=path, optimised_side=side).get_stable_matching()
    return [int(got["resident_sided"][f"r{r + 1}"][1:]) - 1 if got["resident_sided"][f"r{r + 1}"] else -1
            for r in range(nr)]


def matching_solve(inst):
    nr, nh, residents, hospitals, caps = inst
    res, hos = mutual(inst)
    # matching cannot take empty lists: such people stay unassigned anyway.
    game = HospitalResident.create_from_dictionaries(
        {f"r{r}": [f"h{h}" for h in res[r]] for r in range(nr) if res[r]},
        {f"h{h}": [f"r{r}" for r in hos[h]] for h in range(nh) if hos[h]},
        {f"h{h}": caps[h] for h in range(nh) if hos[h]})
    out = [-1] * nr
    for hospital, assigned in game.solve(optimal="resident").items():
        for r in assigned:
            out[int(str(r)[1:])] = int(str(hospital)[1:])
    return out


def bamboo_solve(binary, path, algo, side):
    run = subprocess.run([binary, "solve", path, "--algo", algo, "--side", side, "--verify"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"bamboo-smp failed on {path}: {run.stderr}")
    out = []
    for line in run.stdout.split("\n"):
        if line:
            r, h = line.split()
            out.append(-1 if h == "-" else int(h))
    return out


def main():
    if HospitalResidentsProblem is None and HospitalResident is None:
        print("skipped: neither algmatch nor matching is installed (pip install algmatch matching)")
        return 77
    binary, work = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    os.makedirs(work, exist_ok=True)
    warnings.simplefilter("ignore")
    rng = random.Random(2026)
    passed = failed = 0
    for k in range(count):
        smi = k % 3 == 0
        inst = random_instance(rng, smi)
        path = os.path.join(work, f"case{k}.txt")
        write_bamboo(path, smi, inst)
        sides = ("men", "women") if smi else ("residents", "hospitals")
        for algo in ("gs-seq", "mw-par"):
            ours = {s: bamboo_solve(binary, path, algo, s) for s in sides}
            checks = []
            if HospitalResidentsProblem is not None:
                checks.append(("algmatch resident-optimal", ours[sides[0]],
                               algmatch_solve(path + ".am", inst, "residents")))
                checks.append(("algmatch hospital-optimal", ours[sides[1]],
                               algmatch_solve(path + ".am", inst, "hospitals")))
            if HospitalResident is not None:
                checks.append(("matching resident-optimal", ours[sides[0]], matching_solve(inst)))
            for what, a, b in checks:
                if a == b:
                    passed += 1
                else:
                    failed += 1
                    print(f"case {k} ({path}, {algo}): {what} differs:\n  bamboo {a}\n  oracle {b}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
