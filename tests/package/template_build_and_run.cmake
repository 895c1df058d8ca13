# template_build_and_run.cmake - one plugin template, used as a third party would: made into a plugin of
# its own name by the INSTALLED gsdk (`gsdk new-plugin`) in a folder outside the checkout and the build
# folder, configured with CMAKE_PREFIX_PATH=<prefix> (the template says find_package(gsdk 0.1 REQUIRED)),
# built, its own tests run, its exports checked, then checked (`gsdk check`), listed and run by the
# installed gsdk; a two-player template's game also plays GTP, showboard drawing its board as a grid.
#
# The template's example.toml is its short experiment (`game` names the game the template builds);
# when it is a playouts experiment, its best playout is replayed too.
#
# Inputs (-D): PREFIX (the gsdk_installed fixture's), TEMPLATE (a folder name under
# <prefix>/share/gsdk/templates), GENERATOR, MAKE_PROGRAM, CXX_COMPILER, and optionally
# CUDA_COMPILER, CXX_LAUNCHER, CUDA_LAUNCHER (the launchers of gsdk's own build, e.g. ccache), NM.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

# Where a build folder was carried to a machine without the compiler (a GPU machine), there is
# nothing to build with.
if(NOT EXISTS ${CXX_COMPILER})
  skip_test("no C++ compiler at ${CXX_COMPILER} on this machine")
endif()
execute_process(COMMAND mktemp -d /tmp/gsdk-template-${TEMPLATE}-XXXXXX OUTPUT_VARIABLE work
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "working in ${work} (removed when the test passes)")
# The plugin's own name: my_<template>, so that nothing of the template's game name is left to find it by.
string(REPLACE "-" "_" game "my_${TEMPLATE}")
set(source ${work}/${game})
set(build ${work}/build)
set(plugin_dir ${build}/plugins)
set(gsdk ${PREFIX}/bin/gsdk)

# 1. The installed gsdk makes the plugin's folder from the installed template.
run_step("gsdk new-plugin" ignored ${gsdk} new-plugin ${game} --template ${TEMPLATE} --dir ${source})
if(NOT EXISTS ${source}/example.toml)
  message(FATAL_ERROR "${source}/example.toml is missing: each template names its short experiment there")
endif()
file(STRINGS ${source}/example.toml game_line REGEX "^game *= *\"${game}\"")
if(NOT game_line)
  message(FATAL_ERROR "${source}/example.toml: expected the line 'game = \"${game}\"' after new-plugin")
endif()

# 2. Configure against the installed prefix only, with the compilers of gsdk's build, which a user
# would name the same way (environment variables CMake reads).
set(environment CXX=${CXX_COMPILER})
if(CUDA_COMPILER)
  list(APPEND environment CUDACXX=${CUDA_COMPILER})
endif()
if(CXX_LAUNCHER)
  list(APPEND environment CMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER})
endif()
if(CUDA_LAUNCHER)
  list(APPEND environment CMAKE_CUDA_COMPILER_LAUNCHER=${CUDA_LAUNCHER})
endif()
run_step("configure" ignored ${CMAKE_COMMAND} -E env ${environment} ${CMAKE_COMMAND} -S ${source} -B ${build}
         -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_PREFIX_PATH=${PREFIX}
         -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
file(STRINGS ${build}/CMakeCache.txt gsdk_dir_line REGEX "^gsdk_DIR:")
if(NOT gsdk_dir_line STREQUAL "gsdk_DIR:PATH=${PREFIX}/lib/cmake/gsdk")
  message(FATAL_ERROR "the template found gsdk through '${gsdk_dir_line}'; expected ${PREFIX}/lib/cmake/gsdk")
endif()

# 3. Build, and run the template's own tests.
run_step("build" ignored ${CMAKE_COMMAND} --build ${build})
run_step("the template's own tests" ignored ${CMAKE_CTEST_COMMAND} --test-dir ${build} --output-on-failure)

# 4. Every plugin it built exports gsdk_negotiate only.
file(GLOB plugins ${plugin_dir}/*.so)
if(NOT plugins)
  message(FATAL_ERROR "the template's build made no plugin in ${plugin_dir}")
endif()
if(NM)
  check_plugin_exports(${NM} ${plugins})
else()
  message(STATUS "exports not checked: no nm program (GNU binutils) on this machine")
endif()

# 5. Every plugin it built passes the conformance suite.
foreach(plugin IN LISTS plugins)
  run_step("gsdk check" ignored ${gsdk} check ${plugin})
endforeach()

# 6. The installed gsdk lists the template's game from its build, with no refusal.
run_step("gsdk list" listing ${CMAKE_COMMAND} -E env --unset=GSDK_PLUGIN_PATH ${gsdk} list --plugin-dir ${plugin_dir})
string(FIND "${listing}" "refused: ${plugin_dir}/" refused)
string(REGEX MATCH "\n  ${game} [^\n]*  ${plugin_dir}/[^\n]*\\.so\n" listed "${listing}")
if(NOT refused EQUAL -1 OR NOT listed)
  message(FATAL_ERROR "${gsdk} list --plugin-dir ${plugin_dir} does not list the game ${game} from ${plugin_dir}")
endif()

# 7. The installed gsdk runs the template's short experiment, then replays its best playout.
set(results ${work}/example.json)
run_step("gsdk run" ignored ${CMAKE_COMMAND} -E env --unset=GSDK_PLUGIN_PATH ${gsdk} run ${source}/example.toml
         --plugin-dir ${plugin_dir} --quiet --out ${results})
file(READ ${results} document)
string(JSON status GET "${document}" status)
string(JSON algorithm GET "${document}" algorithm)
if(NOT status STREQUAL "complete")
  message(FATAL_ERROR "${results}: status '${status}'; expected 'complete'")
endif()
if(algorithm STREQUAL "playouts")
  run_step("gsdk replay" ignored ${CMAKE_COMMAND} -E env --unset=GSDK_PLUGIN_PATH ${gsdk} replay ${results}
           --plugin-dir ${plugin_dir})
else()
  message(STATUS "no replay: ${algorithm} results have no playout to replay")
endif()

# 8. A two-player template's game plays GTP, and its board text is a board GTP draws (host/src/play/gtp_board.hpp):
# showboard answers with a grid, column letters over it.
if(TEMPLATE STREQUAL "two-player")
  file(WRITE ${work}/gtp.in "play b 4\nshowboard\nquit\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GSDK_PLUGIN_PATH ${gsdk} gtp ${game} --agent random
                          --plugin-dir ${plugin_dir}
                  INPUT_FILE ${work}/gtp.in RESULT_VARIABLE rc OUTPUT_VARIABLE gtp_out ERROR_VARIABLE gtp_err)
  message("${gtp_out}${gtp_err}")
  string(FIND "${gtp_out}" "= \n   a b c d e f g\n1  . . . . . . .\n" grid)
  if(NOT rc EQUAL 0 OR grid EQUAL -1)
    message(FATAL_ERROR "gsdk gtp ${game}: showboard should draw the board as a grid (exit status ${rc})")
  endif()
endif()
file(REMOVE_RECURSE ${work})
message(STATUS "template ${TEMPLATE}: built out of tree against ${PREFIX}, listed and run by its gsdk")
