// rules_test.cpp - connect_four's rules through its per-state table: wins along each kind of line, a full
// board drawn, full columns and finished games refused, and text: diagrams round-trip and impossible
// positions are refused with the reason.
#include <gtest/gtest.h>

#include "test_game.hpp"

namespace connect_four {
namespace {

using test::game;
using test::position;

// The message of the PluginError that reading `text` throws, or "" when it is read.
std::string refusal(std::string_view text) {
  try {
    position(text);
  } catch (const gsdk::PluginError& e) {
    return e.what();
  }
  return "";
}

std::vector<uint32_t> legal(const State& s) {
  std::vector<uint32_t> moves(game().max_moves());
  moves.resize(game().legal_moves(s, moves.data(), nullptr));
  return moves;
}

TEST(Rules, PlayersAlternateFromX) {
  State s;
  game().initial_state(s);
  EXPECT_EQ(game().current_player(s), 0);
  EXPECT_EQ(legal(s), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6}));
  game().apply_move(s, 3);
  EXPECT_EQ(game().current_player(s), 1);
  EXPECT_EQ(game().state_to_string(s), "......./......./......./......./......./...X...");
}

TEST(Rules, FourInARowWinsAlongEveryLine) {
  struct Win {
    const char* moves;
    const char* line;
    int64_t score;
  };
  for (const Win& win :
       {Win{"1122334", "the bottom row", 1}, Win{"1212121", "a column", 1}, Win{"12234334544", "a rising diagonal", 1},
        Win{"76654554344", "a falling diagonal", 1}, Win{"21212131", "O's column", -1}}) {
    const std::string_view moves = win.moves;
    const State before = position(moves.substr(0, moves.size() - 1));
    EXPECT_NE(game().current_player(before), GSDK_PLAYER_TERMINAL) << win.line;
    const State end = position(moves);
    EXPECT_EQ(game().current_player(end), GSDK_PLAYER_TERMINAL) << win.line;
    EXPECT_EQ(game().score(end), win.score) << win.line;
    EXPECT_TRUE(legal(end).empty()) << win.line;
  }
  // X's three discs on top of column 1 and one at the bottom of column 2 are neighbours in the bitboard's
  // bit order, but no line: the spare bit above each column keeps them apart.
  EXPECT_NE(game().current_player(position("21717117161")), GSDK_PLAYER_TERMINAL);
}

TEST(Rules, FullBoardWithoutFourIsADraw) {
  const State full = position("225344533673453576212645522737771141641166");
  EXPECT_EQ(game().current_player(full), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(game().score(full), 0);
  EXPECT_TRUE(legal(full).empty());
}

TEST(Rules, FullColumnsAndFinishedGamesRefuseMoves) {
  EXPECT_EQ(legal(position("444444")), (std::vector<uint32_t>{0, 1, 2, 4, 5, 6}));
  EXPECT_EQ(game().move_to_string(position(""), 6), "7");
  EXPECT_NE(refusal("4444444").find("move 7 ('4'): column 4 is full"), std::string::npos) << refusal("4444444");
  EXPECT_NE(refusal("11223344").find("move 8 ('4') comes after the end of the game (X has four in a row)"),
            std::string::npos)
      << refusal("11223344");
  EXPECT_NE(refusal("44a").find("move 3 ('a') is not a column 1-7"), std::string::npos) << refusal("44a");
  EXPECT_NE(refusal("480").find("move 2 ('8') is not a column 1-7"), std::string::npos);
  EXPECT_NE(refusal("4 4").find("move 2 (' ')"), std::string::npos);
}

TEST(Text, DiagramsRoundTripThroughEveryPlyOfAGame) {
  const std::string moves = "225344533673453576212645522737771141641166";
  for (size_t n = 0; n <= moves.size(); ++n) {
    const State s = position(std::string_view(moves).substr(0, n));
    const std::string diagram = game().state_to_string(s);
    const State back = position(diagram);
    EXPECT_EQ(back.discs[0], s.discs[0]) << diagram;
    EXPECT_EQ(back.discs[1], s.discs[1]) << diagram;
  }
  EXPECT_EQ(game().state_to_string(position("4453")), "......./......./......./......./...O.../..OXX..");
}

TEST(Text, ImpossibleDiagramsAreRefusedWithTheReason) {
  const std::pair<const char*, const char*> cases[] = {
      {"......./......./......./......./.......", "has 5 rows, expected 6"},
      {"......./......./......./......./......./......./.......", "has more than 6 rows"},
      {"......./......./......./......./......./...X...//", "has more than 6 rows"},
      {"......./......./......./......./......./..X", "row 6 from the top has 3 cells, expected 7"},
      {"......./......./......./......./......./...x...", "row 6 from the top, column 4: 'x' is not"},
      {"......./......./......./......./...X.../.......", "column 4 has a disc above an empty cell"},
      {"......./......./......./......./......./..XXX..", "X has 3 discs and O 0"},
      {"......./......./......./......./......./...O...", "X has 0 discs and O 1"},
      {"......./......./O....../O....../O....../OXXXX..", "both X and O have four in a row"},
      {"......./......./......./O....../O....../OXXXX.O", "X has four in a row, but O moved after that"},
      {"......./......./......./......./...X.../...O...", "no game reaches this position"},
  };
  for (const auto& [text, reason] : cases)
    EXPECT_NE(refusal(text).find(reason), std::string::npos) << text << ": " << refusal(text);
  // The same discs in a possible order are fine.
  EXPECT_EQ(refusal("......./......./......./......./...O.../...X..."), "");
}

} // namespace
} // namespace connect_four
