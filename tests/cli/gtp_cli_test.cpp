// gtp_cli_test.cpp - `gsdk gtp` driven through its standard input on test_nim: exact GTP v2 responses
// ("=[id] ..." / "?[id] ...", each ended by a blank line), ids echoed, comments and blank lines
// ignored, illegal and out-of-turn moves (each with its reason; a word that is no move of the game a syntax error),
// undo, showboard, final_score, unknown commands, quit, a pass on a finished game accepted as genmove passes there;
// and bad options exit 2. On othello: showboard's grid, explicit and implied passes and undo of one play; the GTP
// clock bounding each genmove; malformed commands answered with located syntax errors; the default agent. boardsize
// accepts the game's own size: any of test_board's board_size parameter (the game made again), othello's 8 (read from
// its state text), none for test_nim unless --board-size gives one.
#include <algorithm>
#include <chrono>

#include <gtest/gtest.h>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

class GtpCli : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_TRUE(std::filesystem::exists(gsdk::test::gsdk_executable())) << "gsdk was not built"; }
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
                   "?4 illegal move: w take4 (not legal in this position)\n\n"
                   "? illegal move: b take2 (it is white's turn)\n\n"
                   "= \n\n"
                   "= \nstones=17 to_move=0\n\n"
                   "= take1\n\n"
                   "= \n\n"
                   "= W+1\n\n"
                   "?5 unknown command 'fly' (list_commands lists the commands)\n\n"
                   "? syntax error: 'purple' is not a colour (b, w, black, white)\n\n"
                   "= \n\n");
  // Standard error has one line, naming the agent, and nothing of the protocol.
  EXPECT_TRUE(r.err.starts_with("gsdk: gtp: test_nim played by uct (")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(GtpCli, ListCommandsNamesOnePerLine) {
  const Outcome r = gtp("list_commands\n");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= boardsize\nclear_board\nfinal_score\ngenmove\nkgs-time_settings\nknown_command\nkomi\n"
                   "list_commands\nname\nplay\nprotocol_version\nquit\nshowboard\ntime_left\ntime_settings\nundo\n"
                   "version\n\n");
}

TEST_F(GtpCli, KnownCommandAgreesWithListCommands) {
  const std::vector<std::string> listed = {"boardsize",
                                           "clear_board",
                                           "final_score",
                                           "genmove",
                                           "kgs-time_settings",
                                           "known_command",
                                           "komi",
                                           "list_commands",
                                           "name",
                                           "play",
                                           "protocol_version",
                                           "quit",
                                           "showboard",
                                           "time_left",
                                           "time_settings",
                                           "undo",
                                           "version"};
  std::string input, expected;
  for (const auto& command : listed) {
    input += "known_command " + command + "\n";
    expected += "= true\n\n";
  }
  input += "known_command reg_genmove\nknown_command\n";
  expected += "= false\n\n= false\n\n";
  const Outcome r = gtp(input, {"--agent", "random"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, expected);
}

TEST_F(GtpCli, ShowboardDrawsTheSquareBoardAsAGrid) {
  const Outcome r = gtp("play b d3\nshowboard\n", {"--agent", "random"}, "othello");
  ASSERT_EQ(r.status, 0) << describe(r);
  // Column letters over the board, row numbers before each row (row 1 on top, as othello names d3), and the
  // rest of the state text (the side to move) below.
  EXPECT_EQ(r.out, "= \n\n"
                   "= \n"
                   "   a b c d e f g h\n"
                   "1  - - - - - - - -\n"
                   "2  - - - - - - - -\n"
                   "3  - - - X - - - -\n"
                   "4  - - - X X - - -\n"
                   "5  - - - X O - - -\n"
                   "6  - - - - - - - -\n"
                   "7  - - - - - - - -\n"
                   "8  - - - - - - - -\n"
                   "O\n\n");
}

// 42 moves of a GRhino game after which black has no move and must pass; white then plays h5.
const char* const kBeforeBlackPasses = "b f5\nw d6\nb c6\nw f6\nb f7\nw c5\nb c4\nw b5\nb a4\nw f3\nb d3\nw e3\nb g3\n"
                                       "w e2\nb d1\nw c2\nb b3\nw c3\nb b2\nw c1\nb f2\nw a1\nb e6\nw a3\nb b6\nw a5\n"
                                       "b f4\nw h3\nb g2\nw g6\nb h6\nw a6\nb a2\nw b4\nb b1\nw d2\nb g4\nw e1\nb f1\n"
                                       "w g1\nb a7\nw a8\n";

std::string plays(const std::string& moves) {
  std::string input;
  for (size_t begin = 0, end; (end = moves.find('\n', begin)) != std::string::npos; begin = end + 1)
    input += "play " + moves.substr(begin, end - begin) + "\n";
  return input;
}

TEST_F(GtpCli, PassesArePlayedExplicitlyOrImpliedAndOneUndoTakesBackOnePlay) {
  // Implied: white is told to move while black has only a pass. One undo takes back h5 and the implied pass,
  // leaving black to move; then the pass played explicitly, a pass black may not play twice, and h5 again.
  const std::string input = plays(kBeforeBlackPasses) + "play w h5\nundo\nshowboard\nplay b pass\nplay b pass\n"
                                                        "play w h5\nundo\nundo\nshowboard\n";
  const Outcome r = gtp(input, {"--agent", "random"}, "othello");
  ASSERT_EQ(r.status, 0) << describe(r);
  std::string expected;
  for (int k = 0; k < 42; ++k) expected += "= \n\n";
  expected += "= \n\n= \n\n";
  ASSERT_TRUE(r.out.starts_with(expected)) << r.out;
  const std::string rest = r.out.substr(expected.size());
  // showboard after the undo: black (X) to move.
  EXPECT_TRUE(rest.starts_with("= \n   a b c d e f g h\n")) << rest;
  EXPECT_TRUE(contains(rest, "\nX\n\n= \n\n? illegal move: b pass (it is white's turn)\n\n= \n\n= \n\n= \n\n")) << rest;
  // Two undos take back h5 and the explicit pass: black to move again.
  EXPECT_TRUE(rest.ends_with("\nX\n\n")) << rest;
}

TEST_F(GtpCli, APassIsIllegalWhileTheSideHasMoves) {
  const Outcome r = gtp("play b pass\nplay w pass\n", {"--agent", "random"}, "othello");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "? illegal move: b pass (not legal in this position)\n\n"
                   "? illegal move: w pass (it is black's turn)\n\n");
}

// A word that cannot be a move of the game is a syntax error; a move of the game that cannot be played now is an
// illegal move, and the answer says why (an occupied square, the other side's turn, the end of the game).
TEST_F(GtpCli, AnUnparseableMoveAndAnIllegalOneGetDifferentAnswers) {
  Outcome r = gtp("play b zz\nplay b d4\nplay b D3\nplay b c4\nplay w 3\n", {"--agent", "random"}, "othello");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "? syntax error: cannot parse move 'zz' (othello's moves are written like d3; or pass)\n\n"
                   "? illegal move: b d4 (not legal in this position)\n\n"
                   "= \n\n"
                   "? illegal move: b c4 (it is white's turn)\n\n"
                   "? syntax error: cannot parse move '3' (othello's moves are written like d3; or pass)\n\n");
  r = gtp("play b take9\nplay b 12\n", {"--agent", "random"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "? illegal move: b take9 (not legal in this position)\n\n"
                   "? syntax error: cannot parse move '12' (test_nim's moves are written like take1; or pass)\n\n");
}

// One rule for pass, as GTP has it: on a finished game `play COLOUR pass` and `genmove` both pass and change
// nothing, and any other move is illegal; while the game goes on, a game without a pass move (test_nim) never
// passes.
TEST_F(GtpCli, APassOnAFinishedGameIsAcceptedAsGenmoveAnswersOne) {
  const std::string finish = "play b take3\nplay w take3\nplay b take3\nplay w take3\nplay b take3\nplay w take3\n"
                             "play b take3\n";
  const Outcome r =
      gtp("play b pass\n" + finish + "play w pass\nplay b pass\ngenmove w\nplay w take1\nundo\nshowboard\n",
          {"--agent", "random", "--param", "stones=21"});
  ASSERT_EQ(r.status, 0) << describe(r);
  std::string expected = "? illegal move: b pass (not legal in this position)\n\n";
  for (int k = 0; k < 7; ++k) expected += "= \n\n";
  // The passes change nothing: one undo takes back black's last take3.
  expected += "= \n\n= \n\n= pass\n\n? illegal move: w take1 (the game is over)\n\n= \n\n= \nstones=3 to_move=0\n\n";
  EXPECT_EQ(r.out, expected);
}

// A game with a board_size parameter plays on any size of its range that boardsize asks for, without --board-size or
// a restart: the game is made again with that size (a new game); a size outside the range is refused with it.
TEST_F(GtpCli, BoardsizeSetsTheBoardSizeParameter) {
  const std::string input = "boardsize 5\nboardsize 7\nshowboard\n2 boardsize 12\nboardsize 0\nboardsize five\n"
                            "play b g7\nundo\nundo\n";
  Outcome r = gtp(input, {"--agent", "random"}, "test_board");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= \n\n"
                   "= \n\n"
                   "= \n"
                   "   a b c d e f g\n"
                   "1  . . . . . . .\n"
                   "2  . . . . . . .\n"
                   "3  . . . . . . .\n"
                   "4  . . . . . . .\n"
                   "5  . . . . . . .\n"
                   "6  . . . . . . .\n"
                   "7  . . . . . . .\n"
                   "X\n\n"
                   "?2 unacceptable size: test_board plays on a board of size 7 here (its board_size parameter); "
                   "its board_size is from 3 to 9\n\n"
                   "? unacceptable size: test_board plays on a board of size 7 here (its board_size parameter); "
                   "its board_size is from 3 to 9\n\n"
                   "? syntax error\n\n"
                   "= \n\n"
                   "= \n\n"
                   "? cannot undo\n\n");
  // --param board_size gives the size the engine starts with; boardsize still changes it.
  r = gtp("boardsize 7\nplay b g7\nboardsize 3\nplay b g7\nplay b c3\n",
          {"--agent", "random", "--param", "board_size=7"}, "test_board");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= \n\n= \n\n= \n\n? illegal move: b g7 (not legal in this position)\n\n= \n\n");
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

// A budget that never ends (2^53 playouts) unless the clock's budget replaces it: genmove answers inside the time.
TEST_F(GtpCli, TimeSettingsBoundEachMove) {
  const std::vector<std::string> endless = {"--agent", "uct:playouts=9e15", "--param", "stones=300"};
  for (const char* clock : {"time_settings 0 1 1", "kgs-time_settings byoyomi 0 1 3", "kgs-time_settings absolute 2",
                            "time_settings 1 0 0\ntime_left b 1 0", "kgs-time_settings canadian 0 4 4"}) {
    const auto began = std::chrono::steady_clock::now();
    const Outcome r = gtp(std::string(clock) + "\ngenmove b\ngenmove w\n", endless);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    ASSERT_EQ(r.status, 0) << clock << ": " << describe(r);
    EXPECT_TRUE(contains(r.out, "\n\n= take")) << clock << ": " << r.out;
    EXPECT_FALSE(contains(r.out, "?")) << clock << ": " << r.out;
    // Two moves of at most a second each, and the process's start: a loose bound, not a timing.
    EXPECT_LT(seconds, 6.0) << clock;
  }
}

TEST_F(GtpCli, NoTimeLimitLeavesTheAgentsBudget) {
  // byo_yomi_time > 0 with 0 stones means no time limit; kgs none too: the spec's 3000 playouts decide.
  const Outcome r = gtp("time_settings 0 1 0\ngenmove b\nkgs-time_settings none\nplay w take1\ngenmove b\n",
                        {"--agent", "uct:playouts=3000", "--param", "stones=9"});
  ASSERT_EQ(r.status, 0) << describe(r);
  // 9 stones: take1 leaves 8; after white's take1, 7: take3 leaves 4. Both the only winning moves.
  EXPECT_EQ(r.out, "= \n\n= take1\n\n= \n\n= \n\n= take3\n\n");
}

TEST_F(GtpCli, MalformedTimeCommandsAreRefusedAndTheEngineGoesOn) {
  const Outcome r = gtp("time_settings 1 2\n2 time_settings a 0 0\ntime_settings 0 0 0\ntime_left purple 3 0\n"
                        "time_left b x 0\nkgs-time_settings weird\nkgs-time_settings absolute\n"
                        "kgs-time_settings canadian 0 4 0\ngenmove w x\nplay b\nundo now\nname\n");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(
      r.out,
      "? syntax error: time_settings expects main_time byo_yomi_time byo_yomi_stones\n\n"
      "?2 syntax error: time_settings expects main_time byo_yomi_time byo_yomi_stones (seconds, seconds, a count), "
      "got 'a 0 0'\n\n"
      "? syntax error: time_settings 0 0 0 leaves no time to move (byo_yomi_time > 0 with 0 stones means no "
      "limit)\n\n"
      "? syntax error: time_left expects a colour (b, w, black, white), seconds and stones\n\n"
      "? syntax error: time_left expects a colour, seconds and a count of stones, got 'x 0'\n\n"
      "? syntax error: kgs-time_settings expects none, absolute, byoyomi or canadian and their times, got "
      "'weird'\n\n"
      "? syntax error: kgs-time_settings expects absolute MAIN_TIME (seconds above 0), got 'absolute'\n\n"
      "? syntax error: kgs-time_settings expects canadian MAIN_TIME BYO_YOMI_TIME STONES (STONES at least 1), "
      "got 'canadian 0 4 0'\n\n"
      "? syntax error: genmove expects a colour, e.g. genmove b\n\n"
      "? syntax error: play expects a colour and a move, e.g. play b d3\n\n"
      "? syntax error: undo takes no arguments\n\n"
      "= gsdk\n\n");
}

TEST_F(GtpCli, WithoutAnAgentTheDefaultPlays) {
  const Outcome r = gtp("time_settings 0 1 1\ngenmove b\n", {});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "= \n\n= take1\n\n");                             // 21 stones: take1 leaves 20, a multiple of 4
  EXPECT_TRUE(contains(r.err, "test_nim played by uct (")) << r.err; // test_nim has no evaluation
}

// A game with an evaluation gets alpha-beta; in tic-tac-toe it takes the win on offer (x has 0 and 1).
TEST_F(GtpCli, WithoutAnAgentAGameWithAnEvaluationGetsAlphaBeta) {
  const Outcome r =
      gtp("time_settings 0 1 1\nplay b 0\nplay w 4\nplay b 1\nplay w 8\ngenmove b\n", {}, "test_tictactoe");
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "test_tictactoe played by alphabeta (time=1 s")) << r.err;
  EXPECT_TRUE(r.out.ends_with("= 2\n\n")) << r.out;
}

TEST_F(GtpCli, BadOptionsExitTwo) {
  Outcome r = gtp("", {"--agent", "uct:speed=9"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "unknown key 'speed' for uct")) << r.err;
  r = gtp("", {"--param", "stones=0"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "stones")) << r.err;
  r = gtp("", {"--agent", "alphabeta:depth=3"}); // test_nim has no evaluation
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "game 'test_nim' has no evaluation table (gsdk.evaluation.v1): alphabeta needs one"))
      << r.err;
}

} // namespace
