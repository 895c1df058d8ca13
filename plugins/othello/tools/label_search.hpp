// label_search.hpp - the fitting tool's label for a position beyond the exact range: a fail-soft alpha-beta
// search down to a given number of empty squares, valued there by the pattern evaluation of the stages already
// fitted (and exactly where a game ends inside the search). A stage is labelled by searching into the stages
// below it, so the labels carry the exact endgame values back to the opening a few plies at a time, instead of
// the result of one noisy game (docs/perf/othello.md, "Learned evaluation"). Host only.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cpu/pattern_sum_cpu.hpp"
#include "exact_solver.hpp"
#include "rules/patterns.hpp"

namespace othello::fit {

class LabelSearch {
public:
  // `weights`: every stage (kEvaluationStages * stage_entries); only the stages the leaves reach are read.
  explicit LabelSearch(const int16_t* weights) : weights_(weights) {}

  // The value of p, the side to move's view, in 1/kWeightsPerDisc discs: positions with `leaf_empties` or fewer
  // empty squares are valued by the evaluation, finished games by their final difference.
  int32_t value(const Position& p, uint32_t leaf_empties) {
    leaf_empties_ = leaf_empties;
    return search(p.own, p.opponent, -kInfinity, kInfinity);
  }

  uint64_t nodes() const { return nodes_; }

private:
  static constexpr int32_t kInfinity = 1 << 20;

  int32_t static_value(Bitboard own, Bitboard opponent) const {
    const int32_t bound = 64 * kWeightsPerDisc;
    const int32_t sum = pattern_sum_cpu(Position{own, opponent, kBlack, 0}, weights_);
    return std::clamp(sum, -bound, bound);
  }

  int32_t search(Bitboard own, Bitboard opponent, int32_t alpha, int32_t beta) {
    ++nodes_;
    const Bitboard moves = legal_moves(own, opponent);
    if (moves == 0) {
      if (legal_moves(opponent, own) == 0) return kWeightsPerDisc * finished_difference(own, opponent);
      return -search(opponent, own, -beta, -alpha);
    }
    const auto empties = static_cast<uint32_t>(64 - gsdk::bits::popcount64(own | opponent));
    if (empties <= leaf_empties_) return static_value(own, opponent);

    // Children best first by their static value (the opponent's view: lowest first); insertion keeps ties in
    // square order, so the search is deterministic.
    struct Child {
      Bitboard own, opponent;
      int32_t key;
    };
    Child children[kMaxMoves];
    uint32_t count = 0;
    for (Bitboard rest = moves; rest; rest &= rest - 1) {
      const uint32_t square = lowest_square(rest);
      const Bitboard flipped = flips(own, opponent, square);
      const Bitboard child_own = opponent ^ flipped, child_opponent = own | flipped | square_bit(square);
      const Child keyed{child_own, child_opponent, static_value(child_own, child_opponent)};
      uint32_t at = count++;
      for (; at > 0 && children[at - 1].key > keyed.key; --at) children[at] = children[at - 1];
      children[at] = keyed;
    }
    // Children at the leaves are valued by their key already (unless they must pass or the game ends there).
    const bool children_are_leaves = empties - 1 <= leaf_empties_;
    int32_t best = -kInfinity;
    for (uint32_t k = 0; k < count; ++k) {
      const Child& c = children[k];
      const int32_t value = children_are_leaves && legal_moves(c.own, c.opponent)
                                ? -c.key
                                : -search(c.own, c.opponent, -beta, -std::max(alpha, best));
      best = std::max(best, value);
      if (best >= beta) break;
    }
    return best;
  }

  const int16_t* weights_;
  uint32_t leaf_empties_ = 0;
  uint64_t nodes_ = 0;
};

} // namespace othello::fit
