// child_process_test.cpp - the runner that gives each conformance check a process of its own: what the
// function returns comes back; a crash, an abort, an exit and a hang are told apart (the hang killed at its
// time limit together with a process it started); what the child prints stays out of our output but its
// tail is kept; and no child is left behind.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "conformance/child_process.hpp"

namespace {

using gsdk::host::conformance::ChildRun;
using gsdk::host::conformance::describe_ending;
using gsdk::host::conformance::run_in_child;

// Whether process `pid` has ended (gone, or a zombie its new parent has not reaped yet).
bool ended(pid_t pid) {
  if (kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string skip, state;
  stat >> skip >> skip >> state; // pid, (name), state; test processes' names have no spaces
  return state == "Z" || state == "X";
}

// No child of this process is left to wait for (none running, no zombie).
void expect_no_children() {
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(ChildProcess, ReturnsWhatTheFunctionReturnsAndKeepsItsOutputApart) {
  const ChildRun run = run_in_child(
      [] {
        std::printf("chatter on stdout\n");
        std::fprintf(stderr, "and on stderr\n");
        return std::string("{\"answer\": 42}");
      },
      10);
  EXPECT_EQ(run.end, ChildRun::End::returned);
  EXPECT_EQ(run.result, "{\"answer\": 42}");
  EXPECT_NE(run.output_tail.find("chatter on stdout"), std::string::npos) << run.output_tail;
  EXPECT_NE(run.output_tail.find("and on stderr"), std::string::npos) << run.output_tail;
  expect_no_children();
}

TEST(ChildProcess, ACrashIsReportedWithItsSignal) {
  const ChildRun run = run_in_child(
      []() -> std::string {
        std::printf("about to crash\n");
        std::fflush(stdout);
        std::raise(SIGSEGV);
        return "unreachable";
      },
      10);
  EXPECT_EQ(run.end, ChildRun::End::signalled);
  EXPECT_EQ(run.signal, SIGSEGV);
  EXPECT_EQ(describe_ending(run, 10),
            "killed by signal 11 (Segmentation fault); its output ended with: about to crash");
  expect_no_children();
}

TEST(ChildProcess, AnAbortAndAnExitAreReported) {
  const ChildRun aborted = run_in_child([]() -> std::string { std::abort(); }, 10);
  EXPECT_EQ(aborted.end, ChildRun::End::signalled);
  EXPECT_EQ(describe_ending(aborted, 10), "killed by signal 6 (Aborted)");
  const ChildRun exited = run_in_child([]() -> std::string { std::exit(3); }, 10);
  EXPECT_EQ(exited.end, ChildRun::End::exited);
  EXPECT_EQ(describe_ending(exited, 10), "exited with status 3 before reporting a result");
  expect_no_children();
}

TEST(ChildProcess, AHangIsKilledAtItsTimeLimitWithWhatItStarted) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const auto start = std::chrono::steady_clock::now();
  const ChildRun run = run_in_child(
      [&]() -> std::string {
        // A grandchild in the same process group reports its pid, then both wait forever.
        const pid_t grandchild = fork();
        if (grandchild == 0)
          for (;;) pause();
        if (write(pipe_fds[1], &grandchild, sizeof grandchild) != sizeof grandchild) std::_Exit(9);
        for (;;) pause();
      },
      0.5);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.end, ChildRun::End::timed_out);
  EXPECT_EQ(describe_ending(run, 0.5), "timed out after 0.5 s");
  EXPECT_LT(seconds, 5.0);
  pid_t grandchild = 0;
  ASSERT_EQ(read(pipe_fds[0], &grandchild, sizeof grandchild), static_cast<ssize_t>(sizeof grandchild));
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  // The grandchild was killed with its group (init reaps it); give the kernel a moment to finish it.
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = ended(grandchild);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(gone) << "process " << grandchild << " outlived the timed-out check";
  expect_no_children();
}

} // namespace
