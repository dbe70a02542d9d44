// Out of memory where no C caller can be told: the flag that keeps spaces Gecode may have
// left half-cloned alive (shim_internal.hh), and the terminate handler that names the cause
// of an exception in one of Gecode's search threads (bb_search.h, bb_set_fatal_handler).
#include "bb_search.h"
#include "shim_internal.hh"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace bb_shim {

namespace {

std::atomic<bool> gecode_oom{false};
std::atomic<int> starting_threads{0};
std::atomic<bb_fatal_handler> fatal_handler{nullptr};

// Gecode's worker threads do not catch: an exception there (MemoryExhausted during a
// clone, above all) reaches std::terminate in that thread. So does a thread that cannot
// be started, through a mutex destroyed while held, without an exception to look at.
[[noreturn]] void on_terminate() {
  char msg[400];
  bool oom = false;
  std::exception_ptr e = std::current_exception();
  if (!e) {
    std::fputc('\n', stderr); // Gecode wrote a line without its end before std::terminate
    oom = starting_threads.load() > 0;
    std::snprintf(msg, sizeof msg, "%s",
                  oom ? "cannot start the parallel search's threads: out of memory or another system resource"
                      : "internal error: std::terminate without an exception");
  } else {
    try {
      std::rethrow_exception(e);
    } catch (const Gecode::MemoryExhausted &) {
      oom = true;
      std::snprintf(msg, sizeof msg, "out of memory in a search thread (Gecode's heap)");
    } catch (const std::bad_alloc &) {
      oom = true;
      std::snprintf(msg, sizeof msg, "out of memory in a search thread");
    } catch (const Gecode::OperatingSystemError &x) {
      oom = true;
      std::snprintf(msg, sizeof msg, "out of memory or another system resource in the parallel search (Gecode: %s)",
                    x.what());
    } catch (const std::exception &x) {
      std::snprintf(msg, sizeof msg, "internal error in a search thread: %s", x.what());
    } catch (...) { std::snprintf(msg, sizeof msg, "internal error in a search thread: unknown C++ exception"); }
  }
  if (oom) note_gecode_out_of_memory();
  if (bb_fatal_handler fn = fatal_handler.load()) fn(msg, oom);
  std::fputs(msg, stderr);
  std::fputc('\n', stderr);
  std::abort();
}

} // namespace

void note_gecode_out_of_memory() {
  gecode_oom.store(true);
  bb_note_out_of_memory();
}

bool gecode_out_of_memory() { return gecode_oom.load(); }

starting_search_threads::starting_search_threads() { starting_threads++; }
starting_search_threads::~starting_search_threads() { starting_threads--; }

} // namespace bb_shim

extern "C" void bb_set_fatal_handler(bb_fatal_handler fn) {
  bb_shim::fatal_handler.store(fn);
  std::set_terminate(fn ? bb_shim::on_terminate : nullptr);
}
