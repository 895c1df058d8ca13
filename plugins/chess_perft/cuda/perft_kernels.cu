// perft_kernels.cu - chess_perft's batch kernels for the core's breadth-first GPU perft engine: one
// thread per position, the same rules headers as the CPU.
#include <cuda_runtime.h>

#include <mutex>
#include <string>
#include <vector>

#include "chess_game.hpp"
#include "cuda/cuda_status.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace chess {

namespace {

constexpr int kBlock = 256;

// Where a leaf kernel's positions come from: stored states, or (ABI 1.8) parents and the moves that
// lead from them, made on the fly so that the level above the leaves is never written to memory.
struct StoredStates {
  const Position* states;
  __device__ Position operator()(uint64_t i) const { return states[i]; }
};
struct MovedStates {
  const Position* states;
  const uint32_t* parents;
  const uint32_t* moves;
  __device__ Position operator()(uint64_t j) const {
    Position p = states[parents[j]];
    make_move(p, moves[j]);
    return p;
  }
};

template <class Source> __global__ void count_one_ply(Source source, uint32_t count, uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  counts[i] = count_legal_moves(source(i));
}

// The fused last two plies: list the moves, then make each and bulk-count the replies. Listing first
// keeps one copy of the make-and-count code: counting inside the generator's callbacks would inline
// it at every kind of move, and threads of a warp at different kinds would run those copies one after
// another. Moves fit 16 bits, so the list costs at most 436 bytes of (L1-cached) local memory.
// Four blocks per SM cap the kernel at 64 registers (it wants 96, which allows only two): some bytes
// spill to L1, but 32 warps instead of 16 keep the integer pipe busier (H100: 5% faster than three).
template <class Source>
__global__ void __launch_bounds__(kBlock, 4) count_two_plies(Source source, uint32_t count, uint32_t* counts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const Position p = source(i);
  uint16_t moves[218];
  uint32_t n = 0;
  const Bitboard landing = for_each_legal_move(p, [&](Move m) { moves[n++] = static_cast<uint16_t>(m); });
  // The replying side's king stays put: the enemy sliders that could attack its zone stand on the same
  // lines for every child, so the children's danger sets look only those up.
  const ZoneLines lines = king_zone_lines(p, p.side ^ 1, landing);
  uint32_t leaves = 0;
  for (uint32_t k = 0; k < n; ++k) {
    Position child = p;
    make_move(child, moves[k]);
    leaves += count_legal_moves(child, lines);
  }
  counts[i] = leaves;
}

// The same two plies with one warp per position: every lane walks the same (uniform) generation and
// keeps the moves whose index is its lane modulo 32, then makes and counts those; a warp sum follows.
// Fewer registers live at once than the thread-per-position kernel, at the price of generating each
// position's moves on 32 lanes.
template <class Source> __global__ void count_two_plies_warp(Source source, uint32_t count, uint32_t* counts) {
  const uint64_t position = (uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (position >= count) return; // whole warps leave together
  const Position p = source(position);
  constexpr int kMovesPerLane = (218 + 31) / 32;
  Move mine[kMovesPerLane];
  uint32_t total = 0;
  for_each_legal_move(p, [&](Move m) {
    if ((total & 31) == lane) mine[total >> 5] = m;
    ++total;
  });
  uint32_t leaves = 0;
  for (uint32_t k = 0; k * 32 + lane < total; ++k) {
    Position child = p;
    make_move(child, mine[k]);
    leaves += count_legal_moves(child);
  }
  leaves = __reduce_add_sync(0xffffffffu, leaves);
  if (lane == 0) counts[position] = leaves;
}

__global__ void generate(const Position* states, uint32_t count, const uint32_t* offsets, uint32_t* moves) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  uint32_t* out = moves + offsets[i];
  for_each_legal_move(states[i], [&](Move m) { *out++ = m; });
}

__global__ void apply(const Position* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                      Position* children, uint32_t* child_counts) {
  const uint64_t j = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= count) return;
  Position child = states[parents[j]];
  make_move(child, moves[j]);
  children[j] = child;
  if (child_counts) child_counts[j] = count_legal_moves(child);
}

unsigned blocks(uint64_t threads) { return static_cast<unsigned>((threads + kBlock - 1) / kBlock); }

// The magic slider tables live in each device's global memory; copy them before a device's first
// launch.
void ensure_magic_tables() {
  static std::mutex mutex;
  static std::vector<bool> copied;
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<size_t>(device) < copied.size() && copied[device]) return;
  const magic::Tables& t = magic::host_tables();
  check_cuda(cudaMemcpyToSymbol(magic::kDeviceRook, t.rook, sizeof t.rook), "copying the rook magics");
  check_cuda(cudaMemcpyToSymbol(magic::kDeviceBishop, t.bishop, sizeof t.bishop), "copying the bishop magics");
  check_cuda(cudaMemcpyToSymbol(magic::kDeviceAttacks, t.attacks, sizeof t.attacks), "copying the slider attacks");
  if (copied.size() <= static_cast<size_t>(device)) copied.resize(device + 1, false);
  copied[device] = true;
}

// perft(source(i), plies) into counts[i] for i < count.
template <class Source>
void count_leaves(Source source, uint32_t count, uint32_t plies, uint32_t* counts, Game::LeafKernel kernel,
                  void* stream) {
  ensure_magic_tables();
  if (plies < 1 || plies > Game::kCudaPerftLeafPlies)
    throw gsdk::PluginError("chess_perft: count_leaves supports 1 or 2 plies, got " + std::to_string(plies));
  if (count == 0) return;
  auto s = static_cast<cudaStream_t>(stream);
  if (plies == 1)
    count_one_ply<<<blocks(count), kBlock, 0, s>>>(source, count, counts);
  else if (kernel == Game::LeafKernel::warp_per_position)
    count_two_plies_warp<<<blocks(uint64_t{count} * 32), kBlock, 0, s>>>(source, count, counts);
  else
    count_two_plies<<<blocks(count), kBlock, 0, s>>>(source, count, counts);
  check_launch("count_leaves");
}

} // namespace

void Game::cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                                   void* stream) const {
  count_leaves(StoredStates{states}, count, plies, counts, leaf_kernel_, stream);
}

void Game::cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                               uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const {
  count_leaves(MovedStates{states, parents, moves}, count, plies, counts, leaf_kernel_, stream);
}

void Game::cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                     void* stream) const {
  ensure_magic_tables();
  if (count == 0) return;
  generate<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, count, offsets, moves);
  check_launch("generate_moves");
}

void Game::cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                                  State* children, uint32_t* child_counts, void* stream) const {
  ensure_magic_tables();
  if (count == 0) return;
  apply<<<blocks(count), kBlock, 0, static_cast<cudaStream_t>(stream)>>>(states, parents, moves, count, children,
                                                                        child_counts);
  check_launch("apply_moves");
}

} // namespace chess
