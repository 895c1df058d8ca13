// nmcs_host_cost.cpp - what NMCS's host side costs per level-1 search it hands out, at the widths a GPU
// needs. A stand-in level-1 searcher answers every search at once (the first legal move until the end),
// so the wall time outside it is the host's alone: building, handing out, delivering and retiring frames.
// Usage: nmcs_host_cost PLUGIN_DIR DIMENSION LEVEL SEARCHES_SIDE_BY_SIDE RESTARTS
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "game_params.hpp"
#include "gsdk/core/level1_searcher.hpp"
#include "gsdk/core/nested_search.hpp"
#include "plugin_catalog.hpp"

namespace {

using namespace gsdk;

class FirstMoveSearcher final : public core::Level1Searcher {
public:
  explicit FirstMoveSearcher(const core::GameInstance& game) : game_(game), legal_(game.max_moves()) {}

  void start(uint32_t slot, std::span<const core::Level1Task> tasks) override {
    const auto began = std::chrono::steady_clock::now();
    auto& outcomes = outcomes_[slot];
    outcomes.resize(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
      state_.assign(tasks[i].start, tasks[i].start + game_.state_size());
      outcomes[i].moves.clear();
      while (game_.current_player(state_) == 0) {
        game_.checked_legal_moves(state_, legal_);
        outcomes[i].moves.push_back(legal_[0]);
        game_.apply_move(state_, legal_[0]);
      }
      outcomes[i].score = game_.score(state_);
    }
    searches += tasks.size();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  }

  void finish(uint32_t slot, std::span<core::Level1Outcome> outcomes) override {
    std::move(outcomes_[slot].begin(), outcomes_[slot].end(), outcomes.begin());
  }

  std::string describe() const override { return "first legal move (host cost benchmark)"; }

  uint64_t searches = 0;
  double seconds = 0; // inside start, i.e. the stand-in's own work

private:
  const core::GameInstance& game_;
  std::vector<uint32_t> legal_;
  core::StateBlob state_;
  std::vector<core::Level1Outcome> outcomes_[kSlots];
};

} // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s PLUGIN_DIR DIMENSION LEVEL SEARCHES_SIDE_BY_SIDE RESTARTS\n", argv[0]);
    return 2;
  }
  host::PluginCatalog catalog;
  catalog.load_file(std::filesystem::path(argv[1]) / "snake.so");
  const auto& tables = catalog.find("snake")->tables;
  const toml::table params{{"dimension", std::atoi(argv[2])}};
  const core::GameInstance game(tables, host::resolve_params(*tables.game, params).values);
  const auto evaluator = core::make_cpu_batch_evaluator(game, 1, 1);
  FirstMoveSearcher searcher(game);
  core::NmcsSettings settings;
  settings.level = static_cast<uint32_t>(std::atoi(argv[3]));
  settings.budget.searches_in_parallel = static_cast<uint32_t>(std::atoi(argv[4]));
  settings.budget.restarts = static_cast<uint32_t>(std::atoi(argv[5]));
  const core::NestedSearchOutcome outcome = core::run_nmcs(game, settings, *evaluator, {}, &searcher);
  const double host = outcome.wall_seconds - searcher.seconds;
  std::printf("d=%s level %u, %u side by side, %u searches: wall %.3f s, stand-in searcher %.3f s, host %.3f s; "
              "%llu level-1 searches, %.3f us of host time each; %llu rounds\n",
              argv[2], settings.level, settings.budget.searches_in_parallel, outcome.searches_finished,
              outcome.wall_seconds, searcher.seconds, host, static_cast<unsigned long long>(searcher.searches),
              1e6 * host / static_cast<double>(searcher.searches), static_cast<unsigned long long>(outcome.batches));
  return 0;
}
