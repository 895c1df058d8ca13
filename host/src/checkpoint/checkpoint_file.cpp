// checkpoint_file.cpp - reading, checking and atomically saving checkpoint files (checkpoint_file.hpp).
#include "checkpoint/checkpoint_file.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "gsdk/core/runtime/digest.hpp"
#include "report/input_file.hpp"
#include "report/output_file.hpp"

namespace gsdk::host {

namespace {

constexpr const char* kFormat = "gsdk-checkpoint";

} // namespace

void check_checkpoint_path(const std::string& path) {
  refuse_standard_output(path, "the checkpoint (--checkpoint)", "the next run reads it back to resume");
  check_output_path(path);
}

CheckpointMismatch malformed_progress(const std::string& file, const std::string& what) {
  return CheckpointMismatch(fmt::format("{}: the checkpoint's progress is malformed: {}", file, what));
}

// One line per difference, from the JSON patch that turns the first identity into the second.
std::string identity_differences(const nlohmann::json& first, const nlohmann::json& second,
                                 const std::string& first_name, const std::string& second_name) {
  std::string lines;
  for (const auto& op : nlohmann::json::diff(first, second)) {
    const nlohmann::json::json_pointer at(op["path"].get<std::string>());
    std::string name = op["path"].get<std::string>();
    std::replace(name.begin(), name.end(), '/', '.');
    const std::string before = first.contains(at) ? first[at].dump() : "(none)";
    const std::string after = second.contains(at) ? second[at].dump() : "(none)";
    lines += fmt::format("\n  {}: {} {}, {} {}", name.substr(1), first_name, before, second_name, after);
  }
  return lines;
}

CheckpointFile::CheckpointFile(std::string path, nlohmann::json identity)
    : path_(std::move(path)), identity_(std::move(identity)) {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) return;
  if (!std::filesystem::is_regular_file(path_, ec))
    throw CheckpointMismatch(fmt::format("{}: the checkpoint is not a regular file", path_));
  InputFile in = open_input_file(path_);
  if (!in.failure.empty())
    throw CheckpointMismatch(fmt::format("{}: cannot open the checkpoint: {}", path_, in.failure));
  nlohmann::json saved;
  try {
    saved = nlohmann::json::parse(in.stream);
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointMismatch(fmt::format("{}: not a gsdk checkpoint (invalid JSON: {})", path_, e.what()));
  }
  if (!saved.is_object() || saved.value("format", "") != kFormat)
    throw CheckpointMismatch(fmt::format("{}: not a gsdk checkpoint (no \"format\": \"{}\")", path_, kFormat));
  if (saved.value("version", 0) != kCheckpointFormatVersion)
    throw CheckpointMismatch(fmt::format("{}: checkpoint format version {}, this gsdk reads version {}", path_,
                                         saved["version"].dump(), kCheckpointFormatVersion));
  if (!saved.contains("identity") || !saved.contains("progress") || !saved["progress"].is_object())
    throw CheckpointMismatch(fmt::format("{}: the checkpoint has no identity or progress", path_));
  if (saved["identity"] != identity_)
    throw CheckpointMismatch(fmt::format("{}: the checkpoint belongs to another run; what differs:{}\n  (use another "
                                         "--checkpoint file, or delete this one to start afresh)",
                                         path_,
                                         identity_differences(saved["identity"], identity_, "checkpoint", "this run")));
  resumed_ = std::move(saved["progress"]);
}

std::unique_ptr<CheckpointFile> CheckpointFile::in_memory(nlohmann::json resumed, std::string label) {
  std::unique_ptr<CheckpointFile> held(new CheckpointFile());
  held->path_ = std::move(label);
  held->in_memory_ = true;
  held->keep_last_saved_ = true;
  held->resumed_ = std::move(resumed);
  return held;
}

void CheckpointFile::save(const nlohmann::json& progress, bool complete) {
  const std::lock_guard lock(save_mutex_);
  last_saved_complete_ = complete;
  if (keep_last_saved_) last_saved_ = progress;
  if (in_memory_) return;
  const nlohmann::json document = {{"format", kFormat},
                                   {"version", kCheckpointFormatVersion},
                                   {"identity", identity_},
                                   {"complete", complete},
                                   {"progress", progress}};
  write_file(path_, document.dump(1) + "\n");
}

std::string file_sha1(const std::string& path) {
  // The parts of a run spread over processes each name their plugin: its file is hashed once per process, and
  // again only when its size or time of change differ.
  static std::mutex mutex;
  static std::map<std::string, std::tuple<uintmax_t, std::filesystem::file_time_type, std::string>> known;
  std::error_code size_error, time_error;
  const uintmax_t size = std::filesystem::file_size(path, size_error);
  const auto changed = std::filesystem::last_write_time(path, time_error);
  const std::lock_guard lock(mutex);
  if (!size_error && !time_error) {
    const auto at = known.find(path);
    if (at != known.end() && std::get<0>(at->second) == size && std::get<1>(at->second) == changed)
      return std::get<2>(at->second);
  }
  InputFile in = open_input_file(path);
  if (!in.failure.empty())
    throw std::runtime_error(fmt::format("{}: cannot read the file to fingerprint it: {}", path, in.failure));
  std::ostringstream bytes;
  bytes << in.stream.rdbuf();
  std::string digest = core::sha1_digest(bytes.str());
  if (!size_error && !time_error) known[path] = {size, changed, digest};
  return digest;
}

nlohmann::json game_identity(const std::string& game, const std::string& plugin_version, const std::string& plugin_path,
                             const nlohmann::json& params) {
  return {{"gsdk_version", GSDK_VERSION},
          {"game", game},
          {"params", params},
          {"plugin", {{"name", game}, {"version", plugin_version}, {"file_sha1", file_sha1(plugin_path)}}}};
}

} // namespace gsdk::host
