// evaluation.cu - othello's gsdk.evaluation.v1 on a CUDA device: one thread per state, the same functions as
// the CPU (rules/patterns.hpp, rules/evaluation.hpp), so the values agree to the bit. The pattern layout is copied
// into device memory once per device, and each set of weights (the shipped ones, or a `weights` file's) once per
// device, on first use.
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "cuda_check.hpp"
#include "othello_game.hpp"
#include "rules/evaluation.hpp"
#include "rules/patterns.hpp"

namespace othello {

namespace {

constexpr unsigned kBlock = 128;

__device__ PatternLayout device_layout;

// weights: null for the hand-set evaluation.
__global__ void evaluation_kernel(const Position* states, uint32_t count, const int16_t* weights, int32_t* values) {
  for (uint64_t k = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count; k += uint64_t{gridDim.x} * blockDim.x)
    values[k] = weights ? pattern_evaluation(states[k], device_layout, weights) : evaluate(states[k]);
}

// The device copy of `weights` (all stages) on `device` (current), made the first time; the layout with it.
// Copies live until the process ends: a process uses the shipped weights and perhaps a few files, and the host
// weights a copy was made from are kept alive with it (`owner`), so no later set can take their address.
const int16_t* device_weights(int32_t device, const int16_t* weights, std::shared_ptr<const void> owner) {
  static std::mutex mutex;
  static std::set<int32_t> layout_uploaded;
  static std::map<std::pair<int32_t, const int16_t*>, std::pair<int16_t*, std::shared_ptr<const void>>> copies;
  const std::lock_guard lock(mutex);
  if (!layout_uploaded.count(device)) {
    cuda::check(cudaMemcpyToSymbol(device_layout, &kPatternLayout, sizeof kPatternLayout),
                "copying the pattern layout");
    layout_uploaded.insert(device);
  }
  const auto key = std::make_pair(device, weights);
  if (const auto found = copies.find(key); found != copies.end()) return found->second.first;
  const size_t bytes = size_t{kEvaluationStages} * kPatternLayout.stage_entries * sizeof(int16_t);
  int16_t* copy = nullptr;
  cuda::check(cudaMalloc(&copy, bytes), "allocating the pattern weights");
  cuda::check(cudaMemcpy(copy, weights, bytes, cudaMemcpyHostToDevice), "copying the pattern weights");
  copies.emplace(key, std::make_pair(copy, std::move(owner)));
  return copy;
}

} // namespace

void Game::cuda_evaluate(const State* states, uint32_t count, int32_t device, void* stream_handle,
                         int32_t* values) const {
  if (count == 0) return;
  if (!states || !values)
    throw gsdk::PluginError("othello CUDA evaluation: states and values must be device memory, got NULL");
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  const int16_t* weights = patterns_ ? device_weights(device, pattern_weights(), loaded_weights_) : nullptr;
  const unsigned blocks = gsdk::cuda::grid_size<evaluation_kernel>(device, kBlock, count, 0, cuda::kOwner);
  evaluation_kernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream_handle)>>>(states, count, weights, values);
  cuda::check(cudaGetLastError(), "launching the evaluation kernel");
}

} // namespace othello
