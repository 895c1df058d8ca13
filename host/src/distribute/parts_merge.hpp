// parts_merge.hpp - the end of a run spread over processes (`gsdk merge`, and rank 0 under mpirun): the parts'
// progress merged, then the algorithm's driver run on it with nothing left to run, so that the results and their
// digest are exactly those one process gives.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/run_experiment.hpp"

namespace gsdk::host {

// The progress of disjoint parts merged (`names` name them in messages; fewer names than parts are allowed); null
// progress (a part without work items saved none) is left out, and null comes back when all are. Throws
// CheckpointMismatch when two of them share work.
nlohmann::json merge_parts_progress(const Algorithm& driver, std::vector<nlohmann::json> progresses,
                                    const std::vector<std::string>& names);

// "2 MPI ranks: cuda device 0 (NVIDIA H200); cuda device 1 (NVIDIA H200)": how many parts of which `kind`, and
// the distinct devices they reported, in order (empty ones left out), for the merged run's report.
std::string parts_devices(size_t parts, const std::string& kind, const std::vector<std::string>& devices);

// Runs `config` on the merged progress: nothing is left to count, so it runs on one CPU thread, also on a machine
// without the GPUs the parts used. `options.resume` is set here.
ExperimentRun run_merged(ExperimentConfig config, const PluginCatalog& catalog, const nlohmann::json& merged,
                         RunOptions options);

} // namespace gsdk::host
