// qlearning.cpp - the Q-learning scheduler: episode chunks sized by time, environment ranges over CPU workers or
// CUDA devices, per-episode totals in order, resume and snapshots at chunk boundaries, the greedy test and the
// greedy-reach evaluation.
#include "gsdk/core/qlearning/qlearning.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/core/runtime/digest.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"
#include "gsdk/qlearning/train_cpu.hpp"
#include "qlearning/episode_chunks.hpp"
#include "runtime/work_queue.hpp"

namespace gsdk::core {

namespace {

// The per-state environment table as a trainer environment (the generic engine and the evaluation).
struct AbiEnvironment {
  const gsdk_environment* table;
  const gsdk_game_instance* instance;
  uint32_t states, actions, agents, limit;

  AbiEnvironment(const GameInstance& game)
      : table(game.tables().environment), instance(game.handle()), states(table->state_count(instance)),
        actions(table->action_count(instance)), agents(table->agent_count(instance)),
        limit(table->step_limit(instance)) {}

  uint32_t state_count() const { return states; }
  uint32_t action_count() const { return actions; }
  uint32_t agent_count() const { return agents; }
  uint32_t step_limit() const { return limit; }
  qlearning::Transition step(uint32_t state, uint32_t action) const {
    uint32_t next = 0;
    float reward = 0;
    int32_t terminal = 0;
    table->step(instance, state, action, &next, &reward, &terminal);
    if (next >= states)
      throw std::runtime_error(fmt::format("the environment stepped from state {} by action {} to state {}, beyond "
                                           "its {} states",
                                           state, action, next, states));
    return {next, reward, terminal != 0};
  }
};

std::vector<uint32_t> start_states(const GameInstance& game, uint32_t states) {
  const gsdk_environment& env = *game.tables().environment;
  std::vector<uint32_t> starts(env.start_states(game.handle(), nullptr, 0));
  env.start_states(game.handle(), starts.data(), static_cast<uint32_t>(starts.size()));
  if (starts.empty()) throw std::invalid_argument(fmt::format("game '{}' has no start states", game.game().name));
  for (uint32_t s : starts)
    if (s >= states)
      throw std::invalid_argument(
          fmt::format("game '{}' lists start state {} beyond its {} states", game.game().name, s, states));
  return starts;
}

// Environments [first, first + count) of the run, trained by one request.
struct Slice {
  uint32_t first = 0, count = 0;
};

class Trainer {
public:
  Trainer(const GameInstance& game, const QLearningJob& job, const AbiEnvironment& env, std::vector<uint32_t> starts)
      : game_(game), job_(job), env_(env), starts_(std::move(starts)) {}

  // Runs one chunk over every slice, in parallel; per-environment stats land in `stats`.
  void run(uint32_t first_episode, uint32_t episodes, const std::vector<uint32_t>& thresholds, float alpha,
           std::vector<float>& tables, std::vector<uint32_t>& stats, std::vector<uint64_t>* visits,
           double& device_milliseconds) {
    const QLearningSettings& s = job_.settings;
    const uint32_t environments = s.environments;
    std::vector<Slice> slices = cut(environments);
    WorkQueue work;
    work.total = slices.size();
    const unsigned workers = job_.cuda_devices.empty()
                                 ? std::min<unsigned>(job_.cpu_threads, static_cast<unsigned>(slices.size()))
                                 : static_cast<unsigned>(job_.cuda_devices.size());
    std::vector<std::vector<uint64_t>> slice_visits(visits ? slices.size() : 0);
    std::vector<double> milliseconds(workers, 0.0);
    run_workers(std::max(1u, workers), [&](unsigned w) {
      try {
        for (auto [i, end] = work.claim(1); i < end; std::tie(i, end) = work.claim(1)) {
          const Slice& slice = slices[i];
          gsdk_qlearning_request r{};
          r.header = {GSDK_TYPE_QLEARNING_REQUEST, sizeof r};
          r.seed = s.seed;
          r.first_environment = slice.first;
          r.environment_count = slice.count;
          r.first_episode = first_episode;
          r.episode_count = episodes;
          r.flags = (s.shared_table ? GSDK_QL_SHARED_TABLE : 0u) | (s.first_max_ties ? GSDK_QL_FIRST_MAX_TIES : 0u) |
                    (s.atomic_updates ? GSDK_QL_ATOMIC_UPDATES : 0u);
          r.alpha = alpha;
          r.gamma = s.gamma;
          r.explore_thresholds = thresholds.data();
          r.q_tables = tables.data() + (s.shared_table ? 0 : uint64_t{slice.first} * env_.states * env_.actions);
          r.episode_stats = stats.data() + uint64_t{slice.first} * episodes * GSDK_QL_STAT_COUNT;
          if (visits) {
            slice_visits[i].assign(uint64_t{slice.count} * env_.states, 0);
            r.visits = slice_visits[i].data();
          }
          if (job_.cuda_devices.empty())
            train_on_cpu(r);
          else
            milliseconds[w] += train_on_gpu(r, job_.cuda_devices[w]);
        }
      } catch (const std::exception& e) {
        work.fail(e.what());
      }
    });
    if (!work.error.empty()) throw std::runtime_error(work.error);
    for (double ms : milliseconds) device_milliseconds += ms;
    for (const auto& part : slice_visits)
      for (uint64_t i = 0; i < part.size(); ++i) (*visits)[i % env_.states] += part[i];
  }

private:
  // A shared table is one request; GPUs take one contiguous range each; CPU workers take small ranges.
  std::vector<Slice> cut(uint32_t environments) const {
    if (job_.settings.shared_table) return {Slice{0, environments}};
    const uint32_t parts = job_.cuda_devices.empty()
                               ? std::min(environments, std::max(1u, job_.cpu_threads) * 4)
                               : std::min<uint32_t>(environments, static_cast<uint32_t>(job_.cuda_devices.size()));
    std::vector<Slice> slices;
    for (uint32_t p = 0; p < parts; ++p) {
      const uint32_t first = static_cast<uint32_t>(uint64_t{environments} * p / parts);
      const uint32_t end = static_cast<uint32_t>(uint64_t{environments} * (p + 1) / parts);
      if (end > first) slices.push_back({first, end - first});
    }
    return slices;
  }

  void train_on_cpu(const gsdk_qlearning_request& r) const {
    if (job_.force_generic || !game_.tables().cpu_qlearning) {
      qlearning::train_cpu(env_, r, starts_);
      return;
    }
    call_plugin([&](char* error,
                    uint32_t size) { return game_.tables().cpu_qlearning->train(game_.handle(), &r, error, size); },
                [&] {
                  return fmt::format("{} CPU Q-learning of environments [{}, {})", game_.game().name,
                                     r.first_environment, r.first_environment + r.environment_count);
                });
  }

  double train_on_gpu(const gsdk_qlearning_request& r, int device) {
    const gsdk_cuda_qlearning& table = *game_.tables().cuda_qlearning;
    const uint64_t scratch_size = table.scratch_bytes(game_.handle(), &r);
    DeviceArena& arena = arena_for(device, scratch_size);
    const uint64_t mark = arena.mark();
    void* scratch = arena.allocate(scratch_size);
    CudaStream stream(device);
    double milliseconds = 0;
    const auto failure = call_entry([&](char* error, uint32_t size) {
      return table.train(game_.handle(), &r, device, stream.handle(), scratch, scratch_size, &milliseconds, error,
                         size);
    });
    arena.release_to(mark);
    if (failure)
      throw std::runtime_error(fmt::format("{} CUDA Q-learning of environments [{}, {}) on device {} failed: {}",
                                           game_.game().name, r.first_environment,
                                           r.first_environment + r.environment_count, device, failure->message));
    return milliseconds;
  }

  // One arena per device, grown when a request needs more (test runs and the first chunk differ).
  DeviceArena& arena_for(int device, uint64_t bytes) {
    std::lock_guard lock(arenas_mutex_);
    auto& arena = arenas_[device];
    if (!arena || arena->capacity() < bytes) {
      arena.reset();
      arena = std::make_unique<DeviceArena>(device, bytes + 4096);
    }
    return *arena;
  }

  const GameInstance& game_;
  const QLearningJob& job_;
  const AbiEnvironment& env_;
  const std::vector<uint32_t> starts_; // for the generic trainer, read once per run
  std::mutex arenas_mutex_;
  std::map<int, std::unique_ptr<DeviceArena>> arenas_;
};

// Refuses a run whose Q-tables and first chunk's statistics alone (a lower bound of what it allocates) do not fit
// in the host's free memory, or its share of the tables in a GPU's: MemoryRefusal, before anything is allocated.
void check_memory(const QLearningJob& job, const AbiEnvironment& env) {
  const QLearningSettings& s = job.settings;
  const uint64_t tables = s.shared_table ? 1 : s.environments;
  const uint64_t table_bytes = uint64_t{env.states} * env.actions * sizeof(float);
  const uint64_t stats_bytes = uint64_t{s.environments} * GSDK_QL_STAT_COUNT * sizeof(uint32_t);
  const std::string what = fmt::format("Q-learning of {} environments", s.environments);
  require_memory(tables * table_bytes + stats_bytes, available_host_memory(), "host", what,
                 fmt::format("{} Q-tables of {} states x {} actions, and {} bytes of statistics per environment",
                             tables, env.states, env.actions, GSDK_QL_STAT_COUNT * sizeof(uint32_t)));
  if (job.cuda_devices.empty()) return;
  const uint64_t device_tables = (tables + job.cuda_devices.size() - 1) / job.cuda_devices.size();
  for (int device : job.cuda_devices)
    require_memory(device_tables * table_bytes, cuda_free_memory(device), fmt::format("CUDA device {}", device), what,
                   fmt::format("{} Q-tables of {} x {} floats on each of {} devices", device_tables, env.states,
                               env.actions, job.cuda_devices.size()));
}

void check(const GameInstance& game, const QLearningJob& job, const AbiEnvironment& env) {
  const std::string name = game.game().name;
  const auto& t = game.tables();
  const QLearningSettings& s = job.settings;
  if (env.states == 0 || env.actions == 0 || env.agents == 0 || env.limit == 0)
    throw std::invalid_argument(fmt::format("game '{}' declares {} states, {} actions, {} agents and a step limit of "
                                            "{}; each must be at least 1",
                                            name, env.states, env.actions, env.agents, env.limit));
  if (env.actions > qlearning::kMaxActions)
    throw std::invalid_argument(fmt::format("game '{}' has {} actions; Q-learning supports at most {}", name,
                                            env.actions, qlearning::kMaxActions));
  if (s.environments == 0) throw std::invalid_argument("Q-learning needs at least one environment");
  if (s.episodes == 0) throw std::invalid_argument("Q-learning needs at least one episode");
  if (!job.cuda_devices.empty()) {
    if (job.force_generic) throw std::invalid_argument("the generic Q-learning engine runs on CPU threads only");
    if (!t.cuda_qlearning)
      throw std::invalid_argument(
          fmt::format("game '{}' (plugin {}) has no CUDA Q-learning table; run it on the CPU", name, t.path));
    if (s.shared_table && !s.atomic_updates)
      throw std::invalid_argument("a Q-table shared by all environments is updated by many GPU blocks at once: on "
                                  "CUDA it needs update = \"atomic\" (or run it on the CPU, which applies every "
                                  "update in order)");
  } else if (job.cpu_threads == 0) {
    throw std::invalid_argument("no CPU threads and no CUDA devices selected");
  }
  if (uint64_t{s.environments} * env.agents > UINT32_MAX || uint64_t{env.states} * env.actions > UINT32_MAX)
    throw std::invalid_argument("the run is too large: environments x agents and states x actions must fit 32 bits");
  check_memory(job, env);
}

std::vector<EpisodeTotals> totals_per_episode(const std::vector<uint32_t>& stats, uint32_t environments,
                                              uint32_t episodes, uint32_t agents) {
  std::vector<EpisodeTotals> totals(episodes);
  for (uint32_t e = 0; e < environments; ++e) {
    for (uint32_t k = 0; k < episodes; ++k) {
      const uint32_t* s = &stats[(uint64_t{e} * episodes + k) * GSDK_QL_STAT_COUNT];
      EpisodeTotals& t = totals[k];
      t.successes += s[GSDK_QL_STAT_SUCCESSES];
      t.failures += s[GSDK_QL_STAT_FAILURES];
      t.steps += s[GSDK_QL_STAT_STEPS];
      t.agent_steps += s[GSDK_QL_STAT_AGENT_STEPS];
      t.agent_starts += agents;
    }
  }
  return totals;
}

// Takes over what an earlier job trained, after checking that it fits this one.
void resume(QLearningOutcome& out, const QLearningProgress& p, const QLearningJob& job, uint32_t agents) {
  const QLearningSettings& s = job.settings;
  if (p.episodes.size() > s.episodes)
    throw std::invalid_argument(
        fmt::format("the resumed training has {} episodes, more than this run's {}", p.episodes.size(), s.episodes));
  if (p.tables.size() != out.tables.size())
    throw std::invalid_argument(
        fmt::format("the resumed training has {} table values, this run {}", p.tables.size(), out.tables.size()));
  if (job.count_visits && p.visits.size() != out.visits.size())
    throw std::invalid_argument(fmt::format("the resumed training has {} visit counts, this run counts {}",
                                            p.visits.size(), out.visits.size()));
  for (const EpisodeTotals& t : p.episodes)
    if (t.agent_starts != uint64_t{agents} * s.environments)
      throw std::invalid_argument(fmt::format("a resumed episode started {} agents, this run starts {} per episode",
                                              t.agent_starts, uint64_t{agents} * s.environments));
  out.episodes = p.episodes;
  out.tables = p.tables;
  if (job.count_visits) out.visits = p.visits;
  out.wall_seconds = p.wall_seconds;
  out.device_milliseconds = p.device_milliseconds;
  for (const EpisodeTotals& t : out.episodes) out.agent_steps += t.agent_steps;
}

// Hands what `out` has trained to `on_snapshot` without copying its tables (they can be large), and takes them
// back whatever it does.
void snapshot(QLearningOutcome& out, const std::function<void(const QLearningProgress&)>& on_snapshot) {
  QLearningProgress p{std::move(out.episodes), std::move(out.tables), std::move(out.visits), out.wall_seconds,
                      out.device_milliseconds};
  std::string failure;
  try {
    on_snapshot(p);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  out.episodes = std::move(p.episodes);
  out.tables = std::move(p.tables);
  out.visits = std::move(p.visits);
  if (!failure.empty()) throw std::runtime_error(failure);
}

} // namespace

void EpisodeTotals::add(const EpisodeTotals& o) {
  successes += o.successes;
  failures += o.failures;
  agent_steps += o.agent_steps;
  steps += o.steps;
  agent_starts += o.agent_starts;
}

std::vector<uint32_t> explore_thresholds(const QLearningSettings& s, uint32_t first, uint32_t count) {
  std::vector<uint32_t> out(count);
  for (uint32_t i = 0; i < count; ++i) {
    const double epsilon = std::max(s.epsilon_end, s.epsilon_start * std::pow(s.epsilon_decay, first + i));
    out[i] = static_cast<uint32_t>(std::min(4294967295.0, std::floor(std::clamp(epsilon, 0.0, 1.0) * 4294967296.0)));
  }
  return out;
}

GreedyReachEvaluator::GreedyReachEvaluator(const GameInstance& game) {
  if (!game.tables().environment)
    throw std::invalid_argument(fmt::format("game '{}' has no environment table", game.game().name));
  const AbiEnvironment env(game);
  actions_ = env.actions;
  starts_ = start_states(game, env.states);
  moves_.assign(uint64_t{env.states} * env.actions, Move{0, -1});
  good_.assign(env.states, 0);
  // Forward from the starts over non-terminal moves; predecessors kept for the backward pass.
  std::vector<uint8_t> standable(env.states, 0);
  std::vector<std::vector<uint32_t>> predecessors(env.states);
  std::deque<uint32_t> frontier(starts_.begin(), starts_.end()), winners;
  for (uint32_t s : starts_) standable[s] = 1;
  while (!frontier.empty()) {
    const uint32_t s = frontier.front();
    frontier.pop_front();
    for (uint32_t a = 0; a < env.actions; ++a) {
      const qlearning::Transition t = env.step(s, a);
      moves_[uint64_t{s} * env.actions + a] = {t.next, static_cast<int8_t>(t.terminal ? (t.reward > 0 ? 1 : -1) : 0)};
      if (t.terminal) {
        if (t.reward > 0 && !good_[s]) good_[s] = 1, winners.push_back(s);
        continue;
      }
      predecessors[t.next].push_back(s);
      if (!standable[t.next]) standable[t.next] = 1, frontier.push_back(t.next);
    }
  }
  // Backward from the states with a winning move.
  while (!winners.empty()) {
    const uint32_t s = winners.front();
    winners.pop_front();
    for (uint32_t p : predecessors[s])
      if (!good_[p]) good_[p] = 1, winners.push_back(p);
  }
}

GreedyReach GreedyReachEvaluator::evaluate(const float* table) const {
  // Per state: 0 not yet known, 1 the greedy path reaches the reward, 2 it does not, 3 on the path in hand.
  std::vector<uint8_t> verdict(good_.size(), 0);
  std::vector<uint32_t> path;
  GreedyReach r;
  r.starts = static_cast<uint32_t>(starts_.size());
  for (uint32_t start : starts_) {
    if (!good_[start]) continue;
    ++r.reachable;
    uint8_t result = 0;
    for (uint32_t s = start;;) {
      if (verdict[s] == 1 || verdict[s] == 2) {
        result = verdict[s];
        break;
      }
      if (verdict[s] == 3) { // a cycle
        result = 2;
        break;
      }
      verdict[s] = 3;
      path.push_back(s);
      const float* row = table + uint64_t{s} * actions_;
      const uint32_t a = static_cast<uint32_t>(std::max_element(row, row + actions_) - row);
      const Move& m = moves_[uint64_t{s} * actions_ + a];
      if (m.outcome != 0) {
        result = m.outcome > 0 ? 1 : 2;
        break;
      }
      s = m.next;
    }
    for (uint32_t s : path) verdict[s] = result;
    path.clear();
    r.reached += result == 1;
  }
  return r;
}

QLearningOutcome run_qlearning(const GameInstance& game, const QLearningJob& job, const EpisodeFn& on_episode) {
  if (!game.tables().environment)
    throw std::invalid_argument(fmt::format("game '{}' (plugin {}) has no environment table ({}): it cannot be "
                                            "trained by Q-learning",
                                            game.game().name, game.tables().path, GSDK_TABLE_ENVIRONMENT));
  const AbiEnvironment env(game);
  check(game, job, env);
  std::vector<uint32_t> starts = start_states(game, env.states); // refuses invalid start states before any work
  const QLearningSettings& s = job.settings;

  QLearningOutcome out;
  out.states = env.states;
  out.actions = env.actions;
  out.agents = env.agents;
  out.engine = job.force_generic || !game.tables().cpu_qlearning ? "generic" : "batch";
  out.device = job.cuda_devices.empty() ? "cpu" : "cuda";
  if (!job.cuda_devices.empty()) out.engine = "batch";
  const uint64_t table_size = uint64_t{env.states} * env.actions;
  out.tables.assign((s.shared_table ? 1 : s.environments) * table_size, 0.0f);
  if (job.count_visits) out.visits.assign(env.states, 0);

  if (job.resume) resume(out, *job.resume, job, env.agents);

  Trainer trainer(game, job, env, std::move(starts));
  const bool on_gpus = !job.cuda_devices.empty();
  const double devices = on_gpus ? static_cast<double>(job.cuda_devices.size()) : 1.0;
  const double resumed_seconds = out.wall_seconds;
  const auto began = std::chrono::steady_clock::now();
  const auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  auto last_snapshot = began;
  EpisodeChunks chunks(job.chunk_seconds, s.episodes, s.shared_table && s.environments > 1);
  try {
    for (uint32_t first = static_cast<uint32_t>(out.episodes.size()); first < s.episodes;) {
      // Between chunks only: every environment's table then holds the same episodes.
      if (stop_requested(job.stop)) {
        out.stopped = true;
        break;
      }
      const uint32_t count = chunks.next(first, s.episodes - first);
      std::vector<uint32_t> stats(uint64_t{s.environments} * count * GSDK_QL_STAT_COUNT, 0);
      const auto chunk_began = std::chrono::steady_clock::now();
      double milliseconds = 0;
      trainer.run(first, count, explore_thresholds(s, first, count), s.alpha, out.tables, stats,
                  job.count_visits ? &out.visits : nullptr, milliseconds);
      // Devices train their environments side by side: a chunk's kernel time is their mean.
      chunks.record(count, seconds_since(chunk_began), milliseconds / 1000 / devices);
      out.device_milliseconds += milliseconds;
      first += count;
      for (const EpisodeTotals& t : totals_per_episode(stats, s.environments, count, env.agents)) {
        out.episodes.push_back(t);
        out.agent_steps += t.agent_steps;
        if (on_episode) on_episode(static_cast<uint32_t>(out.episodes.size() - 1), t);
      }
      if (job.on_snapshot && first < s.episodes && seconds_since(last_snapshot) >= job.snapshot_seconds) {
        out.wall_seconds = resumed_seconds + seconds_since(began);
        snapshot(out, job.on_snapshot);
        last_snapshot = std::chrono::steady_clock::now();
      }
    }
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  out.wall_seconds = resumed_seconds + seconds_since(began);
  if (!out.error.empty()) return out;

  if (s.test_episodes > 0 && !out.stopped) {
    // Greedy and frozen: alpha 0 leaves every value as it is (fmaf(0, x, q) == q), epsilon 0 never explores; so
    // the test's chunks, too, fall where they may.
    std::vector<float> copy = out.tables;
    EpisodeChunks test_chunks(job.chunk_seconds, s.test_episodes, false);
    try {
      for (uint32_t done = 0; done < s.test_episodes;) {
        if (stop_requested(job.stop)) {
          out.stopped = true;
          break;
        }
        const uint32_t count = test_chunks.next(done, s.test_episodes - done);
        std::vector<uint32_t> stats(uint64_t{s.environments} * count * GSDK_QL_STAT_COUNT, 0);
        const auto chunk_began = std::chrono::steady_clock::now();
        double milliseconds = 0;
        trainer.run(s.episodes + done, count, std::vector<uint32_t>(count, 0), 0.0f, copy, stats, nullptr,
                    milliseconds);
        test_chunks.record(count, seconds_since(chunk_began), milliseconds / 1000 / devices);
        done += count;
        for (const EpisodeTotals& t : totals_per_episode(stats, s.environments, count, env.agents)) out.test.add(t);
      }
    } catch (const std::exception& e) {
      out.error = std::string("test episodes: ") + e.what();
    }
  }
  const GreedyReachEvaluator evaluator(game);
  const uint64_t tables = out.tables.size() / table_size;
  for (uint64_t i = 0; i < tables; ++i) out.reach.push_back(evaluator.evaluate(out.tables.data() + i * table_size));
  return out;
}

std::string QLearningOutcome::digest() const {
  // Written in place: the tables of a large sweep hold tens of millions of values.
  std::string text = fmt::format("qlearning states={} actions={} agents={}\n", states, actions, agents);
  auto out = std::back_inserter(text);
  for (const EpisodeTotals& t : episodes)
    fmt::format_to(out, "{} {} {} {}\n", t.successes, t.failures, t.steps, t.agent_steps);
  fmt::format_to(out, "test {} {} {} {}\n", test.successes, test.failures, test.steps, test.agent_steps);
  text.reserve(text.size() + tables.size() * 9);
  for (size_t i = 0; i < tables.size(); ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, &tables[i], 4);
    fmt::format_to(out, "{:08x}", bits);
    text.push_back((i + 1) % 16 == 0 ? '\n' : ' ');
  }
  return sha1_digest(text);
}

QLearningProgress QLearningOutcome::progress() const {
  return {episodes, tables, visits, wall_seconds, device_milliseconds};
}

} // namespace gsdk::core
