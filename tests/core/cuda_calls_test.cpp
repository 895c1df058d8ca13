// cuda_calls_test.cpp - the sizing of a CUDA stream's calls (core/src/runtime/cuda_calls.hpp, internal to the core):
// the rule from one call's time to the next call's items, and the loop that claims items by it, timed by a clock
// the test moves.
#include <chrono>
#include <cstdint>
#include <limits>
#include <ratio>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/cuda_calls.hpp"

namespace {

using gsdk::core::next_cuda_call_items;

TEST(CudaCallSizing, TheNextCallTakesWhatTheLastCallsSpeedRunsInHalfASecond) {
  EXPECT_EQ(gsdk::core::kCudaCallSeconds, 0.5);
  EXPECT_EQ(next_cuda_call_items(1, 0.1, 1000), 5u); // 10 items a second
  EXPECT_EQ(next_cuda_call_items(1000, 1.0, 1 << 20), 500u);
  EXPECT_EQ(next_cuda_call_items(64, 0.25, 1 << 20), 128u); // a fast stream doubles its call
  EXPECT_EQ(next_cuda_call_items(64, 0.5, 1 << 20), 64u);   // on time: the same again
}

TEST(CudaCallSizing, ItemsAreRoundedDown) {
  EXPECT_EQ(next_cuda_call_items(10, 0.3, 100), 16u); // 16.67
  EXPECT_EQ(next_cuda_call_items(3, 1.0, 100), 1u);   // 1.5
}

TEST(CudaCallSizing, ACallTakesAtLeastOneItemAndAtMostTheStreamsMost) {
  EXPECT_EQ(next_cuda_call_items(1, 10.0, 64), 1u);  // 0.05 items in half a second: still one
  EXPECT_EQ(next_cuda_call_items(1, 1e-6, 64), 64u); // 500,000: cut to the most
  EXPECT_EQ(next_cuda_call_items(5, 0.1, 1), 1u);
}

TEST(CudaCallSizing, AnUnmeasurablyShortCallCountsAsANanosecond) {
  const uint64_t all = std::numeric_limits<uint64_t>::max();
  // 0.5 / 1e-9 is 499,999,999.99999994 in binary64, rounded down.
  EXPECT_EQ(next_cuda_call_items(1, 0.0, all), 499'999'999u);
  EXPECT_EQ(next_cuda_call_items(1, -1.0, all), 499'999'999u);
  EXPECT_EQ(next_cuda_call_items(all, 1e-12, all), 1'000'000'000'000'000'000u); // no more than 10^18
}

// A clock that moves only when a test moves it.
struct TestClock {
  using rep = double;
  using period = std::ratio<1>;
  using duration = std::chrono::duration<double>;
  using time_point = std::chrono::time_point<TestClock>;
  static constexpr bool is_steady = true;
  static inline double seconds = 0;
  static time_point now() { return time_point(duration(seconds)); }
};

// The calls a stream makes of `total` items, each item taking `item_seconds`, at most `most` a call.
std::vector<std::pair<uint64_t, uint64_t>> calls_of(uint64_t total, double item_seconds, uint64_t most) {
  gsdk::core::WorkQueue queue;
  queue.total = total;
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  gsdk::core::run_cuda_calls<TestClock>(queue, most, [&](uint64_t item, uint64_t end_item) {
    calls.emplace_back(item, end_item);
    TestClock::seconds += item_seconds * static_cast<double>(end_item - item);
  });
  return calls;
}

TEST(CudaCalls, TheFirstCallTakesOneItemAndTheNextOnesTheItemsOfHalfASecond) {
  using Calls = std::vector<std::pair<uint64_t, uint64_t>>;
  // (Item times in binary fractions, so that the clock's sums are exact.)
  EXPECT_EQ(calls_of(14, 0.125, 1000), (Calls{{0, 1}, {1, 5}, {5, 9}, {9, 13}, {13, 14}}));
  EXPECT_EQ(calls_of(3, 0.125, 1000), (Calls{{0, 1}, {1, 3}})); // the last call takes what is left
  EXPECT_EQ(calls_of(8, 0.125, 2), (Calls{{0, 1}, {1, 3}, {3, 5}, {5, 7}, {7, 8}}));
  EXPECT_EQ(calls_of(4, 2.0, 1000), (Calls{{0, 1}, {1, 2}, {2, 3}, {3, 4}}));
}

TEST(CudaCalls, EachCallIsSizedFromTheLastOnesSpeed) {
  gsdk::core::WorkQueue queue;
  queue.total = 100;
  std::vector<uint64_t> items;
  // The stream slows down after its first call: 1 item in 1/16 s, then 1/4 s an item.
  gsdk::core::run_cuda_calls<TestClock>(queue, 1000, [&](uint64_t item, uint64_t end_item) {
    items.push_back(end_item - item);
    TestClock::seconds += (item == 0 ? 0.0625 : 0.25) * static_cast<double>(end_item - item);
    if (items.size() == 4) queue.fail("enough");
  });
  EXPECT_EQ(items, (std::vector<uint64_t>{1, 8, 2, 2}));
}

TEST(CudaCalls, NoCallAfterTheQueueRefusesClaims) {
  gsdk::core::WorkQueue queue;
  queue.total = 100;
  int calls = 0;
  gsdk::core::run_cuda_calls<TestClock>(queue, 1000, [&](uint64_t, uint64_t) {
    ++calls;
    TestClock::seconds += 0.1;
    queue.fail("a failed call");
  });
  EXPECT_EQ(calls, 1);
}

} // namespace
