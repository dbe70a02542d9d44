"""What every MiniZinc-driven check of tests/mznlib/ does before its first run.

The checks take the same two options (`--minizinc`, `--solver-path`), put the build tree's
bamboo.msc first on MZN_SOLVER_PATH, and decide the same way whether they can run at all:
CTest reads exit 77 as "skipped" (no minizinc, or a peer solver the check compares against
is missing) and any other non-zero exit as a failure (minizinc that cannot see bamboo.msc
means the build tree's solver configuration is broken, which must not pass as a skip).
"""
import os
import shutil
import subprocess

SKIP = 77
TAGS = {"bamboo": "org.bamboo.bamboo", "gecode": "org.gecode.gecode"}


def add_arguments(ap):
    ap.add_argument("--minizinc", default="minizinc")
    ap.add_argument("--solver-path", help="folder of the build-tree bamboo.msc (put first on MZN_SOLVER_PATH)")


def solver_env(solver_path):
    """The environment that has minizinc find the solver configuration in `solver_path` first."""
    env = dict(os.environ)
    if solver_path:
        env["MZN_SOLVER_PATH"] = solver_path + (os.pathsep + env["MZN_SOLVER_PATH"]
                                                if env.get("MZN_SOLVER_PATH") else "")
    return env


def prepare(args, need=("bamboo",), want=()):
    """Returns (env, exit code). The code is None when the check can run: minizinc is there and
    sees every solver of `need` (bamboo missing: 2, a peer missing: 77) and of `want` (77)."""
    if shutil.which(args.minizinc) is None:
        print("minizinc not found: skipped")
        return None, SKIP
    env = solver_env(args.solver_path)
    listed = subprocess.run([args.minizinc, "--solvers"], capture_output=True, text=True, env=env).stdout
    for name in tuple(need) + tuple(want):
        if TAGS[name] in listed:
            continue
        if name == "bamboo" and name in need:
            print("minizinc does not see bamboo.msc (--solver-path)")
            return None, 2
        print("minizinc has no %s solver: skipped" % name)
        return None, SKIP
    return env, None
