// nmcs.cpp - Nested Monte Carlo Search as a tree of state machines, so that the playouts of every child
// of every step, in every search side by side, go to the evaluator as one batch.
//
// NMCS(level, s): until s is terminal, run NMCS(level - 1) after each legal move; if the best of them beats
// the best sequence found so far from s, it becomes the best sequence; play the best sequence's next move.
// Level 0 is a random playout. A frame below is one running NMCS(level >= 1); each round it hands out
// the playouts its children need and takes their scores back in the same order. With a level-1 searcher
// (a GPU) every frame of its level (1, or 2) is handed out whole instead, and its result comes back in one
// piece; the searches side by side then form two groups, one searched while the other is retired and
// refilled, and the host's share (beginning searches, delivering results, building the next steps) runs on
// the host threads. When the searcher's level is the run's own, a search is a single task and needs no
// frame at all (run_whole_searches).
//
// Streams: each level-1 frame draws its n-th playout from the n-th stream of one block of 2^20 streams of
// its search, chosen by the frame's place in the search's tree, not by when it is created: a frame numbers
// the children it creates 0, 1, 2, ... over all its steps, a child's id is its parent's times 1024 plus
// that number, and a level-1 frame's block is its id folded to 20 bits (blocks are distinct at levels 2
// and 3 while frames create fewer than 1024 children each, and are reused beyond). So a search draws the
// same streams however its frames are interleaved: level-1 frames run here or handed out, pipelined or not.
//
// Every frame offers its best sequence to the run's record each time it improves (SearchRecord::offer
// breaks ties by search, then moves), so the run's best does not depend on that interleaving either.
//
// Starts: search k begins where the k mod n-th of the settings' n start move lists leads, so that the searches
// side by side take turns among many prefixes (each one's searches as if it were the only start).
#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/nested/nested_search.hpp"
#include "nested/level1_step.hpp"
#include "nested/search_starts.hpp"
#include "nested/side_by_side_searches.hpp"
#include "nested/stop_request_watch.hpp"
#include "runtime/batch_split.hpp"

namespace gsdk::core {

namespace {

constexpr uint64_t kStreamsPerSearch = uint64_t{1} << 40;
constexpr uint64_t kStreamsPerLevel1 = uint64_t{1} << 20;
constexpr uint64_t kLevel1Blocks = kStreamsPerSearch / kStreamsPerLevel1;
constexpr uint64_t kChildIds = 1024;           // a frame's children's ids: its own times this, plus their number
constexpr size_t kSearchesPerHostThread = 256; // fewer searches a round: fewer threads, not worth starting

// A level-1 frame's block: its id's 20-bit digits folded together, so that every ancestor counts.
uint64_t block_of(uint64_t id) {
  uint64_t block = 0;
  for (; id != 0; id /= kLevel1Blocks) block ^= id % kLevel1Blocks;
  return block;
}

// A search's work since its counts were last added to the run's (each search counts its own, so that
// searches can be delivered on several threads).
struct SearchCounters {
  uint64_t playouts = 0;
  uint64_t level1_steps = 0;
  uint64_t level1_searches = 0;

  void move_into(NestedSearchOutcome& outcome) {
    outcome.playouts += playouts;
    outcome.level1_steps += level1_steps;
    outcome.level1_searches += level1_searches;
    *this = {};
  }
};

// Where the run's searches begin: search k at states[of(k)], after moves[of(k)] from the initial state.
// What the frames of one search share.
struct SearchContext {
  const GameInstance& game;
  const StateBlob& start;                   // where the search begins
  const std::vector<uint32_t>& start_moves; // initial state -> start
  uint32_t start_index;                     // which of the run's starts that is
  PlayoutBatchEvaluator& evaluator;
  SearchRecord& record;
  SearchCounters counters;
  Level1Searcher* level1; // null: level-1 frames run here, their playouts batched to the evaluator
  uint32_t search;
  uint64_t first_stream;
  std::vector<uint32_t> legal = std::vector<uint32_t>(game.max_moves()); // scratch for any frame's step
};

// Where a search's results start in a round's batch; delivering moves it past them.
struct BatchCursor {
  size_t next_score = 0;
  size_t next_outcome = 0;
};

// What one round hands out (playouts, whole level-1 searches) and gets back, in hand-out order.
struct RoundBatch {
  std::vector<PlayoutTask> playouts;
  std::vector<int64_t> scores;
  std::vector<Level1Task> searches;
  std::vector<Level1Outcome> outcomes;
  std::vector<BatchCursor> firsts; // per search of the round, where its results start

  void clear() {
    playouts.clear();
    searches.clear();
    firsts.clear();
  }
};

class NmcsFrame {
public:
  // A frame of `level` below `parent` (null: the root); begin() starts it.
  NmcsFrame(SearchContext& context, uint32_t level, const NmcsFrame* parent)
      : context_(context), level_(level), parent_(parent),
        delegated_(context.level1 != nullptr && level == context.level1->level()) {}

  // Starts the frame over at its parent's state after `move` (the root: at the search's start) as the frame
  // `id`. A parent reuses its children from step to step, and with them their buffers.
  void begin(uint32_t move, uint64_t id) {
    reset(move, id);
    if (delegated_ && context_.game.current_player(state_) == GSDK_PLAYER_TERMINAL) {
      improve_best(context_.game.score(state_));
      done_ = true;
    }
    if (!delegated_) advance();
  }

  // Starts the root over at the step a checkpoint saved (step_under_way), which then goes as it went: the same
  // moves chosen before it, the same best, its children keyed to the same streams. `saved` was checked to fit.
  void begin_at(const SearchUnderWay& saved) {
    reset(0, 0);
    for (const uint32_t move : saved.played) context_.game.apply_move(state_, move);
    played_ = saved.played;
    best_ = saved.best;
    (level_ == 1 ? next_stream_ : children_made_) = saved.counter;
    advance();
  }

  // Where the step under way began, for a checkpoint: none before the first step, after the last or while a
  // level-1 searcher has the frame whole.
  std::optional<SearchUnderWay> step_under_way(uint32_t search) const {
    if (!stepping_) return std::nullopt;
    return SearchUnderWay{search, played_, best_, step_counter_, 0, {}};
  }

  bool done() const { return done_; }
  // The best sequence from this frame's start state (moves relative to it).
  const MoveSequence& result() const { return best_; }

  void collect(RoundBatch& batch) {
    awaiting_ = false;
    if (done_) return;
    awaiting_ = true;
    if (delegated_) {
      batch.searches.push_back({state_.data(), level_ == 1 ? next_stream_ : context_.first_stream, id_});
      return;
    }
    if (level_ == 1) {
      step_.append_playouts(batch.playouts);
      return;
    }
    for (const auto& child : children()) child->collect(batch);
  }

  // Takes the results of what collect() handed out, from `at` on.
  void deliver(RoundBatch& batch, BatchCursor& at) {
    if (!awaiting_) return;
    awaiting_ = false;
    if (delegated_) {
      take(batch.outcomes[at.next_outcome++]);
      return;
    }
    if (level_ == 1) {
      const size_t first = at.next_score;
      step_.take_scores(batch.scores, at.next_score);
      context_.counters.playouts += at.next_score - first;
    } else {
      for (const auto& child : children()) child->deliver(batch, at);
    }
    advance();
  }

private:
  // begin()'s fields: the frame `id` at its parent's state after `move`, nothing played, nothing found.
  void reset(uint32_t move, uint64_t id) {
    move_ = move;
    id_ = id;
    children_made_ = 0;
    child_count_ = 0;
    played_.clear();
    best_.score = MoveSequence{}.score;
    best_.moves.clear();
    done_ = stepping_ = awaiting_ = false;
    if (parent_) {
      state_ = parent_->state_;
      context_.game.apply_move(state_, move_);
    } else {
      state_ = context_.start;
    }
    if (level_ == 1) {
      next_stream_ = context_.first_stream + block_of(id_) * kStreamsPerLevel1;
      ++context_.counters.level1_searches;
    }
  }

  // A delegated search's result is the frame's result. A level-2 search also says what the run's record would
  // have kept of all its frames' offers (at most its best sequence in the record's order), and offers that.
  void take(Level1Outcome& outcome) {
    context_.counters.playouts += outcome.playouts;
    context_.counters.level1_steps += level_ == 1 ? outcome.moves.size() : outcome.level1_steps;
    context_.counters.level1_searches += outcome.level1_searches;
    best_.moves.swap(outcome.moves); // the outcome keeps a buffer for the next search's moves
    best_.score = outcome.score;
    offer_from_start(outcome.score, level_ == 1 ? best_.moves : outcome.record_moves);
    done_ = true;
  }

  // best_.moves are set already; the run's record sees every sequence that becomes a frame's best.
  void improve_best(int64_t score) {
    best_.score = score;
    offer_from_start(score, best_.moves);
  }

  // Offers the run's record this frame's path followed by `moves` (from the frame's start).
  void offer_from_start(int64_t score, const std::vector<uint32_t>& moves) const {
    if (!context_.record.might_take(score)) return;
    MoveSequence whole{score, {}};
    append_path(whole.moves);
    whole.moves.insert(whole.moves.end(), moves.begin(), moves.end());
    context_.record.offer(context_.search, std::move(whole));
  }

  // Appends the moves from the initial state to this frame's start. A child is in use during one step of
  // its parent, so the parent's played moves are still those that led to it.
  void append_path(std::vector<uint32_t>& out) const {
    if (!parent_) {
      out.insert(out.end(), context_.start_moves.begin(), context_.start_moves.end());
      return;
    }
    parent_->append_path(out);
    out.insert(out.end(), parent_->played_.begin(), parent_->played_.end());
    out.push_back(move_);
  }

  bool step_finished() const {
    if (level_ == 1) return !step_.waiting();
    for (const auto& child : children())
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
      if (best_.empty()) improve_best(game.score(state_));
      done_ = true;
      stepping_ = false;
      child_count_ = 0;
      return;
    }
    const uint32_t n = game.checked_legal_moves(state_, context_.legal);
    moves_.assign(context_.legal.begin(), context_.legal.begin() + n); // children's steps reuse context_.legal
    stepping_ = true;
    step_counter_ = level_ == 1 ? next_stream_ : children_made_;
    if (level_ > 1) {
      while (children_.size() < n) children_.push_back(std::make_unique<NmcsFrame>(context_, level_ - 1, this));
      child_count_ = n;
      for (uint32_t k = 0; k < n; ++k) children_[k]->begin(moves_[k], id_ * kChildIds + children_made_++);
      return;
    }
    step_.open(game, state_, moves_, next_stream_);
  }

  void finish_step() {
    stepping_ = false;
    size_t best_child = 0;
    for (size_t k = 1; k < moves_.size(); ++k)
      if (child_score(k) > child_score(best_child)) best_child = k;
    const int64_t score = child_score(best_child);
    if (score > best_.score) {
      best_.moves = played_;
      best_.moves.push_back(moves_[best_child]);
      append_child_tail(best_child, best_.moves);
      improve_best(score);
    }
    if (level_ == 1) ++context_.counters.level1_steps;
    // Follow the best sequence: the best child's move when it improved, else the remembered one.
    const uint32_t next = best_.moves[played_.size()];
    context_.game.apply_move(state_, next);
    played_.push_back(next);
    child_count_ = 0;
  }

  int64_t child_score(size_t k) const { return level_ == 1 ? step_.score(k) : children_[k]->result().score; }

  // Appends the moves after child k's move that reach its score.
  void append_child_tail(size_t k, std::vector<uint32_t>& out) const {
    if (level_ > 1) {
      const std::vector<uint32_t>& tail = children_[k]->result().moves;
      out.insert(out.end(), tail.begin(), tail.end());
      return;
    }
    step_.append_tail(k, context_.evaluator, out);
  }

  std::span<const std::unique_ptr<NmcsFrame>> children() const { return {children_.data(), child_count_}; }

  SearchContext& context_;
  uint32_t level_;
  StateBlob state_;              // the current state: start + played_
  const NmcsFrame* parent_;      // null: the root, whose start is the initial state
  uint32_t move_ = 0;            // parent's state -> start
  uint64_t id_ = 0;              // the frame's place in the tree (see the top of the file)
  uint64_t children_made_ = 0;   // since begin(), over all steps
  std::vector<uint32_t> played_; // start -> state_
  MoveSequence best_;            // from start
  bool delegated_;               // a level-1 frame the level-1 searcher runs whole
  uint64_t next_stream_ = 0;     // level 1: the stream of the next playout
  uint64_t step_counter_ = 0;    // next_stream_ (level 1) or children_made_ when the step under way began
  bool done_ = false;
  bool stepping_ = false;
  bool awaiting_ = false;
  // The current step: one child per legal move.
  std::vector<uint32_t> moves_;
  std::vector<std::unique_ptr<NmcsFrame>> children_; // level > 1: the first child_count_ are this step's
  size_t child_count_ = 0;
  Level1Step step_; // level 1: the children, their streams and scores
};

struct NmcsSearch {
  SearchContext context;
  std::unique_ptr<NmcsFrame> root;
  const SearchUnderWay* resumed = nullptr; // the step a checkpoint saved, to begin at
  bool begun = false;                      // begun (with a level-1 searcher, by the search's first round)
  bool done() const { return begun && root->done(); }
  uint32_t number() const { return context.search; }
  std::optional<SearchUnderWay> under_way() const {
    if (!begun) return resumed ? std::optional<SearchUnderWay>(*resumed) : std::nullopt;
    return root->step_under_way(context.search);
  }
  void begin() {
    if (resumed)
      root->begin_at(*resumed);
    else
      root->begin(0, 0);
    begun = true;
  }
};

// Runs work() and adds the wall time it took to `seconds`.
template <typename Work> void timed(double& seconds, const Work& work) {
  const auto began = std::chrono::steady_clock::now();
  work();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

// A search the level-1 searcher runs whole (the run's level is the searcher's): no frames, one task from its
// start, done after one round, its result the round's outcome. Its streams are those of its root frame (block 0
// of its own).
struct WholeSearch {
  uint32_t k; // its number
  uint32_t start;
  const Level1Outcome* found = nullptr; // set by its round, read while the round's outcomes last
  bool done() const { return found != nullptr; }
  uint32_t number() const { return k; }
  std::optional<SearchUnderWay> under_way() const { return std::nullopt; } // one task: it starts again
};

// Restarts of searches that a device runs whole (at the GPU's rate, millions a second): what a frame would do
// with each, without building one, and the tasks of one start pointing at the same start state, so that the
// searcher can stage it once when there is one.
void run_whole_searches(const SearchStarts& starts, const NmcsSettings& settings, SearchRecord& record,
                        NestedSearchOutcome& outcome, Level1Searcher& searcher, const FinishedSearchFn& on_finished) {
  const uint32_t level = searcher.level();
  RoundBatch batches[Level1Searcher::kSlots];
  const auto make = [&](uint32_t k, const SearchUnderWay*) {
    return std::make_unique<WholeSearch>(WholeSearch{k, starts.of(k)});
  };
  const auto start_round = [&](uint32_t group, std::vector<WholeSearch*>& round) {
    RoundBatch& batch = batches[group];
    batch.clear();
    for (const WholeSearch* s : round)
      batch.searches.push_back({starts.states[s->start].data(), s->k * kStreamsPerSearch, 0});
    outcome.level1_searches += level == 1 ? round.size() : 0;
    timed(outcome.evaluator_seconds, [&] { searcher.start(group, batch.searches); });
  };
  const auto finish_round = [&](uint32_t group, std::vector<WholeSearch*>& round) {
    RoundBatch& batch = batches[group];
    batch.outcomes.resize(batch.searches.size());
    timed(outcome.evaluator_seconds, [&] { searcher.finish(group, batch.outcomes); });
    for (size_t j = 0; j < round.size(); ++j) {
      Level1Outcome& found = batch.outcomes[j];
      outcome.playouts += found.playouts;
      outcome.level1_steps += level == 1 ? found.moves.size() : found.level1_steps;
      outcome.level1_searches += found.level1_searches;
      if (record.might_take(found.score)) {
        MoveSequence whole{found.score, starts.moves[round[j]->start]};
        const std::vector<uint32_t>& tail = level == 1 ? found.moves : found.record_moves;
        whole.moves.insert(whole.moves.end(), tail.begin(), tail.end());
        record.offer(round[j]->k, std::move(whole));
      }
      round[j]->found = &found;
    }
  };
  const auto retire = [&](const WholeSearch& s) {
    if (on_finished) on_finished({s.k, starts.index[s.start], s.found->score, s.found->moves});
  };
  const uint32_t groups = settings.pipeline ? Level1Searcher::kSlots : 1;
  run_side_by_side_in_groups<WholeSearch>(settings.budget, record, outcome, groups, make, start_round, finish_round,
                                          retire);
}

} // namespace

void require_one_player_game(const GameInstance& game, const std::string& algorithm) {
  const gsdk_game& g = game.game();
  if (g.player_count != 1)
    throw std::invalid_argument(
        fmt::format("{} searches one-player games; '{}' has {} players", algorithm, g.name, g.player_count));
  if (g.flags & GSDK_GAME_FLAG_CHANCE)
    throw std::invalid_argument(
        fmt::format("{} searches deterministic games; '{}' has chance moves", algorithm, g.name));
}

namespace {

// Throws ResumeError unless a checkpoint's step under way is one a search from `start` could have reached: its
// moves chosen lead on from `start` along its best sequence, a game from there that scores what it says.
void require_step_fits(const GameInstance& game, const StateBlob& start, const SearchUnderWay& step) {
  const MoveSequence& best = step.best;
  const auto refuse = [&](const std::string& why) {
    throw ResumeError(fmt::format("search {} under way: {}", step.search, why));
  };
  if (best.empty() && !step.played.empty()) refuse("it has chosen moves but has no best sequence");
  if (best.empty()) return;
  if (step.played.size() >= best.moves.size() ||
      !std::equal(step.played.begin(), step.played.end(), best.moves.begin()))
    refuse("the moves it chose are not the start of its best sequence");
  StateBlob state = start;
  std::vector<uint32_t> legal(game.max_moves());
  for (const uint32_t move : best.moves) {
    const uint32_t n = game.current_player(state) == GSDK_PLAYER_TERMINAL ? 0 : game.checked_legal_moves(state, legal);
    if (std::find(legal.begin(), legal.begin() + n, move) == legal.begin() + n)
      refuse(fmt::format("its best sequence plays {}, which is not a legal move there", move));
    game.apply_move(state, move);
  }
  if (game.current_player(state) != GSDK_PLAYER_TERMINAL || game.score(state) != best.score)
    refuse(fmt::format("its best sequence does not end the game with its score {}", best.score));
}

// The frames one search keeps at once, frames of levels `level` down to `lowest` with up to `moves` children
// each: 1 + moves + moves^2 + ..., saturating at kMaxNmcsFramesPerSearch + 1.
uint64_t frames_per_search(uint32_t level, uint32_t lowest, uint64_t moves) {
  uint64_t frames = 0, at_level = 1;
  for (uint32_t l = level; l >= lowest && frames <= kMaxNmcsFramesPerSearch; --l) {
    frames += at_level;
    at_level = std::min(at_level * std::max<uint64_t>(moves, 1), kMaxNmcsFramesPerSearch + 1);
  }
  return std::min(frames, kMaxNmcsFramesPerSearch + 1);
}

// Refuses a level whose frames would not fit (see NmcsLevelError), naming the deepest that does.
void require_frames_fit(const GameInstance& game, uint32_t level, uint32_t lowest) {
  const uint64_t moves = game.max_moves();
  if (frames_per_search(level, lowest, moves) <= kMaxNmcsFramesPerSearch) return;
  uint32_t deepest = lowest;
  while (frames_per_search(deepest + 1, lowest, moves) <= kMaxNmcsFramesPerSearch) ++deepest;
  throw NmcsLevelError(fmt::format(
      "NMCS level {} of '{}' would keep more than {} search frames at once in each search (one per legal move at "
      "every level below the root, up to {} moves a step, so that their playouts form one batch): it would outgrow "
      "memory and overrun a time budget within its first step; this game allows level {} at most",
      level, game.game().name, kMaxNmcsFramesPerSearch, moves, deepest));
}

} // namespace

int64_t replay_score(const GameInstance& game, const std::vector<uint32_t>& moves) {
  const StateBlob state = play_legal_moves(game, moves);
  if (game.current_player(state) != GSDK_PLAYER_TERMINAL)
    throw std::invalid_argument(fmt::format("the {} moves do not end the game", moves.size()));
  return game.score(state);
}

NestedSearchOutcome run_nmcs(const GameInstance& game, const NmcsSettings& settings, PlayoutBatchEvaluator& evaluator,
                             const ImprovementFn& on_improvement, Level1Searcher* level1,
                             const FinishedSearchFn& on_finished) {
  require_one_player_game(game, "NMCS");
  if (settings.level < 1) throw std::invalid_argument("NMCS level must be at least 1");
  if (level1 && level1->level() > settings.level)
    throw std::invalid_argument(
        fmt::format("NMCS of level {} cannot hand level-{} searches to a device", settings.level, level1->level()));
  // A level-1 searcher of the run's own level keeps no frames; one of a lower level takes its level's whole.
  if (!level1 || level1->level() < settings.level)
    require_frames_fit(game, settings.level, level1 ? level1->level() : 1);
  const SearchStarts starts = search_starts(game, settings.starts, settings.skip_finished_starts);
  NestedSearchOutcome outcome;
  outcome.starts_skipped = starts.skipped;
  outcome.engine = evaluator.engine();
  if (level1) outcome.engine = fmt::format("level-{} searches", level1->level());
  SearchRecord record(on_improvement, settings.budget);
  // Rounds on a device are waited for whole; a searcher that can end its searches early does so at the deadline.
  if (const auto deadline = record.deadline(settings.budget); level1 && deadline) level1->stop_at(*deadline);
  // A stop request ends them as the deadline arriving now would.
  std::function<void()> stop_now;
  if (level1) stop_now = [&] { stop_searches_now(*level1); };
  const StopRequestWatch stop_watch(settings.budget.stop, stop_now);
  // A level-1 searcher of the run's own level runs every search whole: restarts at the device's rate.
  // (Searches from a terminal initial state go through the frames, which handle them.)
  if (level1 && level1->level() == settings.level && game.current_player(starts.states[0]) != GSDK_PLAYER_TERMINAL) {
    outcome.device = fmt::format("{}; whole searches, restarted without frames", level1->describe());
    run_whole_searches(starts, settings, record, outcome, *level1, on_finished);
    return outcome;
  }
  // With a level-1 searcher the frames left on the host are independent of one another and of the
  // evaluator, so searches are begun (at level 1: a root built) and a round's searches delivered (their
  // next steps built) on the host threads.
  const unsigned host_threads = level1 ? std::max(settings.host_threads, 1u) : 1u;
  outcome.device = level1 ? fmt::format("{}; {} host threads", level1->describe(), host_threads) : evaluator.describe();
  const auto on_host_threads = [&](std::span<NmcsSearch* const> searches, const auto& work) {
    split_batch(host_threads, searches.size(), kSearchesPerHostThread,
                [&](unsigned, size_t j) { work(j, *searches[j]); });
    for (NmcsSearch* s : searches) s->context.counters.move_into(outcome);
  };
  const auto make = [&](uint32_t k, const SearchUnderWay* under_way) {
    const uint32_t from = starts.of(k);
    if (under_way) require_step_fits(game, starts.states[from], *under_way);
    SearchContext context{
        game, starts.states[from],  starts.moves[from], starts.index[from], evaluator, record, {}, level1,
        k,    k * kStreamsPerSearch};
    auto search = std::make_unique<NmcsSearch>(NmcsSearch{std::move(context), nullptr, under_way});
    search->root = std::make_unique<NmcsFrame>(search->context, settings.level, nullptr);
    if (level1) return search; // begun by its first round
    search->begin();
    search->context.counters.move_into(outcome);
    return search;
  };
  const auto retire = [&](const NmcsSearch& s) {
    if (!on_finished) return;
    const MoveSequence& best = s.root->result();
    on_finished({s.context.search, s.context.start_index, best.score, best.moves});
  };
  std::vector<NmcsSearch*> unbegun;
  const auto collect = [&](RoundBatch& batch, std::vector<NmcsSearch*>& round) {
    unbegun.clear();
    for (NmcsSearch* s : round)
      if (!s->begun) unbegun.push_back(s);
    on_host_threads(unbegun, [](size_t, NmcsSearch& s) { s.begin(); });
    batch.clear();
    for (NmcsSearch* s : round) {
      batch.firsts.push_back({batch.playouts.size(), batch.searches.size()});
      s->root->collect(batch);
    }
  };
  const auto deliver = [&](RoundBatch& batch, std::vector<NmcsSearch*>& round) {
    on_host_threads(round, [&](size_t j, NmcsSearch& s) { s.root->deliver(batch, batch.firsts[j]); });
  };
  RoundBatch batches[Level1Searcher::kSlots];
  if (level1 && settings.pipeline) {
    const auto start_round = [&](uint32_t group, std::vector<NmcsSearch*>& round) {
      RoundBatch& batch = batches[group];
      collect(batch, round);
      timed(outcome.evaluator_seconds, [&] { level1->start(group, batch.searches); });
    };
    const auto finish_round = [&](uint32_t group, std::vector<NmcsSearch*>& round) {
      RoundBatch& batch = batches[group];
      batch.outcomes.resize(batch.searches.size());
      timed(outcome.evaluator_seconds, [&] { level1->finish(group, batch.outcomes); });
      deliver(batch, round);
    };
    run_side_by_side_in_groups<NmcsSearch>(settings.budget, record, outcome, Level1Searcher::kSlots, make, start_round,
                                           finish_round, retire);
    return outcome;
  }
  const auto play_round = [&](std::vector<NmcsSearch*>& round) {
    RoundBatch& batch = batches[0];
    collect(batch, round);
    timed(outcome.evaluator_seconds, [&] {
      batch.scores.resize(batch.playouts.size());
      if (!batch.playouts.empty()) evaluator.evaluate(batch.playouts, batch.scores);
      batch.outcomes.resize(batch.searches.size());
      if (!batch.searches.empty()) level1->search(batch.searches, batch.outcomes);
    });
    deliver(batch, round);
  };
  run_side_by_side<NmcsSearch>(settings.budget, record, outcome, make, play_round, retire);
  return outcome;
}

} // namespace gsdk::core
