// patterns.hpp - Othello's pattern evaluation: the classic patterns (edge with its X-squares, corner 3x3,
// corner 2x5, rows/columns 2-4, diagonals of length 4-8), each square one base-3 digit (empty, side to move,
// opponent), the symmetric instances of a pattern sharing one weight table, plus a bias and the mobility
// difference, with one set of weights per game stage (by empty squares). One spelling for CPU and CUDA: the
// instance squares and the weights are passed in (a host object, or its copy in device memory), since nvcc
// cannot index a constexpr host array from device code. The host sums the same indices faster by pext
// (cpu/pattern_sum_cpu.hpp), which relies on the digit order of kShapes.
//
// Exact symmetry (the 8 board symmetries give the same value) holds when every table is invariant under its
// pattern's self-symmetries (e.g. the edge read left to right or right to left); the fitting tool writes its
// tables that way (tools/pattern_symmetry.hpp).
#pragma once

#include <cstdint>

#include "evaluation.hpp"
#include "position.hpp"

namespace othello {

inline constexpr uint32_t kPatternKinds = 11;
inline constexpr uint32_t kPatternInstances = 46;
inline constexpr uint32_t kMaxPatternSquares = 10;
// Stage s holds positions with 5s+1 .. 5s+5 empty squares (a finished game is never evaluated).
inline constexpr uint32_t kEvaluationStages = 12;
inline constexpr uint32_t kEmptiesPerStage = 5;
// Weights are integers in this fraction of a disc.
inline constexpr int32_t kWeightsPerDisc = 32;

struct PatternInstance {
  uint32_t kind;
  uint32_t size;
  uint32_t symmetry;                    // the instance is the base shape under transform(symmetry, .)
  uint32_t squares[kMaxPatternSquares]; // the most significant base-3 digit first
};

struct PatternLayout {
  PatternInstance instances[kPatternInstances];
  uint32_t kind_size[kPatternKinds];   // squares of each pattern
  uint32_t kind_offset[kPatternKinds]; // where its table starts in a stage's weights
  uint32_t bias_slot;                  // a stage's constant
  uint32_t mobility_slot;              // per move the side to move has beyond its opponent
  uint32_t stage_entries;              // weights per stage
};

namespace pattern_detail {

struct Shape {
  uint32_t size;
  uint32_t squares[kMaxPatternSquares];
};

// The base instance of every pattern, near a1 (square 0) or along row 1, its squares in descending order: the
// most significant base-3 digit is the highest square, as in the bits pext gathers (cpu/pattern_sum_cpu.cpp).
inline constexpr Shape kShapes[kPatternKinds] = {
    {10, {14, 9, 7, 6, 5, 4, 3, 2, 1, 0}},   // edge + the two X-squares
    {9, {18, 17, 16, 10, 9, 8, 2, 1, 0}},    // corner 3x3
    {10, {12, 11, 10, 9, 8, 4, 3, 2, 1, 0}}, // corner 2x5
    {8, {15, 14, 13, 12, 11, 10, 9, 8}},     // row 2
    {8, {23, 22, 21, 20, 19, 18, 17, 16}},   // row 3
    {8, {31, 30, 29, 28, 27, 26, 25, 24}},   // row 4
    {8, {63, 54, 45, 36, 27, 18, 9, 0}},     // diagonal of 8
    {7, {55, 46, 37, 28, 19, 10, 1}},        // diagonal of 7
    {6, {47, 38, 29, 20, 11, 2}},            // diagonal of 6
    {5, {39, 30, 21, 12, 3}},                // diagonal of 5
    {4, {31, 22, 13, 4}},                    // diagonal of 4
};

constexpr bool squares_descend(const Shape& shape) {
  for (uint32_t k = 1; k < shape.size; ++k)
    if (shape.squares[k - 1] <= shape.squares[k]) return false;
  return true;
}
constexpr bool every_shape_descends() {
  for (const Shape& shape : kShapes)
    if (!squares_descend(shape)) return false;
  return true;
}
static_assert(every_shape_descends(), "the fast CPU index needs every base shape's squares in descending order");

// Symmetry g (0..7) of the board: a reflection of rows, of columns, then optionally a transposition.
constexpr uint32_t transform(uint32_t g, uint32_t square) {
  uint32_t row = square / 8, column = square % 8;
  if (g & 1) row = 7 - row;
  if (g & 2) column = 7 - column;
  if (g & 4) {
    const uint32_t t = row;
    row = column;
    column = t;
  }
  return row * 8 + column;
}

constexpr uint64_t square_set(const Shape& shape, uint32_t g) {
  uint64_t set = 0;
  for (uint32_t k = 0; k < shape.size; ++k) set |= uint64_t{1} << transform(g, shape.squares[k]);
  return set;
}

constexpr uint32_t power_of_three(uint32_t n) {
  uint32_t p = 1;
  for (uint32_t k = 0; k < n; ++k) p *= 3;
  return p;
}

} // namespace pattern_detail

// Every pattern's distinct images under the 8 symmetries (the first symmetry giving each square set).
constexpr PatternLayout make_pattern_layout() {
  using namespace pattern_detail;
  PatternLayout layout{};
  uint32_t count = 0, offset = 0;
  for (uint32_t kind = 0; kind < kPatternKinds; ++kind) {
    const Shape& shape = kShapes[kind];
    uint64_t seen[8] = {};
    uint32_t distinct = 0;
    for (uint32_t g = 0; g < 8; ++g) {
      const uint64_t set = square_set(shape, g);
      bool repeated = false;
      for (uint32_t k = 0; k < distinct; ++k) repeated = repeated || seen[k] == set;
      if (repeated) continue;
      seen[distinct++] = set;
      PatternInstance& instance = layout.instances[count++];
      instance.kind = kind;
      instance.size = shape.size;
      instance.symmetry = g;
      for (uint32_t k = 0; k < shape.size; ++k) instance.squares[k] = transform(g, shape.squares[k]);
    }
    layout.kind_size[kind] = shape.size;
    layout.kind_offset[kind] = offset;
    offset += power_of_three(shape.size);
  }
  layout.bias_slot = offset;
  layout.mobility_slot = offset + 1;
  layout.stage_entries = offset + 2;
  return layout;
}

inline constexpr PatternLayout kPatternLayout = make_pattern_layout();
static_assert(kPatternLayout.instances[kPatternInstances - 1].size == 4, "46 instances, the last a diagonal of 4");

GSDK_HD uint32_t evaluation_stage(const Position& p) {
  const uint32_t empties = 64u - static_cast<uint32_t>(gsdk::bits::popcount64(p.own | p.opponent));
  const uint32_t stage = empties == 0 ? 0 : (empties - 1) / kEmptiesPerStage;
  return stage < kEvaluationStages ? stage : kEvaluationStages - 1;
}

// The base-3 index of an instance: digit 0 empty, 1 the side to move's disc, 2 the opponent's.
GSDK_HD uint32_t pattern_index(const PatternInstance& instance, const Position& p) {
  uint32_t index = 0;
  for (uint32_t k = 0; k < instance.size; ++k) {
    const uint32_t square = instance.squares[k];
    index = index * 3 + static_cast<uint32_t>((p.own >> square) & 1) +
            2 * static_cast<uint32_t>((p.opponent >> square) & 1);
  }
  return index;
}

GSDK_HD int32_t mobility_difference(const Position& p) {
  return gsdk::bits::popcount64(legal_moves(p.own, p.opponent)) -
         gsdk::bits::popcount64(legal_moves(p.opponent, p.own));
}

// The sum of p's features under `weights` (all stages, kEvaluationStages * stage_entries), in 1/kWeightsPerDisc
// discs, the side to move's view, not yet bounded.
GSDK_HD int32_t pattern_sum(const Position& p, const PatternLayout& layout, const int16_t* weights) {
  const int16_t* stage = weights + static_cast<uint64_t>(evaluation_stage(p)) * layout.stage_entries;
  int32_t sum = stage[layout.bias_slot] + stage[layout.mobility_slot] * mobility_difference(p);
  for (uint32_t i = 0; i < kPatternInstances; ++i) {
    const PatternInstance& instance = layout.instances[i];
    sum += stage[layout.kind_offset[instance.kind] + pattern_index(instance, p)];
  }
  return sum;
}

// A pattern sum bounded to gsdk.evaluation.v1's contract: strictly inside (-kEvaluationScale, kEvaluationScale)
// (a whole board of discs, 64 * kWeightsPerDisc, is half the scale).
GSDK_HD int32_t bounded_pattern_value(int32_t sum) {
  const int32_t bound = kEvaluationScale - 1;
  return sum > bound ? bound : sum < -bound ? -bound : sum;
}

// The pattern evaluation in gsdk.evaluation.v1's contract. The host uses pattern_evaluation_cpu
// (cpu/pattern_sum_cpu.hpp), the same value by pext.
GSDK_HD int32_t pattern_evaluation(const Position& p, const PatternLayout& layout, const int16_t* weights) {
  return bounded_pattern_value(pattern_sum(p, layout, weights));
}

} // namespace othello
