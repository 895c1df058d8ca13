#!/usr/bin/env python3
"""include_graph_check.py - the include graph of gsdk's sources against its declared layers (docs/architecture.md).

usage: include_graph_check.py [ROOT]   (ROOT: the source tree, default the one this file is in)

Reads every #include of the C, C++ and CUDA files under sdk/, core/, host/ and plugins/, resolves it as the build
does (the including file's folder, then the include folders of its part: a game's own folder, core/src for the
core, sdk/include, core/include, host/src), and fails (exit status 1), naming the file, its line and the include,
on an edge that points up:
  - between layers: sdk/ includes nothing of core/ or host/, core/ nothing of host/; sdk/, core/ and host/
    include nothing of plugins/ (games are loaded at run time); plugins/<game>/ includes only sdk/ and its own
    files, except its tests/ and bench/ programs, which drive the game through the core and the host;
  - between the folders of host/src/ (its roles) and between the core's services (core/src/<service>/ and
    core/include/gsdk/core/<service>/), against the orders below: a folder includes its own files and those of
    folders before it. A folder that is in neither order is an error too: a new one is placed here first.
Includes that resolve to no file of the tree (the standard library, Boost, toml++, ...) are not edges.
Python 3 standard library only; exit status 0 and one line of counts when the graph holds.
"""
import os
import re
import sys

# The layers, low to high: a file may include files of its own layer and of lower ones.
LAYERS = ["sdk", "core", "host"]
# Folders of host/src/, low to high.
HOST_FOLDERS = ["signals", "report", "config", "plugin_loading", "conformance", "devices", "play", "checkpoint",
                "algorithms", "distribute", "commands"]
# The core's services, low to high (core/src/<service>/ and core/include/gsdk/core/<service>/ are one service).
CORE_SERVICES = ["runtime", "playouts", "perft", "qlearning", "agents", "environments", "nested", "beam"]
# A game's folders that are programs around the plugin rather than the plugin: they may include core and host.
GAME_PROGRAMS = ["tests", "bench"]

SOURCE_ENDINGS = (".h", ".hpp", ".c", ".cc", ".cpp", ".cu", ".cuh", ".inl", ".ipp")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^">]+)[">]', re.M)
CHECKER = "tests/layers/include_graph_check.py"


class Place:
    """Where a file of the tree stands: its layer, its folder of host/src or service of the core, its game."""

    def __init__(self, path):
        parts = path.split("/")
        self.path = path
        self.layer = parts[0]
        self.folder = None  # the host folder or core service; None for a file outside them (main.cpp, core/bench/)
        self.game = None
        self.game_program = False
        if self.layer == "host" and len(parts) > 3 and parts[1] == "src":
            self.folder = parts[2]
        elif self.layer == "core" and len(parts) > 3 and parts[1] == "src":
            self.folder = parts[2]
        elif self.layer == "core" and len(parts) > 5 and parts[1:4] == ["include", "gsdk", "core"]:
            self.folder = parts[4]
        elif self.layer == "plugins" and len(parts) > 2:
            self.game = parts[1]
            self.game_program = len(parts) > 3 and parts[2] in GAME_PROGRAMS


def source_files(root):
    for top in LAYERS + ["plugins"]:
        for folder, subfolders, names in os.walk(os.path.join(root, top)):
            subfolders.sort()
            for name in sorted(names):
                if name.endswith(SOURCE_ENDINGS):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def resolve(root, place, quote, included):
    """The tree's file that `#include` `included` from `place` reads, or None (a file from outside the tree)."""
    folders = [os.path.dirname(place.path)] if quote == '"' else []
    if place.layer == "core":
        folders.append("core/src")
    if place.game:
        folders.append("plugins/" + place.game)
    folders += ["sdk/include", "core/include", "host/src"]
    for folder in folders:
        candidate = os.path.normpath(os.path.join(folder, included)).replace(os.sep, "/")
        if not candidate.startswith("../") and os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def problem(place, target):
    """Why `place` may not include `target` (two Places), or None."""
    if target.layer == "plugins":
        if place.layer != "plugins":
            return f"{place.layer}/ includes a game (plugins/ are loaded at run time, never included)"
        if target.game != place.game:
            return f"plugins/{place.game}/ includes another game, plugins/{target.game}/"
        return None
    if place.layer == "plugins":
        if target.layer == "sdk" or place.game_program:
            return None
        return (f"plugins/{place.game}/ includes {target.layer}/: a plugin is built from sdk/ alone "
                f"(only its {' and '.join(p + '/' for p in GAME_PROGRAMS)} programs may include the core and host)")
    if place.layer not in LAYERS or target.layer not in LAYERS:
        return None
    if LAYERS.index(target.layer) > LAYERS.index(place.layer):
        return f"{place.layer}/ includes {target.layer}/, a layer above it"
    if place.layer != target.layer or place.layer not in ("host", "core"):
        return None
    order, what = (HOST_FOLDERS, "host/src") if place.layer == "host" else (CORE_SERVICES, "the core's")
    if target.folder is None or place.folder is None or target.folder == place.folder:
        return None
    if place.folder in order and target.folder in order and order.index(target.folder) > order.index(place.folder):
        return f"{place.folder}/ includes {target.folder}/, above it in {what} order"
    return None


def undeclared_folders(root):
    found = []
    for base, order in (("host/src", HOST_FOLDERS), ("core/src", CORE_SERVICES),
                        ("core/include/gsdk/core", CORE_SERVICES)):
        if not os.path.isdir(os.path.join(root, base)):
            continue
        for name in sorted(os.listdir(os.path.join(root, base))):
            if os.path.isdir(os.path.join(root, base, name)) and name not in order:
                found.append(f"{base}/{name}/: a folder in no declared order (place it in "
                             f"{'HOST_FOLDERS' if order is HOST_FOLDERS else 'CORE_SERVICES'} of {CHECKER})")
    return found


def check(root):
    """(errors, files read, includes resolved inside the tree)."""
    errors = undeclared_folders(root)
    files = edges = 0
    for path in source_files(root):
        files += 1
        place = Place(path)
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for match in INCLUDE.finditer(text):
            quote, included = match.group(1), match.group(2)
            target = resolve(root, place, quote, included)
            if target is None:
                continue
            edges += 1
            why = problem(place, Place(target))
            if why:
                line = text.count("\n", 0, match.start()) + 1
                shown = f'"{included}"' if quote == '"' else f"<{included}>"
                errors.append(f"{path}:{line}: #include {shown} ({target}): {why}")
    return errors, files, edges


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not all(os.path.isdir(os.path.join(root, layer)) for layer in LAYERS):
        print(f"{root}: not a gsdk source tree (no {', '.join(LAYERS)})", file=sys.stderr)
        return 2
    errors, files, edges = check(root)
    for error in errors:
        print(error)
    if errors:
        print(f"include graph: {len(errors)} problem(s). Declared in {CHECKER}, low to high:")
        print(f"  layers: {', '.join(LAYERS)}; plugins/<game>/ on sdk/ alone")
        print(f"  host/src: {', '.join(HOST_FOLDERS)}")
        print(f"  core services: {', '.join(CORE_SERVICES)}")
        return 1
    print(f"include graph: {files} files, {edges} includes inside the tree, none against the declared layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
