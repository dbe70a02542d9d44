#!/usr/bin/env python3
"""An HR instance with many stable matchings, for timing search (bench/hr_native.sh): blocks
of B hospitals of capacity C, C * B residents per block, lists of K = B. Inside a block,
resident r of group g = r mod B ranks the block's hospitals g, g + 1, ... cyclically, and each
hospital ranks first the groups that rank it last, so each block has several stable
matchings (13 when capacities are 3) and the blocks are independent: a search that takes
middle values needs decisions in every block.

    bench/hr_blocks.py BLOCKS NAME      writes NAME.txt (bamboo-smp's hr format) and NAME.dzn"""
import sys

B, C = 5, 10
blocks, name = int(sys.argv[1]), sys.argv[2]
nh = B * blocks
nr = nh * C
res = [[(r % nh) // B * B + ((r % nh) % B + k) % B for k in range(B)] for r in range(nr)]
hosp = []
for h in range(nh):
    block, hh = divmod(h, B)
    hosp.append([r for d in range(B - 1, -1, -1) for r in range(block * B + (hh - d) % B, nr, nh)])
with open(name + ".txt", "w") as f:
    f.write("hr %d %d\n" % (nr, nh))
    f.writelines(" ".join(map(str, row)) + "\n" for row in res)
    f.writelines("%d: %s\n" % (C, " ".join(map(str, row))) for row in hosp)
with open(name + ".dzn", "w") as f:
    f.write('n_residents = %d;\nn_hospitals = %d;\ncapacity = %s;\nrp_len = %s;\nhp_len = %s;\nprefs_file = "%s.txt";\n'
            % (nr, nh, [C] * nh, [B] * nr, [len(row) for row in hosp], name))
