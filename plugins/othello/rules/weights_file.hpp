// weights_file.hpp - the file format of Othello's pattern weights (data/evaluation_weights.bin), written by
// tools/fit_evaluation and embedded into othello.so at build time. Host only.
//
// Little-endian: the magic "GSDKOTEV", uint32 format version, stage count, entries per stage, weights per disc,
// pattern count and each pattern's square count (so a file for another layout is refused), then the settings
// the tool ran with (uint32 length, text), then the weights of every stage, zero runs encoded: the int16 value
// kZeroRun followed by a uint16 count stands for that many zeros (most pattern configurations never occur in
// training, so the tables are mostly zeros; this keeps the file well under 2 MiB in git).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "patterns.hpp"

namespace othello {

inline constexpr char kWeightsMagic[8] = {'G', 'S', 'D', 'K', 'O', 'T', 'E', 'V'};
// Version 2 orders each pattern's digits by descending square (rules/patterns.hpp); version 1's tables, in
// another digit order, would give wrong values.
inline constexpr uint32_t kWeightsFormatVersion = 2;
inline constexpr int16_t kZeroRun = INT16_MIN;

struct EvaluationWeightsFile {
  std::string settings;         // how the tool made it
  std::vector<int16_t> weights; // kEvaluationStages * stage_entries, stage by stage
};

namespace weights_detail {

inline void put32(std::vector<unsigned char>& out, uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<unsigned char>(v >> (8 * k)));
}
inline void put16(std::vector<unsigned char>& out, uint16_t v) {
  out.push_back(static_cast<unsigned char>(v));
  out.push_back(static_cast<unsigned char>(v >> 8));
}

class Reader {
public:
  explicit Reader(std::span<const unsigned char> bytes) : bytes_(bytes) {}
  uint32_t get32(const char* what) {
    need(4, what);
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= uint32_t{bytes_[at_ + k]} << (8 * k);
    at_ += 4;
    return v;
  }
  uint16_t get16(const char* what) {
    need(2, what);
    const auto v = static_cast<uint16_t>(bytes_[at_] | bytes_[at_ + 1] << 8);
    at_ += 2;
    return v;
  }
  std::span<const unsigned char> take(size_t n, const char* what) {
    need(n, what);
    const auto part = bytes_.subspan(at_, n);
    at_ += n;
    return part;
  }
  bool done() const { return at_ == bytes_.size(); }
  size_t at() const { return at_; }

private:
  void need(size_t n, const char* what) const {
    if (bytes_.size() - at_ < n)
      throw std::invalid_argument("evaluation weights: the data ends at byte " + std::to_string(at_) + " inside " +
                                  what);
  }
  std::span<const unsigned char> bytes_;
  size_t at_ = 0;
};

inline void expect(uint32_t found, uint32_t expected, const char* what, const std::string& why = "") {
  if (found != expected)
    throw std::invalid_argument(std::string("evaluation weights: ") + what + " is " + std::to_string(found) +
                                ", expected " + std::to_string(expected) + why);
}

inline void expect_version(uint32_t found) {
  expect(found, kWeightsFormatVersion, "the format version",
         found == 1 ? " (version 1 lists each pattern's squares in another digit order: fit the weights again "
                      "with fit_evaluation)"
                    : "");
}

} // namespace weights_detail

inline std::vector<unsigned char> encode_weights(const EvaluationWeightsFile& file) {
  using namespace weights_detail;
  std::vector<unsigned char> out(std::begin(kWeightsMagic), std::end(kWeightsMagic));
  put32(out, kWeightsFormatVersion);
  put32(out, kEvaluationStages);
  put32(out, kPatternLayout.stage_entries);
  put32(out, kWeightsPerDisc);
  put32(out, kPatternKinds);
  for (uint32_t size : kPatternLayout.kind_size) put32(out, size);
  put32(out, static_cast<uint32_t>(file.settings.size()));
  out.insert(out.end(), file.settings.begin(), file.settings.end());
  for (size_t k = 0; k < file.weights.size();) {
    if (file.weights[k] != 0) {
      put16(out, static_cast<uint16_t>(file.weights[k++]));
      continue;
    }
    size_t run = 0;
    while (k < file.weights.size() && file.weights[k] == 0 && run < UINT16_MAX) ++k, ++run;
    put16(out, static_cast<uint16_t>(kZeroRun));
    put16(out, static_cast<uint16_t>(run));
  }
  return out;
}

// The weights of a file, checked against this build's layout; a clear message on any mismatch.
inline EvaluationWeightsFile decode_weights(std::span<const unsigned char> bytes) {
  using namespace weights_detail;
  Reader in(bytes);
  const auto magic = in.take(sizeof kWeightsMagic, "the magic");
  if (std::memcmp(magic.data(), kWeightsMagic, sizeof kWeightsMagic) != 0)
    throw std::invalid_argument("evaluation weights: the data does not start with GSDKOTEV");
  expect_version(in.get32("the format version"));
  expect(in.get32("the stage count"), kEvaluationStages, "the stage count");
  expect(in.get32("the stage size"), kPatternLayout.stage_entries, "the number of weights per stage");
  expect(in.get32("the unit"), kWeightsPerDisc, "the number of weights per disc");
  expect(in.get32("the pattern count"), kPatternKinds, "the pattern count");
  for (uint32_t kind = 0; kind < kPatternKinds; ++kind)
    expect(in.get32("the pattern sizes"), kPatternLayout.kind_size[kind], "a pattern's square count");
  EvaluationWeightsFile file;
  const auto settings = in.take(in.get32("the settings length"), "the settings");
  file.settings.assign(settings.begin(), settings.end());
  const size_t total = size_t{kEvaluationStages} * kPatternLayout.stage_entries;
  file.weights.reserve(total);
  while (!in.done()) {
    const auto value = static_cast<int16_t>(in.get16("the weights"));
    const size_t run = value == kZeroRun ? in.get16("a zero run") : 1;
    if (file.weights.size() + run > total)
      throw std::invalid_argument("evaluation weights: more than " + std::to_string(total) + " weights (byte " +
                                  std::to_string(in.at()) + ")");
    file.weights.insert(file.weights.end(), run, value == kZeroRun ? int16_t{0} : value);
  }
  expect(static_cast<uint32_t>(file.weights.size()), static_cast<uint32_t>(total), "the number of weights");
  return file;
}

} // namespace othello
