// kept_cuda_memory_test.cpp - KeepCudaMemory (gsdk/core/runtime/cuda_devices.hpp): while one lives, a released
// device arena stays with the process and the next arena on its device takes the same memory back; free memory
// still counts it; a larger arena gets memory of its own; the last keeper to end gives everything back, and without
// a keeper nothing is kept. GPU cases skip without a device.
#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"

namespace {

using gsdk::core::cuda_free_memory;
using gsdk::core::cuda_memory_kept;
using gsdk::core::DeviceArena;
using gsdk::core::KeepCudaMemory;

constexpr uint64_t kMiB = uint64_t{1} << 20;

// The arena's first byte: where its memory starts.
void* base_of(DeviceArena& arena) {
  void* base = arena.allocate(1);
  arena.release_to(0);
  return base;
}

TEST(KeptCudaMemory, TheNextArenaTakesTheSameMemoryBack) {
  GSDK_REQUIRE_GPU();
  const KeepCudaMemory keep;
  void* first = nullptr;
  {
    DeviceArena arena(0, 256 * kMiB);
    first = base_of(arena);
  }
  EXPECT_EQ(cuda_memory_kept(0), 256 * kMiB);
  const uint64_t free_with_kept = cuda_free_memory(0);
  {
    // A smaller arena takes the kept block, with the size asked for.
    DeviceArena again(0, 256 * kMiB - 4 * kMiB);
    EXPECT_EQ(base_of(again), first);
    EXPECT_EQ(again.capacity(), 256 * kMiB - 4 * kMiB);
    EXPECT_EQ(cuda_memory_kept(0), 0u);
    // Taken, it is no longer free: the free memory that arenas are sized from dropped by it.
    EXPECT_LE(cuda_free_memory(0), free_with_kept - 200 * kMiB);
  }
  {
    // Never a block smaller than asked, not even by a little: an arena sized to its run's need must hold all of it
    // (a Q-learning chunk under MPI ranks once got a kept block 2 KiB short and could not place its last buffer).
    const uint64_t a_little_more = 256 * kMiB + 2048;
    DeviceArena larger(0, a_little_more);
    EXPECT_NE(base_of(larger), first);
    EXPECT_EQ(larger.capacity(), a_little_more);
    EXPECT_NO_THROW(larger.allocate(a_little_more));
    EXPECT_EQ(cuda_memory_kept(0), 256 * kMiB); // the smaller block waits on the shelf
  }
  EXPECT_EQ(cuda_memory_kept(0), 512 * kMiB + 2048);
}

TEST(KeptCudaMemory, TheLastKeeperGivesItAllBack) {
  GSDK_REQUIRE_GPU();
  {
    const KeepCudaMemory outer;
    {
      const KeepCudaMemory inner;
      DeviceArena arena(0, 64 * kMiB);
    }
    EXPECT_EQ(cuda_memory_kept(0), 64 * kMiB); // the outer keeper still keeps it
  }
  EXPECT_EQ(cuda_memory_kept(0), 0u);
  {
    DeviceArena unkept(0, 64 * kMiB);
  }
  EXPECT_EQ(cuda_memory_kept(0), 0u);
}

TEST(KeptCudaMemory, WithoutAGpuNothingIsKept) {
  const KeepCudaMemory keep;
  if (gsdk::test::have_gpu()) GTEST_SKIP() << "a GPU is here: the cases above cover it";
  EXPECT_EQ(cuda_memory_kept(0), 0u);
}

} // namespace
