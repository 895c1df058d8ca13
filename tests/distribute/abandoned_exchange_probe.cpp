// abandoned_exchange_probe.cpp - run under mpirun by tests/distribute/abandoned_exchange.cmake: rank 1 leaves its
// chunk exchange midway through an exception, as a rank whose job failed would. The whole job must end at once with
// a failed run's status, rather than leave rank 0 waiting for rank 1's report (and rank 1 waiting in MPI_Finalize).
#include <chrono>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

#include "distribute/chunk_exchange.hpp"
#include "distribute/mpi_world.hpp"

int main() {
  using namespace gsdk::host;
  MpiWorld& world = MpiWorld::get();
  const int rank = world.place().rank;
  try {
    ChunkExchange::Chunk blocks(1000);
    std::iota(blocks.begin(), blocks.end(), 0);
    ChunkExchange exchange(world, blocks);
    std::string report;
    for (ChunkExchange::Chunk chunk = exchange.next(report); !chunk.empty(); chunk = exchange.next(report)) {
      if (rank == 1) throw std::runtime_error("rank 1 failed on block " + std::to_string(chunk.front()));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      report = "done";
    }
    exchange.finish();
    std::printf("rank %d finished every chunk\n", rank);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rank %d: %s\n", rank, error.what());
    return 1;
  }
}
