# Python.cmake - GSDK_PYTHON = AUTO | ON | OFF: whether the gsdk Python module (python/) is built.
#   AUTO  (the default) on when pybind11 (Debian: pybind11-dev) and Python's headers (python3-dev) are found, else
#         off with a status message saying what is missing
#   ON    the same, and configuring fails when they are not
#   OFF   no module; its pytest tests skip
# The sanitized and fuzz builds leave it out: a module built with ASan loads into python3 only with the sanitizer's
# runtime preloaded, and those builds test the CLI's paths (scripts/sanitize.sh).
# Sets GSDK_WITH_PYTHON and Python3_EXECUTABLE (the interpreter the tests run).
set(GSDK_PYTHON "AUTO" CACHE STRING "Build the gsdk Python module (python/): AUTO, ON or OFF")
set_property(CACHE GSDK_PYTHON PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${GSDK_PYTHON}" _gsdk_python)
if(NOT _gsdk_python MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "GSDK_PYTHON='${GSDK_PYTHON}': expected AUTO, ON or OFF")
endif()

set(GSDK_WITH_PYTHON OFF)
if(_gsdk_python STREQUAL "ON" AND (GSDK_SANITIZE OR GSDK_FUZZ))
  message(FATAL_ERROR "GSDK_PYTHON=ON cannot be built with GSDK_SANITIZE or GSDK_FUZZ: configure with -DGSDK_PYTHON=OFF")
endif()
if(NOT _gsdk_python STREQUAL "OFF" AND NOT GSDK_SANITIZE AND NOT GSDK_FUZZ)
  # Debian's python3, into which the install step puts numpy and pytest, rather than another python3 on PATH (a
  # pyenv shim) without them; -DPython3_EXECUTABLE=... chooses another.
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module)
  if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG)
  endif()
  # dlpack.h: the struct through which VectorEnv hands device arrays to torch and cupy (Debian: libdlpack-dev).
  find_path(GSDK_DLPACK_INCLUDE_DIR dlpack/dlpack.h)
  if(Python3_FOUND AND pybind11_FOUND AND GSDK_DLPACK_INCLUDE_DIR)
    set(GSDK_WITH_PYTHON ON)
  elseif(_gsdk_python STREQUAL "AUTO")
    message(STATUS "gsdk: no Python module: pybind11, Python's headers or dlpack.h not found (Debian: pybind11-dev "
                   "python3-dev libdlpack-dev)")
  else()
    message(FATAL_ERROR "GSDK_PYTHON=ON but pybind11, Python's headers or dlpack.h were not found: install them "
                        "(Debian: pybind11-dev python3-dev python3-numpy libdlpack-dev, scripts/install-deps.sh) or "
                        "configure with -DGSDK_PYTHON=OFF")
  endif()
endif()
message(STATUS "gsdk: Python module ${GSDK_WITH_PYTHON} (GSDK_PYTHON=${GSDK_PYTHON})")
