// cuda_perft_test.cpp - chess_perft's CUDA kernels driven by the core's breadth-first engine: the
// published tables (startpos to 9, Kiwipete to 7, positions 3-6) and per-root counts equal to the CPU's
// on random positions. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "cpu/cpu_perft.hpp"
#include "gpu.hpp"
#include "gsdk/core/perft/cuda_perft.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "linked_plugin.hpp"
#include "reference_positions.hpp"
#include "rules/fen.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace {

using gsdk::core::StateBlob;

const gsdk::core::PluginTables& chess_tables() { return gsdk::test::linked_plugin_tables("chess_perft"); }

StateBlob blob(const chess::Position& p) {
  StateBlob b(sizeof p);
  std::memcpy(b.data(), &p, sizeof p);
  return b;
}

// Parameterised by the leaf kernel (game parameter gpu_leaf_kernel).
class ChessCudaPerft : public ::testing::TestWithParam<const char*> {
protected:
  void SetUp() override {
    GSDK_REQUIRE_GPU();
    const gsdk_param_value kernel{"gpu_leaf_kernel", GSDK_PARAM_STRING, 0, 0, 0.0, GetParam()};
    game_ = std::make_unique<gsdk::core::GameInstance>(chess_tables(), std::vector<gsdk_param_value>{kernel});
    engine_ = std::make_unique<gsdk::core::CudaPerftEngine>(*game_, 0, 0);
  }
  std::unique_ptr<gsdk::core::GameInstance> game_;
  std::unique_ptr<gsdk::core::CudaPerftEngine> engine_;
};

uint32_t gpu_depth(const std::string& name) {
  if (name == "start") return 9;
  if (name == "kiwipete") return 7;
  if (name == "position3") return 8;
  if (name == "position6") return 6;
  return static_cast<uint32_t>(name == "position5" ? 5 : 6);
}

TEST_P(ChessCudaPerft, MatchesThePublishedTables) {
  for (const auto& ref : chess::test::reference_positions()) {
    const StateBlob root = blob(chess::parse_fen(ref.fen));
    for (uint32_t depth = 1; depth <= gpu_depth(ref.name); ++depth) {
      const std::vector<uint64_t> leaves = engine_->count({root}, depth);
      ASSERT_EQ(leaves.size(), 1u);
      EXPECT_EQ(leaves[0], ref.leaves[depth - 1]) << ref.name << " depth " << depth;
    }
  }
}

TEST_P(ChessCudaPerft, ManyRootsAgreeWithTheCpu) {
  std::mt19937_64 random(7);
  std::vector<StateBlob> roots;
  std::vector<chess::Position> positions;
  const auto& refs = chess::test::reference_positions();
  while (roots.size() < 500) {
    chess::Position p = chess::parse_fen(refs[roots.size() % refs.size()].fen);
    for (int ply = static_cast<int>(random() % 30); ply > 0; --ply) {
      std::vector<chess::Move> moves;
      chess::for_each_legal_move(p, [&](chess::Move m) { moves.push_back(m); });
      if (moves.empty()) break;
      chess::make_move(p, moves[random() % moves.size()]);
    }
    positions.push_back(p);
    roots.push_back(blob(p));
  }
  for (uint32_t depth = 1; depth <= 4; ++depth) {
    const std::vector<uint64_t> leaves = engine_->count(roots, depth);
    ASSERT_EQ(leaves.size(), roots.size());
    for (size_t i = 0; i < roots.size(); ++i)
      ASSERT_EQ(leaves[i], chess::cpu::perft(positions[i], depth)) << chess::to_fen(positions[i]) << " depth " << depth;
  }
}

INSTANTIATE_TEST_SUITE_P(LeafKernels, ChessCudaPerft, ::testing::Values("thread", "warp"),
                         [](const auto& info) { return std::string(info.param); });

} // namespace
