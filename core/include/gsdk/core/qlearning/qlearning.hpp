// qlearning.hpp - multi-agent tabular Q-learning of any game with the gsdk.environment.v1 table, on CPU
// threads (the plugin's batch trainer, or the generic one over the per-state table) or CUDA devices.
//
// The run follows sdk/include/gsdk/qlearning/semantics.hpp, so its result is a function of the game,
// its parameters and these settings alone: not of threads, devices or how the run was cut (episodes are
// run in chunks, environments in ranges, and every random draw is keyed by environment, agent and
// episode). Atomic updates on CUDA are the one exception, and say so.
//
// Chunks are sized by time (about half a second each), so a stop request is honoured within one chunk and
// progress flows during long runs. Between chunks every table holds the same episodes, so what a run has
// trained (QLearningProgress) can be saved there and handed to a later job of the same game, parameters and
// settings, which trains only the rest and ends with the result an uninterrupted run gives.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"

namespace gsdk::core {

struct QLearningSettings {
  uint64_t seed = 1;
  uint32_t environments = 1;
  uint32_t episodes = 100;
  float alpha = 0.5f;
  float gamma = 0.9f;
  // Episode k explores with probability max(epsilon_end, epsilon_start * epsilon_decay^k).
  double epsilon_start = 1.0;
  double epsilon_end = 0.0;
  double epsilon_decay = 0.99;
  bool first_max_ties = false; // the original lab's tie-break (the east-wall trap)
  bool atomic_updates = false; // CUDA only: racing atomic adds
  bool shared_table = false;   // one table for every environment
  uint32_t test_episodes = 10; // greedy (epsilon 0, no learning) episodes after training
};

// One episode's counters summed over environments (GSDK_QL_STAT_*), or several episodes' sums.
struct EpisodeTotals {
  uint64_t successes = 0;
  uint64_t failures = 0;
  uint64_t agent_steps = 0;
  uint64_t steps = 0;        // summed over environments
  uint64_t agent_starts = 0; // agents x environments (x episodes)

  double success_rate() const { return agent_starts ? static_cast<double>(successes) / agent_starts : 0.0; }
  void add(const EpisodeTotals& o);
};

// What a job has trained at a chunk boundary: enough to go on exactly.
struct QLearningProgress {
  std::vector<EpisodeTotals> episodes; // per training episode done
  std::vector<float> tables;           // as QLearningOutcome::tables
  std::vector<uint64_t> visits;        // as QLearningOutcome::visits: empty unless counted
  double wall_seconds = 0;             // of training, over every job that worked on it
  double device_milliseconds = 0;
};

struct QLearningJob {
  QLearningSettings settings;
  unsigned cpu_threads = 0;      // used when no CUDA device is given
  std::vector<int> cuda_devices; // environments are split between them
  bool force_generic = false;    // the core's trainer over the per-state table, even when a batch table exists
  bool count_visits = false;     // per-state visit counts (for the policy picture)
  // When raised, training ends after the chunk of episodes under way; the reach evaluation then runs on the
  // tables as they are, and the greedy test is skipped (the run is partial, and the test could be long).
  const StopRequest* stop = nullptr;
  // Training an earlier job did (a checkpoint): its tables, visits and episodes are taken as they are and
  // training goes on from there. Throws std::invalid_argument when it does not fit the job.
  const QLearningProgress* resume = nullptr;
  // Called at a chunk boundary, from the calling thread, when snapshot_seconds have passed since the job began
  // or since the last call (e.g. to save a checkpoint); an exception it throws ends the job with that error.
  std::function<void(const QLearningProgress&)> on_snapshot;
  double snapshot_seconds = 60;
  double chunk_seconds = 0.5; // the training time a chunk aims at
};

// How well a table's greedy policy (ties to the lowest action) does from every start state.
struct GreedyReach {
  uint32_t starts = 0;    // start states
  uint32_t reachable = 0; // ... from which some path reaches a positive reward
  uint32_t reached = 0;   // ... of those, where the greedy path does (it ends there rather than cycling)
  double rate() const { return reachable ? static_cast<double>(reached) / reachable : 1.0; }
};

// The greedy-reach evaluation of a game's tables: the environment's transitions and which start states
// can reach a positive reward at all are worked out once; each table then costs one pass over the states.
class GreedyReachEvaluator {
public:
  explicit GreedyReachEvaluator(const GameInstance& game); // throws std::invalid_argument without an environment
  GreedyReach evaluate(const float* table) const;

private:
  struct Move {
    uint32_t next;
    int8_t outcome; // 1: ends with a positive reward, -1: ends otherwise, 0: goes on
  };
  uint32_t actions_ = 0;
  std::vector<uint32_t> starts_;
  std::vector<Move> moves_;   // states x actions, for states agents can stand on
  std::vector<uint8_t> good_; // per state: some path reaches a positive reward
};

struct QLearningOutcome {
  uint32_t states = 0, actions = 0, agents = 0;
  std::vector<EpisodeTotals> episodes; // training, per episode (resumed ones included)
  EpisodeTotals test;                  // all test episodes together (none when stopped)
  std::vector<float> tables;           // one table per environment (one when shared), states x actions each
  std::vector<uint64_t> visits;        // per state, summed over environments (when counted)
  std::vector<GreedyReach> reach;      // per table
  double wall_seconds = 0;             // training only, over every job that worked on it
  double device_milliseconds = 0;      // training kernels, likewise
  uint64_t agent_steps = 0;            // training, resumed episodes included
  std::string engine;                  // "batch" or "generic"
  std::string device;                  // "cpu" or "cuda"
  std::string error;                   // empty when the whole run finished
  bool stopped = false;                // the stop request ended training early: `episodes` holds those done

  std::string digest() const;
  // What training has done, to save and resume (tables and visits copied).
  QLearningProgress progress() const;
};

// Called after each episode of training, in order, from the calling thread.
using EpisodeFn = std::function<void(uint32_t episode, const EpisodeTotals& totals)>;

// Throws std::invalid_argument for settings or games that cannot run; failures while running come back
// in QLearningOutcome::error with what finished.
QLearningOutcome run_qlearning(const GameInstance& game, const QLearningJob& job, const EpisodeFn& on_episode = {});

// Episode thresholds for episodes [first, first + count): explore when a uniform 32-bit draw is below.
std::vector<uint32_t> explore_thresholds(const QLearningSettings& settings, uint32_t first, uint32_t count);

} // namespace gsdk::core
