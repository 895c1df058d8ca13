// capability_tables.cpp - the plugin's optional tables by ABI name.
#include "conformance/capability_tables.hpp"

namespace gsdk::host {

std::vector<CapabilityTable> capability_tables(const core::PluginTables& t) {
  return {
      {GSDK_TABLE_CPU_PLAYOUTS, "CPU batch playouts", t.cpu_playouts != nullptr},
      {GSDK_TABLE_CUDA_PLAYOUTS, "CUDA batch playouts", t.cuda_playouts != nullptr},
      {GSDK_TABLE_REPLAY, "replay of batch playouts", t.replay != nullptr},
      {GSDK_TABLE_SCORE_DISTRIBUTION, "exact score distribution", t.score_distribution != nullptr},
      {GSDK_TABLE_CPU_PERFT, "CPU perft", t.cpu_perft != nullptr},
      {GSDK_TABLE_CUDA_PERFT, "CUDA perft kernels", t.cuda_perft != nullptr},
      {GSDK_TABLE_ENVIRONMENT, "Q-learning environment", t.environment != nullptr},
      {GSDK_TABLE_CPU_QLEARNING, "CPU Q-learning trainer", t.cpu_qlearning != nullptr},
      {GSDK_TABLE_CUDA_QLEARNING, "CUDA Q-learning trainer", t.cuda_qlearning != nullptr},
      {GSDK_TABLE_RENDER, "policy pictures", t.render != nullptr},
      {GSDK_TABLE_CUDA_PLAYOUT_BATCHES, "CUDA playouts from many states per launch", t.cuda_playout_batches != nullptr},
      {GSDK_TABLE_MOVE_CODES, "move codes (NRPA policies)", t.move_codes != nullptr},
      {GSDK_TABLE_CUDA_LEVEL1_SEARCHES, "CUDA level-1 NMCS", t.cuda_level1_searches != nullptr},
      {GSDK_TABLE_CUDA_NRPA_SEARCHES, "CUDA NRPA", t.cuda_nrpa_searches != nullptr},
      {GSDK_TABLE_CUDA_LEVEL2_SEARCHES, "CUDA level-2 NMCS", t.cuda_level2_searches != nullptr},
      {GSDK_TABLE_EXACT_STATES, "exact states", t.exact_states != nullptr},
      {GSDK_TABLE_SEQUENCE_DOCUMENTS, "its own documents of a move sequence, and their check",
       t.sequence_documents != nullptr},
      {GSDK_TABLE_EVALUATION, "static evaluation and state hashes (alpha-beta)", t.evaluation != nullptr},
      {GSDK_TABLE_OBSERVATIONS, "observations of states (vectorised environments)", t.observations != nullptr},
      {GSDK_TABLE_BATCHED_STEPS, "batched environment steps (vectorised environments)", t.batched_steps != nullptr},
      {GSDK_TABLE_PERFT_KEYS, "canonical states (hashed perft)", t.perft_keys != nullptr},
  };
}

bool has_table(const core::PluginTables& tables, const std::string& abi_name) {
  if (abi_name == GSDK_TABLE_GAME) return tables.game != nullptr;
  for (const CapabilityTable& t : capability_tables(tables))
    if (abi_name == t.abi_name) return t.present;
  return false;
}

} // namespace gsdk::host
