// cpu_level1_searcher.cpp - whole level-1 NMCS searches on CPU threads, in the background. Each search
// takes the steps of core's CPU level-1 frames (nmcs.cpp, through the same Level1Step) with the same
// evaluator and streams, so it finds what they find; a batch runs on threads of its own, so start() returns
// at once and the caller can work meanwhile, as it would with a GPU.
#include <algorithm>
#include <future>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/playouts/playout_batch_evaluator.hpp"
#include "nested/level1_step.hpp"
#include "runtime/batch_split.hpp"

namespace gsdk::core {

namespace {

// One thread's searches: its own one-thread evaluator and scratch, reused from search to search.
class Level1Worker {
public:
  Level1Worker(const GameInstance& game, uint64_t seed, bool force_generic)
      : game_(game), evaluator_(make_cpu_batch_evaluator(game, seed, 1, force_generic)), legal_(game.max_moves()) {}

  // The level-1 NMCS from `start` whose n-th playout draws stream first_stream + n.
  Level1Outcome search(const StateBlob& start, uint64_t first_stream) {
    Level1Outcome outcome;
    int64_t best = std::numeric_limits<int64_t>::min();
    uint64_t next_stream = first_stream;
    state_ = start;
    played_.clear();
    while (game_.current_player(state_) != GSDK_PLAYER_TERMINAL) {
      const uint32_t n = game_.checked_legal_moves(state_, legal_);
      step_.open(game_, state_, std::span<const uint32_t>(legal_.data(), n), next_stream);
      tasks_.clear();
      step_.append_playouts(tasks_);
      task_scores_.resize(tasks_.size());
      evaluator_->evaluate(tasks_, task_scores_);
      size_t next_score = 0;
      step_.take_scores(task_scores_, next_score);
      outcome.playouts += tasks_.size();
      const size_t best_child = step_.best_child();
      if (step_.score(best_child) > best) {
        best = step_.score(best_child);
        outcome.moves = played_;
        outcome.moves.push_back(legal_[best_child]);
        step_.append_tail(best_child, *evaluator_, outcome.moves);
      }
      const uint32_t next = outcome.moves[played_.size()];
      game_.apply_move(state_, next);
      played_.push_back(next);
    }
    // A search that starts at a terminal state has nothing better than the empty sequence.
    outcome.score = played_.empty() ? game_.score(state_) : best;
    return outcome;
  }

private:
  const GameInstance& game_;
  std::unique_ptr<PlayoutBatchEvaluator> evaluator_;
  std::vector<uint32_t> legal_;
  StateBlob state_;
  std::vector<uint32_t> played_;
  Level1Step step_;
  std::vector<PlayoutTask> tasks_;
  std::vector<int64_t> task_scores_;
};

// One slot: its tasks copied in, its workers, and the batch running in the background.
struct Slot {
  std::vector<StateBlob> starts;
  std::vector<uint64_t> first_streams;
  std::vector<Level1Outcome> outcomes;
  std::vector<Level1Worker> workers;
  std::future<void> running;
};

class CpuLevel1Searcher final : public Level1Searcher {
public:
  CpuLevel1Searcher(const GameInstance& game, uint64_t seed, unsigned threads, bool force_generic)
      : state_size_(game.state_size()), threads_(std::max(threads, 1u)) {
    for (Slot& slot : slots_)
      for (unsigned w = 0; w < threads_; ++w) slot.workers.emplace_back(game, seed, force_generic);
  }

  // A batch still running when the searcher goes must not outlive the workers it uses.
  ~CpuLevel1Searcher() override {
    for (Slot& slot : slots_)
      if (slot.running.valid()) slot.running.wait();
  }

  void start(uint32_t slot_index, std::span<const Level1Task> tasks) override {
    Slot& slot = idle_slot(slot_index);
    slot.starts.resize(tasks.size());
    slot.first_streams.resize(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
      slot.starts[i].assign(tasks[i].start, tasks[i].start + state_size_);
      slot.first_streams[i] = tasks[i].first_stream;
    }
    slot.outcomes.resize(tasks.size());
    slot.running = std::async(std::launch::async, [this, &slot] {
      split_batch(threads_, slot.starts.size(), 1, [&](unsigned worker, size_t i) {
        slot.outcomes[i] = slot.workers[worker].search(slot.starts[i], slot.first_streams[i]);
      });
    });
  }

  void finish(uint32_t slot_index, std::span<Level1Outcome> outcomes) override {
    if (slot_index >= kSlots || !slots_[slot_index].running.valid())
      throw std::logic_error(fmt::format("level-1 searcher: no batch in flight in slot {}", slot_index));
    Slot& slot = slots_[slot_index];
    slot.running.get(); // rethrows a worker's error
    if (outcomes.size() != slot.outcomes.size()) throw std::invalid_argument("finish: one outcome per task");
    std::move(slot.outcomes.begin(), slot.outcomes.end(), outcomes.begin());
  }

  std::string describe() const override {
    return fmt::format("cpu, {} thread{} a batch, level-1 searches in the background", threads_,
                       threads_ == 1 ? "" : "s");
  }

private:
  Slot& idle_slot(uint32_t index) {
    if (index >= kSlots || slots_[index].running.valid())
      throw std::logic_error(fmt::format("level-1 searcher: slot {} is not free", index));
    return slots_[index];
  }

  uint32_t state_size_;
  unsigned threads_;
  Slot slots_[kSlots];
};

} // namespace

std::unique_ptr<Level1Searcher> make_cpu_level1_searcher(const GameInstance& game, uint64_t seed, unsigned threads,
                                                         bool force_generic) {
  return std::make_unique<CpuLevel1Searcher>(game, seed, threads, force_generic);
}

} // namespace gsdk::core
