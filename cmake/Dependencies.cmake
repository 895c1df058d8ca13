# Dependencies.cmake - third-party libraries, all from Debian 12 packages. Binaries must depend on
# nothing beyond libc/libstdc++ at run time (they are carried to GPU machines as built), so Boost is
# linked statically and fmt and TOML++ are used header-only. The Python module, a shared object, links the shared
# flavour of the same libraries instead (gsdk_library_flavours below).
set(Boost_USE_STATIC_LIBS ON)
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
find_package(fmt 9 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(tomlplusplus 3 REQUIRED)
find_path(RANDOM123_INCLUDE_DIR Random123/philox.h REQUIRED)

# An imported target under the name the exported gsdk::sdk refers to: an imported target is exported
# by name only, so a package's gsdkConfig.cmake defines it from the Random123 found where the package
# is used, and this machine's include path is never baked into a package.
add_library(gsdk::random123 INTERFACE IMPORTED GLOBAL)
set_target_properties(gsdk::random123 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${RANDOM123_INCLUDE_DIR})

# The package's CMake target selects its shared library; its headers alone are used instead.
add_library(gsdk_toml INTERFACE)
get_target_property(_gsdk_toml_includes tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(gsdk_toml SYSTEM INTERFACE ${_gsdk_toml_includes})
target_compile_definitions(gsdk_toml INTERFACE TOML_HEADER_ONLY=1)

# Boost.DLL over std::filesystem keeps it header-only.
add_library(gsdk_boost_dll INTERFACE)
target_link_libraries(gsdk_boost_dll INTERFACE Boost::headers ${CMAKE_DL_LIBS})
target_compile_definitions(gsdk_boost_dll INTERFACE BOOST_DLL_USE_STD_FS)

# OpenSSL's libcrypto, linked statically like Boost: the SHA-1 of results digests and plugin fingerprints.
set(OPENSSL_USE_STATIC_LIBS TRUE)
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)

# libpng and zlib, linked statically like Boost: pictures (the Q-learning policy) are written by the host.
find_library(GSDK_PNG_STATIC NAMES libpng16.a libpng.a REQUIRED)
find_library(GSDK_ZLIB_STATIC NAMES libz.a REQUIRED)
find_path(GSDK_PNG_INCLUDE_DIR png.h REQUIRED)

# Each compiled library the host links, in two flavours chosen by the target finally linked: the executable takes
# Debian's static archives (it stays self-contained), a shared object (the Python module) takes the shared libraries
# of the same packages, since those archives are not position-independent (libpng16.a is not). A target asks for the
# shared flavour with the property GSDK_SHARED_DEPENDENCIES ON; $<TARGET_PROPERTY:...> in a link interface reads
# the target being linked, through every static library between them.
define_property(TARGET PROPERTY GSDK_SHARED_DEPENDENCIES BRIEF_DOCS "Link the shared flavour of gsdk's libraries")
set(_gsdk_shared_flavour "$<BOOL:$<TARGET_PROPERTY:GSDK_SHARED_DEPENDENCIES>>")
function(gsdk_library_flavours name static_library)
  cmake_path(GET static_library PARENT_PATH folder)
  cmake_path(GET static_library STEM LAST_ONLY stem)
  find_library(GSDK_${name}_SHARED NAMES ${stem}.so HINTS ${folder} NO_DEFAULT_PATH REQUIRED)
  add_library(${name} INTERFACE)
  target_link_libraries(${name} INTERFACE "$<IF:${_gsdk_shared_flavour},${GSDK_${name}_SHARED},${static_library}>")
endfunction()

get_target_property(_gsdk_program_options Boost::program_options IMPORTED_LOCATION_RELEASE)
if(NOT _gsdk_program_options)
  get_target_property(_gsdk_program_options Boost::program_options IMPORTED_LOCATION)
endif()
gsdk_library_flavours(gsdk_program_options_library ${_gsdk_program_options})
add_library(gsdk_program_options INTERFACE)
target_link_libraries(gsdk_program_options INTERFACE Boost::headers gsdk_program_options_library)

gsdk_library_flavours(gsdk_crypto_library ${OPENSSL_CRYPTO_LIBRARY})
add_library(gsdk_crypto INTERFACE)
target_include_directories(gsdk_crypto SYSTEM INTERFACE ${OPENSSL_INCLUDE_DIR})
target_link_libraries(gsdk_crypto INTERFACE gsdk_crypto_library ${CMAKE_DL_LIBS} Threads::Threads)

gsdk_library_flavours(gsdk_png_library ${GSDK_PNG_STATIC})
gsdk_library_flavours(gsdk_zlib_library ${GSDK_ZLIB_STATIC})
add_library(gsdk_png INTERFACE)
target_include_directories(gsdk_png SYSTEM INTERFACE ${GSDK_PNG_INCLUDE_DIR})
target_link_libraries(gsdk_png INTERFACE gsdk_png_library gsdk_zlib_library m)
