// uct_host_cost.cpp - what a UCT tree costs the host when its playouts cost nothing, as when a GPU plays
// them (docs/perf/othello.md): a stand-in evaluator answers every state at once with outcomes drawn from a
// hash of the state, so values differ between nodes and the tree takes a search's shape, and one tree
// grows from the Othello start position for SECONDS. Prints the nodes grown and the host time per node.
// Usage: uct_host_cost PLUGIN_DIR SECONDS LEAF BATCH leaf|children
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "gsdk/core/agents/mcts.hpp"
#include "gsdk/rng/splitmix64.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace {

using namespace gsdk;

class HashedOutcomes final : public core::LeafEvaluator {
public:
  core::WinDrawLoss evaluate(const core::StateBlob& state, uint64_t playouts) override {
    uint64_t h = 0;
    for (size_t at = 0; at < state.size(); at += sizeof(uint64_t)) {
      uint64_t word = 0;
      std::memcpy(&word, state.data() + at, std::min(sizeof word, state.size() - at));
      h = rng::SplitMix64(h ^ word).next();
    }
    next_playout_ += playouts;
    core::WinDrawLoss r;
    r.wins = h % (playouts + 1);
    r.draws = (h >> 20) % (playouts - r.wins + 1) / 4;
    r.losses = playouts - r.wins - r.draws;
    return r;
  }
  std::string describe() const override { return "stand-in: outcomes hashed from the state, no playouts"; }
};

} // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 6 ? argv[5] : "";
  if (argc != 6 || (mode != "leaf" && mode != "children")) {
    std::fprintf(stderr, "usage: %s PLUGIN_DIR SECONDS LEAF BATCH leaf|children\n", argv[0]);
    return 2;
  }
  host::PluginCatalog catalog;
  catalog.load_file(std::filesystem::path(argv[1]) / "othello.so");
  const auto& tables = catalog.find("othello")->tables;
  const core::GameInstance game(tables, host::resolve_params(*tables.game, toml::table{}).values);
  core::TreeSettings settings;
  settings.leaf = static_cast<uint32_t>(std::atoi(argv[3]));
  settings.batch = static_cast<uint32_t>(std::atoi(argv[4]));
  settings.in_flight = 2;
  settings.max_nodes = uint64_t{1} << 31;
  settings.evaluate_children = mode == "children";
  core::SearchTree tree(game, std::make_unique<HashedOutcomes>(), settings);
  tree.reset(1);
  tree.set_root(game.initial_state());
  const double seconds = std::atof(argv[2]);
  const auto began = std::chrono::steady_clock::now();
  const auto deadline =
      began + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  uint64_t playouts = 0;
  double longest = 0; // one iteration's wall time: a stall here is a timed move's overrun
  for (auto now = began; now < deadline;) {
    playouts += tree.iterate();
    const auto then = std::chrono::steady_clock::now();
    longest = std::max(longest, std::chrono::duration<double>(then - now).count());
    now = then;
  }
  tree.settle();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  const uint64_t evaluated = playouts / settings.leaf;
  std::printf("%s, leaf %u, batch %u: %.2f s, %llu nodes (%.2f M/s), %llu evaluated (%.3f us each), longest "
              "iteration %.1f ms\n",
              mode.c_str(), settings.leaf, settings.batch, wall, static_cast<unsigned long long>(tree.node_count()),
              static_cast<double>(tree.node_count()) / wall / 1e6, static_cast<unsigned long long>(evaluated),
              1e6 * wall / static_cast<double>(evaluated), 1e3 * longest);
  return 0;
}
