// shipped_weights.cpp - decodes the embedded weights file once, on first use.
#include "shipped_weights.hpp"

#include <cerrno>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

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

std::shared_ptr<const std::vector<int16_t>> pattern_weights_from_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  // errno's words (thread-safe, unlike strerror) tell a missing file from one that may not be read.
  if (!file)
    throw gsdk::PluginError("othello: weights = '" + path +
                            "': cannot open the file: " + std::generic_category().message(errno));
  const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (file.bad()) throw gsdk::PluginError("othello: weights = '" + path + "': cannot read the file");
  try {
    return std::make_shared<const std::vector<int16_t>>(decode_weights(bytes).weights);
  } catch (const std::invalid_argument& e) {
    throw gsdk::PluginError("othello: weights = '" + path + "': " + e.what());
  }
}

} // namespace othello
