// nmcs_host_cost.cpp - what NMCS's host side costs per level-1 search it hands out, at the widths a GPU
// needs. A stand-in level-1 searcher answers every search quickly (the first legal move until the end).
// MODE "sync" (default): it answers inside start(), unpipelined, so the wall time outside it is the host's
// alone: building, handing out, delivering and retiring frames. "async" and "pipelined": start() copies the
// states (as a GPU searcher stages them) and a background thread plays them, as a GPU would, without and
// with NMCS's two groups; the wall times show how much of the host's work the pipeline hides.
// Usage: nmcs_host_cost PLUGIN_DIR DIMENSION LEVEL SEARCHES_SIDE_BY_SIDE RESTARTS [MODE]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <string>
#include <vector>

#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace {

using namespace gsdk;

class FirstMoveSearcher final : public core::Level1Searcher {
public:
  FirstMoveSearcher(const core::GameInstance& game, bool background) : game_(game), background_(background) {}

  void start(uint32_t slot, std::span<const core::Level1Task> tasks) override {
    const auto began = std::chrono::steady_clock::now();
    Slot& s = slots_[slot];
    s.states.resize(tasks.size() * game_.state_size());
    for (size_t i = 0; i < tasks.size(); ++i)
      std::copy(tasks[i].start, tasks[i].start + game_.state_size(), s.states.begin() + i * game_.state_size());
    s.outcomes.resize(tasks.size());
    searches += tasks.size();
    if (background_) {
      s.running = std::async(std::launch::async, [this, &s] { play(s); });
    } else {
      play(s);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    }
  }

  void finish(uint32_t slot, std::span<core::Level1Outcome> outcomes) override {
    Slot& s = slots_[slot];
    if (s.running.valid()) s.running.get();
    std::move(s.outcomes.begin(), s.outcomes.end(), outcomes.begin());
  }

  std::string describe() const override { return "first legal move (host cost benchmark)"; }

  uint64_t searches = 0;
  double seconds = 0; // sync: inside start, i.e. the stand-in's own work

private:
  struct Slot {
    std::vector<unsigned char> states;
    std::vector<core::Level1Outcome> outcomes;
    std::future<void> running;
  };

  void play(Slot& s) const {
    std::vector<uint32_t> legal(game_.max_moves());
    core::StateBlob state;
    for (size_t i = 0; i < s.outcomes.size(); ++i) {
      state.assign(s.states.begin() + i * game_.state_size(), s.states.begin() + (i + 1) * game_.state_size());
      s.outcomes[i].moves.clear();
      while (game_.current_player(state) == 0) {
        game_.checked_legal_moves(state, legal);
        s.outcomes[i].moves.push_back(legal[0]);
        game_.apply_move(state, legal[0]);
      }
      s.outcomes[i].score = game_.score(state);
    }
  }

  const core::GameInstance& game_;
  bool background_;
  Slot slots_[kSlots];
};

} // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 7 ? argv[6] : "sync";
  if ((argc != 6 && argc != 7) || (mode != "sync" && mode != "async" && mode != "pipelined")) {
    std::fprintf(stderr, "usage: %s PLUGIN_DIR DIMENSION LEVEL SEARCHES_SIDE_BY_SIDE RESTARTS [sync|async|pipelined]\n",
                 argv[0]);
    return 2;
  }
  host::PluginCatalog catalog;
  catalog.load_file(std::filesystem::path(argv[1]) / "snake.so");
  const auto& tables = catalog.find("snake")->tables;
  const toml::table params{{"dimension", std::atoi(argv[2])}};
  const core::GameInstance game(tables, host::resolve_params(*tables.game, params).values);
  const auto evaluator = core::make_cpu_batch_evaluator(game, 1, 1);
  FirstMoveSearcher searcher(game, mode != "sync");
  core::NmcsSettings settings;
  settings.level = static_cast<uint32_t>(std::atoi(argv[3]));
  settings.budget.searches_in_parallel = static_cast<uint32_t>(std::atoi(argv[4]));
  settings.budget.restarts = static_cast<uint32_t>(std::atoi(argv[5]));
  settings.pipeline = mode == "pipelined";
  const core::NestedSearchOutcome outcome = core::run_nmcs(game, settings, *evaluator, {}, &searcher);
  if (mode != "sync") {
    std::printf("d=%s level %u, %u side by side, %s: wall %.3f s, waiting for the stand-in %.3f s; %llu rounds\n",
                argv[2], settings.level, settings.budget.searches_in_parallel, mode.c_str(), outcome.wall_seconds,
                outcome.evaluator_seconds, static_cast<unsigned long long>(outcome.batches));
    return 0;
  }
  const double host = outcome.wall_seconds - searcher.seconds;
  std::printf("d=%s level %u, %u side by side, %u searches: wall %.3f s, stand-in searcher %.3f s, host %.3f s; "
              "%llu level-1 searches, %.3f us of host time each; %llu rounds\n",
              argv[2], settings.level, settings.budget.searches_in_parallel, outcome.searches_finished,
              outcome.wall_seconds, searcher.seconds, host, static_cast<unsigned long long>(searcher.searches),
              1e6 * host / static_cast<double>(searcher.searches), static_cast<unsigned long long>(outcome.batches));
  return 0;
}
