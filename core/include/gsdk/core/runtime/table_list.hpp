// table_list.hpp - every optional capability table of the ABI, once: the one place beside gsdk_plugin.h where a new
// table is named. PluginTables' members, the binding at load time (type tag, and the size of the table's first
// version, so that plugins built before a table grew keep loading), the names and labels of `gsdk list` and its JSON,
// the ABI checks of the tables' headers and the test that keeps docs/plugin_authors.md's table complete all iterate
// it. Written as an X-macro because the list declares struct members of different types, which nothing in C++20
// iterates without one.
//
// X(member, struct, ABI name, type tag, size of the first version, ABI version that added it, label for people),
// in the order `gsdk list` shows them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "gsdk/gsdk_plugin.h"

// clang-format off
#define GSDK_OPTIONAL_TABLES(X)                                                                                        \
  X(cpu_playouts, gsdk_cpu_playouts, GSDK_TABLE_CPU_PLAYOUTS, GSDK_TYPE_CPU_PLAYOUTS,                                  \
    sizeof(gsdk_cpu_playouts), "1.0", "CPU batch playouts")                                                            \
  X(cuda_playouts, gsdk_cuda_playouts, GSDK_TABLE_CUDA_PLAYOUTS, GSDK_TYPE_CUDA_PLAYOUTS,                              \
    sizeof(gsdk_cuda_playouts), "1.0", "CUDA batch playouts")                                                          \
  X(replay, gsdk_replay, GSDK_TABLE_REPLAY, GSDK_TYPE_REPLAY, sizeof(gsdk_replay), "1.0", "replay of batch playouts")   \
  X(score_distribution, gsdk_score_distribution, GSDK_TABLE_SCORE_DISTRIBUTION, GSDK_TYPE_SCORE_DISTRIBUTION,          \
    sizeof(gsdk_score_distribution), "1.0", "exact score distribution")                                               \
  X(cpu_perft, gsdk_cpu_perft, GSDK_TABLE_CPU_PERFT, GSDK_TYPE_CPU_PERFT, sizeof(gsdk_cpu_perft), "1.1", "CPU perft")  \
  X(cuda_perft, gsdk_cuda_perft, GSDK_TABLE_CUDA_PERFT, GSDK_TYPE_CUDA_PERFT,                                          \
    offsetof(gsdk_cuda_perft, count_leaves_after_moves), "1.1", "CUDA perft kernels")                                  \
  X(environment, gsdk_environment, GSDK_TABLE_ENVIRONMENT, GSDK_TYPE_ENVIRONMENT, sizeof(gsdk_environment), "1.2",    \
    "Q-learning environment")                                                                                          \
  X(cpu_qlearning, gsdk_cpu_qlearning, GSDK_TABLE_CPU_QLEARNING, GSDK_TYPE_CPU_QLEARNING,                              \
    sizeof(gsdk_cpu_qlearning), "1.2", "CPU Q-learning trainer")                                                       \
  X(cuda_qlearning, gsdk_cuda_qlearning, GSDK_TABLE_CUDA_QLEARNING, GSDK_TYPE_CUDA_QLEARNING,                          \
    sizeof(gsdk_cuda_qlearning), "1.2", "CUDA Q-learning trainer")                                                     \
  X(render, gsdk_render, GSDK_TABLE_RENDER, GSDK_TYPE_RENDER, sizeof(gsdk_render), "1.2", "policy pictures")           \
  X(cuda_playout_batches, gsdk_cuda_playout_batches, GSDK_TABLE_CUDA_PLAYOUT_BATCHES, GSDK_TYPE_CUDA_PLAYOUT_BATCHES,  \
    sizeof(gsdk_cuda_playout_batches), "1.3", "CUDA playouts from many states per launch")                             \
  X(move_codes, gsdk_move_codes, GSDK_TABLE_MOVE_CODES, GSDK_TYPE_MOVE_CODES, sizeof(gsdk_move_codes), "1.4",         \
    "move codes (NRPA policies)")                                                                                      \
  X(cuda_level1_searches, gsdk_cuda_level1_searches, GSDK_TABLE_CUDA_LEVEL1_SEARCHES, GSDK_TYPE_CUDA_LEVEL1_SEARCHES,  \
    offsetof(gsdk_cuda_level1_searches, run_stoppable), "1.4", "CUDA level-1 NMCS")                                    \
  X(cuda_nrpa_searches, gsdk_cuda_nrpa_searches, GSDK_TABLE_CUDA_NRPA_SEARCHES, GSDK_TYPE_CUDA_NRPA_SEARCHES,          \
    offsetof(gsdk_cuda_nrpa_searches, run_stoppable), "1.5", "CUDA NRPA")                                              \
  X(cuda_level2_searches, gsdk_cuda_level2_searches, GSDK_TABLE_CUDA_LEVEL2_SEARCHES, GSDK_TYPE_CUDA_LEVEL2_SEARCHES,  \
    offsetof(gsdk_cuda_level2_searches, run_stoppable), "1.5", "CUDA level-2 NMCS")                                    \
  X(exact_states, gsdk_exact_states, GSDK_TABLE_EXACT_STATES, GSDK_TYPE_EXACT_STATES, sizeof(gsdk_exact_states),      \
    "1.7", "exact states")                                                                                             \
  X(sequence_documents, gsdk_sequence_documents, GSDK_TABLE_SEQUENCE_DOCUMENTS, GSDK_TYPE_SEQUENCE_DOCUMENTS,          \
    sizeof(gsdk_sequence_documents), "1.9", "its own documents of a move sequence, and their check")                   \
  X(evaluation, gsdk_evaluation, GSDK_TABLE_EVALUATION, GSDK_TYPE_EVALUATION, sizeof(gsdk_evaluation), "1.10",        \
    "static evaluation and state hashes (alpha-beta)")                                                                 \
  X(observations, gsdk_observations, GSDK_TABLE_OBSERVATIONS, GSDK_TYPE_OBSERVATIONS, sizeof(gsdk_observations),      \
    "1.11", "observations of states (vectorised environments)")                                                        \
  X(batched_steps, gsdk_batched_steps, GSDK_TABLE_BATCHED_STEPS, GSDK_TYPE_BATCHED_STEPS,                              \
    offsetof(gsdk_batched_steps, step_keeping_final), "1.11", "batched environment steps (vectorised environments)")   \
  X(perft_keys, gsdk_perft_keys, GSDK_TABLE_PERFT_KEYS, GSDK_TYPE_PERFT_KEYS, sizeof(gsdk_perft_keys), "1.12",        \
    "canonical states (hashed perft)")
// clang-format on

namespace gsdk::core {

// One entry of the list, for code that needs no member: what binding and the checks of a header compare against.
struct TableDescriptor {
  const char* abi_name;         // "gsdk.cpu_playouts.v1"
  uint32_t type;                // GSDK_TYPE_*
  uint32_t first_version_size; // the least header.size a plugin may give (the table's size when it was added)
  const char* since;            // the ABI version that added it, "1.4"
  const char* label;            // what it gives, for people
};

// Every optional table, in the list's order.
std::span<const TableDescriptor> optional_tables();

} // namespace gsdk::core
