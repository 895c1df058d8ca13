// pattern_symmetry.hpp - a pattern's configurations up to its own symmetries (the edge read from either end,
// the corner 3x3 mirrored on its diagonal, ...): the fit gives all of them one weight, so that the shipped tables
// make the evaluation exactly symmetric under the 8 board symmetries (rules/patterns.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "rules/patterns.hpp"

namespace othello::fit {

// For every pattern, canonical[index]: the least index among its images (the same table position in a stage).
class PatternSymmetry {
public:
  PatternSymmetry() {
    using namespace pattern_detail;
    for (uint32_t kind = 0; kind < kPatternKinds; ++kind) {
      const Shape& shape = kShapes[kind];
      std::vector<std::vector<uint32_t>> permutations; // digit k moves to position permutation[k]
      for (uint32_t g = 0; g < 8; ++g) {
        if (square_set(shape, g) != square_set(shape, 0)) continue;
        std::vector<uint32_t> permutation(shape.size);
        for (uint32_t k = 0; k < shape.size; ++k)
          permutation[k] = static_cast<uint32_t>(
              std::find(shape.squares, shape.squares + shape.size, transform(g, shape.squares[k])) - shape.squares);
        permutations.push_back(permutation);
      }
      const uint32_t count = power_of_three(shape.size);
      std::vector<uint32_t>& canonical = canonical_[kind];
      canonical.resize(count);
      std::vector<uint32_t> digits(shape.size), moved(shape.size);
      for (uint32_t index = 0; index < count; ++index) {
        for (uint32_t k = shape.size, rest = index; k-- > 0; rest /= 3) digits[k] = rest % 3;
        uint32_t least = index;
        for (const auto& permutation : permutations) {
          for (uint32_t k = 0; k < shape.size; ++k) moved[permutation[k]] = digits[k];
          uint32_t image = 0;
          for (uint32_t d : moved) image = image * 3 + d;
          least = std::min(least, image);
        }
        canonical[index] = least;
      }
    }
  }
  uint32_t canonical(uint32_t kind, uint32_t index) const { return canonical_[kind][index]; }

private:
  std::vector<uint32_t> canonical_[kPatternKinds];
};

} // namespace othello::fit
