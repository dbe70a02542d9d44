# Brute force: the woman-optimal stable matching of a complete text instance (no comments),
# printed 'm w' per man. Every perfect matching is tried; among the stable ones each woman's
# best partner is kept, and the stable matching giving every woman that partner is printed.
NR == 1 { n = $1; next }
{ row = NR - 2; for (k = 1; k <= NF; k++) if (row < n) mrank[row, $k] = k; else wrank[row - n, $k] = k }
function stable(   m, w, m2) {
  for (m = 0; m < n; m++) for (w = 0; w < n; w++)
    if (mrank[m, w] < mrank[m, wife[m]] && wrank[w, m] < wrank[w, husband[w]]) return 0
  return 1
}
function place(m,   w) {
  if (m == n) {
    if (!stable()) return
    count++
    for (w = 0; w < n; w++) { all[count, w] = husband[w]; if (!(w in best) || wrank[w, husband[w]] < wrank[w, best[w]]) best[w] = husband[w] }
    return
  }
  for (w = 0; w < n; w++) if (!(w in husband)) { husband[w] = m; wife[m] = w; place(m + 1); delete husband[w] }
}
END {
  place(0)
  for (c = 1; c <= count; c++) {
    ok = 1
    for (w = 0; w < n; w++) if (all[c, w] != best[w]) ok = 0
    if (ok) { for (w = 0; w < n; w++) wife_of[all[c, w]] = w; for (m = 0; m < n; m++) print m, wife_of[m]; exit }
  }
  print "no woman-optimal matching found" > "/dev/stderr"; exit 1
}
