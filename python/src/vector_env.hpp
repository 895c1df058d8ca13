// vector_env.hpp - gsdk._gsdk.VectorEnv: the core's vectorised environment (core/.../environments/vector_env.hpp)
// with its game loaded from the plugins the module sees and its arrays handed to numpy or, on a GPU, through DLPack.
// python/gsdk/vector_env.py wraps it with the documented signature.
#pragma once

#include <pybind11/pybind11.h>

namespace gsdk::python {

void bind_vector_env(pybind11::module_& m);

} // namespace gsdk::python
