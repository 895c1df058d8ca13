// block_rows.cuh - rows of bytes (legal masks, observations) that each thread of a block computes for its own game,
// written to global memory through shared memory: a thread writing its row directly stores bytes RowBytes apart
// from its neighbours' (a warp touching 32 rows at once), while the block's copy writes consecutive words.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gsdk::cuda {

template <uint32_t RowBytes, uint32_t Block> struct BlockRows {
  // Rows whose length is a multiple of 128 bytes would put byte j of every thread's row in one shared-memory bank (a
  // 32-way conflict on every store: Othello's 128-byte observations ran at 2e9 rows/s on an H200); a stride one
  // word longer spreads a warp's stores over all banks.
  static constexpr uint32_t kStride = RowBytes % 128 == 0 ? RowBytes + 4 : RowBytes;
  static constexpr uint32_t kBytes = kStride * Block;
  uint8_t* shared; // kBytes of the block's shared memory

  __device__ uint8_t* row(uint32_t thread) const { return shared + thread * kStride; }

  // Called by every thread of the block: copies the first `rows` rows to out[0 .. rows * RowBytes).
  __device__ void flush(uint8_t* out, uint32_t rows) const {
    __syncthreads();
    const uint32_t bytes = rows * RowBytes;
    if (RowBytes % 4 == 0 && reinterpret_cast<uintptr_t>(out) % 4 == 0) {
      constexpr uint32_t kWordsPerRow = RowBytes / 4;
      auto* to = reinterpret_cast<uint32_t*>(out);
      for (uint32_t w = threadIdx.x; w < bytes / 4; w += Block)
        to[w] = *reinterpret_cast<const uint32_t*>(shared + (w / kWordsPerRow) * kStride + (w % kWordsPerRow) * 4);
    } else {
      for (uint32_t b = threadIdx.x; b < bytes; b += Block) out[b] = shared[(b / RowBytes) * kStride + b % RowBytes];
    }
    __syncthreads(); // the rows may be written again for the next tile
  }
};

} // namespace gsdk::cuda
