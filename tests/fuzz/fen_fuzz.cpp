// fen_fuzz.cpp - fuzzes chess_perft's FEN reader (the plugin's state_from_string). Any input must give a position
// or std::invalid_argument; a position read must write back as a FEN that reads as the same position.
#include <stdexcept>

#include "fuzz_check.hpp"
#include "rules/fen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  chess::Position p;
  try {
    p = chess::parse_fen(gsdk::fuzz::as_text(data, size));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string fen = chess::to_fen(p);
  gsdk::fuzz::require(chess::to_fen(chess::parse_fen(fen)) == fen, "FEN written from a position reads back the same");
  return 0;
}
