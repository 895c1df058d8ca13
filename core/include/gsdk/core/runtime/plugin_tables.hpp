// plugin_tables.hpp - the capability tables of one negotiated plugin, checked for type and size.
#pragma once

#include <cstddef>
#include <string>

#include "gsdk/gsdk_plugin.h"

namespace gsdk::core {

struct PluginTables {
  std::string path; // where it was loaded from (for messages)
  gsdk_plugin_info info{};
  const gsdk_game* game = nullptr;                                 // required
  const gsdk_cpu_playouts* cpu_playouts = nullptr;                 // optional
  const gsdk_cuda_playouts* cuda_playouts = nullptr;               // optional
  const gsdk_replay* replay = nullptr;                             // optional
  const gsdk_score_distribution* score_distribution = nullptr;     // optional
  const gsdk_cpu_perft* cpu_perft = nullptr;                       // optional (ABI 1.1)
  const gsdk_cuda_perft* cuda_perft = nullptr;                     // optional (ABI 1.1)
  const gsdk_environment* environment = nullptr;                   // optional (ABI 1.2)
  const gsdk_cpu_qlearning* cpu_qlearning = nullptr;               // optional (ABI 1.2)
  const gsdk_cuda_qlearning* cuda_qlearning = nullptr;             // optional (ABI 1.2)
  const gsdk_render* render = nullptr;                             // optional (ABI 1.2)
  const gsdk_cuda_playout_batches* cuda_playout_batches = nullptr; // optional (ABI 1.3)
  const gsdk_move_codes* move_codes = nullptr;                     // optional (ABI 1.4)
  const gsdk_cuda_level1_searches* cuda_level1_searches = nullptr; // optional (ABI 1.4)
  const gsdk_cuda_level2_searches* cuda_level2_searches = nullptr; // optional (ABI 1.5)
  const gsdk_cuda_nrpa_searches* cuda_nrpa_searches = nullptr;     // optional (ABI 1.5)
  const gsdk_exact_states* exact_states = nullptr;                 // optional (ABI 1.7)
  const gsdk_sequence_documents* sequence_documents = nullptr;     // optional (ABI 1.9)
  const gsdk_evaluation* evaluation = nullptr;                     // optional (ABI 1.10)
  const gsdk_observations* observations = nullptr;                 // optional (ABI 1.11)
  const gsdk_batched_steps* batched_steps = nullptr;               // optional (ABI 1.11)
  const gsdk_perft_keys* perft_keys = nullptr;                     // optional (ABI 1.12)

  std::string name() const { return info.plugin_name ? info.plugin_name : ""; }
  std::string version() const { return info.plugin_version ? info.plugin_version : ""; }
};

// A search table's run_stoppable (ABI 1.6), or null when the plugin's table predates it or its searches cannot
// be stopped.
template <typename Table> auto stoppable_run(const Table& table) -> decltype(table.run_stoppable) {
  if (table.header.size < offsetof(Table, run_stoppable) + sizeof(table.run_stoppable)) return nullptr;
  return table.run_stoppable;
}

// The perft table's count_leaves_after_moves (ABI 1.8), or null when the plugin's table predates it or the
// plugin has none.
inline auto fused_leaf_count(const gsdk_cuda_perft& table) -> decltype(table.count_leaves_after_moves) {
  if (table.header.size < offsetof(gsdk_cuda_perft, count_leaves_after_moves) + sizeof(table.count_leaves_after_moves))
    return nullptr;
  return table.count_leaves_after_moves;
}

// The batched steps that keep final states (ABI 1.13), CPU and CUDA, or null when the plugin's table predates them
// or lacks that form.
inline auto step_keeping_final(const gsdk_batched_steps& table) -> decltype(table.step_keeping_final) {
  if (table.header.size < offsetof(gsdk_batched_steps, step_keeping_final) + sizeof(table.step_keeping_final))
    return nullptr;
  return table.step_keeping_final;
}
inline auto cuda_step_keeping_final(const gsdk_batched_steps& table) -> decltype(table.cuda_step_keeping_final) {
  if (table.header.size <
      offsetof(gsdk_batched_steps, cuda_step_keeping_final) + sizeof(table.cuda_step_keeping_final))
    return nullptr;
  return table.cuda_step_keeping_final;
}

// Looks up every table through info.get_proc and validates each header. Throws std::runtime_error
// naming the plugin file, the table and what was wrong.
PluginTables bind_tables(const std::string& path, const gsdk_plugin_info& info);

} // namespace gsdk::core
