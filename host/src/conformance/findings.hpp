// findings.hpp - what one conformance check found: the failures it recorded, each a precise reason (the
// state's text, the values expected and found), or why it turned out not to apply.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gsdk::host::conformance {

// Thrown by Findings::stop and Findings::skip to end a check early; run_check catches it.
struct CheckEnded {};

class Findings {
public:
  // Records a failure; the check goes on (so one run reports every kind of breakage it meets).
  void fail(std::string reason);
  // Records a failure and ends the check, for breakage that makes the rest meaningless.
  [[noreturn]] void stop(std::string reason);
  // Ends the check as not applicable after all (e.g. no exact state came up in its games).
  [[noreturn]] void skip(std::string reason);

  bool failed() const { return count_ > 0; }
  const std::optional<std::string>& skip_reason() const { return skip_; }
  // The first failures, "; "-joined, and how many more there were.
  std::string reason() const;

private:
  static constexpr std::size_t kKept = 5;
  std::vector<std::string> first_; // the first kKept failures
  std::size_t count_ = 0;
  std::optional<std::string> skip_;
};

} // namespace gsdk::host::conformance
