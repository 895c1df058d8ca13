// playout_results.cpp - reading a playouts results file for replay, field by field, and checking it
// against itself.
#include "commands/playout_results.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "config/quoted_value.hpp"

namespace gsdk::host {

namespace {

using nlohmann::json;

class FieldReader {
public:
  FieldReader(const json& doc, const std::string& path) : doc_(doc), path_(path) {}

  bool has(const std::string& pointer) const { return doc_.contains(json::json_pointer(pointer)); }

  const json& at(const std::string& pointer, const std::string& expected) const {
    if (!has(pointer))
      throw ResultsFileError(
          fmt::format("{}: not a gsdk results file: {} is missing; expected {}", path_, pointer, expected));
    return doc_.at(json::json_pointer(pointer));
  }

  uint64_t whole(const std::string& pointer, uint64_t max) const {
    const std::string expected = fmt::format("a whole number from 0 to {}", max);
    const json& v = at(pointer, expected);
    if (!v.is_number_unsigned() || v.get<uint64_t>() > max) refuse(pointer, v, expected);
    return v.get<uint64_t>();
  }

  int64_t integer(const std::string& pointer) const {
    const std::string expected = fmt::format("a whole number from {} to {}", std::numeric_limits<int64_t>::min(),
                                             std::numeric_limits<int64_t>::max());
    const json& v = at(pointer, expected);
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      refuse(pointer, v, expected);
    if (!v.is_number_integer()) refuse(pointer, v, expected);
    return v.get<int64_t>();
  }

  double real(const std::string& pointer) const {
    const json& v = at(pointer, "a number");
    if (!v.is_number()) refuse(pointer, v, "a number");
    return v.get<double>();
  }

  std::string text(const std::string& pointer, const std::vector<std::string>& choices = {}) const {
    std::string expected = "a string";
    if (!choices.empty()) {
      expected = "one of";
      for (const std::string& c : choices) expected += fmt::format(" \"{}\"", c);
    }
    const json& v = at(pointer, expected);
    if (!v.is_string()) refuse(pointer, v, expected);
    const std::string value = v.get<std::string>();
    if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end())
      refuse(pointer, v, expected);
    return value;
  }

  [[noreturn]] void refuse(const std::string& pointer, const json& value, const std::string& expected) const {
    throw ResultsFileError(
        fmt::format("{}: {} is {}; expected {}", path_, pointer, quote_value(value.dump(), '`'), expected));
  }

private:
  const json& doc_;
  const std::string& path_;
};

constexpr uint64_t kMaxSeed = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()); // the config's range
constexpr uint64_t kMaxBins = uint64_t{1} << 32;

} // namespace

StoredPlayouts read_playout_results(const json& doc, const std::string& path) {
  if (!doc.is_object()) throw ResultsFileError(fmt::format("{}: not a gsdk results file (not a JSON object)", path));
  const FieldReader f(doc, path);
  if (f.has("/algorithm") && f.text("/algorithm") != "playouts")
    throw ResultsFileError(fmt::format("{}: replay regenerates playouts; this file holds the results of algorithm {}",
                                       path, quote_value(f.text("/algorithm"))));
  StoredPlayouts s;
  s.game = f.text("/game/name");
  s.plugin_version = f.text("/game/plugin/version");
  if (f.has("/game/plugin/path")) s.plugin_path = f.text("/game/plugin/path");
  s.gsdk_version = f.text("/gsdk/version");
  s.params = f.at("/game/params", "an object");
  if (!s.params.is_object()) f.refuse("/game/params", s.params, "an object");
  s.seed = f.whole("/seed", kMaxSeed);
  s.engine = f.text("/engine", {"batch", "generic"});
  if (f.has("/start_state") && !f.at("/start_state", "").is_null()) s.start_state = f.text("/start_state");
  s.status = f.text("/status");
  s.digest = f.text("/digest");
  if (f.has("/experiment/config/playouts/count")) {
    const json& count = f.at("/experiment/config/playouts/count", "");
    if (count.is_number()) s.configured_count = count.get<double>();
  }

  const uint64_t playouts = f.whole("/result/playouts", std::numeric_limits<uint64_t>::max());
  const json& counts = f.at("/result/histogram/counts", "an array of whole numbers");
  if (!counts.is_array() || counts.empty() || counts.size() > kMaxBins)
    f.refuse("/result/histogram/counts", counts, fmt::format("an array of 1 to {} whole numbers", kMaxBins));
  s.result = core::PlayoutResult(f.integer("/result/histogram/score_min"), static_cast<uint32_t>(counts.size()));
  for (size_t k = 0; k < counts.size(); ++k)
    s.result.histogram[k] =
        f.whole(fmt::format("/result/histogram/counts/{}", k), std::numeric_limits<uint64_t>::max());
  s.result.playouts = playouts;
  // The best and worst of N playouts are among playouts 0 .. N - 1.
  const uint64_t last = playouts == 0 ? 0 : playouts - 1;
  s.result.best_score = f.integer("/result/best/score");
  s.result.best_playout = f.whole("/result/best/playout", last);
  s.result.worst_score = f.integer("/result/worst/score");
  s.result.worst_playout = f.whole("/result/worst/playout", last);
  s.mean = f.real("/result/mean");
  s.variance = f.real("/result/variance");
  return s;
}

std::vector<std::string> self_contradictions(const StoredPlayouts& s) {
  std::vector<std::string> found;
  const core::PlayoutResult& r = s.result;
  if (r.digest() != s.digest)
    found.push_back(fmt::format("the digest is {}, but the result it stands for has digest {}", s.digest, r.digest()));
  for (std::string& sentence : r.contradictions()) found.push_back(std::move(sentence));
  const auto close = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); };
  if (!close(s.mean, r.mean())) found.push_back(fmt::format("the mean is {}, the histogram's is {}", s.mean, r.mean()));
  if (!close(s.variance, r.variance()))
    found.push_back(fmt::format("the variance is {}, the histogram's is {}", s.variance, r.variance()));
  if (s.status == "complete" && s.configured_count && *s.configured_count != static_cast<double>(r.playouts))
    found.push_back(fmt::format("the status is \"complete\", but the run counted {} of the config's {} playouts",
                                r.playouts, *s.configured_count));
  return found;
}

} // namespace gsdk::host
