// environment_checks_test.cpp - the conformance checks of ABI 1.11's tables (observation_checks.cpp,
// batched_step_checks.cpp) catch what they are for: test_tictactoe's env_fault breaks its batched step's rewards or
// its observations on purpose, and the check that meets the bug fails, naming it, while the correct game passes.
#include <string>

#include <gtest/gtest.h>

#include "conformance/check_registry.hpp"
#include "conformance/run_check.hpp"
#include "plugins/game_params.hpp"
#include "plugins/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using namespace gsdk::host::conformance;
using gsdk::test::contains;

CheckResult run_on_tictactoe(const char* check_name, int64_t env_fault) {
  gsdk::host::PluginCatalog catalog;
  const gsdk::host::LoadedPlugin* plugin =
      catalog.load_file(gsdk::test::test_plugin_dir("valid") / "test_tictactoe.so");
  if (!plugin) throw std::runtime_error("test_tictactoe.so did not load");
  const auto params = gsdk::host::resolve_params(*plugin->tables.game, toml::table{{"env_fault", env_fault}});
  CheckSubject subject;
  subject.plugin = plugin;
  subject.parameters = params.values;
  subject.devices = DeviceFilter::cpu;
  const auto selected = select_checks(check_name);
  if (selected.size() != 1) throw std::runtime_error(std::string("no single check named ") + check_name);
  return run_check(*selected.front(), subject);
}

TEST(EnvironmentChecks, BatchedStepWithWrongRewardsFails) {
  EXPECT_EQ(run_on_tictactoe("environment.batched_cpu_step", 0).status, CheckStatus::passed);
  const CheckResult broken = run_on_tictactoe("environment.batched_cpu_step", 1);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "the rewards differ from the generic per-state stepping's")) << broken.reason;
}

TEST(EnvironmentChecks, FillThatLeavesBytesUnwrittenFails) {
  EXPECT_EQ(run_on_tictactoe("environment.observation_fill", 0).status, CheckStatus::passed);
  const CheckResult broken = run_on_tictactoe("environment.observation_fill", 2);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "unwritten")) << broken.reason;
}

} // namespace
