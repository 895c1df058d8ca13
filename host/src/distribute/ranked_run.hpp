// ranked_run.hpp - one experiment run by the ranks of an MPI job (`mpirun -np N gsdk run CONFIG`): rank 0 hands
// out chunks of the run's blocks as ranks ask (chunk_exchange.hpp), every rank runs its chunks as parts on its
// share of its node's devices (rank_devices.hpp), rank 0 merges what they complete, saves the checkpoint, and alone
// makes the results (parts_merge.hpp), which are one process's, digest included.
//
// A time bound (an NMCS or NRPA search's time_seconds) is the job's, on one clock (job_clock.hpp): each chunk ends by
// the job's deadline, rank 0 hands out none after it, and the job then ends complete, as one process at its time
// limit, with what the chunks found (not reproducible, as the results say). A stop (Ctrl-C reaches every rank through
// mpirun) ends the job with what the finished chunks completed ("interrupted"); a chunk that fails ends it with an
// error naming the rank and the blocks it held ("incomplete"). A checkpoint lists the finished blocks, so a job
// resumes under any number of ranks.
#pragma once

#include <optional>

#include "algorithms/run_experiment.hpp"
#include "distribute/mpi_world.hpp"

namespace gsdk::host {

// Thrown alike on every rank when the ranks cannot run the job together (another config, plugin or seed on one of
// them, an algorithm that cannot be spread, a checkpoint of another run): rank 0 says why, exit status 2.
class RankRefusal : public ConfigError {
public:
  using ConfigError::ConfigError;
};

// Every rank calls it with its own config (the same experiment) and options (`checkpoint`, `plot` and `progress`
// matter on rank 0 only). Rank 0 gets the merged run; the others get nullopt.
std::optional<ExperimentRun> run_as_rank(const ExperimentConfig& config, const PluginCatalog& catalog,
                                         const RunOptions& options, MpiWorld& world);

} // namespace gsdk::host
