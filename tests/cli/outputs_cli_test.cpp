// outputs_cli_test.cpp - no output of the gsdk executable is lost: output paths that cannot be written are
// refused (exit 2) before the run spends its time, an output equal to an input is refused, `name` must be a
// file name, a results document that cannot be written goes to stdout (exit 1), a report that cannot reach
// stdout fails the command, events reach their file while the run goes on, and "-" is the standard output
// wherever a document is written (the report then goes to stderr).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

// Long enough (minutes on one thread) that a check which waited for the run would be seen waiting.
const char* const kLongConfig = R"(game = "graveler"
algorithm = "playouts"

[playouts]
count = 1000000000000

[run]
device = "cpu"
threads = 1
)";

const char* const kShortConfig = R"(game = "graveler"
algorithm = "playouts"

[playouts]
count = 10000

[run]
device = "cpu"
threads = 1
)";

// Starts gsdk in `cwd` with stdout to `stdout_path` and stderr to cwd/.stderr; returns its process id.
pid_t start_gsdk(const std::vector<std::string>& args, const fs::path& cwd, const std::string& stdout_path) {
  const std::string exe = gsdk::test::gsdk_executable().string();
  std::vector<char*> argv{const_cast<char*>(exe.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string err_path = (cwd / ".stderr").string();
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(126);
    const int o = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
    unsetenv("GSDK_PLUGIN_PATH");
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

// The exit status of `pid` (-1 when it did not exit normally).
int wait_for(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

class OutputsCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "long.toml", kLongConfig);
    gsdk::test::write_file(dir / "short.toml", kShortConfig);
  }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }

  // Runs the long config with `out` as results file: it must be refused at once, before the run.
  Outcome refused_before_running(const std::string& out) {
    const auto start = std::chrono::steady_clock::now();
    const Outcome r = run({"run", "long.toml", "-q", "--out", out});
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << "the run was not refused first";
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, out)) << r.err;
    return r;
  }

  gsdk::test::TempDir dir;
};

TEST_F(OutputsCli, RunRefusesAResultsFolderThatIsAFileBeforeRunning) {
  gsdk::test::write_file(dir / "plain", "a file");
  const Outcome r = refused_before_running("plain/x/y.json");
  EXPECT_TRUE(contains(r.err, "plain/x/y.json: cannot create directory plain/x: Not a directory")) << r.err;
  EXPECT_EQ(gsdk::test::read_file(dir / "plain"), "a file");
}

TEST_F(OutputsCli, RunRefusesAFolderWhereNoFileCanBeCreated) {
  if (!fs::is_directory("/proc/self")) GTEST_SKIP() << "no /proc here";
  const Outcome r = refused_before_running("/proc/x.json");
  EXPECT_TRUE(contains(r.err, "cannot write in directory /proc")) << r.err;
}

TEST_F(OutputsCli, RunRefusesANameOverTheSystemsLimit) {
  const Outcome r = refused_before_running(std::string(300, 'n') + ".json");
  EXPECT_TRUE(contains(r.err, "at most 255")) << r.err;
}

TEST_F(OutputsCli, RunRefusesAnEventsFileInAFolderThatIsAFile) {
  gsdk::test::write_file(dir / "plain", "a file");
  const auto start = std::chrono::steady_clock::now();
  const Outcome r = run({"run", "long.toml", "-q", "--out", "r.json", "--set", "output.events=\"plain/e.jsonl\""});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "plain/e.jsonl: cannot create directory plain")) << r.err;
}

// Two outputs of one command that are one file would overwrite each other (after Ctrl-C, a checkpoint replaced by
// the results could not be resumed): refused before the run, exit 2, naming both, whether or not the file exists.
TEST_F(OutputsCli, EveryCommandRefusesTwoOutputsThatAreOneFile) {
  const auto with_test_plugins = [](std::vector<std::string> args) {
    args.insert(args.end(), {"--plugin-dir", gsdk::test::test_plugin_dir("valid").string()});
    return args;
  };
  const auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, says)) << r.err;
    EXPECT_FALSE(fs::exists(dir / "x.json")) << "nothing ran";
  };
  refused({"run", "long.toml", "-q", "--out", "x.json", "--checkpoint", "x.json"},
          "x.json: is both the results file (--out or [output] file) and the checkpoint (--checkpoint)");
  refused({"run", "long.toml", "-q", "--out", "x.json", "--checkpoint", "./sub/../x.json"},
          "./sub/../x.json: is both the results file (--out or [output] file) and the checkpoint (--checkpoint)");
  refused({"run", "long.toml", "-q", "--out", "x.json", "--plot", "x.json"},
          "x.json: is both the results file (--out or [output] file) and the picture (--plot or [output] plot)");
  refused({"run", "long.toml", "-q", "--set", "output.file=\"x.json\"", "--set", "output.events=\"x.json\""},
          "x.json: is both the results file (--out or [output] file) and the events file ([output] events)");
  refused(with_test_plugins({"perft", "test_nim", "start", "3", "--json", "x.json", "--checkpoint", "x.json"}),
          "x.json: is both the JSON document (--json) and the checkpoint (--checkpoint)");
  refused(with_test_plugins({"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "2", "--json",
                             "x.json", "--record", "x.json"}),
          "x.json: is both the record (--record) and the JSON document (--json)");
}

TEST_F(OutputsCli, EveryCommandRefusesAnUnwritableOutputBeforeItsWork) {
  gsdk::test::write_file(dir / "plain", "a file");
  const std::string valid = gsdk::test::test_plugin_dir("valid").string();
  const std::vector<std::vector<std::string>> commands = {
      {"perft", "test_nim", "start", "4", "-q", "--json", "plain/p.json", "--plugin-dir", valid},
      {"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "1000000", "-q", "--record",
       "plain/m.pgn", "--plugin-dir", valid},
      {"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "1000000", "-q", "--json",
       "plain/m.json", "--plugin-dir", valid},
      {"bench", "--game", "graveler", "--device", "cpu", "--out", "plain/b.json"}};
  for (const std::vector<std::string>& command : commands) {
    const auto start = std::chrono::steady_clock::now();
    const Outcome r = run(command);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << command.front();
    EXPECT_EQ(r.status, 2) << command.front() << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "cannot create directory plain: Not a directory")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST_F(OutputsCli, ReplayRefusesItsResultsFileAsTheDocument) {
  const Outcome ran = run({"run", "short.toml", "-q", "--out", "r.json"});
  ASSERT_EQ(ran.status, 0) << describe(ran);
  const std::string results = gsdk::test::read_file(dir / "r.json");
  const Outcome r = run({"replay", "r.json", "--document", "./r.json"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "./r.json: is the input r.json")) << r.err;
  EXPECT_EQ(gsdk::test::read_file(dir / "r.json"), results);
}

TEST_F(OutputsCli, RunRefusesTheConfigAsItsResultsFile) {
  const std::string config = gsdk::test::read_file(dir / "long.toml");
  fs::create_symlink("long.toml", dir / "link.toml");
  for (const std::string& out :
       std::vector<std::string>{"long.toml", "./long.toml", "link.toml", (dir / "long.toml").string()}) {
    const Outcome r = run({"run", "long.toml", "-q", "--out", out});
    EXPECT_EQ(r.status, 2) << out << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "is the input long.toml")) << r.err;
    EXPECT_EQ(gsdk::test::read_file(dir / "long.toml"), config) << "the config was overwritten by --out " << out;
  }
}

TEST_F(OutputsCli, NameMustBeAFileName) {
  for (const std::string& name : std::vector<std::string>{"../../x", "", "a/b", ".."}) {
    gsdk::test::write_file(dir / "named.toml", "name = \"" + name + "\"\n" + kShortConfig);
    const Outcome r = run({"run", "named.toml", "-q"});
    EXPECT_EQ(r.status, 2) << name << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "named.toml:1:8: 'name' in the experiment's top level is \"" + name + "\"")) << r.err;
    EXPECT_TRUE(contains(r.err, "expected a file name")) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir / "results")) << "nothing is written for a refused name";
  EXPECT_FALSE(fs::exists(dir.path().parent_path().parent_path() / "x.json"));
}

TEST_F(OutputsCli, AResultsFileThatCannotBeWrittenGoesToStdout) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  // /dev/full passes the check (a writable device) and fails the write: a disk that filled during the run.
  const Outcome perft = run({"perft", "test_nim", "start", "4", "-q", "--json", "/dev/full", "--plugin-dir",
                             gsdk::test::test_plugin_dir("valid").string()});
  EXPECT_EQ(perft.status, 1) << describe(perft);
  EXPECT_TRUE(contains(perft.err, "/dev/full: cannot write: No space left on device")) << perft.err;
  const nlohmann::json doc = nlohmann::json::parse(perft.out);
  EXPECT_EQ(doc["algorithm"], "perft");
  EXPECT_EQ(doc["depth"], 4);

  const Outcome r = run({"run", "short.toml", "-q", "--out", "/dev/full"});
  EXPECT_EQ(r.status, 1) << describe(r);
  const nlohmann::json results = nlohmann::json::parse(r.out);
  EXPECT_EQ(results["status"], "complete");
  EXPECT_EQ(results["result"]["playouts"], 10000);
}

TEST_F(OutputsCli, AnEventsFileThatCannotBeWrittenFailsTheRun) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const Outcome r = run({"run", "short.toml", "-q", "--out", "r.json", "--set", "output.events=\"/dev/full\""});
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "/dev/full: cannot write the events file: No space left on device")) << r.err;
  const nlohmann::json results = nlohmann::json::parse(gsdk::test::read_file(dir / "r.json"));
  EXPECT_TRUE(contains(results["failure"].get<std::string>(), "events file")) << results.dump(2);
}

TEST_F(OutputsCli, AReportThatCannotReachStdoutFailsTheCommand) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const pid_t pid = start_gsdk({"run", "short.toml", "-q", "--out", "r.json"}, dir.path(), "/dev/full");
  EXPECT_EQ(wait_for(pid), 1);
  const std::string err = gsdk::test::read_file(dir / ".stderr");
  EXPECT_TRUE(contains(err, "cannot write the report to standard output")) << err;
  EXPECT_TRUE(fs::exists(dir / "r.json")) << "the results file is written all the same";
}

// "-" as an output is the standard output, for every command's documents, and the report moves to stderr so the
// document can be piped on whole; a file named "-" is never made.
TEST_F(OutputsCli, ADashIsTheStandardOutputForEveryDocument) {
  const std::string valid = gsdk::test::test_plugin_dir("valid").string();
  const auto document_on_stdout = [&](const std::vector<std::string>& args, const std::string& report_says) {
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 0) << describe(r);
    EXPECT_TRUE(contains(r.err, report_says)) << "the report goes to stderr\n" << describe(r);
    EXPECT_FALSE(fs::exists(dir / "-")) << args.front();
    return nlohmann::json::parse(r.out); // the document alone: anything else on stdout fails to parse
  };
  EXPECT_EQ(document_on_stdout({"run", "short.toml", "--out", "-"}, "results the standard output")["status"],
            "complete");
  EXPECT_EQ(document_on_stdout({"perft", "test_nim", "start", "3", "--json", "-", "--plugin-dir", valid},
                               "Nodes searched")["depth"],
            3);
  EXPECT_EQ(document_on_stdout({"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "2",
                                "--json", "-", "--plugin-dir", valid},
                               "match of test_nim")["status"],
            "complete");

  const Outcome events = run({"run", "short.toml", "-q", "--out", "r.json", "--set", "output.events=\"-\""});
  EXPECT_EQ(events.status, 0) << describe(events);
  EXPECT_TRUE(contains(events.out, "\"event\"")) << describe(events);
  EXPECT_FALSE(fs::exists(dir / "-"));
}

TEST_F(OutputsCli, ACheckpointOrTwoDocumentsCannotBeTheStandardOutput) {
  const auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, says)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(fs::exists(dir / "-"));
  };
  refused({"run", "long.toml", "-q", "--checkpoint", "-"},
          "-: the checkpoint (--checkpoint) cannot be the standard output: the next run reads it back to resume");
  refused({"perft", "test_nim", "start", "3", "--checkpoint", "-", "--plugin-dir",
           gsdk::test::test_plugin_dir("valid").string()},
          "the checkpoint (--checkpoint) cannot be the standard output");
  refused({"run", "long.toml", "-q", "--out", "-", "--set", "output.events=\"-\""},
          "-: is both the results file (--out or [output] file) and the events file ([output] events)");
}

TEST_F(OutputsCli, EventsReachTheirFileWhileTheRunGoesOn) {
  const pid_t pid = start_gsdk({"run", "long.toml", "-q", "--out", "r.json", "--set", "output.events=\"e.jsonl\""},
                               dir.path(), (dir / ".stdout").string());
  // Polled rather than read once after a fixed wait: a sanitized build on a loaded machine can take seconds to
  // start. The run lasts far longer than the wait, so an event seen here was written while it went on.
  std::string events;
  for (int tries = 0; tries < 300 && events.find('\n') == std::string::npos; ++tries) { // a whole first line
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    events = gsdk::test::read_file(dir / "e.jsonl");
  }
  const bool still_running = waitpid(pid, nullptr, WNOHANG) == 0;
  kill(pid, SIGKILL);
  wait_for(pid);
  ASSERT_NE(events.find('\n'), std::string::npos) << "no event written after 30 s of the run";
  EXPECT_TRUE(still_running) << "the events must reach their file before the run ends";
  const nlohmann::json first = nlohmann::json::parse(events.substr(0, events.find('\n')));
  EXPECT_EQ(first["event"], "progress");
}

} // namespace
