// cuda_perft.cu - the breadth-first GPU perft engine (see cuda_perft.hpp), after perft_gpu: the host
// drives one level at a time over the plugin's gsdk.cuda_perft.v1 kernels.
//
// A frontier is a run of states in root order with one uint32 count each. Above the leaf level the
// counts are move counts (perft 1, fused into the previous level's apply_moves): their 64-bit total
// (the one value the host waits for per level) sizes the next level; a CUB exclusive scan gives the
// offsets, the plugin generates the moves, the merge-path expand (bfs_expand.cuh) maps each child to
// its parent and root, and the plugin applies the moves. At the leaf level the plugin counts the last
// plies and the counts fold into per-root 64-bit totals (bfs_counts.cuh).
//
// Memory is one DeviceArena used as a stack: each level allocates its children (kept while they
// descend) and its scratch (released once the children exist). A level that would not fit its share
// of the free arena is split in halves, each re-summed and descended on its own, depth first, so the
// memory in use stays bounded; a single state whose children cannot fit is an error. The bytes per
// child and the split rule are in docs/perf/chess_perft.md ("GPU BFS engine (core)").
#include <cuda_runtime.h>

#include <cstring>
#include <numeric>

#include "perft/bfs_counts.cuh"
#include "perft/bfs_expand.cuh"
#include "perft/cuda_engine.cuh"

namespace gsdk::core {

using namespace cuda_engine;

std::vector<uint64_t> CudaPerftEngine::Impl::count(const std::vector<StateBlob>& roots, uint32_t depth) {
  if (depth == 0) return std::vector<uint64_t>(roots.size(), 1); // perft(s, 0) = 1
  if (roots.empty()) return {};
  check_roots(roots);
  const auto n = static_cast<uint32_t>(roots.size());
  const ArenaScope call(arena);
  const uint64_t needed =
      footprint(uint64_t{n} * state_size) + 2 * footprint(uint64_t{n} * 4) + footprint(uint64_t{n} * 8) + kAlignment;
  if (needed > free_bytes())
    throw std::runtime_error(where(device) + "arena too small: the " + std::to_string(n) + " roots need " +
                             std::to_string(needed) + " bytes, have " + std::to_string(free_bytes()) + " free of " +
                             std::to_string(arena.capacity()));
  Frontier frontier{allocate<unsigned char>(uint64_t{n} * state_size), allocate<uint32_t>(n), allocate<uint32_t>(n), n,
                    false};
  totals = allocate<unsigned long long>(n);

  std::vector<uint32_t> root_ids(n);
  std::iota(root_ids.begin(), root_ids.end(), 0u);
  const cudaStream_t s = cuda_stream();
  check(device, cudaEventRecord(started.get(), s), "cudaEventRecord");
  const std::vector<unsigned char> packed = upload_roots(roots, frontier.states);
  check(device, cudaMemcpyAsync(frontier.roots, root_ids.data(), uint64_t{n} * 4, cudaMemcpyHostToDevice, s),
        "copying the root indices to the device");
  check(device, cudaMemsetAsync(totals, 0, uint64_t{n} * sizeof(unsigned long long), s), "clearing the totals");
  if (depth > table.leaf_plies) {
    count_leaves(frontier, 1);
    frontier.counts_are_moves = true;
  }
  descend(frontier, depth);

  return download_counts(totals, n);
}

void CudaPerftEngine::Impl::check_roots(const std::vector<StateBlob>& roots) const {
  if (roots.size() > kMaxCallItems)
    throw std::invalid_argument(where(device) + std::to_string(roots.size()) + " roots in one call, more than " +
                                std::to_string(kMaxCallItems));
  for (size_t i = 0; i < roots.size(); ++i)
    if (roots[i].size() != state_size)
      throw std::invalid_argument(where(device) + "root " + std::to_string(i) + " has " +
                                  std::to_string(roots[i].size()) + " bytes, the game's states have " +
                                  std::to_string(state_size));
  check(device, cudaSetDevice(device), "cudaSetDevice");
}

// Enqueues the roots' copy to `states`; the returned host buffer must live until the stream has copied it.
std::vector<unsigned char> CudaPerftEngine::Impl::upload_roots(const std::vector<StateBlob>& roots,
                                                               unsigned char* states) {
  std::vector<unsigned char> packed(roots.size() * state_size);
  for (size_t i = 0; i < roots.size(); ++i) std::memcpy(packed.data() + i * state_size, roots[i].data(), state_size);
  check(device, cudaMemcpyAsync(states, packed.data(), packed.size(), cudaMemcpyHostToDevice, cuda_stream()),
        "copying the roots to the device");
  return packed;
}

// The call's n 64-bit counts, once the stream has done all its work; adds the call's device time.
std::vector<uint64_t> CudaPerftEngine::Impl::download_counts(const unsigned long long* counts, uint32_t n) {
  const cudaStream_t s = cuda_stream();
  std::vector<uint64_t> leaves(n);
  check(device, cudaMemcpyAsync(leaves.data(), counts, uint64_t{n} * 8, cudaMemcpyDeviceToHost, s),
        "copying the totals to the host");
  check(device, cudaEventRecord(finished.get(), s), "cudaEventRecord");
  check(device, cudaStreamSynchronize(s), "counting (stream synchronize)");
  float elapsed = 0;
  check(device, cudaEventElapsedTime(&elapsed, started.get(), finished.get()), "cudaEventElapsedTime");
  milliseconds += elapsed;
  return leaves;
}

// Counts `depth` more plies below every state of the frontier into the totals.
void CudaPerftEngine::Impl::descend(const Frontier& frontier, uint32_t depth) {
  if (depth > table.leaf_plies) {
    expand(frontier, depth);
    return;
  }
  // The fused move counts of the previous apply already are perft 1.
  if (depth != 1 || !frontier.counts_are_moves) count_leaves(frontier, depth);
  add_leaf_counts(frontier);
}

void CudaPerftEngine::Impl::add_leaf_counts(const Frontier& leaves) {
  check(device, bfs::add_counts(leaves.counts, leaves.roots, leaves.size, totals, cuda_stream()),
        "launching add_leaf_counts");
}

// One BFS level: the frontier's children, then their descent. Splits the frontier when the level
// does not fit its budget (see the top comment and docs/perf/chess_perft.md).
void CudaPerftEngine::Impl::expand(const Frontier& frontier, uint32_t depth) {
  const uint64_t children = move_total(frontier.counts, frontier.size);
  if (children == 0) return;
  const uint32_t n = frontier.size;
  const bool children_are_leaves = depth - 1 <= table.leaf_plies;
  // Leaves the plugin can count from (parent, move) pairs (ABI 1.8) need no stored children.
  const auto count_after_moves = children_are_leaves ? count_leaves_after_moves : nullptr;
  if (must_split(n, children, level_bytes(n, children, count_after_moves == nullptr), children_are_leaves)) {
    expand(frontier.part(0, n / 2, state_size), depth);
    expand(frontier.part(n / 2, n, state_size), depth);
    return;
  }

  const auto count = static_cast<uint32_t>(children);
  const cudaStream_t s = cuda_stream();
  const ArenaScope level(arena);
  // The children's move counts are fused into apply when the children expand again or are counted
  // one ply deep; otherwise the leaf kernel fills that room.
  const bool fuse_counts = !children_are_leaves || depth - 1 == 1;
  const Frontier next{count_after_moves ? nullptr : allocate<unsigned char>(children * state_size),
                      allocate<uint32_t>(count), allocate<uint32_t>(count), count, fuse_counts};
  {
    const ArenaScope scratch(arena);
    uint32_t* offsets = allocate<uint32_t>(n);
    size_t scan_bytes = 0;
    check(device, exclusive_sum(nullptr, scan_bytes, frontier.counts, offsets, n, s), "sizing the scan");
    void* scan_scratch = arena.allocate(scan_bytes);
    uint32_t* moves = allocate<uint32_t>(count);
    uint32_t* parents = allocate<uint32_t>(count);
    uint32_t* splits = allocate<uint32_t>(uint64_t{bfs::expand_blocks(n, count)} + 1);
    check(device, exclusive_sum(scan_scratch, scan_bytes, frontier.counts, offsets, n, s),
          "the exclusive scan of the move counts");
    plugin_call("generate_moves", [&](char* message, uint32_t size) {
      return table.generate_moves(game.handle(), frontier.states, n, offsets, moves, s, message, size);
    });
    check(device, bfs::expand(offsets, frontier.roots, n, count, splits, parents, next.roots, s),
          "launching the expand");
    if (count_after_moves)
      plugin_call("count_leaves_after_moves", [&](char* message, uint32_t size) {
        return count_after_moves(game.handle(), frontier.states, parents, moves, count, depth - 1, next.counts, s,
                                 message, size);
      });
    else
      plugin_call("apply_moves", [&](char* message, uint32_t size) {
        return table.apply_moves(game.handle(), frontier.states, parents, moves, count, next.states,
                                 fuse_counts ? next.counts : nullptr, s, message, size);
      });
  }
  if (count_after_moves)
    add_leaf_counts(next);
  else
    descend(next, depth - 1);
}

void CudaPerftEngine::Impl::count_leaves(const Frontier& frontier, uint32_t plies) {
  count_leaves(frontier.states, frontier.size, plies, frontier.counts);
}

void CudaPerftEngine::Impl::count_leaves(const unsigned char* states, uint32_t n, uint32_t plies, uint32_t* counts) {
  plugin_call("count_leaves", [&](char* message, uint32_t size) {
    return table.count_leaves(game.handle(), states, n, plies, counts, cuda_stream(), message, size);
  });
}

// The sum of n move counts, in 64 bits. The host waits for it: it sizes the level.
uint64_t CudaPerftEngine::Impl::move_total(const uint32_t* counts, uint32_t n) {
  const cudaStream_t s = cuda_stream();
  check(device, cudaMemsetAsync(level_total, 0, sizeof(unsigned long long), s), "clearing the level total");
  check(device, bfs::sum_counts(counts, n, level_total, count_blocks, s), "launching sum_counts");
  check(device, cudaMemcpyAsync(pinned_total.get(), level_total, sizeof(unsigned long long), cudaMemcpyDeviceToHost, s),
        "copying a level total to the host");
  check(device, cudaStreamSynchronize(s), "computing a level's move total (stream synchronize)");
  return *pinned_total.get();
}

// Whether a level of n states and `children` children, taking `bytes` of the arena, must be cut in halves. A level
// whose children expand again leaves room for them: with b children per state here and about as many below, taking
// 1/(1 + b) of the free arena lets the next level fit in one piece. Throws when one state's children cannot fit.
bool CudaPerftEngine::Impl::must_split(uint32_t n, uint64_t children, uint64_t bytes, bool children_are_leaves) const {
  const uint64_t free = free_bytes();
  const uint64_t budget = children_are_leaves ? free : free / (1 + children / n);
  if (children <= kMaxCallItems && bytes <= budget) return false;
  if (n > 1) return true;
  if (children > kMaxCallItems || bytes > free)
    throw std::runtime_error(where(device) + "arena too small: one state's " + std::to_string(children) +
                             " children need " + std::to_string(bytes) + " bytes, have " + std::to_string(free) +
                             " free of " + std::to_string(arena.capacity()) +
                             (children > kMaxCallItems ? " (and one call takes at most 2^31 - 1 children)" : ""));
  return false;
}

// Peak arena bytes of expanding `parents` states into `children`: the children (states unless the
// plugin counts their leaves from parents and moves, roots, counts) plus the scratch (offsets, scan
// temporary, moves, parent indices, expand partitions), each rounded to the arena's alignment, plus the
// alignment of the current top.
uint64_t CudaPerftEngine::Impl::level_bytes(uint64_t parents, uint64_t children, bool stores_children) const {
  size_t scan_bytes = 0;
  check(device, exclusive_sum(nullptr, scan_bytes, nullptr, nullptr, parents, cuda_stream()), "sizing the scan");
  const uint64_t blocks = (parents + children + bfs::kExpandItems - 1) / bfs::kExpandItems;
  const uint64_t kept = (stores_children ? footprint(children * state_size) : 0) + 2 * footprint(children * 4);
  const uint64_t scratch =
      footprint(parents * 4) + footprint(scan_bytes) + 2 * footprint(children * 4) + footprint((blocks + 1) * 4);
  return kept + scratch + kAlignment;
}

CudaPerftEngine::CudaPerftEngine(const GameInstance& game, int device, uint64_t arena_bytes,
                                 std::shared_ptr<CudaPerftTable> table)
    : impl_(std::make_unique<Impl>(game, device, arena_bytes, std::move(table))) {}

CudaPerftEngine::~CudaPerftEngine() = default;

std::vector<uint64_t> CudaPerftEngine::count(const std::vector<StateBlob>& roots, uint32_t depth) {
  return impl_->hash_table ? impl_->count_hashed(roots, depth) : impl_->count(roots, depth);
}

uint64_t CudaPerftEngine::frontier_states() const {
  return impl_->frontier_states;
}

uint64_t CudaPerftEngine::duplicates() const {
  return impl_->duplicates;
}

double CudaPerftEngine::device_milliseconds() const {
  return impl_->milliseconds;
}

} // namespace gsdk::core
