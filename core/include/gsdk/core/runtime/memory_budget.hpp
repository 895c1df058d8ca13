// memory_budget.hpp - the memory a job may still take, and the refusal of a job that needs more: a run sized past
// the machine is refused up front, with the numbers, instead of failing with std::bad_alloc (or being killed by the
// kernel) after it has allocated gigabytes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gsdk::core {

// A job that needs more memory than the machine has free: bad input (its size), so an invalid_argument.
class MemoryRefusal : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// Bytes of host memory this process may still allocate: the kernel's MemAvailable (/proc/meminfo), lowered to the
// room left under the process's cgroup limit (v2 memory.max less memory.current, or v1's) when there is one.
// UINT64_MAX when neither can be read.
uint64_t available_host_memory();

// "1.5 GiB", "512 MiB", "800 B": a size for a message.
std::string byte_size_text(uint64_t bytes);

// Throws MemoryRefusal when `bytes` is more than `available`: "{what} needs at least {bytes} of {where} memory
// ({how}); {available} is free". `how` says how the size was reckoned, e.g. "4194304 environments x 33856 bytes".
void require_memory(uint64_t bytes, uint64_t available, const std::string& where, const std::string& what,
                    const std::string& how);

} // namespace gsdk::core
