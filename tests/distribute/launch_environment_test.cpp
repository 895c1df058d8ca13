// launch_environment_test.cpp - reading how a launcher started this process from a table of fake variables:
// which variables count, strict values, and the refusal of a build without MPI.
#include "distribute/launch_environment.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "distribute/mpi_world.hpp"

namespace gsdk::host {
namespace {

LaunchEnvironment read_from(const std::map<std::string, std::string>& variables) {
  return read_launch_environment([&](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  });
}

TEST(LaunchEnvironment, NoLauncherVariableIsOneProcessNobodyLaunched) {
  const LaunchEnvironment environment = read_from({{"PATH", "/usr/bin"}, {"OMPI_MCA_btl", "self"}});
  EXPECT_FALSE(environment.launched());
  EXPECT_FALSE(environment.several_processes());
  EXPECT_EQ(environment.ranks, 0);
  EXPECT_EQ(environment.rank, -1);
}

TEST(LaunchEnvironment, OpenMpiCountAndRank) {
  const LaunchEnvironment environment =
      read_from({{"OMPI_COMM_WORLD_SIZE", "3"}, {"OMPI_COMM_WORLD_RANK", "2"}, {"PMIX_RANK", "2"}});
  EXPECT_TRUE(environment.launched());
  EXPECT_TRUE(environment.several_processes());
  EXPECT_EQ(environment.ranks, 3);
  EXPECT_EQ(environment.rank, 2);
  EXPECT_EQ(environment.evidence, "OMPI_COMM_WORLD_SIZE=3, OMPI_COMM_WORLD_RANK=2, PMIX_RANK=2");
}

TEST(LaunchEnvironment, OneProcessOfALauncherIsLaunchedButNotSeveral) {
  const LaunchEnvironment environment = read_from({{"OMPI_COMM_WORLD_SIZE", "1"}, {"OMPI_COMM_WORLD_RANK", "0"}});
  EXPECT_TRUE(environment.launched());
  EXPECT_FALSE(environment.several_processes());
}

TEST(LaunchEnvironment, MpichAndMvapichCounts) {
  EXPECT_EQ(read_from({{"PMI_SIZE", "4"}, {"PMI_RANK", "0"}}).ranks, 4);
  EXPECT_EQ(read_from({{"MV2_COMM_WORLD_SIZE", "5"}}).ranks, 5);
}

// PMIx launchers give the rank alone: a rank above zero still tells of several processes.
TEST(LaunchEnvironment, PmixRankAloneAboveZeroIsSeveralProcesses) {
  EXPECT_TRUE(read_from({{"PMIX_RANK", "1"}}).several_processes());
  const LaunchEnvironment first = read_from({{"PMIX_RANK", "0"}});
  EXPECT_TRUE(first.launched());
  EXPECT_FALSE(first.several_processes());
}

TEST(LaunchEnvironment, ValuesThatAreNotCountsAreNamed) {
  for (const char* value : {"", "three", "3x", "-1", "0", "99999999999"}) {
    try {
      read_from({{"OMPI_COMM_WORLD_SIZE", value}});
      ADD_FAILURE() << "OMPI_COMM_WORLD_SIZE='" << value << "' was accepted";
    } catch (const MpiWorldError& error) {
      EXPECT_NE(std::string(error.what()).find("OMPI_COMM_WORLD_SIZE='" + std::string(value) + "'"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_THROW(read_from({{"PMIX_RANK", "-2"}}), MpiWorldError);
  EXPECT_EQ(read_from({{"PMIX_RANK", "0"}}).rank, 0);
}

TEST(LaunchEnvironment, RefusalWithoutMpiSaysWhatWouldHappenAndHowToRunInstead) {
  const std::string refusal = refusal_without_mpi(read_from({{"OMPI_COMM_WORLD_SIZE", "3"}}));
  EXPECT_NE(refusal.find("this gsdk was built without MPI; 3 processes would each run the whole job"),
            std::string::npos)
      << refusal;
  EXPECT_NE(refusal.find("OMPI_COMM_WORLD_SIZE=3"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("-DGSDK_MPI=ON"), std::string::npos) << refusal;
  EXPECT_NE(refusal_without_mpi(read_from({{"PMIX_RANK", "4"}})).find("several processes would each run"),
            std::string::npos);
}

TEST(LaunchEnvironment, ThisHostHasAName) {
  EXPECT_FALSE(this_host_name().empty());
}

} // namespace
} // namespace gsdk::host
