// findings.cpp - collecting a check's failures.
#include "conformance/findings.hpp"

#include <fmt/format.h>

namespace gsdk::host::conformance {

void Findings::fail(std::string reason) {
  if (first_.size() < kKept) first_.push_back(std::move(reason));
  ++count_;
}

void Findings::stop(std::string reason) {
  fail(std::move(reason));
  throw CheckEnded{};
}

void Findings::skip(std::string reason) {
  skip_ = std::move(reason);
  throw CheckEnded{};
}

std::string Findings::reason() const {
  std::string out;
  for (const std::string& f : first_) out += (out.empty() ? "" : "; ") + f;
  if (count_ > first_.size()) out += fmt::format(" (and {} more failures)", count_ - first_.size());
  return out;
}

} // namespace gsdk::host::conformance
