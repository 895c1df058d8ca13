// playouts.cu - snake's CUDA playouts: one thread per playout, each thread's blocked-vertex bitset in
// shared memory (2^d bits is too big for registers past d = 8 or so; Buzer and Cazenave measured shared
// memory as the only GPU memory with good latency for random reads and writes), interleaved as
// strided_bits.hpp lays them out.
// Results go straight to a global histogram of lengths and the lowest playout number of each length: a
// playout is hundreds of moves, so two atomics at its end cost nothing.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "gsdk/playout_summary.hpp"
#include "rules/random_snake.hpp"
#include "snake_game.hpp"
#include "strided_bits.hpp"

namespace snake {

namespace {

constexpr uint32_t kMaxWords32 = kMaxVertices / 32;
constexpr uint32_t kSharedBudget = 32 * 1024; // bytes of bitsets per block; under the 48 KiB default
constexpr uint32_t kMaxBlock = 256;

// The playout start as a kernel argument (a kilobyte at most, well within the parameter space).
struct Start {
  uint32_t words[kMaxWords32];
  Walk walk;
};

using cuda::StridedBits;
using cuda::words32;

__global__ void playout_kernel(Rules rules, Policy policy, Start start, uint32_t words, uint64_t seed, uint64_t first,
                               uint64_t count, unsigned long long* counts, unsigned long long* firsts) {
  extern __shared__ uint32_t bitsets[];
  const StridedBits blocked{bitsets + threadIdx.x, blockDim.x};
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    for (uint32_t w = 0; w < words; ++w) blocked.word0[w * blocked.stride] = start.words[w];
    Walk walk = start.walk;
    const uint64_t playout = first + i;
    const uint32_t length = random_snake(rules, policy, blocked, walk, seed, playout);
    atomicAdd(&counts[length], 1ull);
    atomicMin(&firsts[length], static_cast<unsigned long long>(playout));
  }
}

// Threads per block so that their bitsets fit the shared budget (a multiple of the warp size).
uint32_t block_threads(uint32_t words) {
  return std::clamp<uint32_t>(kSharedBudget / (words * 4) / 32 * 32, 32, kMaxBlock);
}

Start kernel_start(const State& s, uint32_t words) {
  Start start{};
  for (uint32_t w = 0; w < words; ++w) start.words[w] = static_cast<uint32_t>(s.blocked[w / 2] >> (32 * (w % 2)));
  start.walk = walk_of(s);
  return start;
}

} // namespace

uint64_t Game::cuda_scratch_bytes(uint64_t) const {
  return 2 * (uint64_t{length_bound(rules_.dimension)} + 1) * sizeof(unsigned long long);
}

void Game::cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream_handle, void* scratch,
                         uint64_t scratch_size, gsdk_playout_summary& summary) const {
  const uint64_t needed = cuda_scratch_bytes(request.playout_count);
  if (scratch == nullptr || scratch_size < needed)
    throw gsdk::PluginError(
        "snake CUDA: " +
        (scratch ? "scratch of " + std::to_string(scratch_size) + " bytes" : std::string("no scratch")) + ", need " +
        std::to_string(needed) + " bytes");
  const State& start = playout_start(request.start_state);
  if (request.playout_count == 0) return;
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  const uint32_t bins = length_bound(rules_.dimension) + 1;
  auto* counts = static_cast<unsigned long long*>(scratch);
  auto* firsts = counts + bins;
  const uint32_t words = words32(rules_.dimension);
  const uint32_t threads = block_threads(words);
  const size_t shared_bytes = size_t{threads} * words * sizeof(uint32_t);
  const unsigned blocks = gsdk::cuda::grid_size<playout_kernel>(device, static_cast<int>(threads),
                                                                request.playout_count, shared_bytes, cuda::kOwner);
  const gsdk::cuda::EventPair events(cuda::kOwner);
  cuda::check(cudaMemsetAsync(counts, 0, bins * sizeof *counts, stream), "cudaMemsetAsync");
  cuda::check(cudaMemsetAsync(firsts, 0xff, bins * sizeof *firsts, stream), "cudaMemsetAsync");
  cuda::check(cudaEventRecord(events.started, stream), "cudaEventRecord");
  playout_kernel<<<blocks, threads, shared_bytes, stream>>>(rules_, policy_, kernel_start(start, words), words,
                                                            request.seed, request.first_playout, request.playout_count,
                                                            counts, firsts);
  cuda::check(cudaGetLastError(), "launching the playout kernel");
  cuda::check(cudaEventRecord(events.finished, stream), "cudaEventRecord");
  std::vector<unsigned long long> result(2 * bins);
  cuda::check(cudaMemcpyAsync(result.data(), counts, result.size() * sizeof result[0], cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream), "the playout kernel");
  float milliseconds = 0;
  cuda::check(cudaEventElapsedTime(&milliseconds, events.started, events.finished), "cudaEventElapsedTime");

  uint64_t played = 0;
  for (uint32_t length = 0; length < bins; ++length) {
    const unsigned long long count = result[length];
    if (count == 0) continue;
    summary.histogram[length] += count;
    played += count;
    gsdk::record_extremes(summary, length, result[bins + length]);
  }
  if (played != request.playout_count)
    throw gsdk::PluginError("snake CUDA: the kernel counted " + std::to_string(played) + " playouts of " +
                                std::to_string(request.playout_count) + " (device result inconsistent)",
                            GSDK_ERR_DEVICE);
  summary.playouts += played;
  summary.device_milliseconds += milliseconds;
}

} // namespace snake
