// othello_text_fuzz.cpp - fuzzes othello's board text reader (the plugin's state_from_string before it settles
// passes). Any input must give a position or std::invalid_argument; a position read must write back as text that
// reads as the same position.
#include <stdexcept>

#include "fuzz_check.hpp"
#include "rules/board_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  othello::Position p;
  try {
    p = othello::parse_text(gsdk::fuzz::as_text(data, size));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string text = othello::to_text(p);
  gsdk::fuzz::require(othello::to_text(othello::parse_text(text)) == text, "board text reads back the same");
  return 0;
}
