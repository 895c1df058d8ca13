# Warnings.cmake - warnings are errors in our own code (third-party headers are included as SYSTEM).
function(gsdk_strict_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Werror -Wno-psabi>
    $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings -Xcompiler=-Wall,-Wextra>)
  # The fuzz build (clang, no CUDA): clang does not know the GCC warning names of the pragmas around GCC 12's false
  # positives, and the CUDA wrappers' fields (core/include/gsdk/core/runtime/cuda_devices.hpp) are used only by CUDA
  # sources, absent there.
  if(GSDK_FUZZ)
    target_compile_options(${target} PRIVATE -Wno-unknown-warning-option -Wno-unused-private-field)
  endif()
endfunction()
