// cuda_beam_device_none.cpp - make_cuda_beam_device in a build without CUDA: it says so.
#include <stdexcept>

#include "gsdk/core/beam/beam_search.hpp"

namespace gsdk::core {

std::unique_ptr<BeamDevice> make_cuda_beam_device(const GameInstance&, int32_t, uint32_t) {
  throw std::runtime_error("beam search on a GPU: this build of gsdk has no CUDA");
}

} // namespace gsdk::core
