#!/usr/bin/env python3
"""Run MiniZinc's own spec test suite (libminizinc tests/spec) on one solver.

Judges each case the way libminizinc's pytest harness (tests/conftest.py,
tests/minizinc_testing/spec.py) and minizinc-python do, without either installed:
the same minizinc command line (--json-stream, --output-mode json,
--intermediate-solutions, ...), the same decoding of solutions, the same
comparison of expected and obtained results, check_against and non-strict
suites. See tests/spec/README.md for what differs and why.

    run_spec.py --suite DIR --solver bamboo --solver-path build/minizinc/solvers \
                --json bamboo.json --out bamboo.md
    run_spec.py --report bamboo.json gecode.json --out results.md

Needs PyYAML (Debian python3-yaml): the test descriptions are YAML with tags.
"""

import argparse
import concurrent.futures
import datetime
import fnmatch
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

try:
    import yaml
except ImportError:
    sys.exit("run_spec.py needs PyYAML: apt-get install -y python3-yaml (or pip install pyyaml)")

# Solvers the suite names; one we run stands for one of them (--as).
SUITE_SOLVERS = ("gecode", "chuffed", "cbc", "gurobi", "scip")


class Undefined:
    pass


# ---------------------------------------------------------------- YAML tags


class Tagged:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class Test(Tagged):
    def __init__(self, **kw):
        self.name = Undefined
        self.solvers = ["gecode", "cbc", "chuffed"]
        self.check_against = []
        self.expected = []
        self.options = {}
        self.extra_files = []
        self.type = "solve"
        super().__init__(**kw)


class Result(Tagged):
    def __init__(self, **kw):
        self.status = Undefined
        self.solution = Undefined
        super().__init__(**kw)


class Error(Tagged):
    def __init__(self, **kw):
        self.type = Undefined
        self.message = Undefined
        self.regex = Undefined
        super().__init__(**kw)


class Suite(Tagged):
    def __init__(self, **kw):
        self.solvers = None
        self.options = {}
        self.strict = True
        self.includes = ["*"]
        self.excludes = []
        super().__init__(**kw)


class Solution:
    """Satisfied when each of its entries equals the obtained one (extra entries ignored)."""

    def __init__(self, **kw):
        self.inner = dict(kw)

    def is_satisfied(self, other):
        try:
            return all(k in other.inner and v == other.inner[k] for k, v in self.inner.items())
        except AttributeError:
            return False


class SolutionSet:
    """Satisfied when every obtained solution matches one of its entries."""

    def __init__(self, *items):
        self.items = items

    def is_satisfied(self, other):
        try:
            return all(any(i.is_satisfied(o) for i in self.items) for o in other)
        except TypeError:  # a single solution where a list was expected, as in the suite
            return False


class Unordered:
    def __init__(self, *items):
        self.items = items

    def __eq__(self, other):
        items = list(self.items)
        try:
            for x in other:
                items.remove(x)
            return True
        except (ValueError, TypeError):
            return False


class Approx:
    def __init__(self, value, threshold=0.000001):
        self.value = float(value)
        self.threshold = threshold

    def __eq__(self, other):
        try:
            return abs(float(other) - self.value) <= self.threshold
        except (TypeError, ValueError):
            return False


class Trim:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, str) and self.value.strip() == other.strip()


class ExpectedFile:
    """!FlatZinc / !OutputModel: a file beside the .mzn to compare with what -c writes."""

    def __init__(self, kind, path):
        self.kind, self.path = kind, path


class Loader(yaml.SafeLoader):
    pass


def _mapping(cls):
    def construct(loader, node):
        try:
            return cls(**loader.construct_mapping(node, deep=True))
        except yaml.constructor.ConstructorError:
            return cls()
    return construct


def _sequence(cls):
    def construct(loader, node):
        try:
            return cls(*loader.construct_sequence(node, deep=True))
        except yaml.constructor.ConstructorError:
            return cls()
    return construct


def _range(loader, node):
    lo, hi = loader.construct_scalar(node).split("..")
    return range(int(lo), int(hi) + 1)


def _duration(loader, node):
    v = loader.construct_scalar(node)
    for suffix, scale in (("us", 1e-6), ("ms", 1e-3), ("s", 1.0)):
        if v.endswith(suffix):
            return datetime.timedelta(seconds=float(v[: -len(suffix)]) * scale)
    return None


for _tag, _cls in (("!Test", Test), ("!Result", Result), ("!Error", Error), ("!Suite", Suite),
                   ("!Solution", Solution)):
    Loader.add_constructor(_tag, _mapping(_cls))
for _tag, _cls in (("!SolutionSet", SolutionSet), ("!Unordered", Unordered)):
    Loader.add_constructor(_tag, _sequence(_cls))
Loader.add_constructor("!Range", _range)
Loader.add_constructor("!Duration", _duration)
Loader.add_constructor("!Approx", lambda l, n: Approx(l.construct_scalar(n)))
Loader.add_constructor("!Trim", lambda l, n: Trim(l.construct_scalar(n)))
Loader.add_constructor("!FlatZinc", lambda l, n: ExpectedFile("fzn", l.construct_scalar(n)))
Loader.add_constructor("!OutputModel", lambda l, n: ExpectedFile("ozn", l.construct_scalar(n)))


# ---------------------------------------------------------- running minizinc


class Obtained:
    """What minizinc-python's solve() returns: a status and one solution or a list."""

    def __init__(self, status, solution):
        self.status, self.solution = status, solution


class MznError:
    """A MiniZincError: its class name (and its base's) and message."""

    def __init__(self, types, message):
        self.types, self.message = types, message


class Timeout:
    pass


STREAM_ERRORS = {"syntax error": ["SyntaxError"], "type error": ["TypeError"],
                 "include error": ["IncludeError"], "cyclic include error": ["CyclicIncludeError"],
                 "evaluation error": ["EvaluationError"],
                 "assertion failed": ["AssertionError", "EvaluationError"]}


def error_from_stderr(stderr):
    types = ["MiniZincError"]
    if "MiniZinc: evaluation error:" in stderr:
        types = (["AssertionError", "EvaluationError"] if "Assertion failed:" in stderr
                 else ["EvaluationError"])
    elif "MiniZinc: type error:" in stderr:
        types = ["TypeError"]
    elif "Error: syntax error" in stderr:
        types = ["SyntaxError"]
    message = stderr.strip() or ("MiniZinc stopped with a non-zero exit code, but did not "
                                 "output an error message. ")
    return MznError(types + ["MiniZincError"], message)


def decode_value(obj):
    """minizinc-python's MZNJSONDecoder object hook: sets, ranges, enums."""
    if len(obj) == 1 and "set" in obj:
        items = obj["set"]
        if len(items) == 1 and isinstance(items[0], list):
            return range(items[0][0], items[0][1] + 1)
        out = []
        for item in items:
            if isinstance(item, list):
                out.extend(range(item[0], item[1] + 1))
            elif isinstance(item, dict):
                out.append(item.get("e", item))
            else:
                out.append(item)
        return set(out)
    if "e" in obj and len(obj) == 1:
        return obj["e"]
    return obj


class Stopped(Exception):
    """Raised by Runner.minizinc once Runner.stop() has been called."""


def kill_group(proc):
    """SIGKILL to the process group that proc leads (started with start_new_session): minizinc
    and the solver it started. Killing minizinc alone leaves the solver running as an orphan
    (an fzn-bamboo ran on for 50 minutes). Only while proc is not reaped: until then its pid,
    the group's id, cannot be reused."""
    if proc.returncode is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Runner:
    def __init__(self, args):
        self.args = args
        self.env = dict(os.environ)
        if args.solver_path:
            old = self.env.get("MZN_SOLVER_PATH")
            self.env["MZN_SOLVER_PATH"] = os.path.abspath(args.solver_path) + (":" + old if old else "")
        self.available = {}
        self.lock = threading.Lock()
        self.running = set()  # the minizinc processes of all threads, each leading its group
        self.stopped = False

    def minizinc(self, solver, argv, cwd, timeout):
        """(exit status, stdout, stderr), or None past the timeout. minizinc runs in a
        session of its own, so that a timeout or stop() kills its whole process group,
        the solver included (and a Ctrl-C in the terminal reaches this script only)."""
        cmd = [self.args.minizinc, "--solver", solver, "--allow-multiple-assignments"] + argv
        with self.lock:
            if self.stopped:
                raise Stopped()
            p = subprocess.Popen(cmd, cwd=cwd, env=self.env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=True)
            self.running.add(p)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(p)
            p.communicate()
            return None
        except BaseException:  # an interrupt while this thread waits (the main thread's runs)
            kill_group(p)
            p.communicate()
            raise
        finally:
            with self.lock:
                self.running.discard(p)
        if self.stopped:
            raise Stopped()
        return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")

    def stop(self):
        """Kills every minizinc running now with its solver, and makes later calls raise
        Stopped: on an interrupt or a termination signal."""
        with self.lock:
            self.stopped = True
            for p in self.running:
                kill_group(p)

    def solver_exists(self, solver):
        if solver not in self.available:
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "empty.mzn")
                with open(path, "w") as f:
                    f.write("solve satisfy;\n")
                r = self.minizinc(solver, [path], d, 60)
            self.available[solver] = r is not None and r[0] == 0
        return self.available[solver]

    @staticmethod
    def option_flags(options):
        """minizinc-python's solve(**options) as minizinc flags; returns (flags, multiple)."""
        flags, multiple = [], False
        for key, value in options.items():
            if key == "all_solutions":
                if value:
                    flags.append("--all-solutions")
                    multiple = True
            elif key == "intermediate_solutions":
                multiple = multiple or bool(value)
            elif key == "nr_solutions":
                flags += ["--num-solutions", str(value)]
                multiple = True
            elif key == "timeout":
                flags += ["--time-limit", str(int(value.total_seconds() * 1000))]
            elif key == "free_search":
                if value:
                    flags.append("--free-search")
            elif key == "optimisation_level":
                flags += ["-O", str(value)]
            else:
                flag = key if key.startswith("-") else "--" + key
                if isinstance(value, bool):
                    if value:
                        flags.append(flag)
                else:
                    flags += [flag, str(value)]
        return flags, multiple

    def solve(self, solver, files, options, cwd, timeout):
        flags, multiple = self.option_flags(options)
        argv = ["--output-mode", "json", "--output-time", "--output-objective",
                "--output-output-item", "--statistics", "--intermediate-solutions"]
        argv += flags + files + ["--json-stream"]
        r = self.minizinc(solver, argv, cwd, timeout)
        if r is None:
            return Timeout()
        code, out, err = r
        status, solutions, checker = "UNKNOWN", [], None
        for line in out.splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line, object_hook=decode_value)
            except ValueError:
                continue
            kind = obj.get("type")
            if kind == "error" and obj.get("what") != "warning":
                types = STREAM_ERRORS.get(obj.get("what"), [])
                msg = obj.get("message") or " includes ".join(obj.get("cycle", [])) or \
                    "MiniZinc stopped with a non-zero exit code, but did not output an error message. "
                return MznError(types + ["MiniZincError"], msg)
            if kind == "status":
                st = obj["status"]
                status = {"UNSAT_OR_UNBOUNDED": "UNBOUNDED"}.get(st, st)
            elif kind == "checker":
                out_ = obj.get("output", {})
                checker = out_.get("raw", out_.get("dzn"))
            elif kind == "solution":
                sol = dict(obj["output"].get("json", {}))
                if "_objective" in sol:
                    sol["objective"] = sol.pop("_objective")
                if "_output" in sol:
                    sol["_output_item"] = sol.pop("_output")
                if checker is not None:
                    sol["_checker"], checker = checker, None
                if status == "UNKNOWN":
                    status = "SATISFIED"
                solutions.append(Solution(**sol))
        if code != 0 or status == "ERROR":
            return error_from_stderr(err)
        if multiple:
            return Obtained(status, solutions)
        return Obtained(status, solutions[-1] if solutions else None)

    def compile(self, solver, files, options, cwd, timeout, kind):
        flags, _ = self.option_flags(options)
        with tempfile.TemporaryDirectory() as d:
            fzn, ozn = os.path.join(d, "out.fzn"), os.path.join(d, "out.ozn")
            for name in (fzn, ozn):  # minizinc-python's temporary files exist from the start
                open(name, "w").close()
            # --output-paths-to-file: bamboo.msc asks for the paths file, which -c would
            # otherwise write beside the suite's model.
            argv = ["--compile", "--statistics", "--fzn", fzn, "--ozn", ozn,
                    "--output-paths-to-file", os.path.join(d, "out.paths")] + flags + files
            r = self.minizinc(solver, argv + ["--json-stream"], cwd, timeout)
            if r is None:
                return Timeout()
            code, out, err = r
            if code != 0:
                for line in out.splitlines():
                    try:
                        obj = json.loads(line)
                    except ValueError:
                        continue
                    if obj.get("type") == "error" and obj.get("what") != "warning":
                        return MznError(STREAM_ERRORS.get(obj.get("what"), []) + ["MiniZincError"],
                                        obj.get("message", ""))
                return error_from_stderr(err)
            with open(fzn if kind == "fzn" else ozn, encoding="utf-8") as f:
                return (kind, f.read())

    def check_solution(self, checker, files, solution, status, cwd):
        """minizinc-python's check_solution: re-solve with the solution as data."""
        data = {k: v for k, v in solution.inner.items() if k not in ("objective", "__output_item")}

        def encode(o):
            if isinstance(o, (set, range)):
                return {"set": list(o)}
            raise TypeError(repr(o))
        with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="mzn_data", delete=False) as f:
            json.dump(data, f, default=encode)
            path = f.name
        try:
            check = self.solve(checker, files + [path], {"timeout": datetime.timedelta(seconds=5)},
                               cwd, 60)
        finally:
            os.unlink(path)
        if isinstance(check, Timeout):
            return status == "ERROR", "{} timed out".format(checker)
        if isinstance(check, MznError):
            return status == "ERROR", "{} failed: {}".format(checker, short_reason(check.message))
        if check.status == status:
            return True, ""
        ok = check.status in ("SATISFIED", "OPTIMAL_SOLUTION") and \
            status in ("SATISFIED", "OPTIMAL_SOLUTION", "ALL_SOLUTIONS")
        return ok, "" if ok else "{} says {}".format(checker, check.status)

    def check_result(self, checker, files, obtained, cwd):
        """(accepted, why not): the last solution checked as helpers.check_result does."""
        sols = obtained.solution if isinstance(obtained.solution, list) else [obtained.solution]
        return self.check_solution(checker, files, sols[-1], obtained.status, cwd)


# ------------------------------------------------------------------ judging


def normalized_fzn(text):
    # A solver that asks for the paths file (bamboo.msc) gets every item's origin as an
    # mzn_path annotation too; the suite's files are written without.
    text = re.sub(r':: mzn_path\("[^"]*"\)', "", text)
    nums = sorted(set(int(x) for x in re.findall(r"X_INTRODUCED_(\d+)_", text)))
    for new, old in enumerate(nums):
        text = text.replace("X_INTRODUCED_{}_".format(old), "X_INTRODUCED_{}_".format(new))
    lines = [re.sub(r"  +", " ", ln) for ln in text.split("\n") if ln.strip()]
    return "\n".join(sorted(lines))


def expected_matches(exp, got, base):
    if isinstance(exp, Result):
        if not isinstance(got, Obtained):
            return False
        if exp.status is not Undefined and got.status != exp.status:
            return False
        if exp.solution is not Undefined and exp.solution is not None:
            if isinstance(exp.solution, list):
                return (isinstance(got.solution, list) and len(exp.solution) == len(got.solution)
                        and all(x.is_satisfied(y) for x, y in zip(exp.solution, got.solution)))
            return exp.solution.is_satisfied(got.solution)
        return True
    if isinstance(exp, Error):
        if not isinstance(got, MznError):
            return False
        if exp.type is not Undefined and exp.type not in got.types:
            return False
        if exp.message is not Undefined:
            return exp.message == got.message
        if exp.regex is not Undefined:
            return re.match(exp.regex, got.message, flags=re.M | re.S) is not None
        return True
    if isinstance(exp, ExpectedFile):
        if not (isinstance(got, tuple) and got[0] == exp.kind):
            return False
        with open(os.path.join(base, exp.path), encoding="utf-8") as f:
            want = f.read()
        if exp.kind == "fzn":
            return normalized_fzn(want) == normalized_fzn(got[1])
        return want == got[1]
    return False


def short_reason(message):
    """One line of an error message that says what went wrong: the solver's own complaint,
    else the first line that is not a warning."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    for ln in lines:
        if re.search(r"fzn-bamboo|not supported", ln):
            return ln[:200]
    for ln in lines:
        if not re.match(r"(Warning|In |  in |File fragment)", ln):
            return ln[:200]
    return (lines[0] if lines else "no message")[:200]


def describe(got):
    if isinstance(got, Obtained):
        sols = got.solution if isinstance(got.solution, list) else [got.solution]
        sols = [s for s in sols if s is not None]
        shown = []
        for s in sols[:3]:
            shown.append(", ".join("{}={}".format(k, v) for k, v in s.inner.items()
                                   if k not in ("_output_item", "_checker"))[:120])
        more = " (+{} more)".format(len(sols) - 3) if len(sols) > 3 else ""
        return "{}, {} solution(s): {}{}".format(got.status, len(sols), " | ".join(shown), more)
    if isinstance(got, MznError):
        return "{}: {}".format(got.types[0], short_reason(got.message))
    if isinstance(got, tuple):
        return "compiled {} differs".format(got[0])
    return "?"


def run_case(runner, case):
    """Returns (verdict, detail)."""
    a = runner.args
    test, path = case["test"], case["path"]
    base = os.path.dirname(path)
    files = [path] + [os.path.join(base, x) for x in (test.extra_files or [])]
    options = dict(case["suite"].options or {})
    options.update(test.options or {})
    t0 = time.time()
    if test.type == "solve":
        got = runner.solve(a.solver, files, options, case["cwd"], a.timeout)
    elif test.type in ("compile", "output-model"):
        got = runner.compile(a.solver, files, options, case["cwd"], a.timeout,
                             "fzn" if test.type == "compile" else "ozn")
    else:
        return "error", "unknown test type " + str(test.type), 0.0
    elapsed = time.time() - t0
    if isinstance(got, Timeout):
        return "timeout", "no answer in {} s".format(a.timeout), elapsed
    expected = test.expected if isinstance(test.expected, list) else [test.expected]
    try:
        passed = any(expected_matches(e, got, base) for e in expected)
    except Exception as e:  # a comparison the suite's own code would crash on
        passed, note = False, "comparison raised {}".format(e)
    else:
        note = ""
    if passed:
        for checker in test.check_against or []:
            name = a.checkers[0] if checker == a.as_solver else checker
            if not runner.solver_exists(name):
                continue
            if isinstance(got, Obtained) and got.status in ("SATISFIED", "ALL_SOLUTIONS",
                                                            "OPTIMAL_SOLUTION"):
                ok, why = runner.check_result(name, files, got, case["cwd"])
                if not ok:
                    return "wrong", "check_against {}: {}; got {}".format(name, why, describe(got)), elapsed
        return "pass", "", elapsed
    check = ""
    if isinstance(got, Obtained) and got.status in ("SATISFIED", "ALL_SOLUTIONS", "OPTIMAL_SOLUTION"):
        # Non-strict suites accept an unexpected solution another solver confirms; in a
        # strict one the check only tells a different valid answer from an invalid one.
        # The suite takes the first other solver the case lists; those not installed, the
        # --checker list, in order, until one can run the model.
        others = [s for s in test.solvers if s != a.as_solver] + a.checkers
        others = [s for s in dict.fromkeys(others) if runner.solver_exists(s)]
        notes = []
        for other in others:
            ok, why = runner.check_result(other, files, got, case["cwd"])
            if ok and not case["suite"].strict:
                return "pass", "unexpected solution, accepted by {} (non-strict suite)".format(other), elapsed
            if ok:
                notes.append("the last solution is accepted by " + other)
                break
            notes.append("not confirmed: " + why)
            if " failed: " not in why:  # a checker that ran and said no is the answer
                break
        check = " [{}]".format("; ".join(notes)) if notes else ""
    if isinstance(got, MznError):
        return "error", short_reason(got.message), elapsed
    return "wrong", (note + "; " if note else "") + "got " + describe(got) + check, elapsed


# ---------------------------------------------------------------- collecting


def load_suites(spec_dir, names):
    with open(os.path.join(spec_dir, "suites.yml"), encoding="utf-8") as f:
        suites = yaml.load(f, Loader=Loader)
    if names == ["all"]:
        return suites
    missing = [n for n in names if n not in suites]
    if missing:
        sys.exit("unknown suite(s) {}; suites.yml has {}".format(missing, sorted(suites)))
    return {n: suites[n] for n in names}


def collect(spec_dir, suites, args):
    cases, cwd = [], os.path.dirname(os.path.abspath(spec_dir))
    for root, _, names in os.walk(spec_dir):
        for name in sorted(names):
            if not name.endswith(".mzn"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, spec_dir)
            with open(path, encoding="utf-8") as f:
                m = re.match(r"\/\*\*\*\n(.*?)\n\*\*\*\/", f.read(), flags=re.S)
            if m is None:
                continue
            try:
                tests = list(yaml.load_all(m.group(1), Loader=Loader))
            except yaml.YAMLError as e:
                cases.append({"id": rel, "skip": "YAML: {}".format(e)})
                continue
            for suite_name, suite in suites.items():
                if not any(fnmatch.fnmatch(rel, g) for g in suite.includes) or \
                        any(fnmatch.fnmatch(rel, g) for g in suite.excludes):
                    continue
                for i, test in enumerate(tests):
                    if not isinstance(test, Test):
                        continue
                    label = str(i) if test.name is Undefined else test.name
                    case = {"id": "{}:{}.{}".format(rel, suite_name, label), "test": test,
                            "path": path, "suite": suite, "cwd": cwd}
                    if args.as_solver not in (test.solvers or []):
                        case["skip"] = "not for {} (solvers: {})".format(
                            args.as_solver, ", ".join(test.solvers or []))
                    elif suite.solvers is not None and args.as_solver not in suite.solvers:
                        case["skip"] = "suite {} is for {}".format(suite_name, ", ".join(suite.solvers))
                    elif test.type != "solve" and args.as_solver != args.solver:
                        case["skip"] = ("type: {} compares {}'s compiled text, not {}'s"
                                        .format(test.type, args.as_solver, args.solver))
                    cases.append(case)
    if args.filter:
        rx = re.compile(args.filter)
        cases = [c for c in cases if rx.search(c["id"])]
    return cases


# ------------------------------------------------------------------ reports

VERDICTS = ("pass", "wrong", "error", "timeout", "skipped")


def totals(results):
    t = {v: 0 for v in VERDICTS}
    for r in results:
        t[r["verdict"]] += 1
    return t


def md_escape(s):
    return s.replace("|", "\\|").replace("\n", " ")


def write_run_md(path, meta, results):
    t = totals(results)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# MiniZinc spec suite: {}\n\n".format(meta["solver"]))
        f.write("`{}`\n\n".format(meta["command"]))
        f.write("| " + " | ".join(VERDICTS) + " |\n|" + "---|" * len(VERDICTS) + "\n")
        f.write("| " + " | ".join(str(t[v]) for v in VERDICTS) + " |\n\n")
        f.write("| case | verdict | detail |\n|---|---|---|\n")
        for r in results:
            if r["verdict"] not in ("pass", "skipped"):
                f.write("| `{}` | {} | {} |\n".format(r["id"], r["verdict"], md_escape(r["detail"])))


def write_report(path, run_a, run_b):
    """run_a: the solver under study (bamboo); run_b: the reference (gecode)."""
    ref = {r["id"]: r for r in run_b["results"]}
    ta, tb = totals(run_a["results"]), totals(run_b["results"])
    na, nb = run_a["meta"]["solver"], run_b["meta"]["solver"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("| solver | " + " | ".join(VERDICTS) + " | total |\n|---|" + "---|" * (len(VERDICTS) + 1) + "\n")
        for name, t in ((na, ta), (nb, tb)):
            f.write("| {} | {} | {} |\n".format(name, " | ".join(str(t[v]) for v in VERDICTS),
                                                sum(t.values())))
        f.write("\n| case | {} | reason | {} |\n|---|---|---|---|\n".format(na, nb))
        for r in run_a["results"]:
            if r["verdict"] == "pass" or r["verdict"] == "skipped":
                continue
            other = ref.get(r["id"])
            f.write("| `{}` | {} | {} | {} |\n".format(
                r["id"], r["verdict"], md_escape(r["detail"]),
                other["verdict"] if other else "not run"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", help="libminizinc's tests/spec folder, or the libminizinc root")
    ap.add_argument("--solver", default="gecode", help="minizinc --solver id or tag (default gecode)")
    ap.add_argument("--as", dest="as_solver", default=None,
                    help="which solver of the suite's `solvers:` lists this one stands for "
                         "(default: the solver itself if the suite names it, else gecode)")
    ap.add_argument("--solver-path", help="folder prepended to MZN_SOLVER_PATH (bamboo.msc's)")
    ap.add_argument("--checker", default="gecode",
                    help="comma-separated solvers that re-check a solution (check_against entries "
                         "naming --as, non-strict suites, and a note on strict wrong answers); the "
                         "next is tried when one cannot run the model (default gecode)")
    ap.add_argument("--suites", default="default,optimize-0",
                    help="comma-separated suites of spec/suites.yml, or all (default: default,optimize-0)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per minizinc run (default 60)")
    ap.add_argument("--filter", help="regular expression on case ids (path:suite.name)")
    ap.add_argument("--minizinc", default="minizinc")
    ap.add_argument("--json", help="write every case's verdict here")
    ap.add_argument("--out", help="write a markdown table here")
    ap.add_argument("--report", nargs=2, metavar=("RUN.json", "REF.json"),
                    help="compare two --json runs (solver under study, reference) into --out")
    args = ap.parse_args()

    if args.report:
        runs = []
        for p in args.report:
            with open(p, encoding="utf-8") as f:
                runs.append(json.load(f))
        write_report(args.out or "/dev/stdout", runs[0], runs[1])
        return 0
    if not args.suite:
        ap.error("--suite is required")
    spec_dir = args.suite
    if os.path.isdir(os.path.join(spec_dir, "tests", "spec")):
        spec_dir = os.path.join(spec_dir, "tests", "spec")
    if not os.path.isfile(os.path.join(spec_dir, "suites.yml")):
        sys.exit("{}: not libminizinc's tests/spec (no suites.yml)".format(args.suite))
    args.checkers = args.checker.split(",")
    if args.as_solver is None:
        args.as_solver = args.solver if args.solver in SUITE_SOLVERS else "gecode"

    runner = Runner(args)
    # SIGTERM and SIGHUP end the run as Ctrl-C does: run_cases kills what is running.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, terminate)
    try:
        results, meta = run_cases(args, runner, spec_dir)
    except (KeyboardInterrupt, Terminated) as e:
        signum = e.signum if isinstance(e, Terminated) else signal.SIGINT
        print("run_spec.py: {}; the minizinc runs and their solvers were killed"
              .format(signal.Signals(signum).name), file=sys.stderr, flush=True)
        return 128 + signum
    t = totals(results)
    print(" ".join("{}={}".format(v, t[v]) for v in VERDICTS))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "results": results}, f, indent=1)
    if args.out:
        write_run_md(args.out, meta, results)
    return 0


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread as KeyboardInterrupt is for SIGINT."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def terminate(signum, frame):
    raise Terminated(signum)


def run_cases(args, runner, spec_dir):
    """(results, meta) of every case. On an interrupt (KeyboardInterrupt, Terminated) or any
    other exit, kills the minizinc runs in progress with their solvers and re-raises."""
    try:
        return run_cases_until_done(args, runner, spec_dir)
    except BaseException:
        runner.stop()
        raise


def run_cases_until_done(args, runner, spec_dir):
    if not runner.solver_exists(args.solver):
        sys.exit("minizinc cannot run --solver {} (is --solver-path right?)".format(args.solver))
    cases = collect(spec_dir, load_suites(spec_dir, args.suites.split(",")), args)
    results = [None] * len(cases)
    todo = []
    for i, c in enumerate(cases):
        if "skip" in c:
            results[i] = {"id": c["id"], "verdict": "skipped", "detail": c["skip"], "seconds": 0}
        else:
            todo.append(i)
    done = 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        futures = {pool.submit(run_case, runner, cases[i]): i for i in todo}
        for fut in concurrent.futures.as_completed(futures):
            i = futures[fut]
            try:
                verdict, detail, secs = fut.result()
            except Exception as e:  # a bug here must not lose the other cases
                verdict, detail, secs = "error", "runner: {!r}".format(e), 0
            results[i] = {"id": cases[i]["id"], "verdict": verdict, "detail": detail,
                          "seconds": round(secs, 2)}
            done += 1
            if verdict != "pass":
                print("[{}/{}] {} {}: {}".format(done, len(todo), verdict, cases[i]["id"], detail),
                      flush=True)
    except BaseException:
        # Kill the running cases (their threads then return at once) and drop the queued
        # ones; leaving this block would otherwise wait for every queued case to run.
        runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    # A shared machine's load can push a case past --timeout: run those again, one at a time.
    for i, r in enumerate(results):
        if r["verdict"] == "timeout":
            verdict, detail, secs = run_case(runner, cases[i])
            if verdict != "timeout":
                detail = (detail + "; " if detail else "") + "timed out once with --jobs {}".format(args.jobs)
                print("retry: {} {}".format(verdict, cases[i]["id"]), flush=True)
            results[i] = {"id": cases[i]["id"], "verdict": verdict, "detail": detail,
                          "seconds": round(secs, 2)}
    meta = {"solver": args.solver, "as": args.as_solver, "suites": args.suites,
            "date": datetime.date.today().isoformat(),
            "command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:])}
    return results, meta


if __name__ == "__main__":
    sys.exit(main())
