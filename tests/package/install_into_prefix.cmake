# install_into_prefix.cmake - the gsdk_installed fixture: `cmake --install` of the build folder into a
# fresh prefix, as a user would, for the tests that use gsdk as a third party gets it.
#
# Inputs (-D): BUILD_DIR, PREFIX.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/package_checks.cmake)

file(REMOVE_RECURSE ${PREFIX})
run_step("install" ignored ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
