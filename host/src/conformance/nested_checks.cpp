// nested_checks.cpp - the checks of the nested-search tables: move codes (what NRPA's policies are keyed by),
// the game's own documents of a sequence and its check (what a search saves and passes every sequence
// through), and, on a GPU, the plugin's whole level-1 and level-2 NMCS and NRPA searches against the core's CPU
// searches for a small budget (same best sequence from the same search after the same playouts).
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "conformance/check_groups.hpp"
#include "conformance/random_games.hpp"
#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::host::conformance {

namespace {

void move_codes(CheckContext& context, Findings& findings) {
  const gsdk_move_codes& codes = *context.tables().move_codes;
  const uint32_t code_count = codes.code_count(context.handle());
  if (code_count < 1) findings.stop("code_count() is 0");
  std::mt19937_64 random(29);
  std::vector<uint32_t> moves(context.game().max_moves());
  for (const core::StateBlob& s : states_in_play(context, random, 20, findings)) {
    if (findings.failed()) return;
    if (context.game().current_player(s) < 0) continue;
    const uint32_t n = context.game().checked_legal_moves(s, moves);
    std::set<uint32_t> seen;
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t code = codes.move_code(context.handle(), s.data(), moves[k]);
      if (code >= code_count)
        findings.fail(fmt::format("move {} of {} has code {}, not below code_count() = {}", moves[k], context.quote(s),
                                  code, code_count));
      if (const uint32_t again = codes.move_code(context.handle(), s.data(), moves[k]); again != code)
        findings.fail(fmt::format("move_code is not a pure function: {} then {} for move {} of {}", code, again,
                                  moves[k], context.quote(s)));
      if (!seen.insert(code).second)
        findings.fail(fmt::format("two legal moves of {} share the code {}", context.quote(s), code));
    }
  }
}

// The moves of a random game from the initial state, cut `from_end` moves before its end.
std::vector<uint32_t> start_moves(const CheckContext& context, uint64_t seed, size_t from_end, Findings& findings) {
  std::mt19937_64 random(seed);
  RandomGame game = play_random_game(context, random, context.game().initial_state(), findings);
  if (!game.ended) findings.stop("a random game to start the searches from did not end");
  game.moves.resize(game.moves.size() > from_end ? game.moves.size() - from_end : 0);
  return game.moves;
}

std::string sequence_text(const std::vector<uint32_t>& moves) {
  const size_t shown = std::min<size_t>(moves.size(), 24);
  const std::string out =
      fmt::format("{}", fmt::join(moves.begin(), moves.begin() + static_cast<ptrdiff_t>(shown), " "));
  return moves.size() > shown ? out + " ..." : out;
}

// Random finished games from the initial state: each one's document is a JSON object with a "format" string and
// its moves, and the game's own check accepts it (every one is a sequence of the game's rules).
void sequence_documents(CheckContext& context, Findings& findings) {
  const gsdk_sequence_documents& documents = *context.tables().sequence_documents;
  std::mt19937_64 random(31);
  for (int g = 0; g < 20 && !findings.failed(); ++g) {
    const RandomGame game = play_random_game(context, random, context.game().initial_state(), findings);
    if (!game.ended) return;
    const auto count = static_cast<uint32_t>(game.moves.size());
    char error[1024] = {};
    std::string text(1 << 16, '\0');
    const uint32_t n = documents.write(context.handle(), game.moves.data(), count, text.data(),
                                       static_cast<uint32_t>(text.size()), error, sizeof error);
    if (n == 0) findings.stop(fmt::format("write() refused a finished game of {} moves: {}", count, error));
    if (n >= text.size()) {
      text.assign(n + 1, '\0');
      documents.write(context.handle(), game.moves.data(), count, text.data(), n + 1, error, sizeof error);
    }
    text.resize(n);
    nlohmann::json document;
    try {
      document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      findings.stop(fmt::format("the document of a game of {} moves is not JSON ({}): {}", count, e.what(), text));
    }
    if (!document.is_object() || !document.contains("format") || !document["format"].is_string())
      findings.fail(fmt::format("the document of a game of {} moves has no \"format\" string: {}", count, text));
    if (!document.contains("moves") || document["moves"] != nlohmann::json(game.moves))
      findings.fail(
          fmt::format("the document's \"moves\" are not the game's [{}]: {}", sequence_text(game.moves), text));
    if (documents.check(context.handle(), game.moves.data(), count, error, sizeof error) != GSDK_OK)
      findings.fail(fmt::format("check() refuses the finished game [{}]: {}", sequence_text(game.moves), error));
  }
}

// The CPU's and the device's run of the same searches end alike.
void expect_same_run(const core::NestedSearchOutcome& cpu, const core::NestedSearchOutcome& gpu,
                     const std::string& label, Findings& findings) {
  if (gpu.best.score != cpu.best.score || gpu.best.moves != cpu.best.moves)
    findings.fail(fmt::format("{}: the device's best scores {} with moves [{}], the CPU's {} with [{}]", label,
                              gpu.best.score, sequence_text(gpu.best.moves), cpu.best.score,
                              sequence_text(cpu.best.moves)));
  if (gpu.best_search != cpu.best_search)
    findings.fail(fmt::format("{}: search {} found the device's best, search {} the CPU's", label, gpu.best_search,
                              cpu.best_search));
  if (gpu.playouts != cpu.playouts)
    findings.fail(fmt::format("{}: the device ran {} playouts, the CPU {}", label, gpu.playouts, cpu.playouts));
  if (gpu.level1_steps != cpu.level1_steps || gpu.level1_searches != cpu.level1_searches)
    findings.fail(fmt::format("{}: the device made {} level-1 searches and {} steps, the CPU {} and {}", label,
                              gpu.level1_searches, gpu.level1_steps, cpu.level1_searches, cpu.level1_steps));
  if (gpu.searches_finished != cpu.searches_finished)
    findings.fail(fmt::format("{}: {} searches finished on the device, {} on the CPU", label, gpu.searches_finished,
                              cpu.searches_finished));
}

// NMCS of `settings` on the CPU and with the searches of `device_level` on the GPU.
void compare_nmcs(const CheckContext& context, const core::NmcsSettings& settings, uint32_t device_level,
                  const std::string& label, Findings& findings) {
  constexpr uint64_t kSeed = 41;
  const auto evaluator = core::make_cpu_batch_evaluator(context.game(), kSeed, 2);
  const auto device = core::make_cuda_level1_searcher(context.game(), kSeed, context.gpu(), 1000, 2, device_level);
  const core::NestedSearchOutcome cpu = core::run_nmcs(context.game(), settings, *evaluator);
  const core::NestedSearchOutcome gpu = core::run_nmcs(context.game(), settings, *evaluator, {}, device.get());
  expect_same_run(cpu, gpu, label, findings);
}

void cuda_level1(CheckContext& context, Findings& findings) {
  core::NmcsSettings settings;
  settings.budget.restarts = 15;
  settings.budget.searches_in_parallel = 8;
  compare_nmcs(context, settings, 1, "16 level-1 searches from the initial state", findings);
  settings.starts = {start_moves(context, 3, 0, findings)};
  settings.starts.front().resize(settings.starts.front().size() / 2);
  compare_nmcs(context, settings, 1, "16 level-1 searches from mid-game", findings);
  settings.level = 2;
  settings.budget.restarts = 3;
  settings.budget.searches_in_parallel = 4;
  settings.starts = {start_moves(context, 4, 10, findings)};
  compare_nmcs(context, settings, 1, "4 level-2 searches 10 moves before the end, level 1 on the device", findings);
}

void cuda_level2(CheckContext& context, Findings& findings) {
  core::NmcsSettings settings;
  settings.level = 2;
  settings.budget.restarts = 3;
  settings.budget.searches_in_parallel = 4;
  for (const size_t from_end : {size_t{6}, size_t{12}}) {
    settings.starts = {start_moves(context, 5 + from_end, from_end, findings)};
    compare_nmcs(context, settings, 2, fmt::format("4 level-2 searches {} moves before the end", from_end), findings);
  }
}

void cuda_nrpa(CheckContext& context, Findings& findings) {
  core::NrpaSettings settings;
  settings.seed = 5;
  settings.level = 2;
  settings.iterations = 5;
  settings.alpha = 1.0;
  settings.threads = 2;
  settings.budget.restarts = 7;
  settings.budget.searches_in_parallel = 8;
  const core::NestedSearchOutcome cpu = core::run_nrpa(context.game(), settings);
  for (uint32_t device_level = 1; device_level <= 2; ++device_level) {
    const auto searcher =
        core::make_cuda_nrpa_searcher(context.game(), settings.seed, device_level, settings.iterations, settings.alpha,
                                      context.gpu(), settings.budget.searches_in_parallel, 2);
    const core::NestedSearchOutcome gpu = core::run_nrpa(context.game(), settings, {}, searcher.get());
    expect_same_run(cpu, gpu, fmt::format("8 level-2 NRPA searches, level {} on the device", device_level), findings);
  }
}

} // namespace

std::vector<CheckSpec> nested_checks() {
  return {
      {"nested.move_codes",
       "move codes below code_count, the same on every call, distinct among a state's moves",
       {GSDK_TABLE_MOVE_CODES},
       false,
       move_codes},
      {"nested.sequence_documents",
       "the game's document of a finished game holds its format and moves, and its own check accepts the game",
       {GSDK_TABLE_SEQUENCE_DOCUMENTS},
       false,
       sequence_documents},
      {"nested.cuda_level1",
       "the device's level-1 NMCS finds what the core's CPU NMCS finds (from the start, mid-game, under level 2)",
       {GSDK_TABLE_CUDA_LEVEL1_SEARCHES},
       true,
       cuda_level1},
      {"nested.cuda_level2",
       "the device's whole level-2 NMCS finds what the core's CPU NMCS finds near the end",
       {GSDK_TABLE_CUDA_LEVEL2_SEARCHES},
       true,
       cuda_level2},
      {"nested.cuda_nrpa",
       "the device's NRPA (level 1 and whole level 2) finds what the core's CPU NRPA finds",
       {GSDK_TABLE_CUDA_NRPA_SEARCHES, GSDK_TABLE_MOVE_CODES},
       true,
       cuda_nrpa},
  };
}

} // namespace gsdk::host::conformance
