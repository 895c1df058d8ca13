// othello_solve_cost.cpp - what exact_empties costs a leaf evaluation (docs/perf/othello.md): batches of
// COUNT states with E empty squares (from random games), 16 playouts each, evaluated through the CPU
// evaluator (one thread) and the CUDA evaluator (the plugin's playout batches: a solve launch for these
// states), with exact_empties = E, against random playouts (exact_empties = 0) from the same states.
// Prints the wall time per batch and the states per second.
// Usage: othello_solve_cost PLUGIN_DIR COUNT cpu|cuda|both EMPTIES...
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace {

using namespace gsdk;

// `count` states of random games with `empties` empty squares left (the side to move may have to pass).
std::vector<unsigned char> late_states(const core::GameInstance& game, uint32_t count, int empties) {
  std::mt19937_64 random(static_cast<uint64_t>(empties));
  std::vector<uint32_t> moves(game.max_moves());
  std::vector<unsigned char> packed;
  while (packed.size() < uint64_t{count} * game.state_size()) {
    auto state = game.initial_state();
    int plies_with_discs = 0;
    while (game.current_player(state) >= 0 && 60 - plies_with_discs > empties) {
      const uint32_t n = game.checked_legal_moves(state, moves);
      const uint32_t move = moves[random() % n];
      plies_with_discs += game.move_to_string(state, move) != "pass";
      game.apply_move(state, move);
    }
    if (game.current_player(state) >= 0) packed.insert(packed.end(), state.begin(), state.end());
  }
  return packed;
}

double seconds_per_batch(core::LeafEvaluator& evaluator, const std::vector<unsigned char>& packed, uint32_t count) {
  evaluator.evaluate_batch(packed, count, 16); // warm-up: first launch, tables
  const int rounds = 3;
  const auto began = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r) evaluator.evaluate_batch(packed, count, 16);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() / rounds;
}

} // namespace

int main(int argc, char** argv) {
  const std::string devices = argc >= 5 ? argv[3] : "";
  if (devices != "cpu" && devices != "cuda" && devices != "both") {
    std::fprintf(stderr, "usage: %s PLUGIN_DIR COUNT cpu|cuda|both EMPTIES...\n", argv[0]);
    return 2;
  }
  host::PluginCatalog catalog;
  catalog.load_file(std::filesystem::path(argv[1]) / "othello.so");
  const auto& tables = catalog.find("othello")->tables;
  const auto count = static_cast<uint32_t>(std::atoi(argv[2]));
  const bool cpu = devices != "cuda", gpu = devices != "cpu";
  std::string why;
  if (gpu && (core::cuda_devices(why).empty() || !tables.cuda_playout_batches)) {
    std::fprintf(stderr, "no CUDA playout batches here: %s\n", why.c_str());
    return 1;
  }
  std::printf("%u states a batch, 16 playouts each; ms a batch (states/s)\n", count);
  std::printf("empties%s%s\n", cpu ? " | cpu random | cpu exact" : "", gpu ? " | cuda random | cuda exact" : "");
  for (int i = 4; i < argc; ++i) {
    const int empties = std::atoi(argv[i]);
    toml::table exact_params{{"exact_empties", empties}};
    const auto plain = host::resolve_params(*tables.game, toml::table{});
    const auto exact = host::resolve_params(*tables.game, exact_params);
    const core::GameInstance plain_game(tables, plain.values), exact_game(tables, exact.values);
    const auto packed = late_states(plain_game, count, empties);
    std::vector<double> seconds;
    if (cpu) {
      seconds.push_back(seconds_per_batch(*core::make_cpu_evaluator(plain_game), packed, count));
      seconds.push_back(seconds_per_batch(*core::make_cpu_evaluator(exact_game), packed, count));
    }
    if (gpu) {
      seconds.push_back(seconds_per_batch(*core::make_cuda_evaluator(plain_game, 0, 1 << 20, count), packed, count));
      seconds.push_back(seconds_per_batch(*core::make_cuda_evaluator(exact_game, 0, 1 << 20, count), packed, count));
    }
    std::printf("%7d", empties);
    for (const double s : seconds) std::printf(" | %8.3f (%.3g)", 1e3 * s, count / s);
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
