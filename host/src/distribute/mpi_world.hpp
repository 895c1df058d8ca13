// mpi_world.hpp - this process's place in an MPI job (its rank, the number of ranks, its rank among the ranks of
// its node) and the texts the ranks exchange: a broadcast from rank 0, a gather to rank 0, and messages between two
// ranks. Texts are opaque here (JSON made by the algorithm drivers) and of any size: MPI counts are ints, so a text
// travels as its length and then pieces of at most 1 GiB.
//
// Built with MPI (GSDK_HAVE_MPI, mpi_world.cpp), MPI is initialised only when the environment says an MPI launcher
// started this process (launch_environment.hpp); otherwise, and in a build without MPI (mpi_world_none.cpp), the
// world is this one process.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gsdk::host {

// Why this process cannot take part in the job it was started for (a bad launcher environment, an MPI that cannot
// serve several threads, a build without MPI started as several processes): a usage error, exit status 2.
class MpiWorldError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct RankPlace {
  int rank = 0, ranks = 1;             // in the whole job
  int local_rank = 0, local_ranks = 1; // among the ranks of this node (which GPUs this rank takes)
  std::string host;                    // this node's name
};

class MpiWorld {
public:
  // Every text is sent in pieces of at most this many bytes (an MPI count is an int).
  static constexpr std::size_t kPieceBytes = std::size_t{1} << 30;
  // The tags MpiWorld's own messages use; users of send() and receive() take tags above it.
  static constexpr int kLastReservedTag = 1;

  // The world, made on the first call; a call that throws MpiWorldError leaves none made. MPI is initialised with
  // MPI_THREAD_MULTIPLE and finalised at exit.
  static MpiWorld& get();

  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;
  ~MpiWorld();

  const RankPlace& place() const { return place_; }
  bool distributed() const { return place_.ranks > 1; }

  // Collective (every rank calls it at the same point): rank 0's text, on every rank.
  std::string broadcast(const std::string& from_root);
  // Collective: on rank 0 every rank's text, by rank; elsewhere an empty vector.
  std::vector<std::string> gather(const std::string& mine);

  // Messages between two ranks, `to`/`from` another rank than this one and `tag` above kLastReservedTag. Texts from
  // one rank with one tag arrive in the order they were sent; one thread at a time sends or receives a given tag.
  void send(int to, int tag, std::string_view text, std::size_t piece_bytes = kPieceBytes);
  // The rank whose message with this tag is waiting to be received, without waiting; nullopt while none is.
  std::optional<int> waiting_sender(int tag);
  // The next text from that rank with this tag, waiting for it.
  std::string receive(int from, int tag);

  // Ends every rank of the job at once with this exit status (MPI_Abort); one process just exits.
  [[noreturn]] void abort(int status);
  // The job cannot end normally any more (a rank left a chunk exchange midway, and the others would wait for it
  // forever): at exit this process says why on stderr and ends every rank with this status instead of finalising MPI.
  void abort_at_exit(int status, std::string reason);

private:
  struct Mpi; // the MPI state of mpi_world.cpp; absent without MPI

  explicit MpiWorld(RankPlace place, std::unique_ptr<Mpi> mpi);
  static std::unique_ptr<MpiWorld> make();

  RankPlace place_;
  std::unique_ptr<Mpi> mpi_;
  std::optional<int> abort_status_;
  std::string abort_reason_;
};

} // namespace gsdk::host
