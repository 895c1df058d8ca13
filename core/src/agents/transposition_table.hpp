// transposition_table.hpp - alpha-beta's memory of searched states: a fixed-size table keyed by the game's
// 64-bit state hash, holding a value with its bound, the depth it was searched to and the best move found.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace gsdk::core {

enum class ValueBound : uint8_t { exact, lower, upper };

struct TableEntry {
  uint64_t key = 0;
  int32_t value = 0;
  uint32_t move = 0; // the game's move code of the best move found
  int32_t depth = 0; // plies searched below the state; kSolvedDepth for a search to the end of the game
  ValueBound bound = ValueBound::exact;
};

class TranspositionTable {
public:
  // A search to the game's end: its value holds at every depth.
  static constexpr int32_t kSolvedDepth = INT32_MAX;

  // The most entries that fit `bytes` (a power of two); 0 bytes keeps nothing.
  explicit TranspositionTable(uint64_t bytes);

  std::optional<TableEntry> find(uint64_t key) const;
  // Replaces whatever shared the slot: the newest search knows the most about the current position.
  void store(const TableEntry& entry);
  void clear();
  uint64_t capacity() const { return slots_.size(); }

private:
  struct Slot {
    TableEntry entry;
    bool used = false;
  };
  std::vector<Slot> slots_;
};

} // namespace gsdk::core
