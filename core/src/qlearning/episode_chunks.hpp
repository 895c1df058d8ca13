// episode_chunks.hpp - how many episodes the Q-learning scheduler trains in its next chunk: as many as fit in
// about a target time, judged from what the chunks before took, so that a stop request is honoured and
// progress flows within about that time however large the run is. Where the chunks fall does not change the
// result (qlearning.hpp), except with one table shared by several environments, whose lockstep runs to the end
// of each chunk: those keep a fixed grid of chunks, a fiftieth of the episodes each.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gsdk::core {

class EpisodeChunks {
public:
  // `fixed_grid`: chunks of ceil(episodes / 50) episodes, starting at multiples of it, whatever they take.
  EpisodeChunks(double target_seconds, uint32_t episodes, bool fixed_grid)
      : target_(target_seconds), grid_(fixed_grid ? std::max<uint32_t>(1, (episodes + 49) / 50) : 0) {}

  // The episodes of the chunk that begins at episode `first`, at most `remaining`.
  uint32_t next(uint32_t first, uint32_t remaining) const {
    if (grid_) return std::min(grid_ - first % grid_, remaining);
    if (last_ == 0 || per_episode_ <= 0) return std::min(last_ == 0 ? 1u : grow(last_), remaining);
    // A GPU pays its copies and launch once per chunk: chunks run ten times that long, within three targets.
    const double target = std::clamp(10 * overhead_, target_, 3 * target_);
    const double fits = std::max(1.0, (target - overhead_) / per_episode_);
    return std::min<uint32_t>(static_cast<uint32_t>(std::min<double>(fits, grow(last_))), remaining);
  }

  // A chunk of `episodes` took `wall_seconds`, of which `kernel_seconds` ran on GPUs (0 on the CPU: the rest of
  // a chunk's time is copies and launches, paid once per chunk).
  void record(uint32_t episodes, double wall_seconds, double kernel_seconds) {
    last_ = episodes;
    if (kernel_seconds > 0) {
      per_episode_ = kernel_seconds / episodes;
      overhead_ = std::max(0.0, wall_seconds - kernel_seconds);
    } else {
      per_episode_ = wall_seconds / episodes;
      overhead_ = 0;
    }
  }

private:
  // A chunk grows at most fourfold over the last, in case the episodes measured were unusually quick.
  static uint32_t grow(uint32_t last) { return last > UINT32_MAX / 4 ? UINT32_MAX : last * 4; }

  double target_;
  uint32_t grid_;
  uint32_t last_ = 0; // episodes of the last chunk; 0 before the first
  double per_episode_ = 0, overhead_ = 0;
};

} // namespace gsdk::core
