// perft_checks.cpp - the checks of the perft tables against the per-state rules' perft (what `gsdk perft
// --generic` counts): the CPU table directly and through the core's split into subtrees, and the core's
// breadth-first GPU perft over the plugin's CUDA kernels, from the start, mid-game and finished games.
#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

namespace gsdk::host::conformance {

namespace {

// The initial state, states a third and two thirds into a random game, and its finished end (no leaves
// below it at any depth).
std::vector<core::StateBlob> perft_roots(const CheckContext& context, Findings& findings) {
  std::mt19937_64 random(11);
  const RandomGame game = play_random_game(context, random, context.game().initial_state(), findings);
  if (game.states.empty()) findings.stop("no random game to take perft roots from");
  const auto& v = game.states;
  return {context.game().initial_state(), v[v.size() / 3], v[2 * v.size() / 3], v.back()};
}

constexpr core::uint128 kLargestTree = 100000; // deeper depths stop once a count passes this

void cpu_table(CheckContext& context, Findings& findings) {
  const gsdk_cpu_perft& table = *context.tables().cpu_perft;
  for (const core::StateBlob& root : perft_roots(context, findings)) {
    for (uint32_t depth = 1; depth <= 8 && !findings.failed(); ++depth) {
      const core::uint128 expected = core::generic_perft(context.game(), root, depth);
      uint64_t leaves = 0;
      if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
            return table.count(context.handle(), root.data(), depth, &leaves, error, size);
          }))
        findings.stop(fmt::format("cpu_perft({}, {}) failed (status {}): {}", context.quote(root), depth,
                                  failure->status, failure->message));
      if (leaves != expected)
        findings.fail(fmt::format("cpu_perft({}, {}) = {}, the per-state rules count {}", context.quote(root), depth,
                                  leaves, core::to_string(expected)));
      core::PerftJob job;
      job.root = root;
      job.depth = depth;
      job.cpu_threads = 2;
      const core::PerftOutcome out = core::run_perft(context.game(), job);
      if (!out.error.empty()) findings.stop(out.error);
      if (out.leaves != expected)
        findings.fail(fmt::format("run_perft({}, {}) through the table = {}, the per-state rules count {}",
                                  context.quote(root), depth, core::to_string(out.leaves), core::to_string(expected)));
      if (expected > kLargestTree) break;
    }
  }
}

void cuda_table(CheckContext& context, Findings& findings) {
  for (const core::StateBlob& root : perft_roots(context, findings)) {
    for (uint32_t depth = 1; depth <= 8 && !findings.failed(); ++depth) {
      const core::uint128 expected = core::generic_perft(context.game(), root, depth);
      core::PerftJob job;
      job.root = root;
      job.depth = depth;
      job.cuda_devices = {context.gpu()};
      job.streams_per_device = 1;
      job.arena_bytes_per_stream = uint64_t{256} << 20;
      const core::PerftOutcome out = core::run_perft(context.game(), job);
      if (!out.error.empty()) findings.stop(out.error);
      if (out.leaves != expected)
        findings.fail(fmt::format("GPU perft({}, {}) over the CUDA perft table = {}, the per-state rules count {}",
                                  context.quote(root), depth, core::to_string(out.leaves), core::to_string(expected)));
      if (expected > kLargestTree) break;
    }
  }
}

} // namespace

std::vector<CheckSpec> perft_checks() {
  return {
      {"perft.cpu_table",
       "cpu_perft counts what the per-state rules count (start, mid-game, finished; directly and split by the core)",
       {GSDK_TABLE_CPU_PERFT},
       false,
       cpu_table},
      {"perft.cuda_table",
       "the core's GPU perft over the CUDA perft kernels counts what the per-state rules count",
       {GSDK_TABLE_CUDA_PERFT},
       true,
       cuda_table},
  };
}

} // namespace gsdk::host::conformance
