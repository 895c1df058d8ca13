# installed_layout.cmake - the installed prefix holds the documented layout with exactly the shipped
# plugins, its gsdk finds them by itself, and its CMake files name no folder of the build machine.
#
# Inputs (-D): PREFIX, SOURCE_DIR, BUILD_DIR, SHIPPED_PLUGINS (a list).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

check_installed_layout(${PREFIX} ${SHIPPED_PLUGINS})

# Relocatable: the package finds everything relative to itself.
file(GLOB package_files ${PREFIX}/lib/cmake/gsdk/*)
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(machine_dir ${SOURCE_DIR} ${BUILD_DIR} ${PREFIX})
    string(FIND "${text}" "${machine_dir}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} names ${machine_dir}: the installed package must not depend on where it was built "
                          "or installed")
    endif()
  endforeach()
endforeach()
message(STATUS "${PREFIX}: the installed layout, its plugins found by its gsdk, a relocatable CMake package")
