// output_file_test.cpp - the one writer of gsdk's files (host/src/report/output_file.hpp): whole files replaced
// atomically (a failed write keeps the previous content and leaves no temporary file), output paths checked
// before work, inputs refused as outputs, and progressive streams flushed each second with their errors kept.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "report/output_file.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::host::check_output_path;
using gsdk::host::OutputError;
using gsdk::host::OutputStream;
using gsdk::host::refuse_input_as_output;
using gsdk::host::write_file;
using gsdk::test::read_file;
using gsdk::test::TempDir;

// The names in a folder, to see that no temporary file is left.
std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The message of the OutputError `write` throws, or "" when it throws none.
template <class Write> std::string error_of(const Write& write) {
  try {
    write();
  } catch (const OutputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Files may grow to `bytes` while it lives (writes beyond fail with EFBIG); SIGXFSZ, which would end the
// process, is ignored meanwhile. A failing write that root's permissions cannot prevent.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &previous_);
    handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = previous_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, handler_);
  }

private:
  rlimit previous_{};
  void (*handler_)(int) = nullptr;
};

TEST(WriteFile, WritesTheWholeFileCreatingItsFolderAndLeavesNoTemporary) {
  TempDir dir;
  write_file((dir / "a/b/results.json").string(), "{\"x\": 1}\n");
  EXPECT_EQ(read_file(dir / "a/b/results.json"), "{\"x\": 1}\n");
  EXPECT_EQ(names_in(dir / "a/b"), std::vector<std::string>{"results.json"});
}

// A process killed while writing (SIGKILL) leaves its temporary; the next write of that file removes those of dead
// processes and keeps a live process's.
TEST(WriteFile, RemovesTheTemporariesADeadProcessLeft) {
  gsdk::test::TempDir dir;
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0); // now no process has its id (until the system hands it out again)
  const fs::path dead = dir / fmt::format(".out.json.{}.0.tmp", child);
  const fs::path live = dir / fmt::format(".out.json.{}.0.tmp", getppid());
  const fs::path other = dir / fmt::format(".other.json.{}.0.tmp", child);
  for (const fs::path& p : {dead, live, other}) gsdk::test::write_file(p, "half a document");
  gsdk::host::write_file((dir / "out.json").string(), "{}");
  EXPECT_FALSE(fs::exists(dead)) << "a dead writer's temporary goes";
  EXPECT_TRUE(fs::exists(live)) << "a live process may still rename its temporary";
  EXPECT_TRUE(fs::exists(other)) << "another file's temporaries are not this write's business";
}

// Two outputs are one file when their paths resolve to one, before either exists.
TEST(SharedOutputs, PathsToOneFileAreRefusedNamingBoth) {
  gsdk::test::TempDir dir;
  fs::create_directories(dir / "sub");
  const std::string a = (dir / "x.json").string(), b = (dir / "sub" / ".." / "x.json").string();
  try {
    gsdk::host::refuse_shared_outputs({{"the results file", a}, {"the checkpoint", b}});
    FAIL() << "x.json and sub/../x.json are one file";
  } catch (const gsdk::host::OutputError& e) {
    EXPECT_EQ(std::string(e.what()), b + ": is both the results file and the checkpoint; each output needs a file of "
                                         "its own, or one would overwrite the other");
  }
  EXPECT_NO_THROW(gsdk::host::refuse_shared_outputs(
      {{"the results file", a}, {"the checkpoint", (dir / "y.json").string()}, {"no picture", ""}, {"none", ""}}));
}

TEST(WriteFile, ReplacesAFileKeepingItsPermissions) {
  TempDir dir;
  const fs::path file = dir / "r.json";
  gsdk::test::write_file(file, "old");
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_file(file.string(), "new");
  EXPECT_EQ(read_file(file), "new");
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::mask,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"r.json"});
}

TEST(WriteFile, WritesThroughASymbolicLinkToItsTarget) {
  TempDir dir;
  gsdk::test::write_file(dir / "target.json", "old");
  fs::create_symlink("target.json", dir / "link.json");
  write_file((dir / "link.json").string(), "new");
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(read_file(dir / "target.json"), "new");
}

TEST(WriteFile, AFolderThatIsAFileIsAnErrorNamingThePath) {
  TempDir dir;
  gsdk::test::write_file(dir / "plain", "a file");
  const std::string path = (dir / "plain/results.json").string();
  const std::string message = error_of([&] { write_file(path, "{}"); });
  EXPECT_TRUE(contains(message, path)) << message;
  EXPECT_TRUE(contains(message, "Not a directory")) << message;
  EXPECT_EQ(read_file(dir / "plain"), "a file");
}

TEST(WriteFile, AFailedWriteKeepsThePreviousContentAndLeavesNoTemporary) {
  TempDir dir;
  const fs::path file = dir / "results.json";
  gsdk::test::write_file(file, "previous");
  std::string message;
  {
    const FileSizeLimit limit(4096);
    message = error_of([&] { write_file(file.string(), std::string(1 << 20, 'x')); });
  }
  EXPECT_TRUE(contains(message, file.string())) << message;
  EXPECT_TRUE(contains(message, "File too large")) << message;
  EXPECT_EQ(read_file(file), "previous");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"results.json"});
}

TEST(WriteFile, AFullDeviceIsAnErrorAndStaysADevice) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const std::string message = error_of([] { write_file("/dev/full", "{}"); });
  EXPECT_TRUE(contains(message, "/dev/full")) << message;
  EXPECT_TRUE(contains(message, "No space left on device")) << message;
  EXPECT_TRUE(fs::is_character_file("/dev/full")) << "a device must be written in place, never replaced";
}

TEST(WriteFile, AFolderIsNotReplaced) {
  TempDir dir;
  fs::create_directory(dir / "results.json");
  const std::string message = error_of([&] { write_file((dir / "results.json").string(), "{}"); });
  EXPECT_TRUE(contains(message, "is a directory")) << message;
  EXPECT_TRUE(fs::is_directory(dir / "results.json"));
}

TEST(CheckOutputPath, ProbesAMissingFolderAndLeavesNothingBehind) {
  TempDir dir;
  fs::create_directory(dir / "results");
  EXPECT_NO_THROW(check_output_path((dir / "results/sub/deeper/x.json").string()));
  EXPECT_TRUE(names_in(dir / "results").empty());
  EXPECT_NO_THROW(check_output_path((dir / "results/x.json").string()));
  EXPECT_TRUE(names_in(dir / "results").empty());
}

TEST(CheckOutputPath, RefusesAFolderThatCannotBeCreated) {
  if (!fs::is_directory("/proc/self")) GTEST_SKIP() << "no /proc here";
  const std::string message = error_of([] { check_output_path("/proc/gsdk-folder/x.json"); });
  EXPECT_TRUE(contains(message, "/proc/gsdk-folder/x.json: cannot create directory /proc/gsdk-folder")) << message;
}

TEST(CheckOutputPath, RefusesAFolderThatIsAFile) {
  TempDir dir;
  gsdk::test::write_file(dir / "plain", "a file");
  const std::string path = (dir / "plain/sub/x.json").string();
  const std::string message = error_of([&] { check_output_path(path); });
  EXPECT_TRUE(contains(message, path + ": cannot create directory " + (dir / "plain/sub").string())) << message;
}

TEST(CheckOutputPath, RefusesANameOverTheSystemsLimit) {
  TempDir dir;
  const std::string path = (dir / (std::string(300, 'n') + ".json")).string();
  const std::string message = error_of([&] { check_output_path(path); });
  EXPECT_TRUE(contains(message, "305 bytes")) << message;
  EXPECT_TRUE(contains(message, "at most 255")) << message;
}

TEST(CheckOutputPath, RefusesAFolder) {
  TempDir dir;
  const std::string message = error_of([&] { check_output_path(dir.path().string()); });
  EXPECT_TRUE(contains(message, "is a directory")) << message;
}

TEST(CheckOutputPath, RefusesAFolderWhereNoFileCanBeCreated) {
  if (!fs::is_directory("/proc/self")) GTEST_SKIP() << "no /proc here";
  const std::string message = error_of([] { check_output_path("/proc/gsdk-results.json"); });
  EXPECT_TRUE(contains(message, "/proc/gsdk-results.json: cannot write in directory /proc")) << message;
}

TEST(CheckOutputPath, AcceptsAWritableDevice) {
  if (!fs::exists("/dev/null")) GTEST_SKIP() << "no /dev/null here";
  EXPECT_NO_THROW(check_output_path("/dev/null"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(RefuseInputAsOutput, SeesTheSameFileThroughLinksAndRelativePaths) {
  TempDir dir;
  gsdk::test::write_file(dir / "exp.toml", "game = 'x'");
  fs::create_directory(dir / "sub");
  fs::create_symlink(dir / "exp.toml", dir / "link.toml");
  const std::string input = (dir / "exp.toml").string();
  EXPECT_TRUE(contains(error_of([&] { refuse_input_as_output((dir / "link.toml").string(), input); }), input));
  EXPECT_FALSE(error_of([&] { refuse_input_as_output((dir / "sub/../exp.toml").string(), input); }).empty());
  EXPECT_TRUE(error_of([&] { refuse_input_as_output((dir / "other.json").string(), input); }).empty());
  gsdk::test::write_file(dir / "other.json", "{}");
  EXPECT_TRUE(error_of([&] { refuse_input_as_output((dir / "other.json").string(), input); }).empty());
}

TEST(OutputStream, LinesReachTheFileWithinASecondWithoutClosing) {
  TempDir dir;
  OutputStream events((dir / "events.jsonl").string(), "events file");
  events.write_line("{\"event\": 1}");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(read_file(dir / "events.jsonl"), "{\"event\": 1}\n");
  events.write_line("{\"event\": 2}");
  events.close();
  EXPECT_EQ(read_file(dir / "events.jsonl"), "{\"event\": 1}\n{\"event\": 2}\n");
}

TEST(OutputStream, AFailedWriteIsReportedByClose) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  OutputStream events("/dev/full", "events file");
  events.write_line("{\"event\": 1}");
  const std::string message = error_of([&] { events.close(); });
  EXPECT_TRUE(contains(message, "/dev/full: cannot write the events file: No space left on device")) << message;
}

TEST(OutputStream, AnEmptyPathWritesNothing) {
  OutputStream none("", "events file");
  EXPECT_FALSE(none.is_open());
  none.write_line("ignored");
  EXPECT_NO_THROW(none.close());
}

} // namespace
