// shipped_weights.hpp - the pattern weights othello.so ships: data/evaluation_weights.bin, embedded at build
// time (data/embed_weights.cmake writes it as an array), so that the plugin needs no file at run time; and
// weights read from a file that fit_evaluation wrote (the game's `weights` parameter), to try new fits without
// rebuilding the plugin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace othello {

extern const unsigned char kEmbeddedEvaluationWeights[];
extern const size_t kEmbeddedEvaluationWeightsSize;

// The embedded file decoded once (rules/weights_file.hpp): kEvaluationStages * stage_entries weights. Throws
// gsdk::PluginError if the embedded file does not fit this build's pattern layout.
const std::vector<int16_t>& shipped_pattern_weights();

// The weights of the file at `path`. Throws gsdk::PluginError naming the file and what is wrong with it.
std::shared_ptr<const std::vector<int16_t>> pattern_weights_from_file(const std::string& path);

} // namespace othello
