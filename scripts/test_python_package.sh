#!/usr/bin/env bash
# test_python_package.sh - the Python package as a user installs it (docs/python.md, "Installing"): `pip install .`
# into a fresh virtualenv of Debian's python3 (its numpy and pytest seen through --system-site-packages; offline,
# with Debian's setuptools and wheel), from the CMake build in build/ that scripts/build.sh made for that same
# interpreter, then python/tests/ against the installed package: run from outside the checkout with no PYTHONPATH,
# the CLI compared with being the `gsdk` console command the wheel installed.
set -euo pipefail
umask 022
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/build/python-venv
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
(cd "$root" && GSDK_CMAKE_BUILD_DIR=build "$venv/bin/python" -m pip install -q --no-build-isolation --no-index .)
cd "$venv"
env -u PYTHONPATH GSDK_EXPECT_INSTALLED=1 GSDK_EXECUTABLE="$venv/bin/gsdk" GSDK_SOURCE_DIR="$root" \
  GSDK_TEST_PLUGIN_DIR="$root/build/bin/test_plugins/valid" MPLBACKEND=Agg \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests"
