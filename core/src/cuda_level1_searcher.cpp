// cuda_level1_searcher.cpp - level-1 NMCS searches on a GPU through the plugin's
// gsdk.cuda_level1_searches.v1 table: states and stream numbers copied in through pinned buffers, one
// launch per chunk, results and best sequences copied back. Written against CudaStream, DeviceArena and
// PinnedBuffer, so it builds (and says why it cannot run) without the CUDA toolkit too.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/cuda_devices.hpp"
#include "gsdk/core/level1_searcher.hpp"

namespace gsdk::core {

namespace {

constexpr uint32_t kMessageSize = 1024;
// Device memory (and as much pinned host memory) for one launch's states and sequences: enough for the
// ~250,000 threads an H100 holds at once in cubes up to d = 10, under a tenth of its memory.
constexpr uint64_t kLaunchBytes = uint64_t{2} << 30;

// Searches per launch: at most what the caller can hand out at once and what fits in kLaunchBytes.
uint32_t launch_size(const GameInstance& game, uint32_t wanted) {
  const uint64_t per_search = game.state_size() + sizeof(uint64_t) + sizeof(gsdk_level1_result) +
                              uint64_t{game.tables().cuda_level1_searches->max_game_length(game.handle())} * 4;
  return static_cast<uint32_t>(std::clamp<uint64_t>(kLaunchBytes / per_search, 1, std::max(wanted, 1u)));
}

class CudaLevel1Searcher final : public Level1Searcher {
public:
  CudaLevel1Searcher(const GameInstance& game, uint64_t seed, int device, uint32_t max_batch)
      : game_(game), table_(*game.tables().cuda_level1_searches), seed_(seed), device_(device), max_batch_(max_batch),
        max_moves_(table_.max_game_length(game.handle())), stream_(device),
        states_host_(uint64_t{max_batch} * game.state_size()), streams_host_(uint64_t{max_batch} * sizeof(uint64_t)),
        results_host_(uint64_t{max_batch} * sizeof(gsdk_level1_result)),
        moves_host_(uint64_t{max_batch} * max_moves_ * sizeof(uint32_t)),
        arena_(device, states_host_.size() + streams_host_.size() + results_host_.size() + moves_host_.size() + 4096),
        states_device_(arena_.allocate(states_host_.size())),
        streams_device_(static_cast<uint64_t*>(arena_.allocate(streams_host_.size()))),
        results_device_(static_cast<gsdk_level1_result*>(arena_.allocate(results_host_.size()))),
        moves_device_(static_cast<uint32_t*>(arena_.allocate(moves_host_.size()))) {}

  void search(std::span<const Level1Task> tasks, std::span<Level1Outcome> outcomes) override {
    if (outcomes.size() != tasks.size()) throw std::invalid_argument("search: one outcome per task");
    for (size_t first = 0; first < tasks.size(); first += max_batch_) {
      const size_t count = std::min<size_t>(max_batch_, tasks.size() - first);
      launch(tasks.subspan(first, count), outcomes.subspan(first, count));
    }
  }

  std::string describe() const override {
    return fmt::format("cuda device {}, up to {} level-1 searches per launch", device_, max_batch_);
  }

private:
  void launch(std::span<const Level1Task> tasks, std::span<Level1Outcome> outcomes) {
    const uint32_t state_size = game_.state_size();
    const auto count = static_cast<uint32_t>(tasks.size());
    auto* first_streams = reinterpret_cast<uint64_t*>(streams_host_.data());
    for (uint32_t i = 0; i < count; ++i) {
      std::memcpy(states_host_.data() + uint64_t{i} * state_size, tasks[i].start, state_size);
      first_streams[i] = tasks[i].first_stream;
    }
    stream_.copy_to_device(states_device_, states_host_.data(), uint64_t{count} * state_size);
    stream_.copy_to_device(streams_device_, first_streams, uint64_t{count} * sizeof(uint64_t));
    char error[kMessageSize] = {};
    if (table_.run(game_.handle(), seed_, states_device_, streams_device_, count, device_, stream_.handle(),
                   results_device_, moves_device_, error, kMessageSize) != GSDK_OK)
      throw std::runtime_error(fmt::format("{} CUDA level-1 searches ({} of them) on device {} failed: {}",
                                           game_.game().name, count, device_, error));
    stream_.copy_to_host(results_host_.data(), results_device_, uint64_t{count} * sizeof(gsdk_level1_result));
    stream_.copy_to_host(moves_host_.data(), moves_device_, uint64_t{count} * max_moves_ * sizeof(uint32_t));
    stream_.synchronize();
    const auto* results = reinterpret_cast<const gsdk_level1_result*>(results_host_.data());
    const auto* moves = reinterpret_cast<const uint32_t*>(moves_host_.data());
    for (uint32_t i = 0; i < count; ++i) {
      if (results[i].move_count > max_moves_)
        throw std::runtime_error(fmt::format("{} CUDA level-1 search {} reported {} moves, more than the game's "
                                             "bound of {} (device result inconsistent)",
                                             game_.game().name, i, results[i].move_count, max_moves_));
      const uint32_t* sequence = moves + uint64_t{i} * max_moves_;
      outcomes[i] = Level1Outcome{results[i].score, results[i].playouts,
                                  std::vector<uint32_t>(sequence, sequence + results[i].move_count)};
    }
  }

  const GameInstance& game_;
  const gsdk_cuda_level1_searches& table_;
  uint64_t seed_;
  int device_;
  uint32_t max_batch_;
  uint32_t max_moves_;
  CudaStream stream_;
  PinnedBuffer states_host_;
  PinnedBuffer streams_host_;
  PinnedBuffer results_host_;
  PinnedBuffer moves_host_;
  DeviceArena arena_;
  void* states_device_;
  uint64_t* streams_device_;
  gsdk_level1_result* results_device_;
  uint32_t* moves_device_;
};

} // namespace

std::unique_ptr<Level1Searcher> make_cuda_level1_searcher(const GameInstance& game, uint64_t seed, int device,
                                                          uint32_t max_batch) {
  if (!game.tables().cuda_level1_searches)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA level-1 search table "
                                            "(gsdk.cuda_level1_searches.v1); NMCS on cuda needs it",
                                            game.game().name, game.tables().path));
  return std::make_unique<CudaLevel1Searcher>(game, seed, device, launch_size(game, max_batch));
}

} // namespace gsdk::core
