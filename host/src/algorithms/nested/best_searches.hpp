// best_searches.hpp - the best distinct sequences an NMCS run's searches ended with ([output] searches): a
// bounded table filled as searches end, written as JSON Lines, best first, for later runs to start from
// ([nmcs] starts_from) or to study.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::host {

class BestSearches {
public:
  // Keeps at most `kept` sequences; `starts` are the run's start move lists (empty: none), which every
  // search's moves follow.
  BestSearches(uint32_t kept, const std::vector<std::vector<uint32_t>>& starts) : kept_(kept), starts_(starts) {}

  // Takes a search that ended when its sequence is among the best so far: a higher score first, then the
  // lower search number. A sequence already held stays once, under the better of its two searches.
  void offer(const core::FinishedSearch& search);

  struct Entry {
    int64_t score;
    uint32_t search;
    uint32_t start;
    std::vector<uint32_t> moves; // from the initial state
  };
  // Takes an entry an earlier run's table held (a resumed run's), as offer() would have. The table is the same
  // whatever the order of offers, so one fed an earlier table's entries and then the rest ends as one fed all.
  void restore(Entry entry);
  // Best first.
  std::vector<Entry> entries() const;

private:
  using Rank = std::pair<int64_t, uint32_t>; // (-score, search): the best is the smallest

  // False when a sequence of `rank` would not be kept (the table is full of better ones).
  bool might_keep(const Rank& rank) const;

  uint32_t kept_;
  const std::vector<std::vector<uint32_t>>& starts_;
  std::map<Rank, Entry> by_rank_;
  std::map<std::vector<uint32_t>, Rank> rank_of_moves_;
};

// Writes `entries` to `path` (atomically), one JSON object a line: score, search, start, moves. Throws
// OutputError naming the path when writing fails.
void write_best_searches(const std::string& path, const std::vector<BestSearches::Entry>& entries);

} // namespace gsdk::host
