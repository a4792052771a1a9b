"""benchmarks/attention.py in its smoke mode: every workload runs on the fused kernel and is checked against
NumPy before it is timed; a wrong result is an error, not a row."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import attention as bench  # noqa: E402


def test_small_run(capsys):
    rows = bench.main(["--small", "--no-torch", "--repeat", "1", "--warmup", "0"])
    assert [(r[0], r[2]) for r in rows] == [("MiniLM padding", "float32"), ("MiniLM padding", "float16"),
                                            ("causal", "float32")]
    assert all(r[3] == 1 and r[4] > 0 and r[5] > 0 for r in rows)  # one fused kernel; kdsl and composite ms
    assert "composite ms" in capsys.readouterr().out


def test_check_refuses_a_wrong_answer():
    want = np.ones(4)
    bench.check("w", "float32", np.ones(4, np.float32), want, "float32")
    with pytest.raises(AssertionError, match="disagrees"):
        bench.check("w", "p", np.full(4, 1.01, np.float32), want, "float32")
