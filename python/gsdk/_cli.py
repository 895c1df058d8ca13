"""The `gsdk` command of a pip-installed package: the console entry point runs the gsdk executable the wheel carries
(gsdk/bin/gsdk, beside its plugins in gsdk/bin/plugins/), with the same arguments, exit status and output."""

import os
import sys
from pathlib import Path


def executable():
    """The path of the gsdk executable inside this package (it exists only in a package pip installed)."""
    return Path(__file__).resolve().parent / "bin" / "gsdk"


def main():
    exe = executable()
    if not exe.is_file():
        sys.stderr.write(f"gsdk: this gsdk package has no executable at {exe}: it is a build tree's or the .deb's "
                         "module, whose gsdk command is <build>/bin/gsdk or /usr/bin/gsdk; `pip install .` from a "
                         "checkout installs one\n")
        return 2
    # execv replaces this process, so signals (Ctrl-C, SIGTERM) and the exit status are the executable's own.
    os.execv(exe, [str(exe)] + sys.argv[1:])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
