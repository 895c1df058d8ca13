// perft_reference.hpp - published Othello perft counts from the start position (as the issue quotes
// them; they agree with the tables of Aart Bik's and Edax's perft runs).
#pragma once

#include <array>
#include <cstdint>

namespace othello::test {

// A pass is a ply, a finished game is a leaf: depths 1..14.
inline constexpr std::array<uint64_t, 14> kStandardPerft = {
    4,        12,        56,         244,         1396,         8200,          55092,
    390216,   3005288,   24571284,   212258800,   1939886636,   18429641748,   184042084512};

struct OtherConvention {
  const char* convention;
  uint64_t depth10, depth12, depth14;
};

inline constexpr std::array<OtherConvention, 3> kOtherConventions = {{
    {"standard", 24571284, 1939886636, 184042084512},
    {"finished_not_leaf", 24571056, 1939879668, 184041761768},
    {"free_pass", 24571420, 1939899208, 184043158384},
}};

} // namespace othello::test
