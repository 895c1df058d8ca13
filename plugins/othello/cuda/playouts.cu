// playouts.cu - othello's CUDA random playouts: one thread per game with the whole game in registers,
// one long-running launch per request, results folded per block into a histogram of final scores and
// the lowest playout number of each score (which is all an exact summary needs), added to the summary by the
// SDK's fold (gsdk/cuda/score_table.hpp) that the SDK's playout template (gsdk/cuda/playout_tables.cuh) uses.
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.hpp"
#include "gsdk/cuda/score_table.hpp"
#include "othello_game.hpp"
#include "rules/stepped_game.hpp"

namespace othello {

namespace {

constexpr int kBlock = 256;
constexpr int kBins = 129; // scores -64..64
constexpr unsigned long long kNone = ~0ull;

struct ScoreTable {
  unsigned long long count[kBins];
  unsigned long long first_playout[kBins];
};

__global__ void __launch_bounds__(kBlock) playout_kernel(Position start, uint64_t seed, uint64_t first, uint64_t count,
                                                         PlayoutPolicy policy, ScoreTable* out) {
  __shared__ unsigned int block_count[kBins];
  __shared__ unsigned long long block_first[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    block_count[b] = 0;
    block_first[b] = kNone;
  }
  __syncthreads();
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint64_t playout = first + i;
    const int bin = stepped_game(start, seed, playout, policy) + 64;
    atomicAdd(&block_count[bin], 1u);
    atomicMin(&block_first[bin], playout);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    if (block_count[b] == 0) continue;
    atomicAdd(&out->count[b], static_cast<unsigned long long>(block_count[b]));
    atomicMin(&out->first_playout[b], block_first[b]);
  }
}

} // namespace

uint64_t Game::cuda_scratch_bytes(uint64_t) const {
  return sizeof(ScoreTable);
}

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream_handle, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  if (scratch == nullptr || scratch_size < sizeof(ScoreTable))
    throw gsdk::PluginError("othello CUDA: scratch of " + std::to_string(scratch_size) + " bytes, need " +
                            std::to_string(sizeof(ScoreTable)));
  const Position start = playout_start(request.start_state);
  if (request.playout_count == 0) return;
  // One position to solve: the host does it (a launch of one thread would be no faster).
  if (exact_state(start)) return record_perfect_play(start, request, summary);
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  auto* table = static_cast<ScoreTable*>(scratch);
  const gsdk::cuda::EventPair events(cuda::kOwner);
  cuda::check(cudaMemsetAsync(table->count, 0, sizeof table->count, stream), "cudaMemsetAsync");
  cuda::check(cudaMemsetAsync(table->first_playout, 0xff, sizeof table->first_playout, stream), "cudaMemsetAsync");
  cuda::check(cudaEventRecord(events.started, stream), "cudaEventRecord");
  const unsigned blocks = gsdk::cuda::grid_size<playout_kernel>(device, kBlock, request.playout_count, 0, cuda::kOwner);
  playout_kernel<<<blocks, kBlock, 0, stream>>>(start, request.seed, request.first_playout, request.playout_count,
                                                policy_, table);
  cuda::check(cudaGetLastError(), "launching the playout kernel");
  cuda::check(cudaEventRecord(events.finished, stream), "cudaEventRecord");
  ScoreTable result{};
  cuda::check(cudaMemcpyAsync(&result, table, sizeof result, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream), "the playout kernel");
  float milliseconds = 0;
  cuda::check(cudaEventElapsedTime(&milliseconds, events.started, events.finished), "cudaEventElapsedTime");

  gsdk::cuda::add_score_table(summary, result.count, result.first_playout, -64, request.playout_count, cuda::kOwner);
  summary.device_milliseconds += milliseconds;
}

} // namespace othello
