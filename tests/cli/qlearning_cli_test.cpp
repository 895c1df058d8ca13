// qlearning_cli_test.cpp - `gsdk run` of Q-learning experiments end to end: the summary, results file,
// per-episode events and policy picture; the same digest on 1 and 2 threads and through the generic
// engine; sweeps; and the user-facing errors (bad parameters, a game without an environment, settings
// the GPU cannot run).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <sstream>

#include "gpu.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

const char* const kLab = R"(game = "minefield"
algorithm = "qlearning"
seed = 4

[params]
size = 16
agents = 128
mines = 30
map_seed = 7

[qlearning]
episodes = 400
epsilon_decay = 0.98
epsilon_end = 0.02
test_episodes = 5

[run]
device = "cpu"

[output]
events = "out/lab.jsonl"
plot = "out/lab.png"
)";

class QLearningCli : public ::testing::Test {
protected:
  void SetUp() override { gsdk::test::write_file(dir / "lab.toml", kLab); }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  nlohmann::json results(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  gsdk::test::TempDir dir;
};

TEST_F(QLearningCli, TrainsReportsAndDrawsThePolicy) {
  const Outcome r = run({"run", "lab.toml", "-q", "--out", "lab.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "1 environments x 128 agents, 400 episodes")) << r.out;
  EXPECT_TRUE(contains(r.out, "greedy policy reaches the flag from")) << r.out;
  const nlohmann::json j = results("lab.json");
  EXPECT_EQ(j["status"], "complete");
  EXPECT_EQ(j["algorithm"], "qlearning");
  const auto& result = j["result"];
  EXPECT_EQ(result["train"]["flag_rate_per_episode"].size(), 400u);
  // Learning works: the greedy policy leads nearly every cell that can reach the flag to it.
  EXPECT_GE(result["greedy_reach"]["table0"]["rate"].get<double>(), 0.95) << result.dump();
  EXPECT_GT(result["test"]["flag_rate"].get<double>(), result["train"]["flag_rate_per_episode"][0].get<double>());
  EXPECT_GT(result["timings"]["agent_steps"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["picture"], "out/lab.png");

  // One event per episode, then the end.
  std::ifstream events(dir / "out/lab.jsonl");
  std::string line;
  int episodes = 0;
  nlohmann::json last;
  while (std::getline(events, line)) {
    last = nlohmann::json::parse(line);
    if (last["event"] != "episode") continue;
    EXPECT_EQ(last["episode"].get<int>(), episodes++);
  }
  EXPECT_EQ(episodes, 400);
  EXPECT_EQ(last["event"], "finished");
  EXPECT_EQ(last["digest"], j["digest"]);

  const std::string png = gsdk::test::read_file(dir / "out/lab.png");
  ASSERT_GT(png.size(), 100u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

TEST_F(QLearningCli, TheDigestDependsOnTheConfigAlone) {
  const std::vector<std::vector<std::string>> variants = {
      {"--threads", "1"}, {"--threads", "2"}, {"--set", "qlearning.engine=\"generic\""}};
  std::string digest;
  for (const auto& extra : variants) {
    std::vector<std::string> args = {"run",
                                     "lab.toml",
                                     "-q",
                                     "--out",
                                     "v.json",
                                     "--set",
                                     "qlearning.environments=3",
                                     "--set",
                                     "qlearning.episodes=30",
                                     "--set",
                                     "output.plot=\"\""};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome r = run(args);
    ASSERT_EQ(r.status, 0) << describe(r);
    const std::string d = results("v.json")["digest"];
    if (digest.empty()) digest = d;
    EXPECT_EQ(d, digest) << extra.back();
  }
  const Outcome other = run({"run", "lab.toml", "-q", "--out", "w.json", "--set", "qlearning.environments=3", "--set",
                             "qlearning.episodes=30", "--set", "output.plot=\"\"", "--seed", "5"});
  ASSERT_EQ(other.status, 0) << describe(other);
  EXPECT_NE(results("w.json")["digest"], digest) << "another seed, another run";
}

TEST_F(QLearningCli, SweepsReportThroughputPerSize) {
  const Outcome r = run({"run", "lab.toml", "-q", "--out", "s.json", "--set", "qlearning.environments=[1, 3]", "--set",
                         "qlearning.episodes=10", "--set", "output.plot=\"\""});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "agent-steps/s")) << r.out;
  const nlohmann::json j = results("s.json");
  ASSERT_EQ(j["result"]["sweep"].size(), 2u);
  EXPECT_EQ(j["result"]["sweep"][1]["environments"], 3);
  const Outcome picture = run({"run", "lab.toml", "-q", "--set", "qlearning.environments=[1, 3]"});
  EXPECT_EQ(picture.status, 2) << describe(picture);
  EXPECT_TRUE(contains(picture.err, "draws no picture")) << picture.err;
}

TEST_F(QLearningCli, BadInputIsALocatedErrorWithStatus2) {
  Outcome r = run({"run", "lab.toml", "-q", "--set", "params.agents=0"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--set[1]:1:15: parameter 'agents' of game 'minefield' = 0 is out of range [1, 1024]"))
      << r.err;
  r = run({"run", "lab.toml", "-q", "--set", "params.mines=300"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "lab.toml:5:1: game 'minefield' refused its parameters: mines = 300 leaves no empty cell "
                              "on a 16x16 board of 256 cells"))
      << r.err;
  r = run({"run", "lab.toml", "-q", "--set", "game=\"graveler\""});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "game 'graveler' has no environment table (gsdk.environment.v1)")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out/lab.png")) << "nothing ran";
}

// 2^22 environments (the top of the documented range) of 256 x 256 cells x 4 actions need 4 TiB of Q-tables: refused
// at once, exit 2, with the numbers, before anything is allocated (it once ended in std::bad_alloc, exit 1).
TEST_F(QLearningCli, ARunLargerThanTheFreeMemoryIsRefusedWithTheNumbers) {
  const auto start = std::chrono::steady_clock::now();
  const Outcome r = run({"run", "lab.toml", "-q", "--set", "qlearning.environments=4194304", "--set", "params.size=256",
                         "--set", "params.mines=300"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30)) << "refused before the work";
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--set[1]:1:24: Q-learning of 4194304 environments needs at least 4.0 TiB of host "
                              "memory (4194304 Q-tables of 65536 states x 4 actions"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "is free")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out/lab.png")) << "nothing ran";
}

TEST_F(QLearningCli, GpuSettingsTheDeviceCannotRunAreRefused) {
  GSDK_REQUIRE_GPU();
  const Outcome r = run({"run", "lab.toml", "-q", "--device", "cuda", "--set", "qlearning.q_table=\"shared\""});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "needs update = \"atomic\"")) << r.err;
}

TEST_F(QLearningCli, CudaWithoutAGpuSaysWhy) {
  if (gsdk::test::have_gpu()) GTEST_SKIP() << "this machine has a GPU";
  const Outcome r = run({"run", "lab.toml", "-q", "--device", "cuda"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "which this machine cannot serve")) << r.err;
  if (!gsdk::core::built_with_cuda()) {
    EXPECT_TRUE(contains(r.err, "this gsdk was built without CUDA")) << r.err;
  }
}

} // namespace
