// mpi_world_none_test.cpp - MpiWorld of a build without MPI (mpi_world_none.cpp, compiled into this test in every
// build): one process, and a refusal when a launcher's variables say it started several.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "distribute/mpi_world.hpp"

namespace gsdk::host {
namespace {

// The variables an `mpirun -np 3` would set, for the life of one test.
class FakeLauncher {
public:
  FakeLauncher(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~FakeLauncher() { unsetenv(name_); }
  FakeLauncher(const FakeLauncher&) = delete;
  FakeLauncher& operator=(const FakeLauncher&) = delete;

private:
  const char* name_;
};

// The world is made once per process and a refusal leaves none made: the refusals come before the cases that make it.
TEST(MpiWorldWithoutMpi, RefusesToBeOneOfSeveralProcesses) {
  const FakeLauncher size("OMPI_COMM_WORLD_SIZE", "3");
  try {
    MpiWorld::get();
    FAIL() << "a build without MPI ran as one of 3 processes";
  } catch (const MpiWorldError& error) {
    EXPECT_NE(
        std::string(error.what()).find("this gsdk was built without MPI; 3 processes would each run the whole job"),
        std::string::npos)
        << error.what();
  }
}

TEST(MpiWorldWithoutMpi, RefusesARankAboveZero) {
  const FakeLauncher rank("PMIX_RANK", "1");
  EXPECT_THROW(MpiWorld::get(), MpiWorldError);
}

TEST(MpiWorldWithoutMpi, OneProcessOfALauncherRuns) {
  const FakeLauncher size("OMPI_COMM_WORLD_SIZE", "1");
  EXPECT_EQ(MpiWorld::get().place().ranks, 1);
}

TEST(MpiWorldWithoutMpi, IsOneProcessWhoseTextsStayHome) {
  MpiWorld& world = MpiWorld::get();
  EXPECT_EQ(world.place().rank, 0);
  EXPECT_EQ(world.place().ranks, 1);
  EXPECT_EQ(world.place().local_rank, 0);
  EXPECT_EQ(world.place().local_ranks, 1);
  EXPECT_FALSE(world.place().host.empty());
  EXPECT_FALSE(world.distributed());
  EXPECT_EQ(world.broadcast("config"), "config");
  EXPECT_EQ(world.gather("mine"), std::vector<std::string>{"mine"});
  EXPECT_FALSE(world.waiting_sender(5));
  EXPECT_THROW(world.send(1, 5, "text"), std::logic_error);
  EXPECT_THROW(world.receive(1, 5), std::logic_error);
}

} // namespace
} // namespace gsdk::host
