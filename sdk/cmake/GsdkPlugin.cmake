# GsdkPlugin.cmake - gsdk_add_plugin(): builds a game plugin from sdk/ alone.
#
#   gsdk_add_plugin(mygame
#     SOURCES plugin.cpp rules.cpp          # portable C++
#     AVX2_SOURCES cpu/kernel_avx2.cpp      # sources whose AVX2 code sits in a GSDK_BEGIN_AVX2 region
#     AVX512_SOURCES cpu/kernel_avx512.cpp  # sources whose AVX-512 code sits in a GSDK_BEGIN_AVX512 region
#     CUDA_SOURCES cuda/kernel.cu)          # only when CUDA is enabled; defines GSDK_WITH_CUDA
#
# Produces the module mygame.so (exporting only gsdk_negotiate, CUDA runtime linked statically) and
# an object library mygame_objects that tests can link to reach the plugin's internals.
# Part of the gsdk CMake package (installed beside gsdkConfig.cmake with gsdk_plugin_exports.map) and
# included directly by gsdk's own build.
if(NOT DEFINED GSDK_PLUGIN_OUTPUT_DIR)
  set(GSDK_PLUGIN_OUTPUT_DIR ${CMAKE_BINARY_DIR}/plugins)
endif()

function(gsdk_add_plugin name)
  cmake_parse_arguments(P "" "" "SOURCES;AVX2_SOURCES;AVX512_SOURCES;CUDA_SOURCES" ${ARGN})
  set(objects ${name}_objects)
  add_library(${objects} OBJECT ${P_SOURCES} ${P_AVX2_SOURCES} ${P_AVX512_SOURCES})
  set_target_properties(${objects} PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden
                                              CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(${objects} PUBLIC gsdk::sdk)
  target_include_directories(${objects} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  # Instruction-set sources are compiled for the baseline processor: their AVX2 or AVX-512 code sits in a region
  # of gsdk/isa.hpp, so that no inline function a shared header emits out of line from them is AVX-512 code
  # (the linker could keep that copy for baseline callers: SIGILL on processors without AVX-512).
  if(P_AVX512_SOURCES)
    # GCC 12 reports its own _mm512_undefined_* helpers as maybe-uninitialized.
    set_source_files_properties(${P_AVX512_SOURCES} TARGET_DIRECTORY ${objects} PROPERTIES
                                COMPILE_OPTIONS "-Wno-maybe-uninitialized")
  endif()
  if(CMAKE_CUDA_COMPILER AND P_CUDA_SOURCES)
    target_sources(${objects} PRIVATE ${P_CUDA_SOURCES})
    target_compile_definitions(${objects} PUBLIC GSDK_WITH_CUDA=1)
    target_link_libraries(${objects} PUBLIC CUDA::cudart_static)
  endif()
  if(COMMAND gsdk_strict_warnings)
    gsdk_strict_warnings(${objects})
  endif()

  add_library(${name} MODULE $<TARGET_OBJECTS:${objects}>)
  target_link_libraries(${name} PRIVATE ${objects})
  set_target_properties(${name} PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${GSDK_PLUGIN_OUTPUT_DIR})
  if(CMAKE_CUDA_COMPILER AND P_CUDA_SOURCES)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CUDA)
  endif()
  # Export gsdk_negotiate and nothing else: hidden visibility does not cover what the compiler emits
  # for libstdc++ (GNU-unique and weak template symbols) or the static runtimes, and the dynamic linker
  # binds a GNU-unique symbol process-wide to the first loaded copy, another plugin's included.
  # Catch unresolved symbols at link time, not at dlopen.
  set(exports_map ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/gsdk_plugin_exports.map)
  target_link_options(${name} PRIVATE -Wl,--version-script=${exports_map} -Wl,--no-undefined)
  set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${exports_map})
endfunction()
