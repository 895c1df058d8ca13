# Mpi.cmake - GSDK_MPI = AUTO | ON | OFF: whether gsdk can run as the ranks of an MPI job (host/src/distribute/).
#   AUTO  on when find_package(MPI) finds an MPI (Debian: libopenmpi-dev, openmpi-bin)
#   ON    the same, and configuring fails when none is found
#   OFF   one process only; a gsdk started by mpirun with several ranks refuses to run
# Sets GSDK_WITH_MPI, and MPIEXEC_EXECUTABLE (FindMPI) for the tests run under mpirun.
#
# A gsdk built with MPI needs the MPI's shared libraries at run time, unlike the rest of its dependencies
# (Dependencies.cmake): binaries carried to a machine without OpenMPI are built with -DGSDK_MPI=OFF.
set(GSDK_MPI "AUTO" CACHE STRING "Build the MPI ranks (host/src/distribute/): AUTO, ON or OFF")
set_property(CACHE GSDK_MPI PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${GSDK_MPI}" _gsdk_mpi)
if(NOT _gsdk_mpi MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "GSDK_MPI='${GSDK_MPI}': expected AUTO, ON or OFF")
endif()

set(GSDK_WITH_MPI OFF)
if(NOT _gsdk_mpi STREQUAL "OFF")
  # The C component: gsdk calls the C API from C++ (gsdk_distribute defines OMPI_SKIP_MPICXX). MPI::MPI_CXX would
  # also link the C++ bindings' library (libmpi_cxx, deprecated since MPI 2.2), one more for every start of gsdk to
  # load though nothing calls it.
  find_package(MPI COMPONENTS C)
  if(MPI_C_FOUND)
    set(GSDK_WITH_MPI ON)
  elseif(_gsdk_mpi STREQUAL "ON")
    message(FATAL_ERROR "GSDK_MPI=ON but find_package(MPI COMPONENTS C) found no MPI: install OpenMPI (Debian: "
                        "libopenmpi-dev openmpi-bin, scripts/install-deps.sh) or configure with -DGSDK_MPI=OFF")
  endif()
endif()
message(STATUS "gsdk: MPI ${GSDK_WITH_MPI} (GSDK_MPI=${GSDK_MPI}; mpiexec ${MPIEXEC_EXECUTABLE})")
