// isa.hpp - a plugin's code for one instruction set (BMI2, AVX2, AVX-512) inside a source that is compiled for
// the baseline processor, between GSDK_BEGIN_BMI2 / GSDK_BEGIN_AVX2 / GSDK_BEGIN_AVX512 and GSDK_END_ISA, after
// the source's other includes.
//
// Why not compile the whole source with -mavx512f: every inline function of a shared header (the game's
// rules) that such a source emits out of line is then AVX-512 code under the same symbol as the baseline
// copy other sources emit, and the linker keeps one of the two. When it keeps the AVX-512 copy, a baseline
// caller executes AVX-512 instructions and dies of SIGILL on a processor without them, although the
// AVX-512 kernel itself is only called after a run-time check. With the region, only the functions defined
// inside it are compiled for the instruction set; inline functions of headers included before it stay
// baseline code wherever they are emitted, and are inlined into the region's functions as before.
#pragma once

// GCC marks a region with its target pragmas; clang does not know them and applies the same target attribute to every
// function declared in the region instead (the instrumented builds of docs/testing.md are clang's).
#if defined(__clang__)
#define GSDK_ISA_PRAGMA(text) _Pragma(#text)
#define GSDK_BEGIN_BMI2                                                                                                \
  GSDK_ISA_PRAGMA(clang attribute push(__attribute__((target("bmi,bmi2,popcnt"))), apply_to = function))
#define GSDK_BEGIN_AVX2                                                                                                \
  GSDK_ISA_PRAGMA(clang attribute push(__attribute__((target("avx2,bmi,bmi2,popcnt"))), apply_to = function))
#define GSDK_BEGIN_AVX512                                                                                              \
  GSDK_ISA_PRAGMA(clang attribute push(                                                                                \
      __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,bmi,bmi2,popcnt"))), apply_to = function))
#define GSDK_END_ISA _Pragma("clang attribute pop")
#else
#define GSDK_BEGIN_BMI2 _Pragma("GCC push_options") _Pragma("GCC target(\"bmi,bmi2,popcnt\")")
#define GSDK_BEGIN_AVX2 _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,bmi,bmi2,popcnt\")")
#define GSDK_BEGIN_AVX512                                                                                              \
  _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f,avx512bw,avx512vl,avx512vpopcntdq,bmi,bmi2,popcnt\")")
#define GSDK_END_ISA _Pragma("GCC pop_options")
#endif
