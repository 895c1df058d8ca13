// cuda_perft_none.cpp - the GPU perft engine of a build without the CUDA toolkit: refuses to start.
#include <stdexcept>

#include "gsdk/core/perft/cuda_perft.hpp"

namespace gsdk::core {

struct CudaPerftEngine::Impl {};

CudaPerftEngine::CudaPerftEngine(const GameInstance&, int, uint64_t) {
  throw std::runtime_error("this gsdk was built without CUDA (no CUDA toolkit was found at build time)");
}
CudaPerftEngine::~CudaPerftEngine() = default;
std::vector<uint64_t> CudaPerftEngine::count(const std::vector<StateBlob>&, uint32_t) {
  return {};
}
double CudaPerftEngine::device_milliseconds() const {
  return 0;
}

} // namespace gsdk::core
