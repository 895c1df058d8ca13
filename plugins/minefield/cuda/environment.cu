// environment.cu - the minefield as a vectorised environment on a CUDA device: batched steps and resets (one thread
// per game, environment.hpp's walk, as the CPU) and observations (one thread per byte). The board's bytes are copied
// to the device for each call, on its stream, from the stream-ordered pool: a few kilobytes, and no device state
// for the instance to own.
#include <cuda_runtime.h>

#include <vector>

#include "gsdk/cuda/launch.cuh"
#include "gsdk/environments/step_rewards.hpp"
#include "minefield_game.hpp"

namespace minefield {

namespace {

constexpr const char* kOwner = "minefield CUDA";
constexpr int kBlock = 256;

void check(cudaError_t status, const char* what) { gsdk::cuda::check(status, kOwner, what); }

// Host bytes copied into device memory of the stream's pool, freed on the stream when it goes out of scope.
class StreamCopy {
public:
  StreamCopy(const std::vector<uint8_t>& bytes, cudaStream_t stream) : stream_(stream) {
    check(cudaMallocAsync(&data_, bytes.size(), stream), "cudaMallocAsync");
    check(cudaMemcpyAsync(data_, bytes.data(), bytes.size(), cudaMemcpyHostToDevice, stream), "copying the board");
  }
  ~StreamCopy() { cudaFreeAsync(data_, stream_); }
  StreamCopy(const StreamCopy&) = delete;
  StreamCopy& operator=(const StreamCopy&) = delete;
  const uint8_t* get() const { return static_cast<const uint8_t*>(data_); }

private:
  void* data_ = nullptr;
  cudaStream_t stream_;
};

__device__ void write_live(int32_t* player, uint8_t* legal) {
  *player = 0;
  for (uint32_t a = 0; a < kActions; ++a) legal[a] = 1;
}

__global__ void step_kernel(Environment environment, State* states, const uint32_t* actions, uint32_t count,
                            uint32_t start, float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                            State* final_states) {
  for (uint64_t k = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count; k += uint64_t{gridDim.x} * blockDim.x) {
    State s = states[k];
    WalkOutcome outcome{false, 0};
    if (actions[k] < kActions) outcome = walk(environment, s.cell, s.steps, actions[k]); // else left as it was
    if (outcome.ended) {
      if (final_states) final_states[k] = s;
      s = State{start, 0};
    }
    states[k] = s;
    gsdk::environments::write_step_rewards(outcome.ended, outcome.score, 1, rewards + k);
    terminated[k] = outcome.ended ? 1 : 0;
    write_live(players + k, legal + kActions * k);
  }
}

__global__ void reset_kernel(State* states, uint32_t count, uint32_t start, int32_t* players, uint8_t* legal) {
  for (uint64_t k = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count; k += uint64_t{gridDim.x} * blockDim.x) {
    states[k] = State{start, 0};
    write_live(players + k, legal + kActions * k);
  }
}

// Byte i of the batch's observations: the board's planes, then the agent's cell.
__global__ void observation_kernel(const State* states, uint64_t bytes, uint32_t cells, const uint8_t* board_planes,
                                   uint8_t* observations) {
  const uint64_t per_state = 3 * uint64_t{cells};
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < bytes; i += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t k = i / per_state, within = i % per_state;
    observations[i] = within < 2 * cells ? board_planes[within] : (within - 2 * cells == states[k].cell ? 1 : 0);
  }
}

template <auto Kernel> unsigned blocks_for(int32_t device, uint64_t threads) {
  return gsdk::cuda::grid_size<Kernel>(device, kBlock, threads, 0, kOwner);
}

} // namespace

void Game::cuda_step_batch(State* states, const uint32_t* actions, uint32_t count, int32_t device, void* stream,
                           float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                           State* final_states) const {
  if (count == 0) return;
  check(cudaSetDevice(device), "cudaSetDevice");
  const auto s = static_cast<cudaStream_t>(stream);
  const StreamCopy cells(step_cells_, s);
  Environment on_device = environment_;
  on_device.cells = cells.get();
  step_kernel<<<blocks_for<step_kernel>(device, count), kBlock, 0, s>>>(on_device, states, actions, count,
                                                                          board_.starts.front(), rewards, terminated,
                                                                          players, legal, final_states);
  check(cudaGetLastError(), "launching the batched step kernel");
}

void Game::cuda_reset_batch(State* states, uint32_t count, int32_t device, void* stream, int32_t* players,
                            uint8_t* legal) const {
  if (count == 0) return;
  check(cudaSetDevice(device), "cudaSetDevice");
  reset_kernel<<<blocks_for<reset_kernel>(device, count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(
      states, count, board_.starts.front(), players, legal);
  check(cudaGetLastError(), "launching the batched reset kernel");
}

void Game::cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const {
  if (count == 0) return;
  check(cudaSetDevice(device), "cudaSetDevice");
  const auto s = static_cast<cudaStream_t>(stream);
  const StreamCopy planes(board_planes_, s);
  const uint64_t bytes = uint64_t{count} * 3 * board_.cell_count();
  observation_kernel<<<blocks_for<observation_kernel>(device, bytes), kBlock, 0, s>>>(
      states, bytes, board_.cell_count(), planes.get(), static_cast<uint8_t*>(out));
  check(cudaGetLastError(), "launching the observation kernel");
}

} // namespace minefield
