// bench_cli_test.cpp - `gsdk bench` as a first user meets it: without --playouts each timed run gets as many
// playouts as take --seconds here (measured, so the default suite ends in about a minute on any device);
// --playouts takes scientific notation like every other count; off a terminal a progress line comes every few
// seconds; SIGINT ends the suite with the report of what was measured and exit status 130.
#include <csignal>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "background_process.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::test::BackgroundGsdk;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;
using namespace std::chrono_literals;

class BenchCli : public ::testing::Test {
protected:
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  nlohmann::json report() { return nlohmann::json::parse(gsdk::test::read_file(dir / "bench-results.json")); }
  gsdk::test::TempDir dir;
};

TEST_F(BenchCli, WithoutPlayoutsEachRunLastsAboutTheTimeTarget) {
  const Outcome r = run({"bench", "--game", "graveler", "--device", "cpu", "--seconds", "0.5", "--repeat", "1"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const nlohmann::json bench = report();
  ASSERT_EQ(bench["cases"].size(), 1u) << bench.dump(1);
  const nlohmann::json& only = bench["cases"][0];
  EXPECT_EQ(only["playouts_from"], "--seconds");
  // graveler's batch playouts run millions a second on any CPU: a fixed small count would end in microseconds.
  EXPECT_GT(only["playouts"].get<uint64_t>(), 1'000'000u) << only.dump(1);
  // Loose bounds: the rate is measured on a machine that may be busy with other work.
  EXPECT_GT(only["wall_ms_median"].get<double>(), 100.0) << only.dump(1);
  EXPECT_LT(only["wall_ms_median"].get<double>(), 5000.0) << only.dump(1);
}

TEST_F(BenchCli, PlayoutsTakeScientificNotation) {
  const Outcome r = run({"bench", "--game", "graveler", "--device", "cpu", "--playouts", "1e6", "--repeat", "1"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(report()["cases"][0]["playouts"], 1'000'000u);
  EXPECT_EQ(report()["cases"][0]["playouts_from"], "--playouts");
  for (const std::string wrong : {"1.5", "1e-3", "2.5", "-1e6", "1e", "e6"}) {
    const Outcome refused = run({"bench", "--game", "graveler", "--playouts", wrong});
    EXPECT_EQ(refused.status, 2) << wrong << "\n" << describe(refused);
    EXPECT_TRUE(contains(refused.err, "the argument ('" + wrong + "') for option '--playouts' is invalid"))
        << refused.err;
  }
  const Outcome seconds = run({"bench", "--seconds", "0"});
  EXPECT_EQ(seconds.status, 2) << describe(seconds);
  EXPECT_TRUE(contains(seconds.err, "--seconds must be above 0 and at most 86400, got 0")) << seconds.err;
}

TEST_F(BenchCli, HelpSaysWhatTheDefaultsAre) {
  const Outcome r = run({"bench", "--help"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "(default: as many as")) << r.out;
  EXPECT_TRUE(contains(r.out, "--seconds arg (=2)")) << r.out;
  EXPECT_FALSE(contains(r.out, "1e9")) << r.out;
}

TEST_F(BenchCli, OffATerminalProgressLinesComeThenSigintWritesThePartialReport) {
  BackgroundGsdk bench({"bench", "--game", "graveler", "--device", "cpu", "--seconds", "1", "--repeat", "1000"},
                       dir.path());
  // The first progress line comes about 5 s into the timed runs; several runs have completed by then.
  const auto give_up = std::chrono::steady_clock::now() + 120s;
  while (!contains(gsdk::test::read_file(dir / ".stderr"), "graveler cpu: ") &&
         std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(50ms);
  bench.send(SIGINT);
  const BackgroundGsdk::Ended ended = bench.wait(20s);
  ASSERT_TRUE(ended.in_time) << describe(ended);
  EXPECT_EQ(ended.status, 130) << describe(ended);
  EXPECT_TRUE(contains(ended.err, "/s, ETA ")) << "a progress line gives the rate and the time left\n" << ended.err;
  EXPECT_TRUE(contains(ended.err, "interrupted by SIGINT")) << ended.err;
  EXPECT_TRUE(contains(ended.out, "sha1:")) << "the measured case's row is printed\n" << ended.out;
  const nlohmann::json bench_report = report();
  EXPECT_EQ(bench_report["interrupted"]["signal"], "SIGINT") << bench_report.dump(1);
  ASSERT_EQ(bench_report["cases"].size(), 1u) << bench_report.dump(1);
  const unsigned runs = bench_report["cases"][0]["repeat"].get<unsigned>();
  EXPECT_GE(runs, 1u) << bench_report.dump(1);
  EXPECT_LT(runs, 1000u) << bench_report.dump(1);
  EXPECT_EQ(bench_report["cases"][0]["wall_ms"].size(), runs) << bench_report.dump(1);
  // The progress counts the playouts of every timed run against all of them: repeat x playouts per run.
  const uint64_t per_run = bench_report["cases"][0]["playouts"].get<uint64_t>();
  EXPECT_TRUE(contains(ended.err, " of " + std::to_string(1000 * per_run) + " playouts), ")) << per_run << "\n"
                                                                                             << ended.err;
}

} // namespace
