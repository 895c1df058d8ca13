// perft_table_test.cpp - the slot layout every perft transposition table shares (core/src/perft/table_bucket.hpp)
// and the CPU workers' table (host_table.hpp): a count comes back only under its own key; a key that differs in
// key.hi, or in the bits of key.lo the slot keeps, misses; a slot torn between two writers misses; the bits of key.lo
// the slot cannot keep (the bucket's) are the short key, and a key differing only there would hit (which is why the
// bucket must come from them); counts too wide for a slot are not kept; stores evict the smallest count.
#include <gtest/gtest.h>

#include "perft/host_table.hpp"
#include "perft/state_key.hpp"
#include "perft/table_bucket.hpp"

namespace {

using gsdk::core::HostTable;
using gsdk::core::TableCounters;
using gsdk::core::perft_key::Key;
namespace table = gsdk::core::perft_table;

const Key kKey{0x0123456789abcdefull, 0xfedcba9876543210ull};

TEST(PerftTableSlot, ACountComesBackOnlyUnderItsKey) {
  for (uint64_t count : {0ull, 1ull, 900ull, 123456789ull, (1ull << 58) - 1}) {
    const table::Slot slot = table::encode(kKey, count);
    ASSERT_FALSE(table::is_empty(slot)) << count;
    EXPECT_TRUE(table::holds(slot, kKey)) << count;
    EXPECT_EQ(table::count_of(slot), count);
    EXPECT_FALSE(table::holds(slot, Key{kKey.lo, kKey.hi ^ 1})) << "key.hi differs, count " << count;
    const uint32_t kept = table::kLowBits - table::bit_width(count); // key.lo bits the slot keeps
    if (kept > 0) {
      EXPECT_FALSE(table::holds(slot, Key{kKey.lo ^ (1ull << (kept - 1)), kKey.hi})) << count;
    }
    // Above the kept bits the key is the bucket's: a key differing only there would hit, so it must not reach this
    // bucket (bucket_of takes the high bits of key.lo).
    EXPECT_TRUE(table::holds(slot, Key{kKey.lo ^ (1ull << 63), kKey.hi})) << count;
  }
  EXPECT_TRUE(table::is_empty(table::encode(kKey, 1ull << 58))) << "too wide for a slot: not kept";
}

TEST(PerftTableSlot, ASlotTornBetweenTwoWritersMisses) {
  const Key other{0x1111222233334444ull, 0x5555666677778888ull};
  const table::Slot a = table::encode(kKey, 1234), b = table::encode(other, 98765);
  EXPECT_FALSE(table::holds(table::Slot{a.high, b.low}, kKey));
  EXPECT_FALSE(table::holds(table::Slot{a.high, b.low}, other));
  EXPECT_FALSE(table::holds(table::Slot{b.high, a.low}, kKey));
  EXPECT_FALSE(table::holds(table::Slot{b.high, a.low}, other));
  // The same key written twice tears harmlessly: both halves are the same.
  const table::Slot again = table::encode(kKey, 1234);
  EXPECT_TRUE(table::holds(table::Slot{a.high, again.low}, kKey));
}

TEST(PerftTableSlot, TheBucketComesFromTheHighBitsOfKeyLo) {
  EXPECT_EQ(table::bucket_of(Key{0, 0}, 1000), 0u);
  EXPECT_EQ(table::bucket_of(Key{~0ull, 0}, 1000), 999u);
  EXPECT_EQ(table::bucket_of(Key{1ull << 63, 0}, 1000), 500u);
  EXPECT_EQ(table::bucket_of(Key{(1ull << 63) ^ 0xffffull, 0}, 1000), 500u) << "low bits do not move the bucket";
}

TEST(PerftTableSlot, StoresTakeAnEmptySlotThenEvictTheSmallestCount) {
  table::Slot bucket[table::kSlots] = {};
  EXPECT_EQ(table::victim(bucket, kKey), 0u);
  for (uint32_t i = 0; i < table::kSlots; ++i) bucket[i] = table::encode(Key{i + 1, i + 7}, 100 - i);
  EXPECT_EQ(table::victim(bucket, kKey), table::kSlots - 1) << "the smallest count goes";
  EXPECT_EQ(table::victim(bucket, Key{2, 8}), table::kSlots) << "already there";
}

TEST(PerftHostTable, OneBucketKeepsTheLargestCountsAndCountsItsWork) {
  HostTable t(1);
  TableCounters counters;
  EXPECT_EQ(t.slots(), 4u);
  for (uint64_t i = 0; i < 10; ++i)
    t.store(gsdk::core::perft_key::state_key(reinterpret_cast<const unsigned char*>(&i), 8, 3), 1000 + i, counters);
  EXPECT_EQ(counters.stores, 10u);
  EXPECT_EQ(counters.fills, 4u);
  uint64_t found = 0;
  for (uint64_t i = 0; i < 10; ++i) {
    const auto count =
        t.probe(gsdk::core::perft_key::state_key(reinterpret_cast<const unsigned char*>(&i), 8, 3), counters);
    if (!count) continue;
    EXPECT_EQ(*count, 1000 + i);
    EXPECT_GE(i, 6u) << "the four largest counts stay";
    ++found;
  }
  EXPECT_EQ(found, 4u);
  EXPECT_EQ(counters.probes, 10u);
  EXPECT_EQ(counters.hits, 4u);
  const uint64_t seven = 7;
  EXPECT_FALSE(t.probe(gsdk::core::perft_key::state_key(reinterpret_cast<const unsigned char*>(&seven), 8, 4), counters))
      << "the depth is part of the key";
}

} // namespace
