// env_arrays.cpp - VectorEnv arrays to Python (numpy views, DLPack capsules) and actions from Python (numpy, DLPack).
// DLPack is the exchange format torch, cupy and jax read and write (`torch.from_dlpack(x)`); its struct comes from
// Debian's libdlpack-dev, and the capsule protocol around it (names "dltensor" / "used_dltensor", who calls the
// deleter) is the one the Python array API standard fixes.
#include "env_arrays.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <dlpack/dlpack.h>
#include <fmt/format.h>

#include "numpy_buffers.hpp"

namespace gsdk::python {

namespace py = pybind11;

namespace {

// DLPack 0.8's code for booleans (one byte each): Debian's dlpack.h is 0.6, which has no name for it yet; torch and
// cupy read it.
constexpr uint8_t kDLBoolCode = 6;

Element element_of(core::ElementType type, bool flags) {
  if (flags) return Element::boolean;
  switch (type) {
  case core::ElementType::uint8: return Element::uint8;
  case core::ElementType::int32: return Element::int32;
  case core::ElementType::uint32: return Element::uint32;
  case core::ElementType::float32: return Element::float32;
  }
  throw std::logic_error("unknown element type");
}

DLDataType dlpack_type(core::ElementType type, bool flags) {
  if (flags) return {kDLBoolCode, 8, 1};
  switch (type) {
  case core::ElementType::uint8: return {kDLUInt, 8, 1};
  case core::ElementType::int32: return {kDLInt, 32, 1};
  case core::ElementType::uint32: return {kDLUInt, 32, 1};
  case core::ElementType::float32: return {kDLFloat, 32, 1};
  }
  throw std::logic_error("unknown element type");
}

std::vector<py::ssize_t> python_shape(const core::EnvArray& array) {
  return {array.shape().begin(), array.shape().end()};
}

// The array handed out through one DLPack capsule: it keeps the core's memory alive until the consumer (or, when
// nobody consumed the capsule, the capsule) calls the deleter.
struct ExportedTensor {
  std::shared_ptr<core::EnvArray> array;
  std::vector<int64_t> shape;
  DLManagedTensor tensor{};
};

void delete_exported(DLManagedTensor* tensor) { delete static_cast<ExportedTensor*>(tensor->manager_ctx); }

void delete_unconsumed_capsule(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) return; // consumed: renamed "used_dltensor", the consumer frees it
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  tensor->deleter(tensor);
}

// An array in a CUDA device's memory: gsdk.DeviceArray.
struct DeviceArray {
  std::shared_ptr<core::EnvArray> array;
  bool flags = false;

  py::tuple shape() const { return py::cast(python_shape(*array)); }
  py::object dtype() const { return numpy_dtype(element_of(array->type(), flags)); }
  py::tuple dlpack_device() const { return py::make_tuple(static_cast<int>(kDLCUDA), array->device()); }

  // The capsule of the DLPack protocol. The data is complete when a VectorEnv call returns (its calls are
  // synchronous), so any consumer stream may read it at once and `stream` asks for no synchronisation.
  py::capsule dlpack(const py::object& /*stream*/) const {
    auto* exported = new ExportedTensor{array, {array->shape().begin(), array->shape().end()}, {}};
    DLTensor& t = exported->tensor.dl_tensor;
    t.data = array->data();
    t.device = {kDLCUDA, array->device()};
    t.ndim = static_cast<int>(exported->shape.size());
    t.dtype = dlpack_type(array->type(), flags);
    t.shape = exported->shape.data();
    t.strides = nullptr; // row-major
    t.byte_offset = 0;
    exported->tensor.manager_ctx = exported;
    exported->tensor.deleter = &delete_exported;
    return py::reinterpret_steal<py::capsule>(
        PyCapsule_New(&exported->tensor, "dltensor", &delete_unconsumed_capsule));
  }

  // A numpy copy in host memory, for printing and tests.
  py::object numpy() const {
    auto host = std::make_shared<std::vector<unsigned char>>(array->bytes());
    core::copy_to_host(*array, host->data());
    const void* data = host->data();
    return numpy_view(std::move(host), data, element_of(array->type(), flags), python_shape(*array));
  }
};

} // namespace

py::object as_python_array(const std::shared_ptr<core::EnvArray>& array, bool flags) {
  if (array->place() == core::MemoryPlace::cuda) return py::cast(DeviceArray{array, flags});
  // The numpy array's base owns a reference to the core's array, so the memory lives as long as any view of it.
  return numpy_view(array, array->data(), element_of(array->type(), flags), python_shape(*array));
}

void bind_device_array(py::module_& m) {
  py::class_<DeviceArray>(m, "DeviceArray",
                          "An array in a CUDA device's memory, handed out by a VectorEnv on device=\"cuda\". "
                          "torch.from_dlpack(a) and cupy.from_dlpack(a) take it without a copy; a.numpy() copies "
                          "it to the host.")
      .def_property_readonly("shape", &DeviceArray::shape)
      .def_property_readonly("dtype", &DeviceArray::dtype)
      .def_property_readonly("device", [](const DeviceArray& a) { return fmt::format("cuda:{}", a.array->device()); })
      .def("__dlpack__", &DeviceArray::dlpack, py::kw_only(), py::arg("stream") = py::none())
      .def("__dlpack_device__", &DeviceArray::dlpack_device)
      .def("numpy", &DeviceArray::numpy, "a copy in host memory")
      .def("__array__", [](const DeviceArray& a, const py::object&) { return a.numpy(); }, py::arg("dtype") = py::none())
      .def("__len__", [](const DeviceArray& a) { return a.array->shape().front(); })
      .def("__repr__", [](const DeviceArray& a) {
        return fmt::format("gsdk.DeviceArray(shape={}, dtype={}, device='cuda:{}')",
                           py::str(a.shape()).cast<std::string>(), py::str(a.dtype()).cast<std::string>(),
                           a.array->device());
      });
}

namespace {

bool is_cuda_dlpack(const py::object& actions) {
  if (!py::hasattr(actions, "__dlpack_device__")) return false;
  const auto device = actions.attr("__dlpack_device__")().cast<py::tuple>();
  return device[0].cast<int>() == kDLCUDA || device[0].cast<int>() == kDLCUDAManaged;
}

// Host actions: n integers, none negative (a negative value would otherwise wrap around to a large code), as a
// C-contiguous uint32 numpy array (read through numpy's Python functions: numpy_buffers.hpp says why).
py::object host_actions(const py::object& actions, uint32_t count, uint32_t action_count) {
  const py::module_ numpy = py::module_::import("numpy");
  const py::object given = numpy.attr("asarray")(actions);
  const std::string kind = given.attr("dtype").attr("kind").cast<std::string>();
  if (kind != "i" && kind != "u")
    throw std::invalid_argument(fmt::format("step(actions): expected integer actions (move codes), got dtype {} ({})",
                                            py::str(given.attr("dtype")).cast<std::string>(),
                                            py::str(py::type::of(actions)).cast<std::string>()));
  const auto shape = given.attr("shape").cast<std::vector<py::ssize_t>>();
  if (shape.size() != 1 || shape[0] != static_cast<py::ssize_t>(count))
    throw std::invalid_argument(fmt::format("step(actions): expected shape ({},), one action per environment, got {}",
                                            count, py::str(given.attr("shape")).cast<std::string>()));
  // Out of range before the cast to uint32, which would otherwise wrap a negative or a 64-bit value into a code.
  const py::object bad = numpy.attr("flatnonzero")(
      numpy.attr("logical_or")(given.attr("__lt__")(0), given.attr("__ge__")(action_count)));
  if (py::len(bad) > 0) {
    const auto env = bad[py::int_(0)].cast<int64_t>();
    const std::string value = py::str(given.attr("__getitem__")(env)).cast<std::string>();
    throw std::invalid_argument(fmt::format("step(actions): environment {}: action {} is {} (move codes are 0 .. {})",
                                            env, value, value.starts_with('-') ? "negative" : "out of range",
                                            action_count - 1));
  }
  // Every value is a code now, so the cast from int64 (numpy's default) to uint32 keeps it.
  return numpy.attr("ascontiguousarray")(given, py::arg("dtype") = "uint32");
}

} // namespace

ActionsView::ActionsView(const py::object& actions, uint32_t count, const core::VectorEnv& env) {
  if (!is_cuda_dlpack(actions)) {
    host_ = host_actions(actions, count, env.action_count());
    data_ = static_cast<const uint32_t*>(py::buffer(host_).request().ptr);
    return;
  }
  if (!env.on_cuda())
    throw std::invalid_argument("step(actions): the actions are in CUDA memory but this VectorEnv runs on the CPU");
  // The environment's stream: the producer (torch, cupy) orders its work on the actions before it.
  py::capsule capsule =
      actions.attr("__dlpack__")(py::arg("stream") = reinterpret_cast<uintptr_t>(env.cuda_stream()));
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!tensor) throw py::error_already_set();
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  managed_.reset(tensor);
  const DLTensor& t = tensor->dl_tensor;
  const bool thirty_two_bit_integers = (t.dtype.code == kDLInt || t.dtype.code == kDLUInt) && t.dtype.bits == 32 &&
                                       t.dtype.lanes == 1;
  if (!thirty_two_bit_integers)
    throw std::invalid_argument(fmt::format("step(actions): device actions must be int32 or uint32 (DLPack type code "
                                            "{}, {} bits given); e.g. torch: actions.to(torch.int32)",
                                            t.dtype.code, t.dtype.bits));
  if (t.ndim != 1 || t.shape[0] != count || (t.strides && t.strides[0] != 1))
    throw std::invalid_argument(fmt::format("step(actions): expected {} contiguous device actions, one per environment",
                                            count));
  if (t.device.device_id != env.cuda_device())
    throw std::invalid_argument(fmt::format("step(actions): the actions are on cuda:{}, this VectorEnv on cuda:{}",
                                            t.device.device_id, env.cuda_device()));
  data_ = reinterpret_cast<const uint32_t*>(static_cast<const char*>(t.data) + t.byte_offset);
  place_ = core::MemoryPlace::cuda;
}

void ActionsView::release_consumed(void* tensor) {
  auto* managed = static_cast<DLManagedTensor*>(tensor);
  if (managed->deleter) managed->deleter(managed);
}

} // namespace gsdk::python
