#!/usr/bin/env bash
# install-deps.sh - installs the Debian 12 packages gsdk builds with (skipped when all are present).
# CUDA is optional: when a toolkit sits in /usr/local/cuda (or nvcc is on PATH) the CUDA paths build too.
set -euo pipefail

# libssl-dev: OpenSSL's libcrypto, whose SHA-1 makes the results digests.
# dpkg-dev and file: cpack -G DEB computes the package's Depends with dpkg-shlibdeps, finding ELF files with file.
# clang, libclang-rt-14-dev (libFuzzer and clang's sanitizer runtimes), llvm (llvm-symbolizer for the sanitizers'
# stack traces) and python3 (the seed corpora): the fuzz targets of tests/fuzz.
# grhino (gtp-rhino): the Othello engine gsdk is measured against over GTP (plugins/othello/bench/gtp_referee.py).
# libopenmpi-dev and openmpi-bin (mpirun): gsdk's MPI ranks (cmake/Mpi.cmake) and the tests run under mpirun.
# pybind11-dev, python3-dev, python3-numpy and python3-pytest: the gsdk Python module (python/, cmake/Python.cmake)
# and its pytest tests; python3-venv, python3-pip, python3-setuptools and python3-wheel: `pip install .` into a
# virtualenv, offline (pyproject.toml, scripts/test_python_package.sh); python3-torch: the training example's smoke run
# (python/examples/train_othello_ppo.py, a CPU torch).
# groff-base (groff): the tests render the generated man page without warnings.
# python3-matplotlib: the Python tour (python/examples/first_hour.py, run by the tests) plots a sweep.
# patchelf: pip install . points the wheel's binaries at the shared libraries it carries (setup.py).
# libdlpack-dev: dlpack.h, the tensor exchange struct through which VectorEnv hands device arrays to torch/cupy.
packages=(build-essential cmake ninja-build libboost-dev libboost-program-options-dev libtomlplusplus-dev
          librandom123-dev nlohmann-json3-dev libfmt-dev libssl-dev libgtest-dev gnuplot-nox stockfish
          libpng-dev zlib1g-dev dpkg-dev file clang libclang-rt-14-dev llvm python3 libopenmpi-dev openmpi-bin
          pybind11-dev python3-dev python3-numpy python3-pytest python3-venv python3-pip python3-setuptools
          python3-wheel python3-torch grhino groff-base libdlpack-dev
          python3-matplotlib patchelf)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
