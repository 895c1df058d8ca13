"""The training example (python/examples/train_othello_ppo.py) in its smoke size on the CPU: PPO over a VectorEnv
must lower its value loss and leave a policy that scores clearly better against random than a random black does.
Needs torch (Debian's python3-torch); ctest runs it (GSDK_TRAINING_SMOKE=1), the installed-package pass does not."""

import importlib.util
import os
import pathlib

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (Debian: python3-torch)")
gsdk = pytest.importorskip("gsdk", reason="the gsdk module is not built (GSDK_PYTHON=OFF) or not on PYTHONPATH")
pytestmark = pytest.mark.skipif(os.environ.get("GSDK_TRAINING_SMOKE") != "1",
                                reason="the training smoke run is ctest's (GSDK_TRAINING_SMOKE=1)")

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "train_othello_ppo.py"


def load_example():
    spec = importlib.util.spec_from_file_location("train_othello_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ppo_learns_to_beat_random_black(tmp_path):
    document = load_example().main(["--smoke", "--threads", "2", "--out", str(tmp_path)])
    rows = document["rows"]
    first_value = sum(r["value"] for r in rows[:3]) / 3
    late_value = sum(r["value"] for r in rows[-3:]) / 3
    assert late_value < first_value, f"value loss {first_value:.4f} -> {late_value:.4f}"
    assert document["final_win_rate"] > document["final_random_win_rate"] + 0.1, document
    assert (tmp_path / "metrics.json").is_file()
