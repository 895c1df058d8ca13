// adaptation.hpp - Rosin's policy adaptation, the one definition core's CPU NRPA, the SDK's GPU NRPA
// (gsdk/nested/nrpa_search.hpp) and the tests' recursive reference all run.
//
// Adapting a policy to a sequence: at every step with n > 1 legal moves, the chosen move's code gains alpha and
// every legal move's code adds adaptation_loss(alpha, its weight, the step's total), every weight taken from the
// policy *before* the adaptation. step_deltas() computes one step's deltas from the policy it is given and hands
// them, in the order they are to be added (the chosen code first, then the legal moves' in legal_moves order),
// to a sink. Two sinks give the adaptation exactly:
//  - deferred: the sink keeps the deltas and, after the last step, they are added in the order kept (core: a
//    vector; the GPU: a per-search buffer in scratch). Exact for every game.
//  - in place (AddToPolicy): each step's deltas are added at once. A later step then reads the weights of the
//    codes earlier steps changed, so this is exact only when no code is legal at two steps of one sequence: then
//    every step reads weights no earlier step touched, and each code receives its deltas in the same order, so
//    the bits are those of the deferred sink. Snake's codes name the head vertex, which a snake visits once;
//    a game declares this (NrpaRules' kDistinctStepCodes), and saves the buffer and its second pass.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/nrpa/policy_softmax.hpp"

namespace gsdk::nrpa {

// The deltas of one step of the sequence: n legal moves with `codes`, `chosen` the code played; `weights` is
// scratch for n values. A step with one legal move has none (its weight cannot change a choice).
template <typename Sink>
GSDK_HD void step_deltas(const double* policy, const uint32_t* codes, uint32_t n, uint32_t chosen, double alpha,
                         double* weights, Sink&& sink) {
  if (n < 2) return;
  const double total = softmax_weights(policy, codes, n, weights);
  sink(chosen, alpha);
  for (uint32_t k = 0; k < n; ++k) sink(codes[k], adaptation_loss(alpha, weights[k], total));
}

// The in-place sink: adds each delta to the policy as it comes.
struct AddToPolicy {
  double* policy;
  GSDK_HD void operator()(uint32_t code, double delta) const { policy[code] += delta; }
};

} // namespace gsdk::nrpa
