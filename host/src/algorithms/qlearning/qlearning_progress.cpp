// qlearning_progress.cpp - Q-learning checkpoint progress as JSON and back (qlearning_progress.hpp).
#include "algorithms/qlearning/qlearning_progress.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>
#include <fmt/format.h>

#include "checkpoint/checkpoint_file.hpp"

namespace gsdk::host {

namespace {

static_assert(std::endian::native == std::endian::little,
              "the checkpoint's tables are the floats' bytes in little-endian order, as they lie in memory here");

using Base64 = boost::archive::iterators::base64_from_binary<
    boost::archive::iterators::transform_width<const unsigned char*, 6, 8>>;
using Bytes =
    boost::archive::iterators::transform_width<boost::archive::iterators::binary_from_base64<const char*>, 8, 6>;

nlohmann::json totals_json(const core::EpisodeTotals& t) {
  return {t.successes, t.failures, t.steps, t.agent_steps, t.agent_starts};
}

core::EpisodeTotals totals_from_json(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 5)
    throw std::invalid_argument(fmt::format("episode totals {} are not [successes, failures, steps, agent_steps, "
                                            "agent_starts]",
                                            j.dump().substr(0, 80)));
  core::EpisodeTotals t;
  t.successes = j[0].get<uint64_t>();
  t.failures = j[1].get<uint64_t>();
  t.steps = j[2].get<uint64_t>();
  t.agent_steps = j[3].get<uint64_t>();
  t.agent_starts = j[4].get<uint64_t>();
  return t;
}

nlohmann::json episodes_json(const std::vector<core::EpisodeTotals>& episodes) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& t : episodes) list.push_back(totals_json(t));
  return list;
}

std::vector<core::EpisodeTotals> episodes_from_json(const nlohmann::json& list) {
  std::vector<core::EpisodeTotals> episodes;
  for (const auto& t : list) episodes.push_back(totals_from_json(t));
  return episodes;
}

nlohmann::json finished_json(const QLearningRun& run) {
  const core::QLearningOutcome& o = run.outcome;
  nlohmann::json reach = nlohmann::json::array();
  for (const auto& r : o.reach) reach.push_back({r.starts, r.reachable, r.reached});
  return {{"entry", run.entry},
          {"environments", run.environments},
          {"digest", run.digest},
          {"engine", o.engine},
          {"device", o.device},
          {"states", o.states},
          {"actions", o.actions},
          {"agents", o.agents},
          {"episodes", episodes_json(o.episodes)},
          {"test", totals_json(o.test)},
          {"reach", reach},
          {"wall_seconds", o.wall_seconds},
          {"device_milliseconds", o.device_milliseconds}};
}

// `position`: its place in the list, the entry of a checkpoint's run saved before runs had their entry.
QLearningRun finished_from_json(const nlohmann::json& j, uint32_t position) {
  QLearningRun run;
  run.entry = j.value("entry", position);
  run.environments = j.at("environments").get<uint32_t>();
  run.digest = j.at("digest").get<std::string>();
  core::QLearningOutcome& o = run.outcome;
  o.engine = j.at("engine").get<std::string>();
  o.device = j.at("device").get<std::string>();
  o.states = j.at("states").get<uint32_t>();
  o.actions = j.at("actions").get<uint32_t>();
  o.agents = j.at("agents").get<uint32_t>();
  o.episodes = episodes_from_json(j.at("episodes"));
  for (const auto& t : o.episodes) o.agent_steps += t.agent_steps;
  o.test = totals_from_json(j.at("test"));
  for (const auto& r : j.at("reach"))
    o.reach.push_back({r.at(0).get<uint32_t>(), r.at(1).get<uint32_t>(), r.at(2).get<uint32_t>()});
  o.wall_seconds = j.at("wall_seconds").get<double>();
  o.device_milliseconds = j.at("device_milliseconds").get<double>();
  return run;
}

core::QLearningProgress training_from_json(const nlohmann::json& j) {
  core::QLearningProgress p;
  p.episodes = episodes_from_json(j.at("episodes"));
  p.tables = decode_float_bits(j.at("tables").get<std::string>());
  p.visits = j.at("visits").get<std::vector<uint64_t>>();
  p.wall_seconds = j.at("wall_seconds").get<double>();
  p.device_milliseconds = j.at("device_milliseconds").get<double>();
  return p;
}

} // namespace

std::string encode_float_bits(const std::vector<float>& values) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  const size_t size = values.size() * sizeof(float), whole = size / 3 * 3;
  std::string text(Base64(bytes), Base64(bytes + whole));
  if (size == whole) return text;
  // The last one or two bytes, zero-filled to a group of three; '=' stands for the bytes that were not there.
  unsigned char tail[3] = {};
  std::memcpy(tail, bytes + whole, size - whole);
  const std::string group(Base64(tail), Base64(tail + 3));
  text += group.substr(0, size - whole + 1);
  text.append(3 - (size - whole), '=');
  return text;
}

std::vector<float> decode_float_bits(const std::string& text) {
  if (text.size() % 4 != 0)
    throw std::invalid_argument(fmt::format("{} base64 characters, not a multiple of 4", text.size()));
  const size_t padding = text.ends_with("==") ? 2 : text.ends_with("=") ? 1 : 0;
  std::string groups = text;
  groups.replace(groups.size() - padding, padding, padding, 'A'); // zero bits, dropped below
  std::string bytes(Bytes(groups.data()), Bytes(groups.data() + groups.size()));
  bytes.resize(bytes.size() - padding);
  if (bytes.size() % sizeof(float) != 0)
    throw std::invalid_argument(fmt::format("{} bytes of table values, not a multiple of 4", bytes.size()));
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

nlohmann::json qlearning_progress_json(const std::vector<QLearningRun>& finished, uint32_t environments,
                                       const core::QLearningProgress* training) {
  nlohmann::json runs = nlohmann::json::array();
  for (const QLearningRun& run : finished) runs.push_back(finished_json(run));
  nlohmann::json progress = {{"finished", std::move(runs)}, {"training", nullptr}};
  if (!training) return progress;
  nlohmann::json& under_way = progress["training"];
  under_way = {{"environments", environments},
               {"episodes", episodes_json(training->episodes)},
               {"visits", training->visits},
               {"wall_seconds", training->wall_seconds},
               {"device_milliseconds", training->device_milliseconds}};
  under_way["tables"] = encode_float_bits(training->tables); // moved in: an initializer list would copy it
  return progress;
}

QLearningCheckpoint qlearning_progress_from_json(const nlohmann::json& progress, const std::string& file) {
  try {
    QLearningCheckpoint c;
    for (const auto& run : progress.at("finished"))
      c.finished.push_back(finished_from_json(run, static_cast<uint32_t>(c.finished.size())));
    const nlohmann::json& training = progress.at("training");
    if (!training.is_null()) {
      c.training_environments = training.at("environments").get<uint32_t>();
      c.training = training_from_json(training);
    }
    return c;
  } catch (const std::exception& e) {
    throw CheckpointMismatch(fmt::format("{}: the checkpoint's progress is malformed: {}", file, e.what()));
  }
}

nlohmann::json merge_qlearning_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where) {
  QLearningCheckpoint into = qlearning_progress_from_json(a, where);
  QLearningCheckpoint more = qlearning_progress_from_json(b, where);
  if (into.training || more.training)
    throw CheckpointMismatch(fmt::format("{}: a part has a training run under way", where));
  for (QLearningRun& run : more.finished) into.finished.push_back(std::move(run));
  std::sort(into.finished.begin(), into.finished.end(),
            [](const QLearningRun& x, const QLearningRun& y) { return x.entry < y.entry; });
  for (size_t i = 1; i < into.finished.size(); ++i)
    if (into.finished[i].entry == into.finished[i - 1].entry)
      throw CheckpointMismatch(
          fmt::format("{}: two parts both trained entry {} of the sweep", where, into.finished[i].entry));
  return qlearning_progress_json(into.finished, 0, nullptr);
}

} // namespace gsdk::host
