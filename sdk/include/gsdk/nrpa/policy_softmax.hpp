// policy_softmax.hpp - NRPA's arithmetic (the softmax over a state's legal moves, the draw of a move, the
// adaptation's deltas), written so that the host and a CUDA kernel compute the same bits.
//
// Why: a search on the CPU and the same search on a GPU must find the same sequence for the same seed, and
// one weight that differs in its last bit can flip a draw and send the two down different games. The
// standard exp differs between glibc and CUDA's libdevice, and nvcc fuses a product followed by a sum into
// one FMA (one rounding instead of two) where the host does not. So: exp is computed here from +, * and
// ldexp alone (each correctly rounded on both sides), and every product that feeds a sum goes through
// round_product, which nvcc may not fuse. gsdk's host code is built with -ffp-contract=off (and a plugin's CPU
// code never runs this: core's CPU NRPA does).
#pragma once

#include <cmath>
#include <cstdint>

#include "gsdk/hd.hpp"

namespace gsdk::nrpa {

// a * b rounded on its own, never fused with a following addition.
GSDK_HD double round_product(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

GSDK_HD double round_sum(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

// e^x for x <= 0 (a softmax's shifted weights), within a few units in the last place, identical on host and
// device: x = k ln 2 + r with |r| <= ln 2 / 2 (Cody and Waite's two-part ln 2, exact for |k| < 2^20), e^r by
// its Taylor series to r^13 (truncation below 1e-17), then scaled by 2^k. Below -708 the result would be
// subnormal; a weight that small is 0 to every sum it joins, so it is returned as 0.
GSDK_HD double policy_exp(double x) {
  if (x < -708.0) return 0.0;
  constexpr double kLog2e = 1.4426950408889634074;
  constexpr double kLn2High = 6.93147180369123816490e-01; // 32 significant bits: k * kLn2High is exact
  constexpr double kLn2Low = 1.90821492927058770002e-10;
#if defined(__CUDA_ARCH__)
  const double k = rint(round_product(x, kLog2e));
#else
  const double k = std::nearbyint(round_product(x, kLog2e));
#endif
  double r = round_sum(x, -round_product(k, kLn2High));
  r = round_sum(r, -round_product(k, kLn2Low));
  // 1/13!, 1/12!, ..., 1/1!, 1/0!
  constexpr double kInverseFactorials[14] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
                                             1.0 / 3628800.0,    1.0 / 362880.0,    1.0 / 40320.0,
                                             1.0 / 5040.0,       1.0 / 720.0,       1.0 / 120.0,
                                             1.0 / 24.0,         1.0 / 6.0,         0.5,
                                             1.0,                1.0};
  double p = kInverseFactorials[0];
  for (int i = 1; i < 14; ++i) p = round_sum(round_product(p, r), kInverseFactorials[i]);
  return ldexp(p, static_cast<int>(k));
}

// weights[k] = e^(policy[codes[k]] - the largest of them) for the n legal moves; returns their sum, so move
// k's probability is weights[k] / sum.
GSDK_HD double softmax_weights(const double* policy, const uint32_t* codes, uint32_t n, double* weights) {
  double largest = policy[codes[0]];
  for (uint32_t k = 1; k < n; ++k) largest = fmax(largest, policy[codes[k]]);
  double total = 0;
  for (uint32_t k = 0; k < n; ++k) {
    weights[k] = policy_exp(policy[codes[k]] - largest);
    total = round_sum(total, weights[k]);
  }
  return total;
}

// The move a uniform draw u in [0, 1) picks: the first k whose weight covers what is left of u * total.
GSDK_HD uint32_t softmax_pick(const double* weights, uint32_t n, double total, double u) {
  double left = round_product(u, total);
  for (uint32_t k = 0; k + 1 < n; ++k) {
    if (left < weights[k]) return k;
    left = round_sum(left, -weights[k]);
  }
  return n - 1;
}

// Rosin's adaptation at one step of the best sequence: the chosen move's weight gains alpha (applied first),
// every legal move's weight loses alpha times its probability, `weights` and `total` being softmax_weights
// of the policy before the adaptation. This is move k's loss.
GSDK_HD double adaptation_loss(double alpha, double weight, double total) {
  return -round_product(alpha, weight) / total;
}

} // namespace gsdk::nrpa
