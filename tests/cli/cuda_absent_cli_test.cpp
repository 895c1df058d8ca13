// cuda_absent_cli_test.cpp - every way to ask for CUDA on a machine (or a build) without a usable CUDA device
// - an experiment's [run] device or --device for `run`, --device for `perft` and `bench`, an agent spec's
// device=cuda for `match`, `gtp` and a match experiment - is refused before any work with exit status 2 and a
// message that says why and how to run the same thing on the CPU. On a machine with a GPU these cases skip.
#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

constexpr const char* kCannotServe = "asks for device = \"cuda\", which this machine cannot serve (";
constexpr const char* kGpuSpec = "uct:playouts=50,device=cuda";

class CudaAbsent : public ::testing::Test {
protected:
  void SetUp() override {
    if (gsdk::test::have_gpu()) GTEST_SKIP() << "this machine has a usable CUDA device";
    gsdk::test::write_file(dir / "exp.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 1000\n"
                                             "[run]\ndevice = \"cuda\"\n");
    gsdk::test::write_file(dir / "match.toml", "game = \"othello\"\nalgorithm = \"match\"\n[match]\ngames = 2\n"
                                               "agents = [\"random\", \"" +
                                                   std::string(kGpuSpec) + "\"]\n");
  }
  Outcome run(const std::vector<std::string>& args, const std::string* input = nullptr) {
    return gsdk::test::gsdk_run(args, dir.path(), input);
  }
  // Refused as a usage error that says why there is no CUDA and how to run on the CPU, with nothing written.
  void expect_refused(const Outcome& r, const std::string& who, const std::string& on_cpu) {
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, who + " " + kCannotServe)) << r.err;
    EXPECT_TRUE(contains(r.err, "): " + on_cpu)) << r.err;
    EXPECT_FALSE(contains(r.err, "cudaSetDevice")) << r.err;
    EXPECT_FALSE(fs::exists(dir / "results")) << "a refused run writes no results";
  }
  gsdk::test::TempDir dir;
};

TEST_F(CudaAbsent, RunOfAConfigAskingForCuda) {
  expect_refused(run({"run", "exp.toml", "-q"}), "this run",
                 "run it on the CPU with --device cpu, or set run.device = \"cpu\"");
  const Outcome on_cpu = run({"run", "exp.toml", "-q", "--device", "cpu"});
  EXPECT_EQ(on_cpu.status, 0) << "the advice works\n" << describe(on_cpu);
}

TEST_F(CudaAbsent, RunWithDeviceCudaOption) {
  gsdk::test::write_file(dir / "auto.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 10\n");
  expect_refused(run({"run", "auto.toml", "-q", "--device", "cuda"}), "this run",
                 "run it on the CPU with --device cpu");
}

TEST_F(CudaAbsent, PerftAndBench) {
  expect_refused(run({"perft", "othello", "start", "3", "--device", "cuda"}), "this run",
                 "run it on the CPU with --device cpu");
  expect_refused(run({"bench", "--device", "cuda", "--game", "graveler"}), "--device cuda",
                 "run it on the CPU with --device cpu");
  EXPECT_FALSE(fs::exists(dir / "bench-results.json")) << "a refused bench writes no report";
}

TEST_F(CudaAbsent, MatchAndGtpAgentSpecs) {
  const std::string who = std::string("agent spec '") + kGpuSpec + "'";
  const std::string on_cpu = "run it on the CPU with device=cpu in the agent spec";
  expect_refused(run({"match", "othello", "--agent0", "random", "--agent1", kGpuSpec, "--games", "2"}), who, on_cpu);
  const std::string quit = "quit\n";
  expect_refused(run({"gtp", "othello", "--agent", kGpuSpec}, &quit), who, on_cpu);
  const Outcome experiment = run({"run", "match.toml", "-q"});
  expect_refused(experiment, who, on_cpu);
  EXPECT_TRUE(contains(experiment.err, "match.toml:")) << "the agents' line is named\n" << experiment.err;
}

} // namespace
