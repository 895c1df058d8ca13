// stockfish_crosscheck_test.cpp - gsdk's per-move perft counts ("divide") against Debian's Stockfish
// (`go perft N`) on 240 positions reached by random play from the reference positions, at depths 3
// and 4. Any difference names the position and the first move whose count differs. Stockfish is
// installed by scripts/install-deps.sh; the test fails, rather than skips, without it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cpu/cpu_perft.hpp"
#include "reference_positions.hpp"
#include "rules/fen.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace {

namespace fs = std::filesystem;
using Divide = std::map<std::string, uint64_t>;

struct Case {
  std::string fen;
  uint32_t depth;
};

std::string stockfish_path() {
  for (const char* p : {"/usr/games/stockfish", "/usr/bin/stockfish", "/usr/local/bin/stockfish"})
    if (fs::exists(p)) return p;
  return "";
}

// Random play from each reference position; positions without legal moves are skipped.
std::vector<Case> random_cases(size_t count) {
  std::mt19937_64 random(20261122);
  const auto& refs = chess::test::reference_positions();
  std::vector<Case> cases;
  while (cases.size() < count) {
    chess::Position p = chess::parse_fen(refs[cases.size() % refs.size()].fen);
    const int plies = static_cast<int>(random() % 40);
    bool ended = false;
    for (int ply = 0; ply < plies && !ended; ++ply) {
      std::vector<chess::Move> moves;
      chess::for_each_legal_move(p, [&](chess::Move m) { moves.push_back(m); });
      if (moves.empty()) ended = true;
      else chess::make_move(p, moves[random() % moves.size()]);
    }
    if (ended || chess::count_legal_moves(p) == 0) continue;
    cases.push_back({chess::to_fen(p), cases.size() % 2 ? 4u : 3u});
  }
  return cases;
}

Divide gsdk_divide(const std::string& fen, uint32_t depth) {
  const chess::Position p = chess::parse_fen(fen);
  Divide divide;
  chess::for_each_legal_move(p, [&](chess::Move m) {
    chess::Position child = p;
    chess::make_move(child, m);
    divide[chess::move_to_uci(m)] = chess::cpu::perft(child, depth - 1);
  });
  return divide;
}

// Runs every case through one Stockfish process and parses its divides in order.
std::vector<Divide> stockfish_divides(const std::string& stockfish, const std::vector<Case>& cases) {
  const fs::path dir = fs::temp_directory_path() / ("gsdk_stockfish_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream commands(dir / "commands.txt");
    for (const Case& c : cases) commands << "position fen " << c.fen << "\ngo perft " << c.depth << "\n";
    commands << "quit\n";
  }
  const std::string command = stockfish + " < " + (dir / "commands.txt").string() + " > " + (dir / "out.txt").string() + " 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream out(dir / "out.txt");
  std::vector<Divide> divides(1);
  std::string line;
  while (std::getline(out, line)) {
    if (line.rfind("Nodes searched:", 0) == 0) {
      divides.emplace_back();
      continue;
    }
    const size_t colon = line.find(": ");
    if (colon == std::string::npos || colon < 4 || colon > 5) continue;
    divides.back()[line.substr(0, colon)] = std::stoull(line.substr(colon + 2));
  }
  divides.pop_back();
  fs::remove_all(dir);
  return divides;
}

TEST(StockfishCrossCheck, DivideAgreesOnRandomPositions) {
  const std::string stockfish = stockfish_path();
  ASSERT_FALSE(stockfish.empty()) << "stockfish not found (scripts/install-deps.sh installs Debian's package)";
  const std::vector<Case> cases = random_cases(240);
  const std::vector<Divide> theirs = stockfish_divides(stockfish, cases);
  ASSERT_EQ(theirs.size(), cases.size()) << "stockfish answered " << theirs.size() << " of " << cases.size() << " perfts";
  size_t compared_moves = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Divide ours = gsdk_divide(cases[i].fen, cases[i].depth);
    const Divide& sf = theirs[i];
    for (const auto& [move, count] : sf) {
      const auto it = ours.find(move);
      ASSERT_NE(it, ours.end()) << cases[i].fen << " depth " << cases[i].depth << ": stockfish has " << move << " ("
                                << count << "), gsdk does not";
      ASSERT_EQ(it->second, count) << cases[i].fen << " depth " << cases[i].depth << ": first mismatch at " << move;
    }
    ASSERT_EQ(ours.size(), sf.size()) << cases[i].fen << ": gsdk has moves stockfish does not";
    compared_moves += sf.size();
  }
  EXPECT_GT(compared_moves, 240u * 5);
}

} // namespace
