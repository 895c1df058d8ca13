// shard_file.cpp - writing and checking shards' partial results files (shard_file.hpp).
#include "distribute/shard_file.hpp"

#include <map>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checkpoint/checkpoint_file.hpp"
#include "report/input_file.hpp"

namespace gsdk::host {

namespace {

constexpr const char* kFormat = "gsdk-shard";

ShardFile read_shard(const std::string& path) {
  InputFile in = open_input_file(path);
  if (!in.failure.empty()) throw ConfigError(fmt::format("{}: cannot read the shard file: {}", path, in.failure));
  ShardFile shard{path, {}, {}};
  try {
    shard.document = nlohmann::json::parse(in.stream);
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(fmt::format("{}: not a gsdk shard file (invalid JSON: {})", path, e.what()));
  }
  const nlohmann::json& d = shard.document;
  if (!d.is_object() || d.value("format", "") != kFormat)
    throw ConfigError(fmt::format("{}: not a gsdk shard file (no \"format\": \"{}\"; `gsdk run --shard K/N` writes "
                                  "them)",
                                  path, kFormat));
  if (d.value("version", 0) != kShardFormatVersion)
    throw ConfigError(fmt::format("{}: shard file format version {}, this gsdk reads version {}", path,
                                  d["version"].dump(), kShardFormatVersion));
  try {
    shard.place.index = d.at("shard").at("index").get<uint64_t>();
    shard.place.count = d.at("shard").at("count").get<uint64_t>();
    if (d.at("shard").at("blocks").get<uint64_t>() != kWorkBlocks)
      throw std::invalid_argument(fmt::format("it cuts the work into {} blocks, this gsdk into {}",
                                              d["shard"]["blocks"].dump(), kWorkBlocks));
    d.at("identity").get_ref<const nlohmann::json::object_t&>();
    d.at("experiment").at("config").get_ref<const std::string&>();
    d.at("experiment").at("file").get_ref<const std::string&>();
    d.at("status").get_ref<const std::string&>();
    d.at("progress").get_ref<const nlohmann::json::object_t&>();
  } catch (const std::exception& e) {
    throw ConfigError(fmt::format("{}: the shard file is malformed: {}", path, e.what()));
  }
  if (shard.place.index < 1 || shard.place.index > shard.place.count)
    throw ConfigError(fmt::format("{}: the shard file says it is shard {} of {}", path, shard.place.index,
                                  shard.place.count));
  return shard;
}

} // namespace

std::string config_text(const ExperimentConfig& config) {
  std::ostringstream text;
  text << toml::toml_formatter(config.raw);
  return text.str();
}

nlohmann::json shard_document(const ShardPlace& place, const ExperimentConfig& config, const ExperimentRun& run) {
  nlohmann::json document = {{"format", kFormat},
                             {"version", kShardFormatVersion},
                             {"shard", {{"index", place.index}, {"count", place.count}, {"blocks", kWorkBlocks}}},
                             {"identity", run.identity},
                             {"experiment", {{"file", config.file}, {"config", config_text(config)}}},
                             {"status", run.outcome->status()},
                             {"progress", run.progress},
                             {"results", run.results}};
  if (!run.error.empty()) document["error"] = run.error;
  return document;
}

std::vector<ShardFile> read_shard_set(const std::vector<std::string>& paths) {
  if (paths.empty()) throw ConfigError("gsdk merge: no shard files given");
  std::vector<ShardFile> shards;
  for (const std::string& path : paths) shards.push_back(read_shard(path));
  const ShardFile& first = shards.front();
  std::map<uint64_t, std::vector<std::string>> files_of;
  for (const ShardFile& shard : shards) {
    if (shard.document["identity"] != first.document["identity"])
      throw ConfigError(fmt::format("{} and {} are shards of different runs; what differs:{}", first.path, shard.path,
                                    identity_differences(first.document["identity"], shard.document["identity"],
                                                         first.path, shard.path)));
    if (shard.place.count != first.place.count)
      throw ConfigError(fmt::format("{} is shard {} of {}, but {} is shard {} of {}", first.path, first.place.index,
                                    first.place.count, shard.path, shard.place.index, shard.place.count));
    const std::string status = shard.document["status"].get<std::string>();
    if (status != "complete")
      throw ConfigError(fmt::format("{}: shard {} of {} is {}{}: run it again (with its --checkpoint, it goes on where "
                                    "it stopped) before merging",
                                    shard.path, shard.place.index, shard.place.count, status,
                                    shard.document.contains("error")
                                        ? " (" + shard.document["error"].get<std::string>() + ")"
                                        : ""));
    files_of[shard.place.index].push_back(shard.path);
  }
  for (const auto& [index, files] : files_of)
    if (files.size() > 1)
      throw ConfigError(fmt::format("shard {} of {} is given more than once: {}", index, first.place.count,
                                    fmt::join(files, ", ")));
  std::vector<uint64_t> missing;
  for (uint64_t index = 1; index <= first.place.count; ++index)
    if (!files_of.count(index)) missing.push_back(index);
  if (!missing.empty())
    throw ConfigError(fmt::format("shard{} {} of {} {} missing: a merge needs all of them (given: {})",
                                  missing.size() > 1 ? "s" : "", fmt::join(missing, ", "), first.place.count,
                                  missing.size() > 1 ? "are" : "is", fmt::join(paths, ", ")));
  return shards;
}

} // namespace gsdk::host
