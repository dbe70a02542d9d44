// Minimal reproduction, against plain Gecode 6.2 and no Bamboo code, of the leak LSan
// reports for fzn-bamboo -p N: Gecode's parallel engines (Search::Par::DFS/BAB) queue the
// solutions their workers find, and the engine's destructor frees the queue but not the
// spaces still in it (Gecode issue #156, fixed upstream by PR #161 after 6.2.0).
//
//   g++ -std=c++17 -g -fsanitize=address tests/sanitize/gecode_par_leak.cpp -o gecode_par_leak
//       -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport -pthread      (one line)
//   ./gecode_par_leak time     # threads 2, a TimeStop: LSan reports the queued spaces
//   ./gecode_par_leak first    # threads 2, one next() of many solutions: the same
//   ./gecode_par_leak serial   # threads 1: no leak
//
// The program itself always ends with status 0; under ASan, LeakSanitizer's report at exit
// makes it 1.
#include <gecode/int.hh>
#include <gecode/search.hh>

#include <cstdio>
#include <cstring>

using namespace Gecode;

namespace {

// Every assignment of n variables over 0..9 is a solution: workers find them faster than
// the main thread takes them, so the queue is rarely empty when the engine is deleted.
class all_solutions : public Space {
  IntVarArray x;

 public:
  explicit all_solutions(int n) : x(*this, n, 0, 9) { branch(*this, x, INT_VAR_NONE(), INT_VAL_MIN()); }
  all_solutions(all_solutions &s) : Space(s) { x.update(*this, s.x); }
  Space *copy() override { return new all_solutions(*this); }
};

} // namespace

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "time";
  bool serial = !strcmp(mode, "serial"), timed = !strcmp(mode, "time");
  // Whether a solution is still queued when the engine is deleted is a race between the
  // workers and the main thread: 20 engines make a leak near certain (with "time", one to
  // two of them leaked in every run tried; with "first", thousands of spaces).
  long taken = 0, stopped = 0;
  for (int round = 0; round < 20; round++) {
    Search::Options o;
    o.threads = serial ? 1 : 2;
    o.clone = false;           // the engine owns the root, as in shim/search.cpp
    Search::TimeStop stop(20); // ms
    if (timed) o.stop = &stop;
    DFS<all_solutions> engine(new all_solutions(8), o);
    // "time": take solutions until the limit stops the engine; "first"/"serial": take one.
    while (Space *s = engine.next()) {
      delete s;
      taken++;
      if (!timed) break;
    }
    stopped += engine.stopped();
  } // ~DFS: Par::Engine's solutions queue is freed, the spaces in it are not
  printf("%s: 20 engines, %ld solutions taken, %ld stopped by the time limit\n", mode, taken, stopped);
  return 0;
}
