// train.cu - the minefield's CUDA Q-learning: the board and start cells copied ahead of the trainer's
// own scratch, then the SDK's one-launch trainer (gsdk/qlearning/train_cuda.cuh).
#include "gsdk/qlearning/train_cuda.cuh"
#include "minefield_game.hpp"

namespace minefield {

namespace {

struct BoardLayout {
  uint64_t starts, trainer;
};

BoardLayout board_layout(const Board& b) {
  const uint64_t cells = (b.cells.size() + 255) & ~uint64_t{255};
  return {cells, cells + ((b.starts.size() * 4 + 255) & ~uint64_t{255})};
}

} // namespace

uint64_t Game::cuda_qlearning_scratch_bytes(const gsdk_qlearning_request& request) const {
  return board_layout(board_).trainer +
         gsdk::qlearning::cuda_scratch_bytes(request, environment_.state_count(), kActions);
}

double Game::cuda_qlearning_train(const gsdk_qlearning_request& request, int32_t device, void* stream, void* scratch,
                                  uint64_t scratch_size) const {
  using gsdk::qlearning::cuda_detail::check;
  const BoardLayout layout = board_layout(board_);
  if (scratch_size < layout.trainer) throw gsdk::PluginError("minefield: scratch too small for the board");
  check(cudaSetDevice(device), "cudaSetDevice");
  auto s = static_cast<cudaStream_t>(stream);
  auto* base = static_cast<unsigned char*>(scratch);
  check(cudaMemcpyAsync(base, step_cells_.data(), step_cells_.size(), cudaMemcpyHostToDevice, s), "copying the board");
  check(cudaMemcpyAsync(base + layout.starts, board_.starts.data(), board_.starts.size() * 4, cudaMemcpyHostToDevice, s),
        "copying the start cells");
  Environment on_device = environment_;
  on_device.cells = base;
  return gsdk::qlearning::train_cuda(on_device, reinterpret_cast<const uint32_t*>(base + layout.starts),
                                     static_cast<uint32_t>(board_.starts.size()), request, s, base + layout.trainer,
                                     scratch_size - layout.trainer);
}

} // namespace minefield
