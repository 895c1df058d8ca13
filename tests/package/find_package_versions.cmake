# find_package_versions.cmake - find_package(gsdk <version>) against the build folder and against a
# moved copy of the installed prefix: which versions the package accepts (the same major, as old as or
# older than this gsdk: docs/plugin_authors.md, "Versions"), what gsdk::sdk carries, and the message
# when the Random123 headers are missing. Configures tests/package/probe, which builds nothing.
#
# Inputs (-D): BUILD_DIR, SOURCE_DIR, PREFIX, WORK_DIR, VERSION (gsdk's), ABI_VERSION (major.minor),
# RANDOM123_INCLUDE_DIR (where this machine's Random123 headers are).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
set(probe_source ${CMAKE_CURRENT_LIST_DIR}/probe)
# Configures the probe in a fresh folder named after the case; returns its exit status and output.
function(configure_probe label rc_var out_var)
  string(MAKE_C_IDENTIFIER "${label}" folder)
  set(command ${CMAKE_COMMAND} -S ${probe_source} -B ${WORK_DIR}/${folder} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
      ${ARGN})
  list(JOIN command " " shown)
  message(STATUS "${label}: ${shown}")
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${rc_var} ${rc} PARENT_SCOPE)
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

# Fails unless the probe found gsdk with the expected package folder and SDK include folder.
function(expect_found label package_dir sdk_include_dir)
  configure_probe("${label}" rc out ${ARGN})
  string(REGEX MATCH "gsdk probe: [^\n]*" probe "${out}")
  message(STATUS "${label}: ${probe}")
  set(expected "gsdk probe: version=${VERSION} abi=${ABI_VERSION} dir=${package_dir} sdk_includes=${sdk_include_dir} sdk_links=gsdk::random123 random123_includes=${RANDOM123_INCLUDE_DIR}")
  if(NOT rc EQUAL 0 OR NOT probe STREQUAL expected)
    message(FATAL_ERROR "${label}: expected\n  ${expected}\nfound (exit status ${rc})\n${out}")
  endif()
endfunction()

# Fails unless configuring the probe fails with every one of the given messages.
function(expect_refused label messages)
  configure_probe("${label}" rc out ${ARGN})
  if(rc EQUAL 0)
    message(FATAL_ERROR "${label}: the probe configured, but gsdk ${VERSION} must be refused\n${out}")
  endif()
  # CMake wraps the messages of packages: compare with every run of white space as one space.
  string(REGEX REPLACE "[ \n]+" " " flat "${out}")
  foreach(message IN LISTS messages)
    string(FIND "${flat}" "${message}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${label}: expected the message \"${message}\", found\n${out}")
    endif()
  endforeach()
  message(STATUS "${label}: refused as expected")
endfunction()

string(REGEX MATCH "^[0-9]+" major ${VERSION})
math(EXPR next_major "${major} + 1")
string(REGEX MATCH "^[0-9]+\\.[0-9]+" major_minor ${VERSION})

# The build folder's package, by gsdk_DIR and by CMAKE_PREFIX_PATH: the SDK headers of the source tree.
expect_found("build folder, gsdk_DIR" ${BUILD_DIR} ${SOURCE_DIR}/sdk/include -Dgsdk_DIR=${BUILD_DIR}
             -DPROBE_VERSION=${major_minor})
expect_found("build folder, CMAKE_PREFIX_PATH" ${BUILD_DIR} ${SOURCE_DIR}/sdk/include
             -DCMAKE_PREFIX_PATH=${BUILD_DIR} -DPROBE_VERSION=${VERSION})

# The installed package, moved after installation: everything comes from where it is now.
set(moved ${WORK_DIR}/moved-prefix)
file(COPY ${PREFIX}/ DESTINATION ${moved})
expect_found("moved installed prefix" ${moved}/lib/cmake/gsdk ${moved}/include -DCMAKE_PREFIX_PATH=${moved}
             -DPROBE_VERSION=${major}.0)

# Versions: a newer minor or another major is refused, naming the version there is.
string(REGEX REPLACE "^([0-9]+)\\.([0-9]+).*" "\\2" minor ${VERSION})
math(EXPR next_minor "${minor} + 1")
expect_refused("a newer minor version" "${moved}/lib/cmake/gsdk/gsdkConfig.cmake, version: ${VERSION}"
               -DCMAKE_PREFIX_PATH=${moved} -DPROBE_VERSION=${major}.${next_minor})
expect_refused("the next major version" "${moved}/lib/cmake/gsdk/gsdkConfig.cmake, version: ${VERSION}"
               -DCMAKE_PREFIX_PATH=${moved} -DPROBE_VERSION=${next_major}.0)

# No Random123 headers where the package is used: a message saying what to install.
expect_refused("no Random123 headers" "gsdk needs the Random123 headers (Random123/philox.h; Debian: librandom123-dev)"
               -DCMAKE_PREFIX_PATH=${moved} -DPROBE_VERSION=${major_minor} -DCMAKE_FIND_ROOT_PATH=${WORK_DIR}/empty
               -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=NEVER)
message(STATUS "find_package(gsdk) accepts ${major}.x up to ${VERSION} from the build folder and a moved prefix")
