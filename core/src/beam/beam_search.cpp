// beam_search.cpp - the beam search's run (beam_search.hpp): its searches one after the other through the loop NMCS
// and NRPA share (side_by_side_searches.hpp: time, stop requests, parts, checkpoints), each a beam on one device,
// a level a round, and the moves of its states in a BeamPaths.
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "beam/beam_paths.hpp"
#include "gsdk/core/beam/beam_search.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "nested/search_starts.hpp"
#include "nested/side_by_side_searches.hpp"
#include "perft/state_key.hpp"

namespace gsdk::core {

namespace {

// One search: its number, its start, its best, and whether its beam has emptied. The beam itself is the device's
// and its moves the run's BeamPaths, since searches run one at a time.
struct BeamRun {
  uint32_t search = 0;
  uint32_t start = 0; // its start's place in the settings' starts
  size_t start_moves = 0;
  uint32_t depth = 0;
  MoveSequence best;
  bool emptied = false;

  uint32_t number() const { return search; }
  bool done() const { return emptied; }
  // A beam is checkpointed whole: a resumed run runs it again from its start.
  std::optional<SearchUnderWay> under_way() const { return std::nullopt; }
};

// `state` (reached by `moves`) played on greedily: each move to the child the game's evaluation ranks first (the
// first of equals). Returns the best game that ended along the way (children that end it are scored as they
// come), or an empty sequence when the evaluation could not be asked (a failing plugin throws).
MoveSequence finish_greedily(const GameInstance& game, StateBlob state, std::vector<uint32_t> moves) {
  MoveSequence best;
  std::vector<uint32_t> legal(game.max_moves());
  StateBlob children;
  std::vector<uint32_t> live;
  std::vector<int32_t> values;
  const uint32_t size = game.state_size();
  while (game.current_player(state) != GSDK_PLAYER_TERMINAL) {
    const uint32_t n = game.checked_legal_moves(state, legal);
    game.require_moves_in_live_state(state, n);
    children.resize(uint64_t{n} * size);
    live.clear();
    for (uint32_t k = 0; k < n; ++k) {
      unsigned char* child = children.data() + uint64_t{live.size()} * size;
      std::copy(state.begin(), state.end(), child);
      game.apply_move(child, legal[k]);
      if (game.current_player(child) != GSDK_PLAYER_TERMINAL) {
        live.push_back(k);
        continue;
      }
      const int64_t score = game.score(child);
      if (score <= best.score) continue;
      best.score = score;
      best.moves = moves;
      best.moves.push_back(legal[k]);
    }
    if (live.empty()) break;
    values.resize(live.size());
    call_plugin(
        [&](char* error, uint32_t error_size) {
          return game.tables().evaluation->evaluate(game.handle(), children.data(), static_cast<uint32_t>(live.size()),
                                                    values.data(), error, error_size);
        },
        [&] {
          return fmt::format("game '{}': evaluate of {} children finishing a beam", game.game().name, live.size());
        });
    const size_t pick = static_cast<size_t>(std::max_element(values.begin(), values.end()) - values.begin());
    state.assign(children.begin() + static_cast<std::ptrdiff_t>(pick * size),
                 children.begin() + static_cast<std::ptrdiff_t>((pick + 1) * size));
    moves.push_back(legal[live[pick]]);
  }
  return best;
}

} // namespace

uint64_t beam_tie_seed(uint64_t seed, uint32_t search) {
  return perft_key::splitmix_finish(perft_key::murmur_finish(seed) ^ (uint64_t{search} << 1 | 1));
}

void require_beam_game(const GameInstance& game, bool on_gpu) {
  require_one_player_game(game, "beam search");
  const PluginTables& tables = game.tables();
  const std::string name = game.game().name;
  if (!tables.evaluation)
    throw std::invalid_argument(fmt::format("beam search scores children by the game's evaluation; '{}' has no "
                                            "evaluation table (gsdk.evaluation.v1)",
                                            name));
  if (!on_gpu) return;
  if (!tables.evaluation->cuda_evaluate)
    throw std::invalid_argument(
        fmt::format("beam search on a GPU needs the game's CUDA evaluation; '{}' has none (cuda_evaluate)", name));
  if (!tables.cuda_perft)
    throw std::invalid_argument(fmt::format("beam search on a GPU makes children with the game's CUDA perft kernels; "
                                            "'{}' has none (gsdk.cuda_perft.v1)",
                                            name));
}

NestedSearchOutcome run_beam(const GameInstance& game, const BeamSettings& settings, BeamDevice& device,
                             const ImprovementFn& on_improvement, const BeamLevelFn& on_level,
                             const FinishedSearchFn& on_finished) {
  require_one_player_game(game, "beam search");
  if (settings.width < 1) throw std::invalid_argument("a beam's width must be at least 1");
  const SearchStarts starts = search_starts(game, settings.starts, false);
  // Searches run one at a time: the device holds one beam.
  SearchBudget budget = settings.budget;
  budget.searches_in_parallel = 1;
  NestedSearchOutcome outcome;
  outcome.engine = "beam";
  outcome.device = device.describe();
  device.require_room(settings.width);
  SearchRecord record(on_improvement, budget);
  BeamPaths paths;
  std::optional<uint32_t> under_way; // the search whose beam has states left after its last level

  const auto make = [&](uint32_t k, const SearchUnderWay*) {
    const uint32_t from = starts.of(k);
    auto run = std::make_unique<BeamRun>();
    run->search = k;
    run->start = starts.index[from];
    run->start_moves = starts.moves[from].size();
    paths.reset(starts.moves[from]);
    const StateBlob& start = starts.states[from];
    if (game.current_player(start) == GSDK_PLAYER_TERMINAL) { // only the initial state, which is then the best
      run->best = MoveSequence{game.score(start), starts.moves[from]};
      if (run->best.score > record.best().score) record.offer_latest(k, run->best);
      run->emptied = true;
      return run;
    }
    device.reset(start);
    return run;
  };
  const BeamSelectionRules rules_of_run{0, settings.width, settings.children_per_parent, settings.dedup};
  const auto play_level = [&](std::vector<BeamRun*>& round) {
    for (BeamRun* run : round) {
      BeamSelectionRules rules = rules_of_run;
      rules.tie_seed = beam_tie_seed(settings.seed, run->search);
      const BeamLevelResult level = device.expand(rules);
      ++run->depth;
      // Children in level order: only a higher score replaces a search's best, so the first found stays.
      for (const FinishedChild& f : level.finished) {
        if (f.score <= run->best.score) continue;
        run->best = MoveSequence{f.score, paths.moves_to(f.child.parent, f.child.move)};
        if (f.score > record.best().score) record.offer_latest(run->search, run->best);
      }
      paths.advance(level.kept);
      run->emptied = level.kept.empty();
      under_way = run->emptied ? std::nullopt : std::optional<uint32_t>(run->search);
      outcome.beam_children += level.children;
      outcome.beam_duplicates += level.duplicates;
      outcome.beam_capped += level.capped;
      if (on_level)
        on_level(BeamLevel{run->search, run->depth, level.children, level.finished.size(), level.duplicates,
                           level.capped, static_cast<uint32_t>(level.kept.size())});
    }
  };
  const auto retire = [&](const BeamRun& run) {
    if (!on_finished || run.best.empty()) return;
    const std::span<const uint32_t> after_start(run.best.moves.begin() + static_cast<std::ptrdiff_t>(run.start_moves),
                                                run.best.moves.end());
    on_finished({run.search, run.start, run.best.score, after_start});
  };
  run_side_by_side<BeamRun>(budget, record, outcome, make, play_level, retire);
  // A search cut short: its beam's first state, finished greedily, may beat what had ended before the stop.
  const bool cut_short = outcome.stopped_by_time || outcome.stopped_by_request || outcome.reached_stop_score;
  if (!under_way || !cut_short || paths.width() == 0) return outcome;
  const MoveSequence finished = finish_greedily(game, device.state(0), paths.moves_of(0));
  if (finished.empty() || finished.score <= record.best().score) return outcome;
  record.offer_latest(*under_way, finished);
  outcome.best = record.best();
  outcome.best_search = record.best_search();
  return outcome;
}

} // namespace gsdk::core
