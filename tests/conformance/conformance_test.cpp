// conformance_test.cpp - the conformance suite (host/src/conformance/, what `gsdk check` runs) on every plugin
// in bin/plugins and every test game in bin/test_plugins/valid under its default parameters, and under a few
// more for games whose parameters change the shape of their states or what their playouts report
// (kExtraCases). One test per plugin case and check: it passes when the check passes and skips when the check
// does not apply (a table the plugin lacks, no GPU), with the check's reason. The checks themselves live in the
// library; this file only instantiates them, in this process (GPU checks run where a GPU exists).
#include <map>
// GCC 12 bug 105616 (a false -Wmaybe-uninitialized): with -fsanitize=address, moving <regex>'s automaton states is
// reported as reading an uninitialized std::function inside <bits/std_function.h>; the moved-from state is fully
// built. Silenced for this header's code only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop
#include <set>

#include <gtest/gtest.h>

#include "conformance/check_registry.hpp"
#include "conformance/run_check.hpp"
#include "gpu.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using namespace gsdk::host::conformance;

std::vector<fs::path> plugin_files() {
  std::vector<fs::path> files = gsdk::test::shared_objects(gsdk::test::plugin_dir());
  for (const auto& f : gsdk::test::shared_objects(gsdk::test::test_plugin_dir("valid"))) files.push_back(f);
  return files;
}

// One plugin under one set of parameters (TOML, as a config's [params] would give them; empty: defaults).
struct PluginCase {
  fs::path file;
  std::string label;
  std::string params;
};

const std::map<std::string, std::vector<PluginCase>> kExtraCases = {
    {"snake.so",
     {{{}, "d5_free", "dimension = 5\nsymmetry_breaking = false"},
      {{}, "d10_kinny", "dimension = 10\npolicy = 'kinny'"}}},
    {"othello.so",
     {{{}, "exact12", "exact_empties = 12"},
      {{}, "corners", "playout_policy = 'corners'"},
      {{}, "mobility", "playout_policy = 'mobility'"},
      {{}, "patterns", "evaluation = 'patterns'"}}},
};

struct CheckCase {
  PluginCase plugin;
  const CheckSpec* check;
};

void PrintTo(const CheckCase& c, std::ostream* out) {
  *out << c.plugin.file.filename().string() << " " << c.plugin.params << " " << c.check->name;
}

std::vector<CheckCase> check_cases() {
  std::vector<PluginCase> plugins;
  for (const fs::path& file : plugin_files()) {
    plugins.push_back({file, "", ""});
    const auto extra = kExtraCases.find(file.filename().string());
    if (extra == kExtraCases.end()) continue;
    for (PluginCase c : extra->second) {
      c.file = file;
      plugins.push_back(c);
    }
  }
  std::vector<CheckCase> cases;
  for (const PluginCase& p : plugins)
    for (const CheckSpec& check : all_checks()) cases.push_back({p, &check});
  return cases;
}

std::string test_name(const ::testing::TestParamInfo<CheckCase>& info) {
  const PluginCase& p = info.param.plugin;
  std::string name = p.file.stem().string() + (p.label.empty() ? "" : "_" + p.label) + "_" + info.param.check->name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class Conformance : public ::testing::TestWithParam<CheckCase> {};

TEST_P(Conformance, CheckPasses) {
  const PluginCase& p = GetParam().plugin;
  gsdk::host::PluginCatalog catalog;
  const gsdk::host::LoadedPlugin* plugin = catalog.load_file(p.file);
  ASSERT_NE(plugin, nullptr) << p.file << " refused: " << catalog.problems().front().message;
  const auto params = gsdk::host::resolve_params(*plugin->tables.game, toml::parse(p.params));
  CheckSubject subject;
  subject.plugin = plugin;
  subject.parameters = params.values;
  std::string why;
  subject.gpus = gsdk::test::gpus(&why);
  subject.no_gpu_reason = why;
  const CheckResult result = run_check(*GetParam().check, subject);
  if (result.status == CheckStatus::skipped) GTEST_SKIP() << result.reason;
  EXPECT_EQ(result.status, CheckStatus::passed) << GetParam().check->name << ": " << result.reason;
}

INSTANTIATE_TEST_SUITE_P(EveryPlugin, Conformance, ::testing::ValuesIn(check_cases()), test_name);

TEST(ConformanceSetup, FindsTheBuiltPlugins) {
  const auto files = plugin_files();
  EXPECT_TRUE(std::any_of(files.begin(), files.end(), [](const fs::path& f) { return f.filename() == "graveler.so"; }))
      << "bin/plugins/graveler.so is missing: the conformance suite would test nothing";
}

TEST(ConformanceSetup, ChecksHaveStableDistinctNamesAndDescriptions) {
  std::set<std::string> names;
  for (const CheckSpec& check : all_checks()) {
    EXPECT_TRUE(std::regex_match(check.name,
                                 std::regex("(abi|rules|playouts|determinism|perft|qlearning|nested|cuda|environment)"
                                            "\\.[a-z0-9_]+")))
        << check.name;
    EXPECT_TRUE(names.insert(check.name).second) << "two checks named " << check.name;
    EXPECT_GT(std::string(check.description).size(), 20u) << check.name;
    EXPECT_NE(check.run, nullptr) << check.name;
  }
  EXPECT_GE(names.size(), 30u);
}

TEST(ConformanceSetup, OnlyPatternsSelectByName) {
  const auto rules = select_checks("rules.*");
  ASSERT_FALSE(rules.empty());
  for (const CheckSpec* c : rules) EXPECT_TRUE(std::string(c->name).starts_with("rules.")) << c->name;
  const auto two = select_checks("abi.negotiation,perft.cpu_table");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_STREQ(two[0]->name, "abi.negotiation");
  EXPECT_STREQ(two[1]->name, "perft.cpu_table");
  EXPECT_TRUE(select_checks("no.such_check").empty());
  EXPECT_EQ(select_checks("").size(), all_checks().size());
}

} // namespace
