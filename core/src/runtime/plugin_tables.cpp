// plugin_tables.cpp - binds and validates a plugin's capability tables.
#include "gsdk/core/runtime/plugin_tables.hpp"

#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>

namespace gsdk::core {

namespace {

// A table is usable when its tag is right and its size covers at least the fields of its first version (a
// table that grew since is bound down to the size it had then, so older plugins keep loading).
template <typename Table>
const Table* bind(const std::string& path, const gsdk_plugin_info& info, const char* name, uint32_t type,
                  uint32_t minimum_size) {
  const void* raw = info.get_proc(name);
  if (!raw) return nullptr;
  const auto* header = static_cast<const gsdk_header*>(raw);
  if (header->type != type)
    throw std::runtime_error(
        fmt::format("{}: table '{}' has type tag {:#x}, expected {:#x}", path, name, header->type, type));
  if (header->size < minimum_size)
    throw std::runtime_error(
        fmt::format("{}: table '{}' is {} bytes, expected at least {}", path, name, header->size, minimum_size));
  return static_cast<const Table*>(raw);
}

} // namespace

PluginTables bind_tables(const std::string& path, const gsdk_plugin_info& info) {
  if (!info.get_proc) throw std::runtime_error(fmt::format("{}: negotiation returned no get_proc", path));
  if (!info.plugin_name || !*info.plugin_name)
    throw std::runtime_error(fmt::format("{}: negotiation returned no plugin name", path));
  PluginTables t;
  t.path = path;
  t.info = info;
  t.game = bind<gsdk_game>(path, info, GSDK_TABLE_GAME, GSDK_TYPE_GAME, sizeof(gsdk_game));
  if (!t.game)
    throw std::runtime_error(fmt::format("{}: plugin '{}' has no '{}' table, which every plugin must provide", path,
                                         info.plugin_name, GSDK_TABLE_GAME));
  t.cpu_playouts =
      bind<gsdk_cpu_playouts>(path, info, GSDK_TABLE_CPU_PLAYOUTS, GSDK_TYPE_CPU_PLAYOUTS, sizeof(gsdk_cpu_playouts));
  t.cuda_playouts = bind<gsdk_cuda_playouts>(path, info, GSDK_TABLE_CUDA_PLAYOUTS, GSDK_TYPE_CUDA_PLAYOUTS,
                                             sizeof(gsdk_cuda_playouts));
  t.replay = bind<gsdk_replay>(path, info, GSDK_TABLE_REPLAY, GSDK_TYPE_REPLAY, sizeof(gsdk_replay));
  t.score_distribution = bind<gsdk_score_distribution>(path, info, GSDK_TABLE_SCORE_DISTRIBUTION,
                                                       GSDK_TYPE_SCORE_DISTRIBUTION, sizeof(gsdk_score_distribution));
  t.cpu_perft = bind<gsdk_cpu_perft>(path, info, GSDK_TABLE_CPU_PERFT, GSDK_TYPE_CPU_PERFT, sizeof(gsdk_cpu_perft));
  t.cuda_perft = bind<gsdk_cuda_perft>(path, info, GSDK_TABLE_CUDA_PERFT, GSDK_TYPE_CUDA_PERFT,
                                       offsetof(gsdk_cuda_perft, count_leaves_after_moves));
  t.environment =
      bind<gsdk_environment>(path, info, GSDK_TABLE_ENVIRONMENT, GSDK_TYPE_ENVIRONMENT, sizeof(gsdk_environment));
  t.cpu_qlearning = bind<gsdk_cpu_qlearning>(path, info, GSDK_TABLE_CPU_QLEARNING, GSDK_TYPE_CPU_QLEARNING,
                                             sizeof(gsdk_cpu_qlearning));
  t.cuda_qlearning = bind<gsdk_cuda_qlearning>(path, info, GSDK_TABLE_CUDA_QLEARNING, GSDK_TYPE_CUDA_QLEARNING,
                                               sizeof(gsdk_cuda_qlearning));
  t.render = bind<gsdk_render>(path, info, GSDK_TABLE_RENDER, GSDK_TYPE_RENDER, sizeof(gsdk_render));
  t.cuda_playout_batches = bind<gsdk_cuda_playout_batches>(
      path, info, GSDK_TABLE_CUDA_PLAYOUT_BATCHES, GSDK_TYPE_CUDA_PLAYOUT_BATCHES, sizeof(gsdk_cuda_playout_batches));
  t.move_codes =
      bind<gsdk_move_codes>(path, info, GSDK_TABLE_MOVE_CODES, GSDK_TYPE_MOVE_CODES, sizeof(gsdk_move_codes));
  t.cuda_level1_searches =
      bind<gsdk_cuda_level1_searches>(path, info, GSDK_TABLE_CUDA_LEVEL1_SEARCHES, GSDK_TYPE_CUDA_LEVEL1_SEARCHES,
                                      offsetof(gsdk_cuda_level1_searches, run_stoppable));
  t.cuda_level2_searches =
      bind<gsdk_cuda_level2_searches>(path, info, GSDK_TABLE_CUDA_LEVEL2_SEARCHES, GSDK_TYPE_CUDA_LEVEL2_SEARCHES,
                                      offsetof(gsdk_cuda_level2_searches, run_stoppable));
  t.cuda_nrpa_searches =
      bind<gsdk_cuda_nrpa_searches>(path, info, GSDK_TABLE_CUDA_NRPA_SEARCHES, GSDK_TYPE_CUDA_NRPA_SEARCHES,
                                    offsetof(gsdk_cuda_nrpa_searches, run_stoppable));
  t.exact_states =
      bind<gsdk_exact_states>(path, info, GSDK_TABLE_EXACT_STATES, GSDK_TYPE_EXACT_STATES, sizeof(gsdk_exact_states));
  t.sequence_documents = bind<gsdk_sequence_documents>(path, info, GSDK_TABLE_SEQUENCE_DOCUMENTS,
                                                       GSDK_TYPE_SEQUENCE_DOCUMENTS, sizeof(gsdk_sequence_documents));
  t.evaluation =
      bind<gsdk_evaluation>(path, info, GSDK_TABLE_EVALUATION, GSDK_TYPE_EVALUATION, sizeof(gsdk_evaluation));
  t.observations = bind<gsdk_observations>(path, info, GSDK_TABLE_OBSERVATIONS, GSDK_TYPE_OBSERVATIONS,
                                           sizeof(gsdk_observations));
  t.batched_steps = bind<gsdk_batched_steps>(path, info, GSDK_TABLE_BATCHED_STEPS, GSDK_TYPE_BATCHED_STEPS,
                                             offsetof(gsdk_batched_steps, step_keeping_final));
  t.perft_keys =
      bind<gsdk_perft_keys>(path, info, GSDK_TABLE_PERFT_KEYS, GSDK_TYPE_PERFT_KEYS, sizeof(gsdk_perft_keys));
  if ((t.cpu_qlearning || t.cuda_qlearning) && !t.environment)
    throw std::runtime_error(fmt::format("{}: plugin '{}' has a Q-learning table but no '{}' table", path,
                                         info.plugin_name, GSDK_TABLE_ENVIRONMENT));
  if (t.cuda_perft && t.cuda_perft->leaf_plies == 0)
    throw std::runtime_error(
        fmt::format("{}: table '{}' declares leaf_plies 0, expected at least 1", path, GSDK_TABLE_CUDA_PERFT));
  return t;
}

} // namespace gsdk::core
