// playout_batch_evaluator.cpp - the CPU evaluator of playout batches: the plugin's playout table one
// playout per call, or the per-state rules, spread over threads.
#include "gsdk/core/playouts/playout_batch_evaluator.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "playouts/playout_calls.hpp"
#include "runtime/batch_split.hpp"

namespace gsdk::core {

namespace {

// Short playouts (tens of moves) take a microsecond or two each; below this many per thread the thread
// start costs more than it saves.
constexpr size_t kMinPlayoutsPerThread = 32;

class CpuBatchEvaluator : public PlayoutBatchEvaluator {
public:
  CpuBatchEvaluator(const GameInstance& game, uint64_t seed, unsigned threads, bool use_table)
      : game_(game), seed_(seed), threads_(std::max(threads, 1u)), use_table_(use_table),
        histograms_(threads_, std::vector<uint64_t>(game.histogram_bins())) {}

  void evaluate(std::span<const PlayoutTask> tasks, std::span<int64_t> scores) override {
    if (scores.size() != tasks.size()) throw std::invalid_argument("evaluate: one score per task");
    split_batch(threads_, tasks.size(), kMinPlayoutsPerThread, [&](unsigned worker, size_t i) {
      scores[i] = use_table_ ? table_playout(histograms_[worker], tasks[i]) : generic_score(tasks[i]);
    });
  }

  std::vector<uint32_t> moves_of(const StateBlob& start, uint64_t stream) const override {
    std::vector<uint32_t> moves;
    if (!use_table_) {
      generic_playout(game_, seed_, stream, start, &moves);
      return moves;
    }
    // Games declare no bound on a playout's length: grow the buffer until the replay fits.
    for (uint32_t capacity = 1024;; capacity *= 4) {
      moves.resize(capacity);
      char error[512] = {};
      const uint32_t n = game_.tables().replay->playout_moves(game_.handle(), seed_, stream, start.data(), moves.data(),
                                                              capacity, error, sizeof error);
      if (n > 0 || error[0] == '\0') {
        moves.resize(n);
        return moves;
      }
      if (capacity >= (1u << 24))
        throw std::runtime_error(
            fmt::format("game '{}': replay of playout {} failed: {}", game_.game().name, stream, error));
    }
  }

  std::string describe() const override {
    return fmt::format("cpu, {} thread{} ({})", threads_, threads_ == 1 ? "" : "s",
                       use_table_ ? "plugin batch playouts" : "generic playouts");
  }
  std::string engine() const override { return use_table_ ? "batch" : "generic"; }

private:
  // `histogram` is all zeros before and after: one playout touches one bin, which is cleared again
  // (clearing every bin per playout would cost more than a short playout).
  int64_t table_playout(std::vector<uint64_t>& histogram, const PlayoutTask& task) const {
    gsdk_playout_summary summary{};
    reset_summary(summary); // no bins yet, so it clears none
    summary.histogram = histogram.data();
    summary.histogram_bins = static_cast<uint32_t>(histogram.size());
    const gsdk_playout_request request = playout_request(seed_, task.stream, 1, task.start, GSDK_SIMD_AVX512);
    call_plugin(
        [&](char* error, uint32_t size) {
          return game_.tables().cpu_playouts->run(game_.handle(), &request, &summary, error, size);
        },
        [&] { return fmt::format("game '{}': playout {}", game_.game().name, task.stream); });
    if (summary.playouts != 1)
      throw std::runtime_error(
          fmt::format("game '{}': asked for one playout, got {}", game_.game().name, summary.playouts));
    histogram[static_cast<size_t>(summary.best_score - game_.score_range().first)] = 0;
    return summary.best_score;
  }

  int64_t generic_score(const PlayoutTask& task) const {
    const StateBlob start(task.start, task.start + game_.state_size());
    return generic_playout(game_, seed_, task.stream, start);
  }

  const GameInstance& game_;
  uint64_t seed_;
  unsigned threads_;
  bool use_table_;
  std::vector<std::vector<uint64_t>> histograms_; // one per worker, reused
};

} // namespace

std::unique_ptr<PlayoutBatchEvaluator> make_cpu_batch_evaluator(const GameInstance& game, uint64_t seed,
                                                                unsigned threads, bool force_generic) {
  const bool use_table = !force_generic && game.tables().cpu_playouts && game.tables().replay;
  return std::make_unique<CpuBatchEvaluator>(game, seed, threads, use_table);
}

} // namespace gsdk::core
