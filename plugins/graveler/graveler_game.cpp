// graveler_game.cpp - per-state rules, text I/O, replay and the exact binomial distribution.
#include "graveler_game.hpp"

#include <cmath>
#include <cstdio>

#include "cpu/battles_cpu.hpp"
#if defined(GSDK_WITH_CUDA)
#include "cuda/battles_cuda.hpp"
#endif

namespace graveler {

namespace {
const gsdk_param_desc kParameters[] = {
    {"rolls", GSDK_PARAM_INT, 0, kDefaultRolls, 0.0, nullptr, 1, kMaxRolls,
     "die rolls per battle (the challenge uses 231)"},
};
} // namespace

std::span<const gsdk_param_desc> Game::parameters() { return kParameters; }

Game::Game(const gsdk::Params& params) {
  const int64_t rolls = params.get_int("rolls");
  if (rolls < 1 || rolls > kMaxRolls)
    throw gsdk::PluginError("rolls = " + std::to_string(rolls) + " is out of range [1, " +
                            std::to_string(kMaxRolls) + "]");
  layout_ = BattleLayout::for_rolls(static_cast<int>(rolls));
}

int32_t Game::current_player(const State& s) const {
  return s.rolls_done >= layout_.rolls ? GSDK_PLAYER_TERMINAL : GSDK_PLAYER_CHANCE;
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double* probabilities) const {
  if (s.rolls_done >= layout_.rolls) return 0;
  for (uint32_t face = 1; face <= 4; ++face) {
    moves[face - 1] = face;
    if (probabilities) probabilities[face - 1] = 0.25;
  }
  return 4;
}

void Game::apply_move(State& s, uint32_t face) const {
  ++s.rolls_done;
  if (face == 1) ++s.ones;
}

std::string Game::state_to_string(const State& s) const {
  return "rolls=" + std::to_string(s.rolls_done) + " ones=" + std::to_string(s.ones);
}

State Game::state_from_string(std::string_view text) const {
  unsigned rolls = 0, ones = 0;
  char extra = 0;
  const std::string copy(text);
  if (std::sscanf(copy.c_str(), " rolls=%u ones=%u %c", &rolls, &ones, &extra) != 2)
    throw gsdk::PluginError("graveler state '" + copy + "': expected 'rolls=R ones=O'");
  if (rolls > static_cast<unsigned>(layout_.rolls))
    throw gsdk::PluginError("graveler state '" + copy + "': rolls=" + std::to_string(rolls) +
                            " exceeds the game's " + std::to_string(layout_.rolls) + " rolls");
  if (ones > rolls)
    throw gsdk::PluginError("graveler state '" + copy + "': ones=" + std::to_string(ones) +
                            " exceeds rolls=" + std::to_string(rolls));
  return State{static_cast<uint16_t>(rolls), static_cast<uint16_t>(ones)};
}

BattleLayout Game::remaining_layout(const void* start, int& ones_so_far) const {
  ones_so_far = 0;
  if (!start) return layout_;
  const State& s = *static_cast<const State*>(start);
  if (s.rolls_done > layout_.rolls || s.ones > s.rolls_done)
    throw gsdk::PluginError("start state " + state_to_string(s) + " is not a graveler state");
  ones_so_far = s.ones;
  return BattleLayout::for_rolls(layout_.rolls - s.rolls_done);
}

int32_t Game::best_simd_level() { return cpu::best_simd_level(); }

void Game::cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const {
  int ones = 0;
  const BattleLayout layout = remaining_layout(request.start_state, ones);
  if (summary.histogram_bins != static_cast<uint32_t>(layout_.rolls) + 1)
    throw gsdk::PluginError("summary histogram has " + std::to_string(summary.histogram_bins) +
                            " bins, graveler needs " + std::to_string(layout_.rolls + 1));
  cpu::run_battles(layout, ones, request.seed, request.first_playout, request.playout_count,
                   request.simd_level, summary);
}

#if defined(GSDK_WITH_CUDA)
uint64_t Game::cuda_scratch_bytes(uint64_t) const { return cuda::scratch_bytes(layout_.rolls); }

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  int ones = 0;
  const BattleLayout layout = remaining_layout(request.start_state, ones);
  if (summary.histogram_bins != static_cast<uint32_t>(layout_.rolls) + 1)
    throw gsdk::PluginError("summary histogram has " + std::to_string(summary.histogram_bins) +
                            " bins, graveler needs " + std::to_string(layout_.rolls + 1));
  cuda::run_battles(layout, ones, request.seed, request.first_playout, request.playout_count, device, stream,
                    scratch, scratch_size, summary);
}
#endif

std::vector<uint32_t> Game::battle_faces(uint64_t seed, const BattleLayout& l, uint64_t battle) {
  gsdk::rng::Mwc64x g = pair_generator(seed, l, battle);
  std::vector<uint32_t> words(static_cast<size_t>(l.words_per_pair));
  for (auto& w : words) w = g.next();
  const bool second = (battle & 1) != 0;
  std::vector<uint32_t> faces;
  faces.reserve(static_cast<size_t>(l.rolls));
  const auto add = [&](uint32_t a_word, int a_bit, uint32_t b_word, int b_bit) {
    const uint32_t a = (a_word >> a_bit) & 1, b = (b_word >> b_bit) & 1;
    faces.push_back(4 - 2 * a - b);
  };
  const size_t base = second ? 2 * static_cast<size_t>(l.full_words) : 0;
  for (int i = 0; i < l.full_words; ++i)
    for (int bit = 0; bit < 32; ++bit) add(words[base + 2 * i], bit, words[base + 2 * i + 1], bit);
  const int r = l.tail_rolls;
  const size_t tail = 4 * static_cast<size_t>(l.full_words);
  for (int i = 0; i < r; ++i) {
    if (l.shared_tail) {
      const int first = second ? 2 * r : 0;
      add(words[tail], first + i, words[tail], first + r + i);
    } else {
      const size_t w = tail + (second ? 2 : 0);
      add(words[w], i, words[w + 1], i);
    }
  }
  return faces;
}

std::vector<uint32_t> Game::replay_playout(uint64_t seed, uint64_t playout, const State* start) const {
  int ones = 0;
  const BattleLayout layout = remaining_layout(start, ones);
  return battle_faces(seed, layout, playout);
}

void Game::exact_score_distribution(double* probabilities, uint32_t bins) const {
  const int n = layout_.rolls;
  if (bins != static_cast<uint32_t>(n) + 1)
    throw gsdk::PluginError("distribution needs " + std::to_string(n + 1) + " bins");
  for (int k = 0; k <= n; ++k) {
    const double log_choose = std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
    probabilities[k] = std::exp(log_choose + k * std::log(0.25) + (n - k) * std::log(0.75));
  }
}

} // namespace graveler
