# Sanitizers.cmake - the two instrumented builds of the test command (docs/testing.md):
#   GSDK_SANITIZE=address,undefined  every target built and linked with these sanitizers (scripts/test.sh's
#                                    build-sanitize/); GCC or clang.
#   GSDK_FUZZ=ON                     clang only: every target compiled for libFuzzer with ASan and UBSan, and the
#                                    fuzz targets of the parsers (tests/fuzz/) added to the rest: this one build
#                                    runs both the sanitized suite and the fuzzers (scripts/test.sh).
# Both build the CPU paths only (GSDK_CUDA=OFF): host sanitizers do not see into device code, which
# compute-sanitizer checks on a GPU machine, and nvcc does not take these flags.
#
# Plugins are MODULEs dlopen'ed by gsdk and the tests. They are built with the same flags and the shared sanitizer
# runtime (GCC's default; clang's -shared-libasan, whose runtime also holds UBSan's handlers), so each one records
# that runtime as a needed library (which keeps -Wl,--no-undefined satisfied), and the executables load the one
# shared runtime first, as ASan requires. Nothing links libstdc++ statically, so
# every module shares one allocator and one set of interceptors. A plugin built without sanitizers still loads
# into a sanitized gsdk (its code is simply not checked); the reverse does not work, which is why the
# installed package of a sanitized build is for tests only.
set(GSDK_SANITIZE "" CACHE STRING "Build with these sanitizers (e.g. address,undefined); CPU paths only")
option(GSDK_FUZZ "Build the libFuzzer targets of tests/fuzz with clang (CPU paths only)" OFF)

if(NOT GSDK_SANITIZE AND NOT GSDK_FUZZ)
  return()
endif()
if(NOT GSDK_CUDA STREQUAL "OFF")
  message(STATUS "gsdk: GSDK_SANITIZE/GSDK_FUZZ build the CPU paths only: GSDK_CUDA set to OFF")
  set(GSDK_CUDA OFF CACHE STRING "Build the CUDA paths: AUTO, ON or OFF" FORCE)
endif()

# -O0 (after the build type's -O3, so it wins): compile time is most of this stage's time, and clang 14 compiles a
# host source with ASan+UBSan at -O0 in 14 s of CPU against 36 s at -O1 (and 19 s for a plain -O3 build), while the
# sanitized suite runs in minutes either way; the sanitizers miss nothing at -O0. -g1: line tables for the reports'
# stack traces at a fraction of -g's compile time. No recovery from UBSan findings: a finding fails the test that
# met it rather than scrolling past in its output.
set(gsdk_sanitizer_flags -O0 -g1 -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
if(GSDK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GSDK_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++ "
                        "-DCMAKE_C_COMPILER=clang")
  endif()
  # fuzzer-no-link: coverage for libFuzzer everywhere; only the fuzz targets link libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined ${gsdk_sanitizer_flags})
  # clang links its static runtime into executables only and leaves the plugins' calls into it undefined, which
  # -Wl,--no-undefined refuses; the shared runtime is not on the loader's path, hence the rpath.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                  OUTPUT_VARIABLE gsdk_asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  cmake_path(GET gsdk_asan_runtime PARENT_PATH gsdk_asan_runtime_dir)
  add_link_options(-fsanitize=address,undefined -shared-libasan LINKER:-rpath,${gsdk_asan_runtime_dir})
else()
  add_compile_options(-fsanitize=${GSDK_SANITIZE} ${gsdk_sanitizer_flags})
  add_link_options(-fsanitize=${GSDK_SANITIZE})
endif()
message(STATUS "gsdk: sanitizers ${GSDK_SANITIZE} fuzz ${GSDK_FUZZ}")
