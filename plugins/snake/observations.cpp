// observations.cpp - snake's gsdk.observations.v1 on the CPU: the blocked-vertex bitset and the head as byte planes.
#include <algorithm>

#include "gsdk/environments/byte_planes.hpp"
#include "snake_game.hpp"

namespace snake {

void Game::fill_observations(const State* states, uint32_t count, void* out) const noexcept {
  const uint32_t vertices = 1u << rules_.dimension;
  auto* observation = static_cast<uint8_t*>(out);
  for (uint32_t k = 0; k < count; ++k, observation += 2 * size_t{vertices}) {
    const State& s = states[k];
    if (vertices >= 64) {
      for (uint32_t w = 0; w < vertices / 64; ++w) gsdk::environments::write_byte_plane(s.blocked[w], observation + 64 * w);
    } else { // dimensions 3..5: part of one word
      for (uint32_t v = 0; v < vertices; ++v) observation[v] = static_cast<uint8_t>((s.blocked[0] >> v) & 1u);
    }
    std::fill_n(observation + vertices, vertices, uint8_t{0});
    observation[vertices + s.head] = 1;
  }
}

} // namespace snake
