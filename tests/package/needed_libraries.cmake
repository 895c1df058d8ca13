# needed_libraries.cmake - the shared libraries the built gsdk executable and shipped plugins need (their ELF NEEDED
# entries, read with readelf) are those the README promises: libc and the GCC/C++ runtime (libstdc++, libm,
# libgcc_s, the loader), and for the executable OpenMPI's libmpi where gsdk is built with MPI. Boost, libpng, zlib,
# libcrypto and the CUDA runtime are linked statically; a new shared dependency fails here before it reaches a user.
#
# cmake -DEXECUTABLE=gsdk "-DPLUGINS=a.so;b.so" -DREADELF=readelf -DWITH_MPI=ON|OFF -P needed_libraries.cmake
cmake_minimum_required(VERSION 3.25) # IN_LIST in if()
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

if(NOT READELF)
  message("package test skipped: no readelf")
  return()
endif()

set(runtime libc.so.6 libstdc++.so.6 libm.so.6 libgcc_s.so.1 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1)

# Fails naming `file` and each library it needs beyond `allowed`.
function(check_needed file allowed)
  run_step("readelf -d ${file}" dynamic ${READELF} -d ${file})
  string(REGEX MATCHALL "\\(NEEDED\\)[^[]*\\[[^]]+\\]" entries "${dynamic}")
  set(beyond)
  foreach(entry IN LISTS entries)
    string(REGEX REPLACE ".*\\[([^]]+)\\]" "\\1" library "${entry}")
    if(NOT library IN_LIST allowed)
      list(APPEND beyond ${library})
    endif()
  endforeach()
  if(beyond)
    message(FATAL_ERROR "${file} needs ${beyond}; the README promises libc and the C++ runtime only (and libmpi for "
                        "the executable of an MPI build, WITH_MPI=${WITH_MPI})")
  endif()
endfunction()

set(executable_allowed ${runtime})
if(WITH_MPI)
  list(APPEND executable_allowed libmpi.so.40)
endif()
check_needed(${EXECUTABLE} "${executable_allowed}")
foreach(plugin IN LISTS PLUGINS)
  check_needed(${plugin} "${runtime}")
endforeach()
message(STATUS "gsdk and ${PLUGINS} need only ${executable_allowed}")
