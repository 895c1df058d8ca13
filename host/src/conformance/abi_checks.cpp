// abi_checks.cpp - the checks of what negotiation and the tables' headers promise: sane plugin fields, a
// foreign major refused with a message, right type tags and sizes, no null entries, sane parameter
// declarations.
#include <cstddef>
#include <initializer_list>
// GCC 12 bug 105616 (a false -Wmaybe-uninitialized): with -fsanitize=address, moving <regex>'s automaton states is
// reported as reading an uninitialized std::function inside <bits/std_function.h>; the moved-from state is fully
// built. Silenced for this header's code only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop
#include <set>

#include <fmt/format.h>

#include "conformance/check_groups.hpp"

namespace gsdk::host::conformance {

namespace {

void negotiation(CheckContext& context, Findings& findings) {
  const gsdk_plugin_info& info = context.tables().info;
  if (info.header.type != GSDK_TYPE_PLUGIN_INFO)
    findings.fail(fmt::format("plugin info type tag {:#x}, expected {:#x}", info.header.type, GSDK_TYPE_PLUGIN_INFO));
  if (info.header.size != sizeof(gsdk_plugin_info))
    findings.fail(fmt::format("plugin info size {}, expected {} (what the host offered)", info.header.size,
                              sizeof(gsdk_plugin_info)));
  if (info.abi_minor > GSDK_ABI_MINOR)
    findings.fail(fmt::format("ABI {}.{} is newer than this host's {}.{}", info.abi_major, info.abi_minor,
                              GSDK_ABI_MAJOR, GSDK_ABI_MINOR));
  if (!info.plugin_name || !std::regex_match(info.plugin_name, std::regex("[a-z][a-z0-9_]*")))
    findings.fail(fmt::format("plugin name \"{}\": expected lower snake_case ([a-z][a-z0-9_]*)",
                              info.plugin_name ? info.plugin_name : "(null)"));
  if (!info.plugin_version || !std::regex_match(info.plugin_version, std::regex("[0-9]+\\.[0-9]+\\.[0-9]+([-+].*)?")))
    findings.fail(fmt::format("plugin version \"{}\": expected a semantic version such as 1.2.3",
                              info.plugin_version ? info.plugin_version : "(null)"));
  if (info.get_proc("gsdk.no_such_table.v1") != nullptr)
    findings.fail("get_proc(\"gsdk.no_such_table.v1\") returned a table; expected NULL for an unknown name");
  if (context.table().name && info.plugin_name && std::string(context.table().name) != info.plugin_name)
    findings.fail(fmt::format("the game's name \"{}\" differs from the plugin's name \"{}\"", context.table().name,
                              info.plugin_name));

  // Asked for majors it does not speak, it refuses with a version status and a message naming the range.
  auto negotiate = context.plugin().library.get<int32_t(const gsdk_negotiation*, gsdk_plugin_info*, char*, uint32_t)>(
      GSDK_ENTRY_SYMBOL);
  const gsdk_negotiation newer = {
      {GSDK_TYPE_NEGOTIATION, sizeof(gsdk_negotiation)}, GSDK_ABI_MAJOR + 1, GSDK_ABI_MAJOR + 3, nullptr};
  gsdk_plugin_info answer{};
  answer.header = {GSDK_TYPE_PLUGIN_INFO, sizeof answer};
  char error[1024] = {};
  const int32_t status = negotiate(&newer, &answer, error, sizeof error);
  if (status != GSDK_ERR_VERSION)
    findings.fail(fmt::format("asked for ABI majors {}..{}, gsdk_negotiate returned status {}, expected "
                              "GSDK_ERR_VERSION ({})",
                              GSDK_ABI_MAJOR + 1, GSDK_ABI_MAJOR + 3, status, GSDK_ERR_VERSION));
  const std::string range = fmt::format("{}..{}", GSDK_ABI_MAJOR + 1, GSDK_ABI_MAJOR + 3);
  if (std::string(error).find(range) == std::string::npos)
    findings.fail(fmt::format("the refusal of majors {} must name that range; its message was \"{}\"", range, error));
}

// Each optional table the plugin gives, against core's table list: its type tag, and a size covering the fields of
// its first version.
void check_headers(Findings& findings, const core::PluginTables& t) {
  for (const core::TableDescriptor& d : core::optional_tables()) {
    if (!t.optional_table(d.abi_name)) continue;
    const auto* header = static_cast<const gsdk_header*>(t.info.get_proc(d.abi_name));
    if (!header) {
      findings.fail(fmt::format("table {}: get_proc returned it at load time and NULL now", d.abi_name));
      continue;
    }
    if (header->type != d.type)
      findings.fail(fmt::format("table {}: type tag {:#x}, expected {:#x}", d.abi_name, header->type, d.type));
    if (header->size < d.first_version_size)
      findings.fail(fmt::format("table {}: size {} does not cover its {} bytes of fields", d.abi_name, header->size,
                                d.first_version_size));
  }
}

// The entries a table must set.
void require_entries(Findings& findings, const char* name, std::initializer_list<const void*> entries) {
  for (const void* entry : entries)
    if (!entry) findings.fail(fmt::format("table {}: a required entry is NULL", name));
}

void tables(CheckContext& context, Findings& findings) {
  const core::PluginTables& t = context.tables();
  const gsdk_game& g = context.table();
  if (g.header.type != GSDK_TYPE_GAME) findings.fail(fmt::format("game table type tag {:#x}", g.header.type));
  if (g.header.size < sizeof(gsdk_game)) findings.fail(fmt::format("game table size {}", g.header.size));
  if (!g.name || !g.description) findings.fail("the game table lacks its name or description");
  if (g.player_count < 1) findings.fail("the game declares no players");
  if (g.flags & ~GSDK_GAME_FLAG_CHANCE) findings.fail(fmt::format("unknown game flag bits {:#x}", g.flags));
  for (const void* fn :
       {(const void*)g.create, (const void*)g.destroy, (const void*)g.state_size, (const void*)g.max_moves,
        (const void*)g.score_range, (const void*)g.initial_state, (const void*)g.current_player,
        (const void*)g.legal_moves, (const void*)g.apply_move, (const void*)g.score, (const void*)g.state_to_string,
        (const void*)g.move_to_string, (const void*)g.state_from_string})
    if (!fn) findings.fail("a NULL entry in the game table");

  check_headers(findings, t);
  if (t.cpu_playouts) {
    require_entries(findings, GSDK_TABLE_CPU_PLAYOUTS,
                    {(const void*)t.cpu_playouts->best_simd_level, (const void*)t.cpu_playouts->run});
    if (t.cpu_playouts->best_simd_level) {
      const int32_t level = t.cpu_playouts->best_simd_level();
      if (level < GSDK_SIMD_SCALAR || level > GSDK_SIMD_AVX512)
        findings.fail(fmt::format("best_simd_level() = {}, expected a GSDK_SIMD_* level", level));
    }
  }
  if (t.cuda_playouts)
    require_entries(findings, GSDK_TABLE_CUDA_PLAYOUTS,
                    {(const void*)t.cuda_playouts->scratch_bytes, (const void*)t.cuda_playouts->run});
  if (t.cuda_playout_batches) {
    require_entries(findings, GSDK_TABLE_CUDA_PLAYOUT_BATCHES, {(const void*)t.cuda_playout_batches->run});
    if (!t.cuda_playouts) findings.fail("a gsdk.cuda_playout_batches.v1 table without gsdk.cuda_playouts.v1");
  }
  if (t.replay) require_entries(findings, GSDK_TABLE_REPLAY, {(const void*)t.replay->playout_moves});
  if (t.score_distribution)
    require_entries(findings, GSDK_TABLE_SCORE_DISTRIBUTION, {(const void*)t.score_distribution->exact});
  if (t.cpu_perft) require_entries(findings, GSDK_TABLE_CPU_PERFT, {(const void*)t.cpu_perft->count});
  if (t.cuda_perft)
    require_entries(findings, GSDK_TABLE_CUDA_PERFT,
                    {(const void*)t.cuda_perft->count_leaves, (const void*)t.cuda_perft->generate_moves,
                     (const void*)t.cuda_perft->apply_moves});
  if (t.environment)
    require_entries(findings, GSDK_TABLE_ENVIRONMENT,
                    {(const void*)t.environment->state_count, (const void*)t.environment->action_count,
                     (const void*)t.environment->agent_count, (const void*)t.environment->step_limit,
                     (const void*)t.environment->start_states, (const void*)t.environment->step});
  if (t.cpu_qlearning) require_entries(findings, GSDK_TABLE_CPU_QLEARNING, {(const void*)t.cpu_qlearning->train});
  if (t.cuda_qlearning)
    require_entries(findings, GSDK_TABLE_CUDA_QLEARNING,
                    {(const void*)t.cuda_qlearning->scratch_bytes, (const void*)t.cuda_qlearning->train});
  if (t.render) require_entries(findings, GSDK_TABLE_RENDER, {(const void*)t.render->policy_image});
  if (t.move_codes)
    require_entries(findings, GSDK_TABLE_MOVE_CODES,
                    {(const void*)t.move_codes->code_count, (const void*)t.move_codes->move_code});
  if (t.observations)
    require_entries(findings, GSDK_TABLE_OBSERVATIONS,
                    {(const void*)t.observations->shape, (const void*)t.observations->element_type,
                     (const void*)t.observations->fill});
  if (t.batched_steps) {
    if (!t.batched_steps->step && !t.batched_steps->cuda_step)
      findings.fail("a gsdk.batched_steps.v1 table with neither step nor cuda_step");
    if (core::step_keeping_final(*t.batched_steps) && !t.batched_steps->step)
      findings.fail("a gsdk.batched_steps.v1 table with step_keeping_final but no step");
    if (core::cuda_step_keeping_final(*t.batched_steps) && !t.batched_steps->cuda_step)
      findings.fail("a gsdk.batched_steps.v1 table with cuda_step_keeping_final but no cuda_step");
  }
  if (t.perft_keys) {
    require_entries(findings, GSDK_TABLE_PERFT_KEYS, {(const void*)t.perft_keys->canonical});
    if (t.perft_keys->cuda_canonical && !t.cuda_perft)
      findings.fail("a gsdk.perft_keys.v1 table with cuda_canonical but no gsdk.cuda_perft.v1");
  }
  if (t.exact_states) require_entries(findings, GSDK_TABLE_EXACT_STATES, {(const void*)t.exact_states->is_exact});
  if (t.evaluation)
    require_entries(
        findings, GSDK_TABLE_EVALUATION,
        {(const void*)t.evaluation->scale, (const void*)t.evaluation->evaluate, (const void*)t.evaluation->hash});
  if (t.cuda_level1_searches)
    require_entries(findings, GSDK_TABLE_CUDA_LEVEL1_SEARCHES,
                    {(const void*)t.cuda_level1_searches->max_game_length, (const void*)t.cuda_level1_searches->run});
  if (t.cuda_level2_searches) {
    require_entries(findings, GSDK_TABLE_CUDA_LEVEL2_SEARCHES,
                    {(const void*)t.cuda_level2_searches->scratch_bytes, (const void*)t.cuda_level2_searches->run});
    if (!t.cuda_level1_searches)
      findings.fail("a gsdk.cuda_level2_searches.v1 table without gsdk.cuda_level1_searches.v1");
  }
  if (t.cuda_nrpa_searches) {
    require_entries(findings, GSDK_TABLE_CUDA_NRPA_SEARCHES,
                    {(const void*)t.cuda_nrpa_searches->max_game_length,
                     (const void*)t.cuda_nrpa_searches->scratch_bytes, (const void*)t.cuda_nrpa_searches->run});
    if (!t.move_codes) findings.fail("a gsdk.cuda_nrpa_searches.v1 table without gsdk.move_codes.v1");
  }
}

void parameters(CheckContext& context, Findings& findings) {
  const gsdk_game& g = context.table();
  std::set<std::string> names;
  for (uint32_t i = 0; i < g.param_count; ++i) {
    const gsdk_param_desc& d = g.params[i];
    if (!d.name) {
      findings.fail(fmt::format("parameter {} has no name", i));
      continue;
    }
    if (!names.insert(d.name).second) findings.fail(fmt::format("parameter '{}' is declared twice", d.name));
    if (!d.doc) findings.fail(fmt::format("parameter '{}' has no doc", d.name));
    if (d.type < GSDK_PARAM_INT || d.type > GSDK_PARAM_STRING)
      findings.fail(fmt::format("parameter '{}' has type {}, expected a GSDK_PARAM_* type", d.name, d.type));
    if (d.type == GSDK_PARAM_INT &&
        !(d.min_value <= static_cast<double>(d.default_int) && static_cast<double>(d.default_int) <= d.max_value))
      findings.fail(fmt::format("parameter '{}': default {} outside its range [{}, {}]", d.name, d.default_int,
                                d.min_value, d.max_value));
    if (d.type == GSDK_PARAM_REAL && !(d.min_value <= d.default_real && d.default_real <= d.max_value))
      findings.fail(fmt::format("parameter '{}': default {} outside its range [{}, {}]", d.name, d.default_real,
                                d.min_value, d.max_value));
    if (d.type == GSDK_PARAM_BOOL && d.default_int != 0 && d.default_int != 1)
      findings.fail(fmt::format("parameter '{}': boolean default {}, expected 0 or 1", d.name, d.default_int));
  }
  // create() accepted the parameters (the context made an instance); the instance describes itself sanely.
  const core::GameInstance& game = context.game();
  if (game.state_size() == 0) findings.fail("state_size() is 0");
  if (game.max_moves() == 0) findings.fail("max_moves() is 0");
}

} // namespace

std::vector<CheckSpec> abi_checks() {
  return {
      {"abi.negotiation",
       "plugin info sane (name, semantic version, unknown tables NULL); foreign ABI majors refused with a message",
       {},
       false,
       negotiation},
      {"abi.tables", "every table has its type tag, a size covering its fields and no NULL entry", {}, false, tables},
      {"abi.parameters",
       "parameter declarations sane (unique, documented, typed, defaults in range); instance sane",
       {},
       false,
       parameters},
  };
}

} // namespace gsdk::host::conformance
