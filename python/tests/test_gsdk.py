"""Tests of the gsdk Python module against the gsdk executable of the same build (ctest sets GSDK_EXECUTABLE and
PYTHONPATH; python/CMakeLists.txt). Without the module built (GSDK_PYTHON=OFF), every test skips."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest

gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")

SOURCE_DIR = pathlib.Path(os.environ.get("GSDK_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
GSDK = os.environ.get("GSDK_EXECUTABLE")
needs_cli = pytest.mark.skipif(not GSDK, reason="GSDK_EXECUTABLE names no gsdk to compare with")

# A graveler playouts run short enough for a test: the quickstart config with fewer battles on two threads.
QUICKSTART = SOURCE_DIR / "configs" / "quickstart.toml"
SHORT = ["playouts.count=200000"]


def cli(*args, check=True):
    return subprocess.run([GSDK, *args], capture_output=True, text=True, check=check)


def test_list_is_the_cli_document():
    listing = gsdk.list()
    games = {plugin["name"] for plugin in listing["plugins"]}
    assert {"graveler", "othello", "chess_perft", "snake", "minefield"} <= games
    othello = next(p for p in listing["plugins"] if p["name"] == "othello")
    assert any(param["name"] == "perft_convention" for param in othello["parameters"])
    if GSDK:
        assert listing == json.loads(cli("list", "--json").stdout)


@needs_cli
def test_run_digest_equals_the_cli(tmp_path):
    out = tmp_path / "cli.json"
    cli("run", str(QUICKSTART), "--set", SHORT[0], "--threads", "2", "--out", str(out), "--quiet")
    from_cli = json.loads(out.read_text())
    results = gsdk.run(QUICKSTART, set=SHORT, threads=2)
    assert results["digest"] == from_cli["digest"]
    assert results["result"] == from_cli["result"]


def test_dict_config_gives_the_file_digest():
    from_file = gsdk.run(QUICKSTART, set=SHORT, threads=2)
    as_dict = {
        "game": "graveler",
        "algorithm": "playouts",
        "seed": 2024,
        "params": {"rolls": 231},
        "playouts": {"count": 200000},
        "run": {"device": "auto"},
    }
    assert gsdk.run(as_dict, threads=1)["digest"] == from_file["digest"]
    # Another seed, another result: the digest is of the result, not a constant.
    assert gsdk.run(as_dict, seed=7)["digest"] != from_file["digest"]


def test_run_writes_the_results_file_only_when_asked(tmp_path):
    out = tmp_path / "results.json"
    results = gsdk.run(QUICKSTART, set=SHORT, out=out)
    assert json.loads(out.read_text())["digest"] == results["digest"]


def test_othello_perft_published_counts():
    # The published Othello counts from the start position (a pass is a ply): 8200 at depth 6, 390216 at 8.
    assert gsdk.perft("othello", "start", 6, device="cpu") == 8200
    assert gsdk.perft("othello", "start", 8, params={"perft_convention": "standard"}) == 390216


def test_perft_divide_sums_to_the_total():
    divided = gsdk.perft("othello", "start", 5, divide=True)
    assert len(divided) == 4  # Othello's four opening moves
    assert sum(divided.values()) == gsdk.perft("othello", "start", 5) == 1396


HASH_KEYS = {"enabled", "paths", "subtrees", "host", "device", "frontier_states", "duplicates"}
TABLE_KEYS = {"bytes", "slots", "filled", "probes", "hits", "stores"}


def test_perft_hash_keywords_give_the_same_counts_and_the_tables_statistics():
    hashed = gsdk.perft("othello", "start", 6, device="cpu")
    plain = gsdk.perft("othello", "start", 6, device="cpu", hash=False)
    sized = gsdk.perft("othello", "start", 6, device="cpu", hash_mb=1, gpu_hash_mb=2)
    # Two threads, as here: a 16-core machine splits the root so deep that depth 7 leaves no subtree to a table.
    deeper = gsdk.perft("othello", "start", 7, device="cpu", hash_mb=1, threads=2)
    assert hashed == plain == sized == 8200
    assert isinstance(hashed, int) and isinstance(hashed, gsdk.PerftCount)
    assert plain.hash is None  # no tables, no statistics
    for stats in (hashed.hash, sized.hash):
        assert set(stats) == HASH_KEYS
        assert set(stats["host"]) == set(stats["device"]) == TABLE_KEYS
        assert all(isinstance(stats[key], int) for key in ("paths", "subtrees", "frontier_states", "duplicates"))
    # At depth 6 Othello's root expansion leaves 1-ply subtrees, below any table; at 7 the 1 MiB table asked for.
    assert deeper == 55092 and 0 < deeper.hash["host"]["bytes"] <= 1 << 20
    divided = gsdk.perft("othello", "start", 5, divide=True, hash_mb=1)
    assert isinstance(divided, gsdk.PerftDivide)
    assert divided == gsdk.perft("othello", "start", 5, divide=True, hash=False)
    assert divided.leaves == sum(divided.values()) == 1396
    assert set(divided.hash) == HASH_KEYS


def test_perft_hash_keywords_are_checked():
    with pytest.raises(gsdk.ConfigError) as raised:
        gsdk.perft("othello", "start", 3, hash=False, hash_mb=64)
    assert "'hash_mb' in [perft] = 64 sizes a transposition table, but hash = false" in str(raised.value)
    with pytest.raises(gsdk.ConfigError) as raised:
        gsdk.perft("othello", "start", 3, gpu_hash_mb=-1)
    assert "'gpu_hash_mb' in [perft] = -1 is out of range" in str(raised.value)
    assert str(raised.value).startswith("<gsdk.perft>:")
    assert gsdk.perft("othello", "start", 3, hash=False, hash_mb=0) == 56  # 0 is the default size, not a size


def test_unknown_game_is_a_plugin_error_naming_the_loaded_games():
    with pytest.raises(gsdk.PluginError) as raised:
        gsdk.perft("nosuch", "start", 1)
    assert isinstance(raised.value, gsdk.Error)
    assert "unknown game 'nosuch'" in str(raised.value)
    assert "othello" in str(raised.value) and "graveler" in str(raised.value)


def test_bad_key_in_a_dict_is_located():
    bad = {"game": "graveler", "algorithm": "playouts", "playouts": {"count": 10, "bogus": 1}}
    with pytest.raises(gsdk.ConfigError) as raised:
        gsdk.run(bad)
    message = str(raised.value)
    assert message.startswith("<dict>:")
    assert "bogus" in message and "count" in message  # the unknown key, and the valid ones listed


def test_bad_value_in_a_dict_is_located():
    bad = {"game": "graveler", "algorithm": "playouts", "playouts": {"count": -5}}
    with pytest.raises(gsdk.ConfigError) as raised:
        gsdk.run(bad)
    assert str(raised.value).startswith("<dict>:")
    assert "-5" in str(raised.value)


def test_none_in_a_dict_names_its_key():
    with pytest.raises(gsdk.ConfigError, match=r"key 'playouts\.count': None"):
        gsdk.run({"game": "graveler", "algorithm": "playouts", "playouts": {"count": None}})


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_numbers_are_config_errors_naming_their_key(value):
    with pytest.raises(gsdk.ConfigError, match=r"<dict>: playouts\.count = (nan|inf|-inf): expected a finite number"):
        gsdk.run({"game": "graveler", "algorithm": "playouts", "playouts": {"count": value}})
    with pytest.raises(gsdk.ConfigError, match=r"set\['playouts\.count'\].*finite"):
        gsdk.run({"game": "graveler", "algorithm": "playouts"}, set={"playouts.count": value})
    with pytest.raises(gsdk.ConfigError, match=r"VectorEnv: params\.step_limit = .*finite"):
        gsdk.VectorEnv("minefield", 2, params={"step_limit": value})
    with pytest.raises(gsdk.ConfigError, match=r"load_game: params\.weights\[1\] = .*finite"):
        gsdk.load_game("othello", params={"weights": [1.0, value]})


def test_the_library_writes_nothing_to_stdout():
    """A program's stdout is its own: runs, counts, environments and agents print nothing there."""
    script = textwrap.dedent("""
        import gsdk
        gsdk.run({"game": "graveler", "algorithm": "playouts", "seed": 1, "playouts": {"count": 1000}}, threads=2)
        gsdk.perft("othello", "start", 4)
        env = gsdk.VectorEnv("othello", 8, seed=1)
        env.step(env.random_actions())
        game = gsdk.load_game("othello")
        gsdk.Agent(game, "uct:playouts=50").choose_action(game.new_initial_state())
        try:
            gsdk.run({"game": "nosuch", "algorithm": "playouts", "playouts": {"count": 10}})
        except gsdk.PluginError:
            pass
    """)
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ)
    assert child.returncode == 0, child.stderr
    assert child.stdout == ""


@needs_cli
@pytest.mark.parametrize("line", ['bogus = 1', 'count = "many"'])
def test_errors_in_a_file_are_the_cli_messages(tmp_path, line):
    config = tmp_path / "bad.toml"
    config.write_text(textwrap.dedent(f"""\
        game = "graveler"
        algorithm = "playouts"

        [playouts]
        {line}
        """))
    with pytest.raises(gsdk.ConfigError) as raised:
        gsdk.run(config)
    message = str(raised.value)
    assert message.startswith(f"{config}:5:")
    from_cli = cli("run", str(config), "--out", str(tmp_path / "r.json"), check=False)
    assert from_cli.returncode == 2
    assert message in from_cli.stderr


def test_ctrl_c_stops_a_run_promptly():
    # Graveler playouts that would take hours; SIGINT a second in must end the call with KeyboardInterrupt. The child
    # takes Python's own SIGINT handler first: one started in the background of a shell inherits SIGINT ignored,
    # and Python then installs none (a CI runner launched with `&` made this test hang).
    script = textwrap.dedent(f"""\
        import signal, sys, gsdk
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("started", flush=True)
        try:
            gsdk.run({str(QUICKSTART)!r}, set=["playouts.count=1_000_000_000_000"], threads=2)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(0)
        sys.exit(3)
        """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=os.environ)
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        output, _ = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0
    assert "interrupted" in output
    assert time.monotonic() - sent < 10
