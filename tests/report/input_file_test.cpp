// input_file_test.cpp - an input that cannot be opened says why in the system's words, and a folder, which opens
// on Linux and fails only at the first read, is refused by name.
#include <filesystem>

#include <gtest/gtest.h>

#include "report/input_file.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::host::open_input_file;

TEST(InputFile, MissingFileGivesTheSystemsReason) {
  const gsdk::test::TempDir dir;
  EXPECT_EQ(open_input_file((dir / "nowhere.json").string()).failure, "No such file or directory");
  EXPECT_EQ(open_input_file((dir / "no-folder" / "x.json").string()).failure, "No such file or directory");
}

TEST(InputFile, FolderIsRefused) {
  const gsdk::test::TempDir dir;
  EXPECT_EQ(open_input_file(dir.path().string()).failure, "is a directory, not a file");
}

TEST(InputFile, ReadableFileOpens) {
  const gsdk::test::TempDir dir;
  gsdk::test::write_file(dir / "a.txt", "text");
  gsdk::host::InputFile file = open_input_file((dir / "a.txt").string());
  EXPECT_EQ(file.failure, "");
  std::string word;
  file.stream >> word;
  EXPECT_EQ(word, "text");
}

} // namespace
