"""Reading the solution stream of a FlatZinc solver (fzn-bamboo, fzn-gecode).

A stream is a sequence of solutions, each a block of `name = value;` lines ended by
`----------`, then an optional status line (`==========`, `=====UNSATISFIABLE=====`,
`=====UNKNOWN=====`). Values are DZN: integers, true/false, sets (`1..3`, `{1,3}`), and
`arrayNd(ranges..., [v, ...])`. `canonical()` turns a value into a form that does not depend
on how a solver chose to print it (set `2..2` vs `{2}`, spaces, line order)."""
import re

STATUS = ("==========", "=====UNSATISFIABLE=====", "=====UNKNOWN=====", "=====ERROR=====",
          "=====UNBOUNDED=====", "=====UNSATorUNBOUNDED=====")


def _split_top(text):
    """Splits on commas outside brackets and braces."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts]


def canonical(value):
    """A hashable, printer-independent form of one DZN value."""
    v = value.strip()
    m = re.fullmatch(r"array\d+d\((.*)\)", v, re.S)
    if m:
        parts = _split_top(m.group(1))
        dims = tuple(canonical(p) for p in parts[:-1])
        return ("array", dims, canonical(parts[-1]))
    if v.startswith("["):
        return tuple(canonical(p) for p in _split_top(v[1:-1]))
    if v.startswith("{"):
        return ("set", tuple(sorted(int(p) for p in _split_top(v[1:-1]))))
    m = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)", v)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        return ("set", tuple(range(lo, hi + 1)))
    if v in ("true", "false"):
        return v == "true"
    try:
        return int(v)
    except ValueError:
        return v


def parse(text):
    """(solutions, status): solutions a list of {name: raw value}; status the last status
    line or None. Lines that are neither assignments nor markers (comments, statistics)
    are ignored."""
    solutions, current, status = [], {}, None
    for line in text.splitlines():
        s = line.strip()
        if s == "----------":
            solutions.append(current)
            current = {}
        elif s in STATUS:
            status = s
        else:
            m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*);", s)
            if m:
                current[m.group(1)] = m.group(2)
    return solutions, status


def canonical_solution(sol, names=None):
    """A solution as a sorted tuple of (name, canonical value), restricted to `names`."""
    return tuple(sorted((k, canonical(v)) for k, v in sol.items() if names is None or k in names))
