// perft_progress.cpp - perft's checkpoint progress as JSON and back (perft_progress.hpp).
#include "algorithms/perft/perft_progress.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "checkpoint/checkpoint_file.hpp"

namespace gsdk::host {

namespace {

core::uint128 parse_leaves(const std::string& text) {
  if (text.empty() || text.size() > 39 || text.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(fmt::format("'{}' is not a leaf count", text));
  core::uint128 value = 0;
  for (char digit : text) {
    const core::uint128 next = value * 10 + static_cast<unsigned>(digit - '0');
    if (next / 10 != value) throw std::invalid_argument(fmt::format("leaf count '{}' is out of range", text));
    value = next;
  }
  return value;
}

} // namespace

nlohmann::json perft_progress_json(const core::PerftProgress& progress) {
  nlohmann::json counted = nlohmann::json::array();
  for (const auto& [id, leaves] : progress.counted) counted.push_back({id, core::to_string(leaves)});
  return {{"split_target", progress.split_target},
          {"distinct", progress.distinct},
          {"subtrees", progress.subtrees},
          {"counted", counted}};
}

core::PerftProgress perft_progress_from_json(const nlohmann::json& progress, const std::string& file) {
  return read_progress(file, [&] {
    core::PerftProgress p;
    p.split_target = progress.at("split_target").get<uint64_t>();
    // Absent from the checkpoints of gsdk before hashed perft, which never merged equal states.
    p.distinct = progress.value("distinct", false);
    p.subtrees = progress.at("subtrees").get<uint64_t>();
    for (const nlohmann::json& entry : progress.at("counted"))
      p.counted.emplace_back(entry.at(0).get<uint64_t>(), parse_leaves(entry.at(1).get<std::string>()));
    return p;
  });
}

nlohmann::json merge_perft_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where) {
  core::PerftProgress into = perft_progress_from_json(a, where);
  const core::PerftProgress more = perft_progress_from_json(b, where);
  if (into.distinct != more.distinct)
    throw CheckpointMismatch(fmt::format(
        "{}: one part was counted with transposition tables (hashing) and the other without (--no-hash, [perft] hash = "
        "false): their subtrees are not the same, so count every part with the same hashing",
        where));
  if (into.split_target != more.split_target || into.subtrees != more.subtrees)
    throw CheckpointMismatch(fmt::format("{}: the parts cut the root differently ({} subtrees for {}, {} for {})",
                                         where, into.subtrees, into.split_target, more.subtrees, more.split_target));
  into.counted.insert(into.counted.end(), more.counted.begin(), more.counted.end());
  std::sort(into.counted.begin(), into.counted.end());
  for (size_t i = 1; i < into.counted.size(); ++i)
    if (into.counted[i].first == into.counted[i - 1].first)
      throw CheckpointMismatch(fmt::format("{}: two parts both counted subtree {}", where, into.counted[i].first));
  return perft_progress_json(into);
}

} // namespace gsdk::host
