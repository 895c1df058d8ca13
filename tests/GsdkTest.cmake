# GsdkTest.cmake - gsdk_add_test(): one GoogleTest executable in bin/, its cases discovered by CTest.
#
#   gsdk_add_test(gsdk_core_tests SOURCES a.cpp b.cpp LIBS gsdk_host DEPENDS graveler LABELS core)
#
# Test executables land in bin/ beside gsdk and plugins/, and find everything they run relative to
# their own location (tests/support/test_paths.hpp), so the build folder can be carried elsewhere.
# Included from tests/ and from each plugin's tests/ folder (imported targets are per directory, so
# find_package runs every time; the support target is made once).
find_package(GTest 1.10 REQUIRED)
include(GoogleTest)

if(NOT TARGET gsdk_test_support)
  add_library(gsdk_test_support INTERFACE)
  target_include_directories(gsdk_test_support INTERFACE ${CMAKE_CURRENT_LIST_DIR}/support)
  target_link_libraries(gsdk_test_support INTERFACE GTest::gtest GTest::gtest_main Threads::Threads)
endif()

function(gsdk_add_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;DEPENDS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE gsdk_test_support ${T_LIBS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  gsdk_strict_warnings(${name})
  if(T_DEPENDS)
    add_dependencies(${name} ${T_DEPENDS})
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 30
                       PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "${T_LABELS}")
  # The executable's name is a label of its cases too, so that a build of some test executables runs just theirs
  # (scripts/sanitize.sh: ctest -L). gtest_discover_tests takes one label only (it flattens a list), so the labels
  # are set again once the cases are discovered, on the list of them it leaves in <name>_TESTS.
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake)
  file(WRITE ${labels_file} "if(${name}_TESTS)\n"
                            "  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${T_LABELS};${name}\")\n"
                            "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
endfunction()
