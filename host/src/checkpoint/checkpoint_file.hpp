// checkpoint_file.hpp - the checkpoint file of a run (`gsdk run --checkpoint FILE`, `gsdk perft --checkpoint
// FILE`): one JSON document saying which run it belongs to and what of that run has completed, so the same
// command given the same file goes on where the last one stopped. The one place its format is defined:
//
//   {"format": "gsdk-checkpoint", "version": 1,
//    "identity": {...},     what must be equal for a run to resume it (gsdk version, plugin and its file's
//                           SHA-1, game parameters, the config's content, seed, ...; never devices or threads)
//    "complete": false,     true once the run finished: resuming it then repeats the finished result at once
//    "progress": {...}}     the algorithm's completed work items and their merged result (progress_json.hpp)
//
// Saving writes a temporary file beside the checkpoint, flushes and fsyncs it, closes it (checking the close),
// and renames it over the checkpoint, so a crash or a full disk leaves the previous checkpoint whole.
#pragma once

#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "config/config_error.hpp"

namespace gsdk::host {

// A checkpoint that cannot be resumed by this run: not a checkpoint, another format version, or another run's
// (the message names each identity field that differs). Bad input: exit status 2.
class CheckpointMismatch : public ConfigError {
public:
  using ConfigError::ConfigError;
};

inline constexpr int kCheckpointFormatVersion = 1;

class CheckpointFile {
public:
  // Reads `path` when it exists (throws CheckpointMismatch as above); a missing file starts a fresh run.
  CheckpointFile(std::string path, nlohmann::json identity);

  const std::string& path() const { return path_; }
  // The progress an earlier run saved; null for a fresh run.
  const nlohmann::json& resumed() const { return resumed_; }

  // Saves atomically (see above); safe to call from several threads. Throws std::runtime_error naming the file.
  void save(const nlohmann::json& progress, bool complete);

private:
  std::string path_;
  nlohmann::json identity_;
  nlohmann::json resumed_;
  std::mutex save_mutex_;
};

// The SHA-1 of a file's bytes ("sha1:..."), for identities; throws std::runtime_error when it cannot be read.
std::string file_sha1(const std::string& path);

// The identity fields every checkpoint has: gsdk's version, the game, its parameters and its plugin (name,
// version, the SHA-1 of its file).
nlohmann::json game_identity(const std::string& game, const std::string& plugin_version, const std::string& plugin_path,
                             const nlohmann::json& params);

} // namespace gsdk::host
