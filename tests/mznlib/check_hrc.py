#!/usr/bin/env python3
"""stable_matching_hrc through MiniZinc against brute force over all matchings.

Random tiny HRC instances (<= 2 couples, <= 3 singles, <= 3 hospitals of capacity 1..2,
acceptability one-sided at times, 0- and 1-based), each solved
  stable   `bp = 0`, all solutions: exactly the stable matchings (the set);
  min      `solve minimize bp`: the minimum number of blocking pairs;
  near     `bp <= min + 1`, all solutions: exactly the matchings with at most that many
           blocking pairs, each once (the default search's budget branching and its
           all / not-all decision on the deferred acceptance's matching partition);
  side     `bp = 0` with a side constraint (a forbidden single's hospital, a couple's first
           member kept out of a hospital, a hospital that must hold at least one resident,
           through the helpers): the brute-force set under the same constraint;
by `--solver bamboo` (the native constraint, its default search from the deferred
acceptance; the file form, with a capacity that disagrees with the file reported; and, every
other case, the constraint annotated `::gpu`: the GPU path where there is one, else one
warning and the CPU) and by
`--solver gecode -I minizinc/decomposition` (the decomposition). Then bad data (a negative
capacity, a pair listed twice, a hospital id out of range): the predicate's message, on both. The
brute force counts blocking pairs from the wording of Manlove, McBride & Trimble,
Constraints 22 (2017), Definition 1, independently of the C code.

    tests/mznlib/check_hrc.py --solver-path <build>/minizinc/solvers [--cases 40]

Exit 0 when every case passed, 77 (skipped) without minizinc or Gecode's solver."""
import argparse
import itertools
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
import mzn_setup  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DECOMPOSITION = os.path.join(ROOT, "minizinc", "decomposition")

# The data (Inst.dzn's) and the variables every model of the HRC checks declares.
DECLS = """int: nS; int: nC; int: nH; int: b; int: mode;
array[int, int] of int: rp; array[int] of int: rp_len;
array[int, int] of int: cp1; array[int, int] of int: cp2; array[int] of int: cp_len;
array[int, int] of int: hp; array[int] of int: hp_len;{rank_decl}
array[int] of int: cap;
array[b..b + nS - 1] of var int: singles;
array[b..b + nC - 1] of var int: couples;
var 0..100: bp;
"""

MODEL = """include "stable_matching_hrc.mzn";
""" + DECLS + """constraint stable_matching_hrc(singles, couples, bp, rp, rp_len, cp1, cp2, cp_len, hp, hp_len,{rank_arg}
                               array1d(b..b + nH - 1, cap));
{side}
{solve}
output ["S \\(singles) \\(couples) \\(bp)\\n"];
"""


class Inst:
    """Residents 0..nR-1: couple c = 2c, 2c+1; single i = 2nC + i. Ids 0-based here."""

    hrank = None  # the hospitals' ranks with ties, or None (strict); instances made field by field have none

    def __init__(self, rng, ties=False):
        self.nC = rng.choice([0, 1, 1, 2, 2])
        self.nS = rng.randint(0 if self.nC else 1, 3)
        self.nH = rng.randint(1, 3)
        self.nR = self.nS + 2 * self.nC
        self.cap = [1 if rng.random() < 0.7 else 2 for _ in range(self.nH)]
        self.slist = [rng.sample(range(self.nH), rng.randint(1, self.nH)) for _ in range(self.nS)]
        pairs = [(a, c) for a in range(self.nH) for c in range(self.nH)]
        self.clist = [rng.sample(pairs, rng.randint(1, min(4, len(pairs)))) for _ in range(self.nC)]
        self.hlist = []
        for _ in range(self.nH):
            rs = list(range(self.nR))
            rng.shuffle(rs)
            self.hlist.append([r for r in rs if rng.random() > 0.08])
        # ties on the hospitals' side: each entry tied with the one before it at random
        self.hrank = None
        if ties:
            self.hrank = []
            for row in self.hlist:
                ranks = []
                for k in range(len(row)):
                    ranks.append(0 if k == 0 else ranks[-1] + (0 if rng.random() < 0.5 else rng.randint(1, 3)))
                self.hrank.append(ranks)

    def rank(self, h, r):
        """Where h ranks r (tied residents equal), None if h does not list r: every comparison
        below is strict, so with ties this is weak stability."""
        if r not in self.hlist[h]:
            return None
        k = self.hlist[h].index(r)
        return self.hrank[h][k] if self.hrank else k

    def vars_domains(self):
        doms = []
        for i in range(self.nS):
            r = 2 * self.nC + i
            doms.append([k for k, h in enumerate(self.slist[i]) if self.rank(h, r) is not None] + [len(self.slist[i])])
        for c in range(self.nC):
            doms.append([k for k, (h1, h2) in enumerate(self.clist[c])
                         if self.rank(h1, 2 * c) is not None and self.rank(h2, 2 * c + 1) is not None]
                        + [len(self.clist[c])])
        return doms

    def matching(self, vals):
        M = [None] * self.nR
        for i in range(self.nS):
            if vals[i] < len(self.slist[i]):
                M[2 * self.nC + i] = self.slist[i][vals[i]]
        for c in range(self.nC):
            v = vals[self.nS + c]
            if v < len(self.clist[c]):
                M[2 * c], M[2 * c + 1] = self.clist[c][v]
        for h in range(self.nH):
            if sum(1 for x in M if x == h) > self.cap[h]:
                return None
        return M

    def wants(self, M, h, r, except_r=None):
        """h under-subscribed, or h prefers r to some member of M(h) other than except_r."""
        held = [s for s in range(self.nR) if M[s] == h]
        return len(held) < self.cap[h] or any(
            s != except_r and self.rank(h, r) < self.rank(h, s) for s in held)

    def blocking(self, M):
        n = 0
        for i in range(self.nS):
            r = 2 * self.nC + i
            cur = self.slist[i].index(M[r]) if M[r] is not None else len(self.slist[i])
            for h in self.slist[i][:cur]:
                if self.rank(h, r) is not None and self.wants(M, h, r):
                    n += 1
        for c in range(self.nC):
            r1, r2 = 2 * c, 2 * c + 1
            cur = self.clist[c].index((M[r1], M[r2])) if M[r1] is not None else len(self.clist[c])
            for hk, hl in self.clist[c][:cur]:
                if self.rank(hk, r1) is None or self.rank(hl, r2) is None:
                    continue
                if M[r1] is not None and hl == M[r2]:
                    blocks = self.wants(M, hk, r1, r2)
                elif M[r1] is not None and hk == M[r1]:
                    blocks = self.wants(M, hl, r2, r1)
                elif hk != hl:
                    blocks = self.wants(M, hk, r1) and self.wants(M, hl, r2)
                else:
                    held = [s for s in range(self.nR) if M[s] == hk]
                    free = self.cap[hk] - len(held)
                    worse1 = [s for s in held if self.rank(hk, r1) < self.rank(hk, s)]
                    worse2 = [s for s in held if self.rank(hk, r2) < self.rank(hk, s)]
                    blocks = free >= 2 or (free == 1 and bool(worse1 or worse2)) or (
                        free == 0 and any(s != t for s in worse1 for t in worse2))
                n += blocks
        return n

    def dzn(self, b, mode):
        def matrix(rows, width):
            width = max(width, 1)
            cells = [[x + b for x in row] + [b] * (width - len(row)) for row in rows]
            flat = ", ".join(str(x) for row in cells for x in row)
            return "array2d(%d..%d, %d..%d, [%s])" % (b, b + len(rows) - 1, b, b + width - 1, flat)
        out = ["nS = %d;" % self.nS, "nC = %d;" % self.nC, "nH = %d;" % self.nH, "b = %d;" % b, "mode = %d;" % mode]
        out.append("rp = %s;" % matrix(self.slist, max([len(x) for x in self.slist] + [1])))
        out.append("rp_len = %s;" % [len(x) for x in self.slist])
        w = max([len(x) for x in self.clist] + [1])
        out.append("cp1 = %s;" % matrix([[p[0] for p in x] for x in self.clist], w))
        out.append("cp2 = %s;" % matrix([[p[1] for p in x] for x in self.clist], w))
        out.append("cp_len = %s;" % [len(x) for x in self.clist])
        out.append("hp = %s;" % matrix(self.hlist, max(len(x) for x in self.hlist)))
        out.append("hp_len = %s;" % [len(x) for x in self.hlist])
        if self.hrank:
            out.append("hp_rank = %s;" % matrix(self.hrank, max(len(x) for x in self.hlist)))
        out.append("cap = %s;" % self.cap)
        return "\n".join(out) + "\n"


FILE_MODEL = """include "stable_matching_hrc_file.mzn";
""" + DECLS + """constraint stable_matching_hrc_file(singles, couples, bp, rp_len, cp_len, hp_len, {cap}, "{path}");
{side}
{solve}
output ["S \\(singles) \\(couples) \\(bp)\\n"];
"""


def model(inst, side, solve):
    """MODEL for inst: with hp_rank when it has ties."""
    ties = inst.hrank is not None
    return MODEL.format(side=side, solve=solve, rank_decl="\narray[int, int] of int: hp_rank;" if ties else "",
                        rank_arg=" hp_rank," if ties else "")


def hrc_text(inst):
    """The instance in bamboo-smp's HRC text format (0-based ids)."""
    lines = ["hrc %d %d %d" % (inst.nR, inst.nH, inst.nC)]
    for c in range(inst.nC):
        lines.append("%d %d: %s" % (2 * c, 2 * c + 1, " ".join("%d %d" % p for p in inst.clist[c])))
    for r in range(inst.nR):
        lines.append("-" if r < 2 * inst.nC else " ".join(str(h) for h in inst.slist[r - 2 * inst.nC]))
    for h in range(inst.nH):
        if inst.hrank is None:
            lines.append("%d: %s" % (inst.cap[h], " ".join(str(r) for r in inst.hlist[h])))
            continue
        groups = {}  # ties as bracketed groups, in rank order
        for r, q in zip(inst.hlist[h], inst.hrank[h]):
            groups.setdefault(q, []).append(str(r))
        lines.append("%d: %s" % (inst.cap[h], " ".join(g[0] if len(g) == 1 else "[%s]" % " ".join(g)
                                                         for _, g in sorted(groups.items()))))
    return "\n".join(lines) + "\n"


def side_constraint(inst, rng, b):
    """A side constraint in MiniZinc and the same as a Python filter over (vals, M)."""
    kind = rng.randrange(3)
    if kind == 0 and inst.nS:
        i = rng.randrange(inst.nS)
        v = rng.choice(inst.vars_domains()[i])
        return ("constraint singles[%d] != %d;" % (b + i, b + v), lambda vals, M: vals[i] != v)
    if kind == 1 and inst.nC:
        c, h = rng.randrange(inst.nC), rng.randrange(inst.nH)
        return ("constraint stable_matching_hrc_member_hospital(couples, cp1, cp2, cp_len, %d, 1) != %d;" % (b + c, b + h),
                lambda vals, M: M[2 * c] != h)
    h = rng.randrange(inst.nH)
    return ("constraint stable_matching_hrc_assigned(singles, couples, rp, rp_len, cp1, cp2, cp_len, %d) >= 1;" % (b + h),
            lambda vals, M: any(x == h for x in M))


def brute(inst, keep=lambda vals, M: True):
    out = {}
    for vals in itertools.product(*inst.vars_domains()):
        M = inst.matching(vals)
        if M is not None and keep(vals, M):
            out[tuple(vals)] = inst.blocking(M)
    return out


def run(args, env, solver, inst, b, side, solve, tmp, k, cap="cap"):
    mzn, dzn = os.path.join(tmp, "m%d.mzn" % k), os.path.join(tmp, "m%d.dzn" % k)
    with open(mzn, "w") as f:
        if solver == "bamboo-file":
            path = os.path.join(tmp, "m%d.hrc" % k)
            with open(path, "w") as g:
                g.write(hrc_text(inst))
            f.write(FILE_MODEL.format(side=side, solve=solve, path=path, cap=cap, rank_decl="\narray[int, int] of int: "
                                      "hp_rank;" if inst.hrank is not None else ""))
            solver = "bamboo"
        elif solver == "bamboo-gpu":
            f.write(model(inst, side, solve).replace("cap));", "cap)) :: gpu;"))
            solver = "bamboo"
        else:
            f.write(model(inst, side, solve))
    rc, rows, log = solve_model(args, env, solver, inst, b, mzn, dzn, solve)
    return rc, [(tuple(x - b for x in r[:-1]), r[-1]) for r in rows], log


def solve_model(args, env, solver, inst, b, mzn, dzn, solve):
    """minizinc on mzn with inst's data (base b) written to dzn, all solutions of a satisfaction
    problem: (return code, the numbers of each output line "S ...", stderr and stdout)."""
    with open(dzn, "w") as f:
        f.write(inst.dzn(b, 0))
    cmd = [args.minizinc, "--solver", solver]
    if solver == "gecode":
        cmd += ["-I", DECOMPOSITION]
    cmd += (["-a"] if "satisfy" in solve else []) + [mzn, dzn]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    rows = []
    for line in p.stdout.splitlines():
        if line.startswith("S "):
            rows.append([int(x) for x in line[2:].replace("[", " ").replace("]", " ").replace(",", " ").split()])
    return p.returncode, rows, p.stderr + p.stdout


def arguments(cases, seed):
    """The HRC checks' command line and MiniZinc set-up: (args, solvers, env, exit code or None)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=cases)
    ap.add_argument("--seed", type=int, default=seed)
    mzn_setup.add_arguments(ap)
    ap.add_argument("--solvers", default="bamboo,gecode")
    ap.add_argument("--ties", action="store_true", help="hospitals' lists with ties (weak stability)")
    args = ap.parse_args()
    solvers = args.solvers.split(",")
    env, code = mzn_setup.prepare(args, need=[s for s in solvers if s == "bamboo"],
                                  want=[s for s in solvers if s == "gecode"])
    return args, solvers, env, code


def main():
    args, solvers, env, code = arguments(cases=40, seed=2017)
    if code is not None:
        return code
    rng = random.Random(args.seed)
    failures, checks, unstable = 0, 0, 0
    tmp = tempfile.mkdtemp(prefix="hrc")
    k = 0
    for case in range(args.cases):
        inst = Inst(rng, args.ties)
        every = brute(inst)
        # every third case without a stable matching (rare at random): the minimum matters there
        for _ in range(300):
            if case % 3 or min(every.values()) > 0:
                break
            inst = Inst(rng, args.ties)
            every = brute(inst)
        b = rng.randint(0, 1)
        stable = sorted(v for v, n in every.items() if n == 0)
        best = min(every.values())
        near = sorted(v for v, n in every.items() if n <= best + 1)
        unstable += best > 0
        side, keep = side_constraint(inst, rng, b)
        side_set = sorted(v for v, n in brute(inst, keep).items() if n == 0)
        extra_solvers = ["bamboo-file"] + (["bamboo-gpu"] if case % 2 == 0 else [])
        for solver in solvers + (extra_solvers if "bamboo" in solvers else []):
            tests = [("stable", "constraint bp = 0;", "solve satisfy;", stable),
                     ("min", "", "solve minimize bp;", best),
                     ("near", "constraint bp <= %d;" % (best + 1), "solve satisfy;", near),
                     ("side", side + "\nconstraint bp = 0;", "solve satisfy;", side_set)]
            for name, extra, solve, want in tests:
                k += 1
                checks += 1
                rc, sols, log = run(args, env, solver, inst, b, extra, solve, tmp, k)
                if name == "min":
                    got = sols[-1][1] if sols else None
                    ok = rc == 0 and got == want and inst.blocking(inst.matching(sols[-1][0])) == want
                else:
                    got = sorted(s for s, _ in sols)
                    ok = rc == 0 and got == want and len(got) == len(set(got))
                if solver == "bamboo-gpu" and log.count("GPU path unavailable") > 1:
                    ok = False  # the fallback warns once per constraint
                if not ok:
                    failures += 1
                    print("case %d (%s, %s): got %s, brute force %s\n%s\n%s%s" % (
                        case, solver, name, got, want, inst.dzn(b, 0), extra, log[-2000:]))
        if "bamboo" in solvers and case % 4 == 0:  # a capacity that disagrees with the file
            k += 1
            checks += 1
            h = rng.randrange(inst.nH)
            wrong = "[%s]" % ", ".join(str(x + (1 if i == h else 0)) for i, x in enumerate(inst.cap))
            rc, sols, log = run(args, env, "bamboo-file", inst, b, "", "solve satisfy;", tmp, k, cap=wrong)
            want = "hospital %d's capacity is %d in the model" % (b + h, inst.cap[h] + 1)
            if rc == 0 or want not in log:
                failures += 1
                print("case %d: a wrong capacity was not reported (%r):\n%s" % (case, want, log[-2000:]))
    # bad data: MiniZinc stops at the user's call with the predicate's message (both libraries)
    bad = Inst(random.Random(5))
    while bad.nC == 0 or bad.nS == 0 or not bad.clist[0]:
        bad = Inst(rng)
    cases = []
    b1 = Inst.__new__(Inst)
    b1.__dict__ = dict(bad.__dict__, cap=[-1] + bad.cap[1:])
    cases.append((b1, "hospital 0 has capacity -1"))
    b2 = Inst.__new__(Inst)
    b2.__dict__ = dict(bad.__dict__, clist=[[bad.clist[0][0], bad.clist[0][0]]] + bad.clist[1:])
    cases.append((b2, "couple 0 lists the pair (%d, %d) twice" % bad.clist[0][0]))
    b3 = Inst.__new__(Inst)
    b3.__dict__ = dict(bad.__dict__, slist=[[bad.nH]] + bad.slist[1:])
    cases.append((b3, "which is not a hospital"))
    if args.ties:  # ranks that decrease along hospital 0's list
        while len(bad.hlist[0]) < 2:
            bad = Inst(rng)
        b4 = Inst.__new__(Inst)
        b4.__dict__ = dict(bad.__dict__, hrank=[[len(bad.hlist[0]) - k for k in range(len(bad.hlist[0]))]]
                           + [list(range(len(x))) for x in bad.hlist[1:]])
        cases.append((b4, "the ranks of hospital 0 decrease from"))
    for inst, want in cases:
        for solver in solvers:
            k += 1
            checks += 1
            rc, sols, log = run(args, env, solver, inst, 0, "", "solve satisfy;", tmp, k)
            if rc == 0 or want not in log:
                failures += 1
                print("bad data (%s): expected %r\n%s" % (solver, want, log[-1500:]))
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d checks, %d failed (%d instances without a stable matching)" % (checks, failures, unstable))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
