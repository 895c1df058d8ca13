// run_settings.hpp - an experiment's [run] table: which devices, how many threads, GPUs, streams, SIMD.
#pragma once

#include <string>
#include <vector>

namespace gsdk::host {

struct RunSettings {
  std::string device = "auto"; // auto | cpu | cuda | all
  unsigned threads = 0;        // 0: every hardware thread
  std::vector<int> gpus;       // empty: every GPU
  unsigned streams = 2;
  std::string simd = "auto"; // auto | avx512 | avx2 | scalar
};

} // namespace gsdk::host
