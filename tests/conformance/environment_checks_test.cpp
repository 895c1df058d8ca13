// environment_checks_test.cpp - the conformance checks of ABI 1.11's tables (observation_checks.cpp,
// batched_step_checks.cpp) catch what they are for: test_tictactoe's env_fault breaks its batched step's rewards, its
// observations or its final states on purpose, and the check that meets the bug fails, naming it, while the correct game passes.
#include <gtest/gtest.h>

#include "named_check.hpp"

namespace {

using namespace gsdk::host::conformance;
using gsdk::test::contains;

CheckResult run_on_tictactoe(const char* check_name, int64_t env_fault) {
  return gsdk::test::run_named_check("test_tictactoe.so", toml::table{{"env_fault", env_fault}}, check_name);
}

TEST(EnvironmentChecks, BatchedStepWithWrongRewardsFails) {
  EXPECT_EQ(run_on_tictactoe("environment.batched_cpu_step", 0).status, CheckStatus::passed);
  const CheckResult broken = run_on_tictactoe("environment.batched_cpu_step", 1);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "the rewards differ from the generic per-state stepping's")) << broken.reason;
}

TEST(EnvironmentChecks, AStepThatLosesFinalStatesFails) {
  EXPECT_EQ(run_on_tictactoe("environment.batched_cpu_final_states", 0).status, CheckStatus::passed);
  const CheckResult broken = run_on_tictactoe("environment.batched_cpu_final_states", 3);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "the final observations differ from the generic per-state stepping's"))
      << broken.reason;
}

TEST(EnvironmentChecks, FillThatLeavesBytesUnwrittenFails) {
  EXPECT_EQ(run_on_tictactoe("environment.observation_fill", 0).status, CheckStatus::passed);
  const CheckResult broken = run_on_tictactoe("environment.observation_fill", 2);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "unwritten")) << broken.reason;
}

} // namespace
