// plugin_tables.cpp - binds and validates a plugin's capability tables.
#include "gsdk/core/runtime/plugin_tables.hpp"

#include <cstddef>
#include <stdexcept>
#include <string_view>

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

std::span<const TableDescriptor> optional_tables() {
#define GSDK_DESCRIBE_TABLE(member, Struct, name, type, first_version_size, since, label) \
  TableDescriptor{name, type, static_cast<uint32_t>(first_version_size), since, label},
  static constexpr TableDescriptor kTables[] = {GSDK_OPTIONAL_TABLES(GSDK_DESCRIBE_TABLE)};
#undef GSDK_DESCRIBE_TABLE
  return kTables;
}

const void* PluginTables::optional_table(const char* abi_name) const {
  const std::string_view wanted(abi_name);
#define GSDK_FIND_TABLE(member, Struct, name, ...) \
  if (wanted == name) return member;
  GSDK_OPTIONAL_TABLES(GSDK_FIND_TABLE)
#undef GSDK_FIND_TABLE
  return nullptr;
}

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
#define GSDK_BIND_TABLE(member, Struct, name, type, first_version_size, ...) \
  t.member = bind<Struct>(path, info, name, type, first_version_size);
  GSDK_OPTIONAL_TABLES(GSDK_BIND_TABLE)
#undef GSDK_BIND_TABLE
  if ((t.cpu_qlearning || t.cuda_qlearning) && !t.environment)
    throw std::runtime_error(fmt::format("{}: plugin '{}' has a Q-learning table but no '{}' table", path,
                                         info.plugin_name, GSDK_TABLE_ENVIRONMENT));
  if (t.cuda_perft && t.cuda_perft->leaf_plies == 0)
    throw std::runtime_error(
        fmt::format("{}: table '{}' declares leaf_plies 0, expected at least 1", path, GSDK_TABLE_CUDA_PERFT));
  return t;
}

} // namespace gsdk::core
