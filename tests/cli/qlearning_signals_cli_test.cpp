// qlearning_signals_cli_test.cpp - `gsdk run` of Q-learning under SIGINT and its --checkpoint: training ends
// within two seconds of the signal with exit status 130 and a results file marked "interrupted"; the same command
// with the same checkpoint, on another thread count, ends with the uninterrupted run's digest (one training run,
// with its picture, and a sweep of several); a finished checkpoint repeats its result; a checkpoint of another
// seed or config is refused with exit status 2.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "background_process.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::BackgroundGsdk;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;
using namespace std::chrono_literals;

// A small minefield; the tests set the episodes (and environments).
const char* const kConfig = R"(game = "minefield"
algorithm = "qlearning"
seed = 5

[params]
size = 16
agents = 128
mines = 30
map_seed = 7

[qlearning]
environments = 8
episodes = 100
epsilon_decay = 0.98
epsilon_end = 0.02
test_episodes = 3

[run]
device = "cpu"
threads = 2
)";

// A run to interrupt and resume must outlast its first checkpoint by far, yet run whole within a test on any
// machine: the tests size it from a whole run's time, lengthening it until it takes this long.
constexpr double kResumableSeconds = 2.0;

class QLearningSignalsCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "exp.toml", kConfig);
  }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  // `args` with the episodes that make the whole run take kResumableSeconds here; the whole run's results are left
  // in whole.json.
  std::vector<std::string> resumable(std::vector<std::string> args) {
    uint64_t episodes = 100;
    for (;;) {
      std::vector<std::string> whole = args;
      whole.insert(whole.end(),
                   {"--set", "qlearning.episodes=" + std::to_string(episodes), "-q", "--out", "whole.json"});
      const Outcome outcome = run(whole);
      EXPECT_EQ(outcome.status, 0) << describe(outcome);
      if (outcome.status != 0) return whole;
      double wall = 0;
      for (const auto& r : json("whole.json")["result"].contains("sweep")
                               ? json("whole.json")["result"]["sweep"]
                               : nlohmann::json::array({json("whole.json")["result"]}))
        wall += r["timings"]["wall_seconds"].get<double>();
      if (wall >= kResumableSeconds || episodes >= 1000000) {
        args.insert(args.end(), {"--set", "qlearning.episodes=" + std::to_string(episodes)});
        return args;
      }
      episodes *= static_cast<uint64_t>(std::min(20.0, std::ceil(1.5 * kResumableSeconds / std::max(wall, 0.01))));
    }
  }

  // Interrupts `args` (saving to ck.json every 0.2 s) and resumes it on one thread: the resumed run must end with
  // whole.json's digest. Returns the interrupted run's results.
  nlohmann::json interrupt_and_resume(std::vector<std::string> args) {
    args.insert(args.end(), {"-q", "--out", "part.json", "--checkpoint", "ck.json", "--checkpoint-every", "0.2"});
    double seconds = 0;
    const auto ended = gsdk::test::interrupt_after_checkpoint(args, dir.path(), "ck.json", seconds, 3s, 30s);
    EXPECT_EQ(ended.status, 130) << describe(ended);
    EXPECT_LT(seconds, 2.0) << "from SIGINT to exit";
    EXPECT_TRUE(contains(ended.err, "resume from ck.json")) << ended.err;
    const nlohmann::json part = json("part.json");
    EXPECT_EQ(part["status"], "interrupted");
    EXPECT_EQ(part["interrupted"]["partial"], true);
    EXPECT_EQ(json("ck.json")["complete"], false);

    std::replace(args.begin(), args.end(), std::string("part.json"), std::string("resumed.json"));
    args.insert(args.end(), {"--threads", "1"});
    const Outcome resumed = run(args);
    EXPECT_EQ(resumed.status, 0) << describe(resumed);
    const nlohmann::json r = json("resumed.json");
    EXPECT_EQ(r["status"], "complete");
    EXPECT_EQ(r["digest"], json("whole.json")["digest"]) << "the resumed run ends with the uninterrupted digest";
    EXPECT_EQ(r["checkpoint"]["resumed"], true);
    EXPECT_EQ(json("ck.json")["complete"], true);
    return part;
  }

  gsdk::test::TempDir dir;
};

TEST_F(QLearningSignalsCli, InterruptedTrainingResumedFromItsCheckpointEndsWithTheUninterruptedDigest) {
  const std::vector<std::string> args = resumable({"run", "exp.toml", "--plot", "policy.png"});
  const uint64_t planned = json("whole.json")["result"]["episodes"].get<uint64_t>();
  const nlohmann::json part = interrupt_and_resume(args);
  const nlohmann::json& cut = part["interrupted"]["completed"]["interrupted_run"];
  EXPECT_GT(cut["episodes"].get<uint64_t>(), 0u);
  EXPECT_LT(cut["episodes"].get<uint64_t>(), planned);
  EXPECT_EQ(cut["of"], planned);
  EXPECT_EQ(part["result"]["episodes"], cut["episodes"]);
  EXPECT_EQ(part["result"]["test"]["episodes"], 0) << "an interrupted run skips the greedy test";
  EXPECT_EQ(json("resumed.json")["result"]["test"], json("whole.json")["result"]["test"]);
}

TEST_F(QLearningSignalsCli, AnInterruptedSweepKeepsItsFinishedRuns) {
  const std::vector<std::string> args = resumable({"run", "exp.toml", "--set", "qlearning.environments=[2, 6, 3]"});
  const nlohmann::json part = interrupt_and_resume(args);
  const nlohmann::json& done = part["interrupted"]["completed"];
  EXPECT_EQ(done["of"], 3);
  EXPECT_LT(done["training_runs"].get<int>(), 3);
  const nlohmann::json sweep = json("resumed.json")["result"]["sweep"];
  ASSERT_EQ(sweep.size(), 3u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(sweep[i]["digest"], json("whole.json")["result"]["sweep"][i]["digest"]) << "sweep entry " << i;
}

TEST_F(QLearningSignalsCli, AFinishedCheckpointRepeatsItsResult) {
  const std::vector<std::string> args = {"run", "exp.toml", "-q", "--out", "r.json", "--checkpoint", "ck.json"};
  ASSERT_EQ(run(args).status, 0);
  EXPECT_EQ(json("ck.json")["complete"], true);
  const std::string digest = json("r.json")["digest"];
  std::vector<std::string> again = args;
  again.insert(again.end(), {"--plot", "policy.png"});
  const Outcome repeated = run(again);
  ASSERT_EQ(repeated.status, 0) << describe(repeated);
  EXPECT_EQ(json("r.json")["digest"], digest);
  EXPECT_EQ(json("r.json")["checkpoint"]["resumed"], true);
  EXPECT_TRUE(fs::exists(dir / "policy.png")) << "the checkpoint keeps the tables and visits a picture needs";
}

TEST_F(QLearningSignalsCli, CheckpointOfAnotherRunIsRefused) {
  const std::vector<std::string> args = {"run", "exp.toml", "-q", "--out", "r.json", "--checkpoint", "ck.json"};
  ASSERT_EQ(run(args).status, 0);

  std::vector<std::string> other_seed = args;
  other_seed.insert(other_seed.end(), {"--seed", "6"});
  const Outcome seed = run(other_seed);
  EXPECT_EQ(seed.status, 2) << describe(seed);
  EXPECT_TRUE(contains(seed.err, "ck.json: the checkpoint belongs to another run")) << seed.err;
  EXPECT_TRUE(contains(seed.err, "seed: checkpoint 5, this run 6")) << seed.err;

  std::vector<std::string> other_alpha = args;
  other_alpha.insert(other_alpha.end(), {"--set", "qlearning.alpha=0.25"});
  const Outcome alpha = run(other_alpha);
  EXPECT_EQ(alpha.status, 2) << describe(alpha);
  EXPECT_TRUE(contains(alpha.err, "config.qlearning.alpha: checkpoint (none), this run 0.25")) << alpha.err;
}

} // namespace
