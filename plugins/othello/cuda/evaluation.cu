// evaluation.cu - othello's gsdk.evaluation.v1 on a CUDA device: one thread per state, the same functions as
// the CPU (rules/patterns.hpp, rules/evaluation.hpp), so the values agree to the bit. The pattern layout and the
// shipped weights are copied into device memory once per device, on first use.
#include <cuda_runtime.h>

#include <mutex>
#include <set>

#include "cuda_check.hpp"
#include "othello_game.hpp"
#include "rules/evaluation.hpp"
#include "rules/patterns.hpp"
#include "shipped_weights.hpp"

namespace othello {

namespace {

constexpr unsigned kBlock = 128;

__device__ PatternLayout device_layout;
__device__ int16_t device_weights[size_t{kEvaluationStages} * kPatternLayout.stage_entries];

__global__ void evaluation_kernel(const Position* states, uint32_t count, bool patterns, int32_t* values) {
  for (uint64_t k = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count; k += uint64_t{gridDim.x} * blockDim.x)
    values[k] = patterns ? pattern_evaluation(states[k], device_layout, device_weights) : evaluate(states[k]);
}

// Copies the layout and the shipped weights to `device` (current) the first time it evaluates patterns.
void upload_weights(int32_t device) {
  static std::mutex mutex;
  static std::set<int32_t> uploaded;
  const std::lock_guard lock(mutex);
  if (uploaded.count(device)) return;
  const std::vector<int16_t>& weights = shipped_pattern_weights();
  cuda::check(cudaMemcpyToSymbol(device_layout, &kPatternLayout, sizeof kPatternLayout), "copying the pattern layout");
  cuda::check(cudaMemcpyToSymbol(device_weights, weights.data(), weights.size() * sizeof(int16_t)),
              "copying the pattern weights");
  uploaded.insert(device);
}

} // namespace

void Game::cuda_evaluate(const State* states, uint32_t count, int32_t device, void* stream_handle,
                         int32_t* values) const {
  if (count == 0) return;
  if (!states || !values)
    throw gsdk::PluginError("othello CUDA evaluation: states and values must be device memory, got NULL");
  cuda::check(cudaSetDevice(device), "cudaSetDevice");
  if (pattern_weights_) upload_weights(device);
  const unsigned blocks = gsdk::cuda::grid_size<evaluation_kernel>(device, kBlock, count, 0, cuda::kOwner);
  evaluation_kernel<<<blocks, kBlock, 0, static_cast<cudaStream_t>(stream_handle)>>>(
      states, count, pattern_weights_ != nullptr, values);
  cuda::check(cudaGetLastError(), "launching the evaluation kernel");
}

} // namespace othello
