"""benchmarks/lavapipe_matmul.py, small: the result is checked before anything is timed, and every figure comes out."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import lavapipe_matmul  # noqa: E402


def test_small_run(capsys, monkeypatch):
    monkeypatch.setattr(lavapipe_matmul, "SPIN_S", 0.0)
    got = lavapipe_matmul.main(48, 1, 2)
    assert got["kdsl"] > 0 and got["numpy"] > 0 and got["first"] > 0
    assert "ratio" in capsys.readouterr().out
