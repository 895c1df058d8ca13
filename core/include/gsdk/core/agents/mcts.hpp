// mcts.hpp - one UCT search tree (Kocsis & Szepesvari's UCB1 applied to trees) over any two-player
// zero-sum game, grown one iteration at a time: select by UCB1 from the root, expand a leaf on its
// second visit (all children at once), evaluate the new leaf with a batch of playouts (leaf
// parallelisation), back the batch's win/draw/loss counts up to the root.
//
// With evaluate_children an expansion evaluates all the new children at once instead of one: a node
// then enters the tree with a value, and UCB1 never spends a selection on a child's first visit. Each
// selection costs the host about the same, so the tree grows by a node's branching factor per
// selection, at that many times the playouts: the trade a GPU with idle capacity wants.
//
// An iteration may select several leaves before any is evaluated (so a GPU evaluates them in one
// launch): each selected path carries a virtual loss for its movers until its result arrives, which
// steers the next selections elsewhere (Chaslot et al.'s tree parallelisation, here on one thread).
// With two batches in flight an iteration starts its batch and lands the previous one, so a GPU plays out
// one batch while the host selects the next (whose paths see both batches' virtual losses).
//
// Values are kept as player 0's points (win 1, draw 1/2, a playout the game's evaluation valued its reward in
// [0, 1]: WinDrawLoss::valued_points) so a node needs no notion of whose turn it was; selection turns them into
// the mover's. Chance nodes pick their outcome by its probability.
// A draw_value below 1/2 makes the root player play for a win (contempt, for a stronger agent against
// a weaker one): a draw scores draw_value for that player and 1 - draw_value for the other, so the
// game stays zero-sum for the tree, and a tree is kept only while its root belongs to that player.
// Nodes and their states live in two flat arrays capped at max_nodes; a leaf whose children would
// not fit is evaluated again instead of expanded, so memory stays bounded however long the search.
//
// States the game evaluates exactly (GameInstance::is_exact: every playout reports perfect play's
// outcome) and finished games are solved nodes: evaluated once, never expanded, and selected again at
// no cost (their outcome counted once more). Wins and losses climb the tree as in MCTS-Solver: a node
// whose mover has a solved child that wins for it, or whose children all lose for it, is solved too, is
// not descended into again, and counts its outcome for every later selection. Its past statistics are
// kept (restating them as its outcome inflated the average of its parent, whose mover avoids it), and
// draws are not proven upwards: a proven draw's exact 1/2 beside random playouts' uncalibrated means
// (a won endgame often averages below 1/2) drew UCT to it (othello's decisive-endgame tests failed).
// With an evaluator that solves apart (a device), an exact node first gets a provisional value from
// random playouts like any leaf; selected again, it goes
// to a solve batch of its own, which lands whenever the device has it done while the playout batches go
// on, and its playouts are then restated as exact ones on it and above. A selection that reaches a node
// waiting for its solve adds only a virtual loss to its path. So the device solves the exact nodes the
// search comes back to, and the tree never waits for a solve until it settles.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <vector>

#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/rng/philox.hpp"

namespace gsdk::core {

struct TreeSettings {
  double exploration = 0.7;
  uint32_t leaf = 1;              // playouts per evaluation
  uint64_t max_nodes = 1u << 20;  // at least 1
  uint32_t batch = 1;             // leaves selected and evaluated together per iteration
  uint32_t in_flight = 1;         // batches started before the oldest is backed up (2: overlap a GPU)
  bool evaluate_children = false; // an expansion evaluates every new child, not one selected among them
  double draw_value = 0.5;        // a draw's worth to the player at the root (below 1/2: contempt)
};

// A root move with its statistics.
struct RootChild {
  uint32_t move = 0;
  uint64_t visits = 0; // playouts backed up through it
  double points = 0;   // player 0's points over those playouts
};

class SearchTree {
public:
  SearchTree(const GameInstance& game, std::unique_ptr<LeafEvaluator> evaluator, const TreeSettings& settings);

  // Empties the tree and reseeds its random streams (playouts and chance outcomes).
  void reset(uint64_t seed);
  // Drops every node (the random streams go on).
  void clear();
  // Makes `state` the root: keeps the tree when it already is the root, else starts a new one.
  void set_root(const StateBlob& state);
  // The move `move` was played from `before`: when `before` is the root, the subtree of that move
  // becomes the tree (its statistics carried over) and the rest is dropped; otherwise the tree is
  // emptied. Returns whether a subtree was kept.
  bool advance(const StateBlob& before, uint32_t move);
  // One iteration of up to `batch` selections, fewer when `allowance` playouts do not cover their
  // leaves (at least one); returns the playouts it accounted for (leaf per evaluated node, also for
  // exact terminal results). Needs a root (set_root). A batch may still be in flight when it returns
  // (see settle).
  uint64_t iterate(uint64_t allowance = std::numeric_limits<uint64_t>::max());
  // Backs up every batch still in flight, and the solves queued or in flight (waiting for them);
  // root_children and node statistics are final after it.
  void settle();

  bool empty() const { return nodes_.empty(); }
  uint64_t node_count() const { return nodes_.size(); }
  uint64_t root_visits() const { return nodes_.empty() ? 0 : nodes_[0].visits; }
  std::vector<RootChild> root_children() const;
  const LeafEvaluator& evaluator() const { return *evaluator_; }

private:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

  // Whether a node's state is exact (see above), and once its value is back, player 0's outcome.
  enum class Exact : uint8_t { no, unsolved, win, draw, loss };
  struct Node {
    uint32_t parent = kNone;
    uint32_t first_child = kNone; // children are contiguous: first_child .. first_child + child_count - 1
    uint32_t child_count = 0;
    uint32_t move = 0;  // the move from the parent
    int16_t player = 0; // current_player of the node's state
    Exact exact = Exact::no;
    uint32_t pending = 0;   // selections of this iteration through the node, not yet backed up
    double probability = 0; // of this outcome, when the parent is a chance node
    uint64_t visits = 0;
    double points = 0; // player 0's points
  };
  // Selection walks the tree from the root through memory it mostly misses in cache: keep nodes small.
  static_assert(sizeof(Node) == 48);

  const unsigned char* state(uint32_t node) const { return states_.data() + uint64_t{node} * state_size_; }
  // A node whose state was written at the end of states_.
  uint32_t add_node(uint32_t parent, uint32_t move, double probability);
  uint32_t select_child(uint32_t node);
  // Creates the children of `node` when they fit under max_nodes; returns whether it did.
  bool expand(uint32_t node);
  // Descends to a leaf, expanding it when due, and appends what is to be evaluated to `leaves` with
  // their paths marked pending: the leaf, or one child of it, or (evaluate_children) all its children.
  // An exact node selected again to be solved apart goes to the solve queue instead. Returns the
  // evaluations it accounts for (the selection of an exact node waiting for its value counts as one).
  uint32_t select_leaves(std::vector<uint32_t>& leaves);
  // Adds `selections` pending selections to `node` and every node above it.
  void mark_pending(uint32_t node, uint32_t selections);
  // Leaves selected together: exact results of the terminal ones now, playouts for the others started
  // as one evaluator batch (`unfinished` indexes them in `leaves`).
  struct Flight {
    std::vector<uint32_t> leaves;
    std::vector<WinDrawLoss> results;
    std::vector<uint32_t> unfinished;
  };
  Flight launch(std::vector<uint32_t> leaves);
  // Waits for the oldest flight's playouts and backs its leaves up.
  void land_oldest();
  // Lands `result` (of `selections` pending selections) on one node.
  void back_up_node(uint32_t node, const WinDrawLoss& result, uint32_t selections);
  // ... on a node and every node above it.
  void back_up_path(uint32_t node, const WinDrawLoss& result, uint32_t selections);

  // A solved node's outcome as `playouts` playouts.
  WinDrawLoss exact_result(const Node& node, uint64_t playouts) const;
  // A leaf just solved: the playouts counted on it (a provisional value) are restated as its outcome,
  // on it and on the nodes above up to the first solved one.
  void restate(uint32_t node);
  // MCTS-Solver (Winands, Bjornsson & Saito, 2008): a node with a solved child that wins for its mover is
  // a win for it, one whose children all lose for it a loss; else Exact::no.
  Exact proven_value(const Node& node) const;
  // Solves `node` and the nodes above it while their children decide them. The root stays unsolved (a
  // search must go on choosing among its children), and so do chance nodes.
  void prove_from(uint32_t node);
  // Records an exact node's outcome from `result` (`leaf` playouts of it), restates the playouts counted
  // on it so far as that outcome, and lands the selections still pending on it, each worth that result.
  void record_exact(uint32_t node, const WinDrawLoss& result);
  // Lands the solve batch when the device has it done, and starts the next from the queue.
  void tend_solves();
  void start_solves();
  void land_solves();

  // Player 0's points for a result, with draws valued for the root's player (see draw_value).
  double points_of(const WinDrawLoss& result) const;
  // Capacity for max_nodes nodes (at most kReservedNodes) reserved up front: regrowing arrays of
  // millions of nodes would stall a timed search for a tenth of a second. Pages are touched only as used.
  static constexpr uint64_t kReservedNodes = uint64_t{1} << 24;
  void reserve_room(std::vector<Node>& nodes, std::vector<unsigned char>& states) const;

  const GameInstance& game_;
  std::unique_ptr<LeafEvaluator> evaluator_;
  TreeSettings settings_;
  int32_t root_player_ = 0; // the player the tree's draw points were counted for
  uint32_t state_size_;
  std::vector<Node> nodes_;
  std::vector<unsigned char> states_;
  std::vector<Node> spare_nodes_; // advance's destination, swapped in (keeps its capacity)
  std::vector<unsigned char> spare_states_;
  rng::PhiloxStream chance_{0, 0};
  std::vector<uint32_t> moves_;
  std::vector<double> probabilities_;
  StateBlob scratch_;
  std::vector<unsigned char> packed_; // the states of one iteration's unfinished leaves
  std::deque<Flight> flights_;        // started and not yet backed up, oldest first
  bool solves_apart_;                 // the evaluator agreed to solve apart
  std::vector<uint32_t> solve_queue_; // exact nodes selected and not yet sent, oldest first
  std::vector<uint32_t> solving_;     // the solve batch in flight
};

} // namespace gsdk::core
