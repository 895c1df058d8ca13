// mpi_test_main.cpp - the main of gsdk_distribute_tests, run under mpirun: every rank runs every test in the same
// order (the tests are collective), rank 0 prints GoogleTest's report, the other ranks print only their failures,
// each line naming its rank; a failure on any rank makes that rank, and so mpirun, exit non-zero.
#include <gtest/gtest.h>

#include <cstdio>

#include "distribute/mpi_world.hpp"

namespace {

class RankFailurePrinter : public testing::EmptyTestEventListener {
public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}

  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "rank %d: %s:%d: failure\n%s\n", rank_, result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.message());
  }

private:
  int rank_;
};

} // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rank = gsdk::host::MpiWorld::get().place().rank;
  if (rank != 0) {
    testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  return RUN_ALL_TESTS();
}
