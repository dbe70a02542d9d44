// What the advisor-driven stable-matching propagators (StableMatching, StableMatchingHR) have
// in common, as a base (as Gecode's NaryPropagator holds the subscriptions of the propagators
// over a view array): the rank views, one advisor per unassigned view that knows its
// variable's number, and the flag that tells advise() the propagator's own writes (which the
// core follows itself) from the others'.
#ifndef BB_WATCHED_PROPAGATOR_HH
#define BB_WATCHED_PROPAGATOR_HH

#include "smc_domains.hh"

#include <gecode/int.hh>

namespace bamboo {

template <class View>
class WatchedPropagator : public Gecode::Propagator {
 protected:
  typedef VarWatch Watch; // and Propagating: smc_domains.hh

  Gecode::ViewArray<View> x;
  Gecode::Council<Watch> watches;
  bool propagating; // set by a Propagating guard while the core writes the domains

  WatchedPropagator(Gecode::Home home, Gecode::ViewArray<View> &x0)
      : Gecode::Propagator(home), x(x0), watches(home), propagating(false) {}
  WatchedPropagator(Gecode::Space &home, WatchedPropagator &other)
      : Gecode::Propagator(home, other), propagating(false) {
    x.update(home, other.x);
    watches.update(home, other.watches);
  }

  // A posting constructor's last steps, once what it owns on the space's heap is made: an
  // advisor on each unassigned view, dispose() registered (the data shared outside the space
  // is released there; nothing below allocates), the first propagation scheduled.
  void watch(Gecode::Home home) {
    for (int v = 0; v < x.size(); v++)
      if (!x[v].assigned()) x[v].subscribe(home, *new (home) Watch(home, *this, watches, v));
    home.notice(*this, Gecode::AP_DISPOSE);
    View::schedule(home, *this, Gecode::Int::ME_INT_DOM);
  }

  // dispose()'s first steps. A space being deleted is failed first, and then its
  // subscriptions die with it: they are not cancelled one by one. That also keeps dispose
  // away from the variables of a space a clone failed on half-way, which still point into
  // the lost copy (Gecode 6.2).
  void unwatch(Gecode::Space &home) {
    if (!home.failed())
      for (Gecode::Advisors<Watch> as(watches); as(); ++as) x[as.advisor().var].cancel(home, as.advisor());
    watches.dispose(home);
    home.ignore(*this, Gecode::AP_DISPOSE);
  }

 public:
  void reschedule(Gecode::Space &home) override { View::schedule(home, *this, Gecode::Int::ME_INT_DOM); }
};

} // namespace bamboo

#endif
