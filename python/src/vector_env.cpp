// vector_env.cpp - gsdk._gsdk.VectorEnv over core::VectorEnv (python/gsdk/vector_env.py gives it Gymnasium's
// conventions). The loaded game (plugin, parameters, instance) lives as long as the environment, which refers to it.
// Steps release the GIL: a program may step one environment while its other threads choose actions for another;
// calls on one environment from several threads wait for each other.
#include "vector_env.hpp"

#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "env_arrays.hpp"
#include "gsdk/core/environments/vector_env.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"
#include "loaded_game.hpp"
#include "numpy_buffers.hpp"

namespace gsdk::python {

namespace py = pybind11;

namespace {

// "cpu", "cuda" or "cuda:K".
core::VectorEnvSettings device_settings(const std::string& device) {
  core::VectorEnvSettings settings;
  if (device == "cpu") return settings;
  settings.cuda = true;
  if (device == "cuda") return settings;
  const std::string prefix = "cuda:";
  const std::string ordinal = device.substr(std::min(prefix.size(), device.size()));
  const bool digits = device.starts_with(prefix) && !ordinal.empty() && ordinal.size() < 4 &&
                      ordinal.find_first_not_of("0123456789") == std::string::npos;
  if (!digits)
    throw std::invalid_argument(fmt::format("device '{}': expected \"cpu\", \"cuda\" or \"cuda:K\"", device));
  settings.cuda_device = std::stoi(ordinal);
  return settings;
}

class PyVectorEnv {
public:
  // final_observations: on, off, or (nullopt) on where the game's tables allow it.
  PyVectorEnv(const std::string& game, uint32_t count, uint64_t seed, const std::string& params_json,
              const std::string& device, const std::optional<unsigned>& threads,
              const std::vector<std::string>& plugin_dirs, uint32_t max_episode_steps,
              std::optional<bool> final_observations)
      : game_(std::make_unique<LoadedGame>(game, params_json, plugin_dirs, "VectorEnv: ")) {
    core::VectorEnvSettings settings = device_settings(device);
    settings.count = count;
    settings.seed = seed;
    settings.threads = threads.value_or(0);
    settings.max_episode_steps = max_episode_steps;
    settings.final_observations = final_observations.value_or(final_observations_possible(settings));
    env_ = std::make_unique<core::VectorEnv>(game_->instance(), settings);
    keep(env_->reset()); // step() may come first: every game starts from its initial state
  }

  py::object reset(std::optional<uint64_t> seed) {
    core::EnvStep step;
    std::unique_lock<std::mutex> lock = exclusive([&] { step = env_->reset(seed); });
    return keep(step);
  }

  py::object reset_from_states(const py::bytes& states) {
    const std::string_view bytes = states;
    core::EnvStep step;
    std::unique_lock<std::mutex> lock = exclusive([&] {
      step = env_->reset_from_states(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    });
    return keep(step);
  }

  // (obs, rewards of every player, terminated, truncated, rewards of the movers, ended, final observations or None).
  py::tuple step(const py::object& actions) {
    const ActionsView view(actions, env_->count(), *env_);
    core::EnvStep step;
    std::unique_lock<std::mutex> lock = exclusive([&] { step = env_->step(view.data(), view.place()); });
    const py::object observations = keep(step);
    return py::make_tuple(observations, as_python_array(step.rewards), as_python_array(step.terminated, true),
                          as_python_array(step.truncated, true), as_python_array(step.actor_rewards),
                          as_python_array(step.ended, true),
                          step.final_observations ? as_python_array(step.final_observations) : py::none());
  }

  py::object legal_actions_mask() const { return as_python_array(last_.legal, true); }
  py::object current_player() const { return as_python_array(last_.players); }

  py::object random_actions() {
    std::shared_ptr<core::EnvArray> actions;
    std::unique_lock<std::mutex> lock = exclusive([&] { actions = env_->random_actions(); });
    return as_python_array(actions);
  }

  py::object states() {
    std::vector<unsigned char> bytes;
    std::unique_lock<std::mutex> lock = exclusive([&] { bytes = env_->states_on_host(); });
    const auto state_size = static_cast<py::ssize_t>(bytes.size() / env_->count());
    return numpy_copy(bytes.data(), Element::uint8, {static_cast<py::ssize_t>(env_->count()), state_size});
  }

  const core::VectorEnv& env() const { return *env_; }
  uint32_t game_state_size() const { return game_->instance().state_size(); }
  py::object observation_dtype() const { return as_python_array(last_.observations).attr("dtype"); }
  std::string device() const {
    return env_->on_cuda() ? fmt::format("cuda:{}", env_->cuda_device()) : std::string("cpu");
  }

private:
  bool final_observations_possible(const core::VectorEnvSettings& settings) const {
    const core::PluginTables& tables = game_->instance().tables();
    return !settings.cuda || (tables.batched_steps && core::cuda_step_keeping_final(*tables.batched_steps));
  }

  // Runs `work` without the GIL, holding this environment's lock, which it returns still held: the caller keeps it
  // while it turns the results into Python objects, so that two threads' calls cannot interleave.
  template <typename Work> std::unique_lock<std::mutex> exclusive(Work work) {
    py::gil_scoped_release unlocked;
    std::unique_lock<std::mutex> lock(mutex_);
    work();
    return lock;
  }

  // Keeps the arrays of the last reset or step (legal_actions_mask() and current_player() return them) and returns
  // the observations.
  py::object keep(const core::EnvStep& step) {
    last_ = step;
    return as_python_array(step.observations);
  }

  std::unique_ptr<LoadedGame> game_;
  std::unique_ptr<core::VectorEnv> env_;
  core::EnvStep last_;
  std::mutex mutex_; // one call at a time
};

py::tuple tuple_of(const std::vector<uint64_t>& extents) {
  py::tuple t(extents.size());
  for (size_t i = 0; i < extents.size(); ++i) t[i] = extents[i];
  return t;
}

} // namespace

void bind_vector_env(py::module_& m) {
  bind_device_array(m);
  py::class_<PyVectorEnv>(m, "VectorEnv")
      .def(py::init<const std::string&, uint32_t, uint64_t, const std::string&, const std::string&,
                    const std::optional<unsigned>&, const std::vector<std::string>&, uint32_t, std::optional<bool>>(),
           py::arg("game"), py::arg("n"), py::arg("seed"), py::arg("params_json"), py::arg("device"),
           py::arg("threads"), py::arg("plugin_dirs"), py::arg("max_episode_steps"), py::arg("final_observations"))
      .def("reset", &PyVectorEnv::reset, py::arg("seed"))
      .def("reset_from_states", &PyVectorEnv::reset_from_states, py::arg("states"))
      .def("step", &PyVectorEnv::step, py::arg("actions"))
      .def("legal_actions_mask", &PyVectorEnv::legal_actions_mask)
      .def("current_player", &PyVectorEnv::current_player)
      .def("random_actions", &PyVectorEnv::random_actions)
      .def("states", &PyVectorEnv::states)
      .def_property_readonly("num_envs", [](const PyVectorEnv& e) { return e.env().count(); })
      .def_property_readonly("num_actions", [](const PyVectorEnv& e) { return e.env().action_count(); })
      .def_property_readonly("num_players", [](const PyVectorEnv& e) { return e.env().player_count(); })
      .def_property_readonly("observation_shape", [](const PyVectorEnv& e) { return tuple_of(e.env().observation_shape()); })
      .def_property_readonly("observation_dtype", [](const PyVectorEnv& e) { return e.observation_dtype(); })
      .def_property_readonly("device", &PyVectorEnv::device)
      .def_property_readonly("max_episode_steps", [](const PyVectorEnv& e) { return e.env().max_episode_steps(); })
      .def_property_readonly("final_observations", [](const PyVectorEnv& e) { return e.env().final_observations(); })
      .def_property_readonly("state_size", [](const PyVectorEnv& e) { return e.game_state_size(); });
}

} // namespace gsdk::python
