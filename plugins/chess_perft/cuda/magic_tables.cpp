// magic_tables.cpp - the attack tables the GPU looks sliders up in (rules/magic_attacks.hpp): every
// relevant occupancy of every square, placed by its embedded magic number. The numbers were found by
// tools/find_magics.cpp (a seeded search, 0.3 s, too slow to repeat at each start); filling checks
// that no two occupancies with different attacks share a slot, so a wrong number cannot go unnoticed.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/attack_tables.hpp"
#include "rules/magic_attacks.hpp"

namespace chess::magic {

namespace {

constexpr uint64_t kRookMagics[64] = {
    0x1080004008801020ull, 0x0840092002c03000ull, 0x1900200010400900ull, 0x0880100008000480ull,
    0x4200100420080200ull, 0x8100020100080400ull, 0x0200040110886200ull, 0x0200008040220411ull,
    0x0404800084400220ull, 0x0000401000402000ull, 0x0086001081220440ull, 0x0408800800100280ull,
    0x000a001201040820ull, 0x8848800200840080ull, 0x4001000100040200ull, 0x0442000102105084ull,
    0x9080010020804100ull, 0x0040404000201009ull, 0x0000808010002009ull, 0x2200090021d00100ull,
    0x0008008008040080ull, 0x0004004002010040ull, 0x0011040008015042ull, 0x00000a0001768104ull,
    0x0000800080204009ull, 0x2010004140002001ull, 0x9800200280100080ull, 0x1000100080080080ull,
    0x0442000a00049020ull, 0x2100040080020080ull, 0x0800120400900148ull, 0x0010040a00128541ull,
    0x2800804000800030ull, 0x1010002000400041ull, 0x4000200011004100ull, 0x0610008410800800ull,
    0x0400802402800800ull, 0xc100020080800400ull, 0x0002000802000401ull, 0x0182085882000401ull,
    0x0220204000808000ull, 0x2860100040024022ull, 0x0001002004110040ull, 0x99101042000a0020ull,
    0x0004080004008080ull, 0x0010040002008080ull, 0x2012004881020004ull, 0x8300842444820011ull,
    0x0088403882010200ull, 0x0820400080210100ull, 0x0110910040a00300ull, 0x0801100280080480ull,
    0x0242009008200600ull, 0x1002000489500200ull, 0x0040800200010080ull, 0x0091800041000080ull,
    0x0000209300488001ull, 0x04c1002414824001ull, 0x020020000b001041ull, 0x7000100004200901ull,
    0x8002002004100802ull, 0x30010002084c0007ull, 0x0888221800813004ull, 0x4000002840840112ull,
};
constexpr uint64_t kBishopMagics[64] = {
    0xa010041108003100ull, 0x006082020a002900ull, 0x6810010619200000ull, 0x08281a0520000408ull,
    0x0001104001000400ull, 0x0018901008048400ull, 0x00040a0210245280ull, 0x000200210808a402ull,
    0x9140048410821200ull, 0x0800091010820041ull, 0x20504804832202c0ull, 0x0100091401081000ull,
    0x8021011140000012ull, 0x0810020804450400ull, 0x208b0542109008a2ull, 0x0080084a08040204ull,
    0x0040e2a80811244cull, 0x2505022008008108ull, 0x0430220100420040ull, 0x010a040420220040ull,
    0x1105000290400000ull, 0x0093001200822120ull, 0x4000a62048043004ull, 0x280120048a015004ull,
    0x006090002a020814ull, 0x44042000240800d0ull, 0x01102800040a4400ull, 0x1004080080220040ull,
    0x0001001011004024ull, 0x0010044000805040ull, 0x0914041200820100ull, 0x0004821012821480ull,
    0x0024040500c05021ull, 0x0088611002080200ull, 0x0116080a00040020ull, 0x4000020080080080ull,
    0x2450450140840040ull, 0x0000880201484100ull, 0x0222020404020092ull, 0x8081110600002e00ull,
    0x2842101105000801ull, 0x1100809008001025ull, 0x00020202221c0400ull, 0x0422014022009020ull,
    0x0210046102100c00ull, 0xc004008082029102ull, 0x00aa461801101200ull, 0x0404080080201108ull,
    0x020542108c205002ull, 0x0410544804100100ull, 0x0040910841100000ull, 0x0400200042021100ull,
    0x00004204850400c0ull, 0x0200100410a42102ull, 0x1040020801210102ull, 0x0805040410420000ull,
    0x2884804130100200ull, 0x800c262201242000ull, 0x1058000194108800ull, 0x0014221054420204ull,
    0x0104000012a02200ull, 0x0200881003300100ull, 0x0140400202840100ull, 0x0402020801010201ull,
};

uint32_t fill(Tables& tables, Entry& entry, int sq, bool diagonal, uint64_t magic, uint32_t offset) {
  const Bitboard mask = relevant_occupancy(sq, diagonal);
  const int bits = popcount(mask);
  entry = {mask, magic, offset, static_cast<uint32_t>(64 - bits), 0};
  if (entry.shift < 52) throw std::logic_error("chess_perft: a slider index of more than 12 bits");
  std::vector<bool> filled(size_t{1} << bits, false);
  for_each_subset(mask, [&](Bitboard subset) {
    const Bitboard attacks = slider_attacks_by_rays(sq, diagonal, subset);
    const uint32_t index = slice_index(subset, magic, entry.shift);
    Bitboard& slot = tables.attacks[offset + index];
    if (filled[index] && slot != attacks)
      throw std::logic_error("chess_perft: the embedded magic number of square " + std::to_string(sq) + " collides");
    slot = attacks;
    filled[index] = true;
  });
  return offset + (1u << bits);
}

std::unique_ptr<Tables> build() {
  auto tables = std::make_unique<Tables>();
  uint32_t offset = 0;
  for (int sq = 0; sq < 64; ++sq) offset = fill(*tables, tables->rook[sq], sq, false, kRookMagics[sq], offset);
  for (int sq = 0; sq < 64; ++sq) offset = fill(*tables, tables->bishop[sq], sq, true, kBishopMagics[sq], offset);
  return tables;
}

} // namespace

const Tables& host_tables() {
  static const std::unique_ptr<Tables> tables = build();
  return *tables;
}

} // namespace chess::magic
