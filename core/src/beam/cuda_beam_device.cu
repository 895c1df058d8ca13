// cuda_beam_device.cu - beam levels on one GPU: the children are made by the game's CUDA perft kernels
// (gsdk.cuda_perft.v1: move counts, moves, children with their own move counts), keyed by the game's canonical
// states (gsdk.perft_keys.v1's cuda_canonical, when it has one) and scored by its cuda_evaluate; the selection runs
// on the device with CUB's radix sorts and selections, and gives what beam_selection.cpp gives on the CPU:
//   1. order: a stable sort of the children by order key (beam_order.hpp), so equal keys keep their place order;
//   2. dedup: a stable sort of the ranks by child key; the first rank of each key survives;
//   3. cap: a stable sort of the survivors' ranks by parent; a survivor whose place in its parent's run is below
//      the cap stays;
//   4. the first `width` of the rest, in rank order, are the next beam.
// Only the children that end the game go to the host (to be scored by the per-state table), and the next beam's
// (parent, move) pairs, through pinned memory: with every live child's pair through pageable memory, a 10-cube
// level took 1.8 times as long (docs/perf/snake.md, beam v3). nvcc cannot compile fmt, so messages are built with
// std::string.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "beam/beam_order.hpp"
#include "gsdk/core/beam/beam_search.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

namespace gsdk::core {

namespace {

constexpr int kBlock = 256;
constexpr double kArenaShare = 0.85;           // of the device's free memory, at most
constexpr uint32_t kCanonicalChunk = 1u << 16; // states keyed per call of cuda_canonical: bounds its buffer
constexpr uint32_t kFinishedChunk = 1u << 14;  // finished children copied to the host at once
// A level's arrays beside the states, per child: counted from expand() with every child live (30 bytes per child
// made, 142 per live child: values, keys, the three sorts' keys, values and CUB's alternate buffers, the cap's
// arrays), rounded up for CUB's own scratch.
constexpr uint64_t kBytesPerChild = 192;
constexpr uint64_t kBytesPerBeamState = 32;           // counts, offsets, the next beam's places and moves
constexpr uint64_t kArenaSlack = uint64_t{64} << 20;  // CUB's scans' and selections' scratch, allocation alignment
constexpr uint64_t kStagingFloor = uint64_t{1} << 20; // the pinned staging buffer's least size: it rarely regrows

unsigned blocks(uint64_t threads) {
  return static_cast<unsigned>((threads + kBlock - 1) / kBlock);
}

__global__ void parents_kernel(const uint32_t* counts, const uint32_t* offsets, uint32_t width, uint32_t* parents) {
  const uint64_t p = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (p >= width) return;
  for (uint32_t k = 0; k < counts[p]; ++k) parents[offsets[p] + k] = static_cast<uint32_t>(p);
}

__global__ void flags_kernel(const uint32_t* child_counts, uint32_t n, uint8_t* live, uint8_t* finished) {
  const uint64_t c = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (c >= n) return;
  live[c] = child_counts[c] != 0;
  finished[c] = child_counts[c] == 0;
}

// to[i] = from[index[i]] for states of `size` bytes, a word at a time when the size allows.
__global__ void gather_states_kernel(const unsigned char* from, const uint32_t* index, uint32_t n, uint32_t size,
                                     unsigned char* to) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.y + threadIdx.y;
  if (i >= n) return;
  const unsigned char* src = from + uint64_t{index[i]} * size;
  unsigned char* dst = to + i * size;
  if (size % 8 == 0) {
    for (uint32_t w = threadIdx.x; w < size / 8; w += blockDim.x)
      reinterpret_cast<uint64_t*>(dst)[w] = reinterpret_cast<const uint64_t*>(src)[w];
    return;
  }
  for (uint32_t b = threadIdx.x; b < size; b += blockDim.x) dst[b] = src[b];
}

template <typename T> __global__ void gather_kernel(const T* from, const uint32_t* index, uint32_t n, T* to) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) to[i] = from[index[i]];
}

__global__ void keys_kernel(const unsigned char* states, uint32_t n, uint32_t size, uint64_t* keys) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) keys[i] = beam_order::child_key(states + i * size, size);
}

// keys_kernel for states of whole 8-byte words, 32 states a warp: a thread hashing its own state alone reads it a
// state's size apart from its neighbours (uncoalesced, 17% of a 10-cube level), so the lanes load 32 words of each
// of the warp's states side by side into a tile, then each lane absorbs its own state's words from the tile.
constexpr uint32_t kKeyWarps = 4; // 4 tiles of 32 x 33 words: 34 KB of shared memory a block

__global__ void word_keys_kernel(const uint64_t* states, uint32_t n, uint32_t words, uint64_t* keys) {
  __shared__ uint64_t tiles[kKeyWarps][32][33]; // 33: a lane's row starts on another bank
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const uint64_t first = (uint64_t{blockIdx.x} * kKeyWarps + warp) * 32;
  if (first >= n) return;
  const uint32_t in_warp = static_cast<uint32_t>(n - first < 32 ? n - first : 32);
  auto& tile = tiles[warp];
  beam_order::ChildKeyHasher hasher(words * 8);
  for (uint32_t chunk = 0; chunk < words; chunk += 32) {
    const uint32_t in_chunk = words - chunk < 32 ? words - chunk : 32;
    for (uint32_t s = 0; s < in_warp; ++s)
      if (lane < in_chunk) tile[s][lane] = states[(first + s) * words + chunk + lane];
    __syncwarp();
    if (lane < in_warp)
      for (uint32_t w = 0; w < in_chunk; ++w) hasher.absorb(tile[lane][w]);
    __syncwarp();
  }
  if (lane < in_warp) keys[first + lane] = hasher.key();
}

__global__ void order_kernel(const int32_t* values, const uint64_t* keys, uint32_t n, uint64_t tie_seed,
                             uint64_t* order_keys, uint32_t* places) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  order_keys[i] = beam_order::order_key(values[i], beam_order::tie(keys[i], tie_seed));
  places[i] = static_cast<uint32_t>(i);
}

// survives[rank] = 0 for every rank but the first of its key (sorted_keys / ranks: sorted by key, stably).
__global__ void first_of_key_kernel(const uint64_t* sorted_keys, const uint32_t* ranks, uint32_t n, uint8_t* survives) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  survives[ranks[i]] = i == 0 || sorted_keys[i] != sorted_keys[i - 1];
}

// run_starts[i] = i where a new parent's run begins in sorted_parents, else 0 (a max-scan then gives each its run's
// start).
__global__ void run_heads_kernel(const uint32_t* sorted_parents, uint32_t n, uint32_t* run_starts) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  run_starts[i] = i == 0 || sorted_parents[i] != sorted_parents[i - 1] ? static_cast<uint32_t>(i) : 0;
}

// stays[survivor] = its place in its parent's run is below the cap (survivors: the ranks' survivor numbers).
__global__ void cap_kernel(const uint32_t* run_starts, const uint32_t* survivors, uint32_t n, uint32_t cap,
                           uint8_t* stays) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  stays[survivors[i]] = i - run_starts[i] < cap;
}

__global__ void iota_kernel(uint32_t* out, uint32_t n) {
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<uint32_t>(i);
}

struct MaxOp {
  __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

class CudaBeamDevice final : public BeamDevice {
public:
  CudaBeamDevice(const GameInstance& game, int device, uint32_t width)
      : game_(game), perft_(*game.tables().cuda_perft), device_(device), size_(game.state_size()), stream_(device),
        arena_(device, arena_bytes(device, level_bytes(width))) {
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, device) == cudaSuccess) name_ = properties.name;
  }
  ~CudaBeamDevice() override { cudaSetDevice(device_); }

  void reset(const StateBlob& start) override {
    set_device();
    if (!beam_) {
      beam_ = allocate<unsigned char>(size_);
      beam_capacity_ = 1;
    }
    stream_.copy_to_device(beam_, start.data(), size_);
    stream_.synchronize();
    width_ = 1;
  }

  BeamLevelResult expand(const BeamSelectionRules& rules) override {
    set_device();
    reserve_beams(rules.width);
    const uint64_t mark = arena_.mark();
    struct Release {
      DeviceArena& arena;
      uint64_t mark;
      ~Release() { arena.release_to(mark); }
    } release{arena_, mark};

    // The children: each beam state's moves, then every child with its own move count.
    uint32_t* counts = allocate<uint32_t>(width_);
    uint32_t* offsets = allocate<uint32_t>(width_);
    plugin("count_leaves", [&](char* e, uint32_t es) {
      return perft_.count_leaves(game_.handle(), beam_, width_, 1, counts, stream(), e, es);
    });
    exclusive_sum(counts, offsets, width_);
    const uint64_t n64 = total(counts, offsets, width_);
    if (n64 > 0x7fffffffu) throw std::runtime_error(where() + "a level of more than 2^31 children; lower the width");
    const auto n = static_cast<uint32_t>(n64);
    BeamLevelResult result;
    if (n == 0) {
      width_ = 0;
      return result;
    }
    uint32_t* moves = allocate<uint32_t>(n);
    uint32_t* parents = allocate<uint32_t>(n);
    plugin("generate_moves", [&](char* e, uint32_t es) {
      return perft_.generate_moves(game_.handle(), beam_, width_, offsets, moves, stream(), e, es);
    });
    parents_kernel<<<blocks(width_), kBlock, 0, stream()>>>(counts, offsets, width_, parents);
    launched("the parents kernel");
    unsigned char* children = allocate<unsigned char>(uint64_t{n} * size_);
    uint32_t* child_counts = allocate<uint32_t>(n);
    plugin("apply_moves", [&](char* e, uint32_t es) {
      return perft_.apply_moves(game_.handle(), beam_, parents, moves, n, children, child_counts, stream(), e, es);
    });

    // Finished children to the host, in place order; the live ones' places.
    uint8_t* live_flags = allocate<uint8_t>(n);
    uint8_t* finished_flags = allocate<uint8_t>(n);
    flags_kernel<<<blocks(n), kBlock, 0, stream()>>>(child_counts, n, live_flags, finished_flags);
    launched("the flags kernel");
    uint32_t* finished_places = allocate<uint32_t>(n);
    const uint32_t finished_count = select_places(finished_flags, n, finished_places);
    result.finished = score_finished(children, parents, moves, finished_places, finished_count);
    uint32_t* live_places = allocate<uint32_t>(n);
    const uint32_t m = select_places(live_flags, n, live_places);
    result.children = m;
    if (m == 0) {
      width_ = 0;
      return result;
    }
    unsigned char* live = children;
    if (m < n) {
      live = allocate<unsigned char>(uint64_t{m} * size_);
      gather_states(children, live_places, m, live);
    }
    uint32_t* live_parents = allocate<uint32_t>(m);
    uint32_t* live_moves = allocate<uint32_t>(m);
    gather_kernel<<<blocks(m), kBlock, 0, stream()>>>(parents, live_places, m, live_parents);
    gather_kernel<<<blocks(m), kBlock, 0, stream()>>>(moves, live_places, m, live_moves);
    launched("gathering the live children's moves");

    // Values and keys.
    int32_t* values = allocate<int32_t>(m);
    plugin_evaluate(live, m, values);
    uint64_t* keys = allocate<uint64_t>(m);
    key_children(live, m, keys);

    // 1. The order.
    uint64_t* order_keys = allocate<uint64_t>(m);
    uint32_t* places = allocate<uint32_t>(m);
    order_kernel<<<blocks(m), kBlock, 0, stream()>>>(values, keys, m, rules.tie_seed, order_keys, places);
    launched("the order kernel");
    uint64_t* sorted_order = allocate<uint64_t>(m);
    uint32_t* ranked = allocate<uint32_t>(m); // ranked[r] = the place of the child of rank r
    sort_pairs(order_keys, sorted_order, places, ranked, m, 64);

    // 2. Dedup: survives[r].
    uint8_t* survives = allocate<uint8_t>(m);
    check(cudaMemsetAsync(survives, 1, m, stream()), "clearing the survivors");
    if (rules.dedup) {
      uint64_t* keys_by_rank = allocate<uint64_t>(m);
      gather_kernel<<<blocks(m), kBlock, 0, stream()>>>(keys, ranked, m, keys_by_rank);
      uint32_t* ranks = allocate<uint32_t>(m);
      iota(ranks, m);
      uint64_t* sorted_keys = allocate<uint64_t>(m);
      uint32_t* ranks_by_key = allocate<uint32_t>(m);
      sort_pairs(keys_by_rank, sorted_keys, ranks, ranks_by_key, m, 64);
      first_of_key_kernel<<<blocks(m), kBlock, 0, stream()>>>(sorted_keys, ranks_by_key, m, survives);
      launched("the dedup kernel");
    }
    uint32_t* surviving_ranks = allocate<uint32_t>(m);
    const uint32_t survivors = select_places(survives, m, surviving_ranks);
    result.duplicates = m - survivors;

    // 3. The cap: stays[s] for survivor s (in rank order).
    uint32_t* kept_ranks = surviving_ranks;
    uint32_t kept_count = survivors;
    if (rules.children_per_parent && survivors > 0) {
      uint32_t* survivor_places = allocate<uint32_t>(survivors);
      gather_kernel<<<blocks(survivors), kBlock, 0, stream()>>>(ranked, surviving_ranks, survivors, survivor_places);
      uint32_t* survivor_parents = allocate<uint32_t>(survivors);
      gather_kernel<<<blocks(survivors), kBlock, 0, stream()>>>(live_parents, survivor_places, survivors,
                                                                survivor_parents);
      uint32_t* numbers = allocate<uint32_t>(survivors);
      iota(numbers, survivors);
      uint32_t* sorted_parents = allocate<uint32_t>(survivors);
      uint32_t* numbers_by_parent = allocate<uint32_t>(survivors);
      sort_pairs(survivor_parents, sorted_parents, numbers, numbers_by_parent, survivors, bits_for(width_));
      uint32_t* run_starts = allocate<uint32_t>(survivors);
      run_heads_kernel<<<blocks(survivors), kBlock, 0, stream()>>>(sorted_parents, survivors, run_starts);
      launched("the run heads kernel");
      max_scan(run_starts, survivors);
      uint8_t* stays = allocate<uint8_t>(survivors);
      cap_kernel<<<blocks(survivors), kBlock, 0, stream()>>>(run_starts, numbers_by_parent, survivors,
                                                             rules.children_per_parent, stays);
      launched("the cap kernel");
      kept_ranks = allocate<uint32_t>(survivors);
      kept_count = select(surviving_ranks, stays, survivors, kept_ranks);
      result.capped = survivors - kept_count;
    }

    // 4. The next beam: the first `width` kept, in rank order; only their (parent, move) pairs go to the host.
    const uint32_t next_width = std::min(kept_count, rules.width);
    if (next_width > 0) {
      uint32_t* next_places = allocate<uint32_t>(next_width);
      gather_kernel<<<blocks(next_width), kBlock, 0, stream()>>>(ranked, kept_ranks, next_width, next_places);
      launched("gathering the next beam's places");
      gather_states(live, next_places, next_width, next_);
      result.kept = download_children(live_parents, live_moves, next_places, next_width);
    }
    stream_.synchronize();
    std::swap(beam_, next_);
    width_ = next_width;
    return result;
  }

  void require_room(uint32_t width) const override {
    require_memory(level_bytes(width), arena_.capacity(), "GPU", "a beam of " + std::to_string(width) + " states",
                   std::to_string(children_of(width)) + " children of " + std::to_string(size_) +
                       " bytes, twice, and two beams, on " + describe());
  }

  StateBlob state(uint32_t place) override {
    set_device();
    StateBlob state(size_);
    download(state.data(), beam_ + uint64_t{place} * size_, size_);
    return state;
  }

  std::string describe() const override {
    return "cuda device " + std::to_string(device_) + (name_.empty() ? "" : " (" + name_ + ")");
  }

private:
  // A level's most: two beams, the children and the live ones (when some children end the game), a chunk of
  // canonical states and one of finished children, and the selection's arrays.
  uint64_t level_bytes(uint32_t width) const {
    const uint64_t children = children_of(width);
    return (2 * uint64_t{width} + 2 * children + kCanonicalChunk + kFinishedChunk) * size_ + children * kBytesPerChild +
           width * kBytesPerBeamState + kArenaSlack;
  }

  // The most children a level of `width` states can have: every state with the game's most moves.
  uint64_t children_of(uint32_t width) const { return uint64_t{width} * game_.max_moves(); }

  // What a level of the run's width needs, not all the device has, so that searches can share a GPU; but no more
  // than a share of its free memory (require_room then refuses the width).
  static uint64_t arena_bytes(int device, uint64_t level) {
    constexpr uint64_t kMiB = uint64_t{1} << 20;
    const auto share = static_cast<uint64_t>(static_cast<double>(cuda_free_memory(device)) * kArenaShare);
    return (std::min(share, level) + kMiB - 1) / kMiB * kMiB;
  }

  std::string where() const { return "beam search on CUDA device " + std::to_string(device_) + ": "; }
  cudaStream_t stream() const { return static_cast<cudaStream_t>(stream_.handle()); }
  void set_device() const { check(cudaSetDevice(device_), "cudaSetDevice"); }
  void check(cudaError_t status, const std::string& step) const {
    if (status != cudaSuccess) throw std::runtime_error(where() + step + " failed: " + cudaGetErrorString(status));
  }
  void launched(const std::string& what) const { check(cudaGetLastError(), "launching " + what); }
  template <typename T> T* allocate(uint64_t count) {
    return static_cast<T*>(arena_.allocate(std::max<uint64_t>(count, 1) * sizeof(T)));
  }
  template <typename Entry> void plugin(const char* function, Entry&& entry) const {
    if (const auto failure = call_entry(std::forward<Entry>(entry)))
      throw std::runtime_error(where() + "plugin '" + game_.tables().name() + "' " GSDK_TABLE_CUDA_PERFT " " +
                               function + " failed (status " + std::to_string(failure->status) +
                               "): " + failure->message);
  }
  template <typename T> void download(T* host, const T* device, uint64_t count) {
    stream_.copy_to_host(host, device, count * sizeof(T));
    stream_.synchronize();
  }

  // The two beams (this level's and the next) hold `width` states each: grown, never shrunk, at the arena's bottom
  // (before any level's scratch).
  void reserve_beams(uint32_t width) {
    if (width <= beam_capacity_ && next_) return;
    StateBlob current(uint64_t{width_} * size_);
    if (width_) download(current.data(), beam_, current.size());
    arena_.release_to(0);
    beam_ = allocate<unsigned char>(uint64_t{width} * size_);
    next_ = allocate<unsigned char>(uint64_t{width} * size_);
    beam_capacity_ = width;
    if (width_) stream_.copy_to_device(beam_, current.data(), current.size());
  }

  void exclusive_sum(const uint32_t* in, uint32_t* out, uint32_t n) {
    size_t bytes = 0;
    check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, static_cast<int>(n), stream()), "sizing a scan");
    void* scratch = allocate<unsigned char>(bytes);
    check(cub::DeviceScan::ExclusiveSum(scratch, bytes, in, out, static_cast<int>(n), stream()), "a scan");
  }

  void max_scan(uint32_t* values, uint32_t n) {
    size_t bytes = 0;
    check(cub::DeviceScan::InclusiveScan(nullptr, bytes, values, values, MaxOp{}, static_cast<int>(n), stream()),
          "sizing a max-scan");
    void* scratch = allocate<unsigned char>(bytes);
    check(cub::DeviceScan::InclusiveScan(scratch, bytes, values, values, MaxOp{}, static_cast<int>(n), stream()),
          "a max-scan");
  }

  // The number of children: the last offset plus the last count, in one wait.
  uint64_t total(const uint32_t* counts, const uint32_t* offsets, uint32_t n) {
    auto* last = reinterpret_cast<uint32_t*>(staging(2 * sizeof(uint32_t)));
    stream_.copy_to_host(&last[0], offsets + n - 1, sizeof(uint32_t));
    stream_.copy_to_host(&last[1], counts + n - 1, sizeof(uint32_t));
    stream_.synchronize();
    return uint64_t{last[0]} + last[1];
  }

  // Pinned host memory of at least `bytes`, grown (never shrunk) as levels need it; valid until the next call.
  unsigned char* staging(uint64_t bytes) {
    if (!staging_ || staging_->size() < bytes) {
      staging_.reset();
      staging_ = std::make_unique<PinnedBuffer>(std::max(bytes, kStagingFloor));
    }
    return staging_->data();
  }

  // The children at `places` (among the live ones) as (parent, move) pairs, gathered on the device and copied in one
  // wait.
  std::vector<BeamChild> download_children(const uint32_t* parents, const uint32_t* moves, const uint32_t* places,
                                           uint32_t n) {
    uint32_t* picked = allocate<uint32_t>(2 * uint64_t{n});
    gather_kernel<<<blocks(n), kBlock, 0, stream()>>>(parents, places, n, picked);
    gather_kernel<<<blocks(n), kBlock, 0, stream()>>>(moves, places, n, picked + n);
    launched("gathering the kept children's moves");
    auto* host = reinterpret_cast<uint32_t*>(staging(2 * uint64_t{n} * sizeof(uint32_t)));
    stream_.copy_to_host(host, picked, 2 * uint64_t{n} * sizeof(uint32_t));
    stream_.synchronize();
    std::vector<BeamChild> children(n);
    for (uint32_t j = 0; j < n; ++j) children[j] = BeamChild{host[j], host[n + j]};
    return children;
  }

  void iota(uint32_t* out, uint32_t n) {
    iota_kernel<<<blocks(n), kBlock, 0, stream()>>>(out, n);
    launched("the numbering kernel");
  }

  // The places i < n with flags[i] set, in order, into out; returns their number.
  uint32_t select_places(const uint8_t* flags, uint32_t n, uint32_t* out) {
    uint32_t* numbers = allocate<uint32_t>(n);
    iota(numbers, n);
    return select(numbers, flags, n, out);
  }
  uint32_t select(const uint32_t* in, const uint8_t* flags, uint32_t n, uint32_t* out) {
    int* selected = allocate<int>(1);
    size_t bytes = 0;
    check(cub::DeviceSelect::Flagged(nullptr, bytes, in, flags, out, selected, static_cast<int>(n), stream()),
          "sizing a selection");
    void* scratch = allocate<unsigned char>(bytes);
    check(cub::DeviceSelect::Flagged(scratch, bytes, in, flags, out, selected, static_cast<int>(n), stream()),
          "a selection");
    int count = 0;
    download(&count, selected, 1);
    return static_cast<uint32_t>(count);
  }

  template <typename Key>
  void sort_pairs(const Key* keys, Key* sorted_keys, const uint32_t* values, uint32_t* sorted_values, uint32_t n,
                  int bits) {
    size_t bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, values, sorted_values, static_cast<int>(n),
                                          0, bits, stream()),
          "sizing a radix sort");
    void* scratch = allocate<unsigned char>(bytes);
    check(cub::DeviceRadixSort::SortPairs(scratch, bytes, keys, sorted_keys, values, sorted_values, static_cast<int>(n),
                                          0, bits, stream()),
          "a radix sort");
  }

  static int bits_for(uint32_t values_below) {
    int bits = 1;
    while (bits < 32 && (uint64_t{1} << bits) < values_below) ++bits;
    return bits;
  }

  void gather_states(const unsigned char* from, const uint32_t* index, uint32_t n, unsigned char* to) {
    const dim3 block(32, kBlock / 32);
    const unsigned grid = static_cast<unsigned>((uint64_t{n} + block.y - 1) / block.y);
    gather_states_kernel<<<grid, block, 0, stream()>>>(from, index, n, size_, to);
    launched("gathering states");
  }

  void plugin_evaluate(const unsigned char* states, uint32_t n, int32_t* values) {
    if (const auto failure = call_entry([&](char* e, uint32_t es) {
          return game_.tables().evaluation->cuda_evaluate(game_.handle(), states, n, device_, stream(), values, e, es);
        }))
      throw std::runtime_error(where() + "plugin '" + game_.tables().name() + "' cuda_evaluate of " +
                               std::to_string(n) + " children failed: " + failure->message);
  }

  // keys[i] = the key of states[i]'s canonical form, through a bounded buffer when the game has canonical states.
  void key_children(const unsigned char* states, uint32_t n, uint64_t* keys) {
    const auto canonical = game_.tables().perft_keys ? game_.tables().perft_keys->cuda_canonical : nullptr;
    if (!canonical) {
      hash_states(states, n, keys);
      return;
    }
    const uint32_t chunk = std::min(n, kCanonicalChunk);
    unsigned char* buffer = allocate<unsigned char>(uint64_t{chunk} * size_);
    for (uint32_t first = 0; first < n; first += chunk) {
      const uint32_t count = std::min(chunk, n - first);
      if (const auto failure = call_entry([&](char* e, uint32_t es) {
            return canonical(game_.handle(), states + uint64_t{first} * size_, count, buffer, stream(), e, es);
          }))
        throw std::runtime_error(where() + "plugin '" + game_.tables().name() + "' cuda_canonical of " +
                                 std::to_string(count) + " children failed: " + failure->message);
      hash_states(buffer, count, keys + first);
    }
  }

  void hash_states(const unsigned char* states, uint32_t n, uint64_t* keys) {
    if (size_ % 8 == 0) {
      const uint64_t states_per_block = 32 * kKeyWarps;
      word_keys_kernel<<<static_cast<unsigned>((n + states_per_block - 1) / states_per_block), 32 * kKeyWarps, 0,
                         stream()>>>(reinterpret_cast<const uint64_t*>(states), n, size_ / 8, keys);
    } else {
      keys_kernel<<<blocks(n), kBlock, 0, stream()>>>(states, n, size_, keys);
    }
    launched("the keys kernel");
  }

  // The finished children's scores, through the per-state table on the host, in place order: a chunk at a time,
  // each gathered on the device (states, parents, moves side by side) and copied in one wait.
  std::vector<FinishedChild> score_finished(const unsigned char* children, const uint32_t* parents,
                                            const uint32_t* moves, const uint32_t* places, uint32_t count) {
    std::vector<FinishedChild> finished;
    if (count == 0) return finished;
    finished.reserve(count);
    const uint32_t chunk = std::min(count, kFinishedChunk);
    // On the host: the chunk's states, then (at a word boundary, as a state's size may be odd) parents and moves.
    const uint64_t pairs_at = (uint64_t{chunk} * size_ + 7) / 8 * 8;
    const uint64_t pair_bytes = 2 * uint64_t{chunk} * sizeof(uint32_t);
    unsigned char* buffer = allocate<unsigned char>(uint64_t{chunk} * size_);
    uint32_t* device_pairs = allocate<uint32_t>(2 * uint64_t{chunk});
    for (uint32_t first = 0; first < count; first += chunk) {
      const uint32_t n = std::min(chunk, count - first);
      gather_states(children, places + first, n, buffer);
      gather_kernel<<<blocks(n), kBlock, 0, stream()>>>(parents, places + first, n, device_pairs);
      gather_kernel<<<blocks(n), kBlock, 0, stream()>>>(moves, places + first, n, device_pairs + chunk);
      launched("gathering the finished children");
      unsigned char* host = staging(pairs_at + pair_bytes);
      stream_.copy_to_host(host, buffer, uint64_t{n} * size_);
      stream_.copy_to_host(host + pairs_at, device_pairs, pair_bytes);
      stream_.synchronize();
      const auto* pairs = reinterpret_cast<const uint32_t*>(host + pairs_at);
      for (uint32_t i = 0; i < n; ++i)
        finished.push_back(FinishedChild{{pairs[i], pairs[chunk + i]}, game_.score(host + uint64_t{i} * size_)});
    }
    return finished;
  }

  const GameInstance& game_;
  const gsdk_cuda_perft& perft_;
  const int device_;
  const uint32_t size_;
  std::string name_;
  CudaStream stream_;
  DeviceArena arena_;
  unsigned char* beam_ = nullptr;
  unsigned char* next_ = nullptr;
  uint32_t beam_capacity_ = 0;
  uint32_t width_ = 0;
  std::unique_ptr<PinnedBuffer> staging_;
};

} // namespace

std::unique_ptr<BeamDevice> make_cuda_beam_device(const GameInstance& game, int32_t cuda_device, uint32_t width) {
  require_beam_game(game, true);
  return std::make_unique<CudaBeamDevice>(game, cuda_device, width);
}

} // namespace gsdk::core
