// cuda_engine.cuh - the GPU perft engine's state (CudaPerftEngine::Impl) and the small CUDA helpers its two count
// paths share: the plain breadth-first count (cuda_perft.cu) and the hashed one (cuda_hashed_count.cu). Internal to
// the core's CUDA perft files.
//
// This code is compiled by nvcc, which cannot compile fmt, so messages are built with std::string.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsdk/core/perft/cuda_perft.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"

namespace gsdk::core {

namespace cuda_engine {

inline constexpr uint32_t kMaxCallItems = 0x7fffffffu; // the ABI's bound on one call; CUB counts items in int
inline constexpr uint64_t kAlignment = 256;            // DeviceArena aligns every allocation to this
inline constexpr double kDefaultArenaShare = 0.5;      // of the free memory, when the caller names no size
inline constexpr uint32_t kCountBlocksPerSm = 4;

// Bytes an allocation of `bytes` takes from the arena, its alignment included.
inline uint64_t footprint(uint64_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

inline std::string where(int device) {
  return "GPU perft on CUDA device " + std::to_string(device) + ": ";
}

inline void check(int device, cudaError_t status, const std::string& step) {
  if (status != cudaSuccess) throw std::runtime_error(where(device) + step + " failed: " + cudaGetErrorString(status));
}

inline const gsdk_cuda_perft& perft_table(const GameInstance& game) {
  const gsdk_cuda_perft* table = game.tables().cuda_perft;
  if (!table)
    throw std::runtime_error("plugin '" + game.tables().name() +
                             "' has no " GSDK_TABLE_CUDA_PERFT " table, so the GPU perft engine cannot count it");
  if (table->leaf_plies == 0)
    throw std::runtime_error("plugin '" + game.tables().name() + "' declares leaf_plies 0 in " GSDK_TABLE_CUDA_PERFT);
  return *table;
}

inline uint64_t arena_size(int device, uint64_t requested) {
  if (requested != 0) return requested;
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  return static_cast<uint64_t>(static_cast<double>(cuda_free_memory(device)) * kDefaultArenaShare) / kMiB * kMiB;
}

// Releases the arena to where it stood at construction, however the scope ends. Work still queued on
// the stream may use that memory: whatever is allocated there next is used only by work queued
// after it on the same stream.
class ArenaScope {
public:
  explicit ArenaScope(DeviceArena& arena) : arena_(arena), mark_(arena.mark()) {}
  ~ArenaScope() { arena_.release_to(mark_); }
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;

private:
  DeviceArena& arena_;
  uint64_t mark_;
};

class Event {
public:
  explicit Event(int device) { check(device, cudaEventCreate(&event_), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

// CUB's exclusive sum of n counts into offsets; with scratch == nullptr it only sets scratch_bytes.
inline cudaError_t exclusive_sum(void* scratch, size_t& scratch_bytes, const uint32_t* counts, uint32_t* offsets,
                                 uint64_t n, cudaStream_t stream) {
  return cub::DeviceScan::ExclusiveSum(scratch, scratch_bytes, counts, offsets, static_cast<int>(n), stream);
}

// One pinned host word the level totals come back through.
class PinnedTotal {
public:
  explicit PinnedTotal(int device) {
    void* p = nullptr;
    check(device, cudaMallocHost(&p, sizeof(unsigned long long)), "cudaMallocHost");
    value_ = static_cast<unsigned long long*>(p);
  }
  ~PinnedTotal() { cudaFreeHost(value_); }
  PinnedTotal(const PinnedTotal&) = delete;
  PinnedTotal& operator=(const PinnedTotal&) = delete;
  unsigned long long* get() const { return value_; }

private:
  unsigned long long* value_ = nullptr;
};

// A run of states of one level, in root order, with the index of each state's root and one count
// per state: the move counts (perft 1) when counts_are_moves, otherwise room for the leaf counts.
struct Frontier {
  unsigned char* states;
  uint32_t* roots;
  uint32_t* counts;
  uint32_t size;
  bool counts_are_moves;

  Frontier part(uint32_t begin, uint32_t end, uint32_t state_size) const {
    return {states + uint64_t{begin} * state_size, roots + begin, counts + begin, end - begin, counts_are_moves};
  }
};

} // namespace cuda_engine

// A hashed level's states: their move counts (perft 1) when already known, else null.
struct HashedFrontier {
  unsigned char* states;
  uint32_t* moves;
  uint32_t size;
};

struct CudaPerftEngine::Impl {
  Impl(const GameInstance& g, int d, uint64_t arena_bytes, std::shared_ptr<CudaPerftTable> t)
      : game(g), table(cuda_engine::perft_table(g)), device(d), state_size(g.state_size()), stream(d),
        arena(d, cuda_engine::arena_size(d, arena_bytes)), pinned_total(d), started(d), finished(d),
        hash_table(std::move(t)) {
    int sms = 0;
    cuda_engine::check(device, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                       "cudaDeviceGetAttribute");
    count_blocks = static_cast<uint32_t>(sms) * cuda_engine::kCountBlocksPerSm;
    level_total = static_cast<unsigned long long*>(arena.allocate(sizeof(unsigned long long)));
    merged_states = static_cast<unsigned long long*>(arena.allocate(sizeof(unsigned long long)));
    cuda_engine::check(device, cudaMemsetAsync(merged_states, 0, sizeof(unsigned long long), cuda_stream()),
                       "clearing the merge counter");
  }
  ~Impl() { cudaSetDevice(device); }

  cudaStream_t cuda_stream() const { return static_cast<cudaStream_t>(stream.handle()); }
  uint64_t free_bytes() const { return arena.capacity() - arena.mark(); }
  template <typename T> T* allocate(uint64_t count) { return static_cast<T*>(arena.allocate(count * sizeof(T))); }

  std::vector<uint64_t> count(const std::vector<StateBlob>& roots, uint32_t depth);
  void check_roots(const std::vector<StateBlob>& roots) const;
  std::vector<unsigned char> upload_roots(const std::vector<StateBlob>& roots, unsigned char* states);
  std::vector<uint64_t> download_counts(const unsigned long long* counts, uint32_t n);
  void descend(const cuda_engine::Frontier& frontier, uint32_t depth);
  void expand(const cuda_engine::Frontier& frontier, uint32_t depth);
  void count_leaves(const cuda_engine::Frontier& frontier, uint32_t plies);
  void add_leaf_counts(const cuda_engine::Frontier& leaves);
  uint64_t move_total(const uint32_t* counts, uint32_t n);

  // The hashed path (cuda_hashed_count.cu).
  std::vector<uint64_t> count_hashed(const std::vector<StateBlob>& roots, uint32_t depth);
  void count_level(HashedFrontier frontier, uint32_t depth, unsigned long long* counts);
  void expand_hashed(const HashedFrontier& frontier, uint32_t begin, uint32_t end, uint32_t depth,
                     unsigned long long* counts);
  void count_misses(const HashedFrontier& frontier, uint32_t depth, const uint32_t* link, unsigned long long* counts);
  void count_whole_level(const HashedFrontier& frontier, uint32_t depth, unsigned long long* counts);
  uint64_t hashed_level_bytes(uint64_t parents, uint64_t children, bool stores_children, bool hashed_children,
                              bool leaf_children) const;
  // Whether a level of `depth` <= leaf_plies plies is looked up before the plugin counts it (cuda_hashed_count.cu).
  bool hashes_leaf_level(uint32_t depth) const;
  void count_leaves(const unsigned char* states, uint32_t n, uint32_t plies, uint32_t* counts);
  uint64_t level_bytes(uint64_t parents, uint64_t children, bool stores_children) const;
  bool must_split(uint32_t n, uint64_t children, uint64_t bytes, bool children_are_leaves) const;
  // Calls a gsdk.cuda_perft.v1 entry (entry(error, error_size)); a failure names the device, plugin and function.
  template <typename Entry> void plugin_call(const char* function, Entry&& entry) const {
    if (const auto failure = call_entry(std::forward<Entry>(entry)))
      throw std::runtime_error(cuda_engine::where(device) + "plugin '" + game.tables().name() +
                               "' " GSDK_TABLE_CUDA_PERFT " " + function + " failed (status " +
                               std::to_string(failure->status) + "): " + failure->message);
  }

  const GameInstance& game;
  const gsdk_cuda_perft& table;
  const decltype(gsdk_cuda_perft::count_leaves_after_moves) count_leaves_after_moves = fused_leaf_count(table);
  const int device;
  const uint32_t state_size;
  CudaStream stream;
  DeviceArena arena;
  cuda_engine::PinnedTotal pinned_total;
  cuda_engine::Event started, finished;
  uint32_t count_blocks = 0;
  unsigned long long* level_total = nullptr; // device word for move_total, for the engine's life
  unsigned long long* totals = nullptr;      // the current call's per-root leaf counts
  double milliseconds = 0;
  // Hashed counts: the device's table; the states of hashed levels, and those merged (also as a device word).
  std::shared_ptr<CudaPerftTable> hash_table;
  unsigned long long* merged_states = nullptr;
  uint64_t frontier_states = 0, duplicates = 0;
};

} // namespace gsdk::core
