#!/usr/bin/env python3
"""include_graph_check_test.py - include_graph_check.py on tiny trees written to a temporary folder: a tree whose
includes all point down passes, and each back edge planted in it (between host folders, between core services,
between layers, from a plugin) fails with the file, its line and the include named.

usage: include_graph_check_test.py   (Python 3 standard library only; run by ctest as layers.include_graph_check_catches_back_edges)
"""
import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include_graph_check.py")

# A tree that holds: every include points down, a game's tests include the core and host, a header of the C++
# standard library and one that is not in the tree are not edges.
CLEAN = {
    "sdk/include/gsdk/gsdk_plugin.h": "",
    "sdk/include/gsdk/plugin.hpp": '#include "gsdk/gsdk_plugin.h"\n#include <vector>\n',
    "core/include/gsdk/core/runtime/game_instance.hpp": '#include "gsdk/plugin.hpp"\n',
    "core/src/runtime/work_queue.hpp": "#include <atomic>\n",
    "core/include/gsdk/core/playouts/playouts.hpp": '#include "gsdk/core/runtime/game_instance.hpp"\n',
    "core/src/playouts/playouts.cpp": ('#include "gsdk/core/playouts/playouts.hpp"\n'
                                      '#include "runtime/work_queue.hpp"\n#include <fmt/format.h>\n'),
    "host/src/report/log.hpp": "",
    "host/src/config/config_error.hpp": '#include "report/log.hpp"\n',
    "host/src/algorithms/registry.cpp": ('#include "config/config_error.hpp"\n'
                                         '#include "gsdk/core/playouts/playouts.hpp"\n'),
    "host/src/main.cpp": '#include "algorithms/registry.cpp"\n',
    "plugins/nim/rules/nim_rules.hpp": '#include "gsdk/plugin.hpp"\n',
    "plugins/nim/plugin.cpp": '#include "rules/nim_rules.hpp"\n#include "gsdk/plugin.hpp"\n',
    "plugins/nim/tests/nim_test.cpp": ('#include "gsdk/core/playouts/playouts.hpp"\n'
                                       '#include "config/config_error.hpp"\n'),
}


def write_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)


def run_checker(files):
    with tempfile.TemporaryDirectory() as root:
        write_tree(root, files)
        done = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True, timeout=60)
        return done.returncode, done.stdout + done.stderr


class IncludeGraphCheck(unittest.TestCase):
    def assert_refused(self, planted, *named):
        status, output = run_checker({**CLEAN, **planted})
        self.assertEqual(status, 1, output)
        for text in named:
            self.assertIn(text, output)

    def test_a_tree_whose_includes_point_down_passes(self):
        status, output = run_checker(CLEAN)
        self.assertEqual(status, 0, output)
        self.assertIn("none against the declared layers", output)

    def test_a_host_folder_including_a_higher_one_is_named(self):
        self.assert_refused({"host/src/report/listing.cpp": '#include <string>\n\n#include "config/config_error.hpp"\n'},
                            'host/src/report/listing.cpp:3: #include "config/config_error.hpp"',
                            "report/ includes config/")

    def test_a_core_service_including_a_higher_one_is_named(self):
        self.assert_refused({"core/src/runtime/worker_pool.cpp": '#include "gsdk/core/playouts/playouts.hpp"\n'},
                            'core/src/runtime/worker_pool.cpp:1: #include "gsdk/core/playouts/playouts.hpp"',
                            "runtime/ includes playouts/")

    def test_a_public_core_header_including_a_higher_service_is_named(self):
        self.assert_refused({"core/include/gsdk/core/runtime/digest.hpp": '#include "gsdk/core/playouts/playouts.hpp"\n'},
                            "core/include/gsdk/core/runtime/digest.hpp:1:", "runtime/ includes playouts/")

    def test_the_sdk_including_the_core_is_named(self):
        self.assert_refused({"sdk/include/gsdk/rng.hpp": '#include "gsdk/core/runtime/game_instance.hpp"\n'},
                            'sdk/include/gsdk/rng.hpp:1: #include "gsdk/core/runtime/game_instance.hpp"',
                            "sdk/ includes core/")

    def test_the_core_including_the_host_is_named(self):
        self.assert_refused({"core/src/playouts/report.cpp": '#include "report/log.hpp"\n'},
                            'core/src/playouts/report.cpp:1: #include "report/log.hpp"', "core/ includes host/")

    def test_a_plugin_including_the_core_is_named(self):
        self.assert_refused({"plugins/nim/cpu/playouts.cpp": '#include "gsdk/core/runtime/game_instance.hpp"\n'},
                            'plugins/nim/cpu/playouts.cpp:1: #include "gsdk/core/runtime/game_instance.hpp"',
                            "plugins/nim/ includes core/")

    def test_the_host_including_a_game_is_named(self):
        self.assert_refused({"host/src/config/nim.cpp": '#include "../../../plugins/nim/rules/nim_rules.hpp"\n'},
                            "host/src/config/nim.cpp:1:", "host/ includes a game")

    def test_a_folder_in_no_order_is_named(self):
        self.assert_refused({"host/src/extras/extra.hpp": ""}, "host/src/extras/: a folder in no declared order")


if __name__ == "__main__":
    unittest.main(verbosity=2)
