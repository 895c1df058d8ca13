// work_blocks.cpp - the --shard value (work_blocks.hpp).
#include "distribute/work_blocks.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "config/config_error.hpp"
#include "config/quoted_value.hpp"

namespace gsdk::host {

namespace {

bool read_whole(std::string_view text, uint64_t& value) {
  if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
  return std::from_chars(text.data(), text.data() + text.size(), value).ec == std::errc();
}

} // namespace

uint64_t blocks_holding(uint64_t items, uint64_t of) {
  if (of == 0 || items == 0) return 1;
  if (of <= kWorkBlocks) return std::min(items, of);
  return std::clamp<uint64_t>((items * kWorkBlocks + of - 1) / of, 1, kWorkBlocks);
}

ShardPlace parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  ShardPlace place;
  if (slash == std::string::npos || !read_whole(std::string_view(text).substr(0, slash), place.index) ||
      !read_whole(std::string_view(text).substr(slash + 1), place.count) || place.index < 1 ||
      place.index > place.count || place.count > kWorkBlocks)
    throw ConfigError(fmt::format("--shard {}: expected K/N, the K-th of N parts, with 1 <= K <= N <= {} (e.g. "
                                  "--shard 3/8)",
                                  quote_value(text), kWorkBlocks));
  return place;
}

} // namespace gsdk::host
