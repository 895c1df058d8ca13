// determinism_checks.cpp - the checks that results depend on (game, parameters, seed) alone: playouts,
// perft and Q-learning give the same result with 1, 2 or 3 threads and any work-item size.
#include <fmt/format.h>

#include "conformance/check_groups.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/qlearning/qlearning.hpp"

namespace gsdk::host::conformance {

namespace {

struct Split {
  unsigned threads;
  uint64_t item_playouts;
};

// One job run under each split; every digest must be the first's.
void same_digest_for_every_split(const CheckContext& context, core::PlayoutJob job, const std::vector<Split>& splits,
                                 const std::string& label, Findings& findings) {
  std::string reference;
  for (const Split& split : splits) {
    job.cpu_threads = split.threads;
    job.cpu_item_playouts = split.item_playouts;
    const core::PlayoutOutcome out = core::run_playouts(context.game(), job);
    if (!out.error.empty()) findings.stop(fmt::format("{}: {}", label, out.error));
    const std::string digest = out.result.digest();
    if (reference.empty())
      reference = digest;
    else if (digest != reference)
      findings.fail(fmt::format("{}: {} threads with items of {} playouts give digest {}, 1 thread gives {}", label,
                                split.threads, split.item_playouts, digest, reference));
  }
}

void playouts(CheckContext& context, Findings& findings) {
  const std::vector<core::StateBlob> mid_game = mid_game_states(context, 3, findings);
  core::PlayoutJob job;
  job.seed = 606;
  if (context.tables().cpu_playouts) {
    job.playouts = 100003;
    same_digest_for_every_split(context, job, {{1, 1u << 22}, {2, 33331}, {3, 997}},
                                "batch playouts from the initial state", findings);
    if (!mid_game.empty()) {
      job.start_state = mid_game.front();
      job.playouts = 20011;
      same_digest_for_every_split(context, job, {{1, 1u << 22}, {2, 4099}, {3, 97}},
                                  "batch playouts from " + context.quote(mid_game.front()), findings);
    }
  }
  job.start_state.reset();
  job.force_generic = true;
  job.playouts = 3001;
  same_digest_for_every_split(context, job, {{1, 1u << 22}, {2, 97}, {3, 31}}, "generic playouts", findings);
}

void perft(CheckContext& context, Findings& findings) {
  std::vector<core::StateBlob> roots = {context.game().initial_state()};
  for (const core::StateBlob& s : mid_game_states(context, 9, findings)) roots.push_back(s);
  for (const core::StateBlob& root : roots) {
    // The deepest depth (up to 8) whose tree has at most 50,000 leaves, found through the per-state rules.
    uint32_t depth = 1;
    core::uint128 expected = core::generic_perft(context.game(), root, 1);
    for (uint32_t d = 2; d <= 8 && expected > 0; ++d) {
      const core::uint128 leaves = core::generic_perft(context.game(), root, d);
      if (leaves > 50000) break;
      depth = d;
      expected = leaves;
    }
    for (const bool generic : {false, true}) {
      for (const unsigned threads : {1u, 2u, 3u}) {
        core::PerftJob job;
        job.root = root;
        job.depth = depth;
        job.cpu_threads = threads;
        job.force_generic = generic;
        const core::PerftOutcome out = core::run_perft(context.game(), job);
        if (!out.error.empty()) findings.stop(out.error);
        if (out.leaves != expected)
          findings.fail(fmt::format("run_perft({}, {}) with {} threads ({}) counts {}, the per-state rules {}",
                                    context.quote(root), depth, threads, out.engine, core::to_string(out.leaves),
                                    core::to_string(expected)));
      }
    }
  }
}

void qlearning(CheckContext& context, Findings& findings) {
  core::QLearningJob job;
  job.settings.seed = 11;
  job.settings.environments = 5;
  job.settings.episodes = 10;
  job.settings.epsilon_decay = 0.8;
  job.settings.test_episodes = 2;
  job.count_visits = true;
  core::QLearningOutcome reference;
  for (const unsigned threads : {1u, 2u, 3u}) {
    job.cpu_threads = threads;
    core::QLearningOutcome out = core::run_qlearning(context.game(), job);
    if (!out.error.empty()) findings.stop(out.error);
    if (threads == 1) {
      reference = std::move(out);
      continue;
    }
    if (out.digest() != reference.digest())
      findings.fail(fmt::format("Q-learning on {} threads gives digest {}, on 1 thread {}", threads, out.digest(),
                                reference.digest()));
    if (out.visits != reference.visits)
      findings.fail(fmt::format("Q-learning on {} threads counts other state visits than on 1 thread", threads));
  }
}

} // namespace

std::vector<CheckSpec> determinism_checks() {
  return {
      {"determinism.playouts",
       "batch and generic playouts give one digest on 1, 2 or 3 threads, whatever the item size (start and mid-game)",
       {},
       false,
       playouts},
      {"determinism.perft",
       "perft counts the same on 1, 2 or 3 threads, through the plugin's table or the rules",
       {},
       false,
       perft},
      {"determinism.qlearning",
       "Q-learning gives one digest and the same visits on 1, 2 or 3 threads",
       {GSDK_TABLE_ENVIRONMENT},
       false,
       qlearning},
  };
}

} // namespace gsdk::host::conformance
