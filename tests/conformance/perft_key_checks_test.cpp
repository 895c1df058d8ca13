// perft_key_checks_test.cpp - the conformance checks of gsdk.perft_keys.v1 (perft_key_checks.cpp) catch what they
// are for: test_tree's keys_fault breaks its canonical states on purpose (other perft counts, not idempotent, a
// refusal, a device that writes other bytes), and the check that meets the bug fails, naming it, while the correct
// table passes. The device case runs where a GPU exists and is skipped elsewhere.
#include <gtest/gtest.h>

#include "named_check.hpp"

namespace {

using namespace gsdk::host::conformance;
using gsdk::test::contains;

CheckResult run_on_tree(const char* check_name, int64_t keys_fault) {
  return gsdk::test::run_named_check("test_tree.so", toml::table{{"keys_fault", keys_fault}}, check_name);
}

TEST(PerftKeyChecks, CanonicalStatesOfOtherCountsFail) {
  EXPECT_EQ(run_on_tree("perft.canonical_states", 0).status, CheckStatus::passed);
  const CheckResult broken = run_on_tree("perft.canonical_states", 1);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "but its canonical state")) << broken.reason;
  EXPECT_FALSE(contains(broken.reason, "not idempotent")) << broken.reason;
}

TEST(PerftKeyChecks, CanonicalStatesThatAreNotIdempotentFail) {
  const CheckResult broken = run_on_tree("perft.canonical_states", 2);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "canonical() is not idempotent")) << broken.reason;
  EXPECT_FALSE(contains(broken.reason, "but its canonical state")) << broken.reason;
}

TEST(PerftKeyChecks, ARefusalFailsWithThePluginsMessage) {
  const CheckResult broken = run_on_tree("perft.canonical_states", 3);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "failing as asked (keys_fault 3)")) << broken.reason;
}

TEST(PerftKeyChecks, ADeviceWritingOtherBytesFails) {
  const CheckResult good = run_on_tree("perft.cuda_canonical_states", 0);
  if (good.status == CheckStatus::skipped) GTEST_SKIP() << good.reason;
  EXPECT_EQ(good.status, CheckStatus::passed) << good.reason;
  EXPECT_EQ(run_on_tree("perft.canonical_states", 4).status, CheckStatus::passed) << "the host's canonical is right";
  const CheckResult broken = run_on_tree("perft.cuda_canonical_states", 4);
  EXPECT_EQ(broken.status, CheckStatus::failed);
  EXPECT_TRUE(contains(broken.reason, "cuda_canonical() of")) << broken.reason;
}

} // namespace
