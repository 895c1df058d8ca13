// level1_step.hpp - one step of a level-1 NMCS search, shared by core's CPU frames (nmcs.cpp) and the CPU
// level-1 searcher, so both take the same children, streams and best child: the children after each legal
// move, terminal ones scored at once, the others given the search's next streams, one playout each.
#pragma once

#include <limits>
#include <span>
#include <vector>

#include "gsdk/core/playouts/playout_batch_evaluator.hpp"
#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

class Level1Step {
public:
  static constexpr uint64_t kNoStream = std::numeric_limits<uint64_t>::max();

  // The children of `state` after `moves`; non-terminal ones draw next_stream, next_stream + 1, ...
  void open(const GameInstance& game, const StateBlob& state, std::span<const uint32_t> moves, uint64_t& next_stream) {
    const size_t n = moves.size();
    children_.resize(n);
    scores_.assign(n, 0);
    streams_.assign(n, kNoStream);
    waiting_ = 0;
    for (size_t k = 0; k < n; ++k) {
      children_[k] = state; // reuses the child's buffer from the last step
      game.apply_move(children_[k], moves[k]);
      if (game.current_player(children_[k]) == GSDK_PLAYER_TERMINAL) {
        scores_[k] = game.score(children_[k]);
      } else {
        streams_[k] = next_stream++;
        ++waiting_;
      }
    }
  }

  // The playouts the step waits for, in child order; take_scores() gets their scores in the same order.
  void append_playouts(std::vector<PlayoutTask>& out) const {
    for (size_t k = 0; k < children_.size(); ++k)
      if (streams_[k] != kNoStream) out.push_back({children_[k].data(), streams_[k]});
  }
  // Takes the scores of those playouts from `scores` at `next`, which it advances past them.
  void take_scores(std::span<const int64_t> scores, size_t& next) {
    for (size_t k = 0; k < children_.size(); ++k)
      if (streams_[k] != kNoStream) scores_[k] = scores[next++];
    waiting_ = 0;
  }
  bool waiting() const { return waiting_ != 0; }

  // The best child, the first on ties.
  size_t best_child() const {
    size_t best = 0;
    for (size_t k = 1; k < scores_.size(); ++k)
      if (scores_[k] > scores_[best]) best = k;
    return best;
  }
  int64_t score(size_t k) const { return scores_[k]; }
  // Appends the moves after child k's move that reach its score (its playout, replayed).
  void append_tail(size_t k, const PlayoutBatchEvaluator& evaluator, std::vector<uint32_t>& out) const {
    if (streams_[k] == kNoStream) return;
    const std::vector<uint32_t> tail = evaluator.moves_of(children_[k], streams_[k]);
    out.insert(out.end(), tail.begin(), tail.end());
  }

private:
  std::vector<StateBlob> children_;
  std::vector<int64_t> scores_;
  std::vector<uint64_t> streams_; // kNoStream: a terminal child, scored already
  size_t waiting_ = 0;            // playouts handed out or to be, not yet scored
};

} // namespace gsdk::core
