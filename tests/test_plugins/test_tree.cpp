// test_tree.cpp - test_tree's per-state table, CPU perft and canonical states (the rules are in test_tree_rules.hpp,
// the CUDA perft and canonical-state kernels in test_tree.cu).
#include "test_tree.hpp"

#include <cinttypes>
#include <cstdio>

namespace test_tree {

namespace {
const gsdk_param_desc kParameters[] = {
    {"seed", GSDK_PARAM_INT, 0, 34, 0.0, nullptr, 0, 2147483647.0, "hash of the initial state"},
    {"max_ply", GSDK_PARAM_INT, 0, 40, 0.0, nullptr, 1, 1000, "ply at which every game ends"},
    {"fail_apply", GSDK_PARAM_BOOL, 0, 0, 0.0, nullptr, 0, 1,
     "the CUDA apply_moves and count_leaves_after_moves fail (tests error reports)"},
    {"keys_fault", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, 4,
     "breaks gsdk.perft_keys.v1 on purpose: 0 correct, 1 canonical states of other counts, 2 not idempotent, 3 "
     "canonical fails, 4 the device's canonical states differ from the host's"},
};
} // namespace

std::span<const gsdk_param_desc> Game::parameters() {
  return kParameters;
}

Game::Game(const gsdk::Params& params)
    : seed_(static_cast<uint64_t>(params.get_int("seed"))), max_ply_(static_cast<uint32_t>(params.get_int("max_ply"))),
      fail_apply_(params.get_bool("fail_apply")), keys_fault_(params.get_int("keys_fault")) {}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double*) const {
  const uint32_t n = move_count(s, max_ply_);
  for (uint32_t m = 0; m < n; ++m) moves[m] = m;
  return n;
}

std::string Game::state_to_string(const State& s) const {
  return "hash=" + std::to_string(s.hash) + " ply=" + std::to_string(s.ply);
}

std::string Game::move_to_string(const State&, uint32_t move) const {
  // snprintf rather than "m" + std::to_string: GCC 12 reports a false -Wrestrict on that.
  char text[16];
  std::snprintf(text, sizeof text, "m%" PRIu32, move);
  return text;
}

State Game::state_from_string(std::string_view text) const {
  const std::string copy(text);
  uint64_t hash = 0;
  uint32_t ply = 0;
  char extra = 0;
  if (std::sscanf(copy.c_str(), " hash=%" SCNu64 " ply=%" SCNu32 " %c", &hash, &ply, &extra) != 2 || ply > max_ply_)
    throw gsdk::PluginError("test_tree state '" + copy +
                            "': expected 'hash=H ply=P' with P <= " + std::to_string(max_ply_));
  return State{hash, ply, 0};
}

uint64_t Game::cpu_perft(const State& s, uint32_t depth) const {
  const uint32_t n = move_count(s, max_ply_);
  if (depth <= 1) return depth == 0 ? 1 : n;
  uint64_t leaves = 0;
  for (uint32_t m = 0; m < n; ++m) leaves += cpu_perft(child(s, m), depth - 1);
  return leaves;
}

void Game::canonical_state(State& s) const {
  if (keys_fault_ == kKeysFaultFails) throw gsdk::PluginError("test_tree canonical: failing as asked (keys_fault 3)");
  canonicalize(s, keys_fault_);
}

} // namespace test_tree

GSDK_PLUGIN(test_tree::Game, "0.1.0")
