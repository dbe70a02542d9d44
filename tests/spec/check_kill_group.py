#!/usr/bin/env python3
"""run_spec.py leaves no solver behind: on a timeout, SIGINT or SIGTERM it kills minizinc's
whole process group, the solver minizinc started included.

Runs run_spec.py on a one-case suite written here, with a stand-in for minizinc (a shell
that starts a long `sleep`, the "solver", records its pid and waits), so that neither
libminizinc's suite nor MiniZinc is needed. After each run, every recorded solver must be
gone. Before the fix, run_spec.py killed only minizinc, and the solver ran on as an orphan.

    tests/spec/check_kill_group.py      # exit 0: all gone; 1: a solver survived; 77: no PyYAML
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_SPEC = os.path.join(HERE, "run_spec.py")
SOLVER_SECONDS = 120  # far longer than any run here: a survivor is seen, then killed below

FAKE_MINIZINC = """#!/bin/sh
# A stand-in for minizinc: the solver probe (empty.mzn) succeeds; a case starts a
# "solver" that outlives this shell unless the whole process group is killed.
case "$*" in *empty.mzn*) exit 0 ;; esac
sleep {seconds} &
echo $! >> "$BAMBOO_FAKE_SOLVER_PIDS"
wait
"""

SUITES = """default: !Suite
  includes: ["unit/*"]
"""

CASE = """/***
!Test
solvers: [gecode]
expected: !Result
  status: SATISFIED
***/
solve satisfy;
"""


def alive(pid):
    """Whether pid is a live process (a zombie, killed and not yet reaped, is not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def pids(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [int(x) for x in f.read().split()]


def scenario(tmp, name, timeout, signum):
    """Runs run_spec.py; with signum, sends it once a solver has started. Returns problems."""
    pid_file = os.path.join(tmp, name + ".pids")
    env = dict(os.environ, BAMBOO_FAKE_SOLVER_PIDS=pid_file)
    cmd = [sys.executable, RUN_SPEC, "--suite", os.path.join(tmp, "spec"), "--solver", "fake",
           "--as", "gecode", "--minizinc", os.path.join(tmp, "minizinc"), "--suites", "default",
           "--jobs", "1", "--timeout", str(timeout)]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    problems = []
    if signum is not None:
        deadline = time.time() + 20
        while not pids(pid_file) and p.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        if not pids(pid_file):
            problems.append("no solver started")
        p.send_signal(signum)
    try:
        out, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        problems.append("run_spec.py did not end within 30 s")
    started = pids(pid_file)
    if not started:
        problems.append("no solver started")
    deadline = time.time() + 5  # the kernel and init may take a moment to reap them
    while any(alive(x) for x in started) and time.time() < deadline:
        time.sleep(0.05)
    survivors = [x for x in started if alive(x)]
    if survivors:
        problems.append("solver(s) %s still running after run_spec.py ended" % survivors)
    for x in survivors:  # ours: do not leave them behind either
        os.kill(x, signal.SIGKILL)
    if signum is not None and p.returncode != 128 + signum:
        problems.append("exit status %s, expected %d" % (p.returncode, 128 + signum))
    if signum is None and "timeout=1" not in out:
        problems.append("the case was not reported as a timeout")
    return problems, out


def main():
    try:
        import yaml  # noqa: F401  (run_spec.py needs it)
    except ImportError:
        print("no PyYAML (python3-yaml): run_spec.py cannot run; skipped")
        return 77
    tmp = tempfile.mkdtemp(prefix="bamboo-run-spec-")
    os.makedirs(os.path.join(tmp, "spec", "unit"))
    with open(os.path.join(tmp, "spec", "suites.yml"), "w") as f:
        f.write(SUITES)
    with open(os.path.join(tmp, "spec", "unit", "case.mzn"), "w") as f:
        f.write(CASE)
    fake = os.path.join(tmp, "minizinc")
    with open(fake, "w") as f:
        f.write(FAKE_MINIZINC.format(seconds=SOLVER_SECONDS))
    os.chmod(fake, 0o755)
    failures = 0
    for name, timeout, signum in (("timeout", 1, None), ("SIGINT", 60, signal.SIGINT),
                                  ("SIGTERM", 60, signal.SIGTERM)):
        problems, out = scenario(tmp, name, timeout, signum)
        if problems:
            failures += 1
            print("FAIL  %s: %s\n        %s" % (name, "; ".join(problems),
                                                out.strip().replace("\n", "\n        ")[-800:]))
        else:
            print("ok    %s: run_spec.py ended and left no solver running" % name)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
