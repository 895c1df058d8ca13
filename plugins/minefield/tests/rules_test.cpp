// rules_test.cpp - the minefield's map, step rule, per-state game and text I/O.
#include <algorithm>
#include <numeric>
#include <set>

#include <gtest/gtest.h>

#include "minefield_test_util.hpp"

namespace minefield {
namespace {

using test::GameParams;
using test::make_game;

TEST(MinefieldBoard, PlacesExactlyTheMinesAndOneFlagFromTheMapSeed) {
  const Board a = make_board(46, 138, 2024), b = make_board(46, 138, 2024), c = make_board(46, 138, 2025);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_NE(a.cells, c.cells);
  EXPECT_EQ(std::count(a.cells.begin(), a.cells.end(), kMine), 138);
  EXPECT_EQ(std::count(a.cells.begin(), a.cells.end(), kFlag), 1);
  EXPECT_EQ(a.cells[a.flag], kFlag);
  EXPECT_EQ(a.starts.size(), 46u * 46 - 139);
  EXPECT_TRUE(std::is_sorted(a.starts.begin(), a.starts.end()));
  for (uint32_t s : a.starts) EXPECT_EQ(a.cells[s], kEmpty);
}

TEST(MinefieldBoard, MapsAreUniformOverCells) {
  // Over many seeds every cell of a 4x4 board holds the flag about equally often (1/16 each).
  std::vector<int> flags(16, 0);
  for (uint64_t seed = 0; seed < 16000; ++seed) ++flags[make_board(4, 3, seed).flag];
  for (int f : flags) EXPECT_NEAR(f, 1000, 150);
}

TEST(MinefieldBoard, RefusesMinesThatLeaveNoFreeCell) {
  EXPECT_NO_THROW(make_board(3, 7, 1)); // 7 mines, the flag, one free cell
  try {
    make_board(3, 8, 1);
    FAIL() << "8 mines on a 3x3 board were accepted";
  } catch (const gsdk::PluginError& e) {
    EXPECT_STREQ(e.what(), "mines = 8 leaves no empty cell on a 3x3 board of 9 cells (one is the flag, one at least "
                           "must be free): at most 7 mines");
  }
  GameParams p;
  p.mines = 5000;
  EXPECT_THROW(make_game(p), gsdk::PluginError);
}

TEST(MinefieldEnvironment, MovesRightDownLeftUpAndStopsAtWalls) {
  GameParams p;
  p.size = 5;
  p.mines = 0;
  const auto game = make_game(p);
  const Environment& env = game->environment();
  const uint32_t centre = 2 * 5 + 2;
  EXPECT_EQ(env.neighbour(centre, 0), centre + 1);
  EXPECT_EQ(env.neighbour(centre, 1), centre + 5);
  EXPECT_EQ(env.neighbour(centre, 2), centre - 1);
  EXPECT_EQ(env.neighbour(centre, 3), centre - 5);
  for (uint32_t row = 0; row < 5; ++row) {
    EXPECT_EQ(env.neighbour(row * 5 + 4, 0), row * 5 + 4) << "east wall";
    EXPECT_EQ(env.neighbour(row * 5, 2), row * 5) << "west wall";
  }
  for (uint32_t column = 0; column < 5; ++column) {
    EXPECT_EQ(env.neighbour(20 + column, 1), 20 + column) << "south wall";
    EXPECT_EQ(env.neighbour(column, 3), column) << "north wall";
  }
}

TEST(MinefieldEnvironment, RewardsAndEndsOnMinesAndTheFlag) {
  GameParams p;
  p.size = 12;
  p.mines = 30;
  const auto game = make_game(p);
  const Board& b = game->board();
  const Environment& env = game->environment();
  int mines = 0, flags = 0;
  for (uint32_t s : b.starts) {
    for (uint32_t a = 0; a < kActions; ++a) {
      const gsdk::qlearning::Transition t = env.step(s, a);
      EXPECT_EQ(t.next, env.neighbour(s, a));
      const uint8_t kind = b.cells[t.next];
      EXPECT_EQ(t.terminal, kind != kEmpty);
      EXPECT_EQ(t.reward, kind == kMine ? -1.0f : kind == kFlag ? 1.0f : 0.0f);
      mines += kind == kMine;
      flags += kind == kFlag;
    }
  }
  EXPECT_GT(mines, 0);
  EXPECT_GT(flags, 0);
}

TEST(MinefieldGame, AnAgentWalksUntilAMineTheFlagOrTheStepLimit) {
  GameParams p;
  p.size = 6;
  p.mines = 4;
  p.step_limit = 3;
  const auto game = make_game(p);
  State s{};
  game->initial_state(s);
  EXPECT_EQ(s.cell, game->board().starts.front());
  EXPECT_EQ(game->current_player(s), 0);
  uint32_t moves[kActions] = {};
  EXPECT_EQ(game->legal_moves(s, moves, nullptr), kActions);
  for (uint32_t a = 0; a < kActions; ++a) EXPECT_EQ(moves[a], a);
  // Bumping into walls three times ends the walk at the step limit with score 0.
  s = game->state_from_string("0,0");
  if (game->board().cells[s.cell] == kEmpty) {
    for (int i = 0; i < 3; ++i) game->apply_move(s, 3);
    EXPECT_EQ(s.cell, 0u);
    EXPECT_EQ(s.steps, 3u);
    EXPECT_EQ(game->current_player(s), GSDK_PLAYER_TERMINAL);
    EXPECT_EQ(game->score(s), 0);
  }
  State on_flag{game->board().flag, 1};
  EXPECT_EQ(game->current_player(on_flag), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(game->score(on_flag), 1);
  const uint32_t mine = static_cast<uint32_t>(std::find(game->board().cells.begin(), game->board().cells.end(), kMine) -
                                              game->board().cells.begin());
  EXPECT_EQ(game->score(State{mine, 1}), -1);
}

TEST(MinefieldGame, TextRoundTripsAndRefusesBadStates) {
  GameParams p;
  p.size = 10;
  const auto game = make_game(p);
  const State s = game->state_from_string("7,3,12");
  EXPECT_EQ(s.cell, 37u);
  EXPECT_EQ(s.steps, 12u);
  EXPECT_EQ(game->state_to_string(s), "7,3,12");
  EXPECT_EQ(game->state_from_string("0,9").cell, 90u);
  EXPECT_EQ(game->move_to_string(s, 1), "down");
  const auto message = [&](const char* text) {
    try {
      game->state_from_string(text);
    } catch (const gsdk::PluginError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("10,0"), "minefield state \"10,0\": column \"10\" is not an integer in [0, 9]; expected "
                             "\"column,row\" or \"column,row,steps\"");
  EXPECT_EQ(message("3,x"), "minefield state \"3,x\": row \"x\" is not an integer in [0, 9]; expected \"column,row\" "
                            "or \"column,row,steps\"");
  EXPECT_EQ(message("1,2,1001"), "minefield state \"1,2,1001\": steps \"1001\" is not an integer in [0, 1000]; "
                                 "expected \"column,row\" or \"column,row,steps\"");
  EXPECT_EQ(message("5"), "minefield state \"5\" has 1 comma-separated fields; expected \"column,row\" or "
                          "\"column,row,steps\"");
  EXPECT_EQ(message(""), "minefield state \"\" has 1 comma-separated fields; expected \"column,row\" or "
                         "\"column,row,steps\"");
}

TEST(MinefieldPicture, DrawsEveryCellAndAnArrowWhereTheTableDecides) {
  GameParams p;
  p.size = 8;
  p.mines = 5;
  const auto game = make_game(p);
  std::vector<float> q(64 * kActions, 0.0f);
  std::vector<uint8_t> blank, drawn;
  uint32_t w = 0, h = 0;
  game->policy_image(q.data(), nullptr, blank, w, h);
  EXPECT_EQ(h, 8u * 32 + 1);
  EXPECT_GT(w, h) << "the legend is beside the board";
  ASSERT_EQ(blank.size(), uint64_t{w} * h * 3);
  const uint32_t start = game->board().starts.front();
  q[start * kActions + 1] = 0.5f; // this cell's agent goes down
  game->policy_image(q.data(), nullptr, drawn, w, h);
  size_t changed = 0;
  for (size_t i = 0; i < blank.size(); ++i) changed += blank[i] != drawn[i];
  EXPECT_GT(changed, 30u) << "an arrow should replace the undecided dot";
  // The arrow stays inside its own cell.
  const uint32_t x0 = game->board().column(start) * 32, y0 = game->board().row(start) * 32;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      if (blank[(y * w + x) * 3] != drawn[(y * w + x) * 3]) {
        EXPECT_GE(x, x0);
        EXPECT_LT(x, x0 + 32);
        EXPECT_GE(y, y0);
        EXPECT_LT(y, y0 + 32);
      }
}

// Whether any pixel right of column `left` has colour (r, g, b).
bool legend_has(const std::vector<uint8_t>& rgb, uint32_t w, uint32_t h, uint32_t left, uint8_t r, uint8_t g,
                uint8_t b) {
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = left; x < w; ++x) {
      const uint8_t* p = &rgb[(uint64_t{y} * w + x) * 3];
      if (p[0] == r && p[1] == g && p[2] == b) return true;
    }
  return false;
}

// A legend beside the board says what the colours and marks mean: the mine's and the flag's swatches, the arrow,
// the undecided dot, and with a heat map its scale from white to red (the most visited cell). The picture's size
// does not depend on the visits (the host asks for it before drawing).
TEST(MinefieldPicture, HasALegendBesideTheBoard) {
  GameParams p;
  p.size = 8;
  p.mines = 5;
  const auto game = make_game(p);
  const std::vector<float> q(64 * kActions, 0.0f);
  std::vector<uint64_t> visits(64, 0);
  visits[game->board().starts.front()] = 1000;
  std::vector<uint8_t> plain, heat;
  uint32_t w = 0, h = 0, heat_w = 0, heat_h = 0;
  game->policy_image(q.data(), nullptr, plain, w, h);
  game->policy_image(q.data(), visits.data(), heat, heat_w, heat_h);
  EXPECT_EQ(heat_w, w);
  EXPECT_EQ(heat_h, h);
  const uint32_t board = 8 * 32 + 1;
  ASSERT_GT(w, board + 100) << "room for the legend's words";
  EXPECT_TRUE(legend_has(plain, w, h, board, 30, 30, 30)) << "the mine's swatch";
  EXPECT_TRUE(legend_has(plain, w, h, board, 40, 170, 60)) << "the flag's swatch";
  EXPECT_TRUE(legend_has(plain, w, h, board, 25, 45, 140)) << "the arrow";
  EXPECT_TRUE(legend_has(plain, w, h, board, 150, 150, 150)) << "the undecided dot";
  EXPECT_FALSE(legend_has(plain, w, h, board, 255, 0, 0)) << "no heat scale without a heat map";
  EXPECT_TRUE(legend_has(heat, w, h, board, 255, 0, 0)) << "the heat scale ends in the most visited cell's red";
}

} // namespace
} // namespace minefield
