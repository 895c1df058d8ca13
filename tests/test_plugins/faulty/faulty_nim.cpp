// faulty_nim.cpp - deliberately buggy plugins for the tests of `gsdk check`: a nim game (take 1..3 stones,
// whoever takes the last one wins) with CPU batch playouts and replays, built once per FAULT, each time with
// one bug:
//  - FAULT_IGNORES_START: batch playouts always start from the initial state, whatever start_state says;
//  - FAULT_CRASHES: the per-state legal_moves raises SIGSEGV from its 1000th call in a process on;
//  - FAULT_HANGS: a batch playout never ends;
//  - FAULT_CRASHES_ON_LOAD: a static constructor raises SIGSEGV when the plugin is loaded;
//  - FAULT_MARKS_ON_LOAD: a static constructor creates the file named by GSDK_TEST_LOAD_MARKER, so a test sees
//    whether the host let the dynamic loader run any of the plugin's code (the game itself is correct).
// Everything else is correct, so the report must blame exactly the checks that meet the bug.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gsdk/playout_summary.hpp"
#include "gsdk/plugin.hpp"
#include "gsdk/rng/philox.hpp"

#define FAULT_IGNORES_START 1
#define FAULT_CRASHES 2
#define FAULT_HANGS 3
#define FAULT_CRASHES_ON_LOAD 4
#define FAULT_MARKS_ON_LOAD 5

namespace faulty_nim {

struct State {
  int32_t stones;
  int32_t to_move;
};

#if FAULT == FAULT_CRASHES_ON_LOAD
// Initialised when the dynamic loader maps the plugin, before anyone can call gsdk_negotiate.
[[maybe_unused]] const bool kCrashedOnLoad = [] {
  std::raise(SIGSEGV);
  return true;
}();
#endif

#if FAULT == FAULT_MARKS_ON_LOAD
[[maybe_unused]] const bool kMarkedOnLoad = [] {
  const char* marker = std::getenv("GSDK_TEST_LOAD_MARKER");
  if (!marker) return false;
  if (std::FILE* f = std::fopen(marker, "w")) std::fclose(f);
  return true;
}();
#endif

constexpr int32_t kStones = 21;
constexpr int32_t kMaxTake = 3;

const gsdk_param_desc kParameters[] = {
    {"stones", GSDK_PARAM_INT, 0, kStones, 0.0, nullptr, 1, 200, "stones on the pile at the start"},
};

class Game {
public:
  using State = faulty_nim::State;
  static constexpr const char* kName = FAULTY_NAME;
  static constexpr const char* kDescription = "a nim game with one deliberate bug, for the tests of gsdk check";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters() { return kParameters; }
  explicit Game(const gsdk::Params& params) : stones_(static_cast<int32_t>(params.get_int("stones"))) {}

  uint32_t max_moves() const { return kMaxTake; }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const { s = State{stones_, 0}; }
  int32_t current_player(const State& s) const { return s.stones == 0 ? GSDK_PLAYER_TERMINAL : s.to_move; }
  uint32_t legal_moves(const State& s, uint32_t* moves, double*) const {
#if FAULT == FAULT_CRASHES
    static std::atomic<uint64_t> calls{0};
    // A real signal rather than a null write, which the optimiser may turn into another trap.
    if (++calls >= 1000) std::raise(SIGSEGV);
#endif
    return list_moves(s, moves);
  }
  void apply_move(State& s, uint32_t take) const {
    s.stones -= static_cast<int32_t>(take);
    s.to_move = 1 - s.to_move;
  }
  int64_t score(const State& s) const {
    return s.to_move == 1 ? 1 : -1;
  } // the last mover won
  std::string state_to_string(const State& s) const {
    return "stones=" + std::to_string(s.stones) + " to_move=" + std::to_string(s.to_move);
  }
  std::string move_to_string(const State&, uint32_t take) const {
    return "take" + std::to_string(take);
  }
  State state_from_string(std::string_view text) const {
    const std::string copy(text);
    int stones = -1, to_move = -1;
    char extra = 0;
    if (std::sscanf(copy.c_str(), " stones=%d to_move=%d %c", &stones, &to_move, &extra) != 2 || stones < 0 ||
        stones > stones_ || (to_move != 0 && to_move != 1))
      throw gsdk::PluginError("'" + copy + "': expected 'stones=N to_move=0|1' with N <= " + std::to_string(stones_));
    return State{stones, to_move};
  }

  static int32_t best_simd_level() {
    return GSDK_SIMD_SCALAR;
  }
  void cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const {
    for (uint64_t i = 0; i < request.playout_count; ++i) {
      const uint64_t playout = request.first_playout + i;
      State s = start_of(request.start_state);
#if FAULT == FAULT_IGNORES_START
      initial_state(s);
#endif
      play(s, playout, request.seed, nullptr);
      gsdk::record_playout(summary, score(s), playout, -1);
    }
  }
  std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const {
    State s = start_of(start);
    std::vector<uint32_t> moves;
    play(s, playout, seed, &moves);
    return moves;
  }

private:
  static uint32_t list_moves(const State& s, uint32_t* moves) {
    const int32_t n = s.stones < kMaxTake ? s.stones : kMaxTake;
    for (int32_t k = 0; k < n; ++k) moves[k] = static_cast<uint32_t>(k + 1);
    return static_cast<uint32_t>(n);
  }
  State start_of(const void* start) const {
    State s;
    if (start)
      s = *static_cast<const State*>(start);
    else
      initial_state(s);
    return s;
  }
  // A random playout: playout `playout` draws from the stream (seed, playout) alone.
  void play(State& s, uint64_t playout, uint64_t seed, std::vector<uint32_t>* moves) const {
    gsdk::rng::PhiloxStream random(seed, playout);
#if FAULT == FAULT_HANGS
    for (volatile bool forever = true; forever;) {
    }
#endif
    uint32_t legal[kMaxTake];
    while (s.stones > 0) {
      const uint32_t n = list_moves(s, legal);
      const uint32_t take = legal[random.below(n)];
      apply_move(s, take);
      if (moves) moves->push_back(take);
    }
  }

  int32_t stones_;
};

} // namespace faulty_nim

GSDK_PLUGIN(faulty_nim::Game, "0.1.0")
