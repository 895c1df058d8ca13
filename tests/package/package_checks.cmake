# package_checks.cmake - helpers shared by the cmake -P scripts of tests/package: running a step,
# skipping a test, the exported symbols of a plugin, and the layout of an installed gsdk.

# Stops the script as a skipped test: CMakeLists.txt maps the line to CTest's "skipped".
macro(skip_test why)
  message("package test skipped: ${why}")
  return()
endmacro()

# Runs a command (echoed with its output) and stops the test when it exits non-zero; the output,
# stdout then stderr, is returned in ${out_var}.
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

# Fails unless `nm -D --defined-only` lists exactly gsdk_negotiate for each plugin file.
function(check_plugin_exports nm)
  foreach(plugin IN LISTS ARGN)
    execute_process(COMMAND ${nm} -D --defined-only ${plugin} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "nm -D --defined-only ${plugin} failed (exit status ${rc}): ${err}")
    endif()
    # Lines are "<address> <type> <name>": keep the names.
    string(REGEX REPLACE "[^\n]* [^ \n]+ ([^ \n]+)" "\\1" names "${out}")
    string(STRIP "${names}" names)
    string(REPLACE "\n" ", " names "${names}")
    if(NOT names STREQUAL "gsdk_negotiate")
      message(FATAL_ERROR "${plugin} exports ${names}; expected gsdk_negotiate only (the linker version script "
                          "of gsdk_add_plugin keeps everything else local)")
    endif()
    message(STATUS "${plugin}: exports gsdk_negotiate only")
  endforeach()
endfunction()

# Fails unless ${root} (an installed prefix, or usr/ of an unpacked .deb) holds the installed layout
# (cmake/Install.cmake) with exactly the shipped plugins, and ${root}/bin/gsdk finds and loads them
# with no plugin folder named on its command line or in GSDK_PLUGIN_PATH.
function(check_installed_layout root)
  # gsdk names the folders it searches from its real location.
  file(REAL_PATH ${root} root)
  set(plugin_dir ${root}/lib/gsdk/plugins)
  set(expected bin/gsdk include/gsdk/gsdk_plugin.h include/gsdk/plugin.hpp lib/cmake/gsdk/gsdkConfig.cmake
      lib/cmake/gsdk/gsdkConfigVersion.cmake lib/cmake/gsdk/gsdkTargets.cmake lib/cmake/gsdk/GsdkPlugin.cmake
      lib/cmake/gsdk/gsdk_plugin_exports.map share/gsdk/templates/chance/CMakeLists.txt
      share/gsdk/templates/two-player/evaluation.hpp share/doc/gsdk/README.md
      share/doc/gsdk/user_guide.md share/doc/gsdk/plugin_authors.md share/man/man1/gsdk.1
      share/bash-completion/completions/gsdk)
  foreach(plugin IN LISTS ARGN)
    list(APPEND expected lib/gsdk/plugins/${plugin}.so)
  endforeach()
  foreach(file IN LISTS expected)
    if(NOT EXISTS ${root}/${file})
      message(FATAL_ERROR "${root}/${file} is missing from the installed layout")
    endif()
  endforeach()
  foreach(unexpected share/gsdk/templates/CMakeLists.txt share/gsdk/templates/chance/build)
    if(EXISTS ${root}/${unexpected})
      message(FATAL_ERROR "${root}/${unexpected} is installed, but it is no part of a template")
    endif()
  endforeach()
  file(GLOB installed_plugins RELATIVE ${plugin_dir} ${plugin_dir}/*)
  list(TRANSFORM ARGN APPEND .so OUTPUT_VARIABLE shipped)
  list(SORT installed_plugins)
  list(SORT shipped)
  if(NOT installed_plugins STREQUAL shipped)
    message(FATAL_ERROR "${plugin_dir} holds ${installed_plugins}; expected the shipped plugins ${shipped} only")
  endif()

  run_step("gsdk list, default plugin folders" listing ${CMAKE_COMMAND} -E env --unset=GSDK_PLUGIN_PATH
           ${root}/bin/gsdk list)
  if(listing MATCHES "\nrefused: ")
    message(FATAL_ERROR "${root}/bin/gsdk list refused a plugin")
  endif()
  foreach(plugin IN LISTS shipped)
    string(FIND "${listing}" "  ${plugin_dir}/${plugin}\n" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${root}/bin/gsdk list does not show ${plugin_dir}/${plugin}")
    endif()
  endforeach()
endfunction()
