// staged_states.cuh - how the SDK's per-state kernels (perft_tables.cuh's apply_moves, map_states.cuh) touch states
// too large for one thread to copy well. A thread copying a whole state of a few kilobytes into its own stack
// reads and writes it through local memory, each thread a state apart: uncoalesced, and spilled past the caches
// (snake's 3.3 KB states ran at a tenth of the memory's bandwidth that way). Here a warp handles one state: its
// lanes load the state's words side by side into a slot of shared memory, one lane runs the rules on the slot (a
// move or a map touches few words), and the lanes store the slot side by side. The bytes written are the same as
// the per-thread form's, which small states keep (a warp a state would idle most of its lanes).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace gsdk::cuda::staged {

// States of more bytes than this are staged; smaller ones stay a thread a state.
inline constexpr uint32_t kMinBytes = 512;
// Shared memory one block may use for its slots (the static limit), and the block's warps at most.
inline constexpr uint32_t kSharedBytes = 40 * 1024;
inline constexpr uint32_t kMaxWarps = 8;

template <typename State>
constexpr bool kStaged = sizeof(State) > kMinBytes && sizeof(State) % 4 == 0 && sizeof(State) <= kSharedBytes &&
                         alignof(State) >= 4;

// Warps (and so states) a block of the staged form holds.
template <typename State>
constexpr uint32_t kWarps = kSharedBytes / sizeof(State) < kMaxWarps
                                ? static_cast<uint32_t>(kSharedBytes / sizeof(State))
                                : kMaxWarps;

template <typename State> inline unsigned staged_blocks(uint64_t states) {
  return static_cast<unsigned>((states + kWarps<State> - 1) / kWarps<State>);
}

// The block's slots: raw shared storage, since a state type with member initialisers cannot be declared __shared__.
template <typename State> __device__ State* slots() {
  __shared__ alignas(alignof(State)) unsigned char raw[kWarps<State> * sizeof(State)];
  return reinterpret_cast<State*>(raw);
}

// The calling warp (all 32 lanes, state index uniform across it) sets *to = op applied to a copy of *from, where
// op(State& slot) runs on lane 0 over the block's shared slot for this warp and returns nothing. from and to may be
// the same state.
template <typename State, typename Op> __device__ void stage(const State* from, State* to, State* slot, Op op) {
  static_assert(std::is_trivially_copyable_v<State>, "staged states are copied word by word");
  using Word = std::conditional_t<sizeof(State) % 8 == 0 && alignof(State) >= 8, uint64_t, uint32_t>;
  constexpr uint32_t kWords = sizeof(State) / sizeof(Word);
  const unsigned lane = threadIdx.x % 32;
  const auto* source = reinterpret_cast<const Word*>(from);
  auto* staged = reinterpret_cast<Word*>(slot);
  for (uint32_t w = lane; w < kWords; w += 32) staged[w] = source[w];
  __syncwarp();
  if (lane == 0) op(*slot);
  __syncwarp();
  auto* target = reinterpret_cast<Word*>(to);
  for (uint32_t w = lane; w < kWords; w += 32) target[w] = staged[w];
  __syncwarp();
}

} // namespace gsdk::cuda::staged
