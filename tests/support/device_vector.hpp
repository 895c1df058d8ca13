// device_vector.hpp - a CUDA device copy of a host vector for tests, freed on scope exit; failures are test failures.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace gsdk::test {

template <typename T> class DeviceVector {
public:
  explicit DeviceVector(size_t n) : n_(n) { EXPECT_EQ(cudaMalloc(&data_, n * sizeof(T)), cudaSuccess); }
  explicit DeviceVector(const std::vector<T>& host) : DeviceVector(host.size()) { upload(host); }
  ~DeviceVector() { cudaFree(data_); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;

  void upload(const std::vector<T>& host) {
    EXPECT_EQ(cudaMemcpy(data_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    EXPECT_EQ(cudaMemcpy(host.data(), data_, n_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
  }
  T* get() const { return static_cast<T*>(data_); }

private:
  size_t n_;
  void* data_ = nullptr;
};

// The device arrays of a batched step (batched_steps_reference.hpp's StepArrays), and their comparison.
template <typename Arrays> struct DeviceStepArrays {
  explicit DeviceStepArrays(const Arrays& host)
      : states(host.states), actions(host.actions), rewards(host.rewards), terminated(host.terminated),
        players(host.players), legal(host.legal) {}
  DeviceVector<unsigned char> states;
  DeviceVector<uint32_t> actions;
  DeviceVector<float> rewards;
  DeviceVector<uint8_t> terminated;
  DeviceVector<int32_t> players;
  DeviceVector<uint8_t> legal;

  void expect_equal(const Arrays& cpu, const char* what) const {
    EXPECT_EQ(states.download(), cpu.states) << what;
    EXPECT_EQ(rewards.download(), cpu.rewards) << what;
    EXPECT_EQ(terminated.download(), cpu.terminated) << what;
    EXPECT_EQ(players.download(), cpu.players) << what;
    EXPECT_EQ(legal.download(), cpu.legal) << what;
  }
};

} // namespace gsdk::test
