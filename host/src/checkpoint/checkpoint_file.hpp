// checkpoint_file.hpp - the checkpoint file of a run (`gsdk run --checkpoint FILE`, `gsdk perft --checkpoint
// FILE`): one JSON document saying which run it belongs to and what of that run has completed, so the same
// command given the same file goes on where the last one stopped. The one place its format is defined:
//
//   {"format": "gsdk-checkpoint", "version": 1,
//    "identity": {...},     what must be equal for a run to resume it (gsdk version, plugin and its file's
//                           SHA-1, game parameters, the config's content, seed, ...; never devices or threads)
//    "complete": false,     true once the run finished: resuming it then repeats the finished result at once
//    "progress": {...}}     the algorithm's completed work items and their merged result, as its own codec in
//                           host/src/algorithms/<name>/ writes and reads them: playouts/playout_progress.hpp,
//                           perft/perft_progress.hpp, qlearning/qlearning_progress.hpp, match/match_progress.hpp,
//                           nested/nested_progress.hpp (nmcs and nrpa)
//
// Saving writes a temporary file beside the checkpoint, flushes and fsyncs it, closes it (checking the close),
// and renames it over the checkpoint, so a crash or a full disk leaves the previous checkpoint whole.
#pragma once

#include <memory>
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

// The refusal of a checkpoint's progress that its algorithm's codec found malformed (`what`: the key missing, the
// type wrong), naming `file`.
CheckpointMismatch malformed_progress(const std::string& file, const std::string& what);

// What `read()` returns (an algorithm's progress read from a checkpoint), with anything it throws refused as
// malformed_progress.
template <typename Read> auto read_progress(const std::string& file, Read&& read) {
  try {
    return read();
  } catch (const std::exception& e) {
    throw malformed_progress(file, e.what());
  }
}

// Checks, before the run, that `path` can hold a checkpoint: a file that can be written (check_output_path), and
// not the standard output, since the next run reads the checkpoint back to resume. Throws OutputError.
void check_checkpoint_path(const std::string& path);

class CheckpointFile {
public:
  // Reads `path` when it exists (throws CheckpointMismatch as above); a missing file starts a fresh run.
  CheckpointFile(std::string path, nlohmann::json identity);

  // A checkpoint held in memory, for a part of a run spread over processes (what the part completes goes to a
  // shard's file or to rank 0, not to a checkpoint file of its own) and for the run that merges the parts:
  // `resumed` is the progress to go on from (null: none); `label` names it in messages.
  static std::unique_ptr<CheckpointFile> in_memory(nlohmann::json resumed, std::string label);

  const std::string& path() const { return path_; }
  // The progress an earlier run saved; null for a fresh run.
  const nlohmann::json& resumed() const { return resumed_; }
  // The progress this run saved last (null before its first save), and whether it was marked complete: kept by
  // a checkpoint in memory, and by a file's once keep_last_saved() was called (a copy per save, so not by default:
  // a Q-learning sweep's progress is hundreds of MB).
  void keep_last_saved() { keep_last_saved_ = true; }
  const nlohmann::json& last_saved() const { return last_saved_; }
  bool last_saved_complete() const { return last_saved_complete_; }

  // Saves atomically (see above); safe to call from several threads. Throws std::runtime_error naming the file.
  void save(const nlohmann::json& progress, bool complete);

private:
  CheckpointFile() = default;

  std::string path_;
  bool in_memory_ = false;
  bool keep_last_saved_ = false;
  nlohmann::json identity_;
  nlohmann::json resumed_;
  nlohmann::json last_saved_;
  bool last_saved_complete_ = false;
  std::mutex save_mutex_;
};

// "\n  identity.config.playouts.count: <first_name> 100, <second_name> 200", a line per field that differs.
std::string identity_differences(const nlohmann::json& first, const nlohmann::json& second,
                                 const std::string& first_name, const std::string& second_name);

// The SHA-1 of a file's bytes ("sha1:..."), for identities; throws std::runtime_error when it cannot be read.
std::string file_sha1(const std::string& path);

// The identity fields every checkpoint has: gsdk's version, the game, its parameters and its plugin (name,
// version, the SHA-1 of its file).
nlohmann::json game_identity(const std::string& game, const std::string& plugin_version, const std::string& plugin_path,
                             const nlohmann::json& params);

} // namespace gsdk::host
