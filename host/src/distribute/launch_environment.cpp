// launch_environment.cpp - the launcher variables read strictly: a value that is not a whole number is a broken
// environment worth naming, not a reason to run as one process.
#include "distribute/launch_environment.hpp"

#include <unistd.h>

#include <charconv>
#include <climits>
#include <string_view>

#include "distribute/mpi_world.hpp"

namespace gsdk::host {
namespace {

constexpr const char* kCountVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"};
constexpr const char* kRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK"};
// No launcher starts more processes than this; a larger value is a corrupt variable.
constexpr int kMostProcesses = 1 << 24;

int parse_whole_number(const char* name, std::string_view value, int least) {
  int number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() || number < least || number > kMostProcesses)
    throw MpiWorldError("environment variable " + std::string(name) + "='" + std::string(value) +
                        "': expected a whole number from " + std::to_string(least) + " to " +
                        std::to_string(kMostProcesses) + ", as an MPI launcher sets it");
  return number;
}

void note(std::string& evidence, const char* name, const char* value) {
  if (!evidence.empty()) evidence += ", ";
  evidence += std::string(name) + "=" + value;
}

} // namespace

LaunchEnvironment read_launch_environment(const EnvironmentLookup& lookup) {
  LaunchEnvironment environment;
  for (const char* name : kCountVariables) {
    const char* value = lookup(name);
    if (value == nullptr) continue;
    note(environment.evidence, name, value);
    if (environment.ranks == 0) environment.ranks = parse_whole_number(name, value, 1);
  }
  for (const char* name : kRankVariables) {
    const char* value = lookup(name);
    if (value == nullptr) continue;
    note(environment.evidence, name, value);
    if (environment.rank < 0) environment.rank = parse_whole_number(name, value, 0);
  }
  return environment;
}

std::string this_host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

std::string refusal_without_mpi(const LaunchEnvironment& environment) {
  const std::string processes =
      environment.ranks > 1 ? std::to_string(environment.ranks) + " processes" : "several processes";
  return "this gsdk was built without MPI; " + processes +
         " would each run the whole job (an MPI launcher started this one: " + environment.evidence +
         "). Build gsdk with MPI (-DGSDK_MPI=ON, OpenMPI: libopenmpi-dev openmpi-bin), run one process without "
         "mpirun, or split the run into shards (gsdk run CONFIG --shard K/N) for a batch scheduler";
}

} // namespace gsdk::host
