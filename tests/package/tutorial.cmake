# tutorial.cmake - the plugin authors' tutorial, run as written: every ```sh tutorial block of
# docs/plugin_authors.md, in order, as one bash script (set -euo pipefail) in a fresh folder outside the
# checkout, with the installed gsdk first on PATH and its prefix on CMAKE_PREFIX_PATH, as a reader who
# installed gsdk has them. A line starting with "! " is a command the tutorial expects to fail: it must exit
# with status 1 (a failed check, not bad usage), and the script stops if it does not.
#
# Inputs (-D): DOC, PREFIX, GENERATOR, CXX_COMPILER, and optionally CUDA_COMPILER, CXX_LAUNCHER, CUDA_LAUNCHER.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

if(NOT EXISTS ${CXX_COMPILER})
  skip_test("no C++ compiler at ${CXX_COMPILER} on this machine")
endif()
file(READ ${DOC} text)
string(REGEX MATCHALL "```sh tutorial\n[^`]*```" blocks "${text}")
list(LENGTH blocks count)
if(count EQUAL 0)
  message(FATAL_ERROR "${DOC} has no ```sh tutorial block")
endif()

set(script "set -euo pipefail\nexport PATH='${PREFIX}/bin':\"$PATH\" CMAKE_PREFIX_PATH='${PREFIX}'\n")
string(APPEND script "export CMAKE_GENERATOR='${GENERATOR}' CXX='${CXX_COMPILER}'\nunset GSDK_PLUGIN_PATH\n")
if(CUDA_COMPILER)
  string(APPEND script "export CUDACXX='${CUDA_COMPILER}'\n")
endif()
if(CXX_LAUNCHER)
  string(APPEND script "export CMAKE_CXX_COMPILER_LAUNCHER='${CXX_LAUNCHER}'\n")
endif()
if(CUDA_LAUNCHER)
  string(APPEND script "export CMAKE_CUDA_COMPILER_LAUNCHER='${CUDA_LAUNCHER}'\n")
endif()
string(APPEND script "set -x # every command of the tutorial, as it runs\n")
foreach(block IN LISTS blocks)
  string(REGEX REPLACE "^```sh tutorial\n" "" block "${block}")
  string(REGEX REPLACE "```$" "" block "${block}")
  string(REPLACE "\n" ";" lines "${block}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^! (.*)$")
      # `! cmd` would not stop a set -e script when cmd succeeds: spell the expectation out.
      string(APPEND script "set +e\n${CMAKE_MATCH_1}\nrc=$?\nset -e\n"
                           "if [ $rc -ne 1 ]; then echo \"expected exit status 1, got $rc\"; exit 1; fi\n")
    elseif(NOT line STREQUAL "")
      string(APPEND script "${line}\n")
    endif()
  endforeach()
endforeach()

execute_process(COMMAND mktemp -d /tmp/gsdk-tutorial-XXXXXX OUTPUT_VARIABLE work OUTPUT_STRIP_TRAILING_WHITESPACE
                COMMAND_ERROR_IS_FATAL ANY)
file(WRITE ${work}/tutorial.sh "${script}")
message(STATUS "the tutorial's ${count} blocks as ${work}/tutorial.sh (removed when the test passes)")
run_step("the tutorial" ignored ${CMAKE_COMMAND} -E chdir ${work} bash ${work}/tutorial.sh)
file(REMOVE_RECURSE ${work})
message(STATUS "the plugin authors' tutorial ran as written against ${PREFIX}")
