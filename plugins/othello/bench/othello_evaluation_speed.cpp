// othello_evaluation_speed.cpp - evaluations per second on one core: the pattern evaluation with the shipped
// weights (the host's, by pext where the processor has a fast one, and the generic digit loop CUDA runs) and the
// hand-set one, over positions of every stage from random games, and over positions of one stage (as a search
// meets them: its part of the weights stays in cache) (docs/perf/othello.md).
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "cpu/pattern_sum_cpu.hpp"
#include "rules/endgame.hpp"
#include "rules/evaluation.hpp"
#include "rules/patterns.hpp"
#include "shipped_weights.hpp"

namespace {

// Unfinished positions from random games, with `least` .. `most` empty squares.
std::vector<othello::Position> random_positions(int count, uint32_t least, uint32_t most) {
  using namespace othello;
  std::mt19937_64 random(1);
  std::vector<Position> found;
  while (static_cast<int>(found.size()) < count) {
    Position p = start_position();
    const int plies = static_cast<int>(60 - least - random() % (most - least + 1));
    for (int ply = 0; ply < plies && !game_over(p); ++ply) {
      const Bitboard moves = legal_moves(p);
      if (moves)
        play(p, nth_square(moves, static_cast<uint32_t>(random() % gsdk::bits::popcount64(moves))));
      else
        pass(p);
    }
    if (!game_over(p) && empty_count(p) >= least && empty_count(p) <= most) found.push_back(p);
  }
  return found;
}

template <typename Evaluate>
void measure(const char* name, const std::vector<othello::Position>& positions, Evaluate evaluate) {
  const auto start = std::chrono::steady_clock::now();
  int64_t checksum = 0;
  const int rounds = 50;
  for (int round = 0; round < rounds; ++round)
    for (const othello::Position& p : positions) checksum += evaluate(p);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-26s %.3g evaluations/s (checksum %lld)\n", name,
              static_cast<double>(rounds) * static_cast<double>(positions.size()) / seconds,
              static_cast<long long>(checksum));
}

} // namespace

int main() {
  const int16_t* weights = othello::shipped_pattern_weights().data();
  const auto patterns = [&](const othello::Position& p) { return othello::pattern_evaluation_cpu(p, weights); };
  const auto digit_loop = [&](const othello::Position& p) {
    return othello::pattern_evaluation(p, othello::kPatternLayout, weights);
  };
  const auto basic = [](const othello::Position& p) { return othello::evaluate(p); };
  const std::vector<othello::Position> every_stage = random_positions(20000, 1, 59);
  measure("patterns, every stage", every_stage, patterns);
  measure("digit loop, every stage", every_stage, digit_loop);
  measure("basic, every stage", every_stage, basic);
  const std::vector<othello::Position> one_stage = random_positions(20000, 31, 35);
  measure("patterns, 31-35 empties", one_stage, patterns);
  measure("digit loop, 31-35 empties", one_stage, digit_loop);
  measure("basic, 31-35 empties", one_stage, basic);
  return 0;
}
