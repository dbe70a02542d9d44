#!/usr/bin/env python3
"""Compile-only checks of minizinc/mznlib: what MiniZinc 2.6.4 leaves in the FlatZinc for
bamboo.

For each snippet, `minizinc -c` runs with a temporary solver configuration whose library is
minizinc/mznlib (no fzn-bamboo needed), and the FlatZinc must
  - contain the expected constraint (name and arguments, offsets included);
  - name no constraint that is neither a FlatZinc builtin of std/flatzinc_builtins.mzn nor
    a native listed in minizinc/NATIVES.md;
  - compile without warnings (std warns when a solver library overrides a global's file);
  - declare its predicates without annotations on the parameters (not FlatZinc).

    tests/mznlib/check_mznlib.py [--minizinc PATH] [--mznlib DIR] [-v]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (label, model text, regular expressions each of which some FlatZinc constraint must match)
CASES = [
    ("all_different", """include "all_different.mzn";
array[0..3] of var 0..5: x; constraint all_different(x);""", [r"^fzn_all_different_int\(\[X_INTRODUCED_0_,X_INTRODUCED_1_,X_INTRODUCED_2_,X_INTRODUCED_3_\]\)$"]),
    ("all_equal", """include "all_equal.mzn";
array[1..3] of var 0..5: x; constraint all_equal(x);""", [r"^fzn_all_equal_int\(x\)$"]),
    ("circuit index 0..", """include "circuit.mzn";
array[0..3] of var 0..3: x; constraint circuit(x);""", [r"^bamboo_circuit\(0,x\)$"]),
    ("circuit index 1..", """include "circuit.mzn";
array[1..4] of var 1..4: x; constraint circuit(x);""", [r"^bamboo_circuit\(1,x\)$"]),
    ("subcircuit index 2..", """include "subcircuit.mzn";
array[2..5] of var 2..5: x; constraint subcircuit(x);""", [r"^bamboo_subcircuit\(2,x\)$"]),
    ("inverse, different index sets", """include "inverse.mzn";
array[0..2] of var 5..7: f; array[5..7] of var 0..2: invf; constraint inverse(f, invf);""",
     [r"^bamboo_inverse\(f,5,invf,0\)$"]),
    ("cumulative", """include "cumulative.mzn";
array[1..3] of var 0..3: s; array[1..3] of var 1..2: d; array[1..3] of var 1..2: r;
var 3..4: b; constraint cumulative(s, d, r, b);""", [r"^fzn_cumulative\(s,d,r,b\)$"]),
    ("cumulative, capacity 1 (std: disjunctive, durations > 0: strict)", """include "cumulative.mzn";
array[1..3] of var 0..3: s; constraint cumulative(s, [2,1,1], [1,1,1], 1);""",
     [r"^fzn_disjunctive_strict\(s,\[2,1,1\]\)$"]),
    ("disjunctive, a duration may be 0", """include "disjunctive.mzn";
array[1..3] of var 0..3: s; array[1..3] of var 0..2: d; constraint disjunctive(s, d);""",
     [r"^fzn_disjunctive\(s,d\)$"]),
    ("disjunctive_strict", """include "disjunctive_strict.mzn";
array[1..3] of var 0..3: s; array[1..3] of var 0..2: d; constraint disjunctive_strict(s, d);""",
     [r"^fzn_disjunctive_strict\(s,d\)$"]),
    ("table_int, row-major", """include "table.mzn";
array[1..3] of var 0..9: x; constraint table(x, [|1,2,3|4,5,6|]);""",
     [r"^bamboo_table_int\(x,\[1,2,3,4,5,6\]\)$"]),
    ("table_int, no rows", """include "table.mzn";
array[1..2] of var 0..9: x; constraint table(x, array2d(1..0, 1..2, []));
solve satisfy;""", [r"^bool_eq\(false,true\)$"], "warns: inconsistent"),
    ("table_bool", """include "table.mzn";
array[1..2] of var bool: x; constraint table(x, [|true,false|false,true|]);""",
     [r"^bamboo_table_bool\(x,\[true,false,false,true\]\)$"]),
    ("regular", """include "regular.mzn";
array[1..4] of var 1..2: x;
constraint regular(x, 3, 2, [|2,1|3,0|3,3|], 1, {3});""",
     [r"^bamboo_regular\(x,3,2,\[2,1,3,0,3,3\],1,3\.\.3\)$"]),
    ("global_cardinality", """include "global_cardinality.mzn";
array[1..4] of var 0..3: x; array[1..2] of var 0..4: c;
constraint global_cardinality(x, [1,2], c);""",
     [r"^bamboo_global_cardinality\(x,\[1,2\],c,false\)$"]),
    ("global_cardinality_closed", """include "global_cardinality_closed.mzn";
array[1..4] of var 0..3: x; array[1..2] of var 0..4: c;
constraint global_cardinality_closed(x, [1,2], c);""",
     [r"^bamboo_global_cardinality\(x,\[1,2\],c,true\)$"]),
    ("global_cardinality low/up", """include "global_cardinality.mzn";
array[1..4] of var 0..3: x;
constraint global_cardinality(x, [1,2], [0,1], [2,2]);""",
     [r"^bamboo_global_cardinality_low_up\(x,\[1,2\],\[0,1\],\[2,2\],false\)$"]),
    ("global_cardinality_closed low/up", """include "global_cardinality_closed.mzn";
array[1..4] of var 0..3: x;
constraint global_cardinality_closed(x, [1,2], [0,1], [4,4]);""",
     [r"^bamboo_global_cardinality_low_up\(x,\[1,2\],\[0,1\],\[4,4\],true\)$"]),
] + [
    ("count_%s" % rel, """include "count.mzn";
array[1..4] of var 0..3: x; var 0..3: y; var 0..4: c;
constraint count_%s(x, y, c);""" % rel, [r"^fzn_count_%s\(x,y,c\)$" % rel])
    for rel in ("eq", "neq", "lt", "leq", "gt", "geq")
] + [
    ("among", """include "among.mzn";
array[1..4] of var 0..3: x; var 0..4: n; constraint among(n, x, {1,3});""",
     [r"^fzn_among\(n,x,\{1,3\}\)$"]),
    ("nvalue", """include "nvalue.mzn";
array[1..4] of var 0..3: x; var 0..4: n; constraint nvalue(n, x);""", [r"^fzn_nvalue\(n,x\)$"]),
] + [
    ("%s %s" % (rel, t), """include "%s.mzn";
array[1..3] of var %s: x; array[1..3] of var %s: y; constraint %s(x, y);""" % (
        rel, "0..3" if t == "int" else "bool", "0..3" if t == "int" else "bool", rel),
     [r"^fzn_%s_%s\(x,y\)$" % (rel, t)])
    for rel in ("lex_less", "lex_lesseq") for t in ("int", "bool")
] + [
    ("%s %s" % (rel, t), """include "%s.mzn";
array[1..3] of var %s: x; constraint %s(x);""" % (rel, "0..3" if t == "int" else "bool", rel),
     [r"^fzn_%s_%s\(x\)$" % (rel, t)])
    for rel in ("increasing", "decreasing") for t in ("int", "bool")
] + [
    ("sort", """include "sort.mzn";
array[1..3] of var 0..3: x; array[1..3] of var 0..3: y; constraint sort(x, y);""",
     [r"^fzn_sort\(x,y\)$"]),
    ("member", """include "member.mzn";
array[1..3] of var 0..3: x; var 0..3: y; constraint member(x, y);""",
     [r"^bamboo_member_int\(x,y\)$"]),
    ("member reified", """include "member.mzn";
array[1..3] of var 0..3: x; var 0..3: y; var bool: b; constraint b <-> member(x, y);""",
     [r"^bamboo_member_int_reif\(x,y,b\)"]),
    ("bin_packing_load, bins 3..5", """include "bin_packing_load.mzn";
array[3..5] of var 0..9: load; array[1..4] of var 3..5: bin;
constraint bin_packing_load(load, bin, [2,3,4,1]);""",
     [r"^bamboo_bin_packing_load\(load,bin,\[2,3,4,1\],3\)$"]),
    ("arg_max int, index 2..", """include "arg_max.mzn";
array[2..5] of var 0..9: x; var int: i = arg_max(x);""",
     [r"^bamboo_arg_max_int\(x,2,\w+\)"]),
    ("arg_min int, index 2..", """include "arg_min.mzn";
array[2..5] of var 0..9: x; var int: i = arg_min(x);""",
     [r"^bamboo_arg_min_int\(x,2,\w+\)"]),
    ("arg_max bool", """include "arg_max.mzn";
array[0..3] of var bool: x; var int: i = arg_max(x);""",
     [r"^bamboo_arg_max_bool\(x,0,\w+\)"]),
    ("arg_min bool", """include "arg_min.mzn";
array[0..3] of var bool: x; var int: i = arg_min(x);""",
     [r"^bamboo_arg_min_bool\(x,0,\w+\)"]),
    ("value_precede", """include "value_precede.mzn";
array[1..4] of var 0..3: x; constraint value_precede(1, 2, x);""",
     [r"^fzn_value_precede_int\(1,2,x\)$"]),
    ("diffn", """include "diffn.mzn";
array[1..2] of var 0..5: x; array[1..2] of var 0..5: y;
constraint diffn(x, y, [2,2], [1,3]);""", [r"^fzn_diffn\(x,y,\[2,2\],\[1,3\]\)$"]),
    ("diffn_nonstrict", """include "diffn_nonstrict.mzn";
array[1..2] of var 0..5: x; array[1..2] of var 0..5: y;
constraint diffn_nonstrict(x, y, [2,0], [1,3]);""", [r"^fzn_diffn_nonstrict\(x,y,\[2,0\],\[1,3\]\)$"]),
    ("redefinitions-2.0 and 2.2.1", """
array[1..3] of var 0..5: x; var -3..3: y; var bool: b; var bool: p; var bool: q;
var int: z = max(x) + min(x) + y^3;
constraint b <-> (p \\/ not q);""",
     [r"^array_int_maximum\(", r"^array_int_minimum\(", r"^int_pow_fixed\(y,3,", r"^bool_clause_reif\(\[p\],\[q\],b\)"]),
    ("element, index set 3..6: nonshifted natives (par and var arrays)", """
array[3..6] of int: a = array1d(3..6, [5,1,7,2]); array[3..6] of var 0..3: v;
array[3..6] of bool: ab = array1d(3..6, [true,false,true,false]); array[3..6] of var bool: vb;
var 2..7: i;
var int: x = a[i]; var int: y = v[i]; var bool: p = ab[i]; var bool: q = vb[i];""",
     [r"^bamboo_array_int_element_nonshifted\(i,\[5,1,7,2\],3,\w+\)$",
      r"^bamboo_array_int_element_nonshifted\(i,\[X_INTRODUCED_\d+_(,X_INTRODUCED_\d+_){3}\],3,\w+\)$",
      r"^bamboo_array_bool_element_nonshifted\(i,\[true,false,true,false\],3,\w+\)$",
      r"^bamboo_array_bool_element_nonshifted\(i,\[X_INTRODUCED_\d+_(,X_INTRODUCED_\d+_){3}\],3,\w+\)$"]),
    ("element of sets, index set -1..1: nonshifted native", """
array[-1..1] of set of int: a = array1d(-1..1, [{1},{},{1,3}]); array[-1..1] of var set of 1..2: v;
var -2..2: i; var set of int: x = a[i]; var set of int: y = v[i];""",
     [r"^bamboo_array_set_element_nonshifted\(i,\[1\.\.1,1\.\.0,\{1,3\}\],-1,\w+\)$",
      r"^bamboo_array_set_element_nonshifted\(i,\[X_INTRODUCED_\d+_(,X_INTRODUCED_\d+_){2}\],-1,\w+\)$"]),
    ("element, index set 1..: the builtin", """
array[1..3] of var 0..3: v; var 0..4: i; var int: y = v[i];""", [r"^array_var_int_element\(i,v,\w+\)"]),
    ("element 2d, index sets 0..1 x 2..4: 2d natives", """
array[0..1, 2..4] of int: a = array2d(0..1, 2..4, [5,1,7,2,0,3]); array[0..1, 2..4] of var 0..2: v;
array[0..1, 2..4] of var bool: vb; var -1..1: i; var 2..5: j;
var int: x = a[i, j]; var int: y = v[i, j]; var bool: q = vb[i, j];""",
     [r"^bamboo_array_int_element2d_nonshifted\(i,j,\[5,1,7,2,0,3\],0,2,3,\w+\)$",
      r"^bamboo_array_int_element2d_nonshifted\(i,j,\[X_INTRODUCED_\d+_(,X_INTRODUCED_\d+_){5}\],0,2,3,\w+\)$",
      r"^bamboo_array_bool_element2d_nonshifted\(i,j,\[X_INTRODUCED_\d+_(,X_INTRODUCED_\d+_){5}\],0,2,3,\w+\)$"]),
    ("element 2d of sets: MiniZinc computes a flat 1-based index", """
array[1..2, 0..1] of var set of 1..2: v; var 1..2: i; var 0..1: j; var set of int: y = v[i, j];""",
     [r"^int_lin_eq\(\[1,2,-1\],\[j,i,\w+\],1\):: domain", r"^array_var_set_element\(X_INTRODUCED_\d+_,"]),
    ("member bool", """include "member.mzn";
array[1..3] of var bool: x; var bool: y; constraint member(x, y);""",
     [r"^bamboo_member_bool\(x,y\)$"]),
    ("member bool reified", """include "member.mzn";
array[1..3] of var bool: x; var bool: y; var bool: b; constraint b <-> member(x, y);""",
     [r"^bamboo_member_bool_reif\(x,y,b\)"]),
    ("table_int reified", """include "table.mzn";
array[1..2] of var 0..2: x; var bool: b; constraint b <-> table(x, [|1,2|2,0|0,0|]);""",
     [r"^bamboo_table_int_reif\(x,\[1,2,2,0,0,0\],b\)"]),
    ("table_bool reified (std aborts; the reference is the disjunction)", """include "table.mzn";
array[1..2] of var bool: x; var bool: b; constraint b <-> table(x, [|true,false|false,true|]);""",
     [r"^bamboo_table_bool_reif\(x,\[true,false,false,true\],b\)"], False,
     """array[1..2] of var bool: x; var bool: b;
constraint b <-> ((x[1] /\\ not x[2]) \\/ (not x[1] /\\ x[2]));"""),
    ("disjoint", """include "disjoint.mzn";
var set of 1..3: s; var set of 2..3: t; constraint disjoint(s, t);""", [r"^fzn_disjoint\(s,t\)$"]),
    ("at_most", """include "at_most.mzn";
array[1..3] of var 0..2: x; constraint at_most(1, x, 2);""", [r"^fzn_count_geq\(x,2,1\)$"], "warns: at_most is deprecated since MiniZinc 2.4"),
    ("at_least", """include "at_least.mzn";
array[1..3] of var 0..2: x; constraint at_least(2, x, 2);""", [r"^fzn_count_leq\(x,2,2\)$"], "warns: at_least is deprecated since MiniZinc 2.4"),
    ("exactly", """include "exactly.mzn";
array[1..3] of var 0..2: x; constraint exactly(2, x, 1);""", [r"^fzn_count_eq\(x,1,2\)$"], "warns: exactly is deprecated since MiniZinc 2.4"),
    ("bin_packing_capa, bins 2..3", """include "bin_packing_capa.mzn";
array[1..3] of var 1..4: bin; constraint bin_packing_capa(array1d(2..3, [3,4]), bin, [2,2,1]);""",
     [r"^bamboo_bin_packing_load\(X_INTRODUCED_\d+_,bin,\[2,2,1\],2\)$"]),
    ("bin_packing", """include "bin_packing.mzn";
array[1..3] of var 1..3: bin; constraint bin_packing(3, bin, [2,2,1]);""",
     [r"^bamboo_bin_packing_load\(X_INTRODUCED_\d+_,bin,\[2,2,1\],1\)$"]),
    ("globals.mzn (fails with Debian's Gecode library)", """include "globals.mzn";
array[1..3] of var 1..3: f; array[1..3] of var 1..3: g; constraint inverse(f, g);""",
     [r"^bamboo_inverse\(f,1,g,1\)$"]),
    ("a reified global without a native reification decomposes", """include "all_different.mzn";
array[1..3] of var 0..3: x; var bool: b; constraint b <-> all_different(x);""", [r"^int_lin_ne_reif\("]),
    ("stable_matching_smti_strong", """include "stable_matching_smti.mzn";
array[0..1] of var int: men; array[0..1] of var int: women; var int: size;
constraint stable_matching_smti_strong(men, women, [|0,1|1,0|], [2,2], [|0,0|0,1|], [|0,1|0,1|], [2,2],
                                       [|1,1|0,1|], size);""",
     [r"^bamboo_stable_matching_smti_strong\(men,women,size,0,\[0,1,1,0\],\[2,2\],2,\[0,0,0,1\],2,"
      r"\[0,1,0,1\],\[2,2\],2,\[1,1,0,1\],2\)$"]),
    ("stable_matching_hrt_super", """include "stable_matching_hrt.mzn";
array[1..2] of var int: residents; array[1..1] of var int: load; var int: size;
constraint stable_matching_hrt_super(residents, load, [|1|1|], [1,1], [|0|0|], [|1,2|], [2], [|0,0|], [1],
                                     size);""",
     [r"^bamboo_stable_matching_hrt_super\(residents,load,size,1,\[1,1\],\[1,1\],1,\[0,0\],1,"
      r"\[1,2\],\[2\],2,\[0,0\],2,\[1\]\)$"]),
    ("stable_matching_smti_super_file", """include "stable_matching_smti_file.mzn";
array[0..1] of var int: men; array[0..1] of var int: women; var int: size;
constraint stable_matching_smti_super_file(men, women, [2,2], [2,2], size, "x.smti");""",
     [r"^bamboo_stable_matching_smti_super_file\(men,women,size,0,\[2,2\],\[2,2\]\)"
      r":: bamboo_data_file\(\"x.smti\"\)$"]),
    ("stable_matching_hrt_strong_file", """include "stable_matching_hrt_file.mzn";
array[1..2] of var int: residents; array[1..1] of var int: load; var int: size;
constraint stable_matching_hrt_strong_file(residents, load, size, "x.hrt");""",
     [r"^bamboo_stable_matching_hrt_strong_file\(residents,load,size,1,\[\],\[\],\[\]\)"
      r":: bamboo_data_file\(\"x.hrt\"\)$"]),
    ("stable_matching, seed 003 Figure 1", """include "stable_matching.mzn";
int: n = 5;
array [1..5] of var 0..n-1: men;
array [1..5] of var 0..n-1: women;
array [int, int] of 0..n-1: pm = [|3,4,1,2,0|0,1,3,2,4|0,4,3,2,1|2,1,4,3,0|0,1,4,2,3|];
array [int, int] of 0..n-1: pw = [|1,3,4,0,2|2,3,0,4,1|0,2,1,4,3|0,3,2,1,4|1,4,0,3,2|];
constraint stable_matching(men, women, pm, pw) ::gpu;""",
     [r"^bamboo_stable_matching\(men,women,\[3,4,1,2,0,0,1,3,2,4,0,4,3,2,1,2,1,4,3,0,0,1,4,2,3\],\[1,3,4,0,2,2,3,0,4,1,0,2,1,4,3,0,3,2,1,4,1,4,0,3,2\],5,5,5,5\):: gpu$"]),
    ("stable_matching, 1-based, odd index sets", """include "stable_matching.mzn";
array[0..1] of var 1..2: men; array[0..1] of var 1..2: women;
array[0..1, 0..1] of int: pm = array2d(0..1, 0..1, [1,2,2,1]);
constraint stable_matching(men, women, pm, array2d(3..4, 5..6, [1,2,2,1])) :: cpu;""",
     [r"^bamboo_stable_matching\(men,women,\[1,2,2,1\],\[1,2,2,1\],2,2,2,2\):: cpu$"]),
    ("stable_matching :: uniud", """include "stable_matching.mzn";
array[1..2] of var 0..1: men; array[1..2] of var 0..1: women;
constraint stable_matching(men, women, [|0,1|1,0|], [|0,1|0,1|]) :: uniud;""",
     [r"^bamboo_stable_matching\(.*\):: uniud$"]),
    ("stable_matching_partners", """include "stable_matching.mzn";
array[1..3] of var 0..2: wife; array[1..3] of var 0..2: husband;
constraint stable_matching_partners(wife, husband, [|0,1,2|1,2,0|2,0,1|], [|1,2,0|2,0,1|0,1,2|]) :: gpu;""",
     [r"^bamboo_stable_matching\(X_INTRODUCED_\d+_,X_INTRODUCED_\d+_,\[0,1,2,1,2,0,2,0,1\],\[1,2,0,2,0,1,0,1,2\],3,3,3,3\):: gpu$",
      r"^bamboo_array_int_element_nonshifted\(\w+,\[0,1,2\],0,"]),
    ("stable_matching_smi, base 1, padding", """include "stable_matching_smi.mzn";
array[1..3] of var int: men; array[1..2] of var int: women;
constraint stable_matching_smi(men, women, [|2,1|1,9|2,2|], [2,1,1], [|1,3|3,2|], [2,2]) :: gpu;""",
     [r"^bamboo_stable_matching_smi\(men,women,1,\[2,1,1,9,2,2\],\[2,1,1\],2,\[1,3,3,2\],\[2,2\],2\):: gpu$"]),
    ("stable_matching_smi, base 0, odd index sets", """include "stable_matching_smi.mzn";
array[0..1] of var int: men; array[0..2] of var int: women;
constraint stable_matching_smi(men, women, array2d(3..4, 5..7, [2,0,1,1,7,7]), array1d(4..5, [3,1]),
                               array2d(1..3, 1..1, [0,1,1]), [1,1,0]) :: cpu;""",
     [r"^bamboo_stable_matching_smi\(men,women,0,\[2,0,1,1,7,7\],\[3,1\],3,\[0,1,1\],\[1,1,0\],1\):: cpu$"]),
    ("stable_matching_smi, no women", """include "stable_matching_smi.mzn";
array[1..2] of var int: men; array[1..0] of var int: women;
constraint stable_matching_smi(men, women, array2d(1..2, 1..0, []), [0,0], array2d(1..0, 1..0, []), []);
solve satisfy;""", []),
    ("stable_matching_smi_partners", """include "stable_matching_smi.mzn";
array[1..2] of var int: wife; array[1..2] of var int: husband;
constraint stable_matching_smi_partners(wife, husband, [|1,2|2,1|], [2,1], [|2|1|], [1,1]) :: uniud;""",
     [r"^bamboo_stable_matching_smi\(X_INTRODUCED_\d+_,X_INTRODUCED_\d+_,1,\[1,2,2,1\],\[2,1\],2,\[2,1\],\[1,1\],1\):: uniud$",
      r"^array_int_element\("]),
    ("stable_matching_hr: native, nothing cloned", """include "stable_matching_hr.mzn";
array[1..3] of var int: residents; array[1..2, 1..2] of var int: posts;
constraint stable_matching_hr(residents, posts, [|1,2|2,1|1,0|], [2,2,1], [|3,2,1|1,2,0|], [3,2], [2,1]);""",
     [r"^bamboo_stable_matching_hr\(\w+,\[X_INTRODUCED_\d+_(,X_INTRODUCED_\d+_){3}\],2,1,\[1,2,2,1,1,0\],\[2,2,1\],2,"
      r"\[3,2,1,1,2,0\],\[3,2\],3,\[2,1\]\)$"]),
    ("stable_matching_hr_cloning: hospitals cloned into posts", """include "stable_matching_hr.mzn";
array[1..3] of var int: residents; array[1..2, 1..2] of var int: posts;
constraint stable_matching_hr_cloning(residents, posts, [|1,2|2,1|1,0|], [2,2,1], [|3,2,1|1,2,0|], [3,2], [2,1]);""",
     # posts 1 and 2 are hospital 1's, post 3 hospital 2's: resident 1 lists 1,2,3, resident 2 3,1,2
     [r"^bamboo_stable_matching_smi\(X_INTRODUCED_\d+_,X_INTRODUCED_\d+_,1,\[1,2,3,3,1,2,1,2,1\],\[3,3,2\],3,"
      r"\[3,2,1,3,2,1,1,2,0\],\[3,3,2\],3\)$",
      r"^array_int_element\("]),
]


def allowed_names(natives_md, builtins_mzn):
    names = set()
    with open(builtins_mzn) as f:
        for m in re.finditer(r"^predicate\s+(\w+)\s*\(", f.read(), re.M):
            names.add(m.group(1))
    with open(natives_md) as f:
        for line in f:
            if line.startswith("| `"):
                first = line.split("|")[1]
                names.update(re.findall(r"`(\w+)`", first))
                # "(also `bamboo_member_int_reif` ...)" in the arguments column
                names.update(re.findall(r"also `(\w+)`", line))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minizinc", default="minizinc")
    ap.add_argument("--mznlib", default=os.path.join(ROOT, "minizinc", "mznlib"))
    ap.add_argument("--stdlib", default="/usr/share/minizinc/std",
                    help="MiniZinc's std folder, for flatzinc_builtins.mzn")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    allowed = allowed_names(os.path.join(ROOT, "minizinc", "NATIVES.md"),
                            os.path.join(args.stdlib, "flatzinc_builtins.mzn"))
    tmp = tempfile.mkdtemp(prefix="bamboo-mznlib-")
    msc = {
        "id": "org.bamboo.mznlib-check", "name": "bamboo mznlib check", "version": "0.0.0",
        "mznlib": os.path.abspath(args.mznlib), "executable": "/bin/false",
        "supportsMzn": False, "supportsFzn": True, "needsSolns2Out": True,
    }
    with open(os.path.join(tmp, "check.msc"), "w") as f:
        json.dump(msc, f)
    env = dict(os.environ, MZN_SOLVER_PATH=tmp)

    # the snippets above, then every example model with its data (names only)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from check_models import RUNS, MODELS
    cases = [(label, model, patterns, case[3] if len(case) > 3 else False, None)
             for case in CASES for label, model, patterns in [case[:3]]]
    cases += [("models/%s %s" % (m, " ".join(d)), None, [r"^bamboo_stable_matching(_smi|_hr)?\("], False,
               [os.path.join(MODELS, m)] + [os.path.join(MODELS, x) for x in d]) for m, d in RUNS]

    failures = 0
    # The files both libraries need (the SMI checks and helpers, HR's checks, helpers and reduction, the
    # decomposition bamboo uses for the reified forms) have one copy, in minizinc/decomposition:
    # mznlib holds no copy of them, at most a file that includes the one copy.
    for name in ("stable_matching_lists.mzn", "stable_matching_hr_common.mzn", "stable_matching_decomposition.mzn",
                 "stable_matching_partners.mzn"):
        one = os.path.isfile(os.path.join(ROOT, "minizinc", "decomposition", name))
        mine = os.path.join(ROOT, "minizinc", "mznlib", name)
        if os.path.isfile(mine):
            code = [l for l in open(mine).read().splitlines() if l.strip() and not l.lstrip().startswith("%")]
            one = one and code == ['include "../decomposition/%s";' % name]
        failures += not one
        print("%s  minizinc/decomposition/%s is the one copy (mznlib includes it)" % ("ok  " if one else "FAIL", name))
    for k, (label, model, patterns, allow_warning, files) in enumerate(cases):
        mzn = os.path.join(tmp, "c%d.mzn" % k)
        fzn = os.path.join(tmp, "c%d.fzn" % k)
        if files is None:
            with open(mzn, "w") as f:
                f.write(model + "\n")
            files = [mzn]
        p = subprocess.run([args.minizinc, "--solver", "org.bamboo.mznlib-check", "-c", "--no-output-ozn"] + files + ["-o", fzn],
                           capture_output=True, text=True, env=env)
        problems = []
        constraints = []
        if p.returncode != 0:
            problems.append("minizinc failed: " + p.stderr.strip()[-400:])
        else:
            if p.stderr.strip() and not (allow_warning and "Warning" in p.stderr):
                problems.append("stderr: " + p.stderr.strip()[:300])
            with open(fzn) as f:
                lines = f.read().splitlines()
            # Parameter arrays are named in the FlatZinc; put their values back in place.
            params = {}
            for line in lines:
                m = re.match(r"array \[[^]]*\] of (?:int|bool): (\w+) = (\[.*\]);$", line)
                if m:
                    params[m.group(1)] = m.group(2)
            constraints = [re.sub(r"\b(X_INTRODUCED_\d+_)", lambda m: params.get(m.group(1), m.group(1)),
                                  line[len("constraint "):].rstrip(";"))
                           for line in lines if line.startswith("constraint ")]
            for pat in patterns:
                if not any(re.search(pat, c) for c in constraints):
                    problems.append("no constraint matches %s" % pat)
            for line in lines:
                if line.startswith("predicate ") and "::" in line:
                    problems.append("annotations in a FlatZinc predicate item: " + line[:120])
            for c in constraints:
                name = c.split("(", 1)[0]
                if name not in allowed:
                    problems.append("%s is neither a FlatZinc builtin nor a bamboo native" % name)
        if problems:
            failures += 1
            print("FAIL  %s" % label)
            for pr in problems:
                print("        " + pr)
            for c in constraints:
                print("        | " + c)
        else:
            print("ok    %s" % label)
            if args.verbose:
                for c in constraints:
                    print("        | " + c)
    print("%d failure(s) in %d cases" % (failures, len(cases)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
