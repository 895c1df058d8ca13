// gtp_board.hpp - the board in a game's state text, as GTP's showboard draws it and boardsize sizes it. The ABI has
// no board, so the engine recognises one in the first word of the state text, in either of two forms:
//   - n * n characters (n >= 2), the board row after row, as Othello writes its 64 squares;
//   - rows separated by '/', at least two, of one width (>= 2), as Connect Four's diagram (the two-player
//     template's "......./......./......./......./...O.../..OXX..") and FEN-like texts write them;
// in both, the cells drawn from at most three symbols (empty and each player's stones), row 1 on top.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gsdk::host {

struct GtpGrid {
  uint32_t width = 0, height = 0;
  std::string cells; // row after row from the top, width * height of them
};

// The board `word` writes, if it is one of the two forms above.
std::optional<GtpGrid> gtp_grid(std::string_view word);

// showboard's answer for a state's text: a board at its start drawn as a grid (column letters a, b, ... over it, row
// numbers 1 .. height down its side, up to 26 columns), then the rest of the text (e.g. the side to move); any other
// text as it is.
std::string gtp_board_picture(const std::string& state_text);

} // namespace gsdk::host
