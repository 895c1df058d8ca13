// board_text_test.cpp - the board text: round trips, the accepted spellings, and a message that names
// the problem for each kind of bad input.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "rules/board_text.hpp"

namespace othello {
namespace {

const std::string kStartText = "---------------------------OX------XO--------------------------- X";

std::string error_of(const std::string& text) {
  try {
    parse_text(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(OthelloBoardText, TheStartPositionReadsAndWritesInTheEdaxForm) {
  EXPECT_EQ(to_text(start_position()), kStartText);
  const Position p = parse_text(kStartText);
  EXPECT_EQ(p.own, start_position().own);
  EXPECT_EQ(p.opponent, start_position().opponent);
  EXPECT_EQ(p.side, kBlack);
  EXPECT_EQ(to_text(parse_text("start")), kStartText);
}

TEST(OthelloBoardText, AcceptsOtherSpellingsRowsOnSeparateLinesAndWhiteToMove) {
  const std::string rows = "........\n........\n........\n...ow*..\n...*o...\n........\n........\n........\nwhite";
  const Position p = parse_text(rows);
  EXPECT_EQ(p.side, kWhite);
  EXPECT_EQ(to_text(p), "---------------------------OOX-----XO--------------------------- O");
  EXPECT_EQ(to_text(parse_text(to_text(p))), to_text(p));
}

TEST(OthelloBoardText, RejectsBadInputNamingWhatIsWrong) {
  EXPECT_NE(error_of(kStartText.substr(0, 40)).find("has 40 squares, expected 64"), std::string::npos);
  EXPECT_NE(error_of("Q" + kStartText.substr(1)).find("square a1) is 'Q'"), std::string::npos);
  EXPECT_NE(error_of(kStartText.substr(0, 64)).find("side to move is missing"), std::string::npos);
  EXPECT_NE(error_of(kStartText.substr(0, 64) + " Z").find("side to move is 'Z'"), std::string::npos);
  EXPECT_NE(error_of(kStartText + " extra").find("unexpected text after the side to move: 'extra'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(64, '-') + " X").find("centre square d4 is empty"), std::string::npos);
}

TEST(OthelloBoardText, MoveNamesRoundTrip) {
  for (uint32_t move = 0; move <= kPass; ++move) {
    const auto parsed = parse_move_name(move_name(move));
    ASSERT_TRUE(parsed.has_value()) << move_name(move);
    EXPECT_EQ(*parsed, move);
  }
  EXPECT_EQ(move_name(19), "d3");
  EXPECT_EQ(*parse_move_name("H8"), 63u);
  EXPECT_FALSE(parse_move_name("i1").has_value());
  EXPECT_FALSE(parse_move_name("a9").has_value());
}

} // namespace
} // namespace othello
