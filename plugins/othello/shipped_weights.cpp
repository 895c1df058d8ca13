// shipped_weights.cpp - decodes the embedded weights file once, on first use.
#include "shipped_weights.hpp"

#include <stdexcept>

#include "gsdk/plugin.hpp"
#include "rules/weights_file.hpp"

namespace othello {

const std::vector<int16_t>& shipped_pattern_weights() {
  static const std::vector<int16_t> weights = [] {
    try {
      return decode_weights({kEmbeddedEvaluationWeights, kEmbeddedEvaluationWeightsSize}).weights;
    } catch (const std::invalid_argument& e) {
      throw gsdk::PluginError(std::string("othello: the embedded data/evaluation_weights.bin: ") + e.what());
    }
  }();
  return weights;
}

} // namespace othello
