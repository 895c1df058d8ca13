// mpi_world_none.cpp - MpiWorld in a build without MPI: the world is this one process. A launcher that started
// several processes of such a build is refused at get(), because each one would run the whole job and write the
// same files.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "distribute/launch_environment.hpp"
#include "distribute/mpi_world.hpp"

namespace gsdk::host {
namespace {

[[noreturn]] void no_other_rank(const char* operation, int rank) {
  throw std::logic_error(std::string("MpiWorld::") + operation + ": a gsdk without MPI has no rank " +
                         std::to_string(rank) + " besides its own rank 0");
}

} // namespace

struct MpiWorld::Mpi {};

MpiWorld::MpiWorld(RankPlace place, std::unique_ptr<Mpi> mpi) : place_(std::move(place)), mpi_(std::move(mpi)) {}

MpiWorld::~MpiWorld() = default;

MpiWorld& MpiWorld::get() {
  static const std::unique_ptr<MpiWorld> world = make();
  return *world;
}

std::unique_ptr<MpiWorld> MpiWorld::make() {
  const LaunchEnvironment environment = read_launch_environment(std::getenv);
  if (environment.several_processes()) throw MpiWorldError(refusal_without_mpi(environment));
  RankPlace one_process;
  one_process.host = this_host_name();
  return std::unique_ptr<MpiWorld>(new MpiWorld(std::move(one_process), nullptr));
}

std::string MpiWorld::broadcast(const std::string& from_root) {
  return from_root;
}

std::vector<std::string> MpiWorld::gather(const std::string& mine) {
  return {mine};
}

void MpiWorld::send(int to, int, std::string_view, std::size_t) {
  no_other_rank("send", to);
}

std::optional<int> MpiWorld::waiting_sender(int) {
  return std::nullopt;
}

std::string MpiWorld::receive(int from, int) {
  no_other_rank("receive", from);
}

void MpiWorld::abort(int status) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(status);
}

// One process has no other rank to leave waiting: it ends with its own exit status.
void MpiWorld::abort_at_exit(int status, std::string reason) {
  abort_status_ = status;
  abort_reason_ = std::move(reason);
}

} // namespace gsdk::host
