// cuda_hashed_count.cu - the GPU perft engine's hashed count (cuda_perft.hpp): breadth-first as the plain count,
// but every level that expands first merges its equal states and looks the rest up in the device's table, and
// counts come back up: each state's count is the sum of its children's, folded into it once they are counted, and
// stored in the table.
//
// A level (count_level) holds its states, their move counts (fused into the previous level's apply, as in the plain
// count), and beside them their keys and links (hashed_level.cuh). States the table knows and states linked to an
// equal one get no moves, so the expansion (expand_hashed) takes only the others' children, in ranges cut as the
// plain count cuts a level that does not fit its share of the arena; each range's children are counted (their own
// level, or the plugin's fused leaf count) and added into their parents' counts (bfs_counts.cuh), the parents being
// the ranges' own indices since the expand keeps them. Then the level stores its counts and copies them to the
// linked states. A range counted before another of the same level has its counts in the table when the later
// range's children look up: the tables also merge work across ranges and calls.
//
// Levels of leaf_plies plies or fewer are counted whole by the plugin, unhashed: their count is as cheap as a
// look-up. docs/perf/chess_perft.md ("Hashed perft") has the bytes per state and the measurements.
#include <cuda_runtime.h>

#include <algorithm>

#include "perft/bfs_counts.cuh"
#include "perft/bfs_expand.cuh"
#include "perft/canonical_state.hpp"
#include "perft/cuda_engine.cuh"
#include "perft/hashed_level.cuh"

namespace gsdk::core {

using namespace cuda_engine;

namespace {

// Merge slots per state, at least: a power of two, so that the slot is a mask of the key.
constexpr uint64_t kSlotsPerState = 2;

// Leaf levels of at least this many plies are looked up before the plugin counts them: in chess, the 2-ply counts
// of the positions the table lacks cost more than storing every child and looking it up (startpos perft 10: 3.12 s
// without, 2.58 s with, one H200).
constexpr uint32_t kHashedLeafDepth = 2;

uint64_t merge_slots(uint64_t n) {
  uint64_t slots = 1;
  while (slots < kSlotsPerState * n) slots <<= 1;
  return slots;
}

cuda_table::View table_view(const std::shared_ptr<CudaPerftTable>& table) {
  return table->impl().view;
}

} // namespace

std::vector<uint64_t> CudaPerftEngine::Impl::count_hashed(const std::vector<StateBlob>& roots, uint32_t depth) {
  if (depth == 0) return std::vector<uint64_t>(roots.size(), 1); // perft(s, 0) = 1
  if (roots.empty()) return {};
  check_roots(roots);
  const auto n = static_cast<uint32_t>(roots.size());
  const ArenaScope call(arena);
  const uint64_t needed = footprint(uint64_t{n} * state_size) + footprint(uint64_t{n} * 8) + kAlignment;
  if (needed > free_bytes())
    throw std::runtime_error(where(device) + "arena too small: the " + std::to_string(n) + " roots need " +
                             std::to_string(needed) + " bytes, have " + std::to_string(free_bytes()) + " free of " +
                             std::to_string(arena.capacity()));
  HashedFrontier roots_level{allocate<unsigned char>(uint64_t{n} * state_size), nullptr, n};
  auto* counts = allocate<unsigned long long>(n);
  const cudaStream_t s = cuda_stream();
  check(device, cudaEventRecord(started.get(), s), "cudaEventRecord");
  const std::vector<unsigned char> packed = upload_roots(roots, roots_level.states);
  count_level(roots_level, depth, counts);

  unsigned long long merged = 0;
  check(device, cudaMemcpyAsync(&merged, merged_states, sizeof merged, cudaMemcpyDeviceToHost, s),
        "copying the merge counter to the host");
  std::vector<uint64_t> leaves = download_counts(counts, n);
  duplicates = merged;
  return leaves;
}

// counts[i] = perft(frontier.states[i], depth).
void CudaPerftEngine::Impl::count_level(HashedFrontier frontier, uint32_t depth, unsigned long long* counts) {
  const cudaStream_t s = cuda_stream();
  const uint32_t n = frontier.size;
  const ArenaScope level(arena);
  const bool leaf_level = depth <= table.leaf_plies;
  if (leaf_level && !hashes_leaf_level(depth)) {
    if (depth != 1 || !frontier.moves) {
      count_whole_level(frontier, depth, counts);
      return;
    }
    // The fused move counts of the parents' apply are the count.
    hashed::widen_kernel<<<hashed::blocks_for(n), hashed::kThreads, 0, s>>>(frontier.moves, n, counts);
    check(device, cudaGetLastError(), "launching widen");
    return;
  }
  if (!leaf_level && !frontier.moves) {
    frontier.moves = allocate<uint32_t>(n);
    count_leaves(frontier.states, n, 1, frontier.moves);
  }
  if (const auto canonical = cuda_canonical_entry(game)) {
    if (const auto failure = call_entry([&](char* message, uint32_t size) {
          return canonical(game.handle(), frontier.states, n, frontier.states, s, message, size);
        }))
      throw std::runtime_error(where(device) + "plugin '" + game.tables().name() + "' cuda_canonical failed (status " +
                               std::to_string(failure->status) + "): " + failure->message);
  }
  auto* keys = allocate<perft_key::Key>(n);
  auto* link = allocate<uint32_t>(n);
  const cuda_table::View view = table_view(hash_table);
  hashed::keys_kernel<<<hashed::blocks_for(n), hashed::kThreads, 0, s>>>(frontier.states, n, state_size, depth, keys);
  check(device, cudaGetLastError(), "launching the key kernel");
  {
    const ArenaScope scratch(arena);
    const uint64_t slots = merge_slots(n);
    auto* slot_owner = allocate<uint32_t>(slots);
    hashed::claim_slots_kernel<<<hashed::blocks_for(n), hashed::kThreads, 0, s>>>(keys, n, slot_owner, slots - 1);
    hashed::classify_kernel<<<hashed::blocks_for(n), hashed::kThreads, 0, s>>>(
        keys, n, slot_owner, slots - 1, view, frontier.moves, link, counts, merged_states);
    check(device, cudaGetLastError(), "launching the merge kernels");
  }
  frontier_states += n;
  count_misses(frontier, depth, link, counts);
  hashed::finish_kernel<<<hashed::blocks_for(n), hashed::kThreads, 0, s>>>(keys, n, link, view, counts);
  check(device, cudaGetLastError(), "launching the store kernel");
}

// Adds the counts of the children of frontier states [begin, end) into counts[begin, end).
void CudaPerftEngine::Impl::expand_hashed(const HashedFrontier& frontier, uint32_t begin, uint32_t end, uint32_t depth,
                                          unsigned long long* counts) {
  const uint32_t n = end - begin;
  const unsigned char* states = frontier.states + uint64_t{begin} * state_size;
  uint32_t* moves_of = frontier.moves + begin;
  const uint64_t children = move_total(moves_of, n);
  if (children == 0) return;
  const bool children_are_leaves = depth - 1 <= table.leaf_plies;
  // Children of a hashed leaf level are stored, to be looked up; the others the plugin may count from the parents.
  const bool hashed_children = !children_are_leaves || hashes_leaf_level(depth - 1);
  const auto count_after_moves = hashed_children ? nullptr : count_leaves_after_moves;
  const uint64_t bytes =
      hashed_level_bytes(n, children, count_after_moves == nullptr, hashed_children, children_are_leaves);
  if (must_split(n, children, bytes, children_are_leaves)) {
    expand_hashed(frontier, begin, begin + n / 2, depth, counts);
    expand_hashed(frontier, begin + n / 2, end, depth, counts);
    return;
  }

  const auto count = static_cast<uint32_t>(children);
  const cudaStream_t s = cuda_stream();
  const ArenaScope level(arena);
  auto* parents = allocate<uint32_t>(count);
  // Children's move counts are fused into apply when they expand again or are counted one ply deep unhashed.
  const bool fuse_counts = !children_are_leaves || (depth - 1 == 1 && !hashed_children);
  HashedFrontier next{count_after_moves ? nullptr : allocate<unsigned char>(children * state_size),
                      !count_after_moves && fuse_counts ? allocate<uint32_t>(count) : nullptr, count};
  uint32_t* leaf_counts = count_after_moves ? allocate<uint32_t>(count) : nullptr;
  auto* child_counts = count_after_moves ? nullptr : allocate<unsigned long long>(count);
  {
    const ArenaScope scratch(arena);
    uint32_t* offsets = allocate<uint32_t>(n);
    size_t scan_bytes = 0;
    check(device, exclusive_sum(nullptr, scan_bytes, moves_of, offsets, n, s), "sizing the scan");
    void* scan_scratch = arena.allocate(scan_bytes);
    uint32_t* moves = allocate<uint32_t>(count);
    uint32_t* splits = allocate<uint32_t>(uint64_t{bfs::expand_blocks(n, count)} + 1);
    check(device, exclusive_sum(scan_scratch, scan_bytes, moves_of, offsets, n, s),
          "the exclusive scan of the move counts");
    plugin_call("generate_moves", [&](char* message, uint32_t size) {
      return table.generate_moves(game.handle(), states, n, offsets, moves, s, message, size);
    });
    check(device, bfs::expand(offsets, nullptr, n, count, splits, parents, nullptr, s), "launching the expand");
    if (count_after_moves)
      plugin_call("count_leaves_after_moves", [&](char* message, uint32_t size) {
        return count_after_moves(game.handle(), states, parents, moves, count, depth - 1, leaf_counts, s, message,
                                 size);
      });
    else
      plugin_call("apply_moves", [&](char* message, uint32_t size) {
        return table.apply_moves(game.handle(), states, parents, moves, count, next.states, next.moves, s, message,
                                 size);
      });
  }
  if (count_after_moves) {
    check(device, bfs::add_counts(leaf_counts, parents, count, counts + begin, s), "launching add_counts");
    return;
  }
  count_level(next, depth - 1, child_counts);
  check(device, bfs::add_counts(child_counts, parents, count, counts + begin, s), "launching add_counts");
}

bool CudaPerftEngine::Impl::hashes_leaf_level(uint32_t depth) const {
  return depth >= kHashedLeafDepth;
}

// The states of a hashed level that the table lacks and that are not merged into another (they link to themselves):
// the plugin's calls take whole runs of states, so these are gathered into a run of their own (unless they are all
// of them), counted there (whole at a leaf level, else through their children) and their counts scattered back.
void CudaPerftEngine::Impl::count_misses(const HashedFrontier& frontier, uint32_t depth, const uint32_t* link,
                                         unsigned long long* counts) {
  const cudaStream_t s = cuda_stream();
  const uint32_t n = frontier.size;
  const bool leaf_level = depth <= table.leaf_plies;
  const ArenaScope scratch(arena);
  uint32_t* flags = allocate<uint32_t>(n);
  hashed::miss_flags_kernel<<<hashed::blocks_for(n), hashed::kThreads, 0, s>>>(link, n, flags);
  check(device, cudaGetLastError(), "launching miss_flags");
  const uint64_t misses = move_total(flags, n);
  if (misses == 0) return;
  if (misses == n) { // nothing merged, nothing known: the level itself is the run
    if (leaf_level)
      count_whole_level(frontier, depth, counts);
    else
      expand_hashed(frontier, 0, n, depth, counts);
    return;
  }
  const auto m = static_cast<uint32_t>(misses);
  uint32_t* positions = allocate<uint32_t>(n);
  size_t scan_bytes = 0;
  check(device, exclusive_sum(nullptr, scan_bytes, flags, positions, n, s), "sizing the scan");
  void* scan_scratch = arena.allocate(scan_bytes);
  check(device, exclusive_sum(scan_scratch, scan_bytes, flags, positions, n, s), "the scan of the misses");
  HashedFrontier dense{allocate<unsigned char>(uint64_t{m} * state_size),
                       frontier.moves ? allocate<uint32_t>(m) : nullptr, m};
  uint32_t* index = allocate<uint32_t>(m);
  hashed::gather_kernel<<<hashed::blocks_for(n), hashed::kThreads, 0, s>>>(
      frontier.states, frontier.moves, state_size, flags, positions, n, dense.states, dense.moves, index);
  check(device, cudaGetLastError(), "launching gather");
  auto* dense_counts = allocate<unsigned long long>(m);
  if (leaf_level) {
    count_whole_level(dense, depth, dense_counts);
  } else {
    check(device, cudaMemsetAsync(dense_counts, 0, uint64_t{m} * 8, s), "clearing the counts");
    expand_hashed(dense, 0, m, depth, dense_counts);
  }
  hashed::scatter_kernel<<<hashed::blocks_for(m), hashed::kThreads, 0, s>>>(dense_counts, index, m, counts);
  check(device, cudaGetLastError(), "launching scatter");
}

// counts[i] = perft(frontier.states[i], depth) for a depth the plugin counts whole.
void CudaPerftEngine::Impl::count_whole_level(const HashedFrontier& frontier, uint32_t depth,
                                              unsigned long long* counts) {
  const ArenaScope scratch(arena);
  uint32_t* small = allocate<uint32_t>(frontier.size);
  count_leaves(frontier.states, frontier.size, depth, small);
  hashed::widen_kernel<<<hashed::blocks_for(frontier.size), hashed::kThreads, 0, cuda_stream()>>>(small, frontier.size,
                                                                                                  counts);
  check(device, cudaGetLastError(), "launching widen");
}

// Peak arena bytes of expanding `parents` states into `children` for a hashed count: the children kept while they
// are counted (parent indices, states unless the plugin counts them from parents and moves, move counts, 64-bit
// counts, and when they are a hashed level in turn their keys, links and merge slots) plus the expansion's scratch
// (offsets, scan temporary, moves, expand partitions), each rounded to the arena's alignment.
uint64_t CudaPerftEngine::Impl::hashed_level_bytes(uint64_t parents, uint64_t children, bool stores_children,
                                                   bool hashed_children, bool leaf_children) const {
  size_t scan_bytes = 0;
  check(device, exclusive_sum(nullptr, scan_bytes, nullptr, nullptr, parents, cuda_stream()), "sizing the scan");
  const uint64_t blocks = (parents + children + bfs::kExpandItems - 1) / bfs::kExpandItems;
  uint64_t kept = footprint(children * 4) + (stores_children ? footprint(children * state_size) : 0) +
                  footprint(children * 4) + footprint(children * 8);
  if (hashed_children)
    kept +=
        footprint(children * sizeof(perft_key::Key)) + footprint(children * 4) + footprint(merge_slots(children) * 4);
  // A hashed level gathers the states the table lacks (count_misses): flags, positions, indices, leaf counts, the
  // states, their 64-bit counts, and above the leaves their move counts.
  if (hashed_children)
    kept += 4 * footprint(children * 4) + footprint(children * state_size) + footprint(children * 8) +
            (leaf_children ? 0 : footprint(children * 4));
  const uint64_t scratch =
      footprint(parents * 4) + footprint(scan_bytes) + footprint(children * 4) + footprint((blocks + 1) * 4);
  return kept + scratch + 8 * kAlignment;
}

} // namespace gsdk::core
