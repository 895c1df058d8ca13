# deb_package.cmake - `cpack -G DEB` makes a .deb whose metadata is right and whose files, unpacked
# with dpkg-deb into a scratch root, are the installed layout under usr/, with a gsdk that finds the
# shipped plugins in <root>/usr/lib/gsdk/plugins by itself.
#
# Inputs (-D): BUILD_DIR, WORK_DIR, VERSION, SHIPPED_PLUGINS (a list), CPACK (the cpack program), WITH_MPI (whether
# gsdk is built with MPI, cmake/Mpi.cmake), WITH_PYTHON (whether the Python module is built, cmake/Python.cmake) and
# PYTHON (the interpreter it is built for).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB)
  skip_test("no dpkg-deb on this machine to unpack the .deb")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
run_step("cpack" ignored ${CPACK} --config ${BUILD_DIR}/CPackConfig.cmake -G DEB -B ${WORK_DIR})
file(GLOB debs ${WORK_DIR}/gsdk_${VERSION}_*.deb)
list(LENGTH debs deb_count)
if(NOT deb_count EQUAL 1)
  message(FATAL_ERROR "cpack made ${deb_count} packages named gsdk_${VERSION}_*.deb in ${WORK_DIR}; expected one")
endif()

# Metadata: Depends computed from the binaries (libc and the GCC/C++ runtime only, and OpenMPI's libraries where gsdk
# is built with MPI), Recommends librandom123-dev for plugin builds.
run_step("dpkg-deb -f" fields ${DPKG_DEB} -f ${debs} Package Version Maintainer Depends Recommends Description)
foreach(expected "Package: gsdk\n" "Version: ${VERSION}\n" "Recommends: librandom123-dev\n" "Maintainer: [^\n]+ <[^\n]+@[^\n]+>\n"
                 "Description: [^\n]+\n")
  if(NOT fields MATCHES "${expected}")
    message(FATAL_ERROR "the package's control fields lack '${expected}'")
  endif()
endforeach()
string(REGEX MATCH "Depends: [^\n]*" depends "${fields}")
string(REGEX REPLACE " \\([^)]*\\)" "" depends_names "${depends}")
string(REGEX REPLACE "^Depends: " "" depends_names "${depends_names}")
string(REPLACE ", " ";" depends_names "${depends_names}")
if(NOT "libc6" IN_LIST depends_names OR NOT "libstdc++6" IN_LIST depends_names)
  message(FATAL_ERROR "'${depends}' must name libc6 and libstdc++6")
endif()
list(REMOVE_ITEM depends_names libc6 libstdc++6 libgcc-s1)
if(WITH_MPI)
  # Debian 12's package of libmpi.so.40.
  list(REMOVE_ITEM depends_names libopenmpi3)
endif()
if(WITH_PYTHON)
  # The Python module links the shared libraries of what gsdk links statically (cmake/Dependencies.cmake says why).
  list(FILTER depends_names EXCLUDE REGEX "^(libboost-program-options[0-9.]+|libpng16-16|libssl3|zlib1g)$")
endif()
if(depends_names)
  message(FATAL_ERROR "'${depends}': the binaries must need nothing beyond libc and the GCC/C++ runtime (and OpenMPI "
                      "where built with MPI: WITH_MPI=${WITH_MPI}; Boost.Program_options, libpng, libssl and zlib "
                      "where the Python module is built: WITH_PYTHON=${WITH_PYTHON}), found ${depends_names}")
endif()

set(root ${WORK_DIR}/root)
run_step("dpkg-deb -x" ignored ${DPKG_DEB} -x ${debs} ${root})
file(GLOB top_level RELATIVE ${root} ${root}/*)
if(NOT top_level STREQUAL "usr")
  message(FATAL_ERROR "the package installs ${top_level} at the top level; expected usr only")
endif()
check_installed_layout(${root}/usr ${SHIPPED_PLUGINS})
if(WITH_PYTHON)
  # The packaged module imports from the unpacked tree and finds the packaged plugins beside it, as from /usr.
  run_step("import gsdk" listed ${CMAKE_COMMAND} -E env PYTHONPATH=${root}/usr/lib/python3/dist-packages ${PYTHON} -c
           "import gsdk\nprint(*(p['name'] for p in gsdk.list()['plugins']), gsdk.__file__)")
  foreach(plugin IN LISTS SHIPPED_PLUGINS)
    if(NOT listed MATCHES "(^| )${plugin}( |$)")
      message(FATAL_ERROR "the packaged Python module lists '${listed}', without the shipped plugin ${plugin}")
    endif()
  endforeach()
  if(NOT listed MATCHES "${root}/usr/lib/python3/dist-packages/gsdk/")
    message(FATAL_ERROR "python3 imported gsdk from another place than the package: ${listed}")
  endif()
endif()
message(STATUS "${debs}: ${depends}; installs the layout under /usr, whose gsdk finds its plugins")
