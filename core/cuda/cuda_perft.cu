// cuda_perft.cu - the breadth-first GPU perft engine (see cuda_perft.hpp). Skeleton: not yet implemented.
#include <stdexcept>

#include "gsdk/core/cuda_perft.hpp"

namespace gsdk::core {

struct CudaPerftEngine::Impl {};

CudaPerftEngine::CudaPerftEngine(const GameInstance&, int, uint64_t) {
  throw std::runtime_error("GPU perft engine: not implemented yet");
}
CudaPerftEngine::~CudaPerftEngine() = default;
std::vector<uint64_t> CudaPerftEngine::count(const std::vector<StateBlob>&, uint32_t) { return {}; }
double CudaPerftEngine::device_milliseconds() const { return 0; }

} // namespace gsdk::core
