// launch_environment.hpp - what the environment says about how this process was started: by an MPI launcher
// (mpirun, mpiexec, srun --mpi=pmix/pmi2), and as one of how many processes. gsdk reads it before touching MPI:
// a build with MPI initialises MPI only when a launcher started it (MPI_Init alone costs a plain `gsdk list` about
// 0.4 s), and a build without MPI refuses to be one of several processes, each of which would run the whole job.
#pragma once

#include <functional>
#include <string>

namespace gsdk::host {

// The variables launchers set: the process count (OMPI_COMM_WORLD_SIZE of Open MPI, PMI_SIZE of MPICH, Intel MPI
// and Slurm's PMI-2, MV2_COMM_WORLD_SIZE of MVAPICH2) and the rank (those launchers' *_RANK, and PMIX_RANK, the
// only one PMIx launchers such as Open MPI 5 and `srun --mpi=pmix` always set).
struct LaunchEnvironment {
  int ranks = 0;        // the process count a variable gives; 0 where none does
  int rank = -1;        // this process's rank a variable gives; -1 where none does
  std::string evidence; // the variables read, "NAME=value, ..."; empty where no launcher started this process

  bool launched() const { return !evidence.empty(); }
  // More than one process: a count above one, or a rank above zero where no count is given.
  bool several_processes() const { return ranks > 1 || rank > 0; }
};

// Reads a variable; nullptr where it is not set. std::getenv in gsdk, a table in tests.
using EnvironmentLookup = std::function<const char*(const char* name)>;

// Throws MpiWorldError (mpi_world.hpp) for a launcher variable that is not a whole number in range, naming it.
LaunchEnvironment read_launch_environment(const EnvironmentLookup& lookup);

// This node's name (gethostname), which is also what Open MPI gives as the processor name.
std::string this_host_name();

// The refusal of a gsdk built without MPI that a launcher started as one of several processes.
std::string refusal_without_mpi(const LaunchEnvironment& environment);

} // namespace gsdk::host
