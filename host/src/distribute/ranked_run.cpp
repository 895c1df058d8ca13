// ranked_run.cpp - an experiment run by the ranks of an MPI job (ranked_run.hpp).
#include "distribute/ranked_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/registry.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "distribute/chunk_exchange.hpp"
#include "distribute/job_clock.hpp"
#include "distribute/parts_merge.hpp"
#include "distribute/rank_devices.hpp"
#include "distribute/work_blocks.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "report/log.hpp"

namespace gsdk::host {

namespace {

// A checkpoint of ranks lists finished blocks: its identity says so, so that one process never takes it for its own.
const nlohmann::json kSpreadIdentity = {{"spread", "mpi ranks"}};

// "blocks 3-5, 9 (4 of 4096)": a chunk in a message.
std::string describe_blocks(const ChunkExchange::Chunk& chunk) {
  std::vector<uint64_t> sorted = chunk;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::string> runs;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    runs.push_back(j == i ? std::to_string(sorted[i]) : fmt::format("{}-{}", sorted[i], sorted[j]));
    i = j + 1;
  }
  return fmt::format("block{} {} ({} of {})", sorted.size() == 1 ? "" : "s", fmt::join(runs, ", "), sorted.size(),
                     kWorkBlocks);
}

// What this rank's config is, as every rank must agree: the experiment's identity, or why it cannot run.
std::string identity_or_refusal(const ExperimentConfig& config, const PluginCatalog& catalog) {
  try {
    if (!driver_of(config).has_parts())
      throw ConfigError(fmt::format("algorithm '{}' cannot be spread over MPI ranks yet", config.algorithm));
    if (const std::string why = driver_of(config).parts_refusal(*config.settings, true); !why.empty())
      throw ConfigError(fmt::format("{}: {}", config.file, why));
    const LoadedPlugin& plugin = require_plugin(catalog, config.game, "");
    const ResolvedParams params = resolve_params(*plugin.tables.game, config.params);
    return experiment_identity(config, plugin, params).dump();
  } catch (const std::exception& e) {
    return std::string("!") + e.what();
  }
}

// Rank 0: "" when every rank runs the same experiment, else why not.
std::string judge(const std::vector<std::string>& identities) {
  for (size_t r = 0; r < identities.size(); ++r)
    if (identities[r].starts_with("!"))
      return r == 0 ? identities[r].substr(1) : fmt::format("rank {}: {}", r, identities[r].substr(1));
  const nlohmann::json root = nlohmann::json::parse(identities[0]);
  for (size_t r = 1; r < identities.size(); ++r) {
    const nlohmann::json other = nlohmann::json::parse(identities[r]);
    if (other != root)
      return fmt::format("rank {} would run another experiment than rank 0; what differs:{}", r,
                         identity_differences(root, other, "rank 0", fmt::format("rank {}", r)));
  }
  return "";
}

// Rank 0's account of the job: what the finished chunks completed, merged, and what went wrong.
class Ledger {
public:
  // `items`: the run's work items in all (0: unknown); blocks past them hold none and count as done.
  Ledger(const Algorithm& driver, CheckpointFile* checkpoint, double checkpoint_seconds, int ranks, uint64_t items)
      : driver_(driver), checkpoint_(checkpoint), checkpoint_seconds_(checkpoint_seconds),
        per_rank_(static_cast<size_t>(ranks), nlohmann::json::object()) {
    for (uint64_t b = items == 0 ? kWorkBlocks : items; b < kWorkBlocks; ++b) done_.insert(b);
    if (checkpoint_ && !checkpoint_->resumed().is_null()) {
      const nlohmann::json& saved = checkpoint_->resumed();
      try {
        for (uint64_t b : saved.at("done").get<std::vector<uint64_t>>()) done_.insert(b);
        merged_ = saved.at("progress");
        // Saved since time bounds run on the job's clock; a checkpoint from before holds none.
        spent_seconds_ = saved.value("job_seconds", 0.0);
        if (!(spent_seconds_ >= 0 && std::isfinite(spent_seconds_)))
          throw std::invalid_argument(fmt::format("job_seconds is {}, not a time", spent_seconds_));
      } catch (const std::exception& e) {
        throw CheckpointMismatch(
            fmt::format("{}: the checkpoint's progress is malformed: {}", checkpoint_->path(), e.what()));
      }
      resumed_ = true;
    }
  }

  ChunkExchange::Chunk blocks_left() const {
    ChunkExchange::Chunk left;
    for (uint64_t b = 0; b < kWorkBlocks; ++b)
      if (!done_.count(b)) left.push_back(b);
    return left;
  }

  // A rank's finished chunk. Returns false when the job must stop (a failure, or a rank that was stopped).
  bool take(int rank, const ChunkExchange::Chunk& chunk, const std::string& text) {
    const nlohmann::json report = nlohmann::json::parse(text);
    nlohmann::json& mine = per_rank_[static_cast<size_t>(rank)];
    mine["chunks"] = mine.value("chunks", 0) + 1;
    mine["seconds"] = mine.value("seconds", 0.0) + report.value("seconds", 0.0);
    if (report.contains("host")) mine["host"] = report["host"];
    if (report.contains("devices")) mine["devices"] = report["devices"];
    const std::string status = report.value("status", "incomplete");
    if (status == "interrupted") {
      stopped_ = true;
      return false;
    }
    if (status != "complete") {
      if (failure_.empty())
        failure_ = fmt::format("rank {} failed on {}: {}", rank, describe_blocks(chunk),
                               report.value("error", std::string("no reason given")));
      return false;
    }
    pending_.push_back(std::move(report["progress"]));
    pending_names_.push_back(fmt::format("rank {}'s {}", rank, describe_blocks(chunk)));
    for (uint64_t b : chunk) done_.insert(b);
    mine["blocks"] = mine.value("blocks", 0) + chunk.size();
    save_if_due(false);
    return true;
  }

  void save_if_due(bool always) {
    if (!checkpoint_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!always && std::chrono::duration<double>(now - last_save_).count() < checkpoint_seconds_) return;
    last_save_ = now;
    checkpoint_->save({{"done", std::vector<uint64_t>(done_.begin(), done_.end())},
                       {"progress", merged()},
                       {"job_seconds", clock_ ? clock_->seconds() : spent_seconds_}},
                      done_.size() == kWorkBlocks && failure_.empty());
  }

  // What the finished chunks completed: the reports are merged when asked, all at once (parts_merge.hpp says why).
  const nlohmann::json& merged() {
    if (pending_.empty()) return merged_;
    if (!merged_.is_null()) {
      pending_.push_back(std::move(merged_));
      pending_names_.push_back("the chunks merged before");
    }
    merged_ = merge_parts_progress(driver_, std::move(pending_), pending_names_);
    pending_.clear();
    pending_names_.clear();
    return merged_;
  }

  // The job's clock, once every rank has started it: its time goes into the checkpoint.
  void keep_time(const JobClock& clock) { clock_ = &clock; }
  // The time of the runs the checkpoint resumed (0 without one), which the job's clock goes on from.
  double spent_seconds() const { return spent_seconds_; }
  bool finished() const { return done_.size() == kWorkBlocks; }
  bool stopped() const { return stopped_; }
  bool resumed() const { return resumed_; }
  const std::string& failure() const { return failure_; }
  // What the ranks ran on, as their chunks reported it.
  std::string devices() const {
    std::vector<std::string> each;
    for (const nlohmann::json& rank : per_rank_) each.push_back(rank.value("devices", std::string()));
    return parts_devices(per_rank_.size(), "MPI ranks", each);
  }
  nlohmann::json ranks_summary() const {
    nlohmann::json all = nlohmann::json::array();
    for (size_t r = 0; r < per_rank_.size(); ++r) {
      nlohmann::json one = per_rank_[r];
      one["rank"] = r;
      all.push_back(one);
    }
    return all;
  }

private:
  const Algorithm& driver_;
  CheckpointFile* checkpoint_;
  double checkpoint_seconds_;
  std::set<uint64_t> done_;
  nlohmann::json merged_;
  std::vector<nlohmann::json> pending_; // finished chunks' progress not merged yet
  std::vector<std::string> pending_names_;
  std::vector<nlohmann::json> per_rank_;
  std::string failure_;
  bool stopped_ = false;
  bool resumed_ = false;
  double spent_seconds_ = 0;
  const JobClock* clock_ = nullptr;
  std::chrono::steady_clock::time_point last_save_ = std::chrono::steady_clock::now();
};

// Runs one chunk as a part, by the job's deadline; the report rank 0 reads. A chunk whose time is up before it
// starts runs nothing: its blocks are done, with no progress, as a run at its time limit starts no more work.
std::string run_chunk(const ExperimentConfig& config, const PluginCatalog& catalog, const core::StopRequest* stop,
                      const ChunkExchange::Chunk& chunk, const RankPlace& place, const JobClock& clock) {
  const auto began = std::chrono::steady_clock::now();
  nlohmann::json report = {{"host", place.host}};
  try {
    if (clock.time_is_up(began)) {
      report["status"] = "complete";
      report["progress"] = nullptr;
      report["seconds"] = 0.0;
      return report.dump();
    }
    const core::WorkPart part{kWorkBlocks, chunk};
    RunOptions options;
    options.progress.shown = false;
    options.stop = stop;
    options.part = &part;
    options.deadline = clock.deadline();
    ExperimentRun run = run_experiment(config, catalog, options);
    report["status"] = run.outcome->status();
    if (!run.error.empty()) report["error"] = run.error;
    report["progress"] = std::move(run.progress);
    if (run.results.contains("devices")) report["devices"] = run.results["devices"];
  } catch (const std::exception& e) {
    report["status"] = "incomplete";
    report["error"] = e.what();
  }
  report["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return report.dump();
}

} // namespace

std::optional<ExperimentRun> run_as_rank(const ExperimentConfig& config, const PluginCatalog& catalog,
                                         const RunOptions& options, MpiWorld& world) {
  const RankPlace& place = world.place();
  const bool root = place.rank == 0;
  const auto began = std::chrono::steady_clock::now();

  // Every rank must run the same experiment: rank 0 judges, every rank hears the verdict.
  const std::vector<std::string> identities = world.gather(identity_or_refusal(config, catalog));
  const std::string verdict = world.broadcast(root ? judge(identities) : "");
  if (!verdict.empty()) throw RankRefusal(verdict);

  ExperimentConfig mine = config;
  std::string why;
  const int node_gpus = config.run.device == DeviceRequest::cpu ? 0 : static_cast<int>(core::cuda_devices(why).size());
  mine.run = rank_run_settings(config.run, place, node_gpus, std::max(1u, std::thread::hardware_concurrency()));

  const ChunkFloor floor = driver_of(config).smallest_chunk(*config.settings);
  // Rank 0's checkpoint and ledger; a checkpoint that cannot be resumed is refused by every rank.
  std::unique_ptr<CheckpointFile> checkpoint;
  std::unique_ptr<Ledger> ledger;
  std::string refusal;
  if (root) {
    try {
      if (!options.checkpoint.empty()) {
        nlohmann::json identity = nlohmann::json::parse(identities[0]);
        identity.update(kSpreadIdentity);
        checkpoint = std::make_unique<CheckpointFile>(options.checkpoint, identity);
      }
      ledger = std::make_unique<Ledger>(driver_of(config), checkpoint.get(), options.checkpoint_seconds, place.ranks,
                                        floor.of);
    } catch (const ConfigError& e) {
      refusal = e.what();
    }
  }
  refusal = world.broadcast(refusal);
  if (!refusal.empty()) throw RankRefusal(refusal);
  // Every rank leaves this broadcast at about the same moment: the job's time counts from here (job_clock.hpp), on
  // from what the checkpoint's runs spent.
  const std::string spent = world.broadcast(root ? fmt::format("{}", ledger->spent_seconds()) : "");
  const JobClock clock(driver_of(config).time_bound_seconds(*config.settings), std::stod(spent));
  if (root) ledger->keep_time(clock);

  // A rank's chunks are runs one after the other on the same GPUs: they share one arena per device.
  const core::KeepCudaMemory keep_gpu_memory;
  ChunkExchange exchange(world, root ? ledger->blocks_left() : ChunkExchange::Chunk{},
                         blocks_holding(floor.items, floor.of));
  if (root)
    exchange.on_report([&](int rank, const ChunkExchange::Chunk& chunk, const std::string& report) {
      if (!ledger->take(rank, chunk, report)) exchange.stop();
    });
  // Rank 0 stops handing out chunks as soon as it is asked to stop, or the job's time is up, not when its own chunk
  // ends; the chunks out when the time is up end by themselves (their deadline is the job's).
  std::atomic<bool> working{true};
  std::thread watch;
  const auto stop_requested = [&] { return options.stop && options.stop->requested(); };
  if (root && (options.stop || clock.bounded()))
    watch = std::thread([&] {
      bool handing_out = true;
      while (working.load() && !stop_requested()) {
        if (handing_out && clock.time_is_up()) {
          exchange.stop();
          handing_out = false;
        }
        const auto wake = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
        std::this_thread::sleep_until(handing_out && clock.bounded() ? std::min(wake, *clock.deadline()) : wake);
      }
      if (!stop_requested()) return;
      exchange.stop();
      // mpirun stops the ranks when one of them dies: say what each was running, the dead one's included.
      const std::vector<ChunkExchange::Chunk> out = exchange.in_flight();
      std::string held;
      for (size_t r = 0; r < out.size(); ++r)
        if (!out[r].empty()) held += fmt::format("\n  rank {}: {}", r, describe_blocks(out[r]));
      log_line(LogLevel::warning, fmt::format("stopping the job: no more chunks are handed out{}",
                                              held.empty() ? "" : "; chunks still out (not saved):" + held));
    });
  // A job resumed after its time was up hands out nothing.
  if (root && clock.time_is_up()) exchange.stop();
  try {
    std::string report;
    for (auto chunk = exchange.next(report); !chunk.empty(); chunk = exchange.next(report)) {
      report = run_chunk(mine, catalog, options.stop, chunk, place, clock);
      // Rank 0's own chunk ends at the deadline: it hands out no more, the watch's next look may come later.
      if (root && clock.time_is_up()) exchange.stop();
    }
    exchange.finish();
  } catch (...) {
    working = false;
    if (watch.joinable()) watch.join();
    throw;
  }
  working = false;
  if (watch.joinable()) watch.join();
  if (!root) return std::nullopt;

  // The results: the driver on the merged progress, which runs nothing more. A job whose time is up ends as one
  // process at its time limit: complete, with what its searches found, cut ones included; the merge's time is up
  // too, so it starts nothing and goes on with nothing under way. A job stopped or failed before is halted.
  const bool time_ran_out = ledger->failure().empty() && !ledger->stopped() && clock.time_is_up();
  core::StopRequest halt;
  if (!ledger->finished() && !time_ran_out) halt.request();
  RunOptions final_options = options;
  final_options.stop = &halt;
  if (clock.bounded()) final_options.deadline = std::chrono::steady_clock::now();
  // The job's time, the runs it resumed included (as one process's resumed run counts its earlier runs').
  final_options.parts_account = {ledger->devices(), clock.seconds()};
  ExperimentRun run = run_merged(config, catalog, ledger->merged(), final_options);
  ledger->save_if_due(true);
  if (!ledger->failure().empty()) {
    run.complete = run.interrupted = false;
    run.error = ledger->failure();
    run.results["status"] = "incomplete";
    run.results["error"] = run.error;
    run.results.erase("interrupted");
  } else if (!ledger->finished() && !run.interrupted && !time_ran_out) {
    run.complete = false;
    run.interrupted = true;
    run.results["status"] = "interrupted";
    run.results["interrupted"] = {{"partial", true}, {"completed", run.outcome->completed()}};
  }
  run.resumed = ledger->resumed();
  run.results["ranks"] = {
      {"count", place.ranks},
      {"wall_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count()},
      {"each", ledger->ranks_summary()}};
  if (checkpoint) run.results["checkpoint"] = {{"file", checkpoint->path()}, {"resumed", run.resumed}};
  return run;
}

} // namespace gsdk::host
