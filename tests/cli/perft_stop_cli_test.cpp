// perft_stop_cli_test.cpp - CPU perft whose subtrees each take many seconds on one thread ends within two seconds
// of SIGINT, counting with a plugin's perft table (othello from depth 16: 56 subtrees of depth 13) and with the
// generic engine (test_nim from depth 25: 81 subtrees of 3^21 leaves, without the transposition tables that would
// count its few distinct positions at once): the subtree under way is dropped, not waited for. Othello is hashed (the
// default): its tables do not make depth 16 short.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "background_process.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::test::BackgroundGsdk;
using gsdk::test::contains;
using namespace std::chrono_literals;

TEST(PerftStopCli, CpuPerftWithLongSubtreesStopsWithinTwoSecondsOfSigint) {
  ASSERT_TRUE(std::filesystem::exists(gsdk::test::gsdk_executable())) << "gsdk was not built";
  gsdk::test::TempDir dir;
  const std::vector<std::vector<std::string>> counts = {
      {"perft", "othello", "start", "16", "--device", "cpu", "--threads", "1", "-q"},
      {"perft", "test_nim", "start", "25", "--param", "stones=1000", "--param", "max_take=3", "--threads", "1", "-q",
       "--no-hash", "--plugin-dir", gsdk::test::test_plugin_dir("valid").string()}};
  for (const auto& args : counts) {
    SCOPED_TRACE(args[1]);
    BackgroundGsdk process(args, dir.path());
    std::this_thread::sleep_for(1s);
    const auto sent = std::chrono::steady_clock::now();
    process.send(SIGINT);
    const BackgroundGsdk::Ended ended = process.wait(3s);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    ASSERT_TRUE(ended.in_time) << "still counting 3 s after SIGINT\nstderr:\n" << ended.err;
    EXPECT_EQ(ended.status, 130) << ended.err;
    EXPECT_LT(seconds, 2.0) << "from SIGINT to exit";
    EXPECT_TRUE(contains(ended.err, "interrupted by SIGINT: partial count")) << ended.err;
  }
}

} // namespace
