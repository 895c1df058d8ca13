# Dependencies.cmake - third-party libraries, all from Debian 12 packages. Binaries must depend on
# nothing beyond libc/libstdc++ at run time (they are carried to GPU machines as built), so Boost is
# linked statically and fmt and TOML++ are used header-only.
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
add_library(gsdk_png INTERFACE)
target_include_directories(gsdk_png SYSTEM INTERFACE ${GSDK_PNG_INCLUDE_DIR})
target_link_libraries(gsdk_png INTERFACE ${GSDK_PNG_STATIC} ${GSDK_ZLIB_STATIC} m)
