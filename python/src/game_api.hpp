// game_api.hpp - gsdk._gsdk.Game and gsdk._gsdk.State: any plugin's per-state rules from Python, in OpenSpiel's
// shape (new_initial_state, legal_actions, apply_action, clone, returns, ...), so a search can be written in Python.
#pragma once

#include <pybind11/pybind11.h>

namespace gsdk::python {

void bind_game_api(pybind11::module_& m);

} // namespace gsdk::python
