// chance_outcome.hpp - which outcome of a chance node a uniform draw picks, for every engine that plays chance
// nodes through the per-state rules (generic playouts, evaluation-valued leaves' random plies), so they agree.
#pragma once

#include <cstdint>

namespace gsdk::core {

// The outcome that u in [0, 1) falls on among n outcomes of these probabilities, in order; the last absorbs what
// rounding leaves over.
inline uint32_t chance_outcome(double u, const double* probabilities, uint32_t n) {
  for (uint32_t k = 0; k + 1 < n; ++k) {
    if (u < probabilities[k]) return k;
    u -= probabilities[k];
  }
  return n - 1;
}

} // namespace gsdk::core
