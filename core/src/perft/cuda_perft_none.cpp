// cuda_perft_none.cpp - the GPU perft engine of a build without the CUDA toolkit: refuses to start.
#include <stdexcept>

#include "gsdk/core/perft/cuda_perft.hpp"

namespace gsdk::core {

namespace {

constexpr const char* kNoCuda = "this gsdk was built without CUDA (no CUDA toolkit was found at build time)";

} // namespace

struct CudaPerftEngine::Impl {};
struct CudaPerftTable::Impl {};

CudaPerftTable::CudaPerftTable(int, uint64_t) {
  throw std::runtime_error(kNoCuda);
}
CudaPerftTable::~CudaPerftTable() = default;
int CudaPerftTable::device() const {
  return 0;
}
PerftTableStats CudaPerftTable::stats() const {
  return {};
}
uint64_t default_cuda_table_bytes(int, double, uint64_t) {
  return 0;
}

CudaPerftEngine::CudaPerftEngine(const GameInstance&, int, uint64_t, std::shared_ptr<CudaPerftTable>) {
  throw std::runtime_error(kNoCuda);
}
CudaPerftEngine::~CudaPerftEngine() = default;
std::vector<uint64_t> CudaPerftEngine::count(const std::vector<StateBlob>&, uint32_t) {
  return {};
}
double CudaPerftEngine::device_milliseconds() const {
  return 0;
}
uint64_t CudaPerftEngine::frontier_states() const {
  return 0;
}
uint64_t CudaPerftEngine::duplicates() const {
  return 0;
}

} // namespace gsdk::core
