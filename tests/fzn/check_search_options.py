#!/usr/bin/env python3
"""fzn-bamboo's search engine options, against a brute force:

  relax_and_reconstruct(x, p[, init])  large neighbourhood search: after the first solution
           each restart keeps every x[i] at its last value with probability p %; the search
           is then incomplete (it ends at the time limit, no `==========`);
  -restart, -restart-scale, -restart-base, -nogoods, -nogoods-limit  fzn-gecode's options:
           restarted complete search still proves the optimum; bad values are usage errors;
  -c-d, -a-d  fzn-gecode's recomputation distances: the same solutions and nodes.

The model: minimise sum(c[i] x[i]) subject to sum(w[i] x[i]) >= W, x[i] in 0..4, searched
largest value first so that the first solution is far from the optimum (brute force: all
5^8 assignments). LNS with p = 100 can never leave the first solution; with p = 70 it
reaches the optimum. Restarts with -a on a satisfaction problem are dropped with a warning
(they would repeat the first solution without end).

    tests/fzn/check_search_options.py FZN_BAMBOO
"""
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile

N = 8


def instance(rng):
    c = [rng.randint(1, 20) for _ in range(N)]
    w = [rng.randint(1, 20) for _ in range(N)]
    return c, w, sum(w) * 2  # half the most sum(w x) can be


def optimum(c, w, W):
    best = None
    for x in itertools.product(range(5), repeat=N):
        if sum(a * b for a, b in zip(w, x)) >= W:
            v = sum(a * b for a, b in zip(c, x))
            best = v if best is None else min(best, v)
    return best


def model(c, w, W, annotations):
    xs = ", ".join("x%d" % i for i in range(N))
    lines = ["var 0..4: x%d :: output_var;" % i for i in range(N)]
    lines.append("var 0..10000: obj :: output_var;")
    lines.append("constraint int_lin_le([%s], [%s], %d);" % (", ".join(str(-v) for v in w), xs, -W))
    lines.append("constraint int_lin_eq([%s, -1], [%s, obj], 0);" % (", ".join(map(str, c)), xs))
    ann = "".join(" :: " + a.replace("X", "[%s]" % xs) for a in annotations)
    lines.append("solve :: int_search([%s], input_order, indomain_max, complete)%s minimize obj;" % (xs, ann))
    return "\n".join(lines) + "\n"


class Checker:
    def __init__(self, fzn_bamboo):
        self.bin = fzn_bamboo
        self.tmp = tempfile.mkdtemp(prefix="bamboo-search-options-")
        self.count = 0
        self.failures = 0

    def run(self, text, flags):
        self.count += 1
        path = os.path.join(self.tmp, "m%d.fzn" % self.count)
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([self.bin] + flags + [path], capture_output=True, text=True, timeout=60)
        return p, path

    def fail(self, what, p=None):
        self.failures += 1
        print("FAIL: %s" % what)
        if p is not None:
            print(p.stdout[-2000:], p.stderr[-2000:])


def objectives(out, c, w, W):
    """The objectives of the solutions printed, each checked against the constraints."""
    found = []
    for block in out.split("----------")[:-1]:
        vals = {k: int(v) for k, v in re.findall(r"(\w+) = (-?\d+);", block)}
        x = [vals["x%d" % i] for i in range(N)]
        if sum(a * b for a, b in zip(w, x)) < W or sum(a * b for a, b in zip(c, x)) != vals["obj"]:
            raise ValueError("a solution breaks the model: %s" % vals)
        found.append(vals["obj"])
    return found


def nodes(out):
    found = re.findall(r"%%%mzn-stat: nodes=(\d+)", out)
    return int(found[-1]) if found else None


def restarts(err_out):
    m = re.search(r"%%%mzn-stat: restarts=(\d+)", err_out)
    return int(m.group(1)) if m else -1


def main():
    fzn = sys.argv[1]
    ck = Checker(fzn)
    rng = random.Random(7)
    cases = 0
    while cases < 3:
        c, w, W = instance(rng)
        best = optimum(c, w, W)
        plain, _ = ck.run(model(c, w, W, []), ["-a"])
        first = objectives(plain.stdout, c, w, W)
        if len(first) < 2:
            continue  # the first solution is optimal: LNS cannot be told apart from none
        cases += 1
        if first[-1] != best or "==========" not in plain.stdout:
            ck.fail("complete search: %s, optimum %d" % (first, best), plain)
        # LNS that fixes everything never leaves the first solution; restarts still happen.
        for extra in ([], ["-f"]):
            p, _ = ck.run(model(c, w, W, ["relax_and_reconstruct(X, 100)", "restart_constant(20)"]),
                          ["-a", "-s", "-t", "700"] + extra)
            got = objectives(p.stdout, c, w, W)
            want = first[:1] if not extra else got[:1]  # -f: the default search's first solution
            if len(got) != 1 or got != want or "==========" in p.stdout or restarts(p.stdout + p.stderr) <= 0:
                ck.fail("LNS 100%% %s: %s (first %d), restarts %d" % (extra, got, first[0],
                                                                     restarts(p.stdout + p.stderr)), p)
        # LNS that frees a third reaches the optimum but proves nothing.
        p, _ = ck.run(model(c, w, W, ["relax_and_reconstruct(X, 70)", "restart_constant(20)"]),
                      ["-a", "-t", "1500", "-r", "3"])
        got = objectives(p.stdout, c, w, W)
        if not got or got[-1] != best or any(a <= b for a, b in zip(got, got[1:])) or "==========" in p.stdout:
            ck.fail("LNS 70%%: %s, optimum %d" % (got, best), p)
        # An initial solution stands for the last one before the first is found: with 100 %
        # and the search's own first solution, the same picture; the count is checked.
        p, _ = ck.run(model(c, w, W, ["relax_and_reconstruct(X, 50, [4, 4, 4, 4, 4, 4, 4, 4])"]), ["-t", "500"])
        got = objectives(p.stdout, c, w, W)
        if len(got) != 1 or got[0] != best or "==========" in p.stdout:
            ck.fail("LNS with initial values: %s, optimum %d" % (got, best), p)
        # Restarted complete search: the optimum, proved, with and without no-goods.
        for flags in (["-restart", "luby", "-restart-scale", "5"], ["-restart", "geometric", "-restart-base", "2"],
                      ["-restart", "constant", "-restart-scale", "3", "-nogoods"],
                      ["-restart", "linear", "-nogoods", "true", "-nogoods-limit", "16"]):
            p, _ = ck.run(model(c, w, W, []), flags + ["-s"])
            got = objectives(p.stdout, c, w, W)
            if got[-1:] != [best] or "==========" not in p.stdout or restarts(p.stdout + p.stderr) <= 0:
                ck.fail("%s: %s, optimum %d, restarts %d" % (" ".join(flags), got, best,
                                                          restarts(p.stdout + p.stderr)), p)
        # Recomputation distances change which spaces are copied, not the search: the same
        # solutions in the same order and the same nodes.
        base, _ = ck.run(model(c, w, W, []), ["-a", "-s"])
        for flags in (["-c-d", "1"], ["-c-d", "1000", "-a-d", "1000"], ["-a-d", "1"]):
            p, _ = ck.run(model(c, w, W, []), ["-a", "-s"] + flags)
            if (objectives(p.stdout, c, w, W) != objectives(base.stdout, c, w, W)
                    or nodes(p.stdout) != nodes(base.stdout) or "==========" not in p.stdout):
                ck.fail("%s: %s in %s nodes, without it %s in %s" % (
                    " ".join(flags), objectives(p.stdout, c, w, W), nodes(p.stdout),
                    objectives(base.stdout, c, w, W), nodes(base.stdout)), p)
        # The command line takes precedence over the model's restart annotation.
        p, _ = ck.run(model(c, w, W, ["restart_constant(1)"]), ["-restart", "none", "-s"])
        if restarts(p.stdout + p.stderr) != 0 or objectives(p.stdout, c, w, W)[-1:] != [best]:
            ck.fail("-restart none over restart_constant(1)", p)

    # Model errors at the FlatZinc line; usage errors exit 2.
    c, w, W = instance(rng)
    for ann, text in (("relax_and_reconstruct(X, 101)", "percentage 101 is outside 0..100"),
                      ("relax_and_reconstruct(X, 50, [1, 2])", "2 initial values for 8 variables"),
                      ("relax_and_reconstruct(X)", "expected (variables, percentage)")):
        p, path = ck.run(model(c, w, W, [ann]), [])
        if p.returncode != 1 or "%s:%d:" % (os.path.basename(path), N + 4) not in p.stderr or text not in p.stderr:
            ck.fail("%s: exit %d, expected 1 and '%s' at line %d" % (ann, p.returncode, text, N + 4), p)
    for flags, text in ((["-restart", "bogus"], "bad value 'bogus' for -restart"),
                        (["-restart-base", "1"], "bad value '1' for -restart-base"),
                        (["-restart-scale", "0"], "bad value '0' for -restart-scale"),
                        (["-nogoods-limit", "x"], "bad value 'x' for -nogoods-limit"),
                        (["-c-d", "0"], "bad value '0' for -c-d"),
                        (["-a-d", "-2"], "bad value '-2' for -a-d"),
                        (["-c-d"], "-c-d needs a value"),
                        (["-restart"], "-restart needs a value")):
        p = subprocess.run([fzn] + flags, capture_output=True, text=True, timeout=60)
        if p.returncode != 2 or text not in p.stderr:
            ck.fail("%s: exit %d, expected 2 and '%s'" % (" ".join(flags), p.returncode, text), p)

    # Satisfaction: LNS is ignored with a warning; -a with restarts enumerates each solution once.
    sat = ("var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\nconstraint int_lt(x, y);\n"
           "solve :: relax_and_reconstruct([x, y], 50) :: restart_constant(10) satisfy;\n")
    p, _ = ck.run(sat, ["-a"])
    if (p.returncode != 0 or p.stdout.count("----------") != 3 or "==========" not in p.stdout
            or "relax_and_reconstruct needs an objective" not in p.stderr
            or "restarts are ignored when enumerating solutions" not in p.stderr):
        ck.fail("satisfaction with LNS and restarts, -a", p)
    print("%d runs, %d failures" % (ck.count, ck.failures))
    return 1 if ck.failures else 0


if __name__ == "__main__":
    sys.exit(main())
