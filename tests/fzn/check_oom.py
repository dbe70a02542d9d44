#!/usr/bin/env python3
"""fzn-bamboo under an address-space limit (what `ulimit -v` sets): memory running out while
parsing, posting or searching, with -p 1 and -p 2, must end with a message naming it and
exit status 4, never a signal (regression: a SIGSEGV in StableMatching::dispose after
Gecode's MemoryExhausted during a clone; with -p 2 an abort on the uncaught exception).

    check_oom.py FZN_BAMBOO BAMBOO_SMP

The limits are counted from the smallest one at which fzn-bamboo starts at all (its shared
libraries mapped), so that the sweep does not depend on the machine's library sizes. Each
phase must be hit at least once: the sweep fails if none of its limits reached a phase.
Not under AddressSanitizer, which reserves terabytes of address space (CMake does not
register the test in sanitizer builds)."""
import os
import re
import resource
import subprocess
import sys
import tempfile

STEP = 1 << 20  # 1 MiB


def run(cmd, limit, timeout=20):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=set_limit, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fzn, smp = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        # The smallest limit at which fzn-bamboo starts.
        base = None
        for mib in range(4, 1024, 2):
            rc, _, _ = run([fzn, "--version"], mib * STEP)
            if rc == 0:
                base = mib * STEP
                break
        if base is None:
            print("skip: fzn-bamboo does not start under any limit up to 1 GiB")
            return 77

        # Parsing and posting: many variables (the parser's arena, then Gecode's variables).
        many = os.path.join(tmp, "many.fzn")
        with open(many, "w") as f:
            for i in range(20000):
                f.write("var 1..9: x%d;\n" % i)
            f.write("constraint int_lt(x0, x1);\nsolve satisfy;\n")
        # Posting and searching: stable_matching over an instance file (n = 600), all
        # solutions; a search that does not run out stops at its time limit.
        inst = os.path.join(tmp, "x.txt")
        subprocess.run([smp, "gen", "random", "--n", "600", "-o", inst], check=True, stdout=subprocess.DEVNULL)
        sm = os.path.join(tmp, "sm.fzn")
        n = 600
        with open(sm, "w") as f:
            f.write("predicate bamboo_stable_matching_file(array [int] of var int: men,"
                    "array [int] of var int: women,int: base);\n")
            for i in range(2 * n):
                f.write("var 1..%d: v%d;\n" % (n, i))
            f.write("array [1..%d] of var int: men :: output_array([1..%d]) = [%s];\n"
                    % (n, n, ",".join("v%d" % i for i in range(n))))
            f.write("array [1..%d] of var int: women :: output_array([1..%d]) = [%s];\n"
                    % (n, n, ",".join("v%d" % i for i in range(n, 2 * n))))
            f.write('constraint bamboo_stable_matching_file(men,women,1) :: bamboo_data_file("%s");\n' % inst)
            f.write("solve satisfy;\n")

        seen = {}
        runs = 0
        # A run that ends well (rc 0) twice in a row ends that sweep: more memory changes
        # nothing then.
        for name, model, extra, span in (("many", many, [], 10), ("sm", sm, ["-a", "-t", "500"], 48)):
            for threads in ("1", "2"):
                fine = 0
                for mib in range(0, span, 2):
                    if fine >= 2:
                        break
                    limit = base + mib * STEP
                    cmd = [fzn, "-p", threads] + extra + [model]
                    rc, out, err = run(cmd, limit)
                    runs += 1
                    where = "%s -p %s at base + %d MiB" % (name, threads, mib)
                    if rc < 0:
                        failures.append("%s: killed by signal %d; stderr: %s" % (where, -rc, err[-300:]))
                        continue
                    if os.environ.get("CHECK_OOM_TRACE"):
                        print("%s: rc %d %s" % (where, rc, err.strip().splitlines()[-1:] if err.strip() else ""))
                    fine = fine + 1 if rc == 0 else 0
                    if rc == 0:
                        continue
                    if rc != 4:
                        failures.append("%s: exit status %d, expected 0 or 4; stderr: %s" % (where, rc, err[-300:]))
                        continue
                    if "memory" not in err:
                        failures.append("%s: exit 4 without a message about memory; stderr: %s" % (where, err[-300:]))
                        continue
                    if "while parsing" in err:
                        phase = "parse"
                    elif re.search(r"bb_search|search thread|parallel search", err):
                        phase = "search"
                    else:
                        phase = "post"
                    seen.setdefault((phase, threads), where)
        for phase in ("parse", "post", "search"):
            for threads in ("1", "2"):
                if (phase, threads) not in seen:
                    failures.append("no limit ran out of memory while %s with -p %s" %
                                    ("parsing" if phase == "parse" else phase + "ing", threads))
        for (phase, threads), where in sorted(seen.items()):
            print("ok   %s -p %s: first at %s" % (phase, threads, where))
        print("%d runs from a base of %d MiB" % (runs, base // STEP))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
