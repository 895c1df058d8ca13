// typed_driver.hpp - the base of every algorithm driver, typed on its settings. Algorithm's entries take the
// settings type-erased (const AlgorithmSettings&: the config reads every algorithm's table through one interface,
// config/algorithm_table.hpp, and the host hands them back without knowing their type); DriverOf<Settings> turns
// them back into the driver's own type in one place, so that a driver's code only ever sees its settings typed.
#pragma once

#include <memory>
#include <string>

#include "algorithms/algorithm.hpp"
#include "config/experiment_config.hpp"

namespace gsdk::host {

template <typename Settings> class DriverOf : public Algorithm {
public:
  std::shared_ptr<const AlgorithmSettings> read(const ConfigSection& section, const ConfigSection* output) const final {
    return read_settings(section, output);
  }
  RunFiles files(const ExperimentConfig& config) const final { return files_for(config, typed(*config.settings)); }
  DeviceNeeds device_needs(const AlgorithmSettings& settings, const core::PluginTables& tables) const final {
    return device_needs_for(typed(settings), tables);
  }
  double time_bound_seconds(const AlgorithmSettings& settings) const final { return time_bound_for(typed(settings)); }
  ChunkFloor smallest_chunk(const AlgorithmSettings& settings) const final {
    return smallest_chunk_for(typed(settings));
  }
  std::string parts_refusal(const AlgorithmSettings& settings, bool ranks) const final {
    return parts_refusal_for(typed(settings), ranks);
  }
  std::unique_ptr<AlgorithmOutcome> run(const RunContext& context) const final {
    return run_with(context, typed(context.settings));
  }

  // What a driver defines, as Algorithm's entries of the same meaning (algorithm.hpp), its settings typed.
  virtual std::shared_ptr<const Settings> read_settings(const ConfigSection& section,
                                                        const ConfigSection* output) const = 0;
  virtual RunFiles files_for(const ExperimentConfig& /*config*/, const Settings& /*settings*/) const { return {}; }
  virtual DeviceNeeds device_needs_for(const Settings& settings, const core::PluginTables& tables) const = 0;
  virtual double time_bound_for(const Settings& /*settings*/) const { return 0; }
  virtual ChunkFloor smallest_chunk_for(const Settings& /*settings*/) const { return {}; }
  virtual std::string parts_refusal_for(const Settings& /*settings*/, bool /*ranks*/) const { return ""; }
  virtual std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context, const Settings& settings) const = 0;

private:
  // The one cast. It is safe: the settings a driver is handed were made by its own read() (the config reads an
  // experiment's table with the driver its `algorithm` names, and the host hands them back to that same driver:
  // registry.hpp's driver_of), so they are a Settings.
  static const Settings& typed(const AlgorithmSettings& settings) { return static_cast<const Settings&>(settings); }
};

} // namespace gsdk::host
