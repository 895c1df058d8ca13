// check_cli_test.cpp - `gsdk check PLUGIN.so` end to end: a good plugin passes with exit 0 and one line per
// check; deliberately buggy plugins (bin/test_plugins/faulty/) fail exactly the checks that meet their bug,
// with the reason: batch playouts that ignore their start state, a plugin that crashes (reported as the
// signal, the rest of the report still coming) and one that hangs (killed at --timeout); refused files (not
// ELF, truncated, a FIFO, no entry point, a foreign ABI major, missing, a directory) and bad options exit 2 with
// their messages (a plugin whose static constructor crashes is loaded in a child first); --param is validated as
// configs are; --json holds the report as data.
#include <sys/stat.h>

// GCC 12 bug 105616 (a false -Wmaybe-uninitialized): with -fsanitize=address, moving <regex>'s automaton states is
// reported as reading an uninitialized std::function inside <bits/std_function.h>; the moved-from state is fully
// built. Silenced for this header's code only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop

#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu.hpp"
#include "gsdk/gsdk_plugin.h"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

fs::path valid(const std::string& name) {
  return gsdk::test::test_plugin_dir("valid") / name;
}
fs::path faulty(const std::string& name) {
  return gsdk::test::test_plugin_dir("faulty") / name;
}
fs::path broken(const std::string& name) {
  return gsdk::test::test_plugin_dir("broken") / name;
}

class CheckCli : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << "gsdk was not built"; }
  Outcome check(std::vector<std::string> args) {
    args.insert(args.begin(), "check");
    return gsdk::test::gsdk_run(args, dir.path());
  }
  // The verdict printed for `name` ("passed (0.12 s)", "FAILED: ...", "skipped: ..."), or "" when absent.
  static std::string verdict(const std::string& out, const std::string& name) {
    std::smatch m;
    const std::regex line("(^|\n)" + std::regex_replace(name, std::regex("\\."), "\\.") + " +([^\n]*)");
    return std::regex_search(out, m, line) ? m[2].str() : "";
  }
  // The names of the checks reported FAILED.
  static std::set<std::string> failed(const std::string& out) {
    std::set<std::string> names;
    const std::regex line("(^|\n)([a-z]+\\.[a-z0-9_]+) +FAILED");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), line); it != std::sregex_iterator(); ++it)
      names.insert((*it)[2].str());
    return names;
  }
  // Every check name `gsdk check --list` prints.
  std::vector<std::string> all_check_names() {
    const Outcome r = check({"--list"});
    EXPECT_EQ(r.status, 0) << describe(r);
    std::vector<std::string> names;
    const std::regex line("(^|\n)([a-z]+\\.[a-z0-9_]+)  +[^\n]+");
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), line); it != std::sregex_iterator(); ++it)
      names.push_back((*it)[2].str());
    return names;
  }

  gsdk::test::TempDir dir;
};

TEST_F(CheckCli, AGoodPluginPassesWithOneLinePerCheck) {
  const std::vector<std::string> names = all_check_names();
  ASSERT_GE(names.size(), 30u);
  const Outcome r = check({valid("test_nim.so").string()});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(gsdk::test::starts_with(r.out, "gsdk check: test_nim 0.1.0 (ABI ")) << r.out;
  EXPECT_TRUE(contains(r.out, "parameters: broken_at = 0, max_take = 3, misere = false, stones = 21\n")) << r.out;
  for (const std::string& name : names) {
    const std::regex once("(^|\n)" + std::regex_replace(name, std::regex("\\."), "\\.") + " ");
    const auto n = std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), once), std::sregex_iterator());
    EXPECT_EQ(n, 1) << name << " should have exactly one line:\n" << r.out;
  }
  EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, "abi.negotiation"), "passed (")) << r.out;
  EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, "rules.random_games_end"), "passed (")) << r.out;
  EXPECT_EQ(verdict(r.out, "playouts.batch_consistent"), "skipped: no gsdk.cpu_playouts.v1 table") << r.out;
  EXPECT_EQ(verdict(r.out, "qlearning.environment"), "skipped: no gsdk.environment.v1 table") << r.out;
  EXPECT_TRUE(failed(r.out).empty()) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nsummary: [0-9]+ passed, 0 failed, [0-9]+ skipped \\(" +
                                                  std::to_string(names.size()) + " checks\\) in [0-9.]+ s\n$")))
      << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(CheckCli, ARelativePathNamesTheFileInTheCurrentFolder) {
  fs::copy_file(valid("test_nim.so"), dir / "nim_here.so");
  const Outcome r = check({"nim_here.so", "--only", "abi.negotiation"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "from " + (dir / "nim_here.so").string() + "\n")) << r.out;
}

TEST_F(CheckCli, BatchPlayoutsIgnoringTheStartStateFail) {
  const Outcome r = check({faulty("faulty_nim_ignores_start.so").string(), "--device", "cpu"});
  ASSERT_EQ(r.status, 1) << describe(r);
  EXPECT_EQ(failed(r.out), (std::set<std::string>{"playouts.batch_vs_per_state", "playouts.replay"})) << r.out;
  EXPECT_TRUE(
      std::regex_search(verdict(r.out, "playouts.batch_vs_per_state"),
                        std::regex("^FAILED: from \"stones=[0-9]+ to_move=[01]\" the per-state rules reach only "
                                   "the scores \\{-?1\\}, but [0-9]+ of 500 batch playouts scored -?1")))
      << r.out;
  EXPECT_TRUE(
      std::regex_search(verdict(r.out, "playouts.replay"),
                        std::regex("^FAILED: playout [0-9]+ from \"stones=[0-9]+ to_move=[01]\": the batch table "
                                   "scored -?1, its replay through the per-state rules scores -?1")))
      << r.out;
  EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, "playouts.batch_consistent"), "passed (")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nsummary: ")) << r.out;
}

TEST_F(CheckCli, ACrashFailsItsChecksAndTheReportGoesOn) {
  const Outcome r = check({faulty("faulty_nim_crashes.so").string(), "--device", "cpu"});
  ASSERT_EQ(r.status, 1) << describe(r);
  EXPECT_EQ(failed(r.out),
            (std::set<std::string>{"rules.random_games_end", "rules.text_round_trip", "rules.listed_moves_legal",
                                   "playouts.generic_consistent", "playouts.batch_vs_per_state", "playouts.replay",
                                   "determinism.playouts", "determinism.perft"}))
      << r.out;
  for (const std::string& name : failed(r.out))
    EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, name), "FAILED: killed by signal 11 (Segmentation fault) ("))
        << name << ": " << verdict(r.out, name);
  EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, "abi.negotiation"), "passed (")) << r.out;
  EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, "playouts.batch_consistent"), "passed (")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nsummary: ")) << r.out;
}

TEST_F(CheckCli, AHangIsKilledAtTheTimeoutAndTheReportGoesOn) {
  const Outcome r = check({faulty("faulty_nim_hangs.so").string(), "--only",
                           "playouts.batch_consistent,determinism.perft", "--timeout", "2"});
  ASSERT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, "playouts.batch_consistent"), "FAILED: timed out after 2 s ("))
      << r.out;
  EXPECT_TRUE(gsdk::test::starts_with(verdict(r.out, "determinism.perft"), "passed (")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nsummary: 1 passed, 1 failed, 0 skipped (2 checks) in ")) << r.out;
}

TEST_F(CheckCli, AParameterThatBreaksTheRulesIsBlamedPrecisely) {
  // test_nim's broken_at: no legal moves when 5 stones are left, a state that is not terminal.
  const Outcome r =
      check({valid("test_nim.so").string(), "--param", "broken_at=5", "--only", "rules.random_games_end"});
  ASSERT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(std::regex_search(verdict(r.out, "rules.random_games_end"),
                                std::regex("^FAILED: 0 legal moves \\(max_moves 3\\) in the non-terminal state "
                                           "\"stones=5 to_move=[01]\"")))
      << r.out;
  EXPECT_TRUE(contains(r.out, "parameters: broken_at = 5, ")) << r.out;
}

TEST_F(CheckCli, JsonHoldsTheReport) {
  const fs::path out = dir / "report.json";
  const Outcome r = check(
      {valid("test_nim.so").string(), "--param", "stones=9", "--only", "abi.*,cuda.playouts", "--json", out.string()});
  ASSERT_EQ(r.status, 0) << describe(r);
  const nlohmann::json j = nlohmann::json::parse(gsdk::test::read_file(out));
  EXPECT_EQ(j["plugin"]["name"], "test_nim");
  EXPECT_EQ(j["plugin"]["version"], "0.1.0");
  EXPECT_EQ(j["plugin"]["path"], valid("test_nim.so").string());
  EXPECT_EQ(j["plugin"]["abi"], std::to_string(GSDK_ABI_MAJOR) + "." + std::to_string(GSDK_ABI_MINOR));
  EXPECT_EQ(j["parameters"], nlohmann::json::parse(R"({"stones": 9, "max_take": 3, "misere": false, "broken_at": 0})"));
  EXPECT_EQ(j["device"], "all");
  EXPECT_EQ(j["timeout_seconds"], 120.0);
  ASSERT_EQ(j["checks"].size(), 4u);
  EXPECT_EQ(j["checks"][0]["name"], "abi.negotiation");
  EXPECT_EQ(j["checks"][0]["status"], "passed");
  EXPECT_EQ(j["checks"][0]["reason"], "");
  EXPECT_GE(j["checks"][0]["seconds"].get<double>(), 0.0);
  EXPECT_FALSE(j["checks"][0]["description"].get<std::string>().empty());
  EXPECT_EQ(j["checks"][3]["name"], "cuda.playouts");
  EXPECT_EQ(j["checks"][3]["status"], "skipped");
  EXPECT_EQ(j["checks"][3]["reason"], "no gsdk.cuda_playouts.v1 table");
  EXPECT_EQ(j["summary"]["passed"], 3);
  EXPECT_EQ(j["summary"]["failed"], 0);
  EXPECT_EQ(j["summary"]["skipped"], 1);
  EXPECT_EQ(j["status"], "passed");
}

TEST_F(CheckCli, FilesThatAreNotPluginsAreRefused) {
  gsdk::test::write_file(dir / "x.so", "just some text\n");
  const std::string plugin = gsdk::test::read_file(valid("test_nim.so"));
  gsdk::test::write_file(dir / "truncated.so", plugin.substr(0, plugin.size() / 3));
  ASSERT_EQ(mkfifo((dir / "fifo.so").c_str(), 0644), 0);
  struct Case {
    fs::path file;
    std::string message;
  };
  const Case cases[] = {
      {dir / "x.so", "not a shared object: expected an ELF shared library, found a file starting with \"just\""},
      {dir / "truncated.so", "truncated: "},
      {dir / "truncated.so", " ends at byte "},
      {dir / "truncated.so", "the file has " + std::to_string(plugin.size() / 3) + " bytes"},
      {dir / "fifo.so", "not a regular file: a FIFO (named pipe); a plugin is a shared object file"},
      {broken("no_entry.so"), "lacks the entry point 'gsdk_negotiate'"},
      {faulty("faulty_nim_crashes_on_load.so"), "loading it killed by signal 11 (Segmentation fault)"},
      {broken("abi99.so"), "refused the ABI negotiation"},
      {dir / "missing.so", "no such file"},
      {gsdk::test::test_plugin_dir("valid"), "is a directory: gsdk check takes one plugin file"},
  };
  for (const Case& c : cases) {
    const Outcome r = check({c.file.string()});
    EXPECT_EQ(r.status, 2) << c.file << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, c.file.string())) << r.err;
    EXPECT_TRUE(contains(r.err, c.message)) << c.file << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST_F(CheckCli, ParametersAreValidatedAsConfigsAre) {
  struct Case {
    std::string param;
    std::string message;
  };
  const Case cases[] = {
      {"stones=0", "--param[1]:1:8: parameter 'stones' of game 'test_nim' = 0 is out of range [1, 1000]"},
      {"stones=lots", "--param[1]:1:8: parameter 'stones' of game 'test_nim' must be an integer"},
      {"pile=3", "game 'test_nim' has no parameter 'pile'; valid parameters: stones, max_take, misere, broken_at"},
      {"stones", "--param \"stones\": expected name=value"},
  };
  for (const Case& c : cases) {
    const Outcome r = check({valid("test_nim.so").string(), "--param", c.param});
    EXPECT_EQ(r.status, 2) << c.param << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, c.message)) << c.param << ": " << r.err;
  }
}

TEST_F(CheckCli, BadOptionsExitTwo) {
  const std::string nim = valid("test_nim.so").string();
  Outcome r = check({nim, "--device", "gpu"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--device must be cpu, cuda or all, got 'gpu'")) << r.err;
  r = check({nim, "--timeout", "0"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--timeout must be a number of seconds above 0")) << r.err;
  r = check({nim, "--only", "nothing.here"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--only 'nothing.here' matches no check; the checks are: abi.negotiation, ")) << r.err;
  r = check({});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "a plugin file is required")) << r.err;
  r = check({nim, "--device", "cuda"});
  if (gsdk::test::have_gpu()) {
    EXPECT_EQ(r.status, 0) << describe(r); // test_nim has no CUDA table: every GPU check is skipped
  } else {
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, "--device cuda: no CUDA device: ")) << r.err;
  }
}

TEST_F(CheckCli, ListNamesEveryCheckWithADescription) {
  const Outcome r = check({"--list"});
  ASSERT_EQ(r.status, 0) << describe(r);
  for (const char* name :
       {"abi.negotiation", "rules.random_games_end", "rules.text_round_trip", "rules.listed_moves_legal",
        "playouts.batch_vs_per_state", "playouts.replay", "determinism.playouts", "perft.cpu_table", "perft.cuda_table",
        "qlearning.cpu_trainer", "nested.move_codes", "nested.cuda_nrpa", "cuda.playouts"})
    EXPECT_TRUE(std::regex_search(r.out, std::regex(std::string("(^|\n)") + name + "  +[^ ]"))) << name << "\n"
                                                                                                << r.out;
}

} // namespace
