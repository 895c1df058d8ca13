// random_agent.cpp - the uniformly random agent: the baseline every search must beat.
#include <stdexcept>

#include <fmt/format.h>

#include "agents/agent_kinds.hpp"
#include "gsdk/rng/philox.hpp"

namespace gsdk::core {

namespace {

class RandomAgent final : public Agent {
public:
  explicit RandomAgent(const GameInstance& game) : game_(game), moves_(game.max_moves()) {}

  void new_game(uint64_t seed) override { random_ = rng::PhiloxStream(seed, 0); }

  uint32_t choose_move(const StateBlob& state) override {
    const uint32_t n = game_.checked_legal_moves(state, moves_);
    if (n == 0) throw std::runtime_error(fmt::format("game '{}' has no legal move to choose from", game_.game().name));
    last_move_ = {};
    return moves_[random_.below(n)];
  }

  void observe_move(const StateBlob&, uint32_t) override {}
  std::string describe() const override { return "random (uniform over the legal moves)"; }

private:
  const GameInstance& game_;
  std::vector<uint32_t> moves_;
  rng::PhiloxStream random_{0, 0};
};

} // namespace

std::unique_ptr<Agent> make_random_agent(const GameInstance& game) {
  return std::make_unique<RandomAgent>(game);
}

} // namespace gsdk::core
