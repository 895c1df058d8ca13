// cpu_beam_device.cpp - beam levels on CPU threads through the per-state table: each level's children are made,
// checked for the end of the game, keyed by their canonical bytes and scored by the game's evaluation in blocks,
// one per thread; the selection is beam_selection.hpp's.
#include <algorithm>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "beam/beam_order.hpp"
#include "beam/beam_selection.hpp"
#include "gsdk/core/beam/beam_search.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"

namespace gsdk::core {

namespace {

// A child's value, key, parent, move and flags.
constexpr uint64_t kBytesPerChild = 32;

// Below this many items a pass runs on the calling thread alone: waking threads would cost more.
constexpr size_t kItemsPerThread = 256;

// The next beam's children as (parent, move) from the selection's places among the non-terminal children.
std::vector<BeamChild> kept_children(const std::vector<uint32_t>& kept, const std::vector<uint32_t>& parents,
                                     const std::vector<uint32_t>& moves) {
  std::vector<BeamChild> children(kept.size());
  for (size_t j = 0; j < kept.size(); ++j) children[j] = BeamChild{parents[kept[j]], moves[kept[j]]};
  return children;
}

class CpuBeamDevice final : public BeamDevice {
public:
  CpuBeamDevice(const GameInstance& game, unsigned threads)
      : game_(game), threads_(std::max(1u, threads)), size_(game.state_size()) {}

  void reset(const StateBlob& start) override {
    beam_ = start;
    width_ = 1;
  }

  BeamLevelResult expand(const BeamSelectionRules& rules) override {
    make_children();
    const size_t n = child_parents_.size();
    // Which children ended the game, and the non-terminal ones' places in child order. (The kept ones' moves are
    // listed, and checked, once: when the next level makes their children.)
    std::vector<uint8_t> finished(n);
    in_blocks(n, [&](size_t first, size_t end) {
      for (size_t c = first; c < end; ++c)
        finished[c] = game_.current_player(children_.data() + c * size_) == GSDK_PLAYER_TERMINAL;
    });
    std::vector<uint32_t> live;
    BeamLevelResult result;
    for (size_t c = 0; c < n; ++c) {
      if (!finished[c]) {
        live.push_back(static_cast<uint32_t>(c));
        continue;
      }
      result.finished.push_back(
          FinishedChild{{child_parents_[c], child_moves_[c]}, game_.score(children_.data() + c * size_)});
    }
    const size_t m = live.size();
    std::vector<int32_t> values(m);
    std::vector<uint64_t> keys(m);
    std::vector<uint32_t> parents(m), moves(m);
    in_blocks(m, [&](size_t first, size_t end) { score_and_key(live, first, end, values, keys); });
    for (size_t i = 0; i < m; ++i) {
      parents[i] = child_parents_[live[i]];
      moves[i] = child_moves_[live[i]];
    }
    const Selection selection = select_children({values, keys, parents}, width_, rules);
    result.children = m;
    result.duplicates = selection.duplicates;
    result.capped = selection.capped;
    result.kept = kept_children(selection.kept, parents, moves);
    StateBlob next(selection.kept.size() * size_);
    for (size_t j = 0; j < selection.kept.size(); ++j)
      std::copy_n(children_.data() + size_t{live[selection.kept[j]]} * size_, size_, next.data() + j * size_);
    beam_ = std::move(next);
    width_ = static_cast<uint32_t>(selection.kept.size());
    return result;
  }

  // A level holds the beam, its children, the live children's evaluation blocks and the next beam.
  void require_room(uint32_t width) const override {
    const uint64_t children = uint64_t{width} * game_.max_moves();
    require_memory((2 * uint64_t{width} + 2 * children) * size_ + children * kBytesPerChild, available_host_memory(),
                   "host", fmt::format("a beam of {} states", width),
                   fmt::format("{} children of {} bytes, twice, and two beams", children, size_));
  }

  StateBlob state(uint32_t place) override {
    const auto first = beam_.begin() + static_cast<std::ptrdiff_t>(uint64_t{place} * size_);
    return StateBlob(first, first + size_);
  }

  std::string describe() const override { return fmt::format("cpu, {} threads", threads_); }

private:
  // body(first, end) over blocks of [0, items), one per thread (or the calling thread alone for few items).
  template <typename Body> void in_blocks(size_t items, Body&& body) const {
    const unsigned workers = static_cast<unsigned>(std::clamp<size_t>(items / kItemsPerThread, 1, threads_));
    if (workers == 1) return body(size_t{0}, items);
    run_workers(workers, [&](unsigned w) { body(items * w / workers, items * (w + 1) / workers); });
  }

  // children_ = every state of the beam after each of its legal moves, in place order.
  void make_children() {
    const uint32_t max_moves = game_.max_moves();
    std::vector<uint32_t> moves(size_t{width_} * max_moves), counts(width_);
    in_blocks(width_, [&](size_t first, size_t end) {
      std::vector<uint32_t> legal(max_moves);
      for (size_t p = first; p < end; ++p) {
        const unsigned char* parent = beam_.data() + p * size_;
        counts[p] = require_live_moves(parent, legal);
        std::copy_n(legal.begin(), counts[p], moves.begin() + p * max_moves);
      }
    });
    const size_t n = std::accumulate(counts.begin(), counts.end(), size_t{0});
    child_parents_.resize(n);
    child_moves_.resize(n);
    for (size_t p = 0, c = 0; p < width_; ++p)
      for (uint32_t k = 0; k < counts[p]; ++k, ++c) {
        child_parents_[c] = static_cast<uint32_t>(p);
        child_moves_[c] = moves[p * max_moves + k];
      }
    children_.resize(n * size_);
    in_blocks(n, [&](size_t first, size_t end) {
      for (size_t c = first; c < end; ++c) {
        unsigned char* child = children_.data() + c * size_;
        std::copy_n(beam_.data() + size_t{child_parents_[c]} * size_, size_, child);
        game_.apply_move(child, child_moves_[c]);
      }
    });
  }

  // The legal moves of a state that has not ended, checked to be 1 .. max_moves of them.
  uint32_t require_live_moves(const unsigned char* state, std::vector<uint32_t>& legal) const {
    const uint32_t n = game_.game().legal_moves(game_.handle(), state, legal.data(), nullptr);
    if (n < 1 || n > game_.max_moves())
      throw std::runtime_error(fmt::format("game '{}' returned {} legal moves in a state that has not ended (expected "
                                           "1 to its max_moves {})",
                                           game_.game().name, n, game_.max_moves()));
    return n;
  }

  // values and keys of the non-terminal children live[first .. end).
  void score_and_key(const std::vector<uint32_t>& live, size_t first, size_t end, std::vector<int32_t>& values,
                     std::vector<uint64_t>& keys) const {
    if (first == end) return;
    StateBlob block((end - first) * size_);
    for (size_t i = first; i < end; ++i)
      std::copy_n(children_.data() + size_t{live[i]} * size_, size_, block.data() + (i - first) * size_);
    const auto count = static_cast<uint32_t>(end - first);
    call_plugin(
        [&](char* error, uint32_t error_size) {
          return game_.tables().evaluation->evaluate(game_.handle(), block.data(), count, values.data() + first, error,
                                                     error_size);
        },
        [&] { return fmt::format("game '{}': evaluate of {} beam children", game_.game().name, count); });
    game_.canonical_states(block.data(), count, block.data());
    for (size_t i = first; i < end; ++i) keys[i] = beam_order::child_key(block.data() + (i - first) * size_, size_);
  }

  const GameInstance& game_;
  const unsigned threads_;
  const uint32_t size_;
  StateBlob beam_;
  uint32_t width_ = 0;
  StateBlob children_;
  std::vector<uint32_t> child_parents_, child_moves_;
};

} // namespace

std::unique_ptr<BeamDevice> make_cpu_beam_device(const GameInstance& game, unsigned threads) {
  require_beam_game(game, false);
  return std::make_unique<CpuBeamDevice>(game, threads);
}

} // namespace gsdk::core
