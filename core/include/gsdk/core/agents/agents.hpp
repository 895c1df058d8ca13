// agents.hpp - players for two-player zero-sum games: a common interface and the agents the core
// ships (uniform random, flat Monte Carlo, UCT, alpha-beta), written against the per-state rules and the
// playout tables, so they play every such game a plugin provides.
//
// Reproducibility: an agent's every random decision derives from the seed given to new_game. Under a
// playout budget its moves are a function of (game, settings, seed, the moves played so far); under a
// time budget they depend on the machine's speed as well.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"

namespace gsdk::core {

enum class AgentKind { random, flat_monte_carlo, uct, alphabeta };
enum class PlayoutDevice { cpu, cuda };
// How UCT values a new leaf: random playouts to the end, the game's evaluation of the leaf itself, or the
// evaluation after cutoff_plies random plies (early playout termination).
enum class LeafValue { playout, evaluation, cutoff };

struct AgentSettings {
  AgentKind kind = AgentKind::random;
  uint64_t playouts = 10000; // budget per move (split over the roots) when seconds is 0
  double seconds = 0;        // > 0: the budget per move is this much wall time instead
  uint32_t leaf = 1;         // UCT: playouts per evaluated leaf; flat MC: playouts per move per round when timed
  uint32_t batch = 1;        // UCT: leaves selected (with virtual loss) and evaluated together, one launch on a GPU
  uint32_t in_flight = 1; // UCT: batches started before the oldest is backed up (2: the host selects while a GPU plays)
  double exploration = 0.7; // UCT: c of UCB1, mean + c sqrt(ln N / n), rewards in [0, 1]
  uint32_t roots = 1;       // UCT: independent trees (root parallelisation), visits merged
  uint32_t threads = 0;     // UCT: threads that grow the trees; 0: one per tree, at most the hardware's
  PlayoutDevice device = PlayoutDevice::cpu;
  int gpu = 0;                    // CUDA device ordinal with device = cuda
  uint64_t max_nodes = 1u << 20;  // UCT: nodes per tree; a full tree evaluates its leaves without expanding
  bool reuse = true;              // UCT: keep the subtree of the moves played between searches
  bool evaluate_children = false; // UCT: an expansion evaluates all its new children (leaf playouts each)
  double draw_value = 0.5;        // UCT: a draw's worth to the agent, 0 .. 1 (below 1/2: it plays for a win)
  LeafValue leaf_value = LeafValue::playout; // UCT: what a leaf's `leaf` evaluations are
  uint32_t cutoff_plies = 0;                 // UCT, leaf_value = cutoff: random plies before the evaluation
  double eval_unit = 0; // UCT, evaluated leaves: the evaluation worth reward 1/(1+e^-1); 0: the game's scale / 16
  uint32_t depth = 0;             // alpha-beta: deepest iteration (0: iterations until the time runs out)
  uint64_t tt_mb = 16;            // alpha-beta: transposition table size in MiB (0: none)
  // When raised, a search ends within a fraction of a second and choose_move returns a legal move from what it
  // found so far, which is not the move of the whole budget: the caller should not play it.
  const StopRequest* stop = nullptr;
};

// What the last choose_move spent.
struct MoveStats {
  uint64_t playouts = 0; // alpha-beta: exact states solved by one playout each; 0 for a forced move or random
  uint64_t nodes = 0;    // UCT: nodes in the trees after the search
  double seconds = 0;
  uint32_t depth = 0; // alpha-beta: the deepest completed iteration
  int64_t value = 0;  // alpha-beta: its value to the player to move (beyond the game's evaluation scale: exact)
};

class Agent {
public:
  virtual ~Agent() = default;
  // Forgets every earlier game and reseeds.
  virtual void new_game(uint64_t seed) = 0;
  // A legal move for the player to move in `state` (neither terminal nor a chance node).
  virtual uint32_t choose_move(const StateBlob& state) = 0;
  // Told every move made in the game (by either side, chance outcomes included), from `before`.
  virtual void observe_move(const StateBlob& before, uint32_t move) = 0;
  // The agent and its settings, e.g. "uct (playouts=10000, leaf=1, c=0.7, roots=1, cpu)".
  virtual std::string describe() const = 0;

  const MoveStats& last_move() const { return last_move_; }

  // From the next move on, `seconds` of wall time per move instead of the settings' budget; 0 returns to the
  // settings' budget. How a caller that keeps a game clock (GTP's time_settings) gives each move its share
  // without making a new agent (which would lose the tree it keeps between moves).
  void set_move_time(double seconds) { move_time_ = seconds; }

protected:
  MoveStats last_move_;
  double move_time_ = 0; // set_move_time's value; agents read their budget through with_move_time
};

// Throws std::invalid_argument for settings the game cannot honour (not a two-player game, a CUDA
// device without the plugin's CUDA playout table, a zero budget) and std::runtime_error when a
// device cannot be opened.
std::unique_ptr<Agent> make_agent(const GameInstance& game, const AgentSettings& settings);

// A seed for sub-stream `stream` of `seed` (a Philox block), so related streams do not overlap.
uint64_t derive_seed(uint64_t seed, uint64_t stream);

// The move (in the game's notation) an agent with `settings` and `seed` chooses in the state given
// by its text: the one-call entry point for game-specific tests ("UCT finds the winning move").
std::string choose_move_text(const GameInstance& game, const std::string& state_text, const AgentSettings& settings,
                             uint64_t seed);

} // namespace gsdk::core
