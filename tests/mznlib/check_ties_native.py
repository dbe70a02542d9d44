#!/usr/bin/env python3
"""stable_matching_smti and stable_matching_hrt posted natively (bamboo_stable_matching_smti, _hrt;
with --stability strong or super, stable_matching_smti_strong, _hrt_super, ...) against brute
force (ties_reference.py) and against the decomposition on the same solver. Every part takes
--cases instances of each family; "stable" below means stable in the --stability sense.

Parts (--part):
  sets   random instances (SMTI: 1..5 men and women; HRT: 1..6 residents, 1..3 hospitals,
         capacities 0..3; base 0 and 1, incomplete lists, ties dense and sparse, padding, ranks
         with gaps): the set of all solutions (-a) of the native constraint equals every stable
         matching, and `maximize size` reaches the brute-force maximum (or is unsatisfiable
         when there is none: strongly and super-stable matchings may not exist);
  prune  the same kind of instances under one fixed search (input order, smallest value first)
         with -a and with `maximize size`, once through the native constraint and once through
         the decomposition (stable_matching_smti_kind / _hrt_kind of
         ../decomposition/stable_matching_ties.mzn, called directly, so that both run on
         fzn-bamboo): the solutions must agree with each other and with brute force, and the
         native search tree must be no larger
         (nodes and failures). Stronger propagation at every node makes the native tree a
         subtree of the decomposition's, so a native rule weaker than the decomposition's
         clauses and sums shows up as more nodes;
  side   instances with a side constraint (a forbidden pair, a person forced unassigned, a bound
         on a woman's position or a hospital's load, size at least k): -a and `maximize size`
         against the brute-force solutions that satisfy it.
"""
import argparse
import os
import random
import re
import sys
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_ties  # noqa: E402  (its list generator, matrices and Runner)
import mzn_setup  # noqa: E402
import ties_reference as ref  # noqa: E402

NAMES = {"smti": ("men", "women"), "hrt": ("residents", "load")}
KIND = {"weak": 0, "strong": 1, "super": 2}  # the decomposition's numbering
STABILITY = ["weak"]  # main sets it from --stability


def predicate(kind):
    return "stable_matching_%s%s" % (kind, "" if STABILITY[0] == "weak" else "_" + STABILITY[0])


def instance(rng, kind):
    tie = rng.choice([0.1, 0.5, 0.9])
    keep = rng.choice([0.5, 0.8, 1.0])
    if kind == "smti":
        n1, n2, cap = rng.randint(1, 5), rng.randint(1, 5), None
    else:
        n1, n2 = rng.randint(1, 6), rng.randint(1, 3)
        cap = [rng.randint(0, 3) if rng.random() < 0.1 else rng.randint(1, 3) for _ in range(n2)]
    ml, mr = check_ties.lists(rng, n1, n2, keep, tie)
    wl, wr = check_ties.lists(rng, n2, n1, keep, tie)
    return dict(kind=kind, ml=ml, mr=mr, wl=wl, wr=wr, cap=cap, b=rng.randint(0, 1), pad=rng.randint(0, 1))


def model(inst, native, side="", solve="satisfy", search=False):
    """The model of one instance: the native predicate or the decomposition, a side constraint."""
    b, pad, kind = inst["b"], inst["pad"], inst["kind"]
    a, c = NAMES[kind]
    shift = lambda ls: [[x + b for x in l] for l in ls]  # noqa: E731
    args = [a, c, check_ties.matrix(shift(inst["ml"]), b, pad, 7), str([len(l) for l in inst["ml"]]),
            check_ties.matrix(inst["mr"], b, pad, -9), check_ties.matrix(shift(inst["wl"]), b, pad, 7),
            str([len(l) for l in inst["wl"]]), check_ties.matrix(inst["wr"], b, pad, -9)]
    args += ([str(inst["cap"])] if kind == "hrt" else []) + ["size"]
    call = ("%s(%s)" % (predicate(kind), ", ".join(args)) if native else
            'stable_matching_%s_kind("%s", %d, %s)' % (kind, predicate(kind), KIND[STABILITY[0]], ", ".join(args)))
    search_ann = ":: int_search(%s ++ %s, input_order, indomain_min) " % (a, c) if search else ""
    output = ('output ["S ", join(",", [show(x) | x in %s]), ";", join(",", [show(x) | x in %s]), ";", '
              'show(size), "\\n"];\n' % (a, c))
    return ('include "stable_matching_%s.mzn";\narray[%d..%d] of var int: %s;\narray[%d..%d] of var int: %s;\n'
            "var int: size;\nconstraint %s;\n%s\nsolve %s%s;\n%s"
            % (kind, b, b + len(inst["ml"]) - 1, a, b, b + len(inst["wl"]) - 1, c, call, side, search_ann, solve,
               output))


def instances(rng, count):
    """count instances of each family, alternating."""
    return [instance(rng, ("smti", "hrt")[k % 2]) for k in range(2 * count)]


def brute(inst):
    if inst["kind"] == "smti":
        return ref.smti_solutions(inst["ml"], inst["mr"], inst["wl"], inst["wr"], STABILITY[0], inst["b"])
    return ref.hrt_solutions(inst["ml"], inst["mr"], inst["wl"], inst["wr"], inst["cap"], STABILITY[0], inst["b"])


def stats(out):
    return {k: int(v) for k, v in re.findall(r"^%%%mzn-stat: (nodes|failures)=(\d+)$", out, re.M)}


def last_size(out):
    got = [int(m) for m in re.findall(r"^S [^;]*;[^;]*;(\d+)$", out, re.M)]
    return got[-1] if got else None


def side_constraint(rng, inst, sols):
    """A random side constraint and the predicate it puts on a solution (first side, second, size)."""
    b, ml, wl = inst["b"], inst["ml"], inst["wl"]
    a, c = NAMES[inst["kind"]]
    pick = rng.randrange(5)
    i, j = rng.randrange(len(ml)), rng.randrange(len(wl))
    if pick == 0 and ml[i]:
        k = rng.randrange(len(ml[i]))
        return "constraint %s[%d] != %d;" % (a, b + i, b + k), lambda s: s[0][i] != b + k
    if pick == 1:
        return "constraint %s[%d] == %d;" % (a, b + i, b + len(ml[i])), lambda s: s[0][i] == b + len(ml[i])
    if pick == 2 and inst["kind"] == "smti":
        return "constraint women[%d] < %d;" % (b + j, b + len(wl[j])), lambda s: s[1][j] < b + len(wl[j])
    if pick == 2:
        v = rng.randint(0, inst["cap"][j])
        return "constraint load[%d] >= %d;" % (b + j, v), lambda s: s[1][j] >= v
    if pick == 3 and inst["kind"] == "smti" and wl[j]:
        v = rng.randrange(len(wl[j]))
        return "constraint women[%d] <= %d;" % (b + j, b + v), lambda s: s[1][j] <= b + v
    if pick == 3 and inst["kind"] == "hrt":
        v = rng.randint(0, max(inst["cap"][j] - 1, 0))
        return "constraint load[%d] <= %d;" % (b + j, v), lambda s: s[1][j] <= v
    top = max([s[2] for s in sols] + [0])
    k = rng.randint(max(top - 1, 0), top + 1)  # at or near the maximum: sometimes none left
    return "constraint size >= %d;" % k, lambda s: s[2] >= k


def check_sets(runner, rng, count, failures):
    jobs = []
    for idx, inst in enumerate(instances(rng, count)):
        want = brute(inst)
        jobs.append(("all", model(inst, True), want, "%s sets #%d" % (inst["kind"], idx)))
        jobs.append(("max", model(inst, True, solve="maximize size"), max([s[2] for s in want], default=None),
                     "%s max #%d" % (inst["kind"], idx)))
    return run_jobs(runner, jobs, failures)


def check_side(runner, rng, count, failures):
    jobs = []
    for idx, inst in enumerate(instances(rng, count)):
        sols = brute(inst)
        text, keep = side_constraint(rng, inst, sols)
        want = {s for s in sols if keep(s)}
        jobs.append(("all", model(inst, True, text), want, "%s side #%d (%s)" % (inst["kind"], idx, text)))
        best = max([s[2] for s in want], default=None)
        jobs.append(("max", model(inst, True, text, "maximize size"), best,
                     "%s side max #%d (%s)" % (inst["kind"], idx, text)))
    return run_jobs(runner, jobs, failures)


def run_jobs(runner, jobs, failures):
    def one(job):
        what, text, want, name = job
        p = runner.run("bamboo", text, what == "all")
        if p.returncode != 0:
            return "%s: rc %d\n%s%s" % (name, p.returncode, text, p.stderr[-800:])
        if what == "all":
            got = check_ties.parse_all(p.stdout)
            if got != want or ("==========" not in p.stdout and want):
                return "%s: %d solutions, expected %d\n  only got: %s\n  missing: %s\n%s" % (
                    name, len(got), len(want), sorted(got - want)[:3], sorted(want - got)[:3], text)
        elif want is None:
            if "=====UNSATISFIABLE=====" not in p.stdout:
                return "%s: expected no solution\n%s%s" % (name, text, p.stdout[-400:])
        elif "==========" not in p.stdout or last_size(p.stdout) != want:
            return "%s: optimum %s, expected %d\n%s" % (name, last_size(p.stdout), want, text)
        return None

    with ThreadPoolExecutor(runner.args.jobs) as ex:
        failures.extend(r for r in ex.map(one, jobs) if r)
    return len(jobs)


def check_prune(runner, rng, count, failures):
    """Native and decomposition under one search: equal solutions, no more nodes or failures."""
    jobs = []
    for idx, inst in enumerate(instances(rng, count)):
        for solve, all_solutions in (("satisfy", True), ("maximize size", False)):
            want = brute(inst)
            if not all_solutions:
                want = max([s[2] for s in want], default=None)
            jobs.append((inst, solve, all_solutions, want, "%s prune #%d (%s)" % (inst["kind"], idx, solve)))
    tally = {"smaller": 0, "equal": 0, "flattened": 0}

    def one(job):
        inst, solve, all_solutions, want, name = job
        runs = []
        for native in (True, False):
            text = model(inst, native, solve=solve, search=True)
            p = runner.run("bamboo", text, all_solutions, ["-s"])
            if p.returncode != 0:
                return "%s (%s): rc %d\n%s%s" % (name, "native" if native else "decomposition", p.returncode, text,
                                                 p.stderr[-800:])
            got = check_ties.parse_all(p.stdout) if all_solutions else last_size(p.stdout)
            runs.append((got, stats(p.stdout), text, "=====UNSATISFIABLE=====" in p.stdout))
        (nat_sols, nat, text, _), (dec_sols, dec, _, dec_unsat) = runs
        if set(dec) != {"nodes", "failures"} and dec_unsat and nat_sols == dec_sols == want:
            # MiniZinc's compiler found the decomposition unsatisfiable: no search to compare
            tally["flattened"] += 1
            return None
        if set(nat) != {"nodes", "failures"} or set(dec) != {"nodes", "failures"}:
            return "%s: no statistics" % name
        if nat_sols != dec_sols or nat_sols != want:
            return "%s: native %s and decomposition %s, brute force %s\n%s" % (name, nat_sols, dec_sols, want, text)
        if nat["nodes"] > dec["nodes"] or nat["failures"] > dec["failures"]:
            return "%s: native %s, decomposition %s: the native propagator pruned less\n%s" % (name, nat, dec, text)
        tally["smaller" if nat["nodes"] < dec["nodes"] else "equal"] += 1
        return None

    with ThreadPoolExecutor(runner.args.jobs) as ex:
        failures.extend(r for r in ex.map(one, jobs) if r)
    print("prune: %d searches with fewer nodes than the decomposition, %d with as many, %d where the "
          "decomposition was found unsatisfiable while flattening" % (tally["smaller"], tally["equal"],
                                                                     tally["flattened"]))
    return len(jobs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mzn_setup.add_arguments(ap)
    ap.add_argument("--part", choices=["sets", "prune", "side"], required=True)
    ap.add_argument("--cases", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--stability", choices=sorted(KIND), default="weak")
    args = ap.parse_args()
    STABILITY[0] = args.stability
    env, code = mzn_setup.prepare(args, need=("bamboo",))
    if code is not None:
        return code
    runner, rng, failures = check_ties.Runner(args, env), random.Random(args.seed), []
    part = {"sets": check_sets, "prune": check_prune, "side": check_side}[args.part]
    n = part(runner, rng, args.cases, failures)
    for f in failures[:8]:
        print("FAIL", f)
    print("%s (%s): %d runs, %d failures" % (args.part, args.stability, n, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
