// gtp_cli_test.cpp - `gsdk gtp` driven through its standard input on test_nim: exact GTP v2 responses
// ("=[id] ..." / "?[id] ...", each ended by a blank line), ids echoed, comments and blank lines
// ignored, illegal and out-of-turn moves, undo, showboard, final_score, unknown commands, quit; and bad
// options exit 2. boardsize accepts the game's own size only: test_board's board_size parameter,
// othello's 8 (read from its state text), none for test_nim unless --board-size gives one.
#include <gtest/gtest.h>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

class GtpCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(gsdk::test::gsdk_executable())) << "gsdk was not built";
  }
  Outcome gtp(const std::string& input, std::vector<std::string> options = {"--agent", "uct:playouts=3000"},
              const std::string& game = "test_nim") {
    std::vector<std::string> args = {"gtp", game};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back("--plugin-dir");
    args.push_back(gsdk::test::test_plugin_dir("valid").string());
    return gsdk::test::gsdk_run(args, dir.path(), &input);
  }

  gsdk::test::TempDir dir;
};

TEST_F(GtpCli, ASessionGetsExactResponses) {
  const Outcome r = gtp("1 protocol_version\n"
                        "name\n"
                        "\n"
                        "# a comment line is ignored\n"
                        "2 known_command genmove\n"
                        "known_command fly\n"
                        "boardsize 8\n"
                        "3 boardsize 19\n"
                        "komi 6.5\n"
                        "clear_board\n"
                        "play b take1\n"
                        "4 play w take4\n"
                        "play b take2\n"
                        "play w TAKE3\n"
                        "showboard\n"
                        "genmove b\n"
                        "undo\n"
                        "final_score\n"
                        "5 fly\n"
                        "play purple take1\n"
                        "quit\n"
                        "name\n",
                        {"--agent", "uct:playouts=3000", "--board-size", "8"});
  ASSERT_EQ(r.status, 0) << describe(r);
  // 21 stones: b takes 1 (20 left), w may not take 4, b may not move twice, w takes 3 (17 left); black
  // wins only by leaving a multiple of 4, so genmove takes 1. After undo (17 left, black to move) the
  // game is not over and final_score reports score() of the current state: test_nim credits the
  // last mover, white.
  EXPECT_EQ(r.out, "=1 2\n\n"
                   "= gsdk\n\n"
                   "=2 true\n\n"
                   "= false\n\n"
                   "= \n\n"
                   "?3 unacceptable size: test_nim plays on a board of size 8 here (--board-size)\n\n"
                   "= \n\n"
                   "= \n\n"
                   "= \n\n"
                   "?4 illegal move\n\n"
                   "? illegal move\n\n"
                   "= \n\n"
                   "= \nstones=17 to_move=0\n\n"
                   "= take1\n\n"
                   "= \n\n"
                   "= W+1\n\n"
                   "?5 unknown command\n\n"
                   "? syntax error\n\n"
                   "= \n\n");
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(GtpCli, ListCommandsNamesOnePerLine) {
  const Outcome r = gtp("list_commands\n");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= boardsize\nclear_board\nfinal_score\ngenmove\nknown_command\nkomi\nlist_commands\nname\nplay\n"
                   "protocol_version\nquit\nshowboard\nundo\nversion\n\n");
}

TEST_F(GtpCli, GenmoveAtTheEndPassesAndTheScoreIsFinal) {
  const Outcome r = gtp("play b take3\nplay w take3\nplay b take3\nplay w take3\nplay b take3\nplay w take3\n"
                        "play b take3\ngenmove w\nfinal_score\nundo\nundo\nundo\nundo\nundo\nundo\nundo\n8 undo\n",
                        {"--agent", "random", "--param", "stones=21"});
  ASSERT_EQ(r.status, 0) << describe(r);
  // Black took the last stone: game over, black won.
  EXPECT_TRUE(contains(r.out, "= pass\n\n= B+1\n\n")) << r.out;
  EXPECT_TRUE(r.out.ends_with("= \n\n?8 cannot undo\n\n")) << r.out;
}

TEST_F(GtpCli, BoardsizeFollowsTheBoardSizeParameter) {
  const std::string input = "boardsize 5\nboardsize 7\n2 boardsize 12\nboardsize 0\nboardsize five\n";
  Outcome r = gtp(input, {"--agent", "random"}, "test_board");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= \n\n"
                   "? unacceptable size: test_board plays on a board of size 5 here (its board_size parameter); "
                   "start the engine with --param board_size=7 for that size\n\n"
                   "?2 unacceptable size: test_board plays on a board of size 5 here (its board_size parameter); "
                   "its board_size is from 3 to 9\n\n"
                   "? unacceptable size: test_board plays on a board of size 5 here (its board_size parameter); "
                   "its board_size is from 3 to 9\n\n"
                   "? syntax error\n\n");
  r = gtp("boardsize 7\nboardsize 5\n", {"--agent", "random", "--param", "board_size=7"}, "test_board");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= \n\n? unacceptable size: test_board plays on a board of size 7 here (its board_size parameter); "
                   "start the engine with --param board_size=5 for that size\n\n");
}

TEST_F(GtpCli, BoardsizeReadsASquareBoardFromTheStateText) {
  // othello declares no board_size: its state text starts with the 64 squares of an 8x8 board.
  const Outcome r = gtp("boardsize 8\nboardsize 19\nplay b d3\n", {"--agent", "random"}, "othello");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= \n\n"
                   "? unacceptable size: othello plays on a board of size 8 here (its state text, a board of 8x8 "
                   "cells)\n\n"
                   "= \n\n");
}

TEST_F(GtpCli, AGameWithoutABoardSizeRefusesEverySizeUnlessTold) {
  Outcome r = gtp("boardsize 8\n", {"--agent", "random"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "? unacceptable size: test_nim states no board size (no board_size parameter, no square board in "
                   "its state text); start the engine with --board-size 8 to accept this one\n\n");
  r = gtp("boardsize 8\n", {"--agent", "random", "--board-size", "8"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= \n\n");
  // A --board-size that contradicts the game's own size is bad usage.
  r = gtp("", {"--agent", "random", "--board-size", "6"}, "test_board");
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(
      contains(r.err, "--board-size 6: game 'test_board' plays on a board of size 5 (its board_size parameter)"))
      << r.err;
}

TEST_F(GtpCli, BadOptionsExitTwo) {
  Outcome r = gtp("", {"--agent", "uct:speed=9"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "unknown key 'speed' for uct")) << r.err;
  r = gtp("", {"--param", "stones=0"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "stones")) << r.err;
}

} // namespace
