// plugin_tables.hpp - the capability tables of one negotiated plugin, checked for type and size.
#pragma once

#include <cstddef>
#include <string>

#include "gsdk/core/runtime/table_list.hpp"
#include "gsdk/gsdk_plugin.h"

namespace gsdk::core {

struct PluginTables {
  std::string path; // where it was loaded from (for messages)
  gsdk_plugin_info info{};
  const gsdk_game* game = nullptr; // required
  // Each optional table of table_list.hpp, null when the plugin lacks it: const gsdk_cpu_playouts* cpu_playouts, ...
#define GSDK_TABLE_MEMBER(member, Struct, ...) const Struct* member = nullptr;
  GSDK_OPTIONAL_TABLES(GSDK_TABLE_MEMBER)
#undef GSDK_TABLE_MEMBER

  // The optional table `abi_name` (an entry of optional_tables()) as bound, or null.
  const void* optional_table(const char* abi_name) const;
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
