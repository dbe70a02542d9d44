#!/usr/bin/env python3
"""Writes the data of models/school_choice_file.mzn: the sizes, the instance's path and, per
student, stb_last, the last position (1-based) of the student's list tied with the school that
single tie-breaking gives it (its list's length + 1 when it gets none), so that the model
counts a student as worse off exactly when it gets a strictly worse-ranked school, or none.

    models/school_stb.py INSTANCE.hrt MATCHING [-o FILE.dzn]

INSTANCE.hrt is an HRT file in the text format (docs/formats.md, "Ties"); MATCHING is what
`bamboo-smp solve --algo da-stb INSTANCE.hrt` prints (one line `r h` per student, `r -` when
unassigned; '-': standard input). The instance's path goes into the data as given.
"""
import argparse
import re
import sys


def student_lists(path):
    """(n_students, n_schools, [[(school, rank), ...] per student]) from the text file."""
    with open(path) as f:
        lines = [re.sub(r"#.*", "", line).strip() for line in f]
    at = 0
    while not lines[at]:  # comments and blank lines before the header
        at += 1
    kind, nr, nh = lines[at].split()
    if kind != "hrt":
        sys.exit("%s: not an HRT text file (header %r)" % (path, lines[at]))
    nr, nh = int(nr), int(nh)
    lists = []
    for line in lines[at + 1:at + 1 + nr]:
        entries, rank = [], 0
        for tie in re.findall(r"\[[^\]]*\]|[^\s\[\]]+", "" if line == "-" else line):
            for school in tie.strip("[]").split():
                entries.append((int(school), rank))
            rank += 1
        lists.append(entries)
    if len(lists) != nr:
        sys.exit("%s: %d student lines, header says %d" % (path, len(lists), nr))
    return nr, nh, lists


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("instance")
    ap.add_argument("matching")
    ap.add_argument("-o", dest="out", default="-")
    args = ap.parse_args()
    nr, nh, lists = student_lists(args.instance)
    stb_last = [len(entries) + 1 for entries in lists]
    with (sys.stdin if args.matching == "-" else open(args.matching)) as f:
        for line in f:
            r, h = line.split()
            if h == "-":
                continue
            entries = lists[int(r)]
            rank = next(rk for school, rk in entries if school == int(h))
            stb_last[int(r)] = max(k + 1 for k, (_, rk) in enumerate(entries) if rk == rank)
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    out.write("n_students = %d;\nn_schools = %d;\nprefs_file = \"%s\";\n" % (nr, nh, args.instance))
    out.write("stb_last = [%s];\n" % ", ".join(map(str, stb_last)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
