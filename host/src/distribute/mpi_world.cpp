// mpi_world.cpp - MpiWorld over MPI (a build with GSDK_HAVE_MPI): MPI initialised once, when a launcher started
// this process, with MPI_THREAD_MULTIPLE (rank 0 serves chunk requests on a thread of its own while its main thread
// works); the node's ranks from an MPI_COMM_TYPE_SHARED split; finalised at exit, or the whole job aborted where a
// rank left it midway.
#include "distribute/mpi_world.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "distribute/launch_environment.hpp"
#include "report/log.hpp"

namespace gsdk::host {
namespace {

constexpr int kGatherTag = 1;
static_assert(kGatherTag <= MpiWorld::kLastReservedTag);

std::string thread_level_name(int level) {
  switch (level) {
  case MPI_THREAD_SINGLE:
    return "MPI_THREAD_SINGLE";
  case MPI_THREAD_FUNNELED:
    return "MPI_THREAD_FUNNELED";
  case MPI_THREAD_SERIALIZED:
    return "MPI_THREAD_SERIALIZED";
  case MPI_THREAD_MULTIPLE:
    return "MPI_THREAD_MULTIPLE";
  default:
    return "thread level " + std::to_string(level);
  }
}

} // namespace

struct MpiWorld::Mpi {
  MPI_Comm node = MPI_COMM_NULL; // the ranks of this node
};

MpiWorld::MpiWorld(RankPlace place, std::unique_ptr<Mpi> mpi) : place_(std::move(place)), mpi_(std::move(mpi)) {}

MpiWorld::~MpiWorld() {
  if (!mpi_) return;
  if (abort_status_) {
    log_line(LogLevel::error, abort_reason_ + ": ending every rank of the job (MPI_Abort, status " +
                                  std::to_string(*abort_status_) + ")");
    MPI_Abort(MPI_COMM_WORLD, *abort_status_);
  }
  MPI_Comm_free(&mpi_->node);
  MPI_Finalize();
}

MpiWorld& MpiWorld::get() {
  static const std::unique_ptr<MpiWorld> world = make();
  return *world;
}

std::unique_ptr<MpiWorld> MpiWorld::make() {
  const LaunchEnvironment environment = read_launch_environment(std::getenv);
  if (!environment.launched()) {
    RankPlace one_process;
    one_process.host = this_host_name();
    return std::unique_ptr<MpiWorld>(new MpiWorld(std::move(one_process), nullptr));
  }

  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  auto mpi = std::make_unique<Mpi>();
  RankPlace place;
  MPI_Comm_rank(MPI_COMM_WORLD, &place.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &place.ranks);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, place.rank, MPI_INFO_NULL, &mpi->node);
  MPI_Comm_rank(mpi->node, &place.local_rank);
  MPI_Comm_size(mpi->node, &place.local_ranks);
  place.host = this_host_name();
  // Made before the checks below, so that a refusal finalises MPI on its way out. Every rank meets the same
  // refusals, so each one exits on its own, none waiting for another.
  std::unique_ptr<MpiWorld> world(new MpiWorld(std::move(place), std::move(mpi)));
  if (provided < MPI_THREAD_MULTIPLE)
    throw MpiWorldError("the MPI library gives " + thread_level_name(provided) +
                        ", but gsdk needs MPI_THREAD_MULTIPLE (rank 0 hands out work on a thread of its own while it "
                        "works): use an MPI built with thread support, such as Debian's OpenMPI");
  if (environment.ranks > 1 && world->place_.ranks != environment.ranks)
    throw MpiWorldError("the launcher started " + std::to_string(environment.ranks) + " processes (" +
                        environment.evidence + "), but MPI sees " + std::to_string(world->place_.ranks) +
                        ": this gsdk's MPI is not the launcher's (an mpirun of another MPI?)");
  return world;
}

std::string MpiWorld::broadcast(const std::string& from_root) {
  if (!distributed()) return from_root;
  std::uint64_t length = from_root.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::string text = place_.rank == 0 ? from_root : std::string(length, '\0');
  for (std::size_t offset = 0; offset < length; offset += kPieceBytes) {
    const std::size_t bytes = std::min<std::size_t>(kPieceBytes, length - offset);
    MPI_Bcast(text.data() + offset, static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  return text;
}

std::vector<std::string> MpiWorld::gather(const std::string& mine) {
  if (!distributed()) return {mine};
  if (place_.rank != 0) {
    send(0, kGatherTag, mine);
    return {};
  }
  std::vector<std::string> texts{mine};
  for (int rank = 1; rank < place_.ranks; ++rank) texts.push_back(receive(rank, kGatherTag));
  return texts;
}

void MpiWorld::send(int to, int tag, std::string_view text, std::size_t piece_bytes) {
  if (!mpi_ || to == place_.rank || to < 0 || to >= place_.ranks || piece_bytes == 0 || piece_bytes > kPieceBytes)
    throw std::logic_error("MpiWorld::send: rank " + std::to_string(place_.rank) + " of " +
                           std::to_string(place_.ranks) + " cannot send to rank " + std::to_string(to) +
                           " in pieces of " + std::to_string(piece_bytes) + " bytes");
  const std::uint64_t length = text.size();
  MPI_Send(&length, 1, MPI_UINT64_T, to, tag, MPI_COMM_WORLD);
  for (std::size_t offset = 0; offset < text.size(); offset += piece_bytes) {
    const std::size_t bytes = std::min(piece_bytes, text.size() - offset);
    MPI_Send(text.data() + offset, static_cast<int>(bytes), MPI_BYTE, to, tag, MPI_COMM_WORLD);
  }
}

std::optional<int> MpiWorld::waiting_sender(int tag) {
  if (!mpi_) return std::nullopt;
  int waiting = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &waiting, &status);
  if (!waiting) return std::nullopt;
  return status.MPI_SOURCE;
}

std::string MpiWorld::receive(int from, int tag) {
  if (!mpi_ || from == place_.rank || from < 0 || from >= place_.ranks)
    throw std::logic_error("MpiWorld::receive: rank " + std::to_string(place_.rank) + " of " +
                           std::to_string(place_.ranks) + " cannot receive from rank " + std::to_string(from));
  std::uint64_t length = 0;
  MPI_Recv(&length, 1, MPI_UINT64_T, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::string text(length, '\0');
  for (std::size_t offset = 0; offset < length;) {
    MPI_Status status;
    MPI_Probe(from, tag, MPI_COMM_WORLD, &status);
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    if (bytes <= 0 || static_cast<std::size_t>(bytes) > length - offset)
      throw std::runtime_error("rank " + std::to_string(from) + " sent a piece of " + std::to_string(bytes) +
                               " bytes where " + std::to_string(length - offset) + " of its text were left");
    MPI_Recv(text.data() + offset, bytes, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    offset += static_cast<std::size_t>(bytes);
  }
  return text;
}

void MpiWorld::abort(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  if (mpi_) MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

void MpiWorld::abort_at_exit(int status, std::string reason) {
  abort_status_ = status;
  abort_reason_ = std::move(reason);
}

} // namespace gsdk::host
