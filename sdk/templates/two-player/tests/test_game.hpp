// test_game.hpp - what connect_four's tests share: a game instance (it has no parameters) and positions
// from their text.
#pragma once

#include <string_view>

#include "game.hpp"

namespace connect_four::test {

inline const Game& game() {
  static const Game instance{gsdk::Params(nullptr, 0)};
  return instance;
}

inline State position(std::string_view text) {
  return game().state_from_string(text);
}

} // namespace connect_four::test
