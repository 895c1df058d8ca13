// env_arrays.hpp - the arrays of a VectorEnv as Python sees them: host arrays as numpy arrays that keep the core's
// memory alive (no copy), device arrays as gsdk.DeviceArray, which hands its memory to torch, cupy or jax through
// DLPack (no copy); and actions given to step() in either form.
#pragma once

#include <cstdint>
#include <memory>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "gsdk/core/environments/vector_env.hpp"

namespace gsdk::python {

// A numpy array over a host EnvArray (bool where the core's bytes are 0/1 flags), or a DeviceArray over a CUDA one.
pybind11::object as_python_array(const std::shared_ptr<core::EnvArray>& array, bool flags = false);

// Registers gsdk._gsdk.DeviceArray.
void bind_device_array(pybind11::module_& m);

// step()'s actions: n codes in host memory (anything numpy turns into integers) or, for an environment on a
// CUDA device, an object with __dlpack__ on that device holding n int32 or uint32 values. Keeps what it refers to
// alive while it lives. Throws std::invalid_argument naming what was given and what was expected.
class ActionsView {
public:
  ActionsView(const pybind11::object& actions, uint32_t count, const core::VectorEnv& env);

  const uint32_t* data() const { return data_; }
  core::MemoryPlace place() const { return place_; }

private:
  pybind11::object host_; // the host actions as a C-contiguous uint32 numpy array
  // The consumed DLManagedTensor, given back through its deleter (also when the constructor refuses it).
  std::unique_ptr<void, void (*)(void*)> managed_{nullptr, &release_consumed};
  static void release_consumed(void* tensor);
  const uint32_t* data_ = nullptr;
  core::MemoryPlace place_ = core::MemoryPlace::host;
};

} // namespace gsdk::python
