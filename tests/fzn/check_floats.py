#!/usr/bin/env python3
"""Justifies the float golden files (tests/fzn/floats/NAME.fzn + NAME.expected) without
fzn-bamboo or Gecode: each expected solution is substituted into the model and every
constraint is evaluated with Python's math library, within a tolerance (1e-12 relative: the printed values
have 15 significant digits; `% float-tolerance: T` widens it, for a float_search
precision). Every variable of these files is an output variable, so nothing is left
unknown. `% float-optimum: V` checks the last solution's objective against an optimum
worked out by hand. The files use builtins that fzn-gecode lacks (the hyperbolic functions,
float_pow, float_lin_lt/ne, float_dom, float_in...), which is why they are not in the
cross-checked corpus.

Run with --fzn-bamboo to also check that fzn-bamboo prints the expected output (the
golden test proper; ctest runs run_golden.sh on tests/fzn/floats for that).

    tests/fzn/check_floats.py [--fzn-bamboo PATH] [FILE.fzn ...]"""
import argparse
import glob
import math
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fzn_solutions  # noqa: E402


class Model:
    def __init__(self, text):
        self.domains, self.params, self.arrays, self.constraints = {}, {}, {}, []
        self.solve = None
        for line in text.splitlines():
            line = line.split("%", 1)[0].strip()
            if not line:
                continue
            m = re.match(r"var\s+(.+?):\s*(\w+)\s*(::[^=;]*)?;$", line)
            if m:
                self.domains[m.group(2)] = self.domain(m.group(1))
                continue
            m = re.match(r"array\s*\[[^\]]*\]\s*of\s+(var\s+)?[\w.]+\s*:\s*(\w+)\s*(::[^=]*)?=\s*(.*);$", line)
            if m:
                self.arrays[m.group(2)] = m.group(4)
                continue
            m = re.match(r"(float|int|bool)\s*:\s*(\w+)\s*=\s*(.*);$", line)
            if m:
                self.params[m.group(2)] = m.group(3)
                continue
            m = re.match(r"constraint\s+(\w+)\((.*)\)\s*(::.*)?;$", line)
            if m:
                self.constraints.append((m.group(1), fzn_solutions._split_top(m.group(2))))
                continue
            m = re.match(r"solve\b.*\b(satisfy|minimize|maximize)\s*(\w*)\s*;$", line)
            if m:
                self.solve = (m.group(1), m.group(2))
                continue
            raise SystemExit("cannot read: %s" % line)

    @staticmethod
    def domain(text):
        m = re.fullmatch(r"(-?[\d.eE+-]+)\s*\.\.\s*(-?[\d.eE+-]+)", text.strip())
        return (float(m.group(1)), float(m.group(2))) if m else (-math.inf, math.inf)


def value(expr, model, sol):
    expr = expr.strip()
    if expr.startswith("["):
        return [value(e, model, sol) for e in fzn_solutions._split_top(expr[1:-1])]
    if expr in ("true", "false"):
        return expr == "true"
    if re.fullmatch(r"-?\d+", expr):
        return int(expr)
    if re.fullmatch(r"-?[\d.]+([eE][-+]?\d+)?", expr):
        return float(expr)
    if expr in sol:
        return sol[expr]
    if expr in model.params:
        return value(model.params[expr], model, sol)
    if expr in model.arrays:
        return value(model.arrays[expr], model, sol)
    raise SystemExit("unknown name %s" % expr)


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def holds(name, args, tol):
    """Whether constraint `name` holds on the evaluated arguments."""
    lin = lambda a, x: sum(ai * xi for ai, xi in zip(a, x))  # noqa: E731
    rel = {"eq": lambda a, b: close(a, b, tol), "ne": lambda a, b: not close(a, b, tol) or a != b,
           "le": lambda a, b: a <= b or close(a, b, tol), "lt": lambda a, b: a < b}
    m = re.fullmatch(r"float_lin_(eq|ne|le|lt)(_reif|_imp)?", name)
    if m:
        # compared relative to the terms' size, which cancellation does not shrink
        scale = max(1.0, abs(args[2]), sum(abs(ai * xi) for ai, xi in zip(args[0], args[1])))
        lhs = args[2] + (lin(args[0], args[1]) - args[2]) / scale
        truth = rel[m.group(1)](lhs, args[2])
        return reified(truth, m.group(2), args[3] if m.group(2) else None)
    m = re.fullmatch(r"float_(eq|ne|le|lt)(_reif|_imp)?", name)
    if m:
        return reified(rel[m.group(1)](args[0], args[1]), m.group(2), args[2] if m.group(2) else None)
    m = re.fullmatch(r"float_in(_reif|_imp)?", name)
    if m:
        x, lo, hi = args[:3]
        return reified(lo - tol <= x <= hi + tol, m.group(1), args[3] if m.group(1) else None)
    if name == "float_dom":
        b = args[1]
        return any(b[k] - tol <= args[0] <= b[k + 1] + tol for k in range(0, len(b), 2))
    fns = {"abs": abs, "sqrt": math.sqrt, "exp": math.exp, "ln": math.log, "log10": math.log10,
           "log2": math.log2, "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin,
           "acos": math.acos, "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh,
           "tanh": math.tanh, "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh}
    m = re.fullmatch(r"float_(\w+)", name)
    if m and m.group(1) in fns:
        return close(fns[m.group(1)](args[0]), args[1], tol)
    ops = {"plus": lambda a, b: a + b, "times": lambda a, b: a * b, "div": lambda a, b: a / b,
           "min": min, "max": max, "pow": lambda a, b: a ** b}
    if m and m.group(1) in ops:
        return close(ops[m.group(1)](args[0], args[1]), args[2], tol)
    if name == "int2float":
        return float(args[0]) == args[1]
    if name in ("array_float_element", "array_var_float_element"):
        return 1 <= args[0] <= len(args[1]) and close(args[1][args[0] - 1], args[2], tol)
    if name in ("array_float_maximum", "array_float_minimum"):
        return close((max if "maximum" in name else min)(args[1]), args[0], tol)
    raise SystemExit("no checker for %s" % name)


def reified(truth, mode, b):
    if mode is None:
        return truth
    return truth == b if mode == "_reif" else (not b or truth)


def header(text, key):
    m = re.search(r"^%% %s:\s*(\S+)" % key, text, re.M)
    return m.group(1) if m else None


def check(path, fzn_bamboo):
    with open(path) as f:
        text = f.read()
    with open(path[:-4] + ".expected") as f:
        expected = f.read()
    problems = []
    if fzn_bamboo:
        args = text.splitlines()[0][len("% args:"):].split()
        r = subprocess.run([fzn_bamboo] + args + [path], capture_output=True, text=True, timeout=60)
        if r.stdout != expected:
            problems.append("fzn-bamboo prints something else than the .expected file")
    model = Model(text)
    tol = float(header(text, "float-tolerance") or 1e-12)
    sols, status = fzn_solutions.parse(expected)
    if not sols:
        problems.append("no solution in the .expected file")
    for k, s in enumerate(sols):
        sol = {n: value(v, model, {}) for n, v in s.items()}
        for n, (lo, hi) in model.domains.items():
            if n not in sol:
                problems.append("solution %d: %s is not printed" % (k + 1, n))
            elif not lo - tol <= sol[n] <= hi + tol:
                problems.append("solution %d: %s = %r outside %g..%g" % (k + 1, n, sol[n], lo, hi))
        for name, args in model.constraints:
            if not holds(name, [value(a, model, sol) for a in args], tol):
                problems.append("solution %d violates %s(%s)" % (k + 1, name, ", ".join(args)))
    opt = header(text, "float-optimum")
    if opt is not None and sols:
        obj = value(sols[-1][model.solve[1]], model, {})
        if not close(obj, float(opt), tol):
            problems.append("objective %r, the optimum is %s" % (obj, opt))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fzn-bamboo")
    ap.add_argument("files", nargs="*")
    opts = ap.parse_args()
    files = opts.files or sorted(glob.glob(os.path.join(HERE, "floats", "*.fzn")))
    failures = 0
    for path in files:
        problems = check(path, opts.fzn_bamboo)
        print("%s %s%s" % ("FAIL" if problems else "ok  ", os.path.basename(path),
                           "".join("\n     " + p for p in problems)))
        failures += bool(problems)
    print("%d float files, %d failed" % (len(files), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
