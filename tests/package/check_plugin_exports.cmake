# check_plugin_exports.cmake - every shipped plugin exports gsdk_negotiate and nothing else.
#
# Inputs (-D): PLUGINS (a list of plugin files), NM (the nm program, or a *-NOTFOUND value).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

if(NOT NM)
  skip_test("no nm program (GNU binutils) on this machine to list the plugins' dynamic symbols")
endif()
check_plugin_exports(${NM} ${PLUGINS})
