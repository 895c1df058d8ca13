// gtp_board_test.cpp - the board GTP recognises in a state's text (host/src/play/gtp_board): Othello's square word
// and the two-player template's Connect Four diagram (rows separated by '/') are boards and showboard draws them
// as grids; texts of other shapes, or of more than three symbols (a FEN), are not, and are shown as they are.
#include <gtest/gtest.h>

#include "play/gtp_board.hpp"

namespace {

using gsdk::host::gtp_board_picture;
using gsdk::host::gtp_grid;

TEST(GtpBoard, ASquareWordIsABoard) {
  const auto grid = gtp_grid("...XO....");
  ASSERT_TRUE(grid);
  EXPECT_EQ(grid->width, 3u);
  EXPECT_EQ(grid->height, 3u);
  EXPECT_FALSE(gtp_grid("........"));  // 8 cells: no square
  EXPECT_FALSE(gtp_grid("abcdefghi")); // nine symbols
}

// sdk/templates/two-player's state text: the six rows of a 7x6 board from the top.
constexpr const char* kConnectFour = "......./......./......./......./...O.../..OXX..";

TEST(GtpBoard, RowsSeparatedBySlashesAreABoard) {
  const auto grid = gtp_grid(kConnectFour);
  ASSERT_TRUE(grid);
  EXPECT_EQ(grid->width, 7u);
  EXPECT_EQ(grid->height, 6u);
  EXPECT_EQ(gtp_board_picture(kConnectFour), "   a b c d e f g\n"
                                             "1  . . . . . . .\n"
                                             "2  . . . . . . .\n"
                                             "3  . . . . . . .\n"
                                             "4  . . . . . . .\n"
                                             "5  . . . O . . .\n"
                                             "6  . . O X X . .");
  EXPECT_EQ(gtp_board_picture("XO/OX X"), "   a b\n1  X O\n2  O X\nX");
}

TEST(GtpBoard, OtherTextsAreShownAsTheyAre) {
  for (const char* text :
       {"....../......./.......", "......./", "/.......", "......", "stones=17 to_move=0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "PPPPPPPP/pppppppp/RRRRRRRR/NNNNNNNN"}) {
    EXPECT_FALSE(gtp_grid(std::string(text).substr(0, std::string(text).find(' ')))) << text;
    EXPECT_EQ(gtp_board_picture(text), text);
  }
}

} // namespace
