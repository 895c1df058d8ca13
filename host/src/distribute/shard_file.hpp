// shard_file.hpp - a shard's partial results file (`gsdk run CONFIG --shard K/N`), and the check `gsdk merge` makes
// of a set of them. The one place its format is defined:
//
//   {"format": "gsdk-shard", "version": 1,
//    "shard": {"index": K, "count": N, "blocks": 4096},
//    "identity": {...},       the experiment's, as a checkpoint's (checkpoint_file.hpp): equal in every shard of a run
//    "experiment": {"file": "...", "config": "..."}, the config as the shard ran it (TOML, after --set and options)
//    "status": "complete",    or "interrupted" / "incomplete" (then "error"): only complete shards merge
//    "progress": {...},       what the shard completed, as its algorithm's checkpoint progress (checkpoint_file.hpp)
//    "results": {...}}        the shard's own results document: its hardware, devices, timings, its share of the result
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/run_experiment.hpp"
#include "distribute/work_blocks.hpp"

namespace gsdk::host {

inline constexpr int kShardFormatVersion = 1;

nlohmann::json shard_document(const ShardPlace& place, const ExperimentConfig& config, const ExperimentRun& run);

// The TOML text of a config after its overrides, which parse_experiment reads back to the same experiment.
std::string config_text(const ExperimentConfig& config);

struct ShardFile {
  std::string path;
  ShardPlace place;
  nlohmann::json document;
};

// Reads `paths` and checks that they are the N shards of one run, each once and complete: the same identity
// (the fields that differ are named), the same N and blocks, no index missing or given twice. Throws ConfigError
// naming the files.
std::vector<ShardFile> read_shard_set(const std::vector<std::string>& paths);

} // namespace gsdk::host
