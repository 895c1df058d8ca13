// agent_api.hpp - gsdk._gsdk.Agent: the core's agents playing gsdk.State objects (agent_api.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace gsdk::python {

void bind_agent_api(pybind11::module_& m);

} // namespace gsdk::python
