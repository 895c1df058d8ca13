// test_chain.cpp - test_chain.so's parameters, per-state table, text, CPU batch playouts and replays, and its
// entry point (the CUDA tables are test_chain.cu's).
#include <charconv>
#include <cstring>
#include <sstream>
#include <string>

#include "gsdk/playout_summary.hpp"
#include "test_chain.hpp"

namespace test_chain {

namespace {

const gsdk_param_desc kParameters[] = {
    {"numbers", GSDK_PARAM_INT, 0, 20, 0.0, nullptr, kMinNumbers, kMaxNumbers,
     "the chain takes its numbers from 1..numbers (2..32)"},
};

} // namespace

std::span<const gsdk_param_desc> Game::parameters() {
  return kParameters;
}

Game::Game(const gsdk::Params& params) {
  const int64_t numbers = params.get_int("numbers");
  if (numbers < kMinNumbers || numbers > kMaxNumbers)
    throw gsdk::PluginError("numbers = " + std::to_string(numbers) + ", expected an integer in " +
                            std::to_string(kMinNumbers) + ".." + std::to_string(kMaxNumbers));
  numbers_ = static_cast<uint32_t>(numbers);
}

int32_t Game::current_player(const State& s) const {
  return legal_numbers(numbers_, static_cast<uint32_t>(s.used), s.chain.last) == 0 ? GSDK_PLAYER_TERMINAL : 0;
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double*) const {
  uint32_t n = 0;
  for (uint32_t rest = legal_numbers(numbers_, static_cast<uint32_t>(s.used), s.chain.last); rest != 0;
       rest &= rest - 1)
    moves[n++] = nth_set_bit(rest, 0);
  return n;
}

std::string Game::state_to_string(const State& s) const {
  std::string text = "chain";
  for (uint32_t i = 0; i < s.chain.length; ++i) {
    text += ' ';
    text += std::to_string(s.numbers[i]);
  }
  return text;
}

Game::State Game::state_from_string(std::string_view text) const {
  std::istringstream in{std::string(text)};
  std::string word;
  if (!(in >> word) || word != "chain")
    throw gsdk::PluginError("test_chain state '" + std::string(text) + "': expected 'chain' and its numbers");
  State s{};
  while (in >> word) {
    uint32_t number = 0;
    const char* end = word.data() + word.size();
    const auto parsed = std::from_chars(word.data(), end, number);
    if (parsed.ec != std::errc{} || parsed.ptr != end || number < 1 || number > numbers_)
      throw gsdk::PluginError("test_chain state '" + std::string(text) + "': '" + word + "' is not a number in 1.." +
                              std::to_string(numbers_));
    if (((legal_numbers(numbers_, static_cast<uint32_t>(s.used), s.chain.last) >> (number - 1)) & 1u) == 0)
      throw gsdk::PluginError("test_chain state '" + std::string(text) + "': " + word + " cannot follow " +
                              state_to_string(s) + " (used already, or neither a divisor nor a multiple of " +
                              std::to_string(s.chain.last) + ")");
    play(s, number - 1);
  }
  return s;
}

const State& Game::playout_start(const void* start_state) const {
  static const State empty{};
  if (!start_state) return empty;
  // Replaying its numbers and comparing the blobs proves every field consistent.
  const State& s = *static_cast<const State*>(start_state);
  const auto refuse = [&](const std::string& why) {
    return gsdk::PluginError("test_chain: the playout start state is not a chain of 1.." + std::to_string(numbers_) +
                             ": " + why);
  };
  if (s.chain.length > numbers_) throw refuse("its length is " + std::to_string(s.chain.length));
  State replayed{};
  for (uint32_t i = 0; i < s.chain.length; ++i) {
    const uint32_t number = s.numbers[i];
    if (number < 1 || number > numbers_ ||
        ((legal_numbers(numbers_, static_cast<uint32_t>(replayed.used), replayed.chain.last) >> (number - 1)) & 1u) ==
            0)
      throw refuse("its number " + std::to_string(i) + " (" + std::to_string(number) + ") cannot come there");
    play(replayed, number - 1);
  }
  if (std::memcmp(&replayed, &s, sizeof s) != 0) throw refuse("its fields disagree with its numbers");
  return s;
}

void Game::cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const {
  const State& start = playout_start(request.start_state);
  for (uint64_t p = request.first_playout; p < request.first_playout + request.playout_count; ++p) {
    auto used = static_cast<uint32_t>(start.used);
    Chain chain = start.chain;
    random_chain(numbers_, used, chain, request.seed, p);
    gsdk::record_playout(summary, chain.sum, p, 0);
  }
}

std::vector<uint32_t> Game::replay_playout(uint64_t seed, uint64_t playout, const State* start) const {
  const State& from = playout_start(start);
  auto used = static_cast<uint32_t>(from.used);
  Chain chain = from.chain;
  std::vector<uint32_t> moves;
  random_chain(numbers_, used, chain, seed, playout, [&](uint32_t move) { moves.push_back(move); });
  return moves;
}

} // namespace test_chain

GSDK_PLUGIN(test_chain::Game, "0.1.0")
