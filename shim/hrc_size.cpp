// bb_post_hrc_size and its propagator: Gecode's side of propagator/smc/hrc/smc_hrc_size.h. The
// core's data is shared by every copy; the work space (whose matching seeds the next
// propagation) is one per thread.
#include "bb_hrc_size.h"
#include "post_args.hh"
#include "shim_internal.hh"
#include "smc_domains.hh"

#include <atomic>
#include <memory>
#include <unordered_set>

using namespace Gecode;

namespace bamboo {

namespace {

typedef Int::OffsetView View;

struct SizeData {
  bb_smc_hrc_size *core;
  uint64_t serial; // which data a thread's work space was made for
  explicit SizeData(bb_smc_hrc_size *c) : core(c) {
    static std::atomic<uint64_t> next{1};
    serial = next++;
  }
  SizeData(const SizeData &) = delete;
  SizeData &operator=(const SizeData &) = delete;
  ~SizeData() { bb_smc_hrc_size_free(core); }
};

struct SizeScratch {
  bb_smc_hrc_size_scratch *work = nullptr;
  uint64_t serial = 0;
  SizeScratch() = default;
  SizeScratch(const SizeScratch &) = delete;
  SizeScratch &operator=(const SizeScratch &) = delete;
  ~SizeScratch() { bb_smc_hrc_size_scratch_free(work); }
  bb_smc_hrc_size_scratch *fit(const SizeData &d) {
    if (work && serial == d.serial) return work;
    bb_smc_hrc_size_scratch_free(work);
    serial = 0;
    bb_error err = {{0}};
    work = bb_smc_hrc_size_scratch_new(d.core, &err);
    if (!work) throw std::bad_alloc();
    serial = d.serial;
    return work;
  }
};
thread_local SizeScratch scratch;

class HrcSize : public Propagator {
  ViewArray<View> x; // singles, then couples; 0-based ranks
  Int::IntView size;
  std::shared_ptr<SizeData> *data; // heap, one per copy, freed by dispose

  HrcSize(Home home, ViewArray<View> &x0, Int::IntView size0, std::shared_ptr<SizeData> *d)
      : Propagator(home), x(x0), size(size0), data(d) {
    x.subscribe(home, *this, Int::PC_INT_DOM);
    size.subscribe(home, *this, Int::PC_INT_BND);
    home.notice(*this, AP_DISPOSE);
  }
  HrcSize(Space &home, HrcSize &other) : Propagator(home, other), data(new std::shared_ptr<SizeData>(*other.data)) {
    x.update(home, other.x);
    size.update(home, other.size);
  }

 public:
  static void post(Home home, ViewArray<View> &x, Int::IntView size, std::shared_ptr<SizeData> *d) {
    (void)new (home) HrcSize(home, x, size, d);
  }
  Actor *copy(Space &home) override { return new (home) HrcSize(home, *this); }
  PropCost cost(const Space &, const ModEventDelta &) const override {
    return PropCost::linear(PropCost::HI, x.size());
  }
  void reschedule(Space &home) override {
    x.reschedule(home, *this, Int::PC_INT_DOM);
    size.reschedule(home, *this, Int::PC_INT_BND);
  }
  size_t dispose(Space &home) override {
    home.ignore(*this, AP_DISPOSE);
    x.cancel(home, *this, Int::PC_INT_DOM);
    size.cancel(home, *this, Int::PC_INT_BND);
    delete data;
    (void)Propagator::dispose(home);
    return sizeof(*this);
  }
  ExecStatus propagate(Space &home, const ModEventDelta &) override {
    SmcHost host{&home, &x};
    const bb_smc_domains dom = smc_domains(host);
    int lb = 0, ub = 0;
    bb_smc_status r =
        bb_smc_hrc_size_propagate((*data)->core, scratch.fit(**data), &dom, size.min(), size.max(), &lb, &ub);
    if (r == BB_SMC_FAILED) return ES_FAILED;
    ModEvent lo = size.gq(home, lb), hi = size.lq(home, ub);
    if (me_failed(lo) || me_failed(hi)) return ES_FAILED;
    if (r == BB_SMC_CHANGED || lo != Int::ME_INT_NONE || hi != Int::ME_INT_NONE) return ES_NOFIX;
    if (x.assigned()) return home.ES_SUBSUMED(*this);
    return ES_FIX;
  }
};

} // namespace

} // namespace bamboo

extern "C" bb_status bb_post_hrc_size(bb_space *sp, const int *singles, int n_singles, const int *couples,
                                      int n_couples, int size, int base, const bb_smc_hrc_size_lists *lists,
                                      bb_error *err) {
  static const char fn[] = "stable_matching_hrc (size)";
  return bb_shim::posting(sp, err, fn, [&](bb_space &s) -> bb_status {
    if (!lists) return bb_fail(err, BB_ERR_ARG, "%s: no lists", fn);
    if (base != 0 && base != 1) return bb_fail(err, BB_ERR_ARG, "%s: base %d; ranks count from 0 or 1", fn, base);
    if (lists->n_singles != n_singles || lists->n_couples != n_couples)
      return bb_fail(err, BB_ERR_INPUT, "%s: the lists have %d singles and %d couples, the constraint %d and %d", fn,
                     lists->n_singles, lists->n_couples, n_singles, n_couples);
    bb_smc_hrc_size *built = nullptr;
    bb_status st = bb_smc_hrc_size_new(lists, &built, err);
    if (st != BB_OK) return st;
    auto data = std::make_unique<std::shared_ptr<bamboo::SizeData>>(std::make_shared<bamboo::SizeData>(built));
    IntVarArgs sv = bb_shim::int_vars(s, singles, n_singles, "singles");
    IntVarArgs cv = bb_shim::int_vars(s, couples, n_couples, "couples");
    IntVar sizev = bb_shim::int_vars(s, &size, 1, "size")[0];
    Space &home = s;
    int n = n_singles + n_couples;
    ViewArray<Int::OffsetView> x(home, n);
    std::unordered_set<const void *> seen;
    for (int v = 0; v < n; v++) {
      IntVar var = v < n_singles ? sv[v] : cv[v - n_singles];
      if (!seen.insert(var.varimp()).second) { // the core reads each variable as one resident
        IntVar copy(home, Int::Limits::min, Int::Limits::max);
        rel(home, copy, IRT_EQ, var);
        var = copy;
      }
      dom(home, var, base, base + bb_smc_hrc_size_len((*data)->core, v));
      x[v] = Int::OffsetView(Int::IntView(var), -base);
    }
    dom(home, sizev, 0, bb_smc_hrc_size_residents((*data)->core));
    if (home.failed()) return BB_OK;
    bamboo::HrcSize::post(home, x, Int::IntView(sizev), data.release());
    return BB_OK;
  });
}
