"""setup.py - the CMake half of `pip install .` (pyproject.toml has the rest): builds the Python module, the gsdk
executable and the shipped plugins with the project's own CMake build, and stages them into the package:

    gsdk/__init__.py ...               python/gsdk/*.py
    gsdk/_gsdk.<this Python's suffix>  the extension module, built for the interpreter that runs pip
    gsdk/bin/gsdk                      the executable behind the `gsdk` console command
    gsdk/bin/plugins/*.so              the shipped plugins, which the module and the executable both find there
    gsdk/_libs/*.so.*                  the shared libraries the module and the executable link beyond the C and C++
                                       runtimes (Boost.Program_options, OpenSSL's libcrypto, libpng, zlib, MPI's),
                                       found through a RUNPATH of $ORIGIN/_libs, so the wheel runs where they are not

The CMake build goes to build/python-<tag> (<tag> names the interpreter, e.g. cp311), where a second install reuses
it. GSDK_CMAKE_BUILD_DIR=DIR takes an existing build instead (scripts/test.sh installs from build/), which must have
made the module for this interpreter; CMAKE_ARGS adds configure options (-DGSDK_CUDA=OFF, ...).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.install import install
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent


def project_version():
    """The version in CMakeLists.txt's project(), the one the module reports as gsdk.__version__."""
    match = re.search(r"project\(gsdk VERSION ([0-9][0-9.]*)", (ROOT / "CMakeLists.txt").read_text())
    if not match:
        raise RuntimeError(f"{ROOT / 'CMakeLists.txt'}: no `project(gsdk VERSION x.y.z)` to take the version from")
    return match.group(1)


def interpreter_tag():
    return f"cp{sys.version_info.major}{sys.version_info.minor}"


def run(command):
    print("setup.py:", " ".join(shlex.quote(str(part)) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True)


def cmake_build():
    """Configures (once) and builds the gsdk_python_package target; returns the build folder."""
    given = os.environ.get("GSDK_CMAKE_BUILD_DIR")
    build_dir = Path(given).resolve() if given else ROOT / "build" / f"python-{interpreter_tag()}"
    if not (build_dir / "CMakeCache.txt").is_file():
        if given:
            raise RuntimeError(f"GSDK_CMAKE_BUILD_DIR={given}: no CMake build there (no CMakeCache.txt); build one "
                               "first (bash scripts/build.sh) or leave the variable unset")
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        run(["cmake", "-S", ROOT, "-B", build_dir, *generator, "-DCMAKE_BUILD_TYPE=Release", "-DGSDK_PYTHON=ON",
             "-DBUILD_TESTING=OFF", f"-DPython3_EXECUTABLE={sys.executable}",
             *shlex.split(os.environ.get("CMAKE_ARGS", ""))])
    run(["cmake", "--build", build_dir, "--target", "gsdk_python_package", "-j", str(os.cpu_count() or 1)])
    return build_dir


# What every Linux with a Python has: the C library's parts and the C++ runtime. Everything else a binary of the
# wheel links is carried in it, as auditwheel's manylinux policy does (auditwheel is not in the registries here, so
# this is its step by hand, with ldd and patchelf).
SYSTEM_LIBRARIES = ("linux-vdso.", "ld-linux", "libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so",
                    "libstdc++.so", "libgcc_s.so")


def linked_libraries(binary):
    """{soname: resolved path} of the shared libraries `binary` loads, as ldd resolves them here."""
    listing = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in listing.splitlines():
        match = re.match(r"\s*(\S+) => (/\S+)", line)
        if match:
            found[match.group(1)] = Path(match.group(2))
        elif "not found" in line:
            raise RuntimeError(f"{binary}: ldd cannot find {line.split()[0]}; install it (scripts/install-deps.sh)")
    return found


def carry_libraries(binaries, package_dir):
    """Copies the non-system libraries the binaries link into package_dir/_libs and points each binary's RUNPATH at
    that folder (relative to the binary), and each copied library's at its own folder."""
    patchelf = shutil.which("patchelf")
    if not patchelf:
        raise RuntimeError("patchelf is not installed: the wheel carries the shared libraries it links and patchelf "
                           "points the binaries at them (apt-get install patchelf, or bash scripts/install-deps.sh)")
    lib_dir = package_dir / "_libs"
    lib_dir.mkdir(exist_ok=True)
    for binary in binaries:
        for soname, path in linked_libraries(binary).items():
            if soname.startswith(SYSTEM_LIBRARIES):
                continue
            carried = lib_dir / soname
            if not carried.exists():
                shutil.copy2(path.resolve(), carried)
                carried.chmod(0o755)
                run([patchelf, "--set-rpath", "$ORIGIN", carried])
        relative = os.path.relpath(lib_dir, binary.parent)
        run([patchelf, "--set-rpath", f"$ORIGIN/{relative}", binary])


def stage(build_dir, package_dir):
    """Copies what the build made into the package folder of the wheel being built."""
    module = build_dir / "python" / "gsdk" / f"_gsdk{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not module.is_file():
        found = sorted(p.name for p in (build_dir / "python" / "gsdk").glob("_gsdk*"))
        raise RuntimeError(f"{build_dir}: no {module.name} for this Python ({sys.executable}); the build made "
                           f"{found or 'no module'}: install with this interpreter into another build folder "
                           "(unset GSDK_CMAKE_BUILD_DIR), or configure that one with -DPython3_EXECUTABLE="
                           f"{sys.executable}")
    shutil.copy2(module, package_dir / module.name)
    bin_dir = package_dir / "bin"
    plugin_dir = bin_dir / "plugins"
    plugin_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(build_dir / "bin" / "gsdk", bin_dir / "gsdk")
    plugins = sorted((build_dir / "bin" / "plugins").glob("*.so"))
    if not plugins:
        raise RuntimeError(f"{build_dir / 'bin' / 'plugins'}: no plugins built")
    for plugin in plugins:
        shutil.copy2(plugin, plugin_dir / plugin.name)
    carry_libraries([package_dir / module.name, bin_dir / "gsdk"], package_dir)


class BuildWithCMake(build_py):
    """build_py, then the CMake build staged into the package."""

    def run(self):
        super().run()
        stage(cmake_build(), Path(self.build_lib) / "gsdk")


class InstallAnyLayout(install):
    """install with the options that Debian's setuptools reads and only Debian's own distutils defines
    (install_layout, prefix_option): Debian's setuptools on another interpreter's path (pyenv's Python 3.12 here,
    which has none of its own) needs them to make a wheel."""

    def initialize_options(self):
        super().initialize_options()
        for option in ("install_layout", "prefix_option"):
            if not hasattr(self, option):
                setattr(self, option, None)


class BinaryDistribution(Distribution):
    """The wheel carries a CPython extension and executables: tag it for this interpreter and platform."""

    def has_ext_modules(self):
        return True


(ROOT / "build").mkdir(exist_ok=True)  # egg_info's folder below
setup(
    version=project_version(),
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildWithCMake, "install": InstallAnyLayout},
    # setuptools' own scratch folder, apart from the CMake builds in build/.
    options={"build": {"build_base": "build/setuptools"}, "egg_info": {"egg_base": "build"}},
)
