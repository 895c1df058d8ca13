// check_context.hpp - what a conformance check runs against: one loaded plugin under one set of
// parameters, the devices it may use, and a game instance of its own.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace gsdk::host::conformance {

// Which devices' paths to check: `cpu` skips every check that needs a GPU, `cuda` runs only those.
enum class DeviceFilter { cpu, cuda, all };

// One plugin under test, as `gsdk check` or the test suite prepared it. Each check's process (a fork of
// the one that prepared it) makes its own game instance from it.
struct CheckSubject {
  const LoadedPlugin* plugin = nullptr;
  std::vector<gsdk_param_value> parameters; // one per declared parameter (their strings owned by the preparer)
  DeviceFilter devices = DeviceFilter::all;
  std::vector<core::CudaDeviceInfo> gpus; // usable GPUs (empty: none)
  std::string no_gpu_reason;              // why there is none
};

class CheckContext {
public:
  // Throws std::invalid_argument (the plugin refused the parameters) or std::runtime_error.
  explicit CheckContext(const CheckSubject& subject);

  const CheckSubject& subject() const { return subject_; }
  const core::PluginTables& tables() const { return subject_.plugin->tables; }
  const LoadedPlugin& plugin() const { return *subject_.plugin; }
  const core::GameInstance& game() const { return *game_; }
  const gsdk_game& table() const { return *tables().game; }
  const gsdk_game_instance* handle() const { return game_->handle(); }
  // The first usable GPU (checks that use one run only when there is one).
  int gpu() const { return subject_.gpus.front().ordinal; }

  // The state's text for a message, quoted, cut to a readable length.
  std::string quote(const core::StateBlob& state) const;
  std::string quote(const void* state) const;

private:
  const CheckSubject& subject_;
  std::unique_ptr<core::GameInstance> game_;
};

} // namespace gsdk::host::conformance
