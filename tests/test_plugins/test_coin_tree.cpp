// test_coin_tree.cpp - a small two-player game with chance nodes and a cpu_perft table, for the tests of
// the perft driver. Its tree branches unevenly (1 to 4 moves), every third ply is a coin flip, and
// games end early inside the tree (whenever the value hits a multiple of 11), so subtrees differ in
// size and finished games sit above the counted depth. The `fault` parameter breaks cpu_perft on
// purpose: 1 counts one leaf too many on every call, 2 returns an error, so tests can show that the
// comparison with the per-state rules and the driver's error path catch a faulty plugin. Its move codes (a move's
// code is its number) make it a vectorised environment with chance nodes, which the core steps through the
// per-state rules.
#include <cstdio>
#include <string>

#include "gsdk/plugin.hpp"

namespace test_coin_tree {

struct State {
  uint32_t ply;
  uint32_t value; // 0 .. 999
};

constexpr uint32_t kFaultExtraLeaf = 1;
constexpr uint32_t kFaultError = 2;

const gsdk_param_desc kParameters[] = {
    {"length", GSDK_PARAM_INT, 0, 12, 0.0, nullptr, 1, 64, "plies after which every game ends"},
    {"fault", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, 2,
     "0: correct cpu_perft; 1: cpu_perft counts one leaf too many; 2: cpu_perft fails"},
};

class Game {
public:
  using State = test_coin_tree::State;
  static constexpr const char* kName = "test_coin_tree";
  static constexpr const char* kDescription = "test game: uneven branching, coin flips, early ends; has cpu_perft";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = GSDK_GAME_FLAG_CHANCE;

  static std::span<const gsdk_param_desc> parameters() { return kParameters; }
  explicit Game(const gsdk::Params& params)
      : length_(static_cast<uint32_t>(params.get_int("length"))), fault_(static_cast<uint32_t>(params.get_int("fault"))) {}

  uint32_t max_moves() const { return 4; }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const { s = State{0, 1}; }
  int32_t current_player(const State& s) const {
    if (finished(s)) return GSDK_PLAYER_TERMINAL;
    if (s.ply % 3 == 2) return GSDK_PLAYER_CHANCE;
    return static_cast<int32_t>(s.ply % 2);
  }
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const {
    if (finished(s)) return 0;
    const uint32_t n = s.ply % 3 == 2 ? 2 : 1 + s.value % 4;
    for (uint32_t k = 0; k < n; ++k) {
      moves[k] = k;
      if (probabilities && s.ply % 3 == 2) probabilities[k] = 0.5;
    }
    return n;
  }
  void apply_move(State& s, uint32_t move) const {
    s.value = (s.value * 7 + move * 13 + 3) % 1000;
    ++s.ply;
  }
  int64_t score(const State& s) const { return s.value % 2 == 0 ? 1 : -1; }
  uint32_t code_count() const { return 4; }
  uint32_t move_code(const State&, uint32_t move) const { return move; }
  std::string state_to_string(const State& s) const {
    return "ply=" + std::to_string(s.ply) + " value=" + std::to_string(s.value);
  }
  std::string move_to_string(const State& s, uint32_t move) const {
    return (s.ply % 3 == 2 ? "coin" : "m") + std::to_string(move);
  }
  State state_from_string(std::string_view text) const {
    const std::string copy(text);
    unsigned ply = 0, value = 0;
    char extra = 0;
    if (std::sscanf(copy.c_str(), " ply=%u value=%u %c", &ply, &value, &extra) != 2 || ply > length_ || value > 999)
      throw gsdk::PluginError("test_coin_tree state '" + copy + "': expected 'ply=P value=V' with P <= " +
                              std::to_string(length_) + " and V <= 999");
    return State{ply, value};
  }

  uint64_t cpu_perft(const State& s, uint32_t depth) const {
    if (fault_ == kFaultError) throw gsdk::PluginError("injected cpu_perft failure at depth " + std::to_string(depth));
    return count(s, depth) + (fault_ == kFaultExtraLeaf ? 1 : 0);
  }

private:
  bool finished(const State& s) const { return s.ply >= length_ || (s.ply > 0 && s.value % 11 == 0); }

  uint64_t count(const State& s, uint32_t depth) const {
    if (depth == 0) return 1;
    uint32_t moves[4];
    const uint32_t n = legal_moves(s, moves, nullptr);
    if (depth == 1) return n;
    uint64_t leaves = 0;
    for (uint32_t k = 0; k < n; ++k) {
      State child = s;
      apply_move(child, moves[k]);
      leaves += count(child, depth - 1);
    }
    return leaves;
  }

  uint32_t length_;
  uint32_t fault_;
};

} // namespace test_coin_tree

GSDK_PLUGIN(test_coin_tree::Game, "0.1.0")
