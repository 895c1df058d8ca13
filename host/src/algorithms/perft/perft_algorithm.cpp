// perft_algorithm.cpp - the perft driver: [perft] and its positions, the counts on CPU threads and GPUs,
// progress events, the position table and the results fields. A position that fails while counting
// ends the run (later positions not run); counts that differ from their `expect` fail it after every
// position has run.
#include "algorithms/perft/perft_algorithm.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/finished_event.hpp"
#include "algorithms/perft/perft_progress.hpp"
#include "algorithms/perft/perft_report.hpp"
#include "algorithms/typed_driver.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "config/experiment_config.hpp"
#include "gsdk/core/runtime/digest.hpp"
#include "report/output_file.hpp"
#include "report/progress_bar.hpp"

namespace gsdk::host {

namespace {

const BooleanKey kDivide{"divide", false, "also count per root move"};
const StringKey kEngine =
    engine_key("\"batch\": the plugin's perft tables; \"generic\": recursion through the per-state rules "
               "(the reference)");
const BooleanKey kHash{"hash", true,
                       "transposition tables: a subtree met again by another move order is counted once (the counts "
                       "are the same); false counts every path"};
const IntegerKey kHashMb{"hash_mb", 0, 0, static_cast<int64_t>(kMaxHashMib),
                         "MiB of the CPU workers' shared table (0: the default, a share of the available memory)"};
const IntegerKey kGpuHashMb{"gpu_hash_mb", 0, 0, static_cast<int64_t>(kMaxHashMib),
                            "MiB of each GPU's table (0: the default, the GPU's free memory beside its engine)"};
const OtherKey kPositions{"positions", "array of tables", "required",
                          "[[perft.positions]] entries: name (default: the position), position (\"start\" or the "
                          "game's text form of a state), depth (0..64), expect (the known count: an integer or a "
                          "decimal string)"};

PerftPosition read_position(const toml::table& entry, size_t index) {
  const ConfigSection s(entry, fmt::format("[[perft.positions]] entry {}", index + 1));
  s.allow_only({"name", "position", "depth", "expect"});
  PerftPosition p;
  p.position = s.required_string("position");
  p.where = s.node("position")->source();
  s.require("depth");
  p.depth = static_cast<uint32_t>(s.integer("depth", 0, 0, 64));
  p.name = s.string("name", p.position);
  if (s.node("expect")) p.expect = s.count("expect");
  return p;
}

struct CountedPosition {
  PerftPosition position;
  core::PerftOutcome outcome;
};

class PerftRunOutcome : public AlgorithmOutcome {
public:
  std::vector<CountedPosition> counted;
  bool divide = false;
  bool hashed = false; // [perft] hash
  std::string engine, experiment, game, devices, digest_text;
  core::uint128 total = 0;
  double seconds = 0, startup_seconds = 0, device_milliseconds = 0;
  bool mismatch = false; // a count is not its `expect` (`failure` says which)

  size_t planned = 0; // positions

  std::string status() const override {
    return !error.empty() ? "incomplete" : stopped ? "interrupted" : mismatch ? "mismatch" : "complete";
  }
  // The positions counted whole; the last one listed may be partial.
  nlohmann::json completed() const override {
    return {{"positions", counted.size() - (stopped ? 1 : 0)}, {"of", planned}, {"leaves", core::to_string(total)}};
  }
  std::string digest() const override { return digest_text; }

  nlohmann::json results() const override {
    nlohmann::json positions = nlohmann::json::array();
    for (const CountedPosition& c : counted) {
      const PerftPosition& p = c.position;
      nlohmann::json j = perft_json(c.outcome, divide, hashed);
      j["name"] = p.name;
      j["position"] = p.position;
      j["depth"] = p.depth;
      j["expected"] = p.expect ? nlohmann::json(core::to_string(*p.expect)) : nlohmann::json(nullptr);
      j["match"] = p.expect && c.outcome.error.empty() && !c.outcome.stopped
                       ? nlohmann::json(*p.expect == c.outcome.leaves)
                       : nlohmann::json(nullptr);
      positions.push_back(std::move(j));
    }
    return {{"engine", engine},
            {"devices", devices},
            {"result", {{"positions", positions}, {"leaves", core::to_string(total)}}},
            {"timings",
             {{"wall_seconds", seconds},
              {"startup_seconds", startup_seconds},
              {"device_milliseconds", device_milliseconds},
              {"nodes_per_second", seconds > 0 ? static_cast<double>(total) / seconds : 0.0}}}};
  }

  void print(const std::string& results_path) const override {
    std::printf("%s: perft of %s on %s\n", experiment.c_str(), game.c_str(), devices.c_str());
    int name_width = 8;
    for (const CountedPosition& c : counted)
      name_width = std::max(name_width, static_cast<int>(c.position.name.size()));
    std::printf("  %-*s %5s %20s %20s %5s %10s %12s\n", name_width, "position", "depth", "leaves", "expected", "match",
                "seconds", "nodes/s");
    for (const CountedPosition& c : counted) {
      const PerftPosition& p = c.position;
      const std::string expected = p.expect ? core::to_string(*p.expect) : "-";
      const bool partial = !c.outcome.error.empty() || c.outcome.stopped;
      const char* match = !p.expect || partial ? "-" : *p.expect == c.outcome.leaves ? "yes" : "NO";
      std::printf("  %-*s %5u %20s %20s %5s %10.3f %12.4g%s\n", name_width, p.name.c_str(), p.depth,
                  core::to_string(c.outcome.leaves).c_str(), expected.c_str(), match, c.outcome.wall_seconds,
                  nodes_per_second(c.outcome),
                  !c.outcome.error.empty() ? "  (incomplete)"
                  : c.outcome.stopped      ? "  (interrupted)"
                                           : "");
    }
    std::printf("  total %s leaves in %.3f s", core::to_string(total).c_str(), seconds);
    if (device_milliseconds > 0) std::printf(", %.3f ms in GPU kernels", device_milliseconds);
    if (startup_seconds > 0) std::printf(" (GPU start-up %.3f s before)", startup_seconds);
    std::printf(", %.4g nodes/s\n", seconds > 0 ? static_cast<double>(total) / seconds : 0.0);
    if (hashed) {
      core::PerftHashStats hash;
      for (const CountedPosition& c : counted) add_perft_hash(hash, c.outcome.hash);
      std::printf("  hash %s\n", perft_hash_line(hash).c_str());
    }
    std::printf("  digest %s\n  results %s\n", digest_text.c_str(), output_name(results_path).c_str());
  }
};

class Perft : public DriverOf<PerftSettings> {
public:
  const AlgorithmInfo& info() const override {
    static const AlgorithmInfo info{"perft",
                                    "leaf counts of the move tree (perft), per root move with divide, checked against "
                                    "the known counts",
                                    {describe(kDivide), describe(kEngine), describe(kHash), describe(kHashMb),
                                     describe(kGpuHashMb), describe(kPositions)},
                                    {},
                                    "",
                                    "perft draws no picture; its results file holds the leaf counts"};
    return info;
  }

  std::shared_ptr<const PerftSettings> read_settings(const ConfigSection& s, const ConfigSection*) const override {
    auto settings = std::make_shared<PerftSettings>();
    settings->divide = s.get(kDivide);
    settings->engine = read_engine(s, kEngine);
    const bool hash = s.get(kHash);
    for (const IntegerKey* size : {&kHashMb, &kGpuHashMb})
      if (const toml::node* n = s.node(size->name); !hash && n && s.get(*size) != 0)
        throw s.error(*n, size->name,
                      fmt::format("= {} sizes a transposition table, but hash = false counts without them: remove "
                                  "'{}' or set hash = true",
                                  s.get(*size), size->name));
    settings->hashing =
        perft_hashing(hash, static_cast<uint64_t>(s.get(kHashMb)), static_cast<uint64_t>(s.get(kGpuHashMb)));
    const toml::node* list = s.node(kPositions.name);
    if (!list)
      throw ConfigError(located(s.table().source(), "missing required key 'positions' in [perft]: add a "
                                                    "[[perft.positions]] table per position"));
    if (!list->is_array())
      throw located_error(*list, fmt::format("'positions' in [perft] must be an array of tables ([[perft.positions]]), "
                                             "got {}",
                                             toml_type_name(*list)));
    if (list->as_array()->empty()) throw located_error(*list, "'positions' in [perft] needs at least one position");
    for (const toml::node& item : *list->as_array()) {
      if (!item.is_table())
        throw located_error(item, fmt::format("'positions' in [perft] must hold tables, got {}", toml_type_name(item)));
      settings->positions.push_back(read_position(*item.as_table(), settings->positions.size()));
    }
    return settings;
  }

  DeviceNeeds device_needs_for(const PerftSettings& settings, const core::PluginTables& tables) const override {
    return perft_device_needs(tables, settings.engine == Engine::generic);
  }

  bool has_checkpoints() const override { return true; }
  bool has_parts() const override { return true; }
  // Tables change which subtrees are counted again, never the counts: a checkpoint resumes with other sizes, and one
  // counted with tables is refused without them (and the reverse) by its progress (perft_resume_refusal).
  std::vector<std::string> keys_outside_results() const override { return {kHash.name, kHashMb.name, kGpuHashMb.name}; }

  // {"positions": [...]}: position by position.
  nlohmann::json merge_progress(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& where) const override {
    const nlohmann::json& pa = a.at("positions");
    const nlohmann::json& pb = b.at("positions");
    if (pa.size() != pb.size())
      throw CheckpointMismatch(fmt::format("{}: the parts counted {} and {} positions", where, pa.size(), pb.size()));
    nlohmann::json positions = nlohmann::json::array();
    for (size_t i = 0; i < pa.size(); ++i) positions.push_back(merge_perft_progress(pa[i], pb[i], where));
    return {{"positions", positions}};
  }

  std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context, const PerftSettings& settings) const override {
    const core::GameInstance& game = context.game;
    const bool generic = settings.engine == Engine::generic;
    // Every position is read before any is counted, so a typo in the last one costs no time.
    std::vector<core::StateBlob> roots;
    for (const PerftPosition& p : settings.positions) {
      try {
        roots.push_back(perft_root(game, p.position));
      } catch (const std::invalid_argument& e) {
        throw ConfigError(located(p.where, e.what()));
      }
    }

    OutputStream events(context.config.events_file, "events file");
    auto outcome = std::make_unique<PerftRunOutcome>();
    outcome->divide = settings.divide;
    outcome->hashed = settings.hashing.enabled;
    outcome->engine = engine_name(settings.engine);
    outcome->experiment = context.config.name;
    outcome->game = context.config.game;
    outcome->devices = context.devices.summary;
    outcome->planned = roots.size();
    // With a checkpoint: {"positions": [progress of each position counted or begun]}, saved every
    // checkpoint_seconds and after each position.
    std::vector<core::PerftProgress> resumed;
    if (context.checkpoint && !context.checkpoint->resumed().is_null())
      for (const nlohmann::json& entry : context.checkpoint->resumed().value("positions", nlohmann::json::array()))
        resumed.push_back(perft_progress_from_json(entry, context.checkpoint->path()));
    nlohmann::json saved = nlohmann::json::array();
    std::string canonical, mismatches;
    for (size_t i = 0; i < roots.size(); ++i) {
      const PerftPosition& p = settings.positions[i];
      core::PerftJob job = perft_job(context.devices, generic, settings.divide, settings.hashing);
      job.root = roots[i];
      job.depth = p.depth;
      job.stop = context.stop;
      if (i < resumed.size()) job.resume = &resumed[i];
      if (context.part) {
        job.part = context.part;
        job.split_target = core::kSharedSplitTarget;
      }
      if (context.checkpoint) {
        job.on_snapshot = [&](const core::PerftProgress& progress) {
          nlohmann::json positions = saved;
          positions.push_back(perft_progress_json(progress));
          context.checkpoint->save({{"positions", positions}}, false);
        };
        job.snapshot_seconds = context.checkpoint_seconds;
      }
      ProgressBar bar(context.config.name + " " + p.name, "subtrees", context.progress);
      const auto progress = [&](uint64_t done, uint64_t subtrees) {
        bar.update(done, subtrees);
        events.write_line(
            nlohmann::json{{"event", "progress"}, {"position", p.name}, {"done", done}, {"total", subtrees}}.dump());
      };
      try {
        outcome->counted.push_back({p, core::run_perft(game, job, progress)});
      } catch (const std::invalid_argument& e) {
        if (!job.resume) throw;
        throw CheckpointMismatch(fmt::format("{}: the checkpoint does not fit position '{}': {}",
                                             context.checkpoint->path(), p.name,
                                             perft_resume_refusal(*job.resume, job.hashing, e.what())));
      }
      bar.finish();
      const core::PerftOutcome& counted = outcome->counted.back().outcome;
      saved.push_back(perft_progress_json(counted.progress));
      if (context.checkpoint) {
        const bool last = i + 1 == roots.size();
        try {
          context.checkpoint->save({{"positions", saved}}, last && counted.error.empty() && !counted.stopped);
        } catch (const std::exception& e) {
          outcome->failure = std::string("checkpoint: ") + e.what();
        }
      }
      outcome->total += counted.leaves;
      outcome->seconds += counted.wall_seconds;
      outcome->startup_seconds += counted.startup_seconds;
      outcome->device_milliseconds += counted.device_milliseconds;
      if (!counted.error.empty()) {
        outcome->error = fmt::format("position '{}' (depth {}): {}", p.name, p.depth, counted.error);
        break;
      }
      if (counted.stopped) {
        outcome->stopped = true;
        break;
      }
      canonical += fmt::format("{}|{}|{}\n", p.position, p.depth, core::to_string(counted.leaves));
      // A part's count is a share of the position's: the run that merges the parts checks the whole.
      if (p.expect && *p.expect != counted.leaves && !context.part)
        mismatches +=
            fmt::format("{}position '{}' (depth {}) counted {} leaves, expected {}", mismatches.empty() ? "" : "; ",
                        p.name, p.depth, core::to_string(counted.leaves), core::to_string(*p.expect));
    }
    outcome->mismatch = !mismatches.empty();
    if (outcome->mismatch)
      outcome->failure =
          "perft count mismatch: " + mismatches + (outcome->failure.empty() ? "" : "; " + outcome->failure);
    outcome->digest_text = core::sha1_digest(canonical);
    finish_events(events, *outcome);
    return outcome;
  }
};

} // namespace

core::StateBlob perft_root(const core::GameInstance& game, const std::string& position) {
  if (position == "start") return game.initial_state();
  try {
    return game.state_from_string(position);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("invalid position for game '{}': {}", game.game().name, e.what()));
  }
}

DeviceNeeds perft_device_needs(const core::PluginTables& tables, bool generic_engine) {
  DeviceNeeds needs;
  needs.has_cuda_table = tables.cuda_perft != nullptr;
  needs.cuda_table = "CUDA perft table";
  needs.generic_engine = generic_engine;
  needs.cpu_engine = !generic_engine && tables.cpu_perft ? "plugin perft" : "per-state";
  return needs;
}

core::PerftHashing perft_hashing(bool enabled, uint64_t host_mib, uint64_t device_mib) {
  if (host_mib > kMaxHashMib || device_mib > kMaxHashMib)
    throw std::invalid_argument(
        fmt::format("a perft table of more than 2^40 MiB ({} and {} MiB)", host_mib, device_mib));
  return {.enabled = enabled, .host_table_bytes = host_mib << 20, .device_table_bytes = device_mib << 20};
}

std::string perft_resume_refusal(const core::PerftProgress& resumed, const core::PerftHashing& hashing,
                                 const std::string& what) {
  if (resumed.distinct == hashing.enabled) return what;
  return resumed.distinct
             ? "it was counted with transposition tables (hashing), and this count is without them (--no-hash, "
               "[perft] hash = false): resume it with hashing on, as it was saved (leave out --no-hash, or set "
               "hash = true), or count afresh with another checkpoint file"
             : "it was counted without transposition tables (--no-hash, [perft] hash = false), and this count hashes: "
               "resume it without hashing, as it was saved (add --no-hash, or set hash = false), or count afresh "
               "with another checkpoint file";
}

core::PerftJob perft_job(const DeviceChoice& devices, bool generic, bool divide, const core::PerftHashing& hashing) {
  core::PerftJob job;
  job.divide = divide;
  job.hashing = hashing;
  job.cpu_threads = devices.cpu_threads;
  for (const auto& g : devices.gpus) job.cuda_devices.push_back(g.ordinal);
  job.streams_per_device = devices.streams;
  job.force_generic = generic;
  return job;
}

const core::PerftOutcome* first_position_count(const AlgorithmOutcome& outcome) {
  const auto* perft = dynamic_cast<const PerftRunOutcome*>(&outcome);
  return perft && !perft->counted.empty() ? &perft->counted.front().outcome : nullptr;
}

const Algorithm& perft_algorithm() {
  static const Perft algorithm;
  return algorithm;
}

} // namespace gsdk::host
