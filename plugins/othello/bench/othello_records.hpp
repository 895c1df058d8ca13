// othello_records.hpp - reads the game records `gsdk match othello --record` writes (PGN-like: tag lines,
// then movetext "1. f5 d6 2. c3 ... 1-0"), for the Othello endgame tools beside it. Throws
// std::runtime_error naming the file, the game and the word or ply that is wrong.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/board_text.hpp"
#include "rules/position.hpp"

namespace othello::bench {

struct GameRecord {
  std::string where;   // "FILE game N"
  std::string player0; // the Player0 tag's value (black)
  std::string player1;
  std::string result; // "1-0", "0-1" or "1/2-1/2"
  std::vector<uint32_t> moves;
};

inline std::string tag_value(const std::string& line) {
  const size_t open = line.find('"'), close = line.rfind('"');
  return open == std::string::npos || close <= open ? "" : line.substr(open + 1, close - open - 1);
}

// The moves of a movetext, checked legal from the start position.
inline std::vector<uint32_t> parse_movetext(const std::string& text, const std::string& where) {
  std::vector<uint32_t> moves;
  std::istringstream words(text);
  Position p = start_position();
  for (std::string word; words >> word;) {
    if (word.back() == '.' || word == "1-0" || word == "0-1" || word == "1/2-1/2" || word == "*") continue;
    const auto move = parse_move_name(word);
    if (!move) throw std::runtime_error(where + ": '" + word + "' is not a move (a1..h8 or pass)");
    const Bitboard legal = legal_moves(p);
    if (*move == kPass ? legal != 0 : (legal >> *move & 1) == 0)
      throw std::runtime_error(where + ": ply " + std::to_string(moves.size() + 1) + " (" + word + ") is not legal");
    play(p, *move);
    moves.push_back(*move);
  }
  return moves;
}

inline std::vector<GameRecord> read_records(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::vector<GameRecord> games;
  GameRecord game;
  std::string movetext;
  auto flush = [&] {
    if (!movetext.empty()) {
      game.where = path + " game " + std::to_string(games.size() + 1);
      game.moves = parse_movetext(movetext, game.where);
      games.push_back(game);
    }
    game = GameRecord{};
    movetext.clear();
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[Event ", 0) == 0)
      flush();
    else if (line.rfind("[Player0 ", 0) == 0)
      game.player0 = tag_value(line);
    else if (line.rfind("[Player1 ", 0) == 0)
      game.player1 = tag_value(line);
    else if (line.rfind("[Result ", 0) == 0)
      game.result = tag_value(line);
    else if (!line.empty() && line[0] != '[')
      movetext += " " + line;
  }
  flush();
  return games;
}

inline int empties(const Position& p) {
  return 64 - gsdk::bits::popcount64(p.own | p.opponent);
}

} // namespace othello::bench
