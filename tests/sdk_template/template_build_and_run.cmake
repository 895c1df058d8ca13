# template_build_and_run.cmake - cmake -P script behind the sdk_template_build_and_run test.
#
# Inputs (-D): TEMPLATE_SOURCE_DIR, GSDK_CMAKE_DIR, WORK_DIR, GSDK_EXECUTABLE, TEMPLATE_GENERATOR,
# TEMPLATE_MAKE_PROGRAM, TEMPLATE_CXX_COMPILER, TEMPLATE_RANDOM123_INCLUDE_DIR (the last four optional).
cmake_minimum_required(VERSION 3.25)

foreach(required TEMPLATE_SOURCE_DIR GSDK_CMAKE_DIR WORK_DIR GSDK_EXECUTABLE)
  if(NOT ${required})
    message(FATAL_ERROR "template_build_and_run.cmake: -D${required}=... is required")
  endif()
endforeach()

# Where the build folder was carried to a machine without the compiler (a GPU machine), there is
# nothing to build with: skip (CMakeLists.txt maps this line to CTest's "skipped").
if(TEMPLATE_CXX_COMPILER AND NOT EXISTS ${TEMPLATE_CXX_COMPILER})
  message("sdk_template test skipped: no C++ compiler at ${TEMPLATE_CXX_COMPILER} on this machine")
  return()
endif()

# Runs a command, echoes it and its output, stops the test when it exits non-zero. The output is
# returned in ${out_var}.
function(run_step label out_var)
  list(JOIN ARGN " " shown)
  message(STATUS "${label}: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${label} failed (exit status ${rc})")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

set(build_dir ${WORK_DIR}/build)
set(plugin_dir ${build_dir}/plugins)
file(MAKE_DIRECTORY ${WORK_DIR})

# 1. Configure and build the template against sdk/cmake alone.
set(configure ${CMAKE_COMMAND} -S ${TEMPLATE_SOURCE_DIR} -B ${build_dir} -Dgsdk_DIR=${GSDK_CMAKE_DIR})
if(TEMPLATE_GENERATOR)
  list(APPEND configure -G ${TEMPLATE_GENERATOR})
endif()
if(TEMPLATE_MAKE_PROGRAM)
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${TEMPLATE_MAKE_PROGRAM})
endif()
if(TEMPLATE_CXX_COMPILER)
  list(APPEND configure -DCMAKE_CXX_COMPILER=${TEMPLATE_CXX_COMPILER})
endif()
if(TEMPLATE_RANDOM123_INCLUDE_DIR)
  list(APPEND configure -DGSDK_RANDOM123_INCLUDE_DIR=${TEMPLATE_RANDOM123_INCLUDE_DIR})
endif()
run_step("configure the template" ignored ${configure})
run_step("build the template" ignored ${CMAKE_COMMAND} --build ${build_dir})
if(NOT EXISTS ${plugin_dir}/coin_runs.so)
  message(FATAL_ERROR "the template's build did not produce ${plugin_dir}/coin_runs.so")
endif()
run_step("the template's own tests" ignored ${CMAKE_COMMAND} -E chdir ${build_dir} ${CMAKE_CTEST_COMMAND}
         --output-on-failure)

# 2. gsdk loads it. gsdk searches the plugins/ folder beside itself first, where a coin_runs.so may
# have been dropped (as the template's README suggests) and would shadow ours: run a copy of the
# executable (self-contained by design) from a folder with no plugins/ beside it.
set(gsdk ${WORK_DIR}/bin/gsdk)
file(REMOVE_RECURSE ${WORK_DIR}/bin)
file(COPY ${GSDK_EXECUTABLE} DESTINATION ${WORK_DIR}/bin)
run_step("gsdk list" listing ${gsdk} list --plugin-dir ${plugin_dir})
string(FIND "${listing}" "refused: ${plugin_dir}/coin_runs.so" refused)
if(NOT listing MATCHES "\n  coin_runs [0-9]+\\.[0-9]+\\.[0-9]+[^ ]*  \\(ABI " OR NOT refused EQUAL -1)
  message(FATAL_ERROR "gsdk list --plugin-dir ${plugin_dir} does not list the template's coin_runs")
endif()

# 3. gsdk runs a tiny experiment with it, and replays the best playout (exit 0 means the replayed
# score matches the results file).
file(WRITE ${WORK_DIR}/coin_runs.toml [=[
# A tiny coin_runs experiment for the sdk_template test.
game = "coin_runs"
algorithm = "playouts"
seed = 11

[params]
flips = 64

[playouts]
count = 20_000

[run]
device = "cpu"
threads = 2
]=])
set(results ${WORK_DIR}/coin_runs.json)
file(REMOVE ${results})
run_step("gsdk run" summary ${gsdk} run ${WORK_DIR}/coin_runs.toml --plugin-dir ${plugin_dir} --quiet
         --out ${results})
if(NOT EXISTS ${results})
  message(FATAL_ERROR "gsdk run wrote no results file ${results}")
endif()
file(READ ${results} document)
string(JSON status GET "${document}" status)
string(JSON playouts GET "${document}" result playouts)
if(NOT status STREQUAL "complete" OR NOT playouts EQUAL 20000)
  message(FATAL_ERROR "results file: status ${status}, ${playouts} playouts; expected complete, 20000")
endif()
run_step("gsdk replay" ignored ${gsdk} replay ${results} --plugin-dir ${plugin_dir})
message(STATUS "the template plugin builds from sdk/ alone and runs in gsdk")
