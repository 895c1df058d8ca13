// best_searches.cpp - the bounded table of an NMCS run's best distinct final sequences, and its file.
#include "algorithms/nested/best_searches.hpp"

#include <iterator>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "report/output_file.hpp"

namespace gsdk::host {

void BestSearches::offer(const core::FinishedSearch& search) {
  // Most searches end below the table's worst: refuse them before building their moves.
  if (!might_keep({-search.score, search.search})) return;
  std::vector<uint32_t> moves = starts_.empty() ? std::vector<uint32_t>{} : starts_[search.start];
  moves.insert(moves.end(), search.moves.begin(), search.moves.end());
  restore(Entry{search.score, search.search, search.start, std::move(moves)});
}

bool BestSearches::might_keep(const Rank& rank) const {
  return by_rank_.size() < kept_ || rank < by_rank_.rbegin()->first;
}

void BestSearches::restore(Entry entry) {
  const Rank rank{-entry.score, entry.search};
  if (!might_keep(rank)) return;
  if (const auto held = rank_of_moves_.find(entry.moves); held != rank_of_moves_.end()) {
    if (!(rank < held->second)) return;
    by_rank_.erase(held->second);
    rank_of_moves_.erase(held);
  }
  rank_of_moves_.emplace(entry.moves, rank);
  by_rank_.emplace(rank, std::move(entry));
  if (by_rank_.size() <= kept_) return;
  const auto worst = std::prev(by_rank_.end());
  rank_of_moves_.erase(worst->second.moves);
  by_rank_.erase(worst);
}

std::vector<BestSearches::Entry> BestSearches::entries() const {
  std::vector<Entry> out;
  out.reserve(by_rank_.size());
  for (const auto& [rank, entry] : by_rank_) out.push_back(entry);
  return out;
}

void write_best_searches(const std::string& path, const std::vector<BestSearches::Entry>& entries) {
  std::string lines;
  for (const BestSearches::Entry& e : entries) {
    // Ordered, so that each line reads as documented.
    const nlohmann::ordered_json line = {
        {"score", e.score}, {"search", e.search}, {"start", e.start}, {"moves", e.moves}};
    lines += line.dump() + '\n';
  }
  write_file(path, lines);
}

} // namespace gsdk::host
