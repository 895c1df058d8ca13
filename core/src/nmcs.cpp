// nmcs.cpp - Nested Monte Carlo Search as a tree of state machines, so that the playouts of every child
// of every step, in every search side by side, go to the evaluator as one batch.
//
// NMCS(level, s): until s is terminal, run NMCS(level - 1) after each legal move; if the best of them beats
// the best sequence found so far from s, it becomes the best sequence; play the best sequence's next move.
// Level 0 is a random playout. A frame below is one running NMCS(level >= 1); each round it hands out
// the playouts its children need and takes their scores back in the same order. With a level-1 searcher
// (a GPU) every level-1 frame is handed out whole instead, and its result comes back in one piece.
//
// Streams: each level-1 frame takes the next block of 2^20 streams of its search when it is created
// (blocks wrap after 2^20 of them), and its n-th playout uses the block's n-th stream. Frames are created
// in the same order however the playouts are run, so a delegated level-1 search draws the same streams
// as the CPU frame would have.
#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/nested_search.hpp"
#include "side_by_side_searches.hpp"

namespace gsdk::core {

namespace {

constexpr uint64_t kStreamsPerSearch = uint64_t{1} << 40;
constexpr uint64_t kStreamsPerLevel1 = uint64_t{1} << 20;
constexpr uint64_t kLevel1Blocks = kStreamsPerSearch / kStreamsPerLevel1;

// What the frames of one search share.
struct SearchContext {
  const GameInstance& game;
  PlayoutBatchEvaluator& evaluator;
  SearchRecord& record;
  NestedSearchOutcome& counters; // playouts and level1_steps
  Level1Searcher* level1; // null: level-1 frames run here, their playouts batched to the evaluator
  uint32_t search;
  uint64_t first_stream;
  uint64_t next_block = 0;
};

// What one round hands out (playouts, whole level-1 searches) and gets back, in hand-out order.
struct RoundBatch {
  std::vector<PlayoutTask> playouts;
  std::vector<int64_t> scores;
  std::vector<Level1Task> searches;
  std::vector<Level1Outcome> outcomes;
  size_t next_score = 0;
  size_t next_outcome = 0;

  void clear() {
    playouts.clear();
    searches.clear();
    next_score = next_outcome = 0;
  }
};

// a, b, then `move` (when with_move) and tail.
std::vector<uint32_t> joined(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, uint32_t move,
                             const std::vector<uint32_t>& tail, bool with_move = true) {
  std::vector<uint32_t> out;
  out.reserve(a.size() + b.size() + 1 + tail.size());
  out.insert(out.end(), a.begin(), a.end());
  out.insert(out.end(), b.begin(), b.end());
  if (with_move) out.push_back(move);
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

class NmcsFrame {
public:
  // `path`: the moves from the initial state to `start`.
  NmcsFrame(SearchContext& context, uint32_t level, StateBlob start, std::vector<uint32_t> path)
      : context_(context), level_(level), state_(std::move(start)), path_(std::move(path)) {
    if (level_ == 1)
      next_stream_ = context_.first_stream + (context_.next_block++ % kLevel1Blocks) * kStreamsPerLevel1;
    delegated_ = level_ == 1 && context_.level1 != nullptr;
    if (delegated_ && context_.game.current_player(state_) == GSDK_PLAYER_TERMINAL) {
      best_ = {context_.game.score(state_), {}};
      done_ = true;
    }
    if (!delegated_) advance();
  }

  bool done() const { return done_; }
  // The best sequence from this frame's start state (moves relative to it).
  const MoveSequence& result() const { return best_; }

  void collect(RoundBatch& batch) {
    awaiting_ = false;
    if (done_) return;
    awaiting_ = true;
    if (delegated_) {
      batch.searches.push_back({state_.data(), next_stream_});
      return;
    }
    if (level_ == 1) {
      for (size_t k = 0; k < moves_.size(); ++k)
        if (!score_known_[k]) batch.playouts.push_back({child_states_[k].data(), streams_[k]});
      return;
    }
    for (auto& child : children_) child->collect(batch);
  }

  // Takes the results of what collect() handed out, from the batch's next positions on.
  void deliver(RoundBatch& batch) {
    if (!awaiting_) return;
    awaiting_ = false;
    if (delegated_) {
      take(std::move(batch.outcomes[batch.next_outcome++]));
      return;
    }
    if (level_ == 1) {
      for (size_t k = 0; k < moves_.size(); ++k) {
        if (score_known_[k]) continue;
        scores_[k] = batch.scores[batch.next_score++];
        score_known_[k] = true;
        ++context_.counters.playouts;
      }
    } else {
      for (auto& child : children_) child->deliver(batch);
    }
    advance();
  }

private:
  // A delegated search's result is the frame's result.
  void take(Level1Outcome outcome) {
    context_.counters.playouts += outcome.playouts;
    context_.counters.level1_steps += outcome.moves.size();
    if (context_.record.beaten_by(outcome.score))
      context_.record.improve(context_.search, {outcome.score, joined(path_, {}, 0, outcome.moves, false)});
    best_ = {outcome.score, std::move(outcome.moves)};
    done_ = true;
  }

  bool step_finished() const {
    if (level_ == 1) return std::find(score_known_.begin(), score_known_.end(), false) == score_known_.end();
    for (const auto& child : children_)
      if (!child->done()) return false;
    return true;
  }

  // Finishes steps whose children are all done and opens the next, until one waits for playouts or the
  // frame's state is terminal.
  void advance() {
    while (!done_) {
      if (stepping_) {
        if (!step_finished()) return;
        finish_step();
      }
      begin_step();
    }
  }

  void begin_step() {
    const GameInstance& game = context_.game;
    if (game.current_player(state_) == GSDK_PLAYER_TERMINAL) {
      // A frame that starts at a terminal state has nothing better than the empty sequence.
      if (best_.empty()) best_ = {game.score(state_), {}};
      done_ = true;
      stepping_ = false;
      children_.clear();
      return;
    }
    std::vector<uint32_t> legal(game.max_moves());
    legal.resize(game.checked_legal_moves(state_, legal));
    moves_ = legal;
    stepping_ = true;
    children_.clear();
    child_states_.clear();
    for (uint32_t move : moves_) {
      StateBlob child = state_;
      game.apply_move(child, move);
      if (level_ > 1) {
        std::vector<uint32_t> child_path = path_;
        child_path.insert(child_path.end(), played_.begin(), played_.end());
        child_path.push_back(move);
        children_.push_back(std::make_unique<NmcsFrame>(context_, level_ - 1, std::move(child), std::move(child_path)));
      } else {
        child_states_.push_back(std::move(child));
      }
    }
    if (level_ == 1) {
      scores_.assign(moves_.size(), 0);
      score_known_.assign(moves_.size(), false);
      streams_.assign(moves_.size(), 0);
      for (size_t k = 0; k < moves_.size(); ++k) {
        if (game.current_player(child_states_[k]) == GSDK_PLAYER_TERMINAL) {
          scores_[k] = game.score(child_states_[k]);
          score_known_[k] = true;
        } else {
          streams_[k] = next_stream_++;
        }
      }
    }
  }

  void finish_step() {
    stepping_ = false;
    size_t best_child = 0;
    for (size_t k = 1; k < moves_.size(); ++k)
      if (child_score(k) > child_score(best_child)) best_child = k;
    const int64_t score = child_score(best_child);
    const uint32_t move = moves_[best_child];
    const bool frame_improves = score > best_.score;
    const bool run_improves = context_.record.beaten_by(score);
    if (frame_improves || run_improves) {
      const std::vector<uint32_t> tail = child_tail(best_child);
      if (frame_improves) best_ = {score, joined({}, played_, move, tail)};
      if (run_improves) context_.record.improve(context_.search, {score, joined(path_, played_, move, tail)});
    }
    if (level_ == 1) ++context_.counters.level1_steps;
    // Follow the best sequence: the best child's move when it improved, else the remembered one.
    const uint32_t next = best_.moves[played_.size()];
    context_.game.apply_move(state_, next);
    played_.push_back(next);
    children_.clear();
  }

  int64_t child_score(size_t k) const { return level_ == 1 ? scores_[k] : children_[k]->result().score; }

  // The moves after child k's move that reach its score.
  std::vector<uint32_t> child_tail(size_t k) const {
    if (level_ > 1) return children_[k]->result().moves;
    if (context_.game.current_player(child_states_[k]) == GSDK_PLAYER_TERMINAL) return {};
    return context_.evaluator.moves_of(child_states_[k], streams_[k]);
  }

  SearchContext& context_;
  uint32_t level_;
  StateBlob state_;              // the current state: start + played_
  std::vector<uint32_t> path_;   // initial state -> start
  std::vector<uint32_t> played_; // start -> state_
  MoveSequence best_;            // from start
  bool delegated_ = false;     // a level-1 frame the level-1 searcher runs whole
  uint64_t next_stream_ = 0;   // level 1: the stream of the next playout
  bool done_ = false;
  bool stepping_ = false;
  bool awaiting_ = false;
  // The current step: one child per legal move.
  std::vector<uint32_t> moves_;
  std::vector<std::unique_ptr<NmcsFrame>> children_; // level > 1
  std::vector<StateBlob> child_states_;              // level 1: where the playouts start
  std::vector<int64_t> scores_;                      // level 1
  std::vector<bool> score_known_;                    // level 1
  std::vector<uint64_t> streams_;                    // level 1
};

struct NmcsSearch {
  SearchContext context;
  std::unique_ptr<NmcsFrame> root;
  bool done() const { return root->done(); }
};

} // namespace

void require_one_player_game(const GameInstance& game, const std::string& algorithm) {
  const gsdk_game& g = game.game();
  if (g.player_count != 1)
    throw std::invalid_argument(fmt::format("{} searches one-player games; '{}' has {} players", algorithm, g.name,
                                            g.player_count));
  if (g.flags & GSDK_GAME_FLAG_CHANCE)
    throw std::invalid_argument(
        fmt::format("{} searches deterministic games; '{}' has chance moves", algorithm, g.name));
}

int64_t replay_score(const GameInstance& game, const std::vector<uint32_t>& moves) {
  StateBlob state = game.initial_state();
  std::vector<uint32_t> legal(game.max_moves());
  for (size_t i = 0; i < moves.size(); ++i) {
    if (game.current_player(state) != 0)
      throw std::invalid_argument(fmt::format("move {} ({}) comes after the game ended", i, moves[i]));
    const uint32_t n = game.checked_legal_moves(state, legal);
    if (std::find(legal.begin(), legal.begin() + n, moves[i]) == legal.begin() + n)
      throw std::invalid_argument(fmt::format("move {} ({}) is not legal", i, moves[i]));
    game.apply_move(state, moves[i]);
  }
  if (game.current_player(state) != GSDK_PLAYER_TERMINAL)
    throw std::invalid_argument(fmt::format("the {} moves do not end the game", moves.size()));
  return game.score(state);
}

NestedSearchOutcome run_nmcs(const GameInstance& game, const NmcsSettings& settings, PlayoutBatchEvaluator& evaluator,
                             const ImprovementFn& on_improvement, Level1Searcher* level1) {
  require_one_player_game(game, "NMCS");
  if (settings.level < 1) throw std::invalid_argument("NMCS level must be at least 1");
  NestedSearchOutcome outcome;
  outcome.engine = evaluator.engine();
  outcome.device = level1 ? level1->describe() : evaluator.describe();
  if (level1) outcome.engine = "level-1 searches";
  SearchRecord record(on_improvement);
  RoundBatch batch;
  const auto make = [&](uint32_t k) {
    auto search = std::make_unique<NmcsSearch>(
        NmcsSearch{SearchContext{game, evaluator, record, outcome, level1, k, k * kStreamsPerSearch}, nullptr});
    search->root = std::make_unique<NmcsFrame>(search->context, settings.level, game.initial_state(),
                                               std::vector<uint32_t>{});
    return search;
  };
  const auto play_round = [&](std::vector<NmcsSearch*>& round) {
    batch.clear();
    for (NmcsSearch* s : round) s->root->collect(batch);
    const auto began = std::chrono::steady_clock::now();
    batch.scores.resize(batch.playouts.size());
    if (!batch.playouts.empty()) evaluator.evaluate(batch.playouts, batch.scores);
    batch.outcomes.resize(batch.searches.size());
    if (!batch.searches.empty()) level1->search(batch.searches, batch.outcomes);
    outcome.evaluator_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    for (NmcsSearch* s : round) s->root->deliver(batch);
  };
  run_side_by_side<NmcsSearch>(settings.budget, record, outcome, make, play_round);
  return outcome;
}

} // namespace gsdk::core
