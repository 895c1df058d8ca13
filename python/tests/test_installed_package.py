"""Tests of the package as pip installs it (scripts/test_python_package.sh sets GSDK_EXPECT_INSTALLED=1 and runs these
from a fresh virtualenv): the module imported is the installed one, not a build tree's; its version is the wheel's
and the CLI's; the `gsdk` console command runs the executable the wheel carries; the plugins come from the package.
Under ctest (the build tree's module) only the version checks run."""

import importlib.metadata
import os
import pathlib
import subprocess
import sys

import pytest

gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")

INSTALLED = os.environ.get("GSDK_EXPECT_INSTALLED") == "1"
needs_install = pytest.mark.skipif(not INSTALLED, reason="runs against a pip-installed package only")
GSDK = os.environ.get("GSDK_EXECUTABLE")


def test_the_version_is_the_clis():
    assert isinstance(gsdk.__version__, str) and gsdk.__version__.count(".") == 2
    if GSDK:
        shown = subprocess.run([GSDK, "--version"], capture_output=True, text=True, check=True).stdout
        assert shown.split()[:2] == ["gsdk", gsdk.__version__]


@needs_install
def test_the_module_is_the_installed_one():
    package = pathlib.Path(gsdk.__file__).resolve().parent
    assert pathlib.Path(sys.prefix).resolve() in package.parents, f"{package} is not inside {sys.prefix}"
    assert importlib.metadata.version("gsdk") == gsdk.__version__
    assert "PYTHONPATH" not in os.environ


@needs_install
def test_the_plugins_come_from_the_package():
    package = pathlib.Path(gsdk.__file__).resolve().parent
    paths = {pathlib.Path(plugin["path"]).parent for plugin in gsdk.list()["plugins"]}
    assert paths == {package / "bin" / "plugins"}
    assert {"graveler", "othello", "chess_perft", "snake", "minefield"} <= {p["name"] for p in gsdk.list()["plugins"]}


@needs_install
def test_the_console_command_runs_the_packaged_executable():
    command = pathlib.Path(sys.prefix) / "bin" / "gsdk"
    assert command.is_file(), "pip installed no gsdk console script"
    count = subprocess.run([str(command), "perft", "othello", "start", "5", "-q"], capture_output=True, text=True)
    assert count.returncode == 0, count.stderr
    assert "Nodes searched: 1396" in count.stdout
    bad = subprocess.run([str(command), "perft", "no_such_game", "start", "3"], capture_output=True, text=True)
    assert bad.returncode == 2 and "no_such_game" in bad.stderr


@needs_install
def test_the_wheel_carries_the_libraries_its_binaries_link():
    """Every library the module and the executable load beyond the C and C++ runtimes (Boost.Program_options,
    libcrypto, libpng, zlib, MPI's) comes from the package's _libs, not the system's, so the wheel runs on a machine
    without them."""
    package = pathlib.Path(gsdk.__file__).resolve().parent
    carried = (package / "_libs").resolve()
    system = ("linux-vdso.", "ld-linux", "libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so",
              "libstdc++.so", "libgcc_s.so")
    module = next(package.glob("_gsdk*.so"))
    for binary in (module, package / "bin" / "gsdk"):
        listing = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
        resolved = {line.split()[0]: pathlib.Path(line.split()[2]) for line in listing.splitlines() if " => /" in line}
        outside = {soname: str(path) for soname, path in resolved.items()
                   if not soname.startswith(system) and path.parent.resolve() != carried}
        assert not outside, f"{binary.name} loads libraries the wheel does not carry: {outside}"
        if binary == module:
            assert any(soname.startswith("libboost_program_options") for soname in resolved)
