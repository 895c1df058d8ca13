// numpy_buffers.hpp - numpy arrays made and read through Python's buffer protocol and numpy's Python functions, never
// numpy's C API. pybind11 before 2.12 (Debian 12 ships 2.10) reads numpy 1's struct layouts, a dtype's item size
// among them, and numpy 2 moved those fields: under numpy 2.5 on the GPU machine every array the module made had
// wrong strides and every action it read was wrong. The buffer protocol (PEP 3118) is the same for both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <pybind11/pybind11.h>

namespace gsdk::python {

enum class Element { uint8, int32, uint32, float32, boolean };

// A numpy array viewing `data` (row-major `shape` of `type`), which `owner` keeps alive while any view lives.
pybind11::object numpy_view(std::shared_ptr<const void> owner, const void* data, Element type,
                            const std::vector<pybind11::ssize_t>& shape);

// A numpy array holding a copy of the `shape`-sized block at `data`.
pybind11::object numpy_copy(const void* data, Element type, const std::vector<pybind11::ssize_t>& shape);

// numpy.dtype of `type`.
pybind11::object numpy_dtype(Element type);

size_t element_bytes(Element type);

// Registers the buffer class numpy_view hands to numpy.asarray (gsdk._gsdk._HostBuffer, not public).
void bind_numpy_buffers(pybind11::module_& m);

} // namespace gsdk::python
