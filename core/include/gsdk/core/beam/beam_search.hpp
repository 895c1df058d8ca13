// beam_search.hpp - beam search for one-player games, written against the ABI so that any such game can use it:
// a beam of states expanded level by level, each child scored by the game's static evaluation
// (gsdk.evaluation.v1), duplicates removed by the state's canonical key (gsdk.perft_keys.v1, as hashed perft keys
// its subtrees), at most a few children of any one parent kept (diversity), and the best `width` children going on.
// A child that ends the game leaves the beam as a finished sequence; the best of them is the run's result.
//
// The selection of a level (beam_selection.hpp) is defined once, as an order over the level's children:
//   value descending, then a tie-break hash of (search seed, child key) ascending, then the child's place
//   (parent's place in the beam, then the parent's legal-move order) ascending;
// in that order a child is dropped when an earlier one has its key (dedup), then when children_per_parent earlier
// survivors share its parent (diversity), and the first `width` of the rest form the next beam, in that order.
// So a search's result is a function of (game, parameters, seed, its number, its start, width, cap): not of threads,
// device (CPU threads or a GPU through gsdk.cuda_perft.v1's kernels give the same beams), or the processes a run is
// split over.
//
// A run is searches 0 .. restarts (numbered as NMCS numbers them, and split over processes by the same WorkPart):
// search k starts where starts[k mod n] lead (a warm start: its moves begin every sequence it reports) and breaks
// ties with seed (run seed, k). Equal scores go to the lowest search, then to the sequence finished first
// (the shallower level, then the earlier place in that level's order). A search cut short (by the time, a stop
// request or stop_at_score) ends with its beam's first state finished greedily: each move the child the evaluation
// ranks first (the first of equals), so a stopped run reports a whole game as deep as its beam got, not only the
// games that had ended before.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "gsdk/core/runtime/work_part.hpp"

namespace gsdk::core {

struct BeamSettings {
  uint64_t seed = 1;
  uint32_t width = 1000;            // states kept per level, >= 1
  uint32_t children_per_parent = 0; // diversity: children of one state kept per level, 0 = no cap
  bool dedup = true;                // drop children whose canonical key an earlier child of the level has
  unsigned threads = 1;             // CPU threads expanding a level (the CPU device)
  // As NMCS takes them: the run's time, stop request, deadline, restarts, checkpoints and part. A beam search is
  // checkpointed whole: a resumed run starts no finished search and runs the ones under way from their start.
  SearchBudget budget;
  // Move lists played from the initial state before the searches (see the top of the file). Empty: the initial
  // state. A start that ends the game is refused (StartMovesError).
  std::vector<std::vector<uint32_t>> starts;
};

// A level of a search finished: its depth below the search's start, the states it kept, and what the selection
// dropped.
struct BeamLevel {
  uint32_t search = 0;
  uint32_t depth = 0;
  uint64_t children = 0;   // non-terminal children scored
  uint64_t finished = 0;   // children that ended the game
  uint64_t duplicates = 0; // dropped by key
  uint64_t capped = 0;     // dropped by the per-parent cap
  uint32_t kept = 0;       // the next beam's width
};
using BeamLevelFn = std::function<void(const BeamLevel&)>;

// The rules of a level's selection (see the top of the file), for one search.
struct BeamSelectionRules {
  uint64_t tie_seed = 0; // the search's: beam_tie_seed(run seed, search)
  uint32_t width = 1;
  uint32_t children_per_parent = 0; // 0: no cap
  bool dedup = true;
};

// A child of a level, named by its parent's place in the beam and its move.
struct BeamChild {
  uint32_t parent = 0;
  uint32_t move = 0;
};

// A child that ended the game, and its score.
struct FinishedChild {
  BeamChild child;
  int64_t score = 0;
};

// What a device reports of a level: the next beam's states as children of this one, in the next beam's order; the
// children that ended the game, in the level's child order; and the counts.
struct BeamLevelResult {
  std::vector<BeamChild> kept;
  std::vector<FinishedChild> finished;
  uint64_t children = 0; // non-terminal children scored
  uint64_t duplicates = 0;
  uint64_t capped = 0;
};

// Where a level's children are made, scored and keyed and the next beam chosen: CPU threads through the per-state
// table (cpu_beam_device.cpp), or a GPU through the game's CUDA perft kernels and evaluation (cuda_beam_device.cu).
// Both give the same levels.
class BeamDevice {
public:
  virtual ~BeamDevice() = default;
  // Refuses (MemoryRefusal, with the numbers) a beam of `width` states whose levels could not fit in the device's
  // memory: each level may hold width x max_moves children.
  virtual void require_room(uint32_t width) const = 0;
  // The beam is the single state `start` (state_size bytes, not terminal).
  virtual void reset(const StateBlob& start) = 0;
  // Expands the beam one level and replaces it with the children the rules keep (the beam is then empty when no
  // child goes on). Throws std::runtime_error naming the plugin when one of its calls fails.
  virtual BeamLevelResult expand(const BeamSelectionRules& rules) = 0;
  // The beam's state at `place` (below the width the last level kept), on the host.
  virtual StateBlob state(uint32_t place) = 0;
  // E.g. "cpu, 2 threads" or "cuda:0 NVIDIA H200".
  virtual std::string describe() const = 0;
};

// Search `search`'s tie-break seed in a run of seed `seed`.
uint64_t beam_tie_seed(uint64_t seed, uint32_t search);

// What a game needs for a beam search, or why it cannot have one: a one-player game without chance moves, with
// the evaluation table (and for a GPU, its cuda_evaluate and the CUDA perft table). Throws std::invalid_argument
// naming the game and what it lacks.
void require_beam_game(const GameInstance& game, bool on_gpu);

// A device for beam searches: CPU threads, or the CUDA device `cuda_device` (>= 0), whose memory for the levels of
// a beam of `width` states (at most a share of its free memory) it takes at once.
std::unique_ptr<BeamDevice> make_cpu_beam_device(const GameInstance& game, unsigned threads);
std::unique_ptr<BeamDevice> make_cuda_beam_device(const GameInstance& game, int32_t cuda_device, uint32_t width);

// Runs the searches; the outcome's counts are the beam's (batches = levels expanded, beam_children, beam_duplicates,
// beam_capped; no playouts), its engine "beam" and its device the BeamDevice's. Throws std::invalid_argument for
// settings it cannot run (StartMovesError for start moves that are not a legal, unfinished game; a width of 0),
// ResumeError for a checkpoint that does not fit. on_level hears of every level, on the calling thread.
NestedSearchOutcome run_beam(const GameInstance& game, const BeamSettings& settings, BeamDevice& device,
                             const ImprovementFn& on_improvement = {}, const BeamLevelFn& on_level = {},
                             const FinishedSearchFn& on_finished = {});

} // namespace gsdk::core
