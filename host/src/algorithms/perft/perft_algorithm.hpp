// perft_algorithm.hpp - algorithm = "perft": leaf counts of the move tree of every [[perft.positions]]
// entry, each checked against its published count (`expect`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/engine_choice.hpp"
#include "gsdk/core/perft/perft.hpp"

namespace gsdk::host {

struct PerftPosition {
  std::string name;                    // default: the position text
  std::string position;                // "start" or the game's text form of a state
  uint32_t depth = 0;                  // 0 .. 64
  std::optional<core::uint128> expect; // the known leaf count, when given
  toml::source_region where;           // of `position`, for the game's verdict on it later
};

struct PerftSettings : AlgorithmSettings {
  bool divide = false;
  Engine engine = Engine::batch;               // batch: the plugin's perft tables | generic: per-state recursion
  core::PerftHashing hashing{.enabled = true}; // [perft] hash, hash_mb and gpu_hash_mb
  std::vector<PerftPosition> positions;
};

// The largest table size `gsdk perft --hash-mb`/`--gpu-hash-mb` and [perft] hash_mb/gpu_hash_mb take, in MiB (2^60
// bytes: no machine has it, and bytes still fit 64 bits).
inline constexpr uint64_t kMaxHashMib = uint64_t{1} << 40;

// The hashing of a perft job: on or off, and the tables' sizes in MiB (0: the core's default).
core::PerftHashing perft_hashing(bool enabled, uint64_t host_mib, uint64_t device_mib);

// Why the core refused to resume `resumed` for a job hashed as `hashing` (its std::invalid_argument `what`), as told
// to the user: a checkpoint counted with transposition tables resumes only with them, and one counted without only
// without (PerftProgress::distinct), which the message says how to do; else the core's reason.
std::string perft_resume_refusal(const core::PerftProgress& resumed, const core::PerftHashing& hashing,
                                 const std::string& what);

// The root a position text names: "start" for the initial state, else the game's text form of a state.
// Throws std::invalid_argument "invalid position for game '<name>': <the game's reason>".
core::StateBlob perft_root(const core::GameInstance& game, const std::string& position);

// What perft asks of the devices: GPUs through the plugin's CUDA perft table.
DeviceNeeds perft_device_needs(const core::PluginTables& tables, bool generic_engine);

// A perft job (root and depth still to set) on the devices chosen for it.
core::PerftJob perft_job(const DeviceChoice& devices, bool generic, bool divide, const core::PerftHashing& hashing);

// The count of the first position of a run of this driver (run_experiment's outcome), or null when the run ended
// before counting it: what `gsdk perft` reports.
const core::PerftOutcome* first_position_count(const AlgorithmOutcome& outcome);

const Algorithm& perft_algorithm();

} // namespace gsdk::host
