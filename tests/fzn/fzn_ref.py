#!/usr/bin/env python3
"""A brute-force reference interpreter for small FlatZinc files: the oracle of the golden
tests (tests/fzn/golden/). It shares no code with fzn-bamboo or Gecode.

    tests/fzn/fzn_ref.py [-a] [-i] [-n N] file.fzn  # prints what fzn-bamboo must print
    tests/fzn/fzn_ref.py -a --any-order file.fzn  # all solutions / the optimum, any order

It enumerates every assignment by depth-first search in the order that a static search
annotation fixes (int_search/bool_search/set_search with input_order and an ascending or
descending value choice, nested in seq_search), checking each constraint as soon as its
variables are assigned, and prints the solutions in fzn-bamboo's format (minizinc/output.c:
declaration order, `{1,3}` / `1..3` / `{2}` for set variables). Satisfaction: the first
solution, `-n N` or all (`-a`); optimisation: the strictly improving solutions in search
order, which is what branch and bound finds with such a static order, whatever the
propagation strength; all of them with `-a` or `-i`, else only the last (the FlatZinc
convention).

Variables outside the annotation are enumerated after it; if they are not determined by
the annotated ones and are output, the order of solutions would depend on the solver's
default heuristic, and the reference refuses (exit 2). Unbounded `var int` needs a hint,
a comment line `% ref-domain: NAME LO..HI` (the hint must not cut solutions; the golden
file says why it does not).

Constraint semantics follow MiniZinc 2.6.4 (std/flatzinc_builtins.mzn and the std
decompositions that minizinc/mznlib replaces by the natives of minizinc/NATIVES.md)."""
import itertools
import re
import sys


class RefError(Exception):
    pass


# --- Lexer and parser -------------------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<ws>\s+|%[^\n]*)
  | (?P<float>-?\d+\.\d+(?:[eE][-+]?\d+)?)
  | (?P<range>\.\.)
  | (?P<int>-?(?:0x[0-9a-fA-F]+|0o[0-7]+|\d+))
  | (?P<str>"[^"]*")
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<dcolon>::)
  | (?P<punct>[:;,=\[\]{}()])
""", re.X)


def tokenize(text):
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise RefError("cannot read %r" % text[pos:pos + 20])
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        val = m.group(kind)
        if kind == "int":
            val = int(val, 0) if ("x" in val or "o" in val) else int(val)
        out.append((kind, val))
    out.append(("eof", None))
    return out


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.k = 0

    def peek(self, off=0):
        return self.toks[self.k + off]

    def next(self):
        t = self.toks[self.k]
        self.k += 1
        return t

    def accept(self, val):
        if self.peek()[1] == val and self.peek()[0] in ("punct", "id", "range", "dcolon"):
            self.k += 1
            return True
        return False

    def expect(self, val):
        if not self.accept(val):
            raise RefError("expected %r, got %r" % (val, self.peek()))

    def expr(self):
        kind, val = self.peek()
        if kind == "int":
            self.next()
            if self.accept(".."):
                hi = self.next()
                return ("set", frozenset(range(val, hi[1] + 1)))
            return ("int", val)
        if kind == "float":
            self.next()
            return ("float", float(val))
        if kind == "str":
            self.next()
            return ("str", val[1:-1])
        if val == "{":
            self.next()
            items = []
            while not self.accept("}"):
                items.append(self.next()[1])
                self.accept(",")
            return ("set", frozenset(items))
        if val == "[":
            self.next()
            items = []
            while not self.accept("]"):
                items.append(self.expr())
                self.accept(",")
            return ("array", items)
        if kind == "id":
            self.next()
            if val in ("true", "false"):
                return ("bool", val == "true")
            if self.accept("["):
                idx = self.next()[1]
                self.expect("]")
                return ("access", val, idx)
            if self.accept("("):
                args = []
                while not self.accept(")"):
                    args.append(self.expr())
                    self.accept(",")
                return ("call", val, args)
            return ("id", val)
        raise RefError("unexpected %r" % (self.peek(),))

    def annotations(self):
        anns = []
        while self.accept("::"):
            anns.append(self.expr())
        return anns

    def type_(self):
        t = {"array": None, "var": False, "base": None, "dom": None}
        if self.accept("array"):
            self.expect("[")
            t["array"] = self.expr()
            self.expect("]")
            self.expect("of")
        if self.accept("var"):
            t["var"] = True
        if self.accept("set"):
            self.expect("of")
            t["base"] = "set"
            if not self.accept("int"):
                t["dom"] = self.expr()[1]
            return t
        kind, val = self.peek()
        if val in ("int", "bool", "float") and kind == "id":
            self.next()
            t["base"] = val
            return t
        e = self.expr()
        if e[0] != "set":
            raise RefError("float domains are not supported")
        t["base"] = "int"
        t["dom"] = e[1]
        return t

    def model(self):
        decls, constraints, solve = [], [], None
        while self.peek()[0] != "eof":
            if self.accept("predicate"):
                while not self.accept(";"):
                    self.next()
                continue
            if self.accept("constraint"):
                name = self.next()[1]
                self.expect("(")
                args = []
                while not self.accept(")"):
                    args.append(self.expr())
                    self.accept(",")
                anns = self.annotations()
                self.expect(";")
                constraints.append((name, args, anns))
                continue
            if self.accept("solve"):
                anns = self.annotations()
                kind = self.next()[1]
                obj = None if kind == "satisfy" else self.expr()
                self.expect(";")
                solve = (kind, obj, anns)
                continue
            t = self.type_()
            self.expect(":")
            name = self.next()[1]
            anns = self.annotations()
            value = self.expr() if self.accept("=") else None
            self.expect(";")
            decls.append((name, t, anns, value))
        return decls, constraints, solve


# --- Model ------------------------------------------------------------------------------

class Var:
    def __init__(self, name, kind, values):
        self.name, self.kind, self.values = name, kind, values


def subsets(universe):
    u = sorted(universe)
    return [frozenset(c) for k in range(len(u) + 1) for c in itertools.combinations(u, k)]


class Model:
    def __init__(self, text):
        self.hints = {}
        for m in re.finditer(r"^%\s*ref-domain:\s*(\w+)\s+(-?\d+)\.\.(-?\d+)", text, re.M):
            self.hints[m.group(1)] = range(int(m.group(2)), int(m.group(3)) + 1)
        decls, self.constraints, self.solve = Parser(text).model()
        self.decls = decls
        self.pars = {}     # name -> python value
        self.vars = []     # Var
        self.binding = {}  # name -> ('var', index) | ('const', v) | ('array', [...])
        for name, t, anns, value in decls:
            if t["base"] == "float":
                raise RefError("float declarations are not supported")
            if not t["var"]:
                self.pars[name] = self.par_value(value)
                self.binding[name] = ("const", self.pars[name])
                continue
            if t["array"] is not None:
                elems = [self.term(e) for e in value[1]]
                self.binding[name] = ("array", elems)
                if t["base"] == "int" and t["dom"] is not None:
                    # The array's domain restricts its elements (FlatZinc; fzn-gecode does so):
                    # as an int_in constraint on each, so a constant outside makes no solution.
                    for e in value[1]:
                        self.constraints.append(("set_in", [e, ("set", frozenset(t["dom"]))], []))
                if t["base"] == "set" and t["dom"] is not None:
                    # Set elements: subsets of the array's set (set_subset with a constant).
                    for e in value[1]:
                        self.constraints.append(("set_subset", [e, ("set", frozenset(t["dom"]))], []))
                continue
            if value is not None:
                term = self.term(value)
                if term[0] == "var":
                    # An alias takes its declared domain too, as an array's elements do.
                    self.binding[name] = term
                    if t["base"] == "int" and t["dom"] is not None:
                        self.constraints.append(("set_in", [value, ("set", frozenset(t["dom"]))], []))
                    if t["base"] == "set" and t["dom"] is not None:
                        self.constraints.append(("set_subset", [value, ("set", frozenset(t["dom"]))], []))
                    continue
                self.binding[name] = self.new_var(name, t, fixed=term[1])
                continue
            self.binding[name] = self.new_var(name, t)

    def new_var(self, name, t, fixed=None):
        if t["base"] == "bool":
            values = [False, True]
        elif t["base"] == "set":
            if t["dom"] is None:
                raise RefError("%s: set variable without a domain" % name)
            values = subsets(t["dom"])
        elif t["dom"] is not None:
            values = sorted(t["dom"])
        elif name in self.hints:
            values = list(self.hints[name])
        elif fixed is not None:
            values = [fixed]
        else:
            raise RefError("%s: unbounded var int needs a '%% ref-domain:' hint" % name)
        if fixed is not None:
            values = [v for v in values if v == fixed]
        self.vars.append(Var(name, t["base"], values))
        return ("var", len(self.vars) - 1)

    def par_value(self, e):
        kind = e[0]
        if kind in ("int", "bool", "set", "float", "str"):
            return e[1]
        if kind == "array":
            return [self.par_value(x) for x in e[1]]
        if kind == "id":
            return self.pars[e[1]]
        if kind == "access":
            return self.pars[e[1]][e[2] - 1]
        raise RefError("not a parameter: %r" % (e,))

    def term(self, e):
        """A scalar argument: ('var', i) or ('const', v)."""
        kind = e[0]
        if kind in ("id", "access") and e[1] not in self.binding:
            raise RefError("unknown identifier '%s'" % e[1])
        if kind == "id":
            b = self.binding[e[1]]
            if b[0] == "array":
                raise RefError("%s is an array" % e[1])
            return b
        if kind == "access":
            b = self.binding[e[1]]
            if b[0] == "array":
                return b[1][e[2] - 1]
            return ("const", b[1][e[2] - 1])
        return ("const", self.par_value(e))

    def arg(self, e):
        """Any argument: a term, or ('list', [terms])."""
        if e[0] == "array":
            return ("list", [self.term(x) for x in e[1]])
        if e[0] == "id":
            b = self.binding[e[1]]
            if b[0] == "array":
                return ("list", b[1])
            if b[0] == "const" and isinstance(b[1], list):
                return ("list", [("const", v) for v in b[1]])
            return b
        return self.term(e)


def value_of(arg, asg):
    if arg[0] == "list":
        return [value_of(t, asg) for t in arg[1]]
    if arg[0] == "var":
        return asg[arg[1]]
    return arg[1]


def vars_of(arg):
    if arg[0] == "list":
        return set().union(*[vars_of(t) for t in arg[1]]) if arg[1] else set()
    return {arg[1]} if arg[0] == "var" else set()


# --- Semantics --------------------------------------------------------------------------

def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def ipow(x, y):
    """MiniZinc's x^y for y < 0 is 1 div x^-y (undefined for x = 0)."""
    if y >= 0:
        return x ** y
    if x == 0:
        return None
    return tdiv(1, x ** -y)


def set_lex(a, b):
    """MiniZinc's order on sets: the ascending element lists, lexicographically."""
    return (sorted(a) > sorted(b)) - (sorted(a) < sorted(b))


def circuit_ok(x, offset, sub):
    n = len(x)
    succ = [v - offset for v in x]
    if any(not 0 <= s < n for s in succ) or len(set(succ)) != n:
        return False
    nodes = [i for i in range(n) if succ[i] != i] if sub else list(range(n))
    if not sub and any(succ[i] == i for i in range(n)) and n > 1:
        return False
    if not nodes:
        return True
    seen, i = set(), nodes[0]
    while i not in seen:
        seen.add(i)
        i = succ[i]
    return seen == set(nodes)


def regular_ok(x, Q, S, d, q0, F):
    q = q0
    for s in x:
        if not 1 <= s <= S:
            return False
        q = d[(q - 1) * S + (s - 1)]
        if q == 0:
            return False
    return q in F


def value_precede_ok(s, t, x):
    seen_s = False
    for v in x:
        if v == t and not seen_s:
            return False
        if v == s:
            seen_s = True
    return True


def diffn_ok(x, y, dx, dy, strict):
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            if not strict and 0 in (dx[i], dx[j], dy[i], dy[j]):
                continue
            if not (x[i] + dx[i] <= x[j] or y[i] + dy[i] <= y[j] or
                    x[j] + dx[j] <= x[i] or y[j] + dy[j] <= y[i]):
                return False
    return True


def cumulative_ok(s, d, r, b):
    tasks = [i for i in range(len(s)) if d[i] > 0 and r[i] > 0]
    if not tasks:
        return b >= 0 or not s
    for t in range(min(s[i] for i in tasks), max(s[i] + d[i] for i in tasks)):
        if sum(r[i] for i in tasks if s[i] <= t < s[i] + d[i]) > b:
            return False
    return True


def arg_ext(x, offset, want, best):
    m = best(x)
    return want == offset + x.index(m)


def lex(x, y, strict):
    return list(x) < list(y) if strict else list(x) <= list(y)


REL = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
       "le": lambda a, b: a <= b, "lt": lambda a, b: a < b}
SETREL = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
          "subset": lambda a, b: a <= b, "superset": lambda a, b: a >= b,
          "le": lambda a, b: set_lex(a, b) <= 0, "lt": lambda a, b: set_lex(a, b) < 0}
COUNT = {"eq": lambda c, k: c == k, "neq": lambda c, k: c != k, "lt": lambda c, k: c < k,
         "leq": lambda c, k: c <= k, "gt": lambda c, k: c > k, "geq": lambda c, k: c >= k}


def element(i, a, z):
    return 1 <= i <= len(a) and a[i - 1] == z


def base_semantics():
    """name -> (arity, predicate over argument values); _reif/_imp are derived."""
    S = {}
    for r, f in REL.items():
        S["int_" + r] = lambda a, b, f=f: f(a, b)
        S["bool_" + r] = lambda a, b, f=f: f(a, b)
        S["int_lin_" + r] = lambda a, x, c, f=f: f(sum(p * q for p, q in zip(a, x)), c)
    for r, f in SETREL.items():
        S["set_" + r] = lambda a, b, f=f: f(a, b)
    S.update({
        "int_plus": lambda a, b, c: a + b == c,
        "int_minus": lambda a, b, c: a - b == c,
        "int_times": lambda a, b, c: a * b == c,
        "int_div": lambda a, b, c: b != 0 and tdiv(a, b) == c,
        "int_mod": lambda a, b, c: b != 0 and a - b * tdiv(a, b) == c,
        "int_min": lambda a, b, c: min(a, b) == c,
        "int_max": lambda a, b, c: max(a, b) == c,
        "int_pow": lambda a, b, c: ipow(a, b) == c and ipow(a, b) is not None,
        "int_pow_fixed": lambda a, b, c: ipow(a, b) == c and ipow(a, b) is not None,
        "int_abs": lambda a, b: abs(a) == b,
        "int_negate": lambda a, b: -a == b,
        "array_int_element": element, "array_var_int_element": element,
        "array_bool_element": element, "array_var_bool_element": element,
        "array_set_element": element, "array_var_set_element": element,
        "array_int_maximum": lambda m, x: m == max(x),
        "array_int_minimum": lambda m, x: m == min(x),
        "bool_and": lambda a, b: a and b,
        "bool_or": lambda a, b: a or b,
        "bool_xor": lambda a, b: a != b,
        "bool_not": lambda a, b: a != b,
        "array_bool_and": lambda a: all(a),
        "array_bool_or": lambda a: any(a),
        "array_bool_xor": lambda a: sum(a) % 2 == 1,
        "bool_clause": lambda p, n: any(p) or not all(n),
        "bool_lin_eq": lambda a, x, c: sum(p * q for p, q in zip(a, x)) == c,
        "bool_lin_le": lambda a, x, c: sum(p * q for p, q in zip(a, x)) <= c,
        "bool2int": lambda a, b: int(a) == b,
        "set_in": lambda x, s: x in s,
        "set_card": lambda s, n: len(s) == n,
        "set_union": lambda a, b, c: a | b == c,
        "set_intersect": lambda a, b, c: a & b == c,
        "set_diff": lambda a, b, c: a - b == c,
        "set_symdiff": lambda a, b, c: a ^ b == c,
        "set_disjoint": lambda a, b: not (a & b),
        # Natives (minizinc/NATIVES.md), with std 2.6.4's meaning.
        "fzn_all_different_int": lambda x: len(set(x)) == len(x),
        "fzn_all_equal_int": lambda x: len(set(x)) <= 1,
        "bamboo_circuit": lambda o, x: circuit_ok(x, o, False),
        "bamboo_subcircuit": lambda o, x: circuit_ok(x, o, True),
        # bamboo_inverse(f, f_offset, invf, invf_offset): each offset is subtracted from
        # that array's values (f_offset = where invf's index set starts, and vice versa).
        "bamboo_inverse": lambda f, fo, g, go: len(f) == len(g) and all(
            fo <= f[i] < fo + len(g) and g[f[i] - fo] == i + go for i in range(len(f))) and all(
            go <= g[j] < go + len(f) for j in range(len(g))),
        "fzn_cumulative": cumulative_ok,
        "bamboo_table_int": lambda x, t: any(list(x) == t[k:k + len(x)] for k in range(0, len(t), len(x))),
        "bamboo_table_bool": lambda x, t: any(list(x) == t[k:k + len(x)] for k in range(0, len(t), len(x))),
        "bamboo_regular": lambda x, Q, S_, d, q0, F: regular_ok(x, Q, S_, d, q0, F),
        "bamboo_global_cardinality": lambda x, cover, counts, closed: all(
            x.count(v) == c for v, c in zip(cover, counts)) and (not closed or all(v in cover for v in x)),
        "bamboo_global_cardinality_low_up": lambda x, cover, lo, up, closed: all(
            l <= x.count(v) <= u for v, l, u in zip(cover, lo, up)) and (not closed or all(v in cover for v in x)),
        "fzn_among": lambda n, x, v: n == sum(1 for e in x if e in v),
        "fzn_nvalue": lambda n, x: n == len(set(x)),
        "fzn_lex_less_int": lambda x, y: lex(x, y, True),
        "fzn_lex_lesseq_int": lambda x, y: lex(x, y, False),
        "fzn_lex_less_bool": lambda x, y: lex(x, y, True),
        "fzn_lex_lesseq_bool": lambda x, y: lex(x, y, False),
        "fzn_increasing_int": lambda x: list(x) == sorted(x),
        "fzn_decreasing_int": lambda x: list(x) == sorted(x, reverse=True),
        "fzn_increasing_bool": lambda x: list(x) == sorted(x),
        "fzn_decreasing_bool": lambda x: list(x) == sorted(x, reverse=True),
        "fzn_sort": lambda x, y: sorted(x) == list(y),
        "bamboo_member_int": lambda x, y: y in x,
        "bamboo_bin_packing_load": lambda load, bin_, w, o: all(
            o <= b < o + len(load) for b in bin_) and all(
            load[j] == sum(wi for b, wi in zip(bin_, w) if b == o + j) for j in range(len(load))),
        "bamboo_arg_max_int": lambda x, o, i: arg_ext(x, o, i, max),
        "bamboo_arg_min_int": lambda x, o, i: arg_ext(x, o, i, min),
        "bamboo_arg_max_bool": lambda x, o, i: arg_ext(x, o, i, max),
        "bamboo_arg_min_bool": lambda x, o, i: arg_ext(x, o, i, min),
        "fzn_value_precede_int": lambda s, t, x: value_precede_ok(s, t, x),
        "fzn_diffn": lambda x, y, dx, dy: diffn_ok(x, y, dx, dy, True),
        "fzn_diffn_nonstrict": lambda x, y, dx, dy: diffn_ok(x, y, dx, dy, False),
    })
    for c, f in COUNT.items():
        # std 2.6.4: count_<rel>(x, y, c) is `c rel count`, count = #{i | x[i] = y}.
        S["fzn_count_" + c] = lambda x, y, k, f=f: f(k, sum(1 for e in x if e == y))
    return S


BASE = base_semantics()
# Builtins whose plain form already carries the result as its last argument
# (bool_and(a, b, r) is r <-> a /\ b); their table entry is the relation without it.
OWN_R = {"bool_and", "bool_or", "array_bool_and", "array_bool_or"}


def semantics(name):
    """The predicate over the argument values of a constraint name."""
    if name in BASE and name not in OWN_R and name != "bool_xor":
        return BASE[name]
    if name == "bool_xor":
        return lambda *a: (a[0] != a[1]) if len(a) == 2 else (a[2] == (a[0] != a[1]))
    if name in OWN_R:
        f = BASE[name]
        return lambda *a: a[-1] == f(*a[:-1])
    if name == "bamboo_member_int_reif":
        return lambda x, y, r: r == (y in x)
    for suffix, imp in (("_reif", False), ("_imp", True)):
        if name.endswith(suffix):
            f = BASE.get(name[:-len(suffix)])
            if f is None:
                break
            if imp:
                return lambda *a, f=f: (not a[-1]) or f(*a[:-1])
            return lambda *a, f=f: a[-1] == f(*a[:-1])
    raise RefError("no reference semantics for constraint '%s'" % name)


# --- Search -----------------------------------------------------------------------------

ASC = {"indomain_min", "indomain", "indomain_split", "indomain_interval"}
DESC = {"indomain_max", "indomain_reverse_split"}


def search_order(model, use_annotations=True):
    """[(var index, values in branching order)], the annotated variables first."""
    order, seen = [], set()
    anns = list(model.solve[2]) if model.solve and use_annotations else []
    while anns:
        a = anns.pop(0)
        if a[0] != "call":
            continue
        if a[1] == "seq_search":
            anns = list(a[2][0][1]) + anns
            continue
        if a[1] not in ("int_search", "bool_search", "set_search"):
            continue
        xs, varsel, valsel = model.arg(a[2][0]), a[2][1][1], a[2][2][1]
        if varsel != "input_order" or (valsel not in ASC and valsel not in DESC):
            raise RefError("only input_order with a monotone value choice is deterministic")
        for t in xs[1] if xs[0] == "list" else [xs]:
            if t[0] != "var" or t[1] in seen:
                continue
            seen.add(t[1])
            v = model.vars[t[1]]
            if v.kind == "set":
                u = sorted(set().union(*v.values)) if v.values else []
                if valsel in DESC:
                    u = u[::-1]
                vals = sorted(v.values, key=lambda s: tuple(0 if e in s else 1 for e in u))
            else:
                vals = sorted(v.values, reverse=valsel in DESC)
            order.append((t[1], vals))
    annotated = len(order)
    for i, v in enumerate(model.vars):
        if i not in seen:
            order.append((i, v.values))
    return order, annotated


def solve(model, use_annotations=True):
    """Yields (assignment, key of the annotated part) in search order."""
    order, annotated = search_order(model, use_annotations)
    pos = {var: k for k, (var, _) in enumerate(order)}
    checks = [[] for _ in range(len(order) + 1)]
    for name, args, _ in model.constraints:
        f = semantics(name)
        margs = [model.arg(a) for a in args]
        vs = set().union(*[vars_of(a) for a in margs]) if margs else set()
        at = max((pos[v] + 1 for v in vs), default=0)
        checks[at].append((name, f, margs))
    asg = [None] * len(model.vars)

    def ok(level):
        for name, f, margs in checks[level]:
            try:
                if not f(*[value_of(a, asg) for a in margs]):
                    return False
            except (IndexError, ZeroDivisionError, TypeError) as e:
                raise RefError("%s: %s" % (name, e))
        return True

    def dfs(level):
        if level == len(order):
            yield list(asg), tuple(asg[v] for v, _ in order[:annotated])
            return
        var, vals = order[level]
        for val in vals:
            asg[var] = val
            if ok(level + 1):
                yield from dfs(level + 1)
        asg[var] = None

    if ok(0):
        yield from dfs(0)


# --- Output (minizinc/output.c) ---------------------------------------------------------

def fmt_var_set(s):
    v = sorted(s)
    if len(v) > 1 and v[-1] - v[0] == len(v) - 1:
        return "%d..%d" % (v[0], v[-1])
    return "{" + ",".join(str(e) for e in v) + "}"


def fmt_par(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, frozenset):
        r = sorted(v)
        if not r:
            return "{}"
        if r[-1] - r[0] == len(r) - 1:
            return "%d..%d" % (r[0], r[-1])
        return "{" + ",".join(str(e) for e in r) + "}"
    raise RefError("cannot print %r" % (v,))


def fmt_term(model, t, asg):
    """An element of a variable array: constants in it are (constant) variables too."""
    v = asg[t[1]] if t[0] == "var" else t[1]
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, frozenset):
        return fmt_var_set(v)
    return str(v)


def output(model, asg):
    lines = []
    for name, t, anns, value in model.decls:
        arr = [a for a in anns if a[0] == "call" and a[1] == "output_array"]
        if arr and t["array"] is not None:
            dims = arr[0][2][0][1]
            ranges = ", ".join(("%d..%d" % (min(d[1]), max(d[1]))) if d[1] else "{}" for d in dims)
            b = model.binding[name]
            if b[0] == "array":
                elems = [fmt_term(model, e, asg) for e in b[1]]
            else:
                elems = [fmt_par(e) for e in b[1]]
            lines.append("%s = array%dd(%s, [%s]);" % (name, len(dims), ranges, ", ".join(elems)))
        elif any(a == ("id", "output_var") for a in anns):
            b = model.binding[name]
            if b[0] == "var":
                lines.append("%s = %s;" % (name, fmt_term(model, b, asg)))
            elif t["var"]:
                # A var fixed by its declaration is a (constant) variable: print_var.
                v = b[1]
                lines.append("%s = %s;" % (name, fmt_var_set(v) if isinstance(v, frozenset) else fmt_par(v)))
            else:
                lines.append("%s = %s;" % (name, fmt_par(b[1])))
    return "".join(l + "\n" for l in lines) + "----------\n"


def run(text, all_solutions=False, limit=0, strict=True, intermediate=False):
    """What fzn-bamboo prints. strict=False ignores the search annotations (any order, no
    ambiguity check): the set of solutions, or the optimum as the last one, still holds."""
    model = Model(text)
    kind, obj, _ = model.solve
    optimise = kind != "satisfy"
    wanted = limit if limit else (-1 if all_solutions or optimise else 1)
    out, found, best = [], 0, None
    groups = {}  # annotated key -> outputs of its completions (ambiguity check)
    for asg, key in solve(model, strict):
        if optimise:
            val = value_of(model.term(obj), asg)
            if best is not None and not (val < best if kind == "minimize" else val > best):
                continue
            best = val
        text_ = output(model, asg)
        prev = groups.setdefault(key, text_)
        if prev != text_ and strict:
            raise RefError("the output depends on variables outside the search annotation")
        if prev is not text_ and strict:
            sys.stderr.write("fzn_ref: warning: a solution repeats (variables outside the "
                             "annotation are not determined)\n")
        out.append(text_)
        found += 1
        if wanted > 0 and found >= wanted:
            break
    complete = wanted < 0 or found < wanted
    if optimise and not (all_solutions or intermediate):
        out = out[-1:]
    if complete:
        out.append("==========\n" if found else "=====UNSATISFIABLE=====\n")
    return "".join(out)


def main(argv):
    all_solutions, intermediate, limit, path, strict = False, False, 0, None, True
    k = 0
    while k < len(argv):
        a = argv[k]
        if a == "-a":
            all_solutions = True
        elif a == "-i":
            intermediate = True
        elif a == "-n":
            k += 1
            limit = int(argv[k])
        elif a == "--any-order":
            strict = False
        elif a in ("-f", "-s", "-v"):
            pass
        elif a in ("-p", "-r", "-t"):
            k += 1
        else:
            path = a
        k += 1
    with open(path) as f:
        text = f.read()
    try:
        sys.stdout.write(run(text, all_solutions, limit, strict, intermediate))
    except RefError as e:
        sys.stderr.write("fzn_ref: %s: %s\n" % (path, e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
