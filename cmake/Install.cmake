# Install.cmake - what `cmake --install build --prefix P` installs, and the gsdk CMake package that
# plugin authors find with find_package(gsdk 0.1 REQUIRED), in P and in the build folder itself.
#
#   P/bin/gsdk                      the host; it finds P/lib/gsdk/plugins by itself (bin/../lib/gsdk/plugins)
#   P/lib/gsdk/plugins/*.so         the shipped plugins (plugins/CMakeLists.txt), not the test plugins
#   P/include/gsdk/                 the SDK headers
#   P/lib/cmake/gsdk/               gsdkConfig.cmake, gsdkConfigVersion.cmake, gsdkTargets.cmake (gsdk::sdk),
#                                   GsdkPlugin.cmake (gsdk_add_plugin) and its linker version script
#   P/share/gsdk/templates/<name>/  the copy-me plugin templates (sdk/templates/*/)
#   P/share/doc/gsdk/               README.md and docs/*.md
#
# The layout is fixed rather than taken from GNUInstallDirs: gsdk finds its plugins relative to its own
# executable, and Debian's multiarch library folder would move them away from bin/../lib/gsdk/plugins.
include(CMakePackageConfigHelpers)

set(GSDK_INSTALL_PACKAGE_DIR lib/cmake/gsdk)

# The package version is the project's; its major version moves with the plugin ABI's major and only
# with it (ABI 1 is gsdk 0.x, ABI 2 will be gsdk 1.x), so that SameMajorVersion below accepts exactly the
# SDKs whose plugins load in the same hosts. Checked here, where both numbers are known.
file(STRINGS ${PROJECT_SOURCE_DIR}/sdk/include/gsdk/gsdk_plugin.h _gsdk_abi_lines
     REGEX "^#define GSDK_ABI_(MAJOR|MINOR) [0-9]+u$")
string(REGEX REPLACE ".*GSDK_ABI_MAJOR ([0-9]+)u.*" "\\1" GSDK_ABI_MAJOR "${_gsdk_abi_lines}")
string(REGEX REPLACE ".*GSDK_ABI_MINOR ([0-9]+)u.*" "\\1" GSDK_ABI_MINOR "${_gsdk_abi_lines}")
if(NOT GSDK_ABI_MAJOR MATCHES "^[0-9]+$" OR NOT GSDK_ABI_MINOR MATCHES "^[0-9]+$")
  message(FATAL_ERROR "sdk/include/gsdk/gsdk_plugin.h: expected '#define GSDK_ABI_MAJOR <n>u' and "
                      "'#define GSDK_ABI_MINOR <n>u' lines, found: ${_gsdk_abi_lines}")
endif()
math(EXPR _gsdk_expected_major "${GSDK_ABI_MAJOR} - 1")
if(NOT PROJECT_VERSION_MAJOR EQUAL _gsdk_expected_major)
  message(FATAL_ERROR "gsdk ${PROJECT_VERSION} speaks plugin ABI ${GSDK_ABI_MAJOR}.${GSDK_ABI_MINOR}, but the package's "
                      "major version must be the ABI major minus one (${_gsdk_expected_major}): change project(VERSION) "
                      "with the ABI major (docs/plugin_authors.md, \"Versions\")")
endif()

# gsdk::sdk, for the installed package and the build folder's.
install(TARGETS gsdk_sdk EXPORT gsdkTargets)
install(EXPORT gsdkTargets NAMESPACE gsdk:: DESTINATION ${GSDK_INSTALL_PACKAGE_DIR})
export(EXPORT gsdkTargets NAMESPACE gsdk:: FILE ${PROJECT_BINARY_DIR}/gsdkTargets.cmake)

write_basic_package_version_file(${PROJECT_BINARY_DIR}/gsdkConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)

# The build folder's package (-Dgsdk_DIR=<build> or CMAKE_PREFIX_PATH=<build>) uses sdk/cmake in place.
set(GSDK_CMAKE_MODULE_DIR ${PROJECT_SOURCE_DIR}/sdk/cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/sdk/cmake/gsdkConfig.cmake.in ${PROJECT_BINARY_DIR}/gsdkConfig.cmake
                              INSTALL_DESTINATION ${PROJECT_BINARY_DIR} INSTALL_PREFIX ${PROJECT_BINARY_DIR}
                              PATH_VARS GSDK_CMAKE_MODULE_DIR)

# The installed package finds everything relative to itself.
set(GSDK_CMAKE_MODULE_DIR ${GSDK_INSTALL_PACKAGE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/sdk/cmake/gsdkConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/installed-package/gsdkConfig.cmake
                              INSTALL_DESTINATION ${GSDK_INSTALL_PACKAGE_DIR} PATH_VARS GSDK_CMAKE_MODULE_DIR)
install(FILES ${PROJECT_BINARY_DIR}/installed-package/gsdkConfig.cmake ${PROJECT_BINARY_DIR}/gsdkConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/sdk/cmake/GsdkPlugin.cmake ${PROJECT_SOURCE_DIR}/sdk/cmake/gsdk_plugin_exports.map
        DESTINATION ${GSDK_INSTALL_PACKAGE_DIR})

install(TARGETS gsdk RUNTIME DESTINATION bin)
install(FILES ${GSDK_MAN_PAGE} DESTINATION share/man/man1)
install(FILES ${GSDK_BASH_COMPLETION} DESTINATION share/bash-completion/completions)
install(TARGETS ${GSDK_SHIPPED_PLUGINS} LIBRARY DESTINATION lib/gsdk/plugins)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/gsdk DESTINATION include)

# Every template folder, without a template's build folders (build/, build-cuda/, ...) and without
# sdk/templates/CMakeLists.txt, which stages them into the build folder and is no template.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/templates/ DESTINATION share/gsdk/templates
        REGEX "/build[^/.]*$" EXCLUDE
        REGEX "/sdk/templates/CMakeLists\\.txt$" EXCLUDE)

file(GLOB _gsdk_docs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${_gsdk_docs} DESTINATION share/doc/gsdk)
