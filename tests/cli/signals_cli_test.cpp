// signals_cli_test.cpp - `gsdk run`, `gsdk perft` and `gsdk match` under SIGINT, SIGTERM and SIGHUP, and their
// --checkpoint:
// a signal ends a long run within two seconds with exit status 128 + signal and a valid results file marked
// "interrupted" (what completed, clearly partial); a second signal ends the process at once; an interrupted run
// resumed from its checkpoint, with another thread count, ends with the uninterrupted run's digest (perft: its
// count); a checkpoint of another run (seed, config) or a file that is not one is refused with exit status 2; a
// signal the moment the handlers are in place, before any work, ends every command as interrupted too.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
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

const char* const kConfig = R"(# graveler playouts on the CPU; the tests set the count
game = "graveler"
algorithm = "playouts"
seed = 7

[playouts]
count = 1000

[run]
device = "cpu"
threads = 2
)";

constexpr const char* kEndless = "playouts.count=10000000000";
// A run to interrupt and resume must outlast its first checkpoint by far, yet run whole within a test on any
// machine: the tests size it from a whole run's time, deepening until it takes this long.
constexpr double kResumableSeconds = 2.0;
// test_nim's perft from depth 17 (3^17 leaves, under a second on 2 threads of a fast machine) deepened as needed,
// without transposition tables (which count its few distinct positions at once).
const std::vector<std::string> kNimPerft = {"perft",   "test_nim",   "start",     "17", "--param", "stones=1000",
                                            "--param", "max_take=3", "--threads", "2",  "-q",      "--no-hash"};
// test_tree's perft, hashed: its states are 64-bit hashes that practically never repeat, so the tables do not
// shorten it; from depth 12, deepened as needed.
const std::vector<std::string> kTreePerft = {"perft", "test_tree", "start", "12", "--threads", "2", "-q"};

class SignalsCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "exp.toml", kConfig);
  }
  static std::vector<std::string> with_test_plugins(std::vector<std::string> args) {
    args.push_back("--plugin-dir");
    args.push_back(gsdk::test::test_plugin_dir("valid").string());
    return args;
  }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  // Starts `args`, sends `signal` after `after`, and waits up to `limit` for the end; `seconds` is the time from
  // the signal to the end.
  BackgroundGsdk::Ended interrupt(const std::vector<std::string>& args, int signal, double& seconds,
                                  std::chrono::duration<double> after = 1s, std::chrono::duration<double> limit = 3s) {
    BackgroundGsdk process(args, dir.path());
    std::this_thread::sleep_for(after);
    const auto sent = std::chrono::steady_clock::now();
    process.send(signal);
    BackgroundGsdk::Ended ended = process.wait(limit);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    return ended;
  }

  BackgroundGsdk::Ended interrupt_after_checkpoint(const std::vector<std::string>& args, const std::string& checkpoint,
                                                   double& seconds, std::chrono::duration<double> limit = 3s) {
    return gsdk::test::interrupt_after_checkpoint(args, dir.path(), checkpoint, seconds, limit, 30s);
  }

  gsdk::test::TempDir dir;
};

// The "Nodes searched: N" line of a perft report.
std::string nodes_searched(const std::string& out) {
  const size_t at = out.find("Nodes searched: ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

// A beam search of test_tree that runs for hours: a million searches of deep trees.
const std::string kEndlessBeam = "algorithm = \"beam\"\ngame = \"test_tree\"\nseed = 5\n[params]\nmax_ply = 60\n"
                                 "[beam]\nwidth = 2000\nrestarts = 1000000\n[run]\ndevice = \"cpu\"\n";

TEST_F(SignalsCli, SigintEndsALongRunWithAnInterruptedResultsFile) {
  double seconds = 0;
  const auto ended = interrupt({"run", "exp.toml", "--set", kEndless, "-q", "--out", "r.json"}, SIGINT, seconds);
  ASSERT_TRUE(ended.in_time) << describe(ended);
  EXPECT_EQ(ended.status, 130) << describe(ended);
  EXPECT_LT(seconds, 2.0) << "from SIGINT to exit";
  EXPECT_TRUE(contains(ended.err, "interrupted by SIGINT")) << ended.err;
  EXPECT_TRUE(contains(ended.err, "r.json")) << ended.err;
  const nlohmann::json r = json("r.json");
  EXPECT_EQ(r["status"], "interrupted");
  EXPECT_EQ(r["interrupted"]["signal"], "SIGINT");
  EXPECT_EQ(r["interrupted"]["partial"], true);
  const uint64_t done = r["interrupted"]["completed"]["playouts"].get<uint64_t>();
  EXPECT_GT(done, 0u);
  EXPECT_LT(done, 10000000000u);
  EXPECT_EQ(r["interrupted"]["completed"]["of"], 10000000000u);
  EXPECT_EQ(r["result"]["playouts"], done);
  EXPECT_FALSE(r.contains("error")) << "an interruption is not an error";
}

// The handlers are installed before the command reads anything, so a signal in a command's first milliseconds finds
// them; the run then stops before its first result, and that is an interruption (exit 128 + signal, "interrupted"),
// never a failure: NMCS and NRPA once said they "found no sequence before its time ran out" and exited 1.
TEST_F(SignalsCli, ASignalBeforeAnyWorkEndsEveryCommandInterrupted) {
  const std::string chain = "game = \"test_chain\"\nseed = 5\n[params]\nnumbers = 32\n[run]\ndevice = \"cpu\"\n";
  gsdk::test::write_file(dir / "nmcs.toml",
                         "algorithm = \"nmcs\"\n" + chain + "[nmcs]\nlevel = 3\nrestarts = 1000000\n");
  gsdk::test::write_file(dir / "nrpa.toml", "algorithm = \"nrpa\"\n" + chain +
                                                "[nrpa]\nlevel = 4\niterations = 100\nrestarts = 1000000\n");
  gsdk::test::write_file(dir / "beam.toml", kEndlessBeam);
  const std::vector<std::vector<std::string>> commands = {
      {"run", "exp.toml", "--set", kEndless, "-q", "--out", "r.json"},
      with_test_plugins({"run", "nmcs.toml", "-q", "--out", "r.json"}),
      with_test_plugins({"run", "nrpa.toml", "-q", "--out", "r.json"}),
      with_test_plugins({"run", "beam.toml", "-q", "--out", "r.json"}),
      with_test_plugins(kNimPerft),
      with_test_plugins({"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "1000000", "-q",
                         "--json", "r.json"})};
  for (const std::vector<std::string>& command : commands) {
    fs::remove(dir / "r.json");
    BackgroundGsdk process(command, dir.path());
    if (!process.wait_until_catching(SIGINT, 10s)) GTEST_SKIP() << "no /proc to see the handlers by";
    process.send(SIGINT);
    const BackgroundGsdk::Ended ended = process.wait(10s);
    const std::string what = command[0] + " " + command[1];
    EXPECT_EQ(ended.status, 130) << what << "\n" << describe(ended);
    EXPECT_TRUE(contains(ended.err, "interrupted by SIGINT")) << what << "\n" << ended.err;
    if (command[0] == "perft") continue; // its --json is not asked for: the report says it all
    EXPECT_EQ(json("r.json")["status"], "interrupted") << what;
  }
}

// A beam search stopped mid-run ends interrupted with the best it had found, saved and checked.
TEST_F(SignalsCli, SigintEndsABeamSearchWithItsBestSaved) {
  gsdk::test::write_file(dir / "beam.toml", kEndlessBeam);
  double seconds = 0;
  const auto ended =
      interrupt(with_test_plugins({"run", "beam.toml", "-q", "--out", "r.json", "--set", "output.best=\"best.json\""}),
                SIGINT, seconds);
  ASSERT_TRUE(ended.in_time) << describe(ended);
  EXPECT_EQ(ended.status, 130) << describe(ended);
  const nlohmann::json r = json("r.json");
  EXPECT_EQ(r["status"], "interrupted");
  EXPECT_GT(r["result"]["best_score"].get<int64_t>(), 0);
  EXPECT_GT(r["timings"]["levels"].get<uint64_t>(), 0u);
  EXPECT_EQ(json("best.json")["moves"].size(), r["result"]["best_score"].get<size_t>())
      << "test_tree's score is its length";
}

// `gsdk match` is the match driver's run: a signal ends it at the next move with exit status 128 + the signal, the
// games finished kept in its results document and record (the game under way is not counted), marked interrupted.
TEST_F(SignalsCli, ASignalEndsAMatchKeepingItsFinishedGames) {
  for (const auto& [signal, name] :
       {std::pair{SIGINT, "SIGINT"}, std::pair{SIGTERM, "SIGTERM"}, std::pair{SIGHUP, "SIGHUP"}}) {
    double seconds = 0;
    const auto ended =
        interrupt(with_test_plugins({"match", "test_nim", "--agent0", "uct:playouts=2000", "--agent1", "random",
                                     "--games", "1000000", "--json", "m.json", "--record", "m.pgn", "-q"}),
                  signal, seconds);
    ASSERT_TRUE(ended.in_time) << describe(ended);
    EXPECT_EQ(ended.status, 128 + signal) << describe(ended);
    EXPECT_LT(seconds, 2.0) << "from the signal to exit";
    EXPECT_TRUE(contains(ended.err, std::string("interrupted by ") + name)) << ended.err;
    const nlohmann::json m = json("m.json");
    EXPECT_EQ(m["status"], "interrupted");
    EXPECT_EQ(m["interrupted"]["signal"], name);
    const uint64_t played = m["result"]["games_played"].get<uint64_t>();
    EXPECT_GT(played, 0u) << "a second plays many games of nim";
    EXPECT_LT(played, 1000000u);
    EXPECT_EQ(m["interrupted"]["completed"]["games"], played);
    const std::string record = gsdk::test::read_file(dir / "m.pgn");
    size_t rounds = 0;
    for (size_t at = record.find("[Round "); at != std::string::npos; at = record.find("[Round ", at + 1)) ++rounds;
    EXPECT_EQ(rounds, played) << "the record holds every finished game";
  }
}

TEST_F(SignalsCli, SigtermAndSighupExitWith128PlusTheSignal) {
  for (const auto& [signal, name] : {std::pair{SIGTERM, "SIGTERM"}, std::pair{SIGHUP, "SIGHUP"}}) {
    double seconds = 0;
    const auto ended = interrupt({"run", "exp.toml", "--set", kEndless, "-q", "--out", "r.json"}, signal, seconds);
    ASSERT_TRUE(ended.in_time) << describe(ended);
    EXPECT_EQ(ended.status, 128 + signal) << describe(ended);
    EXPECT_EQ(json("r.json")["interrupted"]["signal"], name);
  }
}

TEST_F(SignalsCli, ASecondSignalEndsTheProcessAtOnce) {
  BackgroundGsdk process({"run", "exp.toml", "--set", kEndless, "-q", "--out", "r.json"}, dir.path());
  std::this_thread::sleep_for(1s);
  // Back to back, so the run cannot finish in between; two of one kind sent so may merge into one (standard
  // signals do not queue), so the other is another kind, which the handler treats the same way.
  process.send(SIGINT);
  process.send(SIGTERM);
  const auto ended = process.wait(3s);
  ASSERT_TRUE(ended.in_time) << describe(ended);
  // Whichever of the two the process took second is re-raised and kills it.
  EXPECT_TRUE(ended.signal == SIGINT || ended.signal == SIGTERM) << "killed by the re-raised signal, not exited\n"
                                                                 << describe(ended);
}

TEST_F(SignalsCli, InterruptedRunResumedFromItsCheckpointEndsWithTheUninterruptedDigest) {
  // The count that takes kResumableSeconds here, from a whole run's time.
  uint64_t count = 100000000;
  for (;;) {
    const Outcome whole =
        run({"run", "exp.toml", "--set", "playouts.count=" + std::to_string(count), "-q", "--out", "whole.json"});
    ASSERT_EQ(whole.status, 0) << describe(whole);
    const double wall = json("whole.json")["timings"]["wall_seconds"].get<double>();
    if (wall >= kResumableSeconds || count >= 100000000000u) break;
    count *= static_cast<uint64_t>(std::min(20.0, std::ceil(1.5 * kResumableSeconds / std::max(wall, 0.01))));
  }
  const std::string resumable = "playouts.count=" + std::to_string(count);
  double seconds = 0;
  const std::vector<std::string> args = {"run",   "exp.toml",  "--set",        resumable, "-q",
                                         "--out", "part.json", "--checkpoint", "ck.json", "--checkpoint-every",
                                         "0.2"};
  const auto ended = interrupt_after_checkpoint(args, "ck.json", seconds);
  ASSERT_EQ(ended.status, 130) << describe(ended);
  EXPECT_TRUE(contains(ended.err, "resume from ck.json")) << ended.err;
  const nlohmann::json checkpoint = json("ck.json");
  EXPECT_EQ(checkpoint["format"], "gsdk-checkpoint");
  EXPECT_EQ(checkpoint["complete"], false);
  const uint64_t saved = checkpoint["progress"]["result"]["playouts"].get<uint64_t>();
  EXPECT_EQ(saved, json("part.json")["result"]["playouts"].get<uint64_t>()) << "the checkpoint holds what completed";

  // Resumed on one thread: only the rest runs, and the result is the whole run's.
  std::vector<std::string> resume = args;
  resume[6] = "resumed.json";
  resume.insert(resume.end(), {"--threads", "1"});
  const Outcome resumed = run(resume);
  ASSERT_EQ(resumed.status, 0) << describe(resumed);
  const nlohmann::json r = json("resumed.json");
  EXPECT_EQ(r["status"], "complete");
  EXPECT_EQ(r["digest"], json("whole.json")["digest"]);
  EXPECT_EQ(r["checkpoint"]["resumed"], true);
  EXPECT_EQ(r["timings"]["cpu_playouts"].get<uint64_t>(), count - saved) << "resumed playouts ran again";
  EXPECT_EQ(json("ck.json")["complete"], true);
}

TEST_F(SignalsCli, CheckpointOfAnotherRunIsRefused) {
  const std::vector<std::string> args = {"run", "exp.toml", "-q", "--out", "r.json", "--checkpoint", "ck.json"};
  ASSERT_EQ(run(args).status, 0);

  std::vector<std::string> other_seed = args;
  other_seed.insert(other_seed.end(), {"--seed", "8"});
  const Outcome seed = run(other_seed);
  EXPECT_EQ(seed.status, 2) << describe(seed);
  EXPECT_TRUE(contains(seed.err, "ck.json: the checkpoint belongs to another run")) << seed.err;
  EXPECT_TRUE(contains(seed.err, "seed: checkpoint 7, this run 8")) << seed.err;

  std::vector<std::string> other_count = args;
  other_count.insert(other_count.end(), {"--set", "playouts.count=2000"});
  const Outcome count = run(other_count);
  EXPECT_EQ(count.status, 2) << describe(count);
  EXPECT_TRUE(contains(count.err, "config.playouts.count: checkpoint 1000, this run 2000")) << count.err;

  gsdk::test::write_file(dir / "not.json", "{\"results\": 1}");
  const Outcome garbage = run({"run", "exp.toml", "-q", "--checkpoint", "not.json"});
  EXPECT_EQ(garbage.status, 2) << describe(garbage);
  EXPECT_TRUE(contains(garbage.err, "not.json: not a gsdk checkpoint")) << garbage.err;

  std::vector<std::string> other_threads = args;
  other_threads.insert(other_threads.end(), {"--threads", "1"});
  EXPECT_EQ(run(other_threads).status, 0) << "threads and devices are not part of a run's identity";
}

// `count` (a kNimPerft or kTreePerft) from its depth, deepened until the whole count takes kResumableSeconds here (or
// `deepest` is reached); `whole` is that count's outcome.
std::vector<std::string> resumable_perft(std::vector<std::string> count, int deepest, Outcome& whole,
                                         const std::function<Outcome(const std::vector<std::string>&)>& run) {
  for (int depth = std::stoi(count[3]);; ++depth) {
    count[3] = std::to_string(depth);
    whole = run(count);
    if (whole.status != 0) return count;
    const size_t at = whole.out.find("Time: ");
    if (at == std::string::npos || std::stod(whole.out.substr(at + 6)) >= kResumableSeconds || depth == deepest)
      return count;
  }
}

TEST_F(SignalsCli, PerftInterruptedAndResumedFromItsCheckpointGivesTheWholeCount) {
  // The depth that takes kResumableSeconds here (each level is three times the last), from a whole count's time.
  Outcome whole;
  std::vector<std::string> args = resumable_perft(
      kNimPerft, 22, whole, [&](const std::vector<std::string>& a) { return run(with_test_plugins(a)); });
  ASSERT_EQ(whole.status, 0) << describe(whole);
  ASSERT_TRUE(contains(whole.out, "Time: ")) << whole.out;
  const std::string depth = args[3];
  args.insert(args.end(), {"--checkpoint", "ck.json", "--checkpoint-every", "0.2"});
  double seconds = 0;
  const auto ended = interrupt_after_checkpoint(with_test_plugins(args), "ck.json", seconds);
  ASSERT_EQ(ended.status, 130) << describe(ended);
  EXPECT_LT(seconds, 2.0) << "from SIGINT to exit";
  EXPECT_TRUE(contains(ended.err, "interrupted by SIGINT: partial count")) << ended.err;
  EXPECT_EQ(json("ck.json")["complete"], false);

  args[9] = "1"; // --threads 1
  const Outcome resumed = run(with_test_plugins(args));
  ASSERT_EQ(resumed.status, 0) << describe(resumed);
  EXPECT_EQ(nodes_searched(resumed.out), nodes_searched(whole.out)) << "the resumed count is the whole count";
  EXPECT_NE(nodes_searched(whole.out), "");
  EXPECT_EQ(json("ck.json")["complete"], true);

  std::vector<std::string> shallower = args;
  shallower[3] = std::to_string(std::stoi(depth) - 1);
  const Outcome refused = run(with_test_plugins(shallower));
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "depth: checkpoint " + depth + ", this run " + shallower[3])) << refused.err;
}

// The same with transposition tables: a hashed count interrupted and resumed (with other threads, and a table of
// another size, which is no part of the checkpoint's identity) gives the uninterrupted count.
TEST_F(SignalsCli, HashedPerftInterruptedAndResumedFromItsCheckpointGivesTheWholeCount) {
  Outcome whole;
  std::vector<std::string> args = resumable_perft(
      kTreePerft, 20, whole, [&](const std::vector<std::string>& a) { return run(with_test_plugins(a)); });
  ASSERT_EQ(whole.status, 0) << describe(whole);
  ASSERT_TRUE(contains(whole.out, "\nHash: ")) << "hashed by default\n" << whole.out;
  args.insert(args.end(), {"--checkpoint", "ck.json", "--checkpoint-every", "0.2"});
  double seconds = 0;
  const auto ended = interrupt_after_checkpoint(with_test_plugins(args), "ck.json", seconds);
  ASSERT_EQ(ended.status, 130) << describe(ended);
  EXPECT_LT(seconds, 2.0) << "from SIGINT to exit";
  EXPECT_EQ(json("ck.json")["complete"], false);
  // `gsdk perft` saves what a perft experiment of its one position saves.
  EXPECT_TRUE(json("ck.json")["progress"]["positions"][0].contains("distinct"))
      << json("ck.json")["progress"].dump().substr(0, 200);

  args[5] = "1"; // --threads 1
  args.insert(args.end(), {"--hash-mb", "4"});
  const Outcome resumed = run(with_test_plugins(args));
  ASSERT_EQ(resumed.status, 0) << describe(resumed);
  EXPECT_EQ(nodes_searched(resumed.out), nodes_searched(whole.out)) << "the resumed count is the whole count";
  EXPECT_NE(nodes_searched(whole.out), "");
  EXPECT_TRUE(contains(resumed.out, "\nHash: ")) << resumed.out;
  EXPECT_EQ(json("ck.json")["complete"], true);
}

// A checkpoint counted with tables cut the root into distinct states (PerftProgress::distinct); one counted without
// did not: neither resumes the other kind of count, and the refusal says how to resume it. (This needs the core's
// hashed perft, which marks its progress distinct: before it, every progress reads as not distinct.)
TEST_F(SignalsCli, APerftCheckpointResumesOnlyWithItsOwnHashing) {
  const std::vector<std::string> count = {"perft", "test_tree", "start", "8", "--threads", "2", "-q"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = count;
    args.insert(args.end(), extra.begin(), extra.end());
    return run(with_test_plugins(args));
  };
  const Outcome hashed = with({"--checkpoint", "hashed.json"});
  ASSERT_EQ(hashed.status, 0) << describe(hashed);
  ASSERT_EQ(with({"--checkpoint", "plain.json", "--no-hash"}).status, 0);
  EXPECT_EQ(json("hashed.json")["progress"]["positions"][0]["distinct"], true)
      << "the core's hashed count cuts its root into distinct states";
  EXPECT_EQ(json("plain.json")["progress"]["positions"][0]["distinct"], false);

  const Outcome unhashed = with({"--checkpoint", "hashed.json", "--no-hash"});
  EXPECT_EQ(unhashed.status, 2) << describe(unhashed);
  EXPECT_TRUE(contains(unhashed.err, "hashed.json: the checkpoint does not fit position 'start': it was counted with "
                                     "transposition tables (hashing), and this count is without them"))
      << unhashed.err;
  EXPECT_TRUE(contains(unhashed.err, "leave out --no-hash")) << unhashed.err;
  const Outcome rehashed = with({"--checkpoint", "plain.json"});
  EXPECT_EQ(rehashed.status, 2) << describe(rehashed);
  EXPECT_TRUE(contains(rehashed.err, "plain.json: the checkpoint does not fit position 'start': it was counted without "
                                     "transposition tables"))
      << rehashed.err;
  EXPECT_TRUE(contains(rehashed.err, "add --no-hash")) << rehashed.err;
  // With its own hashing, either resumes (other table sizes too).
  const Outcome again = with({"--checkpoint", "hashed.json", "--hash-mb", "3"});
  ASSERT_EQ(again.status, 0) << describe(again);
  EXPECT_EQ(nodes_searched(again.out), nodes_searched(hashed.out));
  EXPECT_EQ(with({"--checkpoint", "plain.json", "--no-hash"}).status, 0);
}

} // namespace
