// cuda_leaf_evaluator.cpp - the CUDA evaluator: the plugin's CUDA playout table on one stream with
// scratch allocated once. Written against CudaStream and DeviceArena, so it builds (and says why it
// cannot run) without the CUDA toolkit too.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/cuda_devices.hpp"
#include "gsdk/core/leaf_evaluator.hpp"
#include "playout_calls.hpp"

namespace gsdk::core {

namespace {

constexpr uint32_t kMessageSize = 1024;

class CudaEvaluator final : public LeafEvaluator {
public:
  CudaEvaluator(const GameInstance& game, int device, uint64_t max_batch)
      : game_(game), device_(device), max_batch_(max_batch),
        scratch_size_(game.tables().cuda_playouts->scratch_bytes(game.handle(), max_batch)),
        stream_(device), arena_(device, scratch_size_ + 256), scratch_(arena_.allocate(scratch_size_)),
        histogram_(game.histogram_bins()) {}

  WinDrawLoss evaluate(const StateBlob& state, uint64_t playouts) override {
    WinDrawLoss r;
    for (uint64_t done = 0; done < playouts;) {
      const uint64_t count = std::min(max_batch_, playouts - done);
      r.add(run_batch(state, count));
      done += count;
    }
    return r;
  }

  std::string describe() const override { return fmt::format("cuda device {}", device_); }

private:
  WinDrawLoss run_batch(const StateBlob& state, uint64_t count) {
    gsdk_playout_summary summary = summary_over(histogram_);
    const gsdk_playout_request request = playout_request(seed_, next_playout_, count, state.data(), GSDK_SIMD_SCALAR);
    char error[kMessageSize] = {};
    if (game_.tables().cuda_playouts->run(game_.handle(), &request, device_, stream_.handle(), scratch_, scratch_size_,
                                          &summary, error, kMessageSize) != GSDK_OK)
      throw std::runtime_error(fmt::format("{} CUDA playouts [{}, {}) on device {} failed: {}", game_.game().name,
                                           next_playout_, next_playout_ + count, device_, error));
    next_playout_ += count;
    return outcome_of_histogram(histogram_, game_.score_range().first);
  }

  const GameInstance& game_;
  int device_;
  uint64_t max_batch_;
  uint64_t scratch_size_;
  CudaStream stream_;
  DeviceArena arena_;
  void* scratch_;
  std::vector<uint64_t> histogram_;
};

} // namespace

std::unique_ptr<LeafEvaluator> make_cuda_evaluator(const GameInstance& game, int device, uint64_t max_batch) {
  if (!game.tables().cuda_playouts)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA playout table; use device=cpu",
                                            game.game().name, game.tables().path));
  return std::make_unique<CudaEvaluator>(game, device, std::max<uint64_t>(1, max_batch));
}

} // namespace gsdk::core
