// nested_checkpoint_cli_test.cpp - `gsdk run --checkpoint` of snake NMCS and NRPA, end to end: a run interrupted by
// SIGINT (exit 130, "interrupted") and run again with the same checkpoint, on another number of threads and of
// searches side by side (which the checkpoint's identity leaves out: they do not change the result), ends
// with the uninterrupted run's digest, and its events file, improvements and searches file tell the whole
// story once; a checkpoint of another config or a malformed one is refused (exit 2); a run bounded by time
// goes on with the time left and says that it was resumed and is not reproducible.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

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

// Level-2 NMCS in the 7-cube, a few milliseconds a search on one thread; the tests set the restarts.
const char* const kNmcs = R"(game = "snake"
algorithm = "nmcs"
seed = 5

[params]
dimension = 7

[nmcs]
level = 2
restarts = 100
searches_in_parallel = 2

[run]
device = "cpu"
threads = 1

[output]
events = "events.jsonl"
searches = "searches.jsonl"
best = "best.json"
)";

const char* const kNrpa = R"(game = "snake"
algorithm = "nrpa"
seed = 5

[params]
dimension = 6

[nrpa]
level = 2
iterations = 20
restarts = 30
searches_in_parallel = 3

[run]
device = "cpu"
threads = 1

[output]
events = "events.jsonl"
best = "best.json"
)";

// A run to interrupt and resume must outlast its first checkpoint by far, yet run whole within a test on any
// machine: the test sizes it from a whole run's time, adding restarts until it takes this long.
constexpr double kResumableSeconds = 2.0;

class NestedCheckpointCli : public ::testing::Test {
protected:
  void SetUp() override {
    gsdk::test::write_file(dir / "nmcs.toml", kNmcs);
    gsdk::test::write_file(dir / "nrpa.toml", kNrpa);
  }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }
  std::string text(const std::string& name) { return gsdk::test::read_file(dir / name); }
  // Each line of a JSON Lines file without its "seconds", which differ between runs.
  std::vector<nlohmann::json> untimed_lines(const std::string& name) {
    std::istringstream lines(text(name));
    std::vector<nlohmann::json> objects;
    for (std::string line; std::getline(lines, line);) {
      nlohmann::json object = nlohmann::json::parse(line);
      object.erase("seconds");
      objects.push_back(object);
    }
    return objects;
  }

  // Starts `args`, waits for its first save to `checkpoint`, sends SIGINT and waits for the end.
  BackgroundGsdk::Ended interrupt_after_checkpoint(const std::vector<std::string>& args,
                                                   const std::string& checkpoint) {
    double seconds = 0;
    return gsdk::test::interrupt_after_checkpoint(args, dir.path(), checkpoint, seconds, 10s, 30s);
  }

  // The restarts of `config` (whose searches take turns in "[section]") that take kResumableSeconds here, from
  // whole runs' times; the last whole run's results stay in whole.json and its files in whole.*.
  std::string resumable_restarts(const std::string& config, const std::string& section) {
    uint64_t restarts = 100;
    for (;;) {
      const std::string set = section + ".restarts=" + std::to_string(restarts);
      const Outcome whole = run({"run", config, "--set", set, "-q", "--out", "whole.json"});
      EXPECT_EQ(whole.status, 0) << describe(whole);
      const double wall = json("whole.json")["timings"]["wall_seconds"].get<double>();
      if (whole.status != 0 || wall >= kResumableSeconds || restarts >= 100000) {
        fs::copy_file(dir / "events.jsonl", dir / "whole.events.jsonl", fs::copy_options::overwrite_existing);
        if (fs::exists(dir / "searches.jsonl"))
          fs::copy_file(dir / "searches.jsonl", dir / "whole.searches.jsonl", fs::copy_options::overwrite_existing);
        return set;
      }
      restarts = static_cast<uint64_t>(static_cast<double>(restarts) *
                                       std::min(20.0, std::ceil(1.5 * kResumableSeconds / std::max(wall, 0.01))));
    }
  }

  gsdk::test::TempDir dir;
};

TEST_F(NestedCheckpointCli, InterruptedNmcsResumedEndsWithTheUninterruptedDigestAndTellsTheWholeStoryOnce) {
  const std::string restarts = resumable_restarts("nmcs.toml", "nmcs");
  const nlohmann::json whole = json("whole.json");
  const std::vector<std::string> args = {"run",   "nmcs.toml", "--set",        restarts,  "-q",
                                         "--out", "part.json", "--checkpoint", "ck.json", "--checkpoint-every",
                                         "0.2"};
  const auto ended = interrupt_after_checkpoint(args, "ck.json");
  ASSERT_EQ(ended.status, 130) << describe(ended);
  EXPECT_TRUE(contains(ended.err, "resume from ck.json")) << ended.err;
  const nlohmann::json part = json("part.json");
  EXPECT_EQ(part["status"], "interrupted");
  const nlohmann::json checkpoint = json("ck.json");
  EXPECT_EQ(checkpoint["complete"], false);
  const uint64_t total = whole["result"]["searches_finished"].get<uint64_t>();
  const uint64_t saved =
      checkpoint["progress"]["finished"]["below"].get<uint64_t>() + checkpoint["progress"]["finished"]["above"].size();
  EXPECT_EQ(saved, part["result"]["searches_finished"].get<uint64_t>()) << "the checkpoint holds what finished";
  EXPECT_LT(saved, total);

  // Resumed on two threads, five searches side by side: the rest of the searches run, and the result is the whole
  // run's.
  std::vector<std::string> resume = args;
  resume[6] = "resumed.json";
  resume.insert(resume.end(), {"--threads", "2", "--set", "nmcs.searches_in_parallel=5"});
  const Outcome resumed = run(resume);
  ASSERT_EQ(resumed.status, 0) << describe(resumed);
  const nlohmann::json r = json("resumed.json");
  EXPECT_EQ(r["status"], "complete");
  EXPECT_EQ(r["digest"], whole["digest"]);
  EXPECT_EQ(r["checkpoint"]["resumed"], true);
  EXPECT_EQ(r["result"]["resumed_from"]["searches_finished"], saved);
  EXPECT_EQ(r["result"]["resumed_from"]["reproducible"], true);
  EXPECT_EQ(r["result"]["searches_finished"], total);
  EXPECT_EQ(r["result"]["searches_started"], total) << "a search under way at the stop is counted once";
  EXPECT_TRUE(contains(resumed.out, "resumed      after")) << resumed.out;
  // The improvements, the events file and the searches file hold the earlier run's once.
  nlohmann::json improvements = r["result"]["improvements"], whole_improvements = whole["result"]["improvements"];
  for (nlohmann::json* list : {&improvements, &whole_improvements})
    for (nlohmann::json& i : *list) i.erase("seconds");
  EXPECT_EQ(improvements, whole_improvements);
  EXPECT_EQ(untimed_lines("events.jsonl"), untimed_lines("whole.events.jsonl"));
  EXPECT_EQ(text("searches.jsonl"), text("whole.searches.jsonl"));
  EXPECT_EQ(json("ck.json")["complete"], true);

  // A finished checkpoint repeats its result at once.
  resume[6] = "again.json";
  ASSERT_EQ(run(resume).status, 0);
  EXPECT_EQ(json("again.json")["digest"], whole["digest"]);
  EXPECT_EQ(json("again.json")["timings"]["playouts"], r["timings"]["playouts"]) << "nothing ran again";
}

TEST_F(NestedCheckpointCli, InterruptedNrpaResumedEndsWithTheUninterruptedDigest) {
  const std::string restarts = resumable_restarts("nrpa.toml", "nrpa");
  const nlohmann::json whole = json("whole.json");
  const std::vector<std::string> args = {"run",   "nrpa.toml", "--set",        restarts,  "-q",
                                         "--out", "part.json", "--checkpoint", "ck.json", "--checkpoint-every",
                                         "0.2"};
  const auto ended = interrupt_after_checkpoint(args, "ck.json");
  ASSERT_EQ(ended.status, 130) << describe(ended);
  std::vector<std::string> resume = args;
  resume[6] = "resumed.json";
  resume.insert(resume.end(), {"--threads", "2", "--set", "nrpa.searches_in_parallel=1"});
  const Outcome resumed = run(resume);
  ASSERT_EQ(resumed.status, 0) << describe(resumed);
  const nlohmann::json r = json("resumed.json");
  EXPECT_EQ(r["digest"], whole["digest"]);
  EXPECT_EQ(r["result"]["resumed_from"]["reproducible"], true);
  EXPECT_EQ(r["result"]["searches_finished"], whole["result"]["searches_finished"]);
  EXPECT_EQ(untimed_lines("events.jsonl"), untimed_lines("whole.events.jsonl"));
}

TEST_F(NestedCheckpointCli, ACheckpointOfAnotherConfigOrAMalformedOneIsRefused) {
  const std::vector<std::string> args = {"run", "nmcs.toml", "-q", "--out", "r.json", "--checkpoint", "ck.json"};
  ASSERT_EQ(run(args).status, 0);

  std::vector<std::string> other_level = args;
  other_level.insert(other_level.end(), {"--set", "nmcs.level=1"});
  const Outcome level = run(other_level);
  EXPECT_EQ(level.status, 2) << describe(level);
  EXPECT_TRUE(contains(level.err, "ck.json: the checkpoint belongs to another run")) << level.err;
  EXPECT_TRUE(contains(level.err, "config.nmcs.level: checkpoint 2, this run 1")) << level.err;

  // Searches beyond the run's 101, and a best sequence that is not the game's, each named.
  nlohmann::json checkpoint = json("ck.json");
  checkpoint["progress"]["finished"]["above"] = {500};
  gsdk::test::write_file(dir / "beyond.json", checkpoint.dump());
  std::vector<std::string> beyond = args;
  beyond[6] = "beyond.json";
  const Outcome far = run(beyond);
  EXPECT_EQ(far.status, 2) << describe(far);
  EXPECT_TRUE(contains(far.err, "beyond.json: the checkpoint's progress is malformed: it lists finished searches "
                                "beyond the run's 101"))
      << far.err;

  checkpoint = json("ck.json");
  checkpoint["progress"]["best"]["score"] = checkpoint["progress"]["best"]["score"].get<int64_t>() + 1;
  gsdk::test::write_file(dir / "score.json", checkpoint.dump());
  std::vector<std::string> score = args;
  score[6] = "score.json";
  const Outcome wrong = run(score);
  EXPECT_EQ(wrong.status, 2) << describe(wrong);
  EXPECT_TRUE(contains(wrong.err, "score.json: the checkpoint's progress is malformed:")) << wrong.err;
}

TEST_F(NestedCheckpointCli, ARunBoundedByTimeGoesOnWithTheTimeLeftAndSaysItIsNotReproducible) {
  const std::vector<std::string> args = {
      "run",       "nmcs.toml",    "--set",   "nmcs.restarts=1000000", "--set", "nmcs.time_seconds=3", "-q", "--out",
      "part.json", "--checkpoint", "ck.json", "--checkpoint-every",    "0.2"};
  const auto ended = interrupt_after_checkpoint(args, "ck.json");
  ASSERT_EQ(ended.status, 130) << describe(ended);
  const double spent = json("ck.json")["progress"]["counts"]["wall_seconds"].get<double>();
  ASSERT_LT(spent, 3.0);

  std::vector<std::string> resume = args;
  resume[8] = "resumed.json";
  const auto began = std::chrono::steady_clock::now();
  const Outcome resumed = run(resume);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  ASSERT_EQ(resumed.status, 0) << describe(resumed);
  const nlohmann::json r = json("resumed.json");
  EXPECT_EQ(r["status"], "complete");
  EXPECT_EQ(r["result"]["stopped_by_time"], true);
  EXPECT_EQ(r["result"]["resumed_from"]["reproducible"], false);
  EXPECT_DOUBLE_EQ(r["result"]["resumed_from"]["seconds"].get<double>(), spent);
  EXPECT_GE(r["timings"]["wall_seconds"].get<double>(), 3.0) << "the time of both runs";
  EXPECT_LT(seconds, 3.0 - spent + 1.5) << "the resumed run had only the time left";
  EXPECT_TRUE(contains(resumed.out, "not reproducible")) << resumed.out;
}

} // namespace
