// cuda_memory_shelf.hpp - where device arenas go between runs of one process while
// KeepCudaMemory is alive (cuda_devices.hpp), instead of back to CUDA (internal to the core's CUDA build).
//
// A rank of an MPI job runs many chunks, each a run of its own that sizes an arena from the free memory and
// frees it at the end: cudaMalloc and cudaFree of half a GPU's memory cost tens of milliseconds, paid again by
// every chunk. On the shelf, the next run of the process takes the same memory back.
#pragma once

#include <cstdint>

namespace gsdk::core::shelf {

// The smallest device block of at least `bytes` on `device` from the shelf, or null; `*size` gets its size. Never a
// smaller one: most arenas are sized to exactly what their run needs. (Arenas sized as a share of the free memory
// round that share, so that the next run asks for the same size: perft.cpp.)
void* take_device(int device, uint64_t bytes, uint64_t* size);
// Gives the block back to CUDA unless the shelf keeps it: then only once the device has finished the work queued
// on it (as cudaFree would wait), so the next run never meets work of the last one in its memory.
void put_device(int device, void* block, uint64_t size);
// cudaMalloc that, when the device is out of memory, frees this device's shelved blocks and tries again.
void* allocate_device(int device, uint64_t bytes, const char* what);
// Bytes of `device` on the shelf: free for the next run.
uint64_t device_bytes(int device);

} // namespace gsdk::core::shelf
