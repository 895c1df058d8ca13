# gsdkConfig.cmake - find_package(gsdk) for plugin authors: point gsdk_DIR at sdk/cmake.
get_filename_component(_gsdk_sdk_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT TARGET gsdk::sdk)
  find_path(GSDK_RANDOM123_INCLUDE_DIR Random123/philox.h REQUIRED)
  add_library(gsdk::sdk INTERFACE IMPORTED)
  set_target_properties(gsdk::sdk PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_gsdk_sdk_root}/include;${GSDK_RANDOM123_INCLUDE_DIR}")
endif()
if(CMAKE_CUDA_COMPILER)
  find_package(CUDAToolkit REQUIRED)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/GsdkPlugin.cmake)
