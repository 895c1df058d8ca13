// playout_progress.cpp - the playouts' checkpoint progress as JSON and back (playout_progress.hpp).
#include "algorithms/playouts/playout_progress.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checkpoint/checkpoint_file.hpp"

namespace gsdk::host {

nlohmann::json playout_progress_json(const core::PlayoutProgress& progress) {
  const core::PlayoutResult& r = progress.result;
  return {{"completed", progress.completed},
          {"result",
           {{"playouts", r.playouts},
            {"score_min", r.score_min},
            {"histogram", r.histogram},
            {"best", {{"score", r.best_score}, {"playout", r.best_playout}}},
            {"worst", {{"score", r.worst_score}, {"playout", r.worst_playout}}},
            {"device_milliseconds", r.device_milliseconds}}}};
}

core::PlayoutProgress playout_progress_from_json(const nlohmann::json& progress, const std::string& file) {
  return read_progress(file, [&] {
    const nlohmann::json& r = progress.at("result");
    // get<uint64_t> would take -1 for 2^64 - 1: each count is checked to be a whole number first.
    const nlohmann::json& counts = r.at("histogram");
    const auto whole = [](const nlohmann::json& v) {
      return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
    };
    for (size_t k = 0; k < counts.size(); ++k)
      if (!whole(counts.at(k)))
        throw std::runtime_error(
            fmt::format("result.histogram[{}] is {}, expected a whole number of playouts", k, counts[k].dump()));
    const auto histogram = counts.get<std::vector<uint64_t>>();
    core::PlayoutProgress p{
        progress.at("completed").get<core::PlayoutRanges>(),
        core::PlayoutResult(r.at("score_min").get<int64_t>(), static_cast<uint32_t>(histogram.size()))};
    p.result.histogram = histogram;
    p.result.playouts = r.at("playouts").get<uint64_t>();
    p.result.best_score = r.at("best").at("score").get<int64_t>();
    p.result.best_playout = r.at("best").at("playout").get<uint64_t>();
    p.result.worst_score = r.at("worst").at("score").get<int64_t>();
    p.result.worst_playout = r.at("worst").at("playout").get<uint64_t>();
    p.result.device_milliseconds = r.at("device_milliseconds").get<double>();
    // An edited or damaged result would be merged into the run's and finish it "complete" with a wrong mean and
    // digest: its numbers must agree with each other before it is trusted.
    if (const std::vector<std::string> found = p.result.contradictions(); !found.empty())
      throw std::runtime_error(fmt::format("its result contradicts itself: {}", fmt::join(found, "; ")));
    return p;
  });
}

nlohmann::json merge_playout_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where) {
  core::PlayoutProgress into = playout_progress_from_json(a, where);
  const core::PlayoutProgress more = playout_progress_from_json(b, where);
  if (into.result.score_min != more.result.score_min || into.result.histogram.size() != more.result.histogram.size())
    throw CheckpointMismatch(fmt::format("{}: the parts' histograms differ ({} bins from {} and {} bins from {})",
                                         where, into.result.histogram.size(), into.result.score_min,
                                         more.result.histogram.size(), more.result.score_min));
  for (const auto& [first, end] : more.completed) {
    if (!core::intersect(into.completed, first, end).empty())
      throw CheckpointMismatch(fmt::format("{}: two parts both ran playouts of [{}, {})", where, first, end));
    core::add_playout_range(into.completed, first, end);
  }
  into.result.merge(more.result);
  return playout_progress_json(into);
}

} // namespace gsdk::host
