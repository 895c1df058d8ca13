// leaf_evaluator.hpp - what a search asks of playouts: run N random games from one state and count
// player 0's wins, draws and losses (the win/draw/loss reducer of a two-player zero-sum game), or, with the
// game's evaluation, value playouts cut short by a reward in [0, 1] (evaluation_leaf_evaluator.cpp).
//
// An evaluator owns a running playout counter: call k of a search uses the random streams
// (seed, first .. first + N - 1) where `first` is the number of playouts the evaluator has run since
// it was seeded. A search that makes the same calls in the same order therefore sees the same
// results, on any device, which is what makes a search under a playout budget reproducible.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::core {

// Outcomes of playouts for player 0 (score > 0: player 0 won; 0: draw; < 0: player 0 lost), and of playouts
// that stopped before the end and were valued by the game's evaluation: `valued` of them, worth `valued_points`
// to player 0 in all (each a reward in [0, 1]). Random playouts to the end leave both at 0, so their numbers
// are exactly what they were before evaluations existed.
struct WinDrawLoss {
  uint64_t wins = 0;
  uint64_t draws = 0;
  uint64_t losses = 0;
  uint64_t valued = 0;
  double valued_points = 0;

  uint64_t playouts() const { return wins + draws + losses + valued; }
  // Player 0's points: a win 1, a draw 1/2, a valued playout its reward.
  double points() const { return static_cast<double>(wins) + 0.5 * static_cast<double>(draws) + valued_points; }
  void add(const WinDrawLoss& o) {
    wins += o.wins;
    draws += o.draws;
    losses += o.losses;
    valued += o.valued;
    valued_points += o.valued_points;
  }
};

// The outcome of one finished game for player 0.
WinDrawLoss outcome_of_score(int64_t score, uint64_t count = 1);
// Folds a histogram (bin k: score score_min + k) into wins, draws and losses.
WinDrawLoss outcome_of_histogram(const std::vector<uint64_t>& histogram, int64_t score_min);

class LeafEvaluator {
public:
  virtual ~LeafEvaluator() = default;
  // Runs `playouts` playouts from `state` (a state that is not terminal). Throws std::runtime_error
  // with the plugin's message when a playout table fails.
  virtual WinDrawLoss evaluate(const StateBlob& state, uint64_t playouts) = 0;
  // Runs `playouts` playouts from each of `count` states packed back to back (state_size bytes each)
  // and returns their outcomes in order: exactly what `count` calls of evaluate would return (the same
  // random streams), which a device may compute at once.
  virtual std::vector<WinDrawLoss> evaluate_batch(const std::vector<unsigned char>& packed_states, uint32_t count,
                                                  uint64_t playouts);
  // Pipelining: start_batch begins what evaluate_batch does and may return before the results exist (on
  // a device), so the caller can prepare its next batch meanwhile; finish_batch returns the results of
  // the oldest batch started and not yet finished. Up to overlap() batches may be started before the
  // oldest is finished. Random streams are assigned when a batch starts, so the results are exactly
  // evaluate_batch's for the same order of calls. By default a batch is computed when it starts.
  virtual uint32_t overlap() const { return std::numeric_limits<uint32_t>::max(); }
  virtual void start_batch(const std::vector<unsigned char>& packed_states, uint32_t count, uint64_t playouts);
  virtual std::vector<WinDrawLoss> finish_batch();
  // Solving apart. A game may evaluate some states exactly (GameInstance::is_exact), each at a cost far
  // above a random playout's. An evaluator whose batches run on a device can take those states in
  // batches of their own, beside the playout batches, so that no playout batch waits for its slowest
  // solve. solve_apart() switches it so (a search that handles provisional values asks; other callers
  // keep exact states solved wherever they go) and returns whether it did: from then on its playout
  // batches play exact states at random (a provisional value), and start_solves solves them, at most
  // max_solves() a batch and one batch at a time; the search lands a solve batch once solves_ready()
  // says so. Solves use no random streams (every playout of an exact state reports the same outcome),
  // so they do not move the playout counter. By default an evaluator does not solve apart, and
  // start_solves computes at once.
  virtual bool solve_apart() { return false; }
  virtual bool solves_apart() const { return false; }
  virtual uint32_t max_solves() const { return std::numeric_limits<uint32_t>::max(); }
  virtual void start_solves(const std::vector<unsigned char>& packed_states, uint32_t count, uint64_t playouts);
  virtual bool solves_ready() { return true; }
  virtual std::vector<WinDrawLoss> finish_solves();
  // E.g. "cpu (plugin avx2 playouts)" or "cuda device 0".
  virtual std::string describe() const = 0;

  // Starts the evaluator's random streams over: seed `seed`, playout counter 0.
  virtual void reseed(uint64_t seed) {
    seed_ = seed;
    next_playout_ = 0;
  }
  uint64_t playouts_run() const { return next_playout_; }

protected:
  uint64_t seed_ = 0;
  uint64_t next_playout_ = 0; // the first playout number of the next call

private:
  std::deque<std::vector<WinDrawLoss>> computed_; // started batches' results, oldest first
  std::vector<WinDrawLoss> solved_;               // the started solve batch's results
};

// Playouts on the calling thread: the plugin's CPU batch table (at its best SIMD level) when it has
// one, else generic_playout through the per-state rules.
std::unique_ptr<LeafEvaluator> make_cpu_evaluator(const GameInstance& game);

// Playouts on CUDA device `device` through the plugin's CUDA playout table, on one stream of its
// own, with scratch for `max_batch` playouts allocated once; larger calls are cut into batches. Batches
// of up to `max_states` states go to the plugin's playout-batch table in one launch when it has one.
// Throws std::invalid_argument when the plugin has no CUDA playout table, std::runtime_error when
// the device cannot be used (or this build has no CUDA).
std::unique_ptr<LeafEvaluator> make_cuda_evaluator(const GameInstance& game, int device, uint64_t max_batch,
                                                   uint32_t max_states = 1);

// Leaves valued by the game's evaluation (gsdk.evaluation.v1). Each of the `playouts` asked of a state plays
// `cutoff_plies` uniformly random moves with the per-state rules (0: none), goes on through chance outcomes to a
// player's turn, and is then valued: a finished game by its outcome, any other state by its evaluation v (the
// mover's view) as the reward 1 / (1 + exp(-v / unit)) to its mover. A batch's states are evaluated in one
// call. States the game evaluates exactly (GameInstance::is_exact) keep their exact outcome: they are played
// out by the CPU playout evaluator, which solves them. With `cuda_device` >= 0 the evaluations run through the
// plugin's cuda_evaluate on that device, one launch per batch of up to `max_states` states, and the plies and
// the exact states stay on the host. Throws std::invalid_argument when the game has no evaluation table (or no
// cuda_evaluate for a device) or `unit` is not above 0.
std::unique_ptr<LeafEvaluator> make_evaluation_leaf_evaluator(const GameInstance& game, uint32_t cutoff_plies,
                                                              double unit, int cuda_device = -1,
                                                              uint32_t max_states = 1);

} // namespace gsdk::core
