// kernels.cu - connect_four's CUDA tables, all compiled from the rules of rules.hpp (the CPU paths' too):
//   cuda_playouts         one start state, one thread per playout; each block counts the three scores and
//                         the lowest playout number of each in shared memory, then adds them to the device's.
//   cuda_playout_batches  many start states in one launch, for tree search on a GPU: thread t plays playout t
//                         of the batch from start state t / playouts_per_state and adds its result to that
//                         state's counts. (plugins/othello in gsdk adds the lanes of a warp first, which
//                         saves atomics when many playouts share a state.)
//   cuda_perft_*          the kernels of gsdk's breadth-first GPU perft, one thread per position, the last two
//                         plies counted in place with perft1/perft2.
// One file, because each file nvcc compiles costs some ten seconds of fixed work.
#include <cuda_runtime.h>

#include <string>

#include "game.hpp"
#include "gsdk/cuda/launch.cuh"
#include "gsdk/playout_summary.hpp"

namespace connect_four {

namespace {

constexpr const char* kOwner = "connect_four CUDA"; // names this plugin in device errors
constexpr int kBlock = 256;
constexpr int kScores = 3; // -1, 0, 1 in bins 0, 1, 2
constexpr unsigned long long kNoPlayout = ~0ull;

// The device's result of one cuda_playouts call: what an exact summary needs.
struct ScoreTable {
  unsigned long long count[kScores];
  unsigned long long first_playout[kScores];
};

__global__ void __launch_bounds__(kBlock)
    playout_kernel(State start, uint64_t seed, uint64_t first, uint64_t count, ScoreTable* table) {
  __shared__ unsigned long long block_count[kScores], block_first[kScores];
  if (threadIdx.x < kScores) {
    block_count[threadIdx.x] = 0;
    block_first[threadIdx.x] = kNoPlayout;
  }
  __syncthreads();
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint64_t playout = first + i;
    const int bin = outcome(play_out(start, seed, playout, nullptr)) + 1;
    atomicAdd(&block_count[bin], 1ull);
    atomicMin(&block_first[bin], static_cast<unsigned long long>(playout));
  }
  __syncthreads();
  if (threadIdx.x < kScores && block_count[threadIdx.x] != 0) {
    atomicAdd(&table->count[threadIdx.x], block_count[threadIdx.x]);
    atomicMin(&table->first_playout[threadIdx.x], block_first[threadIdx.x]);
  }
}

__global__ void __launch_bounds__(kBlock) batch_kernel(const State* starts, uint32_t per_state, uint64_t total,
                                                       uint64_t seed, uint64_t first, gsdk_outcome_counts* outcomes) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t t = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; t < total; t += stride) {
    const uint64_t state = t / per_state;
    const int32_t result = outcome(play_out(starts[state], seed, first + t, nullptr));
    gsdk_outcome_counts& out = outcomes[state];
    atomicAdd(result > 0 ? &out.wins : result == 0 ? &out.draws : &out.losses, 1u);
  }
}

__global__ void count_kernel(const State* states, uint32_t count, uint32_t plies, uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  counts[i] = plies == 1 ? perft1(states[i]) : perft2(states[i]);
}

__global__ void generate_kernel(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  uint32_t* out = moves + offsets[i];
  for (uint32_t columns = legal_columns(states[i]); columns != 0; columns &= columns - 1)
    *out++ = lowest_column(columns);
}

__global__ void apply_kernel(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                             State* children, uint32_t* child_counts) {
  const uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= count) return;
  State child = states[parents[j]];
  play(child, moves[j]);
  children[j] = child;
  if (child_counts) child_counts[j] = perft1(child);
}

unsigned blocks(uint32_t threads) {
  return (threads + kBlock - 1) / kBlock;
}

void check(cudaError_t status, const char* what) {
  gsdk::cuda::check(status, kOwner, what);
}

} // namespace

uint64_t Game::cuda_scratch_bytes(uint64_t) const {
  return sizeof(ScoreTable);
}

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream_handle, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  if (scratch == nullptr || scratch_size < sizeof(ScoreTable))
    throw gsdk::PluginError(std::string(kOwner) + ": scratch of " + std::to_string(scratch_size) + " bytes, need " +
                            std::to_string(sizeof(ScoreTable)));
  if (summary.histogram_bins != kScores)
    throw gsdk::PluginError("summary histogram has " + std::to_string(summary.histogram_bins) +
                            " bins, connect_four needs 3 (scores -1, 0, 1)");
  const State start = checked_start(request.start_state);
  if (request.playout_count == 0) return;
  check(cudaSetDevice(device), "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  auto* table = static_cast<ScoreTable*>(scratch);
  const gsdk::cuda::EventPair events(kOwner);
  check(cudaMemsetAsync(table->count, 0, sizeof table->count, stream), "cudaMemsetAsync");
  check(cudaMemsetAsync(table->first_playout, 0xff, sizeof table->first_playout, stream), "cudaMemsetAsync");
  check(cudaEventRecord(events.started, stream), "cudaEventRecord");
  const unsigned blocks = gsdk::cuda::grid_size<playout_kernel>(device, kBlock, request.playout_count, 0, kOwner);
  playout_kernel<<<blocks, kBlock, 0, stream>>>(start, request.seed, request.first_playout, request.playout_count,
                                                table);
  check(cudaGetLastError(), "launching the playout kernel");
  check(cudaEventRecord(events.finished, stream), "cudaEventRecord");
  ScoreTable result{};
  check(cudaMemcpyAsync(&result, table, sizeof result, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "the playout kernel");
  float milliseconds = 0;
  check(cudaEventElapsedTime(&milliseconds, events.started, events.finished), "cudaEventElapsedTime");

  uint64_t played = 0;
  for (int bin = 0; bin < kScores; ++bin) {
    if (result.count[bin] == 0) continue;
    summary.histogram[bin] += result.count[bin];
    played += result.count[bin];
    gsdk::record_extremes(summary, bin - 1, result.first_playout[bin]);
  }
  if (played != request.playout_count)
    throw gsdk::PluginError(std::string(kOwner) + ": the kernel counted " + std::to_string(played) + " playouts of " +
                                std::to_string(request.playout_count),
                            GSDK_ERR_DEVICE);
  summary.playouts += played;
  summary.device_milliseconds += milliseconds;
}

void Game::cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                uint32_t playouts_per_state, int32_t device, void* stream_handle,
                                gsdk_outcome_counts* outcomes) const {
  if (count == 0) return;
  if (!states || !outcomes)
    throw gsdk::PluginError(std::string(kOwner) + " playout batches: states and outcomes must be device memory");
  const uint64_t total = uint64_t{count} * playouts_per_state;
  if (total >= (uint64_t{1} << 32))
    throw gsdk::PluginError(std::string(kOwner) + " playout batches: " + std::to_string(count) + " states x " +
                            std::to_string(playouts_per_state) + " playouts is 2^32 or more");
  check(cudaSetDevice(device), "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  check(cudaMemsetAsync(outcomes, 0, sizeof(gsdk_outcome_counts) * count, stream), "cudaMemsetAsync");
  if (total == 0) return;
  const unsigned blocks = gsdk::cuda::grid_size<batch_kernel>(device, kBlock, total, 0, kOwner);
  batch_kernel<<<blocks, kBlock, 0, stream>>>(states, playouts_per_state, total, seed, first_playout, outcomes);
  check(cudaGetLastError(), "launching the playout batch kernel");
}

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  if (plies < 1 || plies > kCudaPerftLeafPlies)
    throw gsdk::PluginError(std::string(kOwner) + ": count_leaves counts 1 to " + std::to_string(kCudaPerftLeafPlies) +
                            " plies, got " + std::to_string(plies));
  if (count == 0) return;
  count_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, plies, counts);
  check(cudaGetLastError(), "launching count_leaves");
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  if (count == 0) return;
  generate_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, offsets, moves);
  check(cudaGetLastError(), "launching generate_moves");
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  if (count == 0) return;
  apply_kernel<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, parents, moves, count, children,
                                                                                child_counts);
  check(cudaGetLastError(), "launching apply_moves");
}

} // namespace connect_four
