// isa.hpp - keeps code built for different instruction sets apart.
//
// The rules are header templates compiled into several translation units: a portable one, one with
// BMI2 + POPCNT for the CPU perft fast path, and the CUDA one. Each build lives in its own inline
// namespace, so the linker never merges a BMI2 function into the portable path (an ODR clash that
// would crash older CPUs), while callers still just write chess::perft.
#pragma once

#if defined(__BMI2__) && defined(__POPCNT__) && !defined(__CUDACC__)
#define CHESS_USE_PEXT 1
#define CHESS_ISA_BEGIN inline namespace bmi2 {
#else
#define CHESS_ISA_BEGIN inline namespace portable {
#endif
#define CHESS_ISA_END }
