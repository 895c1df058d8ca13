# Package.cmake - the Debian package: `cpack -G DEB` (or plain `cpack`) in the build folder makes
# gsdk_<version>_<arch>.deb, which installs cmake/Install.cmake's layout under /usr.
#
# Depends is computed by dpkg-shlibdeps from the binaries, which link libc and libstdc++ only (Boost,
# libpng, zlib, libcrypto and the CUDA runtime are linked statically), OpenMPI's libmpi where gsdk is built with MPI
# (cmake/Mpi.cmake), and where the Python module is built the shared Boost.Program_options, libpng, libssl and zlib
# it links (cmake/Dependencies.cmake says why). librandom123-dev is a Recommends, not a
# Depends: running experiments needs nothing of it, while building a plugin against
# /usr/lib/cmake/gsdk does, and apt installs recommended packages by default.
set(GSDK_PACKAGE_MAINTAINER "gsdk maintainers <maintainers@users.noreply.a-seed-991fd180.example>"
    CACHE STRING "The Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gsdk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "massively parallel game simulation and search on CPUs and NVIDIA GPUs")
# The long description; CPack puts the summary above it as the synopsis line.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "gsdk runs TOML-configured experiments (random playouts, perft, UCT matches, nested Monte Carlo
searches, tabular Q-learning) over game plugins loaded through a stable C ABI, on CPU threads and
CUDA devices, with results that depend on the configuration and seed only.
.
This package holds the gsdk executable, the shipped game plugins (graveler, chess_perft, othello,
snake, minefield), and the SDK for writing plugins: headers, the CMake package
(find_package(gsdk)) and copy-me plugin templates.")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${GSDK_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS librandom123-dev)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake (>= 3.25), g++")
set(CPACK_STRIP_FILES ON)
include(CPack)
