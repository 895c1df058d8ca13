// numpy_buffers.cpp - numpy arrays through the buffer protocol (numpy_buffers.hpp says why not numpy's C API).
#include "numpy_buffers.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace gsdk::python {

namespace py = pybind11;

namespace {

// What numpy.asarray reads through the buffer protocol; the numpy array's base keeps it, and it keeps the owner.
struct HostBuffer {
  std::shared_ptr<const void> owner;
  const void* data = nullptr;
  Element type = Element::uint8;
  std::vector<py::ssize_t> shape;
};

const char* buffer_format(Element type) {
  switch (type) {
  case Element::uint8: return "B";
  case Element::int32: return "i";
  case Element::uint32: return "I";
  case Element::float32: return "f";
  case Element::boolean: return "?";
  }
  throw std::logic_error("unknown element type");
}

const char* dtype_name(Element type) {
  switch (type) {
  case Element::uint8: return "uint8";
  case Element::int32: return "int32";
  case Element::uint32: return "uint32";
  case Element::float32: return "float32";
  case Element::boolean: return "bool";
  }
  throw std::logic_error("unknown element type");
}

} // namespace

size_t element_bytes(Element type) {
  return type == Element::int32 || type == Element::uint32 || type == Element::float32 ? 4 : 1;
}

py::object numpy_dtype(Element type) { return py::module_::import("numpy").attr("dtype")(dtype_name(type)); }

py::object numpy_view(std::shared_ptr<const void> owner, const void* data, Element type,
                      const std::vector<py::ssize_t>& shape) {
  py::object buffer = py::cast(HostBuffer{std::move(owner), data, type, shape});
  return py::module_::import("numpy").attr("asarray")(buffer);
}

py::object numpy_copy(const void* data, Element type, const std::vector<py::ssize_t>& shape) {
  size_t bytes = element_bytes(type);
  for (py::ssize_t extent : shape) bytes *= static_cast<size_t>(extent);
  auto copy = std::make_shared<std::vector<unsigned char>>(bytes);
  if (bytes != 0) std::memcpy(copy->data(), data, bytes);
  const void* start = copy->data();
  return numpy_view(std::move(copy), start, type, shape);
}

void bind_numpy_buffers(py::module_& m) {
  py::class_<HostBuffer>(m, "_HostBuffer", py::buffer_protocol())
      .def_buffer([](HostBuffer& b) {
        const auto item = static_cast<py::ssize_t>(element_bytes(b.type));
        std::vector<py::ssize_t> strides(b.shape.size());
        py::ssize_t stride = item;
        for (size_t d = b.shape.size(); d-- > 0;) {
          strides[d] = stride;
          stride *= b.shape[d];
        }
        // Writable, as the arrays the module made before were: a learner may edit its copy of an observation.
        return py::buffer_info(const_cast<void*>(b.data), item, buffer_format(b.type),
                               static_cast<py::ssize_t>(b.shape.size()), b.shape, strides);
      });
}

} // namespace gsdk::python
