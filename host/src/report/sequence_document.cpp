// sequence_document.cpp - the documents and checks of a search's sequences.
#include "report/sequence_document.hpp"

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"

namespace gsdk::host {

nlohmann::json sequence_document(const core::GameInstance& game, const std::vector<uint32_t>& moves, int64_t score) {
  const auto count = static_cast<uint32_t>(moves.size());
  if (const gsdk_sequence_documents* documents = game.tables().sequence_documents) {
    char error[1024] = {};
    std::string text(4096, '\0');
    uint32_t n = documents->write(game.handle(), moves.data(), count, text.data(), static_cast<uint32_t>(text.size()),
                                  error, sizeof error);
    if (n >= text.size()) {
      text.assign(n + 1, '\0');
      n = documents->write(game.handle(), moves.data(), count, text.data(), n + 1, error, sizeof error);
    }
    if (n == 0)
      throw std::runtime_error(fmt::format("game '{}' could not write its document: {}", game.game().name, error));
    text.resize(n);
    try {
      return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw std::runtime_error(
          fmt::format("game '{}' wrote a document that is not JSON: {}", game.game().name, e.what()));
    }
  }
  nlohmann::json names = nlohmann::json::array();
  core::StateBlob state = game.initial_state();
  for (uint32_t move : moves) {
    names.push_back(game.move_to_string(state, move));
    game.apply_move(state, move);
  }
  return {
      {"format", "gsdk-moves"}, {"game", game.game().name}, {"score", score}, {"moves", moves}, {"move_names", names}};
}

void check_reported_sequence(const core::GameInstance& game, int64_t score, const std::vector<uint32_t>& moves) {
  int64_t replayed = 0;
  try {
    replayed = core::replay_score(game, moves);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(
        fmt::format("the search reported a sequence of score {} that does not replay: {}", score, e.what()));
  }
  if (replayed != score)
    throw std::runtime_error(
        fmt::format("the search reported score {} for a sequence that replays to {}", score, replayed));
  const gsdk_sequence_documents* documents = game.tables().sequence_documents;
  if (!documents) return;
  if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
        return documents->check(game.handle(), moves.data(), static_cast<uint32_t>(moves.size()), error, size);
      }))
    throw std::runtime_error(
        fmt::format("the search reported a sequence that game '{}' refuses: {}", game.game().name, failure->message));
}

} // namespace gsdk::host
