// transposition_table.cpp - the fixed-size table of alpha-beta results (see transposition_table.hpp).
#include "agents/transposition_table.hpp"

#include <bit>

namespace gsdk::core {

TranspositionTable::TranspositionTable(uint64_t bytes) {
  const uint64_t fit = bytes / sizeof(Slot);
  if (fit > 0) slots_.resize(std::bit_floor(fit));
}

std::optional<TableEntry> TranspositionTable::find(uint64_t key) const {
  if (slots_.empty()) return std::nullopt;
  const Slot& slot = slots_[key & (slots_.size() - 1)];
  if (!slot.used || slot.entry.key != key) return std::nullopt;
  return slot.entry;
}

void TranspositionTable::store(const TableEntry& entry) {
  if (slots_.empty()) return;
  slots_[entry.key & (slots_.size() - 1)] = {entry, true};
}

void TranspositionTable::clear() {
  for (Slot& slot : slots_) slot.used = false;
}

} // namespace gsdk::core
