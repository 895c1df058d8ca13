// cuda_nrpa_searcher.cpp - whole NRPA searches on a GPU through the plugin's gsdk.cuda_nrpa_searches.v1
// table: the calls' policies and stream numbers copied in through pinned buffers, one launch per chunk,
// results and best sequences copied back. A call runs thousands of playouts, so one synchronous lane is
// enough: the host's staging is a small part of a launch. Written against CudaStream, DeviceArena and
// PinnedBuffer, so it builds (and says why it cannot run) without the CUDA toolkit too. When the plugin can
// stop its searches (ABI 1.6), every launch polls one stop flag, which a deadline raises.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/nested/nrpa_searcher.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

#include "nested/search_deadline.hpp"
#include "runtime/batch_split.hpp"
#include "runtime/device_sequence.hpp"

namespace gsdk::core {

namespace {

// Device memory (and pinned host memory for the policies and sequences) for one launch: room for far more
// searches than an H100 runs at once at d <= 10, under a tenth of its memory.
constexpr uint64_t kLaunchBytes = uint64_t{4} << 30;
// Staging a policy and decoding a sequence are kilobytes of copying each.
constexpr size_t kCallsPerCopyThread = 1024;

class CudaNrpaSearcher final : public NrpaSearcher {
public:
  CudaNrpaSearcher(const GameInstance& game, uint64_t seed, uint32_t level, uint32_t iterations, double alpha,
                   int device, uint32_t max_batch, unsigned host_threads)
      : game_(game), table_(*game.tables().cuda_nrpa_searches), seed_(seed), level_(level), iterations_(iterations),
        alpha_(alpha), device_(device), code_count_(game.tables().move_codes->code_count(game.handle())),
        max_moves_(table_.max_game_length(game.handle())), host_threads_(std::max(host_threads, 1u)) {
    if (stoppable_run(table_)) deadline_ = std::make_unique<SearchDeadline>(device);
    const uint64_t per_call = policy_bytes() + sizeof(uint64_t) + sizeof(gsdk_nrpa_result) +
                              uint64_t{max_moves_} * sizeof(uint32_t) + table_.scratch_bytes(game.handle(), 1, level);
    batch_ = static_cast<uint32_t>(std::clamp<uint64_t>(kLaunchBytes / per_call, 1, std::max(max_batch, 1u)));
    stream_ = std::make_unique<CudaStream>(device);
    policies_host_ = std::make_unique<PinnedBuffer>(batch_ * policy_bytes());
    streams_host_ = std::make_unique<PinnedBuffer>(batch_ * sizeof(uint64_t));
    results_host_ = std::make_unique<PinnedBuffer>(batch_ * sizeof(gsdk_nrpa_result));
    moves_host_ = std::make_unique<PinnedBuffer>(uint64_t{batch_} * max_moves_ * sizeof(uint32_t));
    scratch_size_ = table_.scratch_bytes(game.handle(), batch_, level);
    arena_ =
        std::make_unique<DeviceArena>(device, policies_host_->size() + streams_host_->size() + results_host_->size() +
                                                  moves_host_->size() + scratch_size_ + 5 * 256);
    policies_device_ = static_cast<double*>(arena_->allocate(policies_host_->size()));
    streams_device_ = static_cast<uint64_t*>(arena_->allocate(streams_host_->size()));
    results_device_ = static_cast<gsdk_nrpa_result*>(arena_->allocate(results_host_->size()));
    moves_device_ = static_cast<uint32_t*>(arena_->allocate(moves_host_->size()));
    scratch_device_ = arena_->allocate(scratch_size_);
  }

  uint32_t level() const override { return level_; }

  void stop_at(std::chrono::steady_clock::time_point deadline) override {
    if (deadline_) deadline_->arm(deadline);
  }

  void search(std::span<const NrpaCall> calls, std::span<NrpaCallResult> results) override {
    if (results.size() != calls.size()) throw std::invalid_argument("NRPA searcher: one result per call");
    for (size_t first = 0; first < calls.size(); first += batch_) {
      const size_t count = std::min<size_t>(batch_, calls.size() - first);
      run_chunk(calls.subspan(first, count), results.subspan(first, count));
    }
  }

  std::string describe() const override {
    return fmt::format("cuda device {}, whole level-{} NRPA searches on the GPU, up to {} per launch", device_, level_,
                       batch_);
  }

private:
  uint64_t policy_bytes() const { return uint64_t{code_count_} * sizeof(double); }

  void run_chunk(std::span<const NrpaCall> calls, std::span<NrpaCallResult> results) {
    const auto count = static_cast<uint32_t>(calls.size());
    auto* first_streams = reinterpret_cast<uint64_t*>(streams_host_->data());
    split_batch(host_threads_, count, kCallsPerCopyThread, [&](unsigned, size_t i) {
      std::memcpy(policies_host_->data() + i * policy_bytes(), calls[i].policy, policy_bytes());
      first_streams[i] = calls[i].first_stream;
    });
    stream_->copy_to_device(policies_device_, policies_host_->data(), count * policy_bytes());
    stream_->copy_to_device(streams_device_, first_streams, uint64_t{count} * sizeof(uint64_t));
    // deadline_ exists exactly when the table's run_stoppable does.
    const auto launch = [&](char* error, uint32_t size) {
      return deadline_
                 ? table_.run_stoppable(game_.handle(), seed_, level_, iterations_, alpha_, policies_device_,
                                        streams_device_, count, device_, stream_->handle(), scratch_device_,
                                        scratch_size_, results_device_, moves_device_, deadline_->stop(), error, size)
                 : table_.run(game_.handle(), seed_, level_, iterations_, alpha_, policies_device_, streams_device_,
                              count, device_, stream_->handle(), scratch_device_, scratch_size_, results_device_,
                              moves_device_, error, size);
    };
    call_plugin(launch, [&] {
      return fmt::format("{} CUDA NRPA searches ({} of level {}) on device {}", game_.game().name, count, level_,
                         device_);
    });
    stream_->copy_to_host(results_host_->data(), results_device_, uint64_t{count} * sizeof(gsdk_nrpa_result));
    stream_->copy_to_host(moves_host_->data(), moves_device_, uint64_t{count} * max_moves_ * sizeof(uint32_t));
    stream_->synchronize();
    const auto* found = reinterpret_cast<const gsdk_nrpa_result*>(results_host_->data());
    const auto* moves = reinterpret_cast<const uint32_t*>(moves_host_->data());
    split_batch(host_threads_, count, kCallsPerCopyThread, [&](unsigned, size_t i) {
      copy_device_sequence(game_, "NRPA", i, found[i].move_count, moves, max_moves_, results[i].moves);
      results[i].score = found[i].score;
      results[i].stopped_after = deadline_ ? found[i].reserved : 0;
    });
  }

  const GameInstance& game_;
  const gsdk_cuda_nrpa_searches& table_;
  uint64_t seed_;
  uint32_t level_;
  uint32_t iterations_;
  double alpha_;
  int device_;
  uint32_t code_count_;
  uint32_t max_moves_;
  unsigned host_threads_;
  uint32_t batch_ = 1;
  uint64_t scratch_size_ = 0;
  std::unique_ptr<CudaStream> stream_;
  std::unique_ptr<PinnedBuffer> policies_host_, streams_host_, results_host_, moves_host_;
  std::unique_ptr<DeviceArena> arena_;
  double* policies_device_ = nullptr;
  uint64_t* streams_device_ = nullptr;
  gsdk_nrpa_result* results_device_ = nullptr;
  uint32_t* moves_device_ = nullptr;
  void* scratch_device_ = nullptr;
  std::unique_ptr<SearchDeadline> deadline_; // when the plugin can stop its searches
};

} // namespace

std::unique_ptr<NrpaSearcher> make_cuda_nrpa_searcher(const GameInstance& game, uint64_t seed, uint32_t level,
                                                      uint32_t iterations, double alpha, int device, uint32_t max_batch,
                                                      unsigned host_threads) {
  if (!game.tables().cuda_nrpa_searches || !game.tables().move_codes)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no CUDA NRPA table with move codes "
                                            "(gsdk.cuda_nrpa_searches.v1, gsdk.move_codes.v1); NRPA on cuda needs both",
                                            game.game().name, game.tables().path));
  if (level < 1) throw std::invalid_argument("NRPA on a device: the level must be at least 1");
  return std::make_unique<CudaNrpaSearcher>(game, seed, level, iterations, alpha, device, max_batch, host_threads);
}

} // namespace gsdk::core
