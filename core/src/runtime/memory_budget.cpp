// memory_budget.cpp - the free memory of the machine read from Linux's /proc and /sys/fs/cgroup (no library reads
// cgroup limits; sysinfo(2)'s freeram leaves out the page cache the kernel would give back, MemAvailable does not).
#include "gsdk/core/runtime/memory_budget.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/format.h>

namespace gsdk::core {

namespace {

constexpr uint64_t kUnknown = std::numeric_limits<uint64_t>::max();

// The first whole number in `path`, if it holds one ("max", a missing file: none).
std::optional<uint64_t> number_in(const std::string& path) {
  std::ifstream in(path);
  uint64_t value = 0;
  if (!(in >> value)) return std::nullopt;
  return value;
}

// MemAvailable of /proc/meminfo in bytes.
uint64_t meminfo_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("MemAvailable:")) continue;
    std::istringstream fields(line.substr(13));
    uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return kUnknown;
}

// The folder of this process's cgroup (v2: the "0::" line of /proc/self/cgroup) under /sys/fs/cgroup.
std::string cgroup_v2_folder() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("0::")) return "/sys/fs/cgroup" + line.substr(3);
  return "/sys/fs/cgroup";
}

// Room left under the cgroup's memory limit, if it has one.
std::optional<uint64_t> cgroup_room() {
  for (const std::string& folder : {cgroup_v2_folder(), std::string("/sys/fs/cgroup")}) {
    const std::optional<uint64_t> limit = number_in(folder + "/memory.max");
    const std::optional<uint64_t> used = number_in(folder + "/memory.current");
    if (limit && used) return *limit > *used ? *limit - *used : 0;
  }
  const std::optional<uint64_t> limit = number_in("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  const std::optional<uint64_t> used = number_in("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  // cgroup v1 writes a number near 2^63 for "no limit".
  if (limit && used && *limit < (uint64_t{1} << 62)) return *limit > *used ? *limit - *used : 0;
  return std::nullopt;
}

} // namespace

uint64_t available_host_memory() {
  const uint64_t available = meminfo_available();
  const std::optional<uint64_t> room = cgroup_room();
  return room ? std::min(available, *room) : available;
}

std::string byte_size_text(uint64_t bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

void require_memory(uint64_t bytes, uint64_t available, const std::string& where, const std::string& what,
                    const std::string& how) {
  if (bytes <= available) return;
  throw MemoryRefusal(fmt::format("{} needs at least {} of {} memory ({}); {} is free", what, byte_size_text(bytes),
                                  where, how, byte_size_text(available)));
}

} // namespace gsdk::core
