// checkpoint_file_test.cpp - a checkpoint that exists but cannot be opened is refused with the system's reason, not
// read as an empty file ("not a gsdk checkpoint (invalid JSON)") nor taken for a fresh start.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "checkpoint/checkpoint_file.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::host::CheckpointFile;
using gsdk::host::CheckpointMismatch;

TEST(CheckpointFile, UnreadableCheckpointSaysWhy) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads a file whatever its mode";
  const gsdk::test::TempDir dir;
  const fs::path file = dir / "run.ckpt.json";
  gsdk::test::write_file(file, "{}");
  fs::permissions(file, fs::perms::none);
  try {
    CheckpointFile checkpoint(file.string(), nlohmann::json::object());
    FAIL() << "an unreadable checkpoint was accepted";
  } catch (const CheckpointMismatch& e) {
    EXPECT_EQ(std::string(e.what()), file.string() + ": cannot open the checkpoint: Permission denied");
  }
}

} // namespace
