// shipped_configs_test.cpp - every experiment file under configs/ passes the strict schema, so a typo in
// a shipped config fails the tests rather than a user's first run.
#include <gtest/gtest.h>

#include <filesystem>

#include "algorithms/run_experiment.hpp"
#include "test_paths.hpp"

namespace {

TEST(ShippedConfigs, EveryConfigPassesTheSchema) {
  // The checkout this build was configured from (tests/CMakeLists.txt), wherever the build folder lives; a build
  // carried to another machine finds it beside itself (build/bin -> the checkout's configs/).
  std::filesystem::path dir = GSDK_SOURCE_CONFIGS_DIR;
  if (!std::filesystem::is_directory(dir)) dir = gsdk::test::bin_dir().parent_path().parent_path() / "configs";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".toml") continue;
    EXPECT_NO_THROW(gsdk::host::load_experiment(entry.path().string(), {})) << entry.path();
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

} // namespace
