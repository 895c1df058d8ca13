// fit_tool.cpp - fits Othello's pattern weights: plays training games (training_games.hpp) on N threads, one
// Philox stream per game, then fits the stages one after another from the end of the game: positions in the
// exact range keep their exact values, every other position of a stage is labelled by a search into the stages
// already fitted (label_search.hpp), and the stage is fitted to its labels by ridge regression
// (least_squares.hpp). Writes the weights with the settings that made them, and reports the error per stage on
// held-out games. The bytes written do not depend on the thread count.
#include "fit_tool.hpp"

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cpu/pattern_sum_cpu.hpp"
#include "label_search.hpp"
#include "least_squares.hpp"
#include "pattern_symmetry.hpp"
#include "rules/weights_file.hpp"
#include "training_games.hpp"

namespace othello::fit {

namespace {

namespace po = boost::program_options;

struct Options {
  GameSettings games;
  uint64_t game_count = 20000;
  double lambda = 1.0;
  uint32_t iterations = 60;
  uint32_t holdout_every = 10;
  uint32_t search_plies = 4;
  uint32_t threads = 1;
  std::string output;
};

struct StageReport {
  uint64_t held_out = 0;
  double squared_error = 0; // discs^2, against the held-out positions' labels
  uint64_t search_nodes = 0;
};

// Runs work(k) for k in [0, count) on `threads` threads, each k once.
template <typename Work> void parallel_for(uint64_t count, uint32_t threads, Work work) {
  std::atomic<uint64_t> next{0};
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (uint64_t k = next++; k < count; k = next++) work(k);
    });
  for (auto& thread : pool) thread.join();
}

// The canonical columns of a position's features in a stage's table (its bias and mobility included).
void add_features(SparseRows& rows, const PatternSymmetry& symmetry, const Position& p) {
  const PatternLayout& layout = kPatternLayout;
  for (const PatternInstance& instance : layout.instances)
    rows.add_entry(layout.kind_offset[instance.kind] + symmetry.canonical(instance.kind, pattern_index(instance, p)),
                   1.0f);
  rows.add_entry(layout.bias_slot, 1.0f);
  rows.add_entry(layout.mobility_slot, static_cast<float>(mobility_difference(p)));
}

int16_t quantised(double discs) {
  const double units = std::nearbyint(discs * kWeightsPerDisc);
  return static_cast<int16_t>(units > 32767.0 ? 32767.0 : units < -32767.0 ? -32767.0 : units);
}

// Labels every position of `stage` beyond the exact range by a search into the stages fitted so far (`weights`);
// positions in the exact range keep their exact values. Returns the search nodes.
uint64_t label_stage(std::vector<std::vector<LabelledPosition>>& games, uint32_t stage, const Options& o,
                     const std::vector<int16_t>& weights) {
  std::vector<LabelledPosition*> samples;
  for (auto& game : games)
    for (LabelledPosition& sample : game)
      if (evaluation_stage(sample.position) == stage && empty_count(sample.position) > o.games.exact_empties)
        samples.push_back(&sample);
  std::atomic<uint64_t> nodes{0};
  parallel_for(samples.size(), o.threads, [&](uint64_t k) {
    LabelledPosition& sample = *samples[k];
    const uint32_t empties = empty_count(sample.position);
    // At least search_plies deep, and always into the stage below (fitted already).
    const uint32_t leaf_empties =
        std::min(empties > o.search_plies ? empties - o.search_plies : 0, stage * kEmptiesPerStage);
    LabelSearch search(weights.data());
    sample.label = search.value(sample.position, leaf_empties) / double{kWeightsPerDisc};
    nodes += search.nodes();
  });
  return nodes;
}

// A stage's table from the fitted canonical weights: every configuration the weight of its canonical image.
void write_stage(const std::vector<double>& fitted, const PatternSymmetry& symmetry, int16_t* table) {
  for (uint32_t kind = 0; kind < kPatternKinds; ++kind) {
    const uint32_t offset = kPatternLayout.kind_offset[kind];
    for (uint32_t index = 0; index < pattern_detail::power_of_three(kPatternLayout.kind_size[kind]); ++index)
      table[offset + index] = quantised(fitted[offset + symmetry.canonical(kind, index)]);
  }
  table[kPatternLayout.bias_slot] = quantised(fitted[kPatternLayout.bias_slot]);
  table[kPatternLayout.mobility_slot] = quantised(fitted[kPatternLayout.mobility_slot]);
}

std::string settings_text(const Options& o) {
  std::ostringstream text;
  text << "fit_evaluation --seed=" << o.games.seed << " --games=" << o.game_count
       << " --exact-empties=" << o.games.exact_empties << " --random-plies=" << o.games.random_plies
       << " --epsilon=" << o.games.epsilon << " --search-plies=" << o.search_plies << " --lambda=" << o.lambda
       << " --iterations=" << o.iterations << " --holdout-every=" << o.holdout_every;
  return text.str();
}

// Bad values name their option and what was expected.
void check_options(const Options& o) {
  const auto refuse = [](const std::string& what) { throw po::error(what); };
  if (o.game_count < 1) refuse("--games = 0, expected at least 1 game");
  if (o.games.exact_empties > 20)
    refuse("--exact-empties = " + std::to_string(o.games.exact_empties) + ", expected 0 .. 20");
  if (!(o.games.epsilon >= 0.0 && o.games.epsilon <= 1.0))
    refuse("--epsilon = " + std::to_string(o.games.epsilon) + ", expected a chance in [0, 1]");
  if (!(o.lambda > 0.0 && std::isfinite(o.lambda)))
    refuse("--lambda = " + std::to_string(o.lambda) + ", expected a positive number");
  if (o.search_plies < 1 || o.search_plies > 8)
    refuse("--search-plies = " + std::to_string(o.search_plies) + ", expected 1 .. 8");
  if (o.iterations < 1) refuse("--iterations = 0, expected at least 1");
  if (o.holdout_every == 1) refuse("--holdout-every = 1 would hold out every game; expected 0 (none) or 2 or more");
  if (o.threads < 1) refuse("--threads = 0, expected at least 1");
}

} // namespace

int run_fit_evaluation(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  Options o;
  o.threads = std::max(1u, std::thread::hardware_concurrency());
  po::options_description described(
      "fit_evaluation: fits othello's pattern evaluation to exact endgame values and searches into them");
  described.add_options()("help",
                          "this text")("output", po::value(&o.output)->required(),
                                       "the weights file to write (e.g. plugins/othello/data/evaluation_weights.bin)")(
      "seed", po::value(&o.games.seed)->default_value(o.games.seed),
      "the games' seed")("games", po::value(&o.game_count)->default_value(o.game_count), "training games to play")(
      "exact-empties", po::value(&o.games.exact_empties)->default_value(o.games.exact_empties),
      "empty squares from which games are finished by perfect play (0 .. 20)")(
      "random-plies", po::value(&o.games.random_plies)->default_value(o.games.random_plies),
      "uniformly random opening plies of every game")(
      "epsilon", po::value(&o.games.epsilon)->default_value(o.games.epsilon, "0.1"),
      "the chance of a random move after the opening, else the hand-set evaluation's best 1-ply move")(
      "search-plies", po::value(&o.search_plies)->default_value(o.search_plies),
      "the least depth of the search that labels a position beyond the exact range (1 .. 8; it always reaches "
      "the stage below)")("lambda", po::value(&o.lambda)->default_value(o.lambda, "1"),
                          "the ridge penalty on every weight (discs^2)")(
      "iterations", po::value(&o.iterations)->default_value(o.iterations), "conjugate-gradient iterations per stage")(
      "holdout-every", po::value(&o.holdout_every)->default_value(o.holdout_every),
      "every n-th game is held out to measure the fit (0: none)")(
      "threads", po::value(&o.threads), "worker threads (the output does not depend on them; default: every core)");
  try {
    po::variables_map values;
    po::store(po::command_line_parser(argc, argv).options(described).run(), values);
    if (values.count("help")) {
      out << described;
      return 0;
    }
    po::notify(values);
    check_options(o);
  } catch (const po::error& e) {
    err << "fit_evaluation: " << e.what() << " (see --help)\n";
    return 2;
  }

  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  std::vector<std::vector<LabelledPosition>> games(o.game_count);
  std::atomic<uint64_t> finished{0};
  std::mutex progress;
  const uint64_t report_every = std::max<uint64_t>(1, o.game_count / 10);
  parallel_for(o.game_count, o.threads, [&](uint64_t g) {
    games[g] = training_game(o.games, g);
    if (const uint64_t done = ++finished; done % report_every == 0) {
      const std::lock_guard lock(progress);
      err << "fit_evaluation: " << done << " / " << o.game_count << " games (" << std::fixed << std::setprecision(1)
          << seconds() << " s)\n";
    }
  });

  const auto held_out = [&](uint64_t g) { return o.holdout_every > 0 && g % o.holdout_every == o.holdout_every - 1; };
  const PatternSymmetry symmetry;
  std::vector<int16_t> weights(size_t{kEvaluationStages} * kPatternLayout.stage_entries, 0);
  std::vector<StageReport> reports(kEvaluationStages);
  // Stage by stage from the end of the game: a stage's search labels read the stages fitted before it.
  for (uint32_t stage = 0; stage < kEvaluationStages; ++stage) {
    StageReport& report = reports[stage];
    report.search_nodes = label_stage(games, stage, o, weights);
    SparseRows rows(kPatternLayout.stage_entries);
    for (uint64_t g = 0; g < o.game_count; ++g) {
      if (held_out(g)) continue;
      for (const LabelledPosition& sample : games[g]) {
        if (evaluation_stage(sample.position) != stage) continue;
        add_features(rows, symmetry, sample.position);
        rows.end_row(sample.label);
      }
    }
    write_stage(ridge_fit(rows, o.lambda, o.iterations), symmetry,
                weights.data() + size_t{stage} * kPatternLayout.stage_entries);
    // The shipped (rounded) weights' error on the held-out games' labels.
    for (uint64_t g = 0; g < o.game_count; ++g) {
      if (!held_out(g)) continue;
      for (const LabelledPosition& sample : games[g]) {
        if (evaluation_stage(sample.position) != stage) continue;
        const double error = pattern_sum_cpu(sample.position, weights.data()) / double{kWeightsPerDisc} - sample.label;
        report.squared_error += error * error;
        ++report.held_out;
      }
    }
    err << "fit_evaluation: stage " << stage << ": " << report.search_nodes << " label search nodes (" << std::fixed
        << std::setprecision(1) << seconds() << " s)\n";
  }

  const std::vector<unsigned char> bytes = encode_weights({settings_text(o), weights});
  std::ofstream file(o.output, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) {
    err << "fit_evaluation: cannot write '" << o.output << "'\n";
    return 1;
  }

  out << "wrote " << o.output << " (" << bytes.size() << " bytes): " << settings_text(o) << "\n";
  out << "stage empties held-out-positions rms-error-discs label-search-nodes\n";
  for (uint32_t stage = 0; stage < kEvaluationStages; ++stage) {
    const StageReport& r = reports[stage];
    out << stage << " " << stage * kEmptiesPerStage + 1 << "-" << (stage + 1) * kEmptiesPerStage << " " << r.held_out
        << " " << std::fixed << std::setprecision(2)
        << (r.held_out ? std::sqrt(r.squared_error / static_cast<double>(r.held_out)) : 0.0) << " " << r.search_nodes
        << "\n";
  }
  return 0;
}

} // namespace othello::fit
