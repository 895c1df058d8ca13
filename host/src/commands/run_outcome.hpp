// run_outcome.hpp - what `gsdk run`, `gsdk merge` and `gsdk perft` under mpirun share about ending a run: the exit
// status of a run whose results are saved, said on stderr, and a run as one rank of an MPI job with whatever it
// throws turned into an exit status, said once (rank 0) or with the rank in front.
#pragma once

#include <optional>
#include <string>

#include "algorithms/run_experiment.hpp"
#include "distribute/mpi_world.hpp"

namespace gsdk::host {

// kExitOk for a complete run; else says what went wrong (an interrupted run: by which signal, and how to resume)
// and returns 1, or 128 + the signal.
int run_exit_status(const ExperimentRun& run, const std::string& out);

// run_as_rank (distribute/ranked_run.hpp): rank 0's merged run, or nullopt with `exit_status` set: 0 on the other
// ranks when all went well, 2 for refusals and bad input, 1 for a failure.
std::optional<ExperimentRun> run_as_rank_or_say(const ExperimentConfig& config, const PluginCatalog& catalog,
                                                const RunOptions& options, MpiWorld& world, int& exit_status);

} // namespace gsdk::host
