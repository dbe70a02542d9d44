"""What the ties peer benchmarks (sfas_peers.py, max_ties_peers.py) share: the repository root,
tests/mznlib's references (the definitions the runs are checked against), a MiniZinc run on the
build's solver configurations, and a timed CP-SAT solve. Each script keeps its own instances and
its own model: they are different problems (fewest blocking pairs with couples; the largest
weakly stable matching)."""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def use_mznlib_references():
    """Makes tests/mznlib's modules (check_hrc, ties_reference) importable."""
    path = os.path.join(ROOT, "tests", "mznlib")
    if path not in sys.path:
        sys.path.insert(0, path)


def run_minizinc(solver, args, limit, threads, build, slack):
    """`minizinc --solver SOLVER -p THREADS --time-limit LIMIT ARGS` with the solvers of build/
    (bamboo's configuration): (standard output, seconds). The process is killed `slack` seconds
    after the time limit."""
    env = dict(os.environ, MZN_SOLVER_PATH=os.path.join(os.path.abspath(build), "minizinc", "solvers"))
    cmd = ["minizinc", "--solver", solver, "-p", str(threads), "--time-limit", str(int(limit * 1000))] + list(args)
    t = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=limit + slack).stdout
    return out, time.time() - t


def solve_cpsat_model(model, limit, threads):
    """Solves a CP-SAT model within `limit` seconds on `threads` workers: (solver, status, seconds)."""
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(limit)
    solver.parameters.num_workers = int(threads)
    t = time.time()
    status = solver.Solve(model)
    return solver, status, time.time() - t
