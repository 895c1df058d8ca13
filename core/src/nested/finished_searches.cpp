// finished_searches.cpp - the set of a run's searches that have ended (nested_search.hpp's FinishedSearches),
// kept as the count of the first ones plus the few that ended out of order above them.
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::core {

FinishedSearches::FinishedSearches(uint32_t below, std::set<uint32_t> above) : below_(below), above_(std::move(above)) {
  if (!above_.empty() && *above_.begin() <= below_)
    throw std::invalid_argument(fmt::format(
        "finished search {} is listed apart from the first {} searches, which it is one of", *above_.begin(), below_));
}

void FinishedSearches::insert(uint32_t search) {
  if (contains(search)) return;
  above_.insert(search);
  // The numbers that now follow the first ones on join them.
  while (!above_.empty() && *above_.begin() == below_) {
    above_.erase(above_.begin());
    ++below_;
  }
}

} // namespace gsdk::core
